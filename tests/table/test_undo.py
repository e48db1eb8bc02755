"""Undo says what it undoes [issue 17 items 4 and 5]: an undo names the
action count it expects and is refused (Stale, 409) if anything landed since;
an undo, a rewind or an action whose commit fails leaves memory exactly as
the file is.

Source: issue 17 ("an undo and a phone vote at the same instant were both
answered 200 in 4 of 4 tries (the vote was acknowledged, then undone)"; "an
undo on a full disk jams the hub: UNIQUE constraint failed ... until a
restart, which quietly brings the undone action back")."""

from __future__ import annotations

import random
import sqlite3
import threading
from pathlib import Path

import pytest
from hub.conftest import FakeClock, jp9
from test_pacing import drive_to_day

from companion.store import Store
from companion.table import BadInput, Stale, Table


def _to_ballots(table: Table, clock: FakeClock) -> None:
    table.create(jp9())
    drive_to_day(table, clock)
    clock.advance(table.state.opts["discussion_s"] + 1)  # type: ignore[union-attr]
    table.tick()
    assert table.pace.mode == "ballot"


def _stored_events(path: Path) -> list[str]:
    db = sqlite3.connect(path)
    try:
        return [e for (e,) in db.execute("SELECT event FROM events ORDER BY game, idx")]
    finally:
        db.close()


def test_an_undo_must_name_the_count_it_expects(table, clock):
    """Without a count (an old client's {}) it is refused with a message saying so."""
    _to_ballots(table, clock)
    with pytest.raises(BadInput, match="expects"):
        table.undo(None)


def test_an_undo_expecting_an_older_count_is_409_and_undoes_nothing(table, clock):
    """A vote landed after the GM confirmed: the undo is Stale, the vote stays."""
    _to_ballots(table, clock)
    seen = table.state.acts
    table.act_seat(6, {"do": "vote", "target": "B"})
    with pytest.raises(Stale, match="moved on"):
        table.undo(seen)
    assert table.state.votes == {6: 1} and table.state.acts == seen + 1
    table.undo(seen + 1)  # asked again, with what is there now
    assert table.state.votes == {} and table.state.acts == seen


def test_an_undo_racing_a_phone_vote_never_takes_back_an_acknowledged_vote(table, clock):
    """Real threads, released together, 30 times: the undo (naming the count
    the GM saw) and the vote are never both acknowledged with the vote gone."""
    _to_ballots(table, clock)
    for _ in range(30):
        seen = table.state.acts
        table.act_gm({"actor": "A", "do": "vote", "target": "B"})  # what the GM means to undo
        seen += 1
        barrier = threading.Barrier(2)
        out: dict[str, object] = {}

        def vote() -> None:
            barrier.wait()
            try:
                out["vote"] = table.act_seat(6, {"do": "vote", "target": "C"})
            except Exception as err:  # noqa: BLE001 - the outcome is what is checked
                out["vote"] = err

        def undo() -> None:
            barrier.wait()
            try:
                out["undo"] = table.undo(seen)
            except Exception as err:  # noqa: BLE001
                out["undo"] = err

        threads = [threading.Thread(target=vote), threading.Thread(target=undo)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(10)
        voted = not isinstance(out["vote"], Exception)
        undone = not isinstance(out["undo"], Exception)
        assert voted, out["vote"]
        assert 6 in table.state.votes, "an acknowledged vote was undone"
        if undone:  # the undo came first: only the GM's vote went
            assert 0 not in table.state.votes
        else:
            assert isinstance(out["undo"], Stale)
        _reset(table)


def _reset(table: Table) -> None:
    """Back to the open ballot with no vote (a rewind to the first ballot)."""
    votes = [e["a"] for e in table.state.log if e["e"] == "act" and e.get("do") == "vote"]
    if votes:
        table.undo(table.state.acts, to=min(votes))
    assert table.state.votes == {}


def test_a_failed_truncate_leaves_memory_as_the_file_is(table, clock, db_path, monkeypatch):
    """The store refuses the undo (a full disk): memory keeps the action, the
    file keeps it, and the next action lands (no UNIQUE constraint jam)."""
    _to_ballots(table, clock)
    table.act_seat(6, {"do": "vote", "target": "B"})
    acts, log = table.state.acts, list(table.state.log)

    def full(*_: object) -> None:
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(table.store, "truncate", full)
    with pytest.raises(sqlite3.OperationalError):
        table.undo(acts)
    monkeypatch.undo()
    assert table.state.acts == acts and table.state.log == log
    assert len(_stored_events(db_path)) == len(log)
    table.act_seat(7, {"do": "vote", "target": "B"})  # the hub keeps working
    assert table.state.votes == {6: 1, 7: 1}
    reopened = Table(Store(db_path), clock=clock, rng=random.Random(7))
    reopened.resume()
    assert reopened.state.log == table.state.log  # a restart brings nothing back or loses


def test_a_failed_append_leaves_memory_as_the_file_is(table, clock, db_path, monkeypatch):
    """An action whose commit fails is not in memory either, and is retried cleanly."""
    _to_ballots(table, clock)
    log = list(table.state.log)

    def full(*_: object, **__: object) -> None:
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(table.store, "append", full)
    with pytest.raises(sqlite3.OperationalError):
        table.act_seat(6, {"do": "vote", "target": "B"})
    monkeypatch.undo()
    assert table.state.log == log and table.state.votes == {}
    table.act_seat(6, {"do": "vote", "target": "B"})
    assert table.state.votes == {6: 1}
