"""Seat boxes on a real table [issue 7]: presses through the hub's one path
(MockFactory pins -> SeatBoxes -> SeatBridge -> Table.act_presses -> SQLite)
and the LED language driven by the public view alone."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from companion.firmware import pinmap
from companion.firmware.bridge import SeatBridge, lights
from companion.firmware.seats import SeatBoxes, Timing
from slowness import wait_s

from companion.engine import pending
from companion.store import Store
from companion.table import Table

FAST = Timing(wait_on=0.05, wait_off=0.05, refuse_on=0.02, refuse_off=0.02, flash_window=0.1)
NAMES = list("ABCDEFGHI")
JP9 = {"ruleset": "jp-standard", "players": NAMES, "seed": 3,
       "deal": dict(zip(NAMES, ["seer", "werewolf", "werewolf", "madman", "medium", "knight",
                                "villager", "villager", "villager"]))}


def until(check: Callable[[], bool], timeout: float = 3.0) -> None:
    end = time.monotonic() + wait_s(timeout)
    while time.monotonic() < end:
        if check():
            return
        time.sleep(0.005)
    raise AssertionError("timed out")


class Clock:
    def __init__(self) -> None:
        self.t = 1_000_000.0

    def __call__(self) -> float:
        return self.t


@pytest.fixture
def rig(factory, tmp_path: Path):  # type: ignore[no-untyped-def]
    clock = Clock()
    table = Table(Store(tmp_path / "g.sqlite3"), clock=clock, rng=random.Random(1))
    boxes = SeatBoxes(pinmap.builtin_default(), pin_factory=factory, timing=FAST)
    bridge = SeatBridge(table, boxes).start()
    yield table, boxes, factory, clock
    bridge.stop()
    boxes.close()


def to_ballot(table: Table, clock: Clock) -> None:
    for _ in range(2000):
        assert table.state is not None
        p = pending(table.state)
        if p["kind"] in ("vote", "runoff", "election") and table.pace.mode == "ballot":
            return
        if p["kind"] in ("night", "wolves", "prompt"):
            table.act_gm({"do": "timeout"})
        else:
            clock.t += 2
            table.tick()
    raise AssertionError("no ballot")


def press(factory, number: int) -> None:  # type: ignore[no-untyped-def]
    pin = factory.pin(pinmap.DEFAULT_SEATS[number - 1][0])
    pin.drive_low()
    pin.drive_high()


def test_lights_come_from_the_public_view_only():
    """[issue 7] LED language from the public view: dark at night, blink for a
    seat a button vote waits for, solid once voted, off otherwise (and off in
    a phones game, and while the vote is paused)."""
    players = [{"seat": i} for i in range(4)]
    night = {"phase": "night", "players": players, "pace": {"mode": "calls"},
             "buttons": "lock-in"}
    assert set(lights(night).values()) == {"dark"}
    ballot = {"phase": "day", "players": players, "buttons": "roll-call",
              "pace": {"mode": "ballot", "paused": None},
              "vote": {"voted": [1], "waiting": [0, 2]}}
    assert lights(ballot) == {0: "waiting", 1: "recorded", 2: "waiting", 3: "off"}
    assert set(lights({**ballot, "buttons": "phones"}).values()) == {"off"}
    paused = {**ballot, "pace": {"mode": "ballot", "paused": 12.0}}
    assert lights(paused) == {0: "off", 1: "recorded", 2: "off", 3: "off"}
    talk = {**ballot, "pace": {"mode": "discussion"}}
    assert set(lights(talk).values()) == {"off"}



def test_lights_read_the_view_as_json_and_trust_no_field():
    """[issue 15 §8] The view is JSON (ports.View): `lights` narrows what it
    reads, so a field of the wrong type lights nothing instead of raising
    in the table's publish hook (a seat number that is not an int, a list
    that is not one, a vote that is not an object)."""
    players = [{"seat": 0}, {"seat": 1}, {"seat": "2"}, "nobody"]
    ballot = {"phase": "day", "players": players, "buttons": "lock-in",
              "pace": {"mode": "ballot", "paused": None},
              "vote": {"voted": [True, 1], "waiting": "0"}}
    assert lights(ballot) == {0: "off", 1: "recorded"}
    assert lights({**ballot, "vote": [0]}) == {0: "off", 1: "off"}
    assert lights({**ballot, "pace": None, "players": None}) == {}


def test_leds_stay_lit_while_the_days_result_is_announced():
    """[issue 7] solid = your vote is recorded: the last voter's press closes the
    vote, and his LED still lights during the verdict (today's tally only)."""
    players = [{"seat": i} for i in range(3)]
    tally = {"kind": "tally", "time": "day 2", "votes": {"0": 2, "1": None, "2": 0}}
    verdict = {"phase": "day", "n": 2, "players": players, "buttons": "lock-in",
               "pace": {"mode": "verdict"}, "announcements": [tally]}
    assert lights(verdict) == {0: "recorded", 1: "off", 2: "recorded"}
    dawn = {**verdict, "n": 3, "pace": {"mode": "last-words"}}  # yesterday's tally
    assert set(lights(dawn).values()) == {"off"}
    assert set(lights({**verdict, "buttons": "phones"}).values()) == {"off"}


def test_lockin_press_lights_the_led_only_after_the_vote_is_in_the_log(rig):
    """[issue 7] the LED confirms a vote only after it is durably in the log:
    when seat 1's LED goes solid, a fresh read of the SQLite file has the vote."""
    table, boxes, factory, clock = rig
    table.create({**JP9, "buttons": "lock-in"})
    to_ballot(table, clock)
    until(lambda: boxes[1].state == "waiting")
    table.act_seat(0, {"do": "vote", "target": "E"})
    press(factory, 1)
    until(lambda: boxes[1].state == "recorded")
    rec = Store(table.store.path).load(table.game)  # type: ignore[arg-type]
    assert rec is not None
    assert any(e["e"] == "act" and e.get("do") == "vote" and e.get("actor") == 0
               for e in rec.events)
    assert boxes[2].state == "waiting"  # the others still blink


def test_a_refused_press_blinks_three_times_and_changes_nothing(rig):
    """[issue 7] three quick blinks = refused (no pick yet in lock-in)."""
    table, boxes, factory, clock = rig
    table.create({**JP9, "buttons": "lock-in"})
    to_ballot(table, clock)
    until(lambda: boxes[3].state == "waiting")
    log = len(table.state.log)  # type: ignore[union-attr]
    press(factory, 3)
    until(lambda: boxes[3].refusing)
    until(lambda: not boxes[3].refusing)
    assert boxes[3].state == "waiting"
    assert len(table.state.log) == log  # type: ignore[union-attr]


def test_leds_are_dark_all_night(rig):
    """[issue 7] all LEDs stay dark at night, and a press at night shows nothing."""
    table, boxes, factory, clock = rig
    table.create({**JP9, "buttons": "roll-call"})
    until(lambda: all(boxes[n].is_dark for n in range(1, 10)))
    press(factory, 2)
    time.sleep(0.1)
    assert all(b.led.value == 0 for b in boxes)  # boxes 10-12 seat nobody: off


def test_rollcall_presses_vote_for_the_called_candidate(rig):
    """[issue 7] roll-call by button: presses in the first window vote for the
    first candidate (jp-standard night 1 has no victim: seat A first)."""
    table, boxes, factory, clock = rig
    table.create({**JP9, "buttons": "roll-call"})
    to_ballot(table, clock)
    clock.t += 1  # a second into the first window (the fake clock stands still)
    assert table.pace.order[0] == 0
    for n in (2, 3, 4):
        press(factory, n)
    until(lambda: all(boxes[n].state == "recorded" for n in (2, 3, 4)))
    assert table.state is not None and table.state.votes == {1: 0, 2: 0, 3: 0}


def test_nine_seats_pressed_together_are_all_counted_once(rig):
    """[issue 7] presses at the same moment: every press counted once, one commit."""
    table, boxes, factory, clock = rig
    table.create({**JP9, "buttons": "lock-in"})
    to_ballot(table, clock)
    for seat in range(9):
        table.act_seat(seat, {"do": "vote", "target": "I" if seat != 8 else "H"})
    for n in range(1, 10):
        press(factory, n)
    until(lambda: table.public().get("last_tally") is not None)
    tally = table.public()["last_tally"]
    assert tally["counts"] == {"8": 8, "7": 1}
    votes = [e for e in table.state.log if e["e"] == "act" and e.get("do") == "vote"]  # type: ignore[union-attr]
    assert len(votes) == 9
