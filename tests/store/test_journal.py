"""A damaged log never loses an acknowledged game without a word [issue 30
item 1]: SQLite ends its WAL at the first frame whose checksum is wrong, so
32 flipped bytes in the WAL silently dropped acknowledged games (the issue:
with the flip at 25 % or 50 % of the WAL, three acknowledged games gone; at
90 % the current game cut from 14 events to 5). The store keeps a second
copy — a journal of every acknowledged change over a snapshot — and at
start puts back what the file lost, or names exactly what neither holds.

The writes run in a child process that ends with os._exit (no close, no
checkpoint: a power cut after the last acknowledged write), as the hub
would leave its files.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from slowness import wait_s

from companion.store import Store

ROOT = Path(__file__).resolve().parents[2]

WRITER = """
import json, os, sys
sys.path.insert(0, {root!r})
from companion.store import Store
store = Store({path!r})
plan = json.loads({plan!r})
for game, n in plan:
    gid = store.create_game({{"ruleset": "bga", "players": ["A", "B"]}},
                            [{{"e": "setup", "a": 0}}], ["t%d-0" % game, "t%d-1" % game], {{}})
    for i in range(1, n):
        store.append(gid, i, [{{"e": "act", "a": i, "pad": "x" * 200}}], {{"i": i}})
os._exit(0)  # no close: the files as a power cut leaves them
"""


def write_games(path: Path, plan: list[tuple[int, int]]) -> None:
    """Games (id, events) written and acknowledged by a process that then dies."""
    code = WRITER.format(root=str(ROOT), path=str(path), plan=json.dumps(plan))
    subprocess.run([sys.executable, "-c", code], check=True, timeout=wait_s(60))


def flip(path: Path, at: float, size: int = 32) -> None:
    data = bytearray(path.read_bytes())
    start = int(len(data) * at)
    for i in range(start, min(start + size, len(data))):
        data[i] ^= 0xFF
    path.write_bytes(bytes(data))


def events_of(store: Store, game: int) -> list[int]:
    rec = store.load(game)
    return [] if rec is None else [e["a"] for e in rec.events]


PLAN = [(1, 14), (2, 14), (3, 14), (4, 14)]


@pytest.mark.parametrize("at", [0.25, 0.5, 0.9])
def test_flipped_bytes_in_the_wal_lose_no_acknowledged_game(tmp_path, at):
    """The issue's case: 32 bytes flipped at 25, 50 and 90 % of the WAL."""
    path = tmp_path / "games.sqlite3"
    write_games(path, PLAN)
    wal = Path(f"{path}-wal")
    assert wal.stat().st_size > 20_000  # the games are in the WAL, as on the Pi mid-game
    flip(wal, at)
    store = Store(path)
    assert [g["id"] for g in store.games()] == [4, 3, 2, 1]
    for game, n in PLAN:
        assert events_of(store, game) == list(range(n)), (game, store.notice)
    assert store.notice is not None and "restored from the journal" in store.notice
    rec = store.load(3)
    assert rec is not None and rec.tokens == ["t3-0", "t3-1"] and rec.pace == {"i": 13}


def test_a_sound_file_with_its_journal_says_nothing(tmp_path):
    path = tmp_path / "games.sqlite3"
    write_games(path, PLAN)
    store = Store(path)
    assert store.notice is None
    assert all(events_of(store, g) == list(range(n)) for g, n in PLAN)


def test_what_neither_copy_holds_is_named_exactly(tmp_path):
    """A damaged journal line and a file that lost the same events: the game
    resumes before the gap, and the loss is named with its events."""
    path = tmp_path / "games.sqlite3"
    write_games(path, [(1, 12)])
    journal = Path(f"{path}.journal")
    lines = journal.read_bytes().split(b"\n")
    lines[6] = lines[6].replace(b'"pad"', b'"PAD"')  # event 6's line fails its check
    journal.write_bytes(b"\n".join(lines))
    Path(f"{path}-wal").unlink()  # the file lost every event (its WAL gone)
    Path(f"{path}-shm").unlink(missing_ok=True)
    store = Store(path)
    assert events_of(store, 1) == list(range(6))
    assert store.notice is not None and store.lost
    assert "game 1: events 6–11 lost: change 7, before them, is in no copy whole" in store.notice
    assert ("the journal holds events 7–11 but they cannot be played without it; game 1 "
            "resumes after event 5") in store.notice  # [issue 41: the whole loss named]
    assert "the journal had 1 damaged line(s); the SD card may be failing" in store.notice


def test_a_damaged_journal_line_costs_nothing_when_the_file_holds_it(tmp_path):
    path = tmp_path / "games.sqlite3"
    write_games(path, [(1, 12)])
    journal = Path(f"{path}.journal")
    lines = journal.read_bytes().split(b"\n")
    lines[4] = b"0000dead " + lines[4][9:]
    journal.write_bytes(b"\n".join(lines))
    store = Store(path)
    assert events_of(store, 1) == list(range(12))
    assert store.notice == ("werewolf: the journal had 1 damaged line(s); the game file holds "
                            "change(s) 5: nothing of them lost; the SD card may be failing")
    assert not store.lost


def test_a_damaged_snapshot_leaves_the_file_as_it_is_and_is_named(tmp_path):
    """Nothing lost, and (issue 41: never silent) the damage named."""
    path = tmp_path / "games.sqlite3"
    write_games(path, [(1, 10), (2, 10)])
    Store(path).close()  # a clean stop: a snapshot of both games, an empty journal
    snapshot = Path(f"{path}.snapshot")
    snapshot.write_bytes(b"not a database" * 100)
    store = Store(path)
    assert events_of(store, 1) == list(range(10)) and events_of(store, 2) == list(range(10))
    assert store.notice == ("werewolf: the snapshot was damaged (its bytes do not match its "
                            "checksum): not used; a new one is taken; the SD card may be failing")
    assert not store.lost


def test_a_refused_commit_leaves_nothing_in_the_journal_to_restore(tmp_path):
    """The journal is written first; when the file then refuses the write
    (here: an event index already taken), the journal's record is taken
    back, so a restart does not bring back what the hub refused."""
    path = tmp_path / "games.sqlite3"
    store = Store(path)
    game = store.create_game({"ruleset": "bga"}, [{"e": "setup", "a": 0}], ["t"], {})
    store.append(game, 1, [{"e": "act", "a": 1}], {})
    with pytest.raises(Exception):  # noqa: B017 - SQLite's IntegrityError, as the table sees it
        store.append(game, 1, [{"e": "act", "a": 99}], {})
    store._db.close()  # a power cut: no close, no snapshot
    store.journal.close()
    again = Store(path)
    assert events_of(again, game) == [0, 1] and again.notice is None


def test_an_undo_the_file_lost_is_taken_back(tmp_path):
    """An acknowledged undo (truncate) that the file lost comes back too."""
    path = tmp_path / "games.sqlite3"
    write_games(path, [(1, 8)])
    store = Store(path)
    store.truncate(1, 5, {"undone": True})
    db = store._db  # the file loses the undo (as a dropped WAL frame would: its number too)
    db.execute("INSERT INTO events SELECT 1, idx, '{\"e\":\"act\",\"a\":' || idx || '}' "
               "FROM (SELECT 5 AS idx UNION SELECT 6 UNION SELECT 7)")
    db.execute("UPDATE meta SET change = change - 1")
    db.close()
    store.journal.close()
    again = Store(path)
    assert events_of(again, 1) == [0, 1, 2, 3, 4]
    assert again.notice is not None and "taken back" in again.notice


def test_doctor_names_what_a_start_found(tmp_path):
    """[issue 30 item 1] "named on stderr, on the GM tablet and in werewolf
    doctor": each start's findings are kept beside the file, dated; `werewolf
    doctor --data DIR` prints them and exits 1; a sound folder says so."""
    from companion.store import storage_report

    path = tmp_path / "games.sqlite3"
    write_games(path, [(1, 12)])
    assert storage_report(path)[0] is True
    flip(Path(f"{path}-wal"), 0.5)
    store = Store(path)
    assert store.notice is not None
    store.close()
    sound, lines = storage_report(path)
    assert not sound and any("game 1: " in line and "restored from the journal" in line
                             for line in lines), lines
    proc = subprocess.run(
        [sys.executable, "-c", "import sys; from companion.cli import main; sys.exit(main())",
         "doctor", "--data", str(tmp_path)], capture_output=True, text=True, timeout=wait_s(60),
        cwd=ROOT, env={**__import__("os").environ, "PYTHONPATH": str(ROOT),
                       "GPIOZERO_PIN_FACTORY": "mock"})
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "restored from the journal" in proc.stdout and "sound, 1 game(s)" in proc.stdout
    assert "storage: snapshot: whole (its checksum matches)" in proc.stdout


def test_doctor_names_a_damaged_journal_before_a_start_does(tmp_path):
    """[issue 41] doctor reads the three copies as they are (read only, a
    running hub undisturbed): a journal line that fails its check is named,
    and exits 1, before the next start has to find it."""
    from companion.store import storage_report

    path = tmp_path / "games.sqlite3"
    write_games(path, [(1, 6)])
    sound, lines = storage_report(path)
    assert sound and "storage: journal: changes after 1 up to 6, every line whole" in lines
    flip_in_last_line(Path(f"{path}.journal"))
    sound, lines = storage_report(path)
    assert not sound and any("DAMAGED: 1 line(s) fail their check" in line for line in lines)


def test_the_gm_view_carries_what_the_start_found(tmp_path):
    """The GM's tablet says it too: the GM view's `storage` is the notice,
    and the game resumes with every acknowledged action."""
    from companion.table import Table

    path = tmp_path / "games.sqlite3"
    table = Table(Store(path))
    players = list("ABCDEFGH")
    table.create({"ruleset": "millers-hollow", "players": players, "seed": 3,
                  "deal": dict(zip(players, ["werewolf", "werewolf", "seer", "witch", "hunter",
                                             "villager", "villager", "villager"]))})
    table.act_gm({"actor": "C", "do": "inspect", "target": "A"})
    table.act_gm({"actor": "A", "do": "attack", "target": "E"})
    acted = table.state.acts
    cut = tmp_path / "after-the-power-cut"  # the files as they are on the card now
    cut.mkdir()
    for f in tmp_path.glob("games.sqlite3*"):
        shutil.copy(f, cut / f.name)
    flip(cut / "games.sqlite3-wal", 0.3)
    again = Table(Store(cut / "games.sqlite3"))
    again.resume()
    assert again.state is not None and again.state.acts == acted
    assert again.gm_view()["storage"] == again.store.notice
    assert "restored from the journal" in again.gm_view()["storage"]


def test_the_second_copy_is_the_owners_only(tmp_path):
    """The journal, the snapshot and the notices hold every card, as the
    file does: 0600 [issue 17's rule for the file, issue 30]."""
    import stat

    path = tmp_path / "games.sqlite3"
    write_games(path, [(1, 3)])
    flip(Path(f"{path}-wal"), 0.5)
    Store(path).close()
    for suffix in (".journal", ".snapshot", ".notices"):
        mode = stat.S_IMODE(Path(f"{path}{suffix}").stat().st_mode)
        assert mode == 0o600, (suffix, oct(mode))


# --- [issue 41] the journal is the new weakest link ----------------------------------------


def drop_last_line(path: Path) -> None:
    """The journal's last whole line gone (a card that lost its last write)."""
    data = path.read_bytes()
    path.write_bytes(data[:data.rstrip(b"\n").rfind(b"\n") + 1])


def cut_tail(path: Path, size: int = 10) -> None:
    path.write_bytes(path.read_bytes()[:-size])


def flip_in_last_line(path: Path) -> None:
    """One byte of the journal's last line flipped (one bit of the card)."""
    data = bytearray(path.read_bytes())
    data[len(data) - 40] ^= 0x01
    path.write_bytes(bytes(data))


def drop_last_frame(wal: Path) -> None:
    """The WAL's last frame gone (24-byte header + one 4 KiB page): its commit
    with it, as SQLite reads a WAL."""
    data = wal.read_bytes()
    assert len(data) > 32 + 2 * (24 + 4096)
    wal.write_bytes(data[:-(24 + 4096)])


@pytest.mark.parametrize("damage", [drop_last_line, cut_tail, flip_in_last_line])
def test_damage_to_the_journal_alone_loses_no_acknowledged_event(tmp_path, damage):
    """[issue 41 item 1] After a kill, the journal's last line dropped, its
    last 10 bytes cut or one byte of it flipped: the game file still held
    every acknowledged event, yet each restart came back one action short
    ("what followed event 9 taken back, as acknowledged"): a damaged journal
    line was read as an undo. Now the file's events are all kept and the
    journal's damage is named, never an undo."""
    path = tmp_path / "games.sqlite3"
    write_games(path, [(1, 10)])
    damage(Path(f"{path}.journal"))
    store = Store(path)
    assert events_of(store, 1) == list(range(10)), store.notice
    assert store.notice is not None and "taken back" not in store.notice
    assert "the journal had" in store.notice and "nothing of them lost" in store.notice \
        or "cut short" in store.notice or "missing" in store.notice, store.notice
    assert not store.lost


def test_the_journal_and_the_wal_both_damaged_name_the_loss(tmp_path):
    """[issue 41 item 2] The journal's last line flipped and the WAL's last
    frame dropped: no copy holds the last action whole, and the restart said
    nothing (`storage: null`). Now the loss is named, with its game and
    what the damaged line still reads, and the game resumes before it."""
    path = tmp_path / "games.sqlite3"
    write_games(path, [(1, 10)])
    flip_in_last_line(Path(f"{path}.journal"))
    drop_last_frame(Path(f"{path}-wal"))
    store = Store(path)
    assert events_of(store, 1) == list(range(9))
    assert store.notice is not None and store.lost
    assert "game 1: event 9 (change 10) may be lost" in store.notice, store.notice
    assert '"a":9' in store.notice  # what the damaged line still reads: its action


def test_the_journal_and_the_wal_both_deleted_name_the_loss(tmp_path):
    """[issue 41 item 2] The journal and the WAL both deleted: game 1 was
    gone and nothing was said. Now the snapshot taken when the game was made
    holds it, and what followed, which no copy holds, is named."""
    path = tmp_path / "games.sqlite3"
    write_games(path, [(1, 10)])
    Path(f"{path}.journal").unlink()
    Path(f"{path}-wal").unlink()
    Path(f"{path}-shm").unlink(missing_ok=True)
    store = Store(path)
    assert [g["id"] for g in store.games()] == [1]
    assert events_of(store, 1)[:1] == [0]
    assert store.notice is not None and store.lost
    assert "the journal was missing" in store.notice, store.notice


def test_the_first_start_after_the_upgrade_reads_issue_30s_journal_once(tmp_path):
    """[issue 41] A game file of schema 3 with issue 30's journal (lines
    without numbers, no header), as a hub killed before the upgrade leaves
    them: what the journal holds past the file is put back; nothing is taken
    back (its lines cannot tell a short journal from an undo); then the file
    is the newest schema with a numbered journal, and the next start says
    nothing."""
    import sqlite3
    import zlib

    from companion.store.log import _MIGRATIONS, _SCHEMA, SCHEMA_VERSION

    path = tmp_path / "games.sqlite3"
    db = sqlite3.connect(path)
    db.executescript(_SCHEMA + _MIGRATIONS[2] + ";" + _MIGRATIONS[3] + ";PRAGMA user_version=3;")
    db.execute("INSERT INTO games (id, created, setup, pace, length) VALUES "
               "(1, 1.0, '{\"ruleset\":\"bga\"}', '{}', 3)")
    db.executemany("INSERT INTO events VALUES (1, ?, ?)",
                   [(i, json.dumps({"e": "act", "a": i}, separators=(",", ":")))
                    for i in range(3)])
    db.execute("INSERT INTO seats VALUES (1, 0, 't0', NULL)")
    db.commit()
    db.close()

    def line(record: dict) -> bytes:
        text = json.dumps(record, ensure_ascii=False, separators=(",", ":"))
        return f"{zlib.crc32(text.encode()):08x} {text}\n".encode()

    ev = [{"e": "act", "a": i} for i in range(5)]
    Path(f"{path}.journal").write_bytes(b"".join([
        line({"op": "game", "id": 1, "created": 1.0, "setup": {"ruleset": "bga"},
              "events": ev[:1], "tokens": ["t0"], "pace": {}}),
        *(line({"op": "append", "game": 1, "start": i, "events": [ev[i]], "pace": {"i": i},
                "winner": None}) for i in range(1, 5))]))
    store = Store(path)
    assert events_of(store, 1) == [0, 1, 2, 3, 4]
    assert store.notice == ("werewolf: game 1: events 3–4 restored from the journal (the game "
                            "file had lost them)")
    store.append(1, 5, [{"e": "act", "a": 5}], {})
    store.close()
    again = Store(path)
    assert events_of(again, 1) == list(range(6)) and again.notice is None
    assert again._db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


def test_a_journal_deleted_under_a_running_hub_is_started_again(tmp_path):
    """[issue 41] The journal deleted while the hub runs (a hand, a cleaner):
    the next change sees it (the path is no longer the file open), takes a
    snapshot (the file holds everything) and a new journal; the change is
    kept in both, and the next start finds nothing missing."""
    path = tmp_path / "games.sqlite3"
    store = Store(path)
    game = store.create_game({"ruleset": "bga"}, [{"e": "setup", "a": 0}], ["t"], {})
    store.append(game, 1, [{"e": "act", "a": 1}], {})
    Path(f"{path}.journal").unlink()
    store.append(game, 2, [{"e": "act", "a": 2}], {})
    assert Path(f"{path}.journal").exists()
    store.abandon()  # a power cut: no snapshot at the stop
    again = Store(path)
    assert events_of(again, game) == [0, 1, 2] and again.notice is None
