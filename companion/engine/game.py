"""Creating a game, and taking its last action back.

`new_game` checks the setup (players, deal, centre cards, professions), logs
it as the "setup" event and opens the first night; `undo` rebuilds the state
from the log without the last action (the log is the game: state.rebuild).
"""

from __future__ import annotations

from random import Random

from ..options import PROFESSIONS
from . import professions as village
from .errors import IllegalAction, SetupError
from .flow import go
from .kernel import emit
from .night import begin_night
from .rulesets import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    check_copies,
    check_role,
    recommended_deal,
    resolve_options,
    ruleset_roles,
)
from .state import State, rebuild


def new_game(ruleset: str, players: list[str], deal: list[str] | None = None,
             options: dict | None = None, center: list[str] | None = None,
             seed: int = 0, professions: list[str] | None = None) -> State:
    """A new game at its first step. `deal` is the card of each seat (None: a
    random deal of the recommended distribution, drawn from `seed`).
    `professions` is The Village's token of each seat (None: dealt from the
    seed when the `professions` option is on, else none in play)."""
    opts = resolve_options(ruleset, options)
    players = list(players)
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise SetupError(f"a game seats {MIN_PLAYERS}–{MAX_PLAYERS} players, not {len(players)}")
    if not all(isinstance(p, str) and p.strip() for p in players):
        raise SetupError("player names must be non-empty strings")
    if len(set(players)) != len(players):
        dupes = sorted({p for p in players if players.count(p) > 1})
        raise SetupError(f"duplicate player names: {', '.join(dupes)}")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise SetupError(f"seed must be an integer, not {seed!r}")
    center = list(center or [])
    if deal is None:  # the recommended distribution, shuffled from the seed
        counts = recommended_deal(ruleset, len(players))
        deal = [r for r, c in sorted(counts.items()) for _ in range(c)]
        Random(f"{seed}:deal").shuffle(deal)
    if len(deal) != len(players):
        raise SetupError(f"the deal has {len(deal)} cards for {len(players)} players")
    cards = [*deal, *center]
    if not ruleset_roles(ruleset).issuperset(cards):
        for role in cards:
            check_role(ruleset, role)  # says which card and why
    if "thief" in deal:
        if len(center) != 2:
            raise SetupError("a dealt thief needs exactly two centre cards")
        if deal.count("thief") > 1 or "thief" in center:
            raise SetupError("there is only one thief card")
    elif center:
        raise SetupError("centre cards are only used when the thief is dealt")
    check_copies({role: cards.count(role) for role in set(cards)})
    if professions is None and PROFESSIONS.of(opts):
        professions = village.deal(len(players), seed)
    setup = {"e": "setup", "ruleset": ruleset, "options": opts, "players": players,
             "deal": list(deal), "center": center, "seed": seed}
    if professions is not None:  # absent otherwise: older logs replay unchanged
        professions = list(professions)
        village.check(professions, len(players))
        setup["professions"] = professions
    state = State()
    emit(state, setup)
    go(state, begin_night(state, 1))
    return state


def undo(state: State) -> State:
    """The state before the last action: a rebuild from the log without it."""
    if state.acts == 0:
        raise IllegalAction("nothing to undo")
    last = state.acts
    return rebuild([e for e in state.log if e["a"] < last])
