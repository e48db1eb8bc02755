"""What New Moon's event cards do beyond their data (RULES.md §10): turning
the top card at dawn, and the wolves' ally's call. One section per card
that needs a hook; the others are data only (event_cards.py), read by the
common rules where they apply (kernel.attack_tonight, votes' tally and
second vote, steps.pending's discussion, views' open ballots).

Hooks the common rules call (each does nothing in a game without events):

- `turn(state)`: at each day's dawn, after the night's deaths and their
  triggers, before the election, discussion and vote: the top card is turned
  over (an "event" event, public).
- `calls(state)`: the calls the card turned at the last dawn adds to
  tonight's public calling order, before every other (steps.night_calls).
- `nightfall(state)`: as the night begins, before every other step: True if
  it opened a step of its own (the first dead's call).
- STEPS: the night steps of the cards (`Step`: a seat's choices, what
  follows his act), the engine's own steps besides the cards' (roles.py).
- `team(state, seat, team)`: a seat's side, as the card made it (the ally's).
- `side(state, team, seats)`: the winners of a side, as the cards make them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .actions import Action, Choice
from .kernel import emit, tonight, wolf_seats
from .roles import ROLES
from .state import State


def turn(state: State) -> None:
    """The top card, turned over for everyone; an empty deck turns none."""
    if state.turned < len(state.cards):
        emit(state, {"e": "event", "card": state.cards[state.turned], "n": state.n})


def calls(state: State) -> list[str]:
    """Tonight's calls of the card turned at the last dawn (public: the card is)."""
    card = tonight(state)
    return list(card.calls) if card is not None else []


def nightfall(state: State) -> bool:
    card = tonight(state)
    if card is None:
        return False
    hook = NIGHTFALL.get(card.id)
    return hook is not None and hook(state)


# --- wolves-ally [003] ------------------------------------------------------------
# The first player of the game to have died is called and names one living
# player; a non-wolf named becomes the wolves' ally: he is shown the wolves
# (his result, seen when his own call opens) and wins iff the wolves win.

#: solo cards the event does nothing to, and nobody is told (RULES.md §10 Decision)
SOLO = frozenset({"fox", "piper"})


def first_dead(state: State) -> int | None:
    """The first player of the game to have died, by the order of deaths."""
    return state.deaths[0][0] if state.deaths else None


def _ally_nightfall(state: State) -> bool:
    seat = first_dead(state)
    if seat is None:
        return False  # nobody has died yet: the event does nothing (its calls still run)
    emit(state, {"e": "step", "step": "first-dead", "actor": seat})
    return True


def _first_dead_choices(state: State, seat: int) -> list[Choice]:
    if seat != state.actor:
        return []
    return [Choice.one_of("name", state.up), Choice("pass")]  # he is dead: not among them


def _named(state: State, a: Action) -> None:
    """A non-wolf named becomes the ally, shown the wolves; a wolf named, or a
    solo card, changes nothing and nobody is told (RULES.md §10 Decisions)."""
    seat = a.target
    if a.do != "name" or seat is None:
        return
    role = ROLES[state.roles[seat]]
    if role.wolf or state.roles[seat] in SOLO:  # the same count of events: nothing told
        emit(state, {"e": "ally", "seat": None, "named": seat, "wolves": []})
        return
    emit(state, {"e": "ally", "seat": seat, "named": seat, "wolves": list(wolf_seats(state))})


def _ally_team(state: State, seat: int, team: str) -> str:
    return "werewolves" if seat == state.ally and team == "village" else team


def _ally_side(state: State, team: str, seats: list[int]) -> list[int]:
    """The ally wins iff the werewolves win (a mixed lover keeps the lovers' goal)."""
    ally = state.ally
    if ally is None:
        return seats
    mixed = state.lovers is not None and ally in state.lovers and ROLES[
        state.roles[state.lovers[0]]].wolf != ROLES[state.roles[state.lovers[1]]].wolf
    if team == "werewolves":
        return seats if ally in seats or mixed else sorted([*seats, ally])
    return [s for s in seats if s != ally]


# --- the tables ----------------------------------------------------------------------

@dataclass(frozen=True)
class Step:
    """A card's own night step: the seat's choices, and what follows his act."""

    choices: Callable[[State, int], list[Choice]]
    acted: Callable[[State, Action], None]


STEPS: dict[str, Step] = {"first-dead": Step(_first_dead_choices, _named)}
NIGHTFALL: dict[str, Callable[[State], bool]] = {"wolves-ally": _ally_nightfall}


def team(state: State, seat: int, team_: str) -> str:
    return _ally_team(state, seat, team_) if state.ally is not None else team_


def side(state: State, team_: str, seats: list[int]) -> list[int]:
    return _ally_side(state, team_, seats) if state.ally is not None else seats
