"""The second and third copies of what was acknowledged [issue 30 item 1,
issue 41].

SQLite ends its WAL at the first frame whose checksum is wrong: it cannot
tell a torn write from a flipped bit, so a bit that an SD card flips in the
WAL silently drops every commit after it. So every change the hub
acknowledges is also written, before the SQLite commit and fsynced, to an
append-only journal beside the file (`games.sqlite3.journal`), and at quiet
moments (a start, a new game, a stop) the whole file is copied to a
snapshot (`games.sqlite3.snapshot`) and the journal starts again empty.

Every change has a number `n` (1, 2, 3 … for the life of the game file),
and the file keeps the number of the last change it holds (`meta.change`),
so each copy says how far it reaches [issue 41]: a journal shorter than the
file is a damaged journal, never an undo.

- The journal: a header of `HEADER` bytes, rewritten in place with every
  change — `<crc32> {"journal": 2, "store": ID, "from": S, "last": N}` (the
  game file it belongs to, the snapshot's change it starts after, the last
  change written) — then one line per change, `<crc32 hex> <json>`, each
  checked on its own. The header counts what the lines hold, so a last line
  dropped by the card is missed, not unseen.
- The snapshot: a copy of the file (SQLite's online backup) sealed with the
  CRC-32 of its bytes (kept in its header), so a snapshot damaged anywhere
  is known as such, never restored from.

Records (`op`): "game" (a new game: id, created, setup, events, tokens,
pace), "append" (game, start, events, pace, winner), "truncate" (game, keep,
pace: an undo), "token" / "claim" / "pin" (a seat's link, the device holding
it, its PIN's digest), "setup" / "unsetup" (the GM's saved setups). The pace alone, saved every few
seconds while a deadline runs, is not journalled.

`read_journal` and `read_snapshot` read the copies as they are on the card,
damage and all; `reconcile.py` decides what the file must hold.
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
import zlib
from dataclasses import dataclass, field
from pathlib import Path

from .faults import crash_point

HEADER = 128  # bytes: the journal's header line, rewritten in place
VERSION = 2  # the journal's format (1: issue 30's, without numbers or header)


def lenient(raw: bytes) -> str:
    """A text column as SQLite holds it, even damaged: bytes that are no UTF-8
    become lone surrogates (`damaged` finds them), never an exception."""
    return raw.decode("utf-8", "surrogateescape")


_SURROGATE = re.compile("[\udc80-\udcff]")


def damaged(text: str) -> bool:
    """Whether a text the store wrote as JSON is no longer sound JSON."""
    if _SURROGATE.search(text):
        return True
    try:
        json.loads(text)
    except ValueError:
        return True
    return False


def dumps(value: object) -> str:
    """JSON as the store writes it (one text per value, compared as text)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _line(record: dict) -> bytes:
    text = dumps(record)
    return f"{zlib.crc32(text.encode()):08x} {text}\n".encode()


def _header(store: str, start: int, last: int) -> bytes:
    text = dumps({"journal": VERSION, "store": store, "from": start, "last": last})
    line = f"{zlib.crc32(text.encode()):08x} {text}"
    assert len(line) < HEADER, line
    return line.ljust(HEADER - 1).encode() + b"\n"


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


class Journal:
    """The journal of one store, open for writing: `write` appends one
    numbered change and counts it in the header, durably; `restart` empties
    it after a new snapshot."""

    def __init__(self, db_path: Path, store: str, change: int) -> None:
        """Open (or make) the journal of the store `store`, whose file holds
        every change up to `change` (reconciled)."""
        self.path = db_path.with_name(db_path.name + ".journal")
        self.snapshot_path = db_path.with_name(db_path.name + ".snapshot")
        self.store = store
        self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        os.chmod(self.path, 0o600)  # it holds every card, as the file does
        self._identity = _identity(self.path)
        size = os.fstat(self._fd).st_size
        head = read_header(os.pread(self._fd, HEADER, 0)) if size >= HEADER else None
        #: the snapshot's change this journal starts after, and the end of its lines
        self.start, self._end = change, HEADER
        if head is not None and head.store == store:
            # (a start that cannot take a snapshot: the journal goes on after its
            # last whole line; a torn one was read at the start and is dropped)
            tail = os.pread(self._fd, size - HEADER, HEADER)
            self.start, self._end = head.start, HEADER + tail.rfind(b"\n") + 1
        os.ftruncate(self._fd, self._end)
        _write_all(self._fd, _header(store, self.start, change), 0)
        os.fsync(self._fd)

    def write(self, n: int, record: dict) -> int:
        """Append change `n`, then count it in the header, and fsync; answers
        the offset before it (for `undo` when the SQLite commit behind it fails)."""
        at = self._end
        line = _line({"n": n, **record})
        try:
            _write_all(self._fd, line, at)  # the line, then the header that counts it
            _write_all(self._fd, _header(self.store, self.start, n), 0)
            crash_point("journal-written")
            os.fdatasync(self._fd)
        except OSError:
            self.undo(at, n - 1)
            raise
        self._end = at + len(line)
        crash_point("journal-synced")
        return at

    def undo(self, at: int, last: int) -> None:
        """Take back what was written from offset `at` (its commit failed):
        the header counts `last` again."""
        try:
            os.ftruncate(self._fd, at)
            _write_all(self._fd, _header(self.store, self.start, last), 0)
            os.fdatasync(self._fd)
            self._end = at
        except OSError:
            pass  # the next start reconciles: the file is the authority for what it holds

    def still_there(self) -> bool:
        """The journal on disk is the one open (not deleted or replaced)."""
        try:
            return _identity(self.path) == self._identity
        except OSError:
            return False

    def restart(self, db: sqlite3.Connection, change: int) -> None:
        """Checkpoint the WAL into the file, copy the whole file to the
        snapshot (written aside, sealed with its checksum, fsynced, then renamed over
        the old one), then empty the journal: it starts after `change`, which
        the snapshot holds. A kill anywhere in between leaves copies that
        still reach every change."""
        crash_point("checkpoint-before")
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # the file alone holds it all
        crash_point("checkpoint-after")
        spare = self.snapshot_path.with_name(self.snapshot_path.name + ".new")
        spare.unlink(missing_ok=True)
        os.close(os.open(spare, os.O_RDWR | os.O_CREAT, 0o600))  # the owner's from the start
        copy = sqlite3.connect(spare, isolation_level=None)
        try:
            db.backup(copy)
            copy.execute("PRAGMA journal_mode=DELETE")
        finally:
            copy.close()
        seal(spare)
        crash_point("snapshot-written")
        os.replace(spare, self.snapshot_path)
        _fsync_dir(self.snapshot_path.parent)
        crash_point("snapshot-renamed")
        if not self.still_there():  # deleted under the hub: a new one
            os.close(self._fd)
            self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
            self._identity = _identity(self.path)
        os.ftruncate(self._fd, HEADER)
        self.start, self._end = change, HEADER
        _write_all(self._fd, _header(self.store, change, change), 0)
        os.fsync(self._fd)
        crash_point("journal-restarted")

    def close(self) -> None:
        try:
            os.close(self._fd)
        except OSError:
            pass


def _write_all(fd: int, data: bytes, at: int) -> None:
    view = memoryview(data)
    while view:  # a short write (a card filling up) is written on, or fails
        done = os.pwrite(fd, view, at)
        view, at = view[done:], at + done


def _identity(path: Path) -> tuple[int, int]:
    st = os.stat(path)
    return st.st_dev, st.st_ino


# --- the snapshot's seal ----------------------------------------------------------------

#: where the snapshot keeps its CRC-32: the SQLite header's application id
#: (4 bytes at offset 68, the file format's own field for an application;
#: SQLite reads nothing from it), the CRC taken with those bytes zero
SEAL_AT = 68


def _crc(data: bytearray) -> int:
    data[SEAL_AT:SEAL_AT + 4] = bytes(4)
    return zlib.crc32(data)


def seal(path: Path) -> None:
    """Write `path`'s CRC-32 into its header and fsync it: a snapshot damaged
    anywhere is then known as such (7 MB: about 10 ms here)."""
    crc = _crc(bytearray(path.read_bytes()))
    fd = os.open(path, os.O_WRONLY)
    try:
        os.pwrite(fd, crc.to_bytes(4, "big"), SEAL_AT)
        os.fsync(fd)
    finally:
        os.close(fd)


def sealed(path: Path) -> bool:
    """Whether the file is whole: its bytes match the CRC-32 it was sealed with."""
    data = bytearray(path.read_bytes())
    if len(data) < 100:
        return False
    return int.from_bytes(data[SEAL_AT:SEAL_AT + 4], "big") == _crc(data)


# --- reading the copies as they are ---------------------------------------------------


@dataclass
class Header:
    store: str
    start: int  # the snapshot's change the journal starts after
    last: int  # the last change written


def read_header(raw: bytes) -> Header | None:
    """The header in the journal's first HEADER bytes, or None if it fails its check."""
    if len(raw) < HEADER or raw[HEADER - 1:HEADER] != b"\n":
        return None
    record = _checked(raw[:HEADER - 1].rstrip(b" "))
    if record is None or record.get("journal") != VERSION:
        return None
    try:
        return Header(str(record["store"]), int(record["from"]), int(record["last"]))
    except (KeyError, TypeError, ValueError):
        return None


def _checked(raw: bytes) -> dict | None:
    """A line's record if its CRC-32 matches its text, else None."""
    crc, _, text = raw.partition(b" ")
    try:
        if len(crc) != 8 or int(crc, 16) != zlib.crc32(text):
            return None
        record = json.loads(text)
    except ValueError:
        return None
    return record if isinstance(record, dict) else None


def _unchecked(raw: bytes) -> dict | None:
    """What a damaged line still reads as, if anything (never trusted: only named)."""
    try:
        record = json.loads(raw.partition(b" ")[2].decode("utf-8", "replace"))
    except ValueError:
        return None
    return record if isinstance(record, dict) else None


@dataclass
class JournalCopy:
    """The journal as it is on the card."""

    present: bool = False
    header: Header | None = None  # None: missing or damaged
    records: dict[int, dict] = field(default_factory=dict)  # change -> record (checked)
    #: changes the journal knows of but cannot read -> what the damaged line
    #: reads, unchecked ("" for a line missing, None for one unreadable)
    damaged: dict[int, dict | None] = field(default_factory=dict)
    damaged_lines: int = 0
    torn: bool = False  # its last line is cut short
    legacy: list[dict] | None = None  # issue 30's journal (no numbers): its records

    @property
    def start(self) -> int | None:
        return self.header.start if self.header is not None else None

    @property
    def last(self) -> int:
        """The last change the journal says was written."""
        seen = [*self.records, *self.damaged]
        return max([self.header.last if self.header else 0, *seen] or [0])


def read_journal(path: Path, legacy: bool = False) -> JournalCopy:
    """The journal at `path` as it is: its checked records by change, and
    the changes it knows of but cannot read (damaged lines, a dropped last
    line the header counts). `legacy`: a journal written before issue 41."""
    out = JournalCopy()
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return out
    out.present = True
    if legacy:
        out.legacy = [r for r in (_checked(line) for line in data.split(b"\n") if line) if r]
        return out
    out.header = read_header(data[:HEADER])
    lines = data[HEADER:].split(b"\n") if len(data) > HEADER else []
    if lines and lines[-1] == b"":
        lines.pop()
    elif lines:
        out.torn = True  # its last line has no end: cut short
    order: list[tuple[int | None, dict | None]] = []  # (change, unchecked) per line
    for raw in lines:
        record = _checked(raw)
        n = record.get("n") if record is not None else None
        if record is not None and isinstance(n, int) and n > 0:
            out.records[n] = {k: v for k, v in record.items() if k != "n"}  # the last wins
            order.append((n, None))
        else:
            out.damaged_lines += 1
            order.append((None, _unchecked(raw) or None))
    _place_damaged(order, out)
    if out.header is not None:  # lines the header counts that are not there at all
        top = max([*out.records, *out.damaged, out.header.start])
        for n in range(top + 1, out.header.last + 1):
            out.damaged.setdefault(n, {})
    return out


def _place_damaged(order: list[tuple[int | None, dict | None]], out: JournalCopy) -> None:
    """Give each damaged line the change it held: the one between its checked
    neighbours (lines are written in order, one change each)."""
    start = out.header.start if out.header is not None else 0
    before = start
    for i, (n, unchecked) in enumerate(order):
        if n is not None:
            before = n
            continue
        after = next((m for m, _ in order[i + 1:] if m is not None), None)
        guess = unchecked.get("n") if unchecked else None
        if isinstance(guess, int) and guess > before and (after is None or guess < after):
            n = guess
        else:
            n = before + 1
        if after is not None and n >= after:
            continue  # more damaged lines than changes between: a duplicate, nothing more
        out.damaged.setdefault(n, unchecked)
        before = n
    for n in out.records:  # a change read whole elsewhere (a rewritten line) is not missing
        out.damaged.pop(n, None)


# --- the snapshot -------------------------------------------------------------------


@dataclass
class GameCopy:
    """One game as a copy holds it (every value as the file's text)."""

    id: int
    created: float
    setup: str
    events: list[str]
    tokens: list[str]
    claims: list[str | None]
    pace: str = "{}"
    winner: str | None = None
    boots: int = 0
    pins: dict[int, str] = field(default_factory=dict)  # seat -> its PIN's digest [issue 40]

    def same(self, other: GameCopy) -> bool:
        """The same acknowledged game (the pace and the boots are not journalled)."""
        return (self.created, self.setup, self.events, self.tokens, self.claims, self.pins,
                self.winner) == (other.created, other.setup, other.events, other.tokens,
                                 other.claims, other.pins, other.winner)


@dataclass
class StoreCopy:
    """A whole store as one copy holds it, at change `change`."""

    store: str | None
    change: int
    games: dict[int, GameCopy] = field(default_factory=dict)
    setups: dict[str, tuple[str, float]] = field(default_factory=dict)


def read_rows(db: sqlite3.Connection) -> StoreCopy:
    """Every game and saved setup of an open file or snapshot."""
    meta = db.execute("SELECT store, change FROM meta").fetchone()
    out = StoreCopy(meta[0] if meta else None, int(meta[1]) if meta else 0)
    for gid, created, setup, pace, winner, boots in db.execute(
            "SELECT id, created, setup, pace, winner, boots FROM games ORDER BY id"):
        out.games[gid] = GameCopy(gid, created, setup, [], [], [], pace, winner, boots)
    for gid, event in db.execute("SELECT game, event FROM events ORDER BY game, idx"):
        if gid in out.games:
            out.games[gid].events.append(event)
    for gid, token, claim in db.execute("SELECT game, token, claim FROM seats "
                                        "ORDER BY game, seat"):
        if gid in out.games:
            out.games[gid].tokens.append(token)
            out.games[gid].claims.append(claim)
    for gid, seat, digest in db.execute("SELECT game, seat, digest FROM pins"):
        if gid in out.games:
            out.games[gid].pins[seat] = digest
    for name, setup, saved in db.execute("SELECT name, setup, saved FROM setups"):
        out.setups[name] = (setup, saved)
    return out


def read_snapshot(path: Path) -> tuple[StoreCopy | None, str | None]:
    """The snapshot if it is whole (its bytes match its seal), else (None,
    what is wrong); (None, None) when there is none."""
    try:
        if not sealed(path):
            return None, "its bytes do not match its checksum"
    except FileNotFoundError:
        return None, None
    except OSError as err:
        return None, str(err)
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    except sqlite3.Error as err:
        return None, str(err)
    db.text_factory = lenient
    try:
        return read_rows(db), None
    except (sqlite3.Error, ValueError) as err:
        return None, str(err)[:120]
    finally:
        db.close()
