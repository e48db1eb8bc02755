"""The reconciliation's table of cases [issue 41]: three copies (the game
file, its journal, its snapshot), each intact, damaged, short or missing;
every row of companion/store/reconcile.py's table (and docs/how/storage.md's)
played on real files.

The rule: damage to any one copy — or to two, where the third still holds a
change — loses nothing acknowledged; where no copy holds it, the loss is
named (`store.lost`, one line in `notice`) with its game and events; every
damaged copy is named too, even when nothing was lost. A journal line that
fails its check is damage, never an undo.

The folder is written once by a child process that ends with os._exit (no
close, no checkpoint: a power cut after the last acknowledged write): game 1
(6 events) and game 2 (8 events, the one being played; the snapshot was
taken when it was made, so its 7 later events are in the journal and the
WAL only). Each row damages a copy of that folder.
"""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest
from slowness import wait_s
from test_journal import (  # tests/store, on the path as pytest runs it
    cut_tail,
    drop_last_frame,
    drop_last_line,
    flip_in_last_line,
    write_games,
)

from companion.store import Store

PLAN = [(1, 6), (2, 8)]
ALL = {1: list(range(6)), 2: list(range(8))}
DB = "games.sqlite3"


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("written")
    write_games(folder / DB, PLAN)
    return folder


def events(store: Store) -> dict[int, list[int]]:
    out = {}
    for g in sorted(r["id"] for r in store.games()):
        rec = store.load(g)
        assert rec is not None
        out[g] = [e["a"] for e in rec.events]
    return out


# --- each copy's ways of being damaged ---------------------------------------------------

def journal(d: Path) -> Path:
    return d / f"{DB}.journal"


def snapshot(d: Path) -> Path:
    return d / f"{DB}.snapshot"


def flip_mid_line(path: Path) -> None:
    """A byte flipped in the journal's third line (event 3 of game 2)."""
    lines = path.read_bytes().split(b"\n")
    lines[3] = lines[3].replace(b'"pad":"x', b'"pad":"y', 1)
    path.write_bytes(b"\n".join(lines))


def wal_gone(d: Path) -> None:
    for suffix in ("-wal", "-shm"):
        Path(f"{d / DB}{suffix}").unlink(missing_ok=True)


def file_gone(d: Path) -> None:
    wal_gone(d)
    (d / DB).unlink()


def checkpointed(d: Path) -> None:
    """The WAL copied into the main file (as SQLite's own checkpoints do):
    damage there is then not hidden by a newer copy of its page in the WAL."""
    db = sqlite3.connect(d / DB)
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()


def page_damaged(d: Path) -> None:
    """Other bytes over game 1's events' page (the main file): quick_check sees it."""
    checkpointed(d)
    data = bytearray((d / DB).read_bytes())
    at = data.find(b'"a":3,"pad"')
    assert at > 0
    page = at // 4096 * 4096
    data[page:page + 4096] = bytes(range(256)) * 16
    (d / DB).write_bytes(bytes(data))


def content_damaged(d: Path) -> None:
    """One letter of an event 3 changed in the main file: SQLite's own
    checks see nothing (no checksum on a row's text)."""
    checkpointed(d)
    data = bytearray((d / DB).read_bytes())
    at = data.find(b'"a":3,"pad":"x')
    assert at > 0
    data[at + len(b'"a":3,"pad":"')] = ord("y")
    (d / DB).write_bytes(bytes(data))
    db = sqlite3.connect(d / DB)
    assert db.execute("PRAGMA quick_check").fetchone()[0] == "ok"
    db.close()


def snapshot_of_another_day(d: Path) -> None:
    """An older snapshot of the same file put back over this one."""
    older = d.parent / f"{d.name}-older"
    shutil.copytree(d, older)
    wal_gone(older)  # the file as it stood before game 2: its snapshot
    journal(older).unlink()
    snapshot(older).unlink()
    db = sqlite3.connect(older / DB)
    db.execute("DELETE FROM events WHERE game = 2")
    db.execute("DELETE FROM seats WHERE game = 2")
    db.execute("DELETE FROM games WHERE id = 2")
    db.execute("UPDATE meta SET change = 1")
    db.commit()
    db.close()
    s = Store(older / DB)  # its own start takes its snapshot
    s.abandon()
    shutil.copy(snapshot(older), snapshot(d))


def file_of_another_day(d: Path) -> None:
    """The game file put back from a copy of the day before (game 1 only)."""
    wal_gone(d)
    db = sqlite3.connect(d / DB)
    db.execute("DELETE FROM events WHERE game = 2")
    db.execute("DELETE FROM seats WHERE game = 2")
    db.execute("DELETE FROM games WHERE id = 2")
    db.execute("UPDATE meta SET change = 6")
    db.commit()
    db.close()


def another_files_journal(d: Path) -> None:
    other = d.parent / f"{d.name}-other"
    other.mkdir()
    Store(other / DB).close()
    shutil.copy(journal(other), journal(d))


# --- the table ---------------------------------------------------------------------------

Row = tuple[str, str, str, Callable[[Path], None], dict[int, list[int]], list[str], bool]
ROWS: list[Row] = [
    # (file, journal, snapshot, damage, games after, the notice holds, something lost)
    ("intact", "intact", "intact", lambda d: None, ALL, [], False),
    ("intact", "damaged line", "intact", lambda d: flip_mid_line(journal(d)), ALL,
     ["the journal had 1 damaged line(s); the game file holds change(s) 10: nothing of them "
      "lost"], False),
    ("intact", "last line cut", "intact", lambda d: cut_tail(journal(d)), ALL,
     ["(the last cut short)", "nothing of them lost"], False),
    ("intact", "last line dropped", "intact", lambda d: drop_last_line(journal(d)), ALL,
     ["1 line(s) missing", "nothing of them lost"], False),
    ("intact", "last line flipped", "intact", lambda d: flip_in_last_line(journal(d)), ALL,
     ["1 damaged line(s)", "nothing of them lost"], False),
    ("intact", "missing", "intact", lambda d: journal(d).unlink(), ALL,
     ["the journal was missing (deleted?): what was acknowledged after change 14"], True),
    ("intact", "intact", "damaged", lambda d: flip_in_last_line(snapshot(d)), ALL,
     ["the snapshot was damaged"], False),
    ("intact", "intact", "missing", lambda d: snapshot(d).unlink(), ALL,
     ["the snapshot was missing (deleted?): a new one is taken"], False),
    ("intact", "intact", "another day's", snapshot_of_another_day, ALL,
     ["the snapshot holds changes up to 1 but the journal starts after change 7"], False),
    ("intact", "another file's", "intact", another_files_journal, ALL,
     ["the journal belongs to another game file", "the journal was missing"], True),
    ("short: WAL's last frame", "intact", "intact",
     lambda d: drop_last_frame(Path(f"{d / DB}-wal")), ALL,
     ["game 2: event 7 restored from the journal (the game file had lost them)"], False),
    ("short: WAL gone", "intact", "intact", wal_gone, ALL,
     ["game 2: events 1–7 restored from the journal"], False),
    ("short: WAL's last frame", "last line flipped", "intact",
     lambda d: (drop_last_frame(Path(f"{d / DB}-wal")), flip_in_last_line(journal(d))),
     {1: ALL[1], 2: list(range(7))},
     ["game 2: event 7 (change 14) may be lost: no copy holds it whole (its damaged line "
      'reads (unchecked) {"n":14,"op":"append","game":2,"start":7'], True),
    ("short: WAL gone", "damaged line", "intact",
     lambda d: (wal_gone(d), flip_mid_line(journal(d))), {1: ALL[1], 2: [0, 1, 2]},
     ["game 2: events 1–2 restored from the journal",
      "game 2: events 3–7 lost: change 10, before them, is in no copy whole",
      "the journal holds events 4–7 but they cannot be played without it; game 2 resumes "
      "after event 2"], True),
    ("short: WAL gone", "last line dropped", "intact",
     lambda d: (wal_gone(d), drop_last_line(journal(d))), {1: ALL[1], 2: list(range(7))},
     ["game 2: events 1–6 restored from the journal",  # (a claim of game 1's, perhaps)
      "games 1, 2: change 14 may be lost: no copy holds it whole (its line is not in the "
      "journal)"], True),
    ("damaged page", "intact", "intact", page_damaged, ALL,
     ["was damaged", "restored from the snapshot"], False),
    ("damaged content", "intact", "intact", content_damaged, ALL,
     ["the game file's copy differed from the snapshot and the journal (from event 3, or "
      "its seats): the checked copy restored"], False),
    ("another day's", "intact", "intact", file_of_another_day, ALL,
     ["game 2: restored from the snapshot and the journal (8 events)"], False),
    ("missing", "intact", "intact", file_gone, ALL,
     ["game 1: restored from the snapshot (6 events)",
      "game 2: restored from the snapshot and the journal (8 events)"], False),
    ("missing", "missing", "intact", lambda d: (file_gone(d), journal(d).unlink()),
     {1: ALL[1], 2: [0]}, ["the journal was missing"], True),
    ("missing", "intact", "missing", lambda d: (file_gone(d), snapshot(d).unlink()), {},
     ["game 2 lost: no copy holds its start (the journal holds 7 later change(s) of it)"],
     True),
]


@pytest.mark.parametrize("row", ROWS, ids=[f"file {r[0]}, journal {r[1]}, snapshot {r[2]}"
                                           for r in ROWS])
def test_each_row_of_the_reconciliation(written: Path, tmp_path: Path, row: Row) -> None:
    _, _, _, damage, after, said, lost = row
    folder = tmp_path / "card"
    shutil.copytree(written, folder)
    damage(folder)
    store = Store(folder / DB)
    try:
        assert events(store) == after, store.notice
        for text in said:
            assert store.notice is not None and text in store.notice, (text, store.notice)
        if not said:
            assert store.notice is None
        assert store.lost == lost, store.notice
        assert "taken back" not in (store.notice or "")  # no damage is ever an undo
    finally:
        store.abandon()
    again = Store(folder / DB)  # the next start: the file holds it all, said once
    try:
        assert events(again) == after and again.notice is None
    finally:
        again.close()


def test_a_seats_pin_is_one_of_the_changes_the_copies_hold(tmp_path: Path) -> None:
    """[issue 41 with issue 40's PINs] A seat's PIN is journalled like its
    link and claim: the WAL lost, the journal puts it back; the file holds it
    and a journal line is damaged, nothing lost; a game rewritten whole keeps
    its PINs (they refer to it)."""
    import subprocess
    import sys

    from test_journal import ROOT

    folder = tmp_path / "card"
    folder.mkdir()
    code = ("import os, sys; sys.path.insert(0, sys.argv[2]); from companion.store import Store\n"
            "s = Store(sys.argv[1]); g = s.create_game({'ruleset': 'bga'}, [{'a': 0}], "
            "['t0', 't1'], {})\n"
            "s.append(g, 1, [{'a': 1}], {}); s.set_pin(g, 1, 'digest-1'); "
            "s.append(g, 2, [{'a': 2}], {})\nos._exit(0)\n")
    subprocess.run([sys.executable, "-c", code, str(folder / DB), str(ROOT)], check=True,
                   timeout=wait_s(60))
    def flip_pins_line(d: Path) -> None:
        data = journal(d).read_bytes()
        at = data.index(b'"digest-1"') + 2
        journal(d).write_bytes(data[:at] + b"X" + data[at + 1:])

    for damage in (wal_gone, flip_pins_line):
        case = tmp_path / f"case-{damage.__name__}"
        shutil.copytree(folder, case)
        damage(case)
        store = Store(case / DB)
        try:
            rec = store.load(1)
            assert rec is not None and rec.pins == [None, "digest-1"], store.notice
            assert [e["a"] for e in rec.events] == [0, 1, 2] and not store.lost
            said = "restored from the journal" if damage is wal_gone else "1 damaged line"
            assert store.notice is not None and said in store.notice, store.notice
        finally:
            store.close()
