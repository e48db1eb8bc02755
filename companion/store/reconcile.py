"""The file against what was acknowledged, at every start [issue 30 item 1].

`journal.expected` says what the snapshot and the journal hold; this puts
back into the file what it lost or holds damaged (whole games, events, seats'
links, saved setups), and answers one line for each thing restored and each
thing that neither copy holds ("game 3: events 6–14 could not be
recovered"). A game the journal knows wholly (its "game" record or the
snapshot, and every event since) is the journal's: the file's copy of it is
made the same. A game it knows in part (a damaged line, a damaged snapshot)
keeps every event the file still has, and only the rest is restored.
"""

from __future__ import annotations

import json
import sqlite3

from .journal import Acknowledged, Expected

FAILING = "the SD card may be failing"


def _dumps(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def reconcile(db: sqlite3.Connection, ack: Acknowledged) -> list[str]:
    """Make the file hold what was acknowledged; one line per finding."""
    out: list[str] = []
    for gid in sorted(ack.games):
        line = _game(db, ack.games[gid])
        if line:
            out.append(line)
    _setups(db, ack)
    if ack.damaged_lines:
        out.append(f"the journal had {ack.damaged_lines} damaged line(s): {FAILING}")
    return out


def _span(a: int, b: int) -> str:
    return f"event {a}" if a == b else f"events {a}–{b}"


def _game(db: sqlite3.Connection, g: Expected) -> str | None:
    row = db.execute("SELECT length FROM games WHERE id = ?", (g.id,)).fetchone()
    have = [json.loads(e) for (e,) in db.execute(
        "SELECT event FROM events WHERE game = ? ORDER BY idx", (g.id,))]
    whole = g.setup is not None and all(e is not None for e in g.events)
    target: list[dict] = []
    lost: tuple[int, int] | None = None
    for i, e in enumerate(g.events):
        if e is None and i >= len(have):  # neither copy holds it: the log stops before
            lost = (i, next((j for j in range(i, len(g.events)) if g.events[j] is not None),
                            len(g.events)) - 1)
            break
        target.append(e if e is not None else have[i])
    if not whole:
        target += have[len(target):] if lost is None else []  # the file's own, past what is known
    if row is None and g.setup is None:
        return f"game {g.id}: its record is damaged in the journal and gone from the file: " \
               f"it could not be recovered; {FAILING}"
    first = next((i for i, e in enumerate(target) if i >= len(have) or have[i] != e),
                 len(target))
    if row is not None and first == len(target) == len(have):
        _seats(db, g)
        return _lost_line(g.id, lost, len(target))
    db.execute("BEGIN IMMEDIATE")
    try:
        if row is None:
            assert g.setup is not None
            db.execute("INSERT INTO games (id, created, setup, pace, winner, boots, length) "
                       "VALUES (?, ?, ?, ?, ?, 0, ?)",
                       (g.id, g.created, _dumps(g.setup), _dumps(g.pace), g.winner, len(target)))
            db.executemany("INSERT INTO seats VALUES (?, ?, ?, ?)",
                           [(g.id, s, t, c) for s, (t, c) in enumerate(zip(g.tokens, g.claims))])
        db.execute("DELETE FROM events WHERE game = ? AND idx >= ?", (g.id, first))
        db.executemany("INSERT INTO events VALUES (?, ?, ?)",
                       [(g.id, i, _dumps(e)) for i, e in enumerate(target) if i >= first])
        db.execute("UPDATE games SET length = ?, pace = ?, winner = ? WHERE id = ?",
                   (len(target), _dumps(g.pace), g.winner if lost is None else None, g.id))
        db.execute("COMMIT")
    except sqlite3.Error:
        db.execute("ROLLBACK")
        raise
    if row is not None:
        _seats(db, g)
    lines = [f"game {g.id}: restored from the journal ({len(target)} events)" if row is None
             else f"game {g.id}: {_span(first, len(target) - 1)} restored from the journal "
                  "(the game file had lost or damaged them)" if first < len(target)
             else f"game {g.id}: what followed event {len(target) - 1} taken back, "
                  "as acknowledged (an undo the game file had lost)"]
    more = _lost_line(g.id, lost, len(target))
    return "; ".join(lines + ([more] if more else []))


def _lost_line(gid: int, lost: tuple[int, int] | None, kept: int) -> str | None:
    if lost is None:
        return None
    return (f"game {gid}: {_span(*lost)} could not be recovered; it resumes after event "
            f"{kept - 1}; {FAILING}")


def _seats(db: sqlite3.Connection, g: Expected) -> None:
    """The seats' links and claims as acknowledged (a phone's link must open)."""
    if not g.tokens:
        return
    rows = db.execute("SELECT seat, token, claim FROM seats WHERE game = ? ORDER BY seat",
                      (g.id,)).fetchall()
    want = [(s, t, c) for s, (t, c) in enumerate(zip(g.tokens, g.claims)) if t]
    if [r for r in rows if r[0] < len(g.tokens)] == want:
        return
    db.execute("BEGIN IMMEDIATE")
    db.executemany("INSERT OR REPLACE INTO seats VALUES (?, ?, ?, ?)",
                   [(g.id, s, t, c) for s, t, c in want])
    db.execute("COMMIT")


def _setups(db: sqlite3.Connection, ack: Acknowledged) -> None:
    if not ack.setups:
        return
    db.execute("BEGIN IMMEDIATE")
    for name, value in ack.setups.items():
        if value is None:
            db.execute("DELETE FROM setups WHERE name = ?", (name,))
        else:
            db.execute("INSERT OR REPLACE INTO setups VALUES (?, ?, ?)",
                       (name, _dumps(value[0]), value[1]))
    db.execute("COMMIT")
