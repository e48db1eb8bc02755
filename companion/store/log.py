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
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from .faults import StoreError, StoreGone, named
from .recovery import check_or_move_aside, recover

SCHEMA_VERSION = 3

log = logging.getLogger("werewolf.store")

_SCHEMA = """
CREATE TABLE games (
    id       INTEGER PRIMARY KEY,          -- sequence numbers: 1, 2, 3 ...
    created  REAL NOT NULL,
    setup    TEXT NOT NULL,                -- the replay format's setup fields (JSON)
    pace     TEXT NOT NULL DEFAULT '{}',   -- the hub's pacing record (JSON)
    winner   TEXT,
    boots    INTEGER NOT NULL DEFAULT 0    -- hub starts that resumed this game
);
CREATE TABLE events (
    game   INTEGER NOT NULL REFERENCES games(id),
    idx    INTEGER NOT NULL,
    event  TEXT NOT NULL,
    PRIMARY KEY (game, idx)
) WITHOUT ROWID;
CREATE TABLE seats (
    game   INTEGER NOT NULL REFERENCES games(id),
    seat   INTEGER NOT NULL,
    token  TEXT NOT NULL UNIQUE,
    claim  TEXT,                          -- the device (cookie) that opened the seat
    PRIMARY KEY (game, seat)
) WITHOUT ROWID;
"""

#: schema changes, by the version they lead to (version 1 is `_SCHEMA`)
_MIGRATIONS = {
    2: """
CREATE TABLE setups (
    name   TEXT PRIMARY KEY,               -- a setup the GM saved ("Friday group")
    setup  TEXT NOT NULL,                  -- the POST /api/games body (JSON)
    saved  REAL NOT NULL
);
""",
    # a game's event count, kept with every append, so a recovery can tell a
    # whole log from one a damaged page cut short [issue 17]
    3: "ALTER TABLE games ADD COLUMN length INTEGER",
}


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


def _dumps(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


class Store:
    """The game log in one SQLite file. Thread-safe: one connection, one lock."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        #: one line for the terminal when the file was damaged (where it went,
        #: what was recovered); None when it was sound
        self.notice: str | None = None
        aside = check_or_move_aside(self.path)
        try:
            self._db = self._connect()
            self._migrate()
        except sqlite3.Error as err:  # a full card at start is named too
            fault = named(err, self.path)
            if fault is err:
                raise
            raise fault from err
        if aside is not None:
            self.notice = recover(aside, self._db, self.path)

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
        return db

    def _private(self) -> None:
        for suffix in ("", "-wal", "-shm"):
            try:
                os.chmod(f"{self.path}{suffix}", 0o600)
            except FileNotFoundError:
                pass

    def _migrate(self) -> None:
        version = self._db.execute("PRAGMA user_version").fetchone()[0]
        if version == SCHEMA_VERSION:
            return
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

    def _run(self, script: str) -> None:
        for statement in script.split(";"):
            if statement.strip():
                self._db.execute(statement)

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

    def _tx(self) -> Store._Tx:
        return Store._Tx(self)

    def _still_there(self) -> None:
        """The file on disk is the one open [issue 17]: deleted, it is written
        back from the open connection (which still holds all of it); replaced
        by another file, nothing more is written (StoreGone)."""
        try:
            now = _identity(self.path)
        except FileNotFoundError:
            self._write_back()
            return
        if now != self._identity:
            raise StoreGone(f"{self.path} was replaced by another file while the hub ran: "
                            "nothing more is saved until the hub is restarted")

    def _write_back(self) -> None:
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
            raise StoreError(f"{self.path} was deleted while the hub ran and could not "
                             f"be written back ({err}): free space, then retry") from err
        self.notice = f"{self.path} was deleted while the hub ran: written back from memory"
        log.warning("%s", self.notice)  # the terminal's stderr

    def close(self) -> None:
        with self._lock:
            self._db.close()

    # --- writes: each is one committed transaction -----------------------------

    def create_game(self, setup: dict, events: list[dict], tokens: list[str],
                    pace: dict) -> int:
        with self._lock, self._tx() as db:
            cur = db.execute("INSERT INTO games (created, setup, pace) VALUES (?, ?, ?)",
                             (time.time(), _dumps(setup), _dumps(pace)))
            game = int(cur.lastrowid or 0)
            db.executemany("INSERT INTO events VALUES (?, ?, ?)",
                           [(game, i, _dumps(e)) for i, e in enumerate(events)])
            db.execute("UPDATE games SET length = ? WHERE id = ?", (len(events), game))
            db.executemany("INSERT INTO seats VALUES (?, ?, ?, NULL)",
                           [(game, i, t) for i, t in enumerate(tokens)])
            return game

    def append(self, game: int, start: int, events: list[dict], pace: dict,
               winner: str | None = None) -> None:
        """Add `events` at log index `start` and save the pacing record, together."""
        with self._lock, self._tx() as db:
            db.executemany("INSERT INTO events VALUES (?, ?, ?)",
                           [(game, start + i, _dumps(e)) for i, e in enumerate(events)])
            db.execute("UPDATE games SET pace = ?, winner = ?, length = ? WHERE id = ?",
                       (_dumps(pace), winner, start + len(events), game))

    def truncate(self, game: int, keep: int, pace: dict) -> None:
        """Drop every event from log index `keep` on (undo, rewind)."""
        with self._lock, self._tx() as db:
            db.execute("DELETE FROM events WHERE game = ? AND idx >= ?", (game, keep))
            db.execute("UPDATE games SET pace = ?, winner = NULL, length = ? WHERE id = ?",
                       (_dumps(pace), keep, game))

    def save_pace(self, game: int, pace: dict) -> None:
        with self._lock, self._tx() as db:
            db.execute("UPDATE games SET pace = ? WHERE id = ?", (_dumps(pace), game))

    def set_token(self, game: int, seat: int, token: str) -> None:
        with self._lock, self._tx() as db:
            db.execute("UPDATE seats SET token = ?, claim = NULL WHERE game = ? AND seat = ?",
                       (token, game, seat))

    def set_claim(self, game: int, seat: int, claim: str | None) -> None:
        with self._lock, self._tx() as db:
            db.execute("UPDATE seats SET claim = ? WHERE game = ? AND seat = ?",
                       (claim, game, seat))

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
        return GameRecord(id=row[0], created=row[1], setup=json.loads(row[2]), events=events,
                          tokens=[t for t, _ in seats], claims=[c for _, c in seats],
                          pace=json.loads(row[3]), winner=row[4], boots=row[5])

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
        with self._lock, self._tx() as db:
            db.execute("INSERT OR REPLACE INTO setups VALUES (?, ?, ?)",
                       (name, _dumps(setup), time.time()))

    def setups(self) -> list[dict]:
        """Saved setups, most recent first: [{"name", "setup", "saved"}]."""
        with self._lock:
            rows = self._db.execute(
                "SELECT name, setup, saved FROM setups ORDER BY saved DESC").fetchall()
        return [{"name": n, "setup": json.loads(s), "saved": t} for n, s, t in rows]

    def delete_setup(self, name: str) -> bool:
        with self._lock, self._tx() as db:
            return db.execute("DELETE FROM setups WHERE name = ?", (name,)).rowcount > 0


def _identity(path: Path) -> tuple[int, int]:
    st = os.stat(path)
    return st.st_dev, st.st_ino
