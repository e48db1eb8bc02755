"""The game file's schema and its migrations, by version [issue 17, 30, 40, 41]:
`PRAGMA user_version` carries the version a file was written with, and
`Store` migrates an older file on open (log.py)."""

from __future__ import annotations

__all__ = ["NUMBERED", "SCHEMA_VERSION", "_MIGRATIONS", "_SCHEMA"]

SCHEMA_VERSION = 5
#: the schema from which changes are numbered and the journal has a header [issue 41]
NUMBERED = 5


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
    # a seat's PIN (its digest), set by its player on his first phone in a
    # narrated game: a reissued link opens only with it [issue 40]
    4: """
CREATE TABLE pins (
    game   INTEGER NOT NULL REFERENCES games(id),
    seat   INTEGER NOT NULL,
    digest TEXT NOT NULL,
    PRIMARY KEY (game, seat)
) WITHOUT ROWID;
""",
    # the file's id (its journal's and snapshot's too) and the number of the
    # last journalled change it holds [issue 41]
    5: """
CREATE TABLE meta (
    store   TEXT,
    change  INTEGER NOT NULL DEFAULT 0
);
INSERT INTO meta (store, change) VALUES (NULL, 0);
""",
}
