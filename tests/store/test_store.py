"""The game log's file ([issue 5] Storage): WAL, synchronous=FULL, a schema
version, migrations, and the one transaction per accepted action."""

from __future__ import annotations

import sqlite3

from companion.store import SCHEMA_VERSION, Store
from companion.store import log as store_log


def test_the_file_is_wal_with_full_sync_and_a_schema_version(tmp_path):
    """[issue 5]: WAL mode, synchronous=FULL, PRAGMA user_version."""
    store = Store(tmp_path / "g.sqlite3")
    db = store._db
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


def test_a_version_1_file_is_migrated_and_keeps_its_games(tmp_path):
    """[issue 5]: a schema version so later releases can migrate: a file of
    the first release opens, keeps its games and gains saved setups."""
    path = tmp_path / "old.sqlite3"
    db = sqlite3.connect(path)
    for statement in store_log._SCHEMA.split(";"):
        if statement.strip():
            db.execute(statement)
    db.execute("INSERT INTO games (created, setup) VALUES (1.0, '{\"ruleset\": \"bga\"}')")
    db.execute("PRAGMA user_version=1")
    db.commit()
    db.close()
    store = Store(path)
    assert store.games()[0]["ruleset"] == "bga"
    store.save_setup("Friday", {"ruleset": "bga", "players": ["A", "B"]})
    assert store.setups()[0]["name"] == "Friday"
    assert store.delete_setup("Friday") and store.setups() == []


def test_a_newer_file_is_refused_with_a_message(tmp_path):
    """[issue 5]: a file written by a newer release is not silently misread."""
    path = tmp_path / "new.sqlite3"
    Store(path).close()
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    db.commit()
    db.close()
    try:
        Store(path)
    except RuntimeError as err:
        assert "newer release" in str(err)
    else:
        raise AssertionError("a newer schema was accepted")


def test_events_and_pace_are_written_together(tmp_path):
    """[issue 5]: an action's events and the pacing record are one transaction."""
    store = Store(tmp_path / "g.sqlite3")
    game = store.create_game({"ruleset": "bga"}, [{"e": "setup"}], ["t0"], {"mode": "lobby"})
    store.append(game, 1, [{"e": "act"}, {"e": "step"}], {"mode": "calls"})
    rec = store.load(game)
    assert rec is not None and rec.events == [{"e": "setup"}, {"e": "act"}, {"e": "step"}]
    assert rec.pace == {"mode": "calls"}
    try:  # a clash on the second event rolls back the first and the pace
        store.append(game, 3, [{"e": "x"}, {"e": "y"}], {"mode": "over"})
        store.append(game, 4, [{"e": "z"}], {"mode": "broken"})
    except sqlite3.IntegrityError:
        pass
    rec = store.load(game)
    assert rec is not None and [e["e"] for e in rec.events][-2:] == ["x", "y"]
    assert rec.pace == {"mode": "over"}
