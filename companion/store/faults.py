"""The storage's faults, named [issue 17]: what the hub answers when the SD
card is full, or the game file went away under it, instead of "internal error".

Each carries the HTTP status the hub answers it with (the hub's error
handler reads `status`), so nothing above the store needs to know SQLite's
error codes.
"""

from __future__ import annotations

import errno
import os
import shutil
import signal
import sqlite3
from pathlib import Path

FULL = "the Pi's storage is full: free space, then retry"


class StoreError(Exception):
    """A write the store could not make durable: nothing of it was kept."""

    status = 503


class StoreFull(StoreError):
    """No space left for the write (SQLITE_FULL, or an I/O error on a full disk)."""

    status = 507

    def __init__(self, message: str = FULL) -> None:
        super().__init__(message)


READ_ONLY = ("the game file is read-only (the SD card went read-only, or its permissions "
             "changed): nothing was saved; make it writable again, then retry")


class StoreReadOnly(StoreError):
    """The file (or its folder, or the card) cannot be written [issue 30 item 8]:
    503, nothing of the write kept; the next write after it is writable again
    goes through."""

    def __init__(self, message: str = READ_ONLY) -> None:
        super().__init__(message)


class StoreGone(StoreError):
    """The game file was deleted or replaced while the hub had it open."""


GONE = ("the data folder (or the SD card it is on) is gone: nothing was saved; "
        "put the card back, then restart the hub")


class StoreBusy(StoreError):
    """Another hub (or command) has the data folder open [issue 41]: two hubs
    on one game file would each write its own game into it."""


# --- where a commit can be cut short [issue 41] ------------------------------------------

#: the fault matrix's kill points: `WEREWOLF_CRASH_AT=point:k` kills this
#: process with SIGKILL the k-th time it reaches `point` (a test's writer only)
POINTS = ("journal-written", "journal-synced", "committed", "checkpoint-before",
          "checkpoint-after", "snapshot-written", "snapshot-renamed", "journal-restarted")
_crash: list = []


def _armed() -> list:
    spec = os.environ.get("WEREWOLF_CRASH_AT", "")
    point, _, count = spec.partition(":")
    return [point, int(count or 1)] if point in POINTS else []


_crash[:] = _armed()


def crash_point(name: str) -> None:
    """A point of a commit where the fault matrix may cut the power."""
    if _crash and _crash[0] == name:
        _crash[1] -= 1
        if _crash[1] <= 0:
            os.kill(os.getpid(), signal.SIGKILL)


#: a write failing with this little free space is taken for a full disk
LOW_SPACE = 256 * 1024


def named(err: sqlite3.Error, path: Path) -> Exception:
    """`err` as the fault it is: StoreFull for a full disk, StoreReadOnly for
    a file that cannot be written, else itself."""
    name = getattr(err, "sqlite_errorname", "")
    if name == "SQLITE_FULL":
        return StoreFull()
    if name.startswith("SQLITE_READONLY") or name == "SQLITE_PERM":
        return StoreReadOnly()
    if name.startswith("SQLITE_IOERR"):
        try:
            if shutil.disk_usage(path.parent).free < LOW_SPACE:
                return StoreFull()
        except OSError:
            pass
    return err


def named_os(err: OSError, path: Path) -> StoreError:
    """An OS error writing beside the file (the journal) as a named fault."""
    if err.errno in (errno.ENOSPC, errno.EDQUOT):
        return StoreFull()
    if err.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
        return StoreReadOnly()
    return StoreError(f"the game log could not be written ({err.strerror}): nothing was "
                      "saved; check the SD card, then retry")  # (no path: a phone reads it)
