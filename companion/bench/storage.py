"""`werewolf bench storage` [issue 41]: the fault matrix of the game log.

A writer process plays a fixed plan of changes through a real `Store` on a
real SQLite file — two games, appends of one and two events, undos, a seat's
claim, new link and PIN, a saved setup and its removal — printing each change as
it is acknowledged (the store call returned). It is killed with SIGKILL at
one point of a commit (`store.faults.POINTS`: before and after the
journal's fsync, after the WAL's commit, before and after the checkpoint,
after the snapshot is written, renamed, and the journal restarted), on the
k-th time it reaches it. Then, on a copy of the folder for each case, one or
two of the three copies are damaged in each of their ways:

- the journal: a byte flipped in its last line or anywhere, its last 10
  bytes cut, its last line dropped, deleted;
- the game file: a byte flipped in the WAL, its last 10 bytes cut, its last
  frame dropped, the WAL deleted; a byte flipped in the main file;
- the snapshot: a byte flipped, its last 10 bytes cut, deleted.

The store is opened again (the start's reconciling) and judged against what
the writer was told was acknowledged:

- `kept`: every acknowledged change there (the one in flight may be too);
- `lost_named`: something acknowledged missing, where no copy held it whole
  (or everything before it in its game), and the start named a loss;
- `lost_unnamed` and `lost_though_held` are failures (as are `wrong`: a
  state that is no prefix of what was acknowledged, and `errors`: a start
  that failed). `alarms` counts starts that named a possible loss where
  none was (a copy gone whole cannot tell what it held).

A change is *held* by the journal if its line is still whole, by the
snapshot if the snapshot is untouched and reaches it, by the game file if
SQLite still reads it there (its `meta.change`) and the main file is
untouched. Flipped bytes are placed by a seeded RNG: the same seed, the
same matrix.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from itertools import combinations
from pathlib import Path

from ..store import Store
from ..store.faults import POINTS
from ..store.journal import HEADER

DB = "games.sqlite3"
FRAME = 24 + 4096  # a WAL frame: its header and one page


def _event(a: int) -> dict:
    return {"e": "act", "a": a, "pad": "x" * 300}


def plan() -> list[dict]:
    """The changes the writer makes, in order (each one journalled change)."""
    ops: list[dict] = [
        {"op": "game", "events": [_event(0)], "tokens": [f"g1-{i}" for i in range(5)]},
        {"op": "append", "game": 1, "start": 1, "events": [_event(1)]},
        {"op": "claim", "game": 1, "seat": 0, "claim": "phone-a"},
        {"op": "append", "game": 1, "start": 2, "events": [_event(2), _event(3)]},
        {"op": "append", "game": 1, "start": 4, "events": [_event(4)]},
        {"op": "truncate", "game": 1, "keep": 3},
        {"op": "append", "game": 1, "start": 3, "events": [_event(30)]},
        {"op": "token", "game": 1, "seat": 1, "token": "g1-1-new"},
        {"op": "setup", "name": "friday", "setup": {"ruleset": "bga", "players": ["A", "B"]}},
        {"op": "append", "game": 1, "start": 4, "events": [_event(40)], "winner": "village"},
        {"op": "game", "events": [_event(0)], "tokens": [f"g2-{i}" for i in range(5)]},
    ]
    for a in range(1, 6):
        ops.append({"op": "append", "game": 2, "start": a, "events": [_event(a)]})
    ops += [
        {"op": "claim", "game": 2, "seat": 3, "claim": "phone-d"},
        {"op": "pin", "game": 2, "seat": 3, "digest": "pin-of-d"},
        {"op": "truncate", "game": 2, "keep": 4},
        {"op": "append", "game": 2, "start": 4, "events": [_event(44), _event(45)]},
        {"op": "unsetup", "name": "friday"},
        {"op": "append", "game": 2, "start": 6, "events": [_event(6)]},
        {"op": "append", "game": 2, "start": 7, "events": [_event(7)]},
    ]
    return ops


def write(folder: str) -> None:
    """The writer (a child process): the plan through a Store, "ack i" after
    each change returns, then a power cut (no close)."""
    store = Store(Path(folder) / DB)
    for i, op in enumerate(plan()):
        kind = op["op"]
        if kind == "game":
            store.create_game({"ruleset": "bga"}, op["events"], op["tokens"], {"i": i})
        elif kind == "append":
            store.append(op["game"], op["start"], op["events"], {"i": i}, op.get("winner"))
        elif kind == "truncate":
            store.truncate(op["game"], op["keep"], {"i": i})
        elif kind == "claim":
            store.set_claim(op["game"], op["seat"], op["claim"])
        elif kind == "token":
            store.set_token(op["game"], op["seat"], op["token"])
        elif kind == "pin":
            store.set_pin(op["game"], op["seat"], op["digest"])
        elif kind == "setup":
            store.save_setup(op["name"], op["setup"])
        else:
            store.delete_setup(op["name"])
        print(f"ack {i}", flush=True)
    os._exit(0)  # the files as a power cut leaves them


# --- what was acknowledged ------------------------------------------------------------
#
# A game's events are a log: what is kept must be a prefix of what was
# acknowledged. Each seat (its link and its claim) and each saved setup is a
# register: only its latest value matters.


def _components(ops: list[dict]) -> dict[tuple, list[tuple[int, object]]]:
    """Per component, the (change, value after it) of each change to it."""
    out: dict[tuple, list[tuple[int, object]]] = {}
    games: dict[int, dict] = {}
    for n, op in enumerate(ops, 1):
        kind = op["op"]
        if kind in ("setup", "unsetup"):
            out.setdefault(("setup", op["name"]), []).append(
                (n, op["setup"] if kind == "setup" else None))
            continue
        if kind == "game":
            gid = len(games) + 1
            g = games[gid] = {"events": list(op["events"]), "seats": [
                [t, None] for t in op["tokens"]]}
            for seat in range(len(g["seats"])):
                out.setdefault((gid, "seat", seat), []).append((n, tuple(g["seats"][seat])))
        elif kind == "pin":
            out.setdefault((op["game"], "pin", op["seat"]), []).append((n, op["digest"]))
            continue
        else:
            gid = op["game"]
            g = games[gid]
            if kind == "append":
                g["events"] = g["events"][:op["start"]] + list(op["events"])
            elif kind == "truncate":
                g["events"] = g["events"][:op["keep"]]
            else:
                seat = g["seats"][op["seat"]]
                if kind == "token":
                    seat[:] = [op["token"], None]
                else:
                    seat[1] = op["claim"]
                out.setdefault((gid, "seat", op["seat"]), []).append((n, tuple(seat)))
                continue
        out.setdefault((gid, "events"), []).append((n, list(g["events"])))
    return out


def _actual(store: Store, components: dict) -> dict[tuple, object]:
    out: dict[tuple, object] = {}
    setups = {r["name"]: r["setup"] for r in store.setups()}
    for key in components:
        if key[0] == "setup":
            out[key] = setups.get(key[1])
            continue
        rec = store.load(key[0])
        if rec is None:
            out[key] = None
        elif key[1] == "events":
            out[key] = rec.events
        elif key[1] == "pin":
            out[key] = rec.pins[key[2]] if key[2] < len(rec.pins) else None
        else:
            seat = key[2]
            out[key] = (rec.tokens[seat], rec.claims[seat]) if seat < len(rec.tokens) else None
    return out


# --- the damage -----------------------------------------------------------------------


def _flip(path: Path, rng: random.Random, lo: int = 0, hi: int | None = None) -> None:
    if not path.exists():
        return
    data = bytearray(path.read_bytes())
    if not data:
        return
    hi = min(len(data), len(data) if hi is None else hi)
    lo = min(lo, hi - 1)
    at = rng.randrange(max(0, lo), max(1, hi))
    data[at] ^= 1 << rng.randrange(8)
    path.write_bytes(bytes(data))


def _last_line_span(path: Path) -> tuple[int, int]:
    """Where the journal's last line is (its header, when it has no line yet)."""
    data = path.read_bytes() if path.exists() else b""
    end = len(data.rstrip(b"\n"))
    if end <= HEADER:
        return 0, min(end, HEADER - 1)
    return max(HEADER, data.rfind(b"\n", 0, end) + 1), end


def _cut(path: Path, size: int = 10) -> None:
    if not path.exists():
        return
    data = path.read_bytes()
    path.write_bytes(data[:max(0, len(data) - size)])


def _drop_line(path: Path) -> None:
    if not path.exists():
        return
    data = path.read_bytes()
    start, _ = _last_line_span(path)
    if start >= HEADER:  # (a journal with no line yet keeps its header)
        path.write_bytes(data[:start])


def _drop_frame(path: Path) -> None:
    if not path.exists():
        return
    data = path.read_bytes()
    if len(data) >= 32 + FRAME:
        path.write_bytes(data[:-FRAME])


def _delete(*paths: Path) -> None:
    for p in paths:
        p.unlink(missing_ok=True)


Damage = tuple[str, str, Callable[[Path, random.Random], None]]  # (copy, way, do)


def damages() -> list[Damage]:
    """Every way each copy is damaged (the folder is given)."""
    j = lambda d: d / f"{DB}.journal"  # noqa: E731
    s = lambda d: d / f"{DB}.snapshot"  # noqa: E731
    w = lambda d: d / f"{DB}-wal"  # noqa: E731
    return [
        ("journal", "flip-last-line", lambda d, r: _flip(j(d), r, *_last_line_span(j(d)))),
        ("journal", "flip-anywhere", lambda d, r: _flip(j(d), r)),
        ("journal", "cut-tail", lambda d, r: _cut(j(d))),
        ("journal", "drop-last-line", lambda d, r: _drop_line(j(d))),
        ("journal", "deleted", lambda d, r: _delete(j(d))),
        ("file", "wal-flip", lambda d, r: _flip(w(d), r)),
        ("file", "wal-cut-tail", lambda d, r: _cut(w(d))),
        ("file", "wal-drop-last-frame", lambda d, r: _drop_frame(w(d))),
        ("file", "wal-deleted", lambda d, r: _delete(w(d), d / f"{DB}-shm")),
        ("file", "main-flip", lambda d, r: _flip(d / DB, r, 4096)),
        ("snapshot", "flip", lambda d, r: _flip(s(d), r)),
        ("snapshot", "cut-tail", lambda d, r: _cut(s(d))),
        ("snapshot", "deleted", lambda d, r: _delete(s(d))),
    ]


def combos(quick: bool = False) -> list[tuple[Damage, ...]]:
    """No damage, each damage alone, and each pair on two different copies."""
    every = damages()
    pairs = [(a, b) for a, b in combinations(every, 2) if a[0] != b[0]]
    if quick:  # the suite's slice: every damage alone, the journal with the file
        pairs = [(a, b) for a, b in pairs if {a[0], b[0]} == {"journal", "file"}]
    return [(), *((d,) for d in every), *pairs]


# --- one case ---------------------------------------------------------------------------


def _held(before: Path, after: Path, change: int, snap_change: int) -> set[int]:
    """The changes some copy still holds whole after the damage (see the module)."""
    held: set[int] = set()
    jb, ja = before / f"{DB}.journal", after / f"{DB}.journal"
    if jb.exists() and ja.exists():
        whole = set(ja.read_bytes()[HEADER:].split(b"\n")[:-1])
        for line in jb.read_bytes()[HEADER:].split(b"\n")[:-1]:
            if line in whole:
                held.add(json.loads(line.partition(b" ")[2])["n"])
    sb, sa = before / f"{DB}.snapshot", after / f"{DB}.snapshot"
    if sb.exists() and sa.exists() and sb.read_bytes() == sa.read_bytes():
        held |= set(range(1, snap_change + 1))
    if (before / DB).read_bytes() == (after / DB).read_bytes():
        with tempfile.TemporaryDirectory() as tmp:  # SQLite's own reading, on a copy
            for name in (DB, f"{DB}-wal"):
                if (after / name).exists():
                    shutil.copy(after / name, Path(tmp) / name)
            try:
                db = sqlite3.connect(Path(tmp) / DB)
                try:
                    held |= set(range(1, db.execute("SELECT change FROM meta")
                                      .fetchone()[0] + 1))
                finally:
                    db.close()
            except sqlite3.Error:
                pass
    return held


def _snap_change(folder: Path) -> int:
    path = folder / f"{DB}.snapshot"
    if not path.exists():
        return 0
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return int(db.execute("SELECT change FROM meta").fetchone()[0])
    except sqlite3.Error:
        return 0
    finally:
        db.close()


def judge(folder: Path, before: Path, acked: int, ops: list[dict]) -> tuple[str, str]:
    """Open the (damaged) store in `folder` and judge it: (verdict, detail)."""
    held = _held(before, folder, acked, _snap_change(before))
    try:
        store = Store(folder / DB)
    except Exception as err:  # noqa: BLE001 - a start that fails is a failure, counted
        return "errors", f"{type(err).__name__}: {err}"
    try:
        components = _components(ops[:acked + 1])  # the one in flight may be kept too
        actual = _actual(store, components)
        lost = False
        for key, changes in components.items():
            mine = [(n, v) for n, v in changes if n <= acked]
            states = [None] + [v for _, v in changes]
            now = actual[key]
            if now not in states:
                return "wrong", f"{key}: {json.dumps(now)[:300]}"
            i = len(states) - 1 - states[::-1].index(now)  # (the latest, if one repeats)
            if i >= len(mine):
                continue  # every acknowledged change of it (and perhaps the one in flight)
            lost = True
            creation = [n for n, _ in changes[:1]] if key[0] != "setup" else []
            if key[1] == "events":  # a log: every change up to the first missing held?
                needed = [n for n, _ in mine[:i + 1]]
            else:  # a register: its last acknowledged value held (and its game's start)?
                needed = [mine[-1][0]] + ([n for n, _ in _events_start(components, key)]
                                          if key[0] != "setup" else [])
            if all(n in held for n in needed + creation):
                return "lost_though_held", f"{key}: change {mine[i][0]} ({store.notice})"
            if not store.lost:
                return "lost_unnamed", f"{key}: from change {mine[i][0]}"
        if lost:
            return "lost_named", ""
        return ("alarms" if store.lost else "kept"), ""
    finally:
        store.abandon()


def _events_start(components: dict, key: tuple) -> list[tuple[int, object]]:
    """A seat's game's first change (its creation): the seat is nowhere without it."""
    return components[(key[0], "events")][:1]


def _writer(folder: Path, point: str | None, k: int) -> int:
    """Run the writer, killed at `point`'s k-th pass; answers the changes acknowledged."""
    import companion

    env = {**os.environ, "PYTHONPATH": str(Path(companion.__file__).resolve().parents[1])}
    env.pop("WEREWOLF_CRASH_AT", None)
    if point is not None:
        env["WEREWOLF_CRASH_AT"] = f"{point}:{k}"
    done = subprocess.run([sys.executable, "-c", "import sys; from companion.bench.storage "
                           "import write; write(sys.argv[1])", str(folder)],
                          env=env, capture_output=True, text=True, timeout=120)
    return sum(1 for line in done.stdout.splitlines() if line.startswith("ack "))


def kills(quick: bool = False) -> Iterator[tuple[str | None, int]]:
    """Where the writer is killed: each point at a few of its passes (the
    start's own snapshot is each snapshot point's first pass), and no kill."""
    if quick:
        yield from (("journal-synced", 5), ("committed", 18), ("snapshot-renamed", 3))
        return
    for point in POINTS:
        passes = (2, 3) if point.startswith(("checkpoint", "snapshot", "journal-re")) \
            else (1, 5, 9, 12, 18, 23)
        for k in passes:
            yield point, k
    yield None, 0


def run(quick: bool = False, seed: int = 41) -> dict:
    """The matrix; one JSON object of counts (and the failures, if any)."""
    started = time.monotonic()
    ops = plan()
    counts = {k: 0 for k in ("kept", "lost_named", "alarms", "lost_unnamed",
                             "lost_though_held", "wrong", "errors")}
    failures: list[str] = []
    cases = 0
    with tempfile.TemporaryDirectory(prefix="werewolf-matrix-") as tmp:
        root = Path(tmp)
        for point, k in kills(quick):
            base = root / "base"
            shutil.rmtree(base, ignore_errors=True)
            base.mkdir()
            acked = _writer(base, point, k)
            for n, combo in enumerate(combos(quick)):
                case = root / "case"
                shutil.rmtree(case, ignore_errors=True)
                shutil.copytree(base, case)
                rng = random.Random(f"{seed}/{point}/{k}/{n}")
                for _, _, do in combo:
                    do(case, rng)
                verdict, detail = judge(case, base, acked, ops)
                counts[verdict] += 1
                cases += 1
                if verdict in ("lost_unnamed", "lost_though_held", "wrong", "errors"):
                    ways = "+".join(f"{c}:{w}" for c, w, _ in combo) or "none"
                    failures.append(f"{point}:{k} acked {acked} {ways}: {verdict} {detail}")
    return {"cases": cases, "kills": len(list(kills(quick))), "damages": len(combos(quick)),
            **counts, "failures": failures[:20], "seconds": round(time.monotonic() - started, 1),
            "quick": quick}
