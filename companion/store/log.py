"""One SQLite file holds every game: its setup, its event log, its seats and
the hub's pacing record.

Nothing here knows the rules: events are opaque JSON. Every write is one
transaction committed with `synchronous=FULL` in WAL mode, so a change the hub
has acknowledged survives a power cut. `PRAGMA user_version` carries the schema
version so that later releases can migrate old files.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

SCHEMA_VERSION = 2

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
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._migrate()

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
        def __init__(self, db: sqlite3.Connection) -> None:
            self.db = db

        def __enter__(self) -> sqlite3.Connection:
            self.db.execute("BEGIN IMMEDIATE")
            return self.db

        def __exit__(self, kind: object, *_: object) -> None:
            self.db.execute("ROLLBACK" if kind else "COMMIT")

    def _tx(self) -> Store._Tx:
        return Store._Tx(self._db)

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
            db.executemany("INSERT INTO seats VALUES (?, ?, ?, NULL)",
                           [(game, i, t) for i, t in enumerate(tokens)])
            return game

    def append(self, game: int, start: int, events: list[dict], pace: dict,
               winner: str | None = None) -> None:
        """Add `events` at log index `start` and save the pacing record, together."""
        with self._lock, self._tx() as db:
            db.executemany("INSERT INTO events VALUES (?, ?, ?)",
                           [(game, start + i, _dumps(e)) for i, e in enumerate(events)])
            db.execute("UPDATE games SET pace = ?, winner = ? WHERE id = ?",
                       (_dumps(pace), winner, game))

    def truncate(self, game: int, keep: int, pace: dict) -> None:
        """Drop every event from log index `keep` on (undo, rewind)."""
        with self._lock, self._tx() as db:
            db.execute("DELETE FROM events WHERE game = ? AND idx >= ?", (game, keep))
            db.execute("UPDATE games SET pace = ?, winner = NULL WHERE id = ?",
                       (_dumps(pace), game))

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
