"""The table's commands (companion.table.Table), without Flask: reads of the
live game take the table's lock; phones acting at once share one commit;
every audience's last message is its current view (none is missed when a
view is only rebuilt where it changed).

Sources: issue 5 (Storage: one lock serialises the engine, the commit and
the views; an acknowledged action is committed), issue 15 (every read of
the live state takes the lock; each audience's view built once per action,
only where it can have changed; 17 phones voting at once)."""

from __future__ import annotations

import dataclasses
import json
import random
import threading

import pytest
from hub.conftest import FakeClock, jp9
from test_pacing import drive_to_day

from companion.engine import legal_actions, rebuild, waiting_for
from companion.engine.actions import sample_uniform
from companion.store import Store
from companion.table import Table
from companion.table.audiences import Audiences

READS = [
    ("public", ()), ("gm_view", ()), ("seat_view", (0,)), ("seats", ()), ("seats_info", ()),
    ("result", ()), ("listeners", ()),
]


@pytest.mark.parametrize(("method", "args"), READS, ids=[m for m, _ in READS])
def test_every_read_of_the_live_game_waits_for_the_lock(table, method, args):
    """While another thread holds the table's lock (a commit under way), a
    read does not return; once it is released, it does."""
    table.create(jp9())
    done = threading.Event()
    table.lock.acquire()
    try:
        reader = threading.Thread(target=lambda: (getattr(table, method)(*args), done.set()))
        reader.start()
        assert not done.wait(0.2), f"{method} read the live game without the lock"
    finally:
        table.lock.release()
    assert done.wait(5)
    reader.join()


def test_a_links_seat_is_read_under_the_seats_lock_not_behind_a_commit(table):
    """[issue 15] item 11: a phone's link check (which seat, which device)
    waits for the seats' own lock, so it is never read half-changed, but not
    for the table's lock, which a commit holds through its fsync: phones
    voting at once reach the group-commit queue instead of queueing behind
    the commit one by one."""
    table.create(jp9())
    token = table.seats()[0]["url"].rsplit("/", 1)[1]
    with table.lock:  # a commit under way
        assert table.holder(token) == (0, None)
    done = threading.Event()
    table.seating.lock.acquire()
    try:
        reader = threading.Thread(target=lambda: (table.holder(token), done.set()))
        reader.start()
        assert not done.wait(0.2), "holder read the seats without their lock"
    finally:
        table.seating.lock.release()
    assert done.wait(5)
    reader.join()


def _at_the_ballot(table: Table, clock: FakeClock, roles: list[str]) -> list[str]:
    """A Millers Hollow game dealt `roles` (no sheriff, no discussion), driven
    to its first day's ballot; its players' names."""
    players = [f"P{i}" for i in range(len(roles))]
    table.create({"ruleset": "millers-hollow", "players": players, "seed": 1,
                  "deal": dict(zip(players, roles)),
                  "options": {"sheriff": False, "discussion_s": 0}})
    table.timer("skip")
    drive_to_day(table, clock)
    assert table.pace.mode == "ballot"
    return players


def test_phones_acting_at_once_share_a_commit_and_each_is_answered(table, clock, monkeypatch):
    """Group commit: while one commit holds the lock, the phones that act
    queue up and the next holder commits them all in one transaction; each
    phone's answer comes after its own action is stored, and a refused one
    in the batch is refused alone."""
    players = _at_the_ballot(table, clock, ["werewolf"] * 3 + ["seer"] + ["villager"] * 14)
    commits: list[int] = []
    real = table.store.append
    monkeypatch.setattr(table.store, "append", lambda game, start, events, *rest: (
        commits.append(len(events)), real(game, start, events, *rest)))
    voters = [s for s in range(18) if table.state.alive[s]][:17]
    answers: dict[int, object] = {}
    table.lock.acquire()  # a commit under way: every phone queues behind it
    threads = []
    for seat in voters:
        target = players[(seat + 1) % 18] if seat != voters[0] else "nobody"
        t = threading.Thread(target=lambda s=seat, x=target: answers.__setitem__(
            s, _answer(table, s, {"do": "vote", "target": x})))
        t.start()
        threads.append(t)
    while len(table._queue._tickets) < len(voters):
        threading.Event().wait(0.01)
    table.lock.release()
    for t in threads:
        t.join(10)
    assert len(commits) == 1  # sixteen ballots, one transaction
    assert "unknown player" in str(answers[voters[0]])  # refused alone
    stored = table.store.load(table.game)
    ballots = {e["actor"] for e in stored.events if e["e"] == "act" and e["do"] == "vote"}
    assert ballots == set(voters[1:])
    for seat in voters[1:]:
        assert seat in answers[seat]["vote"]["voted"]  # type: ignore[index]


def test_a_commit_with_ballots_queued_behind_it_leaves_the_publish_to_them(table, clock,
                                                                             monkeypatch):
    """[issue 15] item 11, table/batch.py: a phone's ballot arrives while
    another's commit waits for the disk. The first phone is answered with
    its own view as soon as its ballot is stored (its stream gets that
    version too); the table's streams get one message for both ballots,
    sent by the second commit, not one per commit; and nothing is told
    before a commit."""
    players = _at_the_ballot(table, clock, ["werewolf"] * 2 + ["seer"] + ["villager"] * 5)
    first, second = [s for s in range(8) if table.state.alive[s]][:2]
    public, _ = table.listen("public")
    mine, _ = table.listen(f"seat:{first}")
    answers: dict[int, object] = {}

    def vote(seat: int) -> None:
        answers[seat] = _answer(table, seat, {"do": "vote", "target": players[seat ^ 1]})

    real, behind = table.store.append, []

    def append(*args: object) -> None:
        if not behind:  # the first commit: the second phone's ballot queues meanwhile
            behind.append(table._queue.join(second, {"do": "vote", "target": players[second ^ 1]}))
            assert public.queue.empty()  # nothing is told before the commit
        real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(table.store, "append", append)
    vote(first)
    assert first in answers[first]["vote"]["voted"]  # type: ignore[index]
    assert second not in answers[first]["vote"]["voted"]  # type: ignore[index]
    assert public.queue.empty()  # its publish waits for the ballot behind it
    assert json.loads(mine.queue.get_nowait())["seq"] == answers[first]["seq"]  # type: ignore[index]
    answers[second] = table._answer(behind[0])  # the second phone's request takes the lock
    assert second in answers[second]["vote"]["voted"]  # type: ignore[index]
    told = [json.loads(public.queue.get_nowait()) for _ in range(public.queue.qsize())]
    assert len(told) == 1 and {first, second} <= set(told[0]["vote"]["voted"])
    mine_now = [json.loads(mine.queue.get_nowait()) for _ in range(mine.queue.qsize())]
    assert len(mine_now) == 1 and second in mine_now[0]["vote"]["voted"]
    assert not table._unpublished


def _random_action(state, rng: random.Random) -> dict:  # type: ignore[no-untyped-def]
    """A random waiting seat's random legal action, in the replay format
    (players by name), as the game master sends it."""
    seat = rng.choice(waiting_for(state))
    action = sample_uniform(legal_actions(state, seat), seat, rng).to_dict()
    return {k: (state.names[v] if k in ("actor", "target", "poison") and v is not None
                else [state.names[t] for t in v] if k == "targets" else v)
            for k, v in action.items()}


def _answer(table: Table, seat: int, doc: dict) -> object:
    try:
        return table.act_seat(seat, doc)
    except Exception as err:  # noqa: BLE001 - the phone's answer
        return err


def test_every_audiences_last_message_is_its_current_view(table):
    """A random game played by the game master with every audience
    streamed: after each action, each stream's newest message equals that
    audience's view built afresh (a view compared, not re-encoded, is never
    wrongly taken as unchanged), and no message repeats the one before it."""
    players = [f"P{i}" for i in range(10)]
    table.create({"ruleset": "millers-hollow", "players": players, "seed": 5})
    audiences = ["gm", "public"] + [f"seat:{i}" for i in range(10)]
    listeners, last = {}, {}
    for a in audiences:  # each stream's first message: the view as it is
        listeners[a], first = table.listen(a)
        last[a] = {k: v for k, v in json.loads(first).items() if k not in ("seq", "now")}
    rng = random.Random(5)
    for _ in range(150):
        state = table.state
        if state.phase == "over":
            break
        table.act_gm(_random_action(state, rng))
        live = table.showing.live()
        for audience, listener in listeners.items():
            while not listener.queue.empty():
                message = json.loads(listener.queue.get_nowait())
                message.pop("seq")
                message.pop("now")
                assert message != last.get(audience), audience
                last[audience] = message
            fresh = json.loads(json.dumps(table.audiences.build(live, audience)))
            fresh.pop("seq", None)
            assert last[audience] == fresh, audience


@pytest.mark.parametrize("ruleset", ["millers-hollow", "bga", "jp-standard"])
def test_published_views_equal_views_of_a_fresh_state(tmp_path, ruleset):
    """[015] item 11: a publish builds every audience's view from parts the
    engine shares between them (`shared_public_view`), compares them by
    identity first and encodes a shared part once for all. After each action
    of a random game, every stream's newest message must equal its view built
    by a new table from the log alone (a rebuilt state, no shared part, no
    cache): nothing a view did to a shared part reached another."""
    players = [f"P{i}" for i in range(12)]
    table = Table(Store(tmp_path / "a.sqlite3"), clock=FakeClock(), rng=random.Random(3))
    table.create({"ruleset": ruleset, "players": players, "seed": 11})
    audiences = ["gm", "public"] + [f"seat:{i}" for i in range(12)]
    listeners, last = {}, {}
    for a in audiences:
        listeners[a], first = table.listen(a)
        last[a] = json.loads(first)
    rng = random.Random(11)
    for _ in range(200):
        state = table.state
        if state.phase == "over":
            break
        table.act_gm(_random_action(state, rng))
        # the same moment, from the log alone: a rebuilt state, new audiences
        live = dataclasses.replace(table.showing.live(), state=rebuild(table.state.log))
        other = Audiences([])
        for audience, listener in listeners.items():
            while not listener.queue.empty():
                last[audience] = json.loads(listener.queue.get_nowait())
            fresh = json.loads(json.dumps(other.build(live, audience)))
            message = {k: v for k, v in last[audience].items() if k not in ("seq", "now")}
            fresh.pop("seq", None)
            assert message == fresh, audience
