"""How the game moves on by itself between inputs.

The rules that close a step (the night's steps, the votes, the deaths' queue)
do not call the next part of the game: each returns what comes next, a
`Next` ("queue", "day", "vote", "night") or None when the game now waits for
someone (or is over), and `go` runs those moves one after another. So the
night, the votes and the deaths need not import one another in a ring: night
-> dawn says "queue", the queue says "day", the day's vote says "queue" again,
and only this module knows all three.
"""

from __future__ import annotations

from collections.abc import Callable

from .deaths import run_queue
from .kernel import Next
from .night import begin_night
from .state import State
from .votes import begin_day, open_vote

MOVES: dict[str, Callable[[State], Next]] = {
    "queue": run_queue,  # the dead's triggers, then the win check (RULES.md §6, §7)
    "day": begin_day,
    "vote": lambda state: open_vote(state, 1, None),  # after a day power's deaths (§8)
    "night": lambda state: begin_night(state, state.n + 1),
}


def go(state: State, move: Next) -> None:
    """Make `move` and the moves it leads to, until the game waits for someone."""
    while move is not None:
        move = MOVES[move](state)
