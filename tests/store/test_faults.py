"""Storage faults are named and survived [issue 17 items 4, 6, 7].

- a full disk answers StoreFull ("the Pi's storage is full: free space, then
  retry", 507 at the hub), keeps nothing of the refused write, loses nothing
  acknowledged, and the next write works once space is freed;
- at start `PRAGMA quick_check` vets the file: a damaged one is moved aside
  with one line saying where, and the games that still read whole (the
  newest included) are recovered;
- the file and its WAL are 0600;
- a file deleted under a running hub is noticed (and written back from the
  open connection), a replaced one refuses writes (StoreGone).

Source: issue 17 ("An undo on a full disk jams the hub", "A corrupted game
file is accepted silently", "The game file is world-readable ... Deleting it
while the hub runs goes unnoticed")."""

from __future__ import annotations

import os
import random
import sqlite3
import stat
import subprocess
import uuid
from pathlib import Path

import pytest

from companion.store import Store, StoreFull, StoreGone

SETUP = {"ruleset": "bga", "players": list("ABCDEFGH")}


def _event(i: int, pad: int = 0) -> dict:
    return {"e": "act", "a": i, "pad": "x" * pad}


def _game(store: Store, events: int = 5) -> int:
    game = store.create_game(SETUP, [_event(0)], ["t" + uuid.uuid4().hex for _ in range(8)], {})
    for i in range(1, events):
        store.append(game, i, [_event(i)], {"i": i})
    return game


def _cap(store: Store, spare_pages: int) -> None:
    """Emulate a disk with `spare_pages` pages left (SQLite's own SQLITE_FULL)."""
    pages = store._db.execute("PRAGMA page_count").fetchone()[0]
    store._db.execute(f"PRAGMA max_page_count={pages + spare_pages}")


def test_a_full_disk_is_named_and_keeps_nothing_of_the_refused_write(tmp_path):
    store = Store(tmp_path / "g.sqlite3")
    game = _game(store)
    _cap(store, 0)
    with pytest.raises(StoreFull, match="the Pi's storage is full: free space, then retry"):
        store.append(game, 5, [_event(5, pad=20_000)], {"i": 5})
    rec = store.load(game)
    assert rec is not None and len(rec.events) == 5 and rec.pace == {"i": 4}
    _cap(store, 10_000)  # space freed
    store.append(game, 5, [_event(5, pad=20_000)], {"i": 5})  # no UNIQUE constraint jam
    store.truncate(game, 3, {})
    assert len(store.load(game).events) == 3  # type: ignore[union-attr]


def _tiny_filesystem(where: Path, size: str) -> bool:
    """Mount a tmpfs of `size` at `where` (root only); False where we cannot."""
    where.mkdir()
    if os.geteuid() != 0:
        return False
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)],
                          capture_output=True, check=False)
    return done.returncode == 0


def test_a_really_full_filesystem_is_named_and_survived(tmp_path):
    """The same on a real filesystem of 512 KiB (a tmpfs the test mounts; skipped
    where it cannot: not root): fill it with acknowledged events, then free it.
    (256 KiB until [issue 30]: the journal and the snapshot, the second copy
    of what was acknowledged, take their room too.)"""
    where = tmp_path / "sd"
    if not _tiny_filesystem(where, "512k"):
        pytest.skip("cannot mount a small tmpfs here (not root)")
    try:
        ballast = where / "photo.jpg"  # something else took half the card
        ballast.write_bytes(os.urandom(256 * 1024))
        store = Store(where / "g.sqlite3")
        game = _game(store, 1)
        acknowledged = 1
        with pytest.raises(StoreFull):
            for i in range(1, 10_000):
                store.append(game, i, [_event(i, pad=2_000)], {"i": i})
                acknowledged += 1
        rec = store.load(game)
        assert rec is not None and len(rec.events) == acknowledged
        ballast.unlink()  # free space, then retry
        store.append(game, acknowledged, [_event(acknowledged)], {})
        acknowledged += 1
        store.truncate(game, acknowledged - 3, {})
        store.append(game, acknowledged - 3, [_event(acknowledged - 3)], {})
        store.close()
        again = Store(where / "g.sqlite3").load(game)
        assert again is not None and len(again.events) == acknowledged - 2
        assert [e["a"] for e in again.events] == list(range(acknowledged - 2))
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


def _damage(path: Path, page: int) -> None:
    """Overwrite one 4 KiB page of the file with random bytes (the issue's test)."""
    size = path.stat().st_size
    assert size > (page + 1) * 4096
    with path.open("r+b") as f:
        f.seek(page * 4096)
        f.write(random.Random(page).randbytes(4096))


def _big_store(path: Path) -> tuple[Store, list[int]]:
    store = Store(path)
    games = [_game(store, 40) for _ in range(3)]
    for g in games:
        for i in range(40, 200):
            store.append(g, i, [_event(i, pad=100)], {})
    store._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    store.close()
    return store, games


def test_a_damaged_file_is_moved_aside_and_its_readable_games_recovered(tmp_path):
    path = tmp_path / "games.sqlite3"
    _, games = _big_store(path)
    pages = path.stat().st_size // 4096
    _damage(path, pages // 2)
    store = Store(path)
    assert store.notice is not None and "was damaged" in store.notice
    aside = [p for p in tmp_path.iterdir() if ".damaged-" in p.name and p.name.endswith(
        tuple("0123456789"))]
    assert len(aside) == 1 and str(aside[0]) in store.notice.splitlines()[0]
    assert stat.S_IMODE(aside[0].stat().st_mode) == 0o600
    assert store._db.execute("PRAGMA quick_check").fetchone()[0] == "ok"
    kept = [g["id"] for g in store.games()]
    # [issue 30 item 1]: what the damaged page took, the snapshot gives back:
    # every game, whole, and each one put back is named
    assert sorted(kept) == sorted(games), store.notice
    for g in kept:  # every game recovered is whole: no log cut short
        rec = store.load(g)
        assert rec is not None and [e["a"] for e in rec.events] == list(range(200))
    assert "restored from the snapshot" in store.notice  # (its checksum checked) [issue 41]


def test_a_file_that_is_not_a_database_at_all_starts_a_new_one(tmp_path):
    path = tmp_path / "games.sqlite3"
    path.write_bytes(os.urandom(8192))
    store = Store(path)
    assert store.notice is not None and "no game could be read" in store.notice
    assert store.games() == []
    assert store.latest() is None


def test_a_sound_file_says_nothing(tmp_path):
    path = tmp_path / "games.sqlite3"
    _big_store(path)
    store = Store(path)
    assert store.notice is None and len(store.games()) == 3


def test_the_file_and_its_wal_are_the_owners_only(tmp_path):
    old = os.umask(0o022)
    try:
        store = Store(tmp_path / "games.sqlite3")
        _game(store)
        for suffix in ("", "-wal", "-shm"):
            mode = stat.S_IMODE(os.stat(f"{tmp_path / 'games.sqlite3'}{suffix}").st_mode)
            assert mode == 0o600, (suffix, oct(mode))
    finally:
        os.umask(old)


def test_an_existing_world_readable_file_is_made_private(tmp_path):
    path = tmp_path / "games.sqlite3"
    _game(Store(path))
    os.chmod(path, 0o644)
    Store(path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_a_file_deleted_under_the_hub_is_noticed_and_written_back(tmp_path):
    path = tmp_path / "games.sqlite3"
    store = Store(path)
    game = _game(store)
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    store.append(game, 5, [_event(5)], {})
    assert store.notice is not None and "deleted" in store.notice
    store.close()
    rec = Store(path).load(game)
    assert rec is not None and len(rec.events) == 6
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_a_file_replaced_under_the_hub_refuses_writes(tmp_path):
    path = tmp_path / "games.sqlite3"
    store = Store(path)
    game = _game(store)
    other = tmp_path / "other.sqlite3"
    sqlite3.connect(other).close()
    os.replace(other, path)
    with pytest.raises(StoreGone, match="replaced"):
        store.append(game, 5, [_event(5)], {})


# --- a read-only card [issue 30 item 8] ----------------------------------------------


def _read_only(store: Store) -> sqlite3.Connection:
    """The store's connection swapped for one that cannot write, as SQLite
    answers when the card or the file went read-only; the real one returned."""
    real = store._db
    store._db = sqlite3.connect(f"file:{store.path}?mode=ro", uri=True,
                                check_same_thread=False, isolation_level=None)
    return real


def test_a_read_only_file_refuses_each_write_by_name_and_recovers(tmp_path):
    """Every write on a file SQLite cannot write is StoreReadOnly (503, named:
    "read-only … make it writable again"), keeps nothing — not in the file,
    not in the journal — and the same write goes through once it is writable."""
    from companion.store import StoreReadOnly

    store = Store(tmp_path / "g.sqlite3")
    game = _game(store, 3)
    journal = store.journal.path.stat().st_size
    real = _read_only(store)
    for write in (lambda: store.append(game, 3, [_event(3)], {}),
                  lambda: store.truncate(game, 1, {}),
                  lambda: store.set_claim(game, 0, "phone"),
                  lambda: store.save_setup("x", {})):
        with pytest.raises(StoreReadOnly, match="read-only"):
            write()
        assert store.journal.path.stat().st_size == journal
    assert StoreReadOnly().status == 503
    store._db.close()
    store._db = real  # writable again
    store.append(game, 3, [_event(3)], {})
    store.close()
    again = Store(tmp_path / "g.sqlite3")
    assert len(again.load(game).events) == 4 and again.notice is None


def test_a_read_only_card_under_the_journal_is_named_too(tmp_path, monkeypatch):
    """The journal is written first: EROFS there is the same 503, and the
    file is not written."""
    import errno

    from companion.store import StoreReadOnly

    store = Store(tmp_path / "g.sqlite3")
    game = _game(store, 2)

    def refused(fd: int, data: bytes, offset: int) -> int:
        raise OSError(errno.EROFS, "Read-only file system")

    monkeypatch.setattr("companion.store.journal.os.pwrite", refused)
    with pytest.raises(StoreReadOnly):
        store.append(game, 2, [_event(2)], {})
    monkeypatch.undo()
    assert len(store.load(game).events) == 2
    store.append(game, 2, [_event(2)], {})
    assert len(store.load(game).events) == 3


def test_a_file_that_cannot_be_opened_for_writing_at_start_is_named(tmp_path, monkeypatch):
    """A start on a read-only file (0444 for the hub's user; root is never
    refused, so the refusal is the OS's answer injected): StoreReadOnly, which
    `werewolf serve` prints as one line before it exits 2."""
    import errno

    from companion.store import StoreReadOnly

    Store(tmp_path / "g.sqlite3").close()
    real_open = os.open

    def refused(path, flags, *args):  # type: ignore[no-untyped-def]
        if str(path).endswith("g.sqlite3") and flags & os.O_RDWR:
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real_open(path, flags, *args)

    monkeypatch.setattr("companion.store.log.os.open", refused)
    with pytest.raises(StoreReadOnly, match="make it writable"):
        Store(tmp_path / "g.sqlite3")


def test_a_clock_set_back_never_overwrites_a_damaged_file_kept_aside(tmp_path, monkeypatch):
    """[issue 41] "the clock moved": a Pi with no clock of its own starts at
    the same wall time after each power cut, so two damaged files could be
    moved aside under the same name — the second one replaced the first,
    with whatever games only it still held. Now each keeps a name of its own."""
    monkeypatch.setattr("companion.store.recovery.time.strftime", lambda *_: "20260101-000000")
    path = tmp_path / "games.sqlite3"
    for content in (b"first damaged file " * 500, b"second damaged file " * 500):
        path.write_bytes(content)
        Store(path).abandon()
        path.unlink()
        for suffix in ("-wal", "-shm"):
            Path(f"{path}{suffix}").unlink(missing_ok=True)
    kept = sorted(p.name for p in tmp_path.glob("games.sqlite3.damaged-*")
                  if p.name[-1].isdigit())
    assert kept == ["games.sqlite3.damaged-20260101-000000",
                    "games.sqlite3.damaged-20260101-000000-2"], kept
    assert (tmp_path / kept[0]).read_bytes().startswith(b"first")


def test_a_card_pulled_out_is_never_written_back_onto_its_mount_point(tmp_path):
    """[issue 41] "the card yanked": unmounted under the hub, the data folder
    is the empty mount point left on the Pi's own card. The file looked
    deleted, and was written back there (on the wrong card, hidden when the
    card comes back). Now a folder that is not the one opened is the card
    gone: 503 with one sentence, nothing written anywhere."""
    from companion.store.faults import GONE

    card = tmp_path / "card"
    store = Store(card / "games.sqlite3")
    game = _game(store, 3)
    card.rename(tmp_path / "elsewhere")  # the card away; its mount point, empty
    card.mkdir()
    with pytest.raises(StoreGone) as refused:
        store.append(game, 3, [_event(3)], {})
    assert str(refused.value) == GONE and list(card.iterdir()) == []
