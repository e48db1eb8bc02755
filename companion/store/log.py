"""One SQLite file holds every game: its setup, its event log, its seats and
the hub's pacing record.

Nothing here knows the rules: events are opaque JSON. Every write is one
transaction committed with `synchronous=FULL` in WAL mode, so a change the hub
has acknowledged survives a power cut. `PRAGMA user_version` carries the schema
version so that later releases can migrate old files.

A bad day [issue 17]: the file and its WAL are the owner's only (0600: they
hold every card and every seat's link); a full disk is `StoreFull` (507),
never half a write; at start `PRAGMA quick_check` vets the file and a
damaged one is moved aside, its readable games copied into a new one
(`recovery.py`, one line in `notice`); every write first checks that the
file on disk is still the one open, so a file deleted under the hub is
written back from the open connection and a replaced one is `StoreGone`.

A second copy [issue 30 item 1]: every acknowledged change is also written,
fsynced, to an append-only journal beside the file before the SQLite
commit, over a snapshot of the whole file taken at each start, each new
game and each stop (`journal.py`); at start the file is reconciled with them
(`reconcile.py`): what a damaged WAL or page lost is put back, and what
neither copy holds is named, in `notice`.

Three copies, one truth [issue 41]: every journalled change has a number,
and the file keeps the last one it holds (`meta.change`), so a journal
shorter than the file is known as damaged, never read as an undo. One hub
per data folder (a lock beside the file); a card that is read-only at
start is one named fault, and a healthy file is never moved aside for it.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import logging
import os
import secrets
import sqlite3
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from .faults import (
    GONE,
    StoreBusy,
    StoreError,
    StoreGone,
    StoreReadOnly,
    crash_point,
    named,
    named_os,
)
from .journal import Journal, lenient, read_journal, read_rows, read_snapshot
from .reconcile import Copies, Finding, decide
from .recovery import DAMAGE, aside_name, check_or_move_aside, move_aside, recover
from .report import _keep_notice, notices, storage_report
from .rewrite import apply, legacy, legacy_snapshot
from .schema import _MIGRATIONS, _SCHEMA, NUMBERED, SCHEMA_VERSION

__all__ = ["SCHEMA_VERSION", "GameRecord", "Store", "notices", "storage_report",
           "_MIGRATIONS", "_SCHEMA"]

log = logging.getLogger("werewolf.store")


@dataclass
class GameRecord:
    id: int
    created: float
    setup: dict
    events: list[dict]
    tokens: list[str]
    claims: list[str | None]
    pace: dict = field(default_factory=dict)
    winner: str | None = None
    boots: int = 0
    pins: list[str | None] = field(default_factory=list)  # each seat's PIN digest [issue 40]


def _dumps(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


class _Tx:
    """One write: all of it or (rolled back, the fault named) none of it."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.db = store._db

    def __enter__(self) -> sqlite3.Connection:
        self.store._still_there()
        self.db = self.store._db
        try:
            self.db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as err:
            raise named(err, self.store.path) from err
        return self.db

    def __exit__(self, kind: object, err: BaseException | None, *_: object) -> None:
        if err is None:
            try:
                self.db.execute("COMMIT")
                return
            except sqlite3.Error as failed:
                err = failed
        if self.db.in_transaction:  # SQLite may have rolled back already
            self.db.execute("ROLLBACK")
        if isinstance(err, sqlite3.Error):
            raise named(err, self.store.path) from err
        if kind is None:
            raise err


class Store:
    """The game log in one SQLite file. Thread-safe: one connection, one lock."""

    def __init__(self, path: str | Path, read_only: bool = False) -> None:
        """Open the game file at `path`, reconciled with its journal and
        snapshot. `read_only`: the file as it is, for reading beside a
        running hub (no lock, no reconciling, no write)."""
        self.path = Path(path).absolute()
        self._lock = threading.Lock()
        #: one line for the terminal when the file was damaged (where it went,
        #: what was recovered); None when it was sound
        self.notice: str | None = None
        #: what this start found, one finding a line (`notice` is their text)
        self.findings: list[Finding] = []
        self._folder_lock: int | None = None
        if read_only:
            self._db = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True,
                                       check_same_thread=False, isolation_level=None)
            self.read_only = True
            return
        self.read_only = False
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            _writable(self.path.parent)  # a read-only card: one named fault [issue 41 item 3]
            self._folder_lock = _lock_folder(self.path)
        except OSError as err:
            raise named_os(err, self.path.parent) from err
        try:
            self._open()
        except BaseException:
            self._unlock()
            raise

    def _open(self) -> None:
        aside = check_or_move_aside(self.path)
        was = self._open_file()
        found = [Finding(recover(aside, self._db, self.path))] if aside is not None else []
        try:
            try:
                found += self._reconcile(was)
            except sqlite3.DatabaseError as err:
                if not getattr(err, "sqlite_errorname", "").startswith(DAMAGE):
                    raise
                # damage quick_check does not see (an index against its table) shows
                # as the rows are read: the file is moved aside and recovered as well
                self._db.close()
                aside = move_aside(self.path, str(err))
                was = self._open_file()
                found = [Finding(recover(aside, self._db, self.path)),
                         *self._reconcile(was)]
            store, self._change = self._db.execute("SELECT store, change FROM meta").fetchone()
            self.journal = Journal(self.path, store, self._change)
        except (OSError, sqlite3.Error) as err:
            fault = named(err, self.path) if isinstance(err, sqlite3.Error) else err
            raise StoreError(f"{self.path}: its journal could not be checked or started "
                             f"({fault}): free space or fix the card, then start again") from err
        self._snapshot()  # this start's snapshot; an empty journal
        for finding in found:
            self._note(finding)

    def _open_file(self) -> int:
        """Connect and migrate; answers the schema version the file had."""
        try:
            self._db = self._connect()
            return self._migrate()
        except sqlite3.Error as err:  # a full card at start is named too
            fault = named(err, self.path)
            if fault is err:
                raise
            raise fault from err
        except OSError as err:  # a read-only card or file at start [issue 30 item 8]
            raise named_os(err, self.path) from err

    def _reconcile(self, was: int) -> list[Finding]:
        """The file made to hold what its copies say was acknowledged [issue 41]."""
        journal = self.path.with_name(self.path.name + ".journal")
        snapshot = self.path.with_name(self.path.name + ".snapshot")
        if 0 < was < NUMBERED:  # the first start after an upgrade: issue 30's copies, once
            found = legacy(self._db, read_journal(journal, legacy=True).legacy or [],
                           legacy_snapshot(snapshot))
            self._db.execute("UPDATE meta SET store = ?", (secrets.token_hex(8),))
            return found
        self._db.text_factory = lenient  # a damaged row is read, and judged, not raised
        try:
            file = read_rows(self._db)
        finally:
            self._db.text_factory = str
        read = read_journal(journal)
        snap, problem = read_snapshot(snapshot)
        if snap is None and problem is None and (file.change > 0 or read.present):
            problem = "missing"
        plan = decide(Copies(file, read, snap, problem), secrets.token_hex(8))
        if plan.games or plan.setups is not None or (plan.store, plan.change) != (
                file.store, file.change):
            apply(self._db, plan)
        for what in plan.foreign:  # another folder's copies: kept aside, never used
            copy = journal if what == "journal" else snapshot
            os.replace(copy, aside_name(copy, "other"))
        return plan.findings

    def _note(self, finding: Finding) -> None:
        """One more finding: in `notice`, on stderr (by `werewolf serve`), in
        the GM view's `storage` and, dated, in the notices file for doctor."""
        self.findings.append(finding)
        line = finding.text if finding.text.startswith("werewolf:") \
            else f"werewolf: {finding.text}"
        self.notice = f"{self.notice}\n{line}" if self.notice else line
        _keep_notice(self.notices_path, line)

    def note_resumed(self, game: int, seq: int) -> None:
        """The hub resumed `game` at action `seq` (the table knows actions;
        the store, only events): said beside a loss this start named."""
        if any(f.lost and f.game in (game, None) for f in self.findings):
            self._note(Finding(f"game {game} resumes at seq {seq} (the GM view's seq)", game))

    @property
    def lost(self) -> bool:
        """Whether this start named something acknowledged that may be lost."""
        return any(f.lost for f in self.findings)

    @property
    def notices_path(self) -> Path:
        """Every start's findings, dated, for `werewolf doctor` [issue 30 item 1]."""
        return self.path.with_name(self.path.name + ".notices")

    def _connect(self) -> sqlite3.Connection:
        """Open the file, created owner-only before SQLite touches it (its WAL
        and shared-memory files take the file's mode)."""
        os.close(os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600))
        db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        db.execute("PRAGMA foreign_keys=ON")
        self._private()
        self._identity = _identity(self.path)
        self._folder: tuple[int, int] | None = _identity(self.path.parent)  # (its card's)
        return db

    def _private(self) -> None:
        for suffix in ("", "-wal", "-shm"):
            try:
                os.chmod(f"{self.path}{suffix}", 0o600)
            except FileNotFoundError:
                pass

    def _migrate(self) -> int:
        """Bring the file to SCHEMA_VERSION; answers the version it had."""
        version = int(self._db.execute("PRAGMA user_version").fetchone()[0])
        if version == SCHEMA_VERSION:
            return version
        was = version
        if version > SCHEMA_VERSION:
            raise RuntimeError(f"{self.path} was written by a newer release "
                               f"(schema {version}, this one reads {SCHEMA_VERSION})")
        with self._tx():
            if version == 0:
                self._run(_SCHEMA)
                version = 1
            for target in range(version + 1, SCHEMA_VERSION + 1):
                self._run(_MIGRATIONS[target])
            self._db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        return was

    def _run(self, script: str) -> None:
        for statement in script.split(";"):
            if statement.strip():
                self._db.execute(statement)

    def _tx(self) -> _Tx:
        return _Tx(self)

    def _still_there(self) -> None:
        """The file on disk is the one open [issue 17]: deleted, it is written
        back from the open connection (which still holds all of it); replaced
        by another file, nothing more is written (StoreGone)."""
        if self.read_only:
            raise StoreReadOnly("this copy of the game file is open for reading only")
        try:
            now = _identity(self.path)
        except FileNotFoundError:
            try:
                folder = _identity(self.path.parent)
            except OSError:
                folder = None
            if folder != self._folder:  # the card went away (or its folder), not the file:
                log.error("%s: %s", self.path.parent, GONE)  # never written back elsewhere
                raise StoreGone(GONE) from None
            _write_back(self)
            return
        except OSError as err:  # an I/O error: a card pulled out, failing
            raise named_os(err, self.path) from err
        if now != self._identity:
            log.error("%s was replaced by another file while the hub ran", self.path)
            raise StoreGone("the game file was replaced by another file while the hub ran: "
                            "nothing more is saved until the hub is restarted")

    def close(self) -> None:
        with self._lock:
            if not self.read_only:
                self._snapshot()  # the hub stops: a snapshot of all of it
                self.journal.close()
            self._db.close()
            self._unlock()

    def abandon(self) -> None:
        """Let go of the files as a power cut would (no snapshot, no
        checkpoint): for the benches and tests that play one."""
        with self._lock:
            if not self.read_only:
                self.journal.close()
            self._db.close()
            self._unlock()

    def _unlock(self) -> None:
        if self._folder_lock is not None:
            os.close(self._folder_lock)  # (the lock goes with its descriptor)
            self._folder_lock = None

    def _snapshot(self) -> None:
        """A new snapshot and an empty journal; if the card has no room for
        it, the journal goes on from the last one (it holds everything since)."""
        try:
            self.journal.restart(self._db, self._change)
        except (OSError, sqlite3.Error) as err:
            log.warning("%s: no new snapshot (%s): the journal goes on", self.path, err)

    @contextlib.contextmanager
    def _journalled(self, record: dict) -> Iterator[sqlite3.Connection]:
        """One write, journalled first: the record (change n) is fsynced to
        the journal, then the SQLite transaction runs and commits with the
        file's `meta.change` = n; if any of it fails (the COMMIT too), the
        record is taken back, so the journal holds only what the file was
        asked to commit, and nothing refused comes back at a restart."""
        self._still_there()
        if not self.journal.still_there():  # deleted under the hub: start it again
            self._snapshot()
            log.warning("%s: the journal was deleted while the hub ran: a new snapshot "
                        "and journal were started", self.path)
        db = self._db
        try:
            db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as err:
            raise named(err, self.path) from err
        n = self._change + 1
        at: int | None = None
        try:
            at = self.journal.write(n, record)
            yield db
            db.execute("UPDATE meta SET change = ?", (n,))
            db.execute("COMMIT")
        except BaseException as err:
            if at is not None:
                self.journal.undo(at, n - 1)
            with contextlib.suppress(sqlite3.Error):
                if db.in_transaction:  # SQLite may have rolled back already
                    db.execute("ROLLBACK")
            if isinstance(err, sqlite3.Error):
                raise named(err, self.path) from err
            if isinstance(err, OSError):
                raise named_os(err, self.journal.path) from err
            raise
        self._change = n
        crash_point("committed")

    # --- writes: each is one committed transaction -----------------------------

    def create_game(self, setup: dict, events: list[dict], tokens: list[str],
                    pace: dict) -> int:
        with self._lock:
            game = int(self._db.execute("SELECT COALESCE(MAX(id), 0) + 1 FROM games")
                       .fetchone()[0])
            created = time.time()
            record = {"op": "game", "id": game, "created": created, "setup": setup,
                      "events": events, "tokens": tokens, "pace": pace}
            with self._journalled(record) as db:
                db.execute("INSERT INTO games (id, created, setup, pace) VALUES (?, ?, ?, ?)",
                           (game, created, _dumps(setup), _dumps(pace)))
                self._create_rows(db, game, events, tokens)
            # a new game is a quiet moment: a snapshot that holds it, so the
            # game is in two copies before anyone is told [issue 41 item 2]
            self._snapshot()
            return game

    @staticmethod
    def _create_rows(db: sqlite3.Connection, game: int, events: list[dict],
                     tokens: list[str]) -> None:
        db.executemany("INSERT INTO events VALUES (?, ?, ?)",
                       [(game, i, _dumps(e)) for i, e in enumerate(events)])
        db.execute("UPDATE games SET length = ? WHERE id = ?", (len(events), game))
        db.executemany("INSERT INTO seats VALUES (?, ?, ?, NULL)",
                       [(game, i, t) for i, t in enumerate(tokens)])

    def append(self, game: int, start: int, events: list[dict], pace: dict,
               winner: str | None = None) -> None:
        """Add `events` at log index `start` and save the pacing record, together."""
        record = {"op": "append", "game": game, "start": start, "events": events, "pace": pace,
                  "winner": winner}
        with self._lock, self._journalled(record) as db:
            db.executemany("INSERT INTO events VALUES (?, ?, ?)",
                           [(game, start + i, _dumps(e)) for i, e in enumerate(events)])
            db.execute("UPDATE games SET pace = ?, winner = ?, length = ? WHERE id = ?",
                       (_dumps(pace), winner, start + len(events), game))

    def truncate(self, game: int, keep: int, pace: dict) -> None:
        """Drop every event from log index `keep` on (undo, rewind)."""
        record = {"op": "truncate", "game": game, "keep": keep, "pace": pace}
        with self._lock, self._journalled(record) as db:
            db.execute("DELETE FROM events WHERE game = ? AND idx >= ?", (game, keep))
            db.execute("UPDATE games SET pace = ?, winner = NULL, length = ? WHERE id = ?",
                       (_dumps(pace), keep, game))

    def save_pace(self, game: int, pace: dict) -> None:
        with self._lock, self._tx() as db:
            db.execute("UPDATE games SET pace = ? WHERE id = ?", (_dumps(pace), game))

    def set_token(self, game: int, seat: int, token: str) -> None:
        record = {"op": "token", "game": game, "seat": seat, "token": token}
        with self._lock, self._journalled(record) as db:
            db.execute("UPDATE seats SET token = ?, claim = NULL WHERE game = ? AND seat = ?",
                       (token, game, seat))

    def set_claim(self, game: int, seat: int, claim: str | None) -> None:
        record = {"op": "claim", "game": game, "seat": seat, "claim": claim}
        with self._lock, self._journalled(record) as db:
            db.execute("UPDATE seats SET claim = ? WHERE game = ? AND seat = ?",
                       (claim, game, seat))

    def set_pin(self, game: int, seat: int, digest: str) -> None:
        """Keep seat `seat`'s PIN (its digest) [issue 40]."""
        record = {"op": "pin", "game": game, "seat": seat, "digest": digest}
        with self._lock, self._journalled(record) as db:
            db.execute("INSERT OR REPLACE INTO pins VALUES (?, ?, ?)", (game, seat, digest))

    def boot(self, game: int) -> int:
        """Count one more hub start that resumed `game`; return the new count."""
        with self._lock, self._tx() as db:
            db.execute("UPDATE games SET boots = boots + 1 WHERE id = ?", (game,))
            return int(db.execute("SELECT boots FROM games WHERE id = ?", (game,)).fetchone()[0])

    # --- reads ----------------------------------------------------------------

    def latest(self) -> int | None:
        with self._lock:
            row = self._db.execute("SELECT MAX(id) FROM games").fetchone()
        return row[0]

    def load(self, game: int) -> GameRecord | None:
        with self._lock:
            row = self._db.execute(
                "SELECT id, created, setup, pace, winner, boots FROM games WHERE id = ?",
                (game,)).fetchone()
            if row is None:
                return None
            events = [json.loads(e) for (e,) in self._db.execute(
                "SELECT event FROM events WHERE game = ? ORDER BY idx", (game,))]
            seats = self._db.execute(
                "SELECT token, claim FROM seats WHERE game = ? ORDER BY seat", (game,)).fetchall()
            pins = dict(self._db.execute("SELECT seat, digest FROM pins WHERE game = ?", (game,)))
        return GameRecord(id=row[0], created=row[1], setup=json.loads(row[2]), events=events,
                          tokens=[t for t, _ in seats], claims=[c for _, c in seats],
                          pace=json.loads(row[3]), winner=row[4], boots=row[5],
                          pins=[pins.get(i) for i in range(len(seats))])

    def games(self) -> list[dict]:
        """Every game kept, newest first (id, created, ruleset, players, winner)."""
        with self._lock:
            rows = self._db.execute(
                "SELECT id, created, setup, winner FROM games ORDER BY id DESC").fetchall()
        out = []
        for gid, created, setup, winner in rows:
            doc = json.loads(setup)
            out.append({"id": gid, "created": created, "ruleset": doc.get("ruleset"),
                        "players": doc.get("players"), "winner": winner})
        return out

    # --- saved setups -----------------------------------------------------------

    def save_setup(self, name: str, setup: dict) -> None:
        saved = time.time()
        record = {"op": "setup", "name": name, "setup": setup, "saved": saved}
        with self._lock, self._journalled(record) as db:
            db.execute("INSERT OR REPLACE INTO setups VALUES (?, ?, ?)",
                       (name, _dumps(setup), saved))

    def setups(self) -> list[dict]:
        """Saved setups, most recent first: [{"name", "setup", "saved"}]."""
        with self._lock:
            rows = self._db.execute(
                "SELECT name, setup, saved FROM setups ORDER BY saved DESC").fetchall()
        return [{"name": n, "setup": json.loads(s), "saved": t} for n, s, t in rows]

    def delete_setup(self, name: str) -> bool:
        with self._lock, self._journalled({"op": "unsetup", "name": name}) as db:
            return db.execute("DELETE FROM setups WHERE name = ?", (name,)).rowcount > 0


def _write_back(self: Store) -> None:
    """The game file deleted under a running hub [issue 17]: written back
    from the open connection, which still holds all of it."""
    spare = self.path.with_name(self.path.name + ".restoring")
    try:
        spare.unlink(missing_ok=True)
        copy = sqlite3.connect(spare)
        try:
            self._db.backup(copy)
        finally:
            copy.close()
        os.chmod(spare, 0o600)
        self._db.close()  # its WAL (by the old name) goes with the deleted file
        os.replace(spare, self.path)
        self._db = self._connect()
    except (OSError, sqlite3.Error) as err:
        log.error("%s was deleted while the hub ran and could not be written back: %s",
                  self.path, err)
        raise StoreError("the game file was deleted while the hub ran and could not be "
                         "written back: free space, then retry") from err
    line = f"{self.path} was deleted while the hub ran: written back from memory"
    self._note(Finding(line))
    log.warning("%s", line)  # the terminal's stderr


def _identity(path: Path) -> tuple[int, int]:
    st = os.stat(path)
    return st.st_dev, st.st_ino


def _writable(folder: Path) -> None:
    """A folder on a read-only card (or one the hub may not write) is
    StoreReadOnly before anything is opened, moved or written [issue 41 item 3]."""
    if os.statvfs(folder).f_flag & os.ST_RDONLY or not os.access(folder, os.W_OK):
        raise StoreReadOnly("the data folder is read-only (the SD card went read-only, or its "
                            "permissions changed): nothing was changed; make it writable "
                            "again, then start again")


def _lock_folder(path: Path) -> int:
    """One hub per game file [issue 41]: an exclusive lock held while the
    store is open; another hub's start is StoreBusy, naming its process.
    A POSIX lock (lockf): another process is refused, while one process may
    open the file again (a restart, as the tests play it)."""
    lock = path.with_name(path.name + ".lock")
    fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as err:
        if err.errno not in (errno.EACCES, errno.EAGAIN):
            os.close(fd)
            raise
        holder = os.pread(fd, 32, 0).decode(errors="replace").strip() or "?"
        os.close(fd)
        raise StoreBusy(f"another werewolf hub (process {holder}) is using {path.parent}: "
                        "one hub per data folder; stop the other one first") from None
    os.ftruncate(fd, 0)
    os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
    return fd
