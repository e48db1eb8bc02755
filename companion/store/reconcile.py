"""Three copies, one truth, never silent [issue 30 item 1, issue 41].

At every start the game file is reconciled with its snapshot and its
journal (`journal.py`). Every change has a number; the file, the snapshot
and the journal's header each say the last one they hold, so each copy is
known as intact, damaged, short or missing — and a copy that is short is
never taken for an undo (issue 41: a journal that lost its last line took
back an acknowledged vote the file still held).

What the file must hold is the newest *certain* state, built so:

1. A certain base per game: the file's copy, at its change F, unless the
   snapshot (whole: its checksum matches) is newer, or the file lost that game
   (a damaged page moved aside); then the snapshot's, at its change S.
   The file's copy is checked against the snapshot and the journal replayed
   to F wherever they reach F without a gap: a copy that differs (damage no
   checksum of SQLite's sees) is replaced by the checked one.
2. Then every journal change after the base, in order. A change no copy
   holds whole (a damaged line the file does not cover, a line the header
   counts that is gone) stops the games it may have touched: one such gap
   is crossed when the next change of a game shows its events untouched
   (an append at its length, an undo within it); otherwise the game stops
   before the gap and the journal's later changes of it are named, not
   played (an event log is only a log as a whole).

The cases, one row each in tests/store/test_reconcile.py (on real files)
and docs/how/storage.md:

    game file        journal               snapshot    the file then holds
    intact           intact                any         itself (a bad snapshot named)
    intact           damaged/cut/short/gone any        itself: nothing lost, damage named
    short (WAL)      intact                any         its own + the journal's
    short            damaged or short      any         what a copy holds; the rest named
    damaged page     intact                intact      readable games + snapshot + journal
    damaged content  intact                intact      the checked copies' content
    gone             intact                intact      the snapshot + the journal
    gone             gone                  intact      the snapshot; "what followed lost"
    gone             intact                gone        the journal's games; others named
    any              another file's        another's   those set aside, named

Every finding is one line (stderr, the GM view's `storage`, `werewolf
doctor`): what was restored, what is lost — with its game, the events and
what the damaged line still reads — and each damaged copy.
"""

from __future__ import annotations

import json
import sqlite3
from bisect import bisect_left, bisect_right
from collections.abc import Iterable
from dataclasses import dataclass, field

from .journal import GameCopy, JournalCopy, StoreCopy, damaged, dumps

FAILING = "the SD card may be failing"


@dataclass
class Finding:
    text: str
    game: int | None = None  # the game it is about (None: the store's)
    lost: bool = False  # something acknowledged may be gone


@dataclass
class Copies:
    """The three copies as they are on the card."""

    file: StoreCopy
    journal: JournalCopy
    snapshot: StoreCopy | None = None  # whole (its checksum checked), else None
    snapshot_problem: str | None = None  # why it is not used ("missing": deleted)


@dataclass
class Plan:
    """What the file must be made to hold."""

    store: str
    change: int
    games: dict[int, GameCopy] = field(default_factory=dict)  # to write, whole
    setups: dict[str, tuple[str, float]] | None = None  # to write, None: as they are
    findings: list[Finding] = field(default_factory=list)
    foreign: list[str] = field(default_factory=list)  # copies of another game file's
    gone: set[int] = field(default_factory=set)  # games the file holds damaged past saving


@dataclass
class _Track:
    """One game as the chain (a base, then the journal's changes) builds it."""

    game: GameCopy
    base: int  # the change its base holds
    confirmed: int  # the last change after which its events are certain
    source: str  # where its base came from: "file", "snapshot", "journal"
    cut: int | None = None  # the change in no copy that stopped it
    held: list[int] = field(default_factory=list)  # its changes not played after the cut
    applied: list[int] = field(default_factory=list)


def _copy(g: GameCopy) -> GameCopy:
    return GameCopy(g.id, g.created, g.setup, list(g.events), list(g.tokens), list(g.claims),
                    g.pace, g.winner, g.boots, dict(g.pins))


def _span(a: int, b: int) -> str:
    return f"event {a}" if a == b else f"events {a}–{b}"


def _reading(value: dict | None) -> str:
    """What a damaged line still reads, for the GM (unchecked, shortened)."""
    if value is None:
        return "its line is unreadable"
    if not value:
        return "its line is not in the journal"
    text = dumps(value)
    return f"its damaged line reads (unchecked) {text[:160]}{'…' if len(text) > 160 else ''}"


def _game_of(value: dict | None) -> int | None:
    if not value:
        return None
    gid = value.get("id") if value.get("op") == "game" else value.get("game")
    return gid if isinstance(gid, int) else None


# --- the chain ----------------------------------------------------------------------


def _play(tracks: dict[int, _Track], records: dict[int, dict], unknown: list[int],
          lo: int, hi: int, orphans: dict[int, list[int]] | None = None) -> None:
    """Play the journal's changes lo+1…hi onto `tracks` (see the module's 2.)."""
    for n in range(lo + 1, hi + 1):
        r = records.get(n)
        if r is None:
            continue
        try:
            _one(tracks, n, r, unknown, orphans)
        except (KeyError, TypeError, ValueError, AttributeError):
            pass  # a record of no known shape changes nothing


def _one(tracks: dict[int, _Track], n: int, r: dict, unknown: list[int],
         orphans: dict[int, list[int]] | None) -> None:
    op = r["op"]
    if op == "game":
        gid = int(r["id"])
        t = tracks.get(gid)
        if t is not None and t.base >= n:
            return
        tokens = [str(x) for x in r["tokens"]]
        game = GameCopy(gid, float(r["created"]), dumps(r["setup"]),
                        [dumps(e) for e in r["events"]], tokens, [None] * len(tokens),
                        dumps(r["pace"]))
        tracks[gid] = _Track(game, n, n, "journal", applied=[n])
        return
    if op not in ("append", "truncate", "token", "claim", "pin"):
        return  # a saved setup: `_setups`
    gid = int(r["game"])
    t = tracks.get(gid)
    if t is None:
        if orphans is not None:
            orphans.setdefault(gid, []).append(n)
        return
    if t.base >= n:
        return
    g = t.game
    doubt = unknown[bisect_right(unknown, t.confirmed):bisect_left(unknown, n)]  # (sorted)
    if op in ("append", "truncate"):
        if t.cut is not None:
            t.held.append(n)
            return
        at = int(r["start"] if op == "append" else r["keep"])
        fits = at == len(g.events) if op == "append" else at <= len(g.events)
        if not fits or len(doubt) > 1:
            t.cut = doubt[0] if doubt else n
            t.held.append(n)
            return
        del g.events[at:]
        if op == "append":
            g.events += [dumps(e) for e in r["events"]]
            winner = r.get("winner")
            g.winner = str(winner) if winner is not None else None
        else:
            g.winner = None
        g.pace = dumps(r["pace"])
        t.confirmed = n
    elif op == "pin":  # a seat's PIN [issue 40]: as its link and claim, alone
        g.pins[int(r["seat"])] = str(r["digest"])
    else:  # a seat's link or claim stands alone: played even past a gap in the events
        seat = int(r["seat"])
        while len(g.tokens) <= seat:
            g.tokens.append("")
            g.claims.append(None)
        if op == "token":
            g.tokens[seat], g.claims[seat] = str(r["token"]), None
        else:
            claim = r["claim"]
            g.claims[seat] = str(claim) if claim is not None else None
    t.applied.append(n)


def _tracks_from(copy: StoreCopy | None, source: str) -> dict[int, _Track]:
    if copy is None:
        return {}
    return {gid: _Track(_copy(g), copy.change, copy.change, source)
            for gid, g in copy.games.items()}


def _setups(base: dict[str, tuple[str, float]], records: dict[int, dict], lo: int,
            hi: int) -> dict[str, tuple[str, float]]:
    out = dict(base)
    for n in range(lo + 1, hi + 1):
        r = records.get(n)
        if r is None or r.get("op") not in ("setup", "unsetup"):
            continue
        try:
            if r["op"] == "setup":
                out[str(r["name"])] = (dumps(r["setup"]), float(r["saved"]))
            else:
                out.pop(str(r["name"]), None)
        except (KeyError, TypeError, ValueError):
            pass
    return out


# --- the decision --------------------------------------------------------------------


def decide(c: Copies, new_store: str) -> Plan:
    """What the file must hold, and what to say, from the three copies as they
    are (pure: tests/store/test_reconcile.py's table)."""
    file, journal, snap = c.file, c.journal, c.snapshot
    findings: list[Finding] = []
    store = file.store or (snap.store if snap else None) or (
        journal.header.store if journal.header else None) or new_store
    foreign: list[str] = []
    if snap is not None and snap.store != store:
        snap, foreign = None, ["snapshot"]
    if journal.header is not None and journal.header.store != store:
        journal, foreign = JournalCopy(), [*foreign, "journal"]
    for what in foreign:
        findings.append(Finding(f"the {what} belongs to another game file (copied from "
                                f"another folder?): set aside, not used"))
    c = Copies(file, journal, snap, None if "snapshot" in foreign else c.snapshot_problem)
    F = file.change
    S = snap.change if snap is not None else -1
    records = journal.records
    last = max([F, S, journal.last])
    lo = min(F, S) if S >= 0 else F
    if snap is None and journal.start is not None:
        lo = min(lo, journal.start)
    unknown = [n for n in range(max(lo, 0) + 1, last + 1) if n not in records]

    # 1. the file's copy, checked against the snapshot and the journal at F
    checked = _tracks_from(snap, "snapshot")
    if snap is not None and F >= S:
        _play(checked, records, unknown, S, F)
    gap_to_f = any(S < u <= F for u in unknown) if snap is not None else True
    file_games = {gid: _copy(g) for gid, g in file.games.items()}
    fixed: set[int] = set()
    for gid, g in file_games.items():
        t = checked.get(gid)
        if snap is None or F < S or gap_to_f or t is None or t.cut is not None:
            continue
        if not g.same(t.game):
            first = next((i for i, (a, b) in enumerate(zip(g.events, t.game.events))
                          if a != b), min(len(g.events), len(t.game.events)))
            findings.append(Finding(
                f"game {gid}: the game file's copy differed from the snapshot and the "
                f"journal (from event {first}, or its seats): the checked copy restored; "
                f"{FAILING}", gid))
            pace, boots = g.pace, g.boots
            fixed.add(gid)
            file_games[gid] = _copy(t.game)
            file_games[gid].pace, file_games[gid].boots = pace, boots

    # what no check vouched for is read as the engine will read it: a row
    # that is no sound JSON any more ends the game's log before it
    for gid, g in list(file_games.items()):
        t = checked.get(gid)
        if gid in fixed or (snap is not None and F >= S and not gap_to_f and t is not None
                            and t.cut is None):
            continue  # the same as its checked copy
        if damaged(g.setup):
            del file_games[gid]
            findings.append(Finding(f"game {gid}: its setup is damaged in the game file and "
                                    f"no other copy holds it whole: the game is lost; {FAILING}",
                                    gid, True))
            continue
        if damaged(g.pace):
            g.pace = "{}"
        bad = next((i for i, e in enumerate(g.events) if damaged(e)), None)
        if bad == 0:
            del file_games[gid]
            findings.append(Finding(f"game {gid}: its first event is damaged in the game file "
                                    "and no other copy holds it whole: the game is lost; "
                                    f"{FAILING}", gid, True))
            continue
        if bad is not None:
            findings.append(Finding(
                f"game {gid}: {_span(bad, len(g.events) - 1)} lost: event {bad} is damaged in "
                f"the game file and no other copy holds it whole; game {gid} resumes after "
                f"event {bad - 1}; {FAILING}", gid, True))
            del g.events[bad:]
            fixed.add(gid)

    # 2. the newest certain base per game, then the journal after it
    if snap is None or F >= S:
        tracks = {gid: _Track(g, F, F, "file") for gid, g in file_games.items()}
        for gid, t in _tracks_from(snap, "snapshot").items():
            tracks.setdefault(gid, t)  # a game the file lost (a damaged page moved aside)
        sound = {k: v for k, v in file.setups.items() if not damaged(v[0])}
        for name in sorted(set(file.setups) - set(sound)):
            findings.append(Finding(f"the saved setup {name!r} is damaged in the game file "
                                    f"and no other copy holds it whole: it is lost; {FAILING}",
                                    None, True))
        setups = _setups(sound, records, F, last)
    else:
        tracks = _tracks_from(snap, "snapshot")
        setups = _setups(snap.setups, records, S, last)
    orphans: dict[int, list[int]] = {}
    _play(tracks, records, unknown, lo, last, orphans)

    plan = Plan(store, last, foreign=foreign, gone=set(file.games) - set(tracks))
    plan.setups = setups if setups != file.setups else None
    for gid, t in sorted(tracks.items()):
        before = file.games.get(gid)
        if before is None or not before.same(t.game) or before.pace != t.game.pace:
            plan.games[gid] = t.game
        line = None if gid in fixed and not t.applied else _restored(gid, before, t)
        if line:
            findings.append(Finding(line, gid))
    findings += _named(c, tracks, orphans, unknown, F, S, [f for f in findings if f.lost])
    plan.findings = findings
    return plan


def _restored(gid: int, before: GameCopy | None, t: _Track) -> str | None:
    g = t.game
    if before is None:
        whence = {"snapshot": "the snapshot" + (" and the journal" if t.applied else ""),
                  "journal": "the journal", "file": "the game file"}[t.source]
        return f"game {gid}: restored from {whence} ({len(g.events)} events)"
    if before.events == g.events:
        if (before.tokens, before.claims, before.pins) != (g.tokens, g.claims, g.pins):
            return f"game {gid}: its seats' links restored from the journal"
        return None
    old, new = before.events, g.events
    first = next((i for i, (a, b) in enumerate(zip(old, new)) if a != b), min(len(old), len(new)))
    if first == len(old):
        return (f"game {gid}: {_span(first, len(new) - 1)} restored from the journal (the game "
                "file had lost them)")
    if first == len(new):
        return (f"game {gid}: what followed event {len(new) - 1} taken back, as the journal's "
                "undo says (the game file had lost the undo)")
    return (f"game {gid}: {_span(first, len(new) - 1)} restored from the journal (the game "
            "file held others in their place)")


def _ranges(ns: list[int]) -> str:
    out: list[str] = []
    for n in ns:
        if out and out[-1].split("–")[-1] == str(n - 1):
            out[-1] = f"{out[-1].split('–')[0]}–{n}"
        else:
            out.append(str(n))
    return ", ".join(out)


def _named(c: Copies, tracks: dict[int, _Track], orphans: dict[int, list[int]],
           unknown: list[int], F: int, S: int, c_lost: list[Finding]) -> list[Finding]:
    records = c.journal.records
    """What no copy holds, and every damaged copy, one line each."""
    out: list[Finding] = []
    damaged = c.journal.damaged

    def resumes(gid: int) -> str:
        return f"game {gid} resumes after event {len(tracks[gid].game.events) - 1}"

    cuts = {t.cut for t in tracks.values() if t.cut is not None}
    for gid, t in sorted(tracks.items()):
        if t.cut is None:
            continue
        first = len(t.game.events)
        appends = [r for r in (records.get(n, {}) for n in t.held) if r.get("op") == "append"]
        last = max((int(r["start"]) + len(r["events"]) - 1 for r in appends), default=first)
        from_ = min((int(r["start"]) for r in appends), default=first)
        held = (f"; the journal holds {_span(first + 1, last)} but they cannot be played "
                "without it") if last > first else (
                f"; the journal's {len(t.held)} later change(s) of it cannot be played "
                "without it" if t.held else "")
        if t.cut not in c.journal.records:
            out.append(Finding(
                f"game {gid}: {_span(first, last)} lost: change {t.cut}, before them, is in "
                f"no copy whole ({_reading(damaged.get(t.cut, {}))}){held}; {resumes(gid)}; "
                f"{FAILING}", gid, True))
        elif appends:  # its later changes do not follow what could be kept
            out.append(Finding(
                f"game {gid}: the journal holds {_span(from_, last)}, which cannot be played "
                f"after what was lost before them; {resumes(gid)}", gid, True))
    nobody: list[int] = []  # changes no copy holds that no game's later changes explain
    for u in unknown:
        if u in cuts:
            continue
        risk = [gid for gid, t in sorted(tracks.items()) if t.cut is None and t.confirmed < u]
        owner = _game_of(damaged.get(u))
        if owner in risk:
            risk = [owner]  # (what its damaged line reads: it names its game)
        elif owner in tracks and not risk and u > max(F, S):
            risk = [owner]  # a seat's link or claim of it, perhaps
        if not risk:
            if u > max(F, S):
                nobody.append(u)
            continue
        whose = ", ".join(map(str, risk))
        what = f"change {u}"
        reading = damaged.get(u) or {}
        if reading.get("op") == "append" and isinstance(reading.get("start"), int) and \
                isinstance(reading.get("events"), list) and reading["events"]:
            what = (f"{_span(reading['start'], reading['start'] + len(reading['events']) - 1)}"
                    f" (change {u})")
        out.append(Finding(
            f"{'game' if len(risk) == 1 else 'games'} {whose}: {what} may be lost: no "
            f"copy holds it whole ({_reading(damaged.get(u, {}))}); lost if it was "
            f"acknowledged; {'; '.join(resumes(g) for g in risk)}; {FAILING}", risk[-1], True))
    if nobody:
        newest = max(tracks) if tracks else None
        out.append(Finding(
            f"change(s) {_ranges(nobody)} may be lost: no copy holds them whole "
            f"({'; '.join(_reading(damaged.get(u, {})) for u in nobody[:3])}"
            f"{'; …' if len(nobody) > 3 else ''}); lost if acknowledged"
            + (f"; {resumes(newest)}" if newest is not None else "") + f"; {FAILING}",
            newest, True))
    named = {f.game for f in c_lost}
    for gid, ns in sorted(orphans.items()):
        if gid in tracks or gid in named:
            continue
        out.append(Finding(f"game {gid} lost: no copy holds its start (the journal holds "
                           f"{len(ns)} later change(s) of it); {FAILING}", gid, True))
    out += _damage(c, F, S)
    return out


def _damage(c: Copies, F: int, S: int) -> list[Finding]:
    """Each copy found damaged, short or missing, named even when nothing was lost."""
    out: list[Finding] = []
    journal = c.journal
    covered = sorted(n for n in journal.damaged if n <= F)
    if journal.present and (journal.damaged_lines or journal.header is None or covered):
        parts = []
        if journal.header is None:
            parts.append("its header is damaged")
        if journal.damaged_lines:
            parts.append(f"{journal.damaged_lines} damaged line(s)"
                         + (" (the last cut short)" if journal.torn else ""))
        missing = [n for n in journal.damaged
                   if journal.damaged[n] == {} and n <= F]
        if missing:
            parts.append(f"{len(missing)} line(s) missing")
        held = f"; the game file holds change(s) {', '.join(map(str, covered[:5]))}" \
               f"{'…' if len(covered) > 5 else ''}: nothing of them lost" if covered else ""
        out.append(Finding(f"the journal had {', '.join(parts)}{held}; {FAILING}"))
    if not journal.present and (F > 0 or c.snapshot is not None):
        out.append(Finding(
            f"the journal was missing (deleted?): what was acknowledged after change "
            f"{max(F, S)} (the newest any copy holds) cannot be known; if anything was, it is "
            f"lost", None, True))
    if c.snapshot_problem == "missing" and F > 0:
        out.append(Finding("the snapshot was missing (deleted?): a new one is taken"))
    elif c.snapshot_problem and c.snapshot_problem != "missing":
        out.append(Finding(f"the snapshot was damaged ({c.snapshot_problem}): not used; a new "
                           f"one is taken; {FAILING}"))
    if c.snapshot is not None and journal.start is not None and S < journal.start:
        out.append(Finding(f"the snapshot holds changes up to {S} but the journal starts "
                           f"after change {journal.start} (a snapshot of another day?)"))
    return out


# --- making the file hold it -----------------------------------------------------------


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
    games: dict[int, dict] = {gid: {"events": list(ev)} for gid, ev in snapshot.items()}
    pins: dict[tuple[int, int], str] = {}
    for r in records:
        try:
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
        except (KeyError, TypeError, ValueError, AttributeError):
            continue
    out: list[Finding] = []
    db.execute("BEGIN IMMEDIATE")
    try:
        for gid, g in sorted(games.items()):
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
                out.append(Finding(f"game {gid}: restored from the journal "
                                   f"({len(g['events'])} events)", gid))
            elif row is None or g["events"][:len(have)] != have or len(g["events"]) <= len(have):
                continue
            else:
                out.append(Finding(f"game {gid}: {_span(len(have), len(g['events']) - 1)} "
                                   "restored from the journal (the game file had lost them)",
                                   gid))
            db.executemany("INSERT INTO events VALUES (?, ?, ?)",
                           [(gid, i, e) for i, e in enumerate(g["events"]) if i >= len(have)])
            db.execute("UPDATE games SET length = ? WHERE id = ?", (len(g["events"]), gid))
            if "pace" in g:
                db.execute("UPDATE games SET pace = ?, winner = ? WHERE id = ?",
                           (dumps(g["pace"]), g.get("winner"), gid))
        for (gid, seat), digest in pins.items():  # a PIN the file lacks (issue 40's)
            if db.execute("SELECT 1 FROM games WHERE id = ?", (gid,)).fetchone():
                db.execute("INSERT OR IGNORE INTO pins VALUES (?, ?, ?)", (gid, seat, digest))
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise
    return out


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
