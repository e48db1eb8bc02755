"""One live game at the table: the lock, the seq check, the clock and pacing,
timeouts, undo, and publishing views to listeners (see `table.session.Table`)."""

from .pacing import Pace, Settings
from .session import Denied, Listener, NotFound, Stale, Table

__all__ = ["Denied", "Listener", "NotFound", "Pace", "Settings", "Stale", "Table"]
