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
   checksum of SQLite's sees) is replaced by the checked one (`_bases`,
   `_file_games`).
2. Then every journal change after the base, in order. A change no copy
   holds whole (a damaged line the file does not cover, a line the header
   counts that is gone) stops the games it may have touched: one such gap
   is crossed when the next change of a game shows its events untouched
   (an append at its length, an undo within it); otherwise the game stops
   before the gap and the journal's later changes of it are named, not
   played (an event log is only a log as a whole) (`_play`, `_one`).

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
what the damaged line still reads — and each damaged copy (`_restored`,
`_named`, `_damage`). `decide` is these steps in turn; `rewrite.apply`
writes its plan.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
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
        _started(tracks, n, r)
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
    if op in ("append", "truncate"):
        if not _events(t, n, r, unknown):
            return
    else:  # a seat's link, claim or PIN stands alone: played even past a gap in the events
        _seat(t.game, op, r)
    t.applied.append(n)


def _started(tracks: dict[int, _Track], n: int, r: dict) -> None:
    gid = int(r["id"])
    t = tracks.get(gid)
    if t is not None and t.base >= n:
        return
    tokens = [str(x) for x in r["tokens"]]
    game = GameCopy(gid, float(r["created"]), dumps(r["setup"]),
                    [dumps(e) for e in r["events"]], tokens, [None] * len(tokens),
                    dumps(r["pace"]))
    tracks[gid] = _Track(game, n, n, "journal", applied=[n])


def _events(t: _Track, n: int, r: dict, unknown: list[int]) -> bool:
    """An append or an undo played onto its game; False: held back, as the
    game stopped at a gap (it does not follow, or two gaps lie before it)."""
    g, op = t.game, r["op"]
    doubt = unknown[bisect_right(unknown, t.confirmed):bisect_left(unknown, n)]  # (sorted)
    if t.cut is not None:
        t.held.append(n)
        return False
    at = int(r["start"] if op == "append" else r["keep"])
    fits = at == len(g.events) if op == "append" else at <= len(g.events)
    if not fits or len(doubt) > 1:
        t.cut = doubt[0] if doubt else n
        t.held.append(n)
        return False
    del g.events[at:]
    if op == "append":
        g.events += [dumps(e) for e in r["events"]]
        winner = r.get("winner")
        g.winner = str(winner) if winner is not None else None
    else:
        g.winner = None
    g.pace = dumps(r["pace"])
    t.confirmed = n
    return True


def _seat(g: GameCopy, op: str, r: dict) -> None:
    if op == "pin":  # a seat's PIN [issue 40]: as its link and claim, alone
        g.pins[int(r["seat"])] = str(r["digest"])
        return
    seat = int(r["seat"])
    while len(g.tokens) <= seat:
        g.tokens.append("")
        g.claims.append(None)
    if op == "token":
        g.tokens[seat], g.claims[seat] = str(r["token"]), None
    else:
        claim = r["claim"]
        g.claims[seat] = str(claim) if claim is not None else None


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


@dataclass
class _Numbers:
    """Where the copies stand, by change number."""

    F: int  # the file's last change
    S: int  # the snapshot's (-1: no snapshot)
    last: int  # the newest any copy holds
    lo: int  # the oldest base the chain may start from
    unknown: list[int]  # the changes after `lo` no copy holds whole (sorted)


def decide(c: Copies, new_store: str) -> Plan:
    """What the file must hold, and what to say, from the three copies as they
    are (pure: tests/store/test_reconcile.py's table)."""
    c, store, foreign = _own(c, new_store)
    file, snap, records = c.file, c.snapshot, c.journal.records
    findings = [Finding(f"the {what} belongs to another game file (copied from "
                        f"another folder?): set aside, not used") for what in foreign]
    n = _numbers(c)
    file_games, fixed, found = _file_games(file, snap, records, n)  # the module's 1.
    findings += found
    tracks, setups, found = _bases(file, snap, file_games, records, n)  # its 2.
    findings += found
    orphans: dict[int, list[int]] = {}
    _play(tracks, records, n.unknown, n.lo, n.last, orphans)

    plan = Plan(store, n.last, foreign=foreign, gone=set(file.games) - set(tracks))
    plan.setups = setups if setups != file.setups else None
    for gid, t in sorted(tracks.items()):
        before = file.games.get(gid)
        if before is None or not before.same(t.game) or before.pace != t.game.pace:
            plan.games[gid] = t.game
        line = None if gid in fixed and not t.applied else _restored(gid, before, t)
        if line:
            findings.append(Finding(line, gid))
    findings += _named(c, tracks, orphans, n, [f for f in findings if f.lost])
    plan.findings = findings
    return plan


def _own(c: Copies, new_store: str) -> tuple[Copies, str, list[str]]:
    """The copies of this game file (its store id: the file's, else the
    snapshot's, else the journal's, else a new one), and which of the others
    belong to another file and are set aside."""
    file, journal, snap = c.file, c.journal, c.snapshot
    store = file.store or (snap.store if snap else None) or (
        journal.header.store if journal.header else None) or new_store
    foreign: list[str] = []
    if snap is not None and snap.store != store:
        snap, foreign = None, ["snapshot"]
    if journal.header is not None and journal.header.store != store:
        journal, foreign = JournalCopy(), [*foreign, "journal"]
    problem = None if "snapshot" in foreign else c.snapshot_problem
    return Copies(file, journal, snap, problem), store, foreign


def _numbers(c: Copies) -> _Numbers:
    F = c.file.change
    S = c.snapshot.change if c.snapshot is not None else -1
    last = max([F, S, c.journal.last])
    lo = min(F, S) if S >= 0 else F
    if c.snapshot is None and c.journal.start is not None:
        lo = min(lo, c.journal.start)
    records = c.journal.records
    return _Numbers(F, S, last, lo, [u for u in range(max(lo, 0) + 1, last + 1)
                                      if u not in records])


def _file_games(file: StoreCopy, snap: StoreCopy | None, records: dict[int, dict],
                n: _Numbers) -> tuple[dict[int, GameCopy], set[int], list[Finding]]:
    """The file's games, each checked against the snapshot and the journal
    replayed to F where they reach F without a gap, else read as the engine
    will read it; the games fixed on the way; what was found."""
    checked = _tracks_from(snap, "snapshot")
    if snap is not None and n.F >= n.S:
        _play(checked, records, n.unknown, n.S, n.F)
    vouched = snap is not None and n.F >= n.S and not any(n.S < u <= n.F for u in n.unknown)
    games: dict[int, GameCopy] = {}
    fixed: set[int] = set()
    differed: list[Finding] = []
    unread: list[Finding] = []
    for gid, g in file.games.items():
        t = checked.get(gid)
        game: GameCopy | None
        if vouched and t is not None and t.cut is None:
            game, found = _against(gid, g, t.game)
            said = differed
        else:
            game, found = _as_read(gid, _copy(g))
            said = unread
        if found is not None:
            said.append(found)
            if game is not None:
                fixed.add(gid)
        if game is not None:
            games[gid] = game
    return games, fixed, differed + unread


def _against(gid: int, g: GameCopy, checked: GameCopy) -> tuple[GameCopy, Finding | None]:
    """The file's copy of a game, or the checked one where they differ
    (damage no checksum of SQLite's sees); the file's pace and boots kept."""
    if g.same(checked):
        return _copy(g), None
    first = next((i for i, (a, b) in enumerate(zip(g.events, checked.events)) if a != b),
                 min(len(g.events), len(checked.events)))
    game = _copy(checked)
    game.pace, game.boots = g.pace, g.boots
    return game, Finding(
        f"game {gid}: the game file's copy differed from the snapshot and the "
        f"journal (from event {first}, or its seats): the checked copy restored; "
        f"{FAILING}", gid)


def _as_read(gid: int, g: GameCopy) -> tuple[GameCopy | None, Finding | None]:
    """What no check vouched for, read as the engine will read it: a row that
    is no sound JSON any more ends the game's log before it (None: the game
    is lost)."""
    if damaged(g.setup):
        return None, Finding(f"game {gid}: its setup is damaged in the game file and "
                             f"no other copy holds it whole: the game is lost; {FAILING}",
                             gid, True)
    if damaged(g.pace):
        g.pace = "{}"
    bad = next((i for i, e in enumerate(g.events) if damaged(e)), None)
    if bad == 0:
        return None, Finding(f"game {gid}: its first event is damaged in the game file "
                             "and no other copy holds it whole: the game is lost; "
                             f"{FAILING}", gid, True)
    if bad is None:
        return g, None
    found = Finding(
        f"game {gid}: {_span(bad, len(g.events) - 1)} lost: event {bad} is damaged in "
        f"the game file and no other copy holds it whole; game {gid} resumes after "
        f"event {bad - 1}; {FAILING}", gid, True)
    del g.events[bad:]
    return g, found


def _bases(file: StoreCopy, snap: StoreCopy | None, games: dict[int, GameCopy],
           records: dict[int, dict], n: _Numbers
           ) -> tuple[dict[int, _Track], dict[str, tuple[str, float]], list[Finding]]:
    """The newest certain base per game (the file's, unless the snapshot is
    newer or holds a game the file lost) and the saved setups at the newest
    change; a damaged saved setup named."""
    if snap is not None and n.F < n.S:
        return (_tracks_from(snap, "snapshot"), _setups(snap.setups, records, n.S, n.last),
                [])
    tracks = {gid: _Track(g, n.F, n.F, "file") for gid, g in games.items()}
    for gid, t in _tracks_from(snap, "snapshot").items():
        tracks.setdefault(gid, t)  # a game the file lost (a damaged page moved aside)
    sound = {k: v for k, v in file.setups.items() if not damaged(v[0])}
    found = [Finding(f"the saved setup {name!r} is damaged in the game file "
                     f"and no other copy holds it whole: it is lost; {FAILING}", None, True)
             for name in sorted(set(file.setups) - set(sound))]
    return tracks, _setups(sound, records, n.F, n.last), found


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
           n: _Numbers, c_lost: list[Finding]) -> list[Finding]:
    """What no copy holds, and every damaged copy, one line each."""
    out: list[Finding] = []
    for gid, t in sorted(tracks.items()):
        found = _cut(c.journal, gid, t, t.cut) if t.cut is not None else None
        if found is not None:
            out.append(found)
    cuts = {t.cut for t in tracks.values() if t.cut is not None}
    out += _unknown(c.journal.damaged, tracks, cuts, n)
    named = {f.game for f in c_lost}
    for gid, ns in sorted(orphans.items()):
        if gid in tracks or gid in named:
            continue
        out.append(Finding(f"game {gid} lost: no copy holds its start (the journal holds "
                           f"{len(ns)} later change(s) of it); {FAILING}", gid, True))
    return out + _damage(c, n.F, n.S)


def _resumes(gid: int, t: _Track) -> str:
    return f"game {gid} resumes after event {len(t.game.events) - 1}"


def _cut(journal: JournalCopy, gid: int, t: _Track, cut: int) -> Finding | None:
    """A game stopped at a change no copy holds: what is lost, and what the
    journal holds after it that cannot be played."""
    first = len(t.game.events)
    appends = [r for r in (journal.records.get(n, {}) for n in t.held)
               if r.get("op") == "append"]
    last = max((int(r["start"]) + len(r["events"]) - 1 for r in appends), default=first)
    from_ = min((int(r["start"]) for r in appends), default=first)
    held = (f"; the journal holds {_span(first + 1, last)} but they cannot be played "
            "without it") if last > first else (
            f"; the journal's {len(t.held)} later change(s) of it cannot be played "
            "without it" if t.held else "")
    if cut not in journal.records:
        return Finding(
            f"game {gid}: {_span(first, last)} lost: change {cut}, before them, is in "
            f"no copy whole ({_reading(journal.damaged.get(cut, {}))}){held}; "
            f"{_resumes(gid, t)}; {FAILING}", gid, True)
    if appends:  # its later changes do not follow what could be kept
        return Finding(
            f"game {gid}: the journal holds {_span(from_, last)}, which cannot be played "
            f"after what was lost before them; {_resumes(gid, t)}", gid, True)
    return None


def _unknown(damaged: dict[int, dict | None], tracks: dict[int, _Track], cuts: set[int],
             n: _Numbers) -> list[Finding]:
    """Each change no copy holds (that stopped no game): the games it may
    have touched, or, for those no game's later changes explain, one line."""
    out: list[Finding] = []
    nobody: list[int] = []
    for u in n.unknown:
        if u in cuts:
            continue
        risk = _at_risk(u, tracks, _game_of(damaged.get(u)), n)
        if risk:
            out.append(_may_be_lost(u, risk, damaged, tracks))
        elif u > max(n.F, n.S):
            nobody.append(u)
    if nobody:
        newest = max(tracks) if tracks else None
        out.append(Finding(
            f"change(s) {_ranges(nobody)} may be lost: no copy holds them whole "
            f"({'; '.join(_reading(damaged.get(u, {})) for u in nobody[:3])}"
            f"{'; …' if len(nobody) > 3 else ''}); lost if acknowledged"
            + (f"; {_resumes(newest, tracks[newest])}" if newest is not None else "")
            + f"; {FAILING}", newest, True))
    return out


def _at_risk(u: int, tracks: dict[int, _Track], owner: int | None, n: _Numbers) -> list[int]:
    """The games change `u` may have touched: those not certain past it,
    narrowed to the game its damaged line names."""
    risk = [gid for gid, t in sorted(tracks.items()) if t.cut is None and t.confirmed < u]
    if owner is not None and owner in risk:
        return [owner]  # (what its damaged line reads: it names its game)
    if owner is not None and owner in tracks and not risk and u > max(n.F, n.S):
        return [owner]  # a seat's link or claim of it, perhaps
    return risk


def _may_be_lost(u: int, risk: list[int], damaged: dict[int, dict | None],
                 tracks: dict[int, _Track]) -> Finding:
    whose = ", ".join(map(str, risk))
    what = f"change {u}"
    reading = damaged.get(u) or {}
    if reading.get("op") == "append" and isinstance(reading.get("start"), int) and \
            isinstance(reading.get("events"), list) and reading["events"]:
        what = (f"{_span(reading['start'], reading['start'] + len(reading['events']) - 1)}"
                f" (change {u})")
    return Finding(
        f"{'game' if len(risk) == 1 else 'games'} {whose}: {what} may be lost: no "
        f"copy holds it whole ({_reading(damaged.get(u, {}))}); lost if it was "
        f"acknowledged; {'; '.join(_resumes(g, tracks[g]) for g in risk)}; {FAILING}",
        risk[-1], True)


def _damage(c: Copies, F: int, S: int) -> list[Finding]:
    """Each copy found damaged, short or missing, named even when nothing was
    lost: one check per copy's state, in this order."""
    checks = (_journal_damaged(c.journal, F), _journal_missing(c, F, S),
              _snapshot_unused(c.snapshot_problem, F), _snapshot_older(c, S))
    return [found for found in checks if found is not None]


def _journal_damaged(journal: JournalCopy, F: int) -> Finding | None:
    covered = sorted(n for n in journal.damaged if n <= F)
    if not journal.present or not (journal.damaged_lines or journal.header is None or covered):
        return None
    parts = []
    if journal.header is None:
        parts.append("its header is damaged")
    if journal.damaged_lines:
        parts.append(f"{journal.damaged_lines} damaged line(s)"
                     + (" (the last cut short)" if journal.torn else ""))
    missing = [n for n in journal.damaged if journal.damaged[n] == {} and n <= F]
    if missing:
        parts.append(f"{len(missing)} line(s) missing")
    held = f"; the game file holds change(s) {', '.join(map(str, covered[:5]))}" \
           f"{'…' if len(covered) > 5 else ''}: nothing of them lost" if covered else ""
    return Finding(f"the journal had {', '.join(parts)}{held}; {FAILING}")


def _journal_missing(c: Copies, F: int, S: int) -> Finding | None:
    if c.journal.present or (F <= 0 and c.snapshot is None):
        return None
    return Finding(
        f"the journal was missing (deleted?): what was acknowledged after change "
        f"{max(F, S)} (the newest any copy holds) cannot be known; if anything was, it is "
        f"lost", None, True)


def _snapshot_unused(problem: str | None, F: int) -> Finding | None:
    if problem == "missing":
        return Finding("the snapshot was missing (deleted?): a new one is taken") if F > 0 \
            else None
    if problem:
        return Finding(f"the snapshot was damaged ({problem}): not used; a new "
                       f"one is taken; {FAILING}")
    return None


def _snapshot_older(c: Copies, S: int) -> Finding | None:
    if c.snapshot is None or c.journal.start is None or S >= c.journal.start:
        return None
    return Finding(f"the snapshot holds changes up to {S} but the journal starts "
                   f"after change {c.journal.start} (a snapshot of another day?)")
