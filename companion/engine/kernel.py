"""The primitives every rule and every hook is written with: emitting an
event, drawing chance, killing, and the small questions about seats (who holds
a card, who lives beside whom, which wolves are up).

This module knows no role and no hook: the common rules (choices, night,
votes, deaths, wins, acting) and the hooks (powers.py, professions.py) all
import it, and it imports neither, so the engine's imports run one way.
"""

from __future__ import annotations

from collections.abc import Callable
from random import Random
from typing import TypeVar

from ..options import FIRST_NIGHT_ATTACK
from . import event_cards
from .event_cards import EventCard
from .roles import NIGHT_STEPS, ROLES, called_tonight
from .rulesets import MAX_PLAYERS
from .state import APPLY, STEP_KEEPS, State

PROMPTS = ("hunter", "appoint", "allow", "pardon")
VOTES = ("election", "vote")
PUBLIC_CAUSES = frozenset({"execution", "hunter", "scapegoat", "barber"})
KEYS = tuple(str(i) for i in range(MAX_PLAYERS))  # a seat as a JSON object's key
T = TypeVar("T")
#: who dies the same moment as a card's holder, besides his lover (seat, cause):
#: powers.py's `along` hooks, by card (this module imports no hook: powers.py
#: fills it as it is imported)
ALONG: dict[str, Callable[[State, int, str], list[tuple[int, str]]]] = {}


def emit(state: State, event: dict) -> None:
    """Apply `event` and log it: `state.apply` written out, as this runs for
    every event of every game (keep the two in step)."""
    kind = event["e"]
    event["a"] = state.acts
    APPLY[kind](state, event)
    if kind != "act" or event["do"] not in STEP_KEEPS:
        state.memo_step.clear()
    if "draw" in event:
        state.draws += 1
    state.log.append(event)


def rng(state: State) -> Random:
    """The next chance draw's generator: seeded by the game's seed and the
    number of draws so far, so a rebuild from the log needs no RNG state."""
    return Random(f"{state.seed}:{state.draws}")


def kill(state: State, seat: int, cause: str, time: str, heartbreak: bool = True) -> None:
    """`seat` dies; his lover dies of heartbreak the same moment, before any
    prompt of the queue is answered (RULES.md §6 Decision, the trigger queue).
    `heartbreak` False: the caller kills several at once, then `heartbreaks`."""
    if not state.alive[seat]:
        return  # (the lover of one who died in the same batch)
    emit(state, {"e": "died", "seat": seat, "cause": cause, "time": time})
    if heartbreak:
        heartbreaks(state, (seat,), time)
    along = ALONG.get(state.roles[seat]) if ALONG else None
    if along is not None:  # at once, like a heartbreak (the elder's idiot, RULES.md §5)
        for other, why in along(state, seat, cause):
            kill(state, other, why, time)


def heartbreaks(state: State, dead: tuple[int, ...] | list[int], time: str) -> None:
    """The lovers of `dead` who still live die of heartbreak (RULES.md §6 Decision)."""
    if not state.lovers:
        return
    for seat in dead:
        lover = lover_of(state, seat)
        if lover is not None and state.alive[lover]:
            emit(state, {"e": "died", "seat": lover, "cause": "heartbreak", "time": time})


def fresh_memo(state: State) -> dict:
    """A fresh cache for the state as it is now (legal actions, waiting seats,
    the public view): every event makes the old one stale."""
    state.memo.clear()
    state.memo_at = len(state.log)
    return state.memo


def living(state: State) -> tuple[int, ...]:
    return state.up


def holder(state: State, role: str) -> int | None:
    """The living player holding `role` (single cards only)."""
    alive = state.alive
    for i in (state.memo_cards or seats_by_card(state)).get(role, ()):
        if alive[i]:
            return i
    return None


def seats_by_card(state: State) -> dict[str, list[int]]:
    """The seats holding each card, living or not (cached until a card changes hands)."""
    got = state.memo_cards
    if not got:
        for i, r in enumerate(state.roles):
            got.setdefault(r, []).append(i)
    return got


def in_play(state: State, table: dict[str, T]) -> dict[str, T]:
    """`table` (a powers.py hook table: card -> hook) less the cards no seat
    holds, living or dead: an absent card's hook has nothing to do. Cached
    until a card changes hands."""
    got = state.memo_play.get(id(table))
    if got is None:
        cards = seats_by_card(state)
        got = state.memo_play[id(table)] = {c: h for c, h in table.items() if c in cards}
    return got


def night_order(state: State) -> tuple[str, ...]:
    """NIGHT_STEPS less the steps of cards no seat holds, living or dead (the
    pack's step stays); cached as `in_play`. What the table *calls* at night
    is steps.night_calls, every step."""
    got = state.memo_play.get("order")
    if got is None:
        cards = seats_by_card(state)
        got = state.memo_play["order"] = tuple(
            s for s in NIGHT_STEPS if s == "wolves" or s in cards)
    return got


def together_steps(state: State) -> tuple[str, ...]:
    """The night steps that act inside tonight's TOGETHER step (jp-standard,
    RULES.md §4): those of `night_order` called tonight, in §4's order (seer,
    knight, wolves; on night 1 the seer only)."""
    attack = attack_tonight(state)
    return tuple(s for s in night_order(state) if called_tonight(s, state.n, attack))


def powered(state: State, seat: int) -> bool:
    """His card's village power still works (the elder's death takes them all [003])."""
    return not (state.powers_lost and ROLES[state.roles[seat]].village_power)


def lover_of(state: State, seat: int) -> int | None:
    if state.lovers and seat in state.lovers:
        a, b = state.lovers
        return b if seat == a else a
    return None


def mixed_lovers(state: State) -> bool:
    if not state.lovers:
        return False
    a, b = (state.roles[i] for i in state.lovers)
    return ROLES[a].wolf != ROLES[b].wolf or (ROLES[a].team == "piper") != (
        ROLES[b].team == "piper")


def _neighbour(state: State, seat: int, way: int) -> int | None:
    for k in range(1, state.size):
        j = (seat + way * k) % state.size
        if state.alive[j]:
            return j
    return None


def left_of(state: State, seat: int) -> int | None:
    """The next living player clockwise (RULES.md §1)."""
    return _neighbour(state, seat, 1)


def right_of(state: State, seat: int) -> int | None:
    """The previous living player clockwise (RULES.md §1)."""
    return _neighbour(state, seat, -1)


def wolf_seats(state: State) -> list[int]:
    """The seats holding a wolf card, living or dead (cached as `in_play`)."""
    got = state.memo_play.get("wolf-seats")
    if got is None:
        got = state.memo_play["wolf-seats"] = [
            i for i, r in enumerate(state.roles) if ROLES[r].wolf]
    return got


def living_wolves(state: State) -> list[int]:
    """The living wolves (cached for the open step: nobody dies inside a step)."""
    got = state.memo_step.get("wolves")
    if got is None:
        alive = state.alive
        got = state.memo_step["wolves"] = [i for i in wolf_seats(state) if alive[i]]
    return got


def attack_tonight(state: State) -> bool:
    """The wolves attack tonight: not on night 1 without `first_night_attack`,
    nor on the night after a quiet-night card (RULES.md §10)."""
    if not (state.n > 1 or FIRST_NIGHT_ATTACK.of(state.opts)):
        return False
    card = tonight(state)
    return card is None or card.attack


def today(state: State) -> EventCard | None:
    """The event card turned at this day's dawn (None: none today, or not day)."""
    if state.phase != "day" or state.card_day != state.n:
        return None
    return event_cards.card(state.card)


def tonight(state: State) -> EventCard | None:
    """The event card turned at the last dawn, during the night that follows it."""
    if state.phase != "night" or state.card is None or state.card_day != state.n - 1:
        return None
    return event_cards.card(state.card)


def step_label(state: State) -> str:
    """Where the game waits, for people: "night 2 seer", "day 1 runoff 2"."""
    if state.phase == "over":
        return "over"
    step = state.step
    if step == "vote" and state.nominees is not None:  # vote_mode=candidates (§6)
        step = "candidates" if state.round == 2 else f"runoff {state.round - 2}"
    elif step == "vote" and state.round > 1:
        step = f"runoff {state.round - 1}"
    elif step == "election" and state.round > 1:
        step = "election runoff"
    return f"{state.time()} {step}"


#: What a rule that closes a step says comes next: a key of flow.MOVES
#: ("queue", "day", "vote", "night"), or None: the game waits for someone.
Next = str | None
