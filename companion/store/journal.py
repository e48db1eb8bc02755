"""The second copy of what was acknowledged [issue 30 item 1].

SQLite ends its WAL at the first frame whose checksum is wrong: it cannot
tell a torn write from a flipped bit, so a bit that an SD card flips in the
WAL silently drops every commit after it — acknowledged games and actions
gone, `quick_check` content, nothing said. So every change the hub
acknowledges is also written, before the SQLite commit and fsynced, to an
append-only journal beside the file (`games.sqlite3.journal`): one line per
change, `<crc32 hex> <json>`, each line checked on its own, so a damaged line
costs that line only. At a quiet moment (a new game, the hub stopping) the
whole file is copied with SQLite's online backup to `games.sqlite3.snapshot`
and the journal starts again empty. At start, the snapshot and the journal
replayed over it (`expected`) say what the file must hold; `reconcile` puts
back what the file lost and names what neither copy holds.

Records (`op`): "game" (a new game: id, created, setup, events, tokens,
pace), "append" (game, start, events, pace, winner), "truncate" (game, keep,
pace: an undo), "token" / "claim" (a seat's link, the device holding it),
"setup" / "unsetup" (the GM's saved setups). The pace alone, saved every few
seconds while a deadline runs, is not journalled: a recovered game resumes
with the pace of its last action.
"""

from __future__ import annotations

import json
import os
import sqlite3
import zlib
from dataclasses import dataclass, field
from pathlib import Path


def _line(record: dict) -> bytes:
    text = json.dumps(record, ensure_ascii=False, separators=(",", ":"))
    return f"{zlib.crc32(text.encode()):08x} {text}\n".encode()


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


class Journal:
    """The append-only journal (and the snapshot it starts from) of one store."""

    def __init__(self, db_path: Path) -> None:
        self.path = db_path.with_name(db_path.name + ".journal")
        self.snapshot_path = db_path.with_name(db_path.name + ".snapshot")
        self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        os.chmod(self.path, 0o600)  # it holds every card, as the file does

    def write(self, record: dict) -> int:
        """Append one record, durably; answers the offset before it (for
        `undo` when the SQLite commit behind it fails)."""
        at = os.lseek(self._fd, 0, os.SEEK_END)
        data = memoryview(_line(record))
        try:
            while data:  # a short write (a card filling up) is written on, or fails
                data = data[os.write(self._fd, data):]
            os.fdatasync(self._fd)
        except OSError:
            self.undo(at)
            raise
        return at

    def undo(self, at: int) -> None:
        """Take back what was written from offset `at` (its commit failed)."""
        try:
            os.ftruncate(self._fd, at)
            os.fdatasync(self._fd)
        except OSError:
            pass  # the next start reconciles: the file is the authority for what it holds

    def restart(self, db: sqlite3.Connection) -> None:
        """Copy the whole file to the snapshot (written aside, fsynced, then
        renamed over the old one), then empty the journal: the snapshot
        holds everything the journal did."""
        spare = self.snapshot_path.with_name(self.snapshot_path.name + ".new")
        spare.unlink(missing_ok=True)
        os.close(os.open(spare, os.O_RDWR | os.O_CREAT, 0o600))  # the owner's from the start
        copy = sqlite3.connect(spare)
        try:
            db.backup(copy)
            copy.execute("PRAGMA journal_mode=DELETE")
        finally:
            copy.close()
        fd = os.open(spare, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(spare, self.snapshot_path)
        _fsync_dir(self.snapshot_path.parent)
        os.ftruncate(self._fd, 0)
        os.fsync(self._fd)

    def close(self) -> None:
        try:
            os.close(self._fd)
        except OSError:
            pass


# --- what the file must hold ----------------------------------------------------


@dataclass
class Expected:
    """A game as the snapshot and the journal say it was acknowledged.
    `known[i]` is False for an event neither copy could read (a damaged
    journal line before a later append)."""

    id: int
    created: float = 0.0
    setup: dict | None = None  # None: its "game" record is not readable
    events: list[dict | None] = field(default_factory=list)
    tokens: list[str] = field(default_factory=list)
    claims: list[str | None] = field(default_factory=list)
    pace: dict = field(default_factory=dict)
    winner: str | None = None


@dataclass
class Acknowledged:
    games: dict[int, Expected] = field(default_factory=dict)
    setups: dict[str, tuple[dict, float] | None] = field(default_factory=dict)
    damaged_lines: int = 0  # journal lines that failed their check (a torn last one aside)


def expected(db_path: Path) -> Acknowledged | None:
    """What the snapshot and the journal beside `db_path` say was
    acknowledged; None when there is neither (a store from before them)."""
    journal = db_path.with_name(db_path.name + ".journal")
    snapshot = db_path.with_name(db_path.name + ".snapshot")
    if not journal.exists() and not snapshot.exists():
        return None
    out = Acknowledged()
    if snapshot.exists():
        _read_snapshot(snapshot, out)
    if journal.exists():
        lines = journal.read_bytes().split(b"\n")
        last = len(lines) - 1 if lines and lines[-1] == b"" else len(lines)
        for i, raw in enumerate(lines[:last]):
            record = _parse(raw)
            if record is None:
                out.damaged_lines += i < last - 1  # a torn last line was never acknowledged
                continue
            _apply(out, record)
    return out


def _parse(raw: bytes) -> dict | None:
    crc, _, text = raw.partition(b" ")
    try:
        if int(crc, 16) != zlib.crc32(text):
            return None
        record = json.loads(text)
    except ValueError:
        return None
    return record if isinstance(record, dict) else None


def _read_snapshot(path: Path, out: Acknowledged) -> None:
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    except sqlite3.Error:
        return
    try:
        for gid, created, setup, pace, winner in db.execute(
                "SELECT id, created, setup, pace, winner FROM games"):
            g = out.games[gid] = Expected(gid, created, json.loads(setup), pace=json.loads(pace),
                                          winner=winner)
            g.events = [json.loads(e) for (e,) in db.execute(
                "SELECT event FROM events WHERE game = ? ORDER BY idx", (gid,))]
            seats = db.execute("SELECT token, claim FROM seats WHERE game = ? ORDER BY seat",
                               (gid,)).fetchall()
            g.tokens, g.claims = [t for t, _ in seats], [c for _, c in seats]
        for name, setup, saved in db.execute("SELECT name, setup, saved FROM setups"):
            out.setups[name] = (json.loads(setup), saved)
    except (sqlite3.Error, ValueError):
        out.games.clear()  # a damaged snapshot: the journal and the file say what they can
        out.setups.clear()
    finally:
        db.close()


def _apply(out: Acknowledged, r: dict) -> None:
    op = r.get("op")
    if op == "game":
        out.games[r["id"]] = Expected(r["id"], r["created"], r["setup"], list(r["events"]),
                                      list(r["tokens"]), [None] * len(r["tokens"]), r["pace"])
        return
    if op in ("setup", "unsetup"):
        out.setups[r["name"]] = (r["setup"], r["saved"]) if op == "setup" else None
        return
    g = out.games.setdefault(r["game"], Expected(r["game"]))
    if op == "append":
        start = r["start"]
        if start > len(g.events):  # a damaged line held what came between
            g.events += [None] * (start - len(g.events))
        g.events[start:] = list(r["events"])
        g.pace, g.winner = r["pace"], r.get("winner")
    elif op == "truncate":
        del g.events[r["keep"]:]
        g.pace, g.winner = r["pace"], None
    elif op in ("token", "claim"):
        seat = r["seat"]
        while len(g.tokens) <= seat:
            g.tokens.append("")
            g.claims.append(None)
        if op == "token":
            g.tokens[seat], g.claims[seat] = r["token"], None
        else:
            g.claims[seat] = r["claim"]
