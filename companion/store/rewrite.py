"""What a start writes into the game file: the plan `reconcile.decide`
made (`apply`), and, once after an upgrade, what issue 30's journal (no
numbers) and snapshot hold that the file lacks (`legacy`)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable

from .journal import dumps
from .reconcile import Finding, Plan, _span


def apply(db: sqlite3.Connection, plan: Plan) -> None:
    """Write `plan` into the file: one transaction (a kill in the middle
    leaves the file as it was, and the next start decides again)."""
    db.execute("BEGIN IMMEDIATE")
    try:
        for gid in [*plan.gone, *plan.games]:
            for table, key in (("events", "game"), ("seats", "game"), ("pins", "game"),
                               ("games", "id")):
                db.execute(f"DELETE FROM {table} WHERE {key} = ?", (gid,))
        for gid, g in plan.games.items():
            db.execute("INSERT INTO games (id, created, setup, pace, winner, boots, length) "
                       "VALUES (?, ?, ?, ?, ?, ?, ?)",
                       (gid, g.created, g.setup, g.pace, g.winner, g.boots, len(g.events)))
            db.executemany("INSERT INTO events VALUES (?, ?, ?)",
                           [(gid, i, e) for i, e in enumerate(g.events)])
            db.executemany("INSERT INTO seats VALUES (?, ?, ?, ?)",
                           [(gid, s, t, cl) for s, (t, cl) in enumerate(zip(g.tokens, g.claims))
                            if t])
            db.executemany("INSERT INTO pins VALUES (?, ?, ?)",
                           [(gid, seat, digest) for seat, digest in sorted(g.pins.items())])
        if plan.setups is not None:
            db.execute("DELETE FROM setups")
            db.executemany("INSERT INTO setups VALUES (?, ?, ?)",
                           [(name, s, saved) for name, (s, saved) in plan.setups.items()])
        db.execute("UPDATE meta SET store = ?, change = ?", (plan.store, plan.change))
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise


# --- issue 30's journal (no numbers), met once after an upgrade --------------------------


def legacy(db: sqlite3.Connection, records: Iterable[dict],
           snapshot: dict[int, list[str]]) -> list[Finding]:
    """Issue 30's journal, read once when the file is upgraded: a game the
    file lacks, or events past its own, are put back; nothing is taken back
    (its lines carry no numbers, so a short journal cannot be told from an
    undo)."""
    games, pins = _replayed(records, snapshot)
    out: list[Finding] = []
    db.execute("BEGIN IMMEDIATE")
    try:
        for gid, g in sorted(games.items()):
            found = _put_back(db, gid, g)
            if found is not None:
                out.append(found)
        for (gid, seat), digest in pins.items():  # a PIN the file lacks (issue 40's)
            if db.execute("SELECT 1 FROM games WHERE id = ?", (gid,)).fetchone():
                db.execute("INSERT OR IGNORE INTO pins VALUES (?, ?, ?)", (gid, seat, digest))
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise
    return out


def _replayed(records: Iterable[dict], snapshot: dict[int, list[str]]
              ) -> tuple[dict[int, dict], dict[tuple[int, int], str]]:
    """The games (from the snapshot's events, then the journal's lines) and
    the PINs the old journal holds; a line of no known shape is skipped."""
    games: dict[int, dict] = {gid: {"events": list(ev)} for gid, ev in snapshot.items()}
    pins: dict[tuple[int, int], str] = {}
    for r in records:
        try:
            _replay_one(games, pins, r)
        except (KeyError, TypeError, ValueError, AttributeError):
            continue
    return games, pins


def _replay_one(games: dict[int, dict], pins: dict[tuple[int, int], str], r: dict) -> None:
    op = r.get("op")
    if op == "pin":
        pins[int(r["game"]), int(r["seat"])] = str(r["digest"])
    elif op == "game":
        games[int(r["id"])] = {**r, "events": [dumps(e) for e in r["events"]]}
    elif op == "append":
        g = games.setdefault(int(r["game"]), {"events": []})
        if int(r["start"]) <= len(g["events"]):
            g["events"][int(r["start"]):] = [dumps(e) for e in r["events"]]
            g.update(pace=r["pace"], winner=r.get("winner"))
    elif op == "truncate":
        g = games.setdefault(int(r["game"]), {"events": []})
        del g["events"][int(r["keep"]):]


def _put_back(db: sqlite3.Connection, gid: int, g: dict) -> Finding | None:
    """One game of the old journal written where the file lacks it (the
    whole game, or the events past the file's own); None: nothing to add."""
    have = [e for (e,) in db.execute(
        "SELECT event FROM events WHERE game = ? ORDER BY idx", (gid,))]
    row = db.execute("SELECT 1 FROM games WHERE id = ?", (gid,)).fetchone()
    if row is None and "setup" in g:
        db.execute("INSERT INTO games (id, created, setup, pace, length) "
                   "VALUES (?, ?, ?, ?, ?)", (gid, g["created"], dumps(g["setup"]),
                                              dumps(g["pace"]), len(g["events"])))
        db.executemany("INSERT INTO seats VALUES (?, ?, ?, NULL)",
                       [(gid, s, t) for s, t in enumerate(g["tokens"])])
        have = []
        found = Finding(f"game {gid}: restored from the journal ({len(g['events'])} events)", gid)
    elif row is None or g["events"][:len(have)] != have or len(g["events"]) <= len(have):
        return None
    else:
        found = Finding(f"game {gid}: {_span(len(have), len(g['events']) - 1)} "
                        "restored from the journal (the game file had lost them)", gid)
    db.executemany("INSERT INTO events VALUES (?, ?, ?)",
                   [(gid, i, e) for i, e in enumerate(g["events"]) if i >= len(have)])
    db.execute("UPDATE games SET length = ? WHERE id = ?", (len(g["events"]), gid))
    if "pace" in g:
        db.execute("UPDATE games SET pace = ?, winner = ? WHERE id = ?",
                   (dumps(g["pace"]), g.get("winner"), gid))
    return found


def legacy_snapshot(path: object) -> dict[int, list[str]]:
    """Issue 30's snapshot's events per game, as far as it reads."""
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    except sqlite3.Error:
        return {}
    out: dict[int, list[str]] = {}
    try:
        for gid, event in db.execute("SELECT game, event FROM events ORDER BY game, idx"):
            json.loads(event)
            out.setdefault(gid, []).append(event)
    except (sqlite3.Error, ValueError):
        return {}
    finally:
        db.close()
    return out
