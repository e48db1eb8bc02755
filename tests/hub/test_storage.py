"""A full disk through the hub [issue 17 item 4]: 507 with "the Pi's storage
is full: free space, then retry", nothing acknowledged lost, and every route
working again once space is freed (no UNIQUE constraint jam, nothing
brought back by a restart).

Source: issue 17 ("An undo on a full disk jams the hub ... A full disk
otherwise gives a vague 'internal error (logged on the hub)'")."""

from __future__ import annotations

import random

from companion.store import Store, StoreFull
from companion.table import Table

from .conftest import GM, mh8

SEER = {"actor": "C", "do": "inspect", "target": "A"}
WOLF = {"actor": "A", "do": "attack", "target": "F"}
FULL = "the Pi's storage is full: free space, then retry"


def _cap(table: Table, spare: int) -> None:
    pages = table.store._db.execute("PRAGMA page_count").fetchone()[0]
    table.store._db.execute(f"PRAGMA max_page_count={pages + spare}")


def _seq(client) -> int:  # type: ignore[no-untyped-def]
    return client.get("/api/gm", headers=GM).json["seq"]  # type: ignore[no-any-return]


def test_a_full_disk_answers_507_and_the_hub_works_once_space_is_freed(
        client, table, db_path, clock):
    _cap(table, 4)
    before = None
    seer_refused = False
    for _ in range(400):  # games until the disk is full
        r = client.post("/api/games", json=mh8(), headers=GM)
        if r.status_code != 201:
            break
        before = client.get("/api/state", headers=GM).json
        r = client.post("/api/actions", json=SEER, headers=GM)
        if r.status_code != 200:
            seer_refused = True  # (where the disk fills depends on the records' sizes)
            break
        before = client.get("/api/state", headers=GM).json
    assert r.status_code == 507 and r.json == {"error": FULL}
    assert before is not None
    assert client.get("/api/state", headers=GM).json == before  # nothing changed
    _cap(table, 100_000)  # space freed
    if seer_refused:  # the disk filled on the seer's action: it goes through now
        assert client.post("/api/actions", json=SEER, headers=GM).status_code == 200
    got = client.post("/api/actions", json=WOLF, headers=GM)
    assert got.status_code == 200, got.json
    r = client.post("/api/undo", json={"expect": _seq(client)}, headers=GM)
    assert r.status_code == 200
    assert client.post("/api/actions", json=WOLF, headers=GM).status_code == 200


def test_an_undo_on_a_full_disk_is_507_and_jams_nothing(client, table, db_path, clock,
                                                        monkeypatch):
    """The issue's jam: the store's truncate fails; memory must stay as the file."""
    assert client.post("/api/games", json=mh8(), headers=GM).status_code == 201
    assert client.post("/api/actions", json=SEER, headers=GM).status_code == 200
    assert client.post("/api/actions", json=WOLF, headers=GM).status_code == 200
    before = client.get("/api/state", headers=GM).json

    def full(*_: object) -> None:
        raise StoreFull()

    monkeypatch.setattr(table.store, "truncate", full)
    r = client.post("/api/undo", json={"expect": _seq(client)}, headers=GM)
    assert r.status_code == 507 and r.json == {"error": FULL}
    monkeypatch.undo()
    assert client.get("/api/state", headers=GM).json == before
    nxt = {"actor": "B", "do": "attack", "target": "F"}
    assert client.post("/api/actions", json=nxt, headers=GM).status_code == 200  # no jam
    after = client.get("/api/state", headers=GM).json
    again = Table(Store(db_path), clock=clock, rng=random.Random(7))
    again.resume()  # a restart brings back nothing undone and loses nothing acknowledged
    assert {k: v for k, v in again.result().items() if k != "pace"} == \
        {k: v for k, v in after.items() if k != "pace"}  # the pace restarts "a moment back"
    assert again.state.log == table.state.log  # type: ignore[union-attr]


def test_a_game_file_replaced_under_the_hub_is_503_and_named(client, table, db_path):
    """[issue 17 item 7] Another file put where the game file was: the hub
    does not write to the one it had open (a ghost); it says so."""
    import os
    import sqlite3

    assert client.post("/api/games", json=mh8(), headers=GM).status_code == 201
    other = db_path.with_name("other.sqlite3")
    sqlite3.connect(other).close()
    os.replace(other, db_path)
    r = client.post("/api/actions", json=SEER, headers=GM)
    assert r.status_code == 503 and "replaced" in r.json["error"]


def test_a_game_file_deleted_under_the_hub_is_written_back(client, table, db_path, clock):
    import os

    assert client.post("/api/games", json=mh8(), headers=GM).status_code == 201
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(f"{db_path}{suffix}"):
            os.remove(f"{db_path}{suffix}")
    assert client.post("/api/actions", json=SEER, headers=GM).status_code == 200
    assert db_path.exists()
    again = Table(Store(db_path), clock=clock, rng=random.Random(7))
    again.resume()  # the file on disk holds the game and the action acknowledged after
    assert again.state.log == table.state.log  # type: ignore[union-attr]


def test_a_read_only_card_answers_503_and_the_hub_works_once_writable(client, table):
    """[issue 30 item 8]: the card (or the file) gone read-only while the hub
    runs: every action is 503 naming it, nothing changes, nothing
    acknowledged is lost; once writable again the same action is taken."""
    import sqlite3

    assert client.post("/api/games", json=mh8(), headers=GM).status_code == 201
    before = client.get("/api/state", headers=GM).json
    store = table.store
    real = store._db
    store._db = sqlite3.connect(f"file:{store.path}?mode=ro", uri=True,
                                check_same_thread=False, isolation_level=None)
    r = client.post("/api/actions", json=SEER, headers=GM)
    assert r.status_code == 503 and "read-only" in r.json["error"]
    assert client.get("/api/state", headers=GM).json == before
    store._db.close()
    store._db = real
    assert client.post("/api/actions", json=SEER, headers=GM).status_code == 200
    table.store.close()
    again = Table(Store(store.path))
    again.resume()
    assert again.state is not None and again.state.acts == 1


def test_a_vanished_card_answers_503_in_one_sentence(client, table, db_path):
    """[issue 41 item 3] The card (here: the data folder) gone while the hub
    runs: every action is 503 with one sentence and no path (it said the
    file could not be written back, with its path and the OS's error), and
    nothing changes."""
    import shutil

    from companion.store.faults import GONE

    assert client.post("/api/games", json=mh8(), headers=GM).status_code == 201
    before = client.get("/api/state", headers=GM).json
    shutil.rmtree(db_path.parent)
    r = client.post("/api/actions", json=SEER, headers=GM)
    assert r.status_code == 503 and r.json == {"error": GONE}
    assert str(db_path.parent) not in r.json["error"]
    assert client.get("/api/state", headers=GM).json == before
