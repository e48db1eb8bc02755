# mypy: disallow-any-expr, disallow-any-generics, disallow-untyped-defs
"""What the firmware asks of the table [issue 15], as typed Protocols.

The firmware sits below the table (DESIGN.md): it imports nothing from
`companion.table`, and the table knows nothing of pins. These Protocols name
exactly what the seat boxes' bridge and the display use of a table, so mypy
follows a press from the button's callback through `SeatBridge` into
`act_presses` and the public view back out to each LED with no `Any` on the
way. `companion/serve.py` passes the real `companion.table.Table`, which
satisfies them structurally; tests/firmware/test_ports.py has mypy check that
(and that a table missing a method is refused), so a change on either side
fails there and not on a Pi.

Views are JSON objects: `View` says so, and readers narrow each field they
use (`field`, `seats` in firmware/bridge.py) instead of trusting its type.
"""

from __future__ import annotations

import queue
from collections.abc import Callable
from types import TracebackType
from typing import Protocol, TypeVar

#: a view as the table publishes it: a JSON object (values narrowed on use)
View = dict[str, object]
#: called by the table with each new public view, right after its commit
PublicHook = Callable[[View], None]
#: a batch of seat-box presses: (game seat, when on the table's clock)
Presses = list[tuple[int, float]]


class Lock(Protocol):
    """The table's lock (a `threading.RLock`): held while the bridge hooks in,
    so no public view is published between the hook and the first frame."""

    def __enter__(self) -> object: ...

    def __exit__(self, t: type[BaseException] | None, v: BaseException | None,
                 tb: TracebackType | None, /) -> object: ...


class PressTable(Protocol):
    """What `SeatBridge` uses: presses in, public views out."""

    @property
    def lock(self) -> Lock: ...

    @property
    def clock(self) -> Callable[[], float]:
        """The table's clock (seconds): a press's moment is on it (roll-call windows)."""

    @property
    def public_hooks(self) -> list[PublicHook]:
        """Called under the lock with each new public view, after its commit."""

    def public(self) -> View:
        """The public view now (what the table screen shows)."""

    def act_presses(self, presses: Presses) -> list[str]:
        """Every press as a vote, committed in one transaction; one outcome a
        press, in order: "recorded" or why it was refused."""


class Stream(Protocol):
    """One listener of the table's stream: its queue gets each new view as a
    JSON message, and "" when the stream ends."""

    @property
    def queue(self) -> queue.Queue[str]: ...


L = TypeVar("L", bound=Stream)


class PublicStream(Protocol[L]):
    """What `Display.follow` uses: the public stream, and leaving it."""

    def listen(self, audience: str) -> tuple[L, str]:
        """A new listener of `audience` and the full current view (JSON) to show first."""

    def unlisten(self, listener: L) -> None: ...


class TablePort(PressTable, PublicStream[L], Protocol[L]):
    """Everything the table's hardware (`TableHardware`) asks of the table."""
