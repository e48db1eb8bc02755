"""Night 1's "ready" [issue 34]: with `ready_ends_night` (RULES.md §4
[004] 「参戦者全員の準備が完了次第」) jp-standard's first window ends once every
phone alive at nightfall tapped the same "ready" button: the taps alone
end it, and a Ready is its phone's last word for the window (RULES.md §4
Decision r5: a role holder who taps it without acting passes) [issue 40].
The taps live in the table's Pace; every phone shows the same button, so
they tell nothing.

    tap_ready(state, pace, seat) -> Pace    all_ready(state, pace) -> bool
"""

from __future__ import annotations

from ..engine import State
from ..engine import ready_window as engine_ready_window
from ..engine.state import TOGETHER
from .pace import Pace


def ready_window(state: State, pace: Pace) -> bool:
    """`ready_ends_night` [issue 34] (RULES.md §4 [004]: 「参戦者全員の準備が
    完了次第」): the table holds night 1's one window and the option applies
    (`engine.ready_window`: the engine may already have left the window once
    it waited for nobody), so it may end on the living phones' "ready"."""
    return (pace.mode == "calls" and pace.night == 1
            and pace.cursor < len(pace.calls) and pace.calls[pace.cursor] == TOGETHER
            and engine_ready_window(state))


def _up_tonight(state: State, night: int) -> list[int]:
    """The seats alive when night `night` fell (the engine may have resolved
    its dawn already: who died in it must not change what the window waits
    for)."""
    died = {seat for seat, _, time in state.deaths if time == f"night {night}"}
    return [s for s in range(state.size) if state.alive[s] or s in died]


def tap_ready(state: State, pace: Pace, seat: int) -> Pace:
    """A living phone's "ready" in night 1's window [issue 34]; every phone
    shows the same button, so it tells nothing. ValueError when no such
    window is open or the seat is dead."""
    if not ready_window(state, pace):
        raise ValueError("there is nothing to be ready for now")
    if seat not in _up_tonight(state, pace.night):
        raise ValueError("the dead take no part in the night")
    pc = pace.copy()
    if seat not in pc.ready:
        pc.ready = sorted([*pc.ready, seat])
    return pc


def all_ready(state: State, pace: Pace) -> bool:
    """Night 1's window may end [issue 34]: every seat alive when the night
    fell tapped "ready" (a death resolved at its dawn does not excuse its
    phone). The taps alone end it (RULES.md §4 Decision r5): a role holder's
    Ready passes what he has not done — the window's end, and the step's
    timeout, take it — so its moment says nothing of any role [issue 40]."""
    return (ready_window(state, pace)
            and all(seat in pace.ready for seat in _up_tonight(state, pace.night)))


def said_ready(pace: Pace, seat: int) -> bool:
    """The seat tapped "ready" in the window now open: its last word for it
    (no action, no decoy after it: every phone alike) [issue 40]."""
    return pace.mode == "calls" and seat in pace.ready


def up_tonight(state: State, night: int, seat: int) -> bool:
    """The seat was alive when night `night` fell (its phone has the
    night's "ready" button [issue 34])."""
    return seat in _up_tonight(state, night)
