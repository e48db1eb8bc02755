"""[issue 5] Storage: one lock serialises engine updates, the commit and the
views built from them (the engine is not thread-safe). Eighteen phones voting
at the same instant from eighteen threads: every ballot lands once, the
stored log rebuilds the same game, and every phone's answer is a view that
includes its own ballot."""

from __future__ import annotations

import sys
import threading

from test_pacing import drive_to_day

from companion.engine import rebuild
from companion.table import Table


def test_eighteen_simultaneous_ballots_all_land_once(table: Table, clock):
    players = [f"P{i}" for i in range(18)]
    roles = ["werewolf"] * 3 + ["seer"] + ["villager"] * 14
    table.create({"ruleset": "millers-hollow", "players": players,
                  "deal": dict(zip(players, roles)), "seed": 1,
                  "options": {"sheriff": False, "discussion_s": 0}})
    table.timer("skip")
    drive_to_day(table, clock)
    assert table.pace.mode == "ballot"
    voters = [s for s in range(18) if table.state.alive[s]]
    start = threading.Barrier(len(voters))
    answers: dict[int, dict] = {}
    errors: list[BaseException] = []

    def vote(seat: int) -> None:
        target = players[(seat + 1) % 18]
        start.wait()
        try:
            answers[seat] = table.act_seat(seat, {"do": "vote", "target": target})
        except BaseException as err:  # noqa: BLE001 - reported below
            errors.append(err)

    threads = [threading.Thread(target=vote, args=(s,)) for s in voters]
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads all the time, as a busy Pi might
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=30)
    finally:
        sys.setswitchinterval(interval)
    assert not errors, errors
    ballots = [e for e in table.state.log if e["e"] == "act" and e["do"] == "vote"]
    assert sorted(e["actor"] for e in ballots) == voters  # each once
    stored = table.store.load(table.game)
    assert stored is not None and stored.events == table.state.log
    assert rebuild(stored.events).votes == rebuild(table.state.log).votes
    for seat, view in answers.items():  # each answer was built after its own ballot landed
        if view["pace"]["mode"] == "ballot":
            assert seat in view["vote"]["voted"], (seat, view["vote"])
    assert table.pace.mode == "verdict"  # the last ballot closed the vote
