"""The table's time [issue 16]: pacing's timeouts applied to the engine, and
the pace kept durable as *time left* (`Pace.to_record`), so that a restart on
a monotonic clock that starts again anywhere resumes every deadline with the
time it had, whatever the wall clock says.

Functions of `table.Table`'s commit path, under its lock; pacing itself stays
pure (pacing.py).
"""

from __future__ import annotations

from ..engine import Action, State, act
from ..store import Store
from . import pacing
from .pacing import Pace

#: while a deadline runs, its time left is saved at least this often (a
#: restart loses no more than this of the table's time)
SAVE_LEFT_S = 5.0


def settle(state: State, pace: Pace, now: float, rules: pacing.Rules) -> Pace:
    """Advance pacing as far as `now`, applying the engine's timeouts it calls for."""
    for _ in range(10_000):
        pace, timeout = pacing.advance(state, pace, now, rules)
        if not timeout:
            break
        act(state, Action(None, "timeout"), expect=state.acts)
    return pace


def commit(store: Store, game: int, start: int, state: State, pace: Pace, changed: bool,
           now: float, saved_at: float) -> float:
    """Commit the events from `start` with the pace (as time left at `now`);
    without new events, the pace alone when it `changed` or when a running
    deadline's time left was last saved SAVE_LEFT_S ago. Answers when the
    pace was last written."""
    new = state.log[start:]
    if new:
        store.append(game, start, new, pace.to_record(now), state.winner)
        return now
    if changed or (pace.deadline is not None and pace.paused is None
                   and now - saved_at >= SAVE_LEFT_S):
        store.save_pace(game, pace.to_record(now))
        return now
    return saved_at
