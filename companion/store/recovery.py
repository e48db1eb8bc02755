"""A damaged game file, found at start and survived [issue 17].

An SD card that wears out, or a power cut in the wrong place, can leave a
page of the file unreadable. SQLite would then answer some reads with a
truncated log (the hub resumed at action 393 of 1,226) and every write with
an error. So before the store opens the file, `PRAGMA quick_check` vets it;
a damaged file is moved aside (with its WAL and shared memory, under one
new name, so SQLite still pairs them), and `recover` copies every game that
still reads whole — its row, its seats, and exactly as many events as it
recorded (`games.length`, numbered 0…n−1) — into the new file. The newest
of them is the game the hub resumes.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from pathlib import Path

from .faults import StoreError, named, named_os

#: what SQLite says of a file that is damaged, as opposed to one it cannot
#: read or write now (read-only, busy, an I/O error): only these move it aside
DAMAGE = ("SQLITE_CORRUPT", "SQLITE_NOTADB")


def aside_name(path: Path, why: str) -> Path:
    """`path`'s name with `.<why>-<date>-<time>`, one that is not taken yet
    (a clock set back at boot gives the same time twice) [issue 41]."""
    base = path.with_name(f"{path.name}.{why}-{time.strftime('%Y%m%d-%H%M%S')}")
    aside, k = base, 1
    while any(Path(f"{aside}{suffix}").exists() for suffix in ("", "-wal", "-shm")):
        k += 1
        aside = base.with_name(f"{base.name}-{k}")
    return aside


def check_or_move_aside(path: Path) -> tuple[Path, str] | None:
    """None if `path` is absent or sound; else the name it was moved to and
    what was wrong. A file that cannot be opened or read for another reason
    (a read-only card, an I/O error) is that named fault, never moved."""
    if not path.exists():
        return None
    problem = _problem(path)
    if problem is None:
        return None
    return move_aside(path, problem)


def move_aside(path: Path, problem: str) -> tuple[Path, str]:
    """The damaged file (with its WAL and shared memory, under one new name,
    so SQLite still pairs them) moved aside; answers where, and why."""
    aside = aside_name(path, "damaged")
    for suffix in ("-wal", "-shm", ""):
        try:
            os.replace(f"{path}{suffix}", f"{aside}{suffix}")
            os.chmod(f"{aside}{suffix}", 0o600)  # it still holds every card
        except FileNotFoundError:
            pass
        except OSError as err:
            raise named_os(err, path) from err
    return aside, problem


def _problem(path: Path) -> str | None:
    """What `PRAGMA quick_check` (or opening the file) says is damaged, or None."""
    try:
        db = sqlite3.connect(path)
        try:
            rows = db.execute("PRAGMA quick_check").fetchall()
        finally:
            db.close()
    except sqlite3.DatabaseError as err:  # "file is not a database", "malformed"
        if getattr(err, "sqlite_errorname", "").startswith(DAMAGE):
            return str(err)
        fault = named(err, path)
        if isinstance(fault, StoreError):
            raise fault from err
        raise StoreError(f"the game file could not be read ({err}): nothing was changed; "
                         "check the SD card, then start again") from err
    if rows == [("ok",)]:
        return None
    return str(rows[0][0])[:120] if rows else "quick_check answered nothing"


def recover(damaged: tuple[Path, str], into: sqlite3.Connection, path: Path) -> str:
    """Copy every game of the damaged file (moved aside, with what was wrong)
    that reads whole into the new file (`into`, schema made), keeping its
    id; answer the one line the hub prints."""
    aside, problem = damaged
    kept: list[tuple[int, int]] = []
    lost = 0
    try:
        old = sqlite3.connect(f"file:{aside}?mode=ro", uri=True)
    except sqlite3.DatabaseError:
        old = None
    if old is not None:
        try:
            ids = _game_ids(old)
            for game in ids:
                copied = _copy_game(old, into, game)
                if copied is None:
                    lost += 1
                else:
                    kept.append((game, copied))
            _copy_setups(old, into)
            _copy_meta(old, into)
        finally:
            old.close()
    head = f"werewolf: {path} was damaged ({problem}): moved to {aside}; "
    if not kept:
        return head + "no game could be read from it: a new file was started"
    newest, events = max(kept)
    more = f", {lost} could not be read" if lost else ""
    return head + (f"recovered {len(kept)} game(s){more}; the newest, game {newest} "
                   f"({events} events), resumes")


def _game_ids(old: sqlite3.Connection) -> list[int]:
    try:
        return [int(g) for (g,) in old.execute("SELECT id FROM games ORDER BY id")]
    except sqlite3.DatabaseError:
        return []


def _copy_game(old: sqlite3.Connection, into: sqlite3.Connection, game: int) -> int | None:
    """The game's event count if it was copied whole, else None (nothing copied)."""
    try:
        row = old.execute("SELECT * FROM games WHERE id = ?", (game,)).fetchone()
        columns = [c[0] for c in old.execute("SELECT * FROM games LIMIT 0").description]
        doc = dict(zip(columns, row, strict=True))
        events = old.execute("SELECT idx, event FROM events WHERE game = ? ORDER BY idx",
                             (game,)).fetchall()
        seats = old.execute("SELECT seat, token, claim FROM seats WHERE game = ? ORDER BY seat",
                            (game,)).fetchall()
        for text in (doc["setup"], doc["pace"], *(e for _, e in events)):
            json.loads(text)
    except (sqlite3.DatabaseError, TypeError, ValueError):
        return None
    whole = [i for i, _ in events] == list(range(len(events)))
    if not whole or doc.get("length") not in (None, len(events)) or not events:
        return None
    into.execute("BEGIN IMMEDIATE")
    try:
        into.execute("INSERT INTO games (id, created, setup, pace, winner, boots, length) "
                     "VALUES (?, ?, ?, ?, ?, ?, ?)",
                     (game, doc["created"], doc["setup"], doc["pace"], doc["winner"],
                      doc["boots"], len(events)))
        into.executemany("INSERT INTO events VALUES (?, ?, ?)", [(game, i, e) for i, e in events])
        into.executemany("INSERT INTO seats VALUES (?, ?, ?, ?)",
                         [(game, s, t, c) for s, t, c in seats])
        into.executemany("INSERT INTO pins VALUES (?, ?, ?)",
                         [(game, s, d) for s, d in _pins(old, game)])
    except sqlite3.Error:
        into.execute("ROLLBACK")
        return None
    into.execute("COMMIT")
    return len(events)


def _copy_setups(old: sqlite3.Connection, into: sqlite3.Connection) -> None:
    try:
        rows = old.execute("SELECT name, setup, saved FROM setups").fetchall()
    except sqlite3.DatabaseError:
        return
    into.executemany("INSERT OR REPLACE INTO setups VALUES (?, ?, ?)", rows)


def _copy_meta(old: sqlite3.Connection, into: sqlite3.Connection) -> None:
    """The file's id and its last change [issue 41]: the games copied hold
    every change up to it (a file is a consistent state), so its journal
    and snapshot still line up with it."""
    try:
        row = old.execute("SELECT store, change FROM meta").fetchone()
    except sqlite3.DatabaseError:
        return
    if row is not None:
        into.execute("UPDATE meta SET store = ?, change = ?", row)


def _pins(old: sqlite3.Connection, game: int) -> list[tuple[int, str]]:
    """A game's seats' PINs [issue 40], from a file that has them."""
    try:
        return old.execute("SELECT seat, digest FROM pins WHERE game = ? ORDER BY seat",
                           (game,)).fetchall()
    except sqlite3.DatabaseError:
        return []
