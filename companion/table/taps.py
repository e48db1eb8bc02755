"""Taps on the table's time [issue 45]: the game master's clock buttons
(`timer`), a speaker's pass, a phone's Ready and the night's decoy tap. Each
asks the pace (pacing.py, turns.py, ready.py) for the new pace, which the
table commits by its one path; none acts on the engine. `Table` holds one
(`Table.taps`) and answers these through it."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Protocol

from ..engine import State
from . import pacing, ready, turns
from .audiences import Audiences, Sent
from .checks import check_decoy
from .errors import BadInput, NotNow, Stale
from .pace import Pace


class Clocked(Protocol):
    """What the taps use of their table (`table.Table`)."""

    lock: threading.RLock
    clock: Callable[[], float]
    pace: Pace
    audiences: Audiences

    def _need_game(self) -> State: ...

    def seat_view(self, seat: int) -> Sent: ...

    def gm_view(self) -> Sent: ...

    def _advance_and_commit(self, now: float, start: int, quiet: bool = False,
                            phones: bool = False) -> None: ...  # the one path's commit


class Taps:
    """The taps on one table's time (under the table's lock)."""

    def __init__(self, table: Clocked) -> None:
        self.table = table

    def suspect(self, seat: int, raw: object) -> Sent:
        """The night's decoy tap [issue 28], checked as a phone's action's form
        is (`check_decoy`), then dropped. Answers the seat's view."""
        table = self.table
        with table.lock:
            check_decoy(table.audiences, table._need_game(), seat, raw)
            if pacing.speaking(table.pace, table.clock()):  # as an action would be [issue 29]
                raise NotNow(pacing.NARRATOR_SPEAKING)
            if ready.said_ready(table.pace, seat):  # as an action would be [issue 40]
                raise NotNow(pacing.SAID_READY)
            return table.seat_view(seat)

    def pass_turn(self, seat: int) -> Sent:
        """The speaker's phone ends his own turn [issue 34] (RULES.md §6
        `discussion_turns`: a player may pass); NotNow when it is not his
        turn. Answers the seat's view."""
        return self._pace_tap(seat, lambda now: turns.pass_turn(self.table.pace, seat, now))

    def ready(self, seat: int) -> Sent:
        """A phone's "ready" in night 1's window [issue 34] (`ready_ends_night`,
        RULES.md §4 [004]): kept in the pace; the window ends once every
        living phone is ready and no night action is awaited. Answers the
        seat's view."""
        return self._pace_tap(seat, lambda now: ready.tap_ready(self.table._need_game(),
                                                                 self.table.pace, seat))

    def _pace_tap(self, seat: int, tap: Callable[[float], Pace]) -> Sent:
        table = self.table
        with table.lock:
            state = table._need_game()
            now = table.clock()
            if pacing.speaking(table.pace, now):
                raise NotNow(pacing.NARRATOR_SPEAKING)
            try:
                table.pace = tap(now)
            except ValueError as err:
                raise NotNow(str(err)) from None
            table._advance_and_commit(now, start=len(state.log))
            return table.seat_view(seat)

    def timer(self, do: str, seconds: float = 0, stage: int | None = None) -> Sent:
        """start (ends the deal) | pause | resume | extend (by `seconds`) |
        skip; `stage`: the Pace.stage it was pressed on (Stale if another)."""
        table = self.table
        with table.lock:
            state = table._need_game()
            if do == "start" and table.pace.mode != "deal":
                raise NotNow("the game has already started")
            if stage is not None and stage != table.pace.stage:
                raise Stale("the clock has moved on since that press (it ended or began "
                            "something else): look at the table, then press again")
            now = table.clock()
            try:
                table.pace = pacing.timer(table.pace, do, seconds, now)
            except ValueError as err:
                raise BadInput(str(err)) from None
            table._advance_and_commit(now, start=len(state.log))
            return table.gm_view()
