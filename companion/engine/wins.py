"""Who has won, once the dead are counted (RULES.md §7).

`outcome(state)` is asked each time the deaths' queue runs dry: the lovers of
a mixed pair, then each solo card's own win (powers.py `wins`, in the order
§7 checks them), then the village against the wolves, with a card that steals
the win of whichever side wins (the fox [004]).
"""

from __future__ import annotations

from ..options import WOLVES_WIN
from . import new_moon, powers
from .kernel import holder, in_play, living, mixed_lovers, wolf_seats
from .roles import ROLES
from .state import State

# --- winning (RULES.md §7) -----------------------------------------------------

def outcome(state: State) -> tuple[str, list[int]] | None:
    up = living(state)
    roles = state.roles
    if not up:
        return "draw", []
    mixed = state.lovers if state.lovers and mixed_lovers(state) else None  # the mixed pair
    if mixed and sorted(up) == sorted(mixed):
        return "lovers", sorted(mixed)
    # a solo card's own win: the piper, the white werewolf
    for role, wins in in_play(state, powers.WINS).items():
        seat = holder(state, role)
        if seat is not None and wins(state, seat, mixed):
            team = ROLES[role].team
            return team, _side(state, team)
    alive = state.alive
    wolf_seats, thief_seats, lone_seats = _sides(state)
    # the living among them (a loop, no comprehension: this runs after every death)
    wolves = 0
    for i in wolf_seats:
        if alive[i]:
            wolves += 1
    thieves = [i for i in thief_seats if alive[i]] if thief_seats else ()
    humans = len(up) - wolves - len(thieves)
    # a living card that takes the win of whichever side wins (the fox [004])
    thief = roles[thieves[0]] if thieves else None
    if not wolves:
        team = ROLES[thief].team if thief else "village"
        return team, _side(state, team)
    if lone_seats and any(map(alive.__getitem__, lone_seats)):
        return None  # the white werewolf: beside other wolves (RULES.md §7 Decision), the
        # pack cannot win; alone, his win is his own (above)
    if mixed:
        a, b = mixed
        if all(state.alive[i] for i in (a, b)) and (ROLES[roles[a]].wolf or ROLES[roles[b]].wolf):
            return None
    won = not humans if WOLVES_WIN.of(state.opts) == "all-dead" else wolves >= humans
    if not won:
        return None
    team = ROLES[thief].team if thief else "werewolves"
    return team, _side(state, team)


def _sides(state: State) -> tuple[list[int], list[int], list[int]]:
    """The seats holding a wolf card, a card that steals the win (`steals`),
    a wolf card with whom the pack cannot win (`lone`), living or dead
    (cached as `kernel.in_play`, until a card changes hands)."""
    got = state.memo_play.get("sides")
    if got is None:
        roles = state.roles
        got = state.memo_play["sides"] = (
            wolf_seats(state),
            [i for i, r in enumerate(roles) if r in powers.STEALS],
            [i for i, r in enumerate(roles) if r in powers.LONE])
    return got


def _side(state: State, team: str) -> list[int]:
    lovers = set(state.lovers) if state.lovers and mixed_lovers(state) else set()
    seats = [i for i, r in enumerate(state.roles) if ROLES[r].team == team and i not in lovers]
    return new_moon.side(state, team, seats)  # the wolves' ally (RULES.md §10)


def side_of(state: State, seat: int) -> str:
    """The side a seat plays for: its card's team, "lovers" for a mixed pair
    of lovers (RULES.md §7), the werewolves' for their ally (RULES.md §10):
    the one rule for its phone, the story and the season [issue 44]."""
    if state.lovers and mixed_lovers(state) and seat in state.lovers:
        return "lovers"
    return new_moon.team(state, seat, ROLES[state.roles[seat]].team)  # the wolves' ally
