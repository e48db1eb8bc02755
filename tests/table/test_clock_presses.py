"""The game's clock names what it ends [issue 30 item 2]: a GM's or host's
Next, pause, resume or +30 s carries the stage it was pressed on
(`Pace.stage`, in every view's pace); one that reaches the table on another
stage changes nothing and is refused (409, Stale). Two tablets pressing Next
together end one call, and a Next that arrives just after its call timed
out does not end the next one (it ended the wolves' call, 4 times of 4)."""

from __future__ import annotations

import threading

import pytest
from hub.conftest import FakeClock, mh8
from hub.test_api import call

from companion.table import Stale, Table


def on_the_seers_call(table: Table, clock: FakeClock) -> int:
    table.create(mh8())
    call(table, clock, "seer")
    return int(table.public()["pace"]["stage"])


def current(table: Table) -> str:
    pc = table.pace
    return pc.calls[pc.cursor] if pc.mode == "calls" else pc.mode


def test_two_tablets_pressing_next_together_end_one_call(table, clock):
    stage = on_the_seers_call(table, clock)
    assert table.gm_view()["pace"]["stage"] == stage  # what a tablet presses on
    answers: list[object] = []

    def press() -> None:
        try:
            table.timer("skip", 0, stage)
            answers.append("ended")
        except Stale as err:
            answers.append(err)

    presses = [threading.Thread(target=press) for _ in range(2)]
    for t in presses:
        t.start()
    for t in presses:
        t.join()
    assert sorted(map(str, answers))[0] == "ended" and answers.count("ended") == 1, answers
    assert current(table) == "wolves" and table.pace.stage == stage + 1


def test_a_next_just_after_its_call_timed_out_ends_nothing(table, clock):
    stage = on_the_seers_call(table, clock)
    clock.advance(table.pace.deadline - clock.t + 0.01)
    table.tick()  # the seer's call timed out: the wolves' call opens
    wolves = table.pace.deadline
    clock.advance(0.4)
    with pytest.raises(Stale, match="moved on"):
        table.timer("skip", 0, stage)
    assert current(table) == "wolves" and table.pace.deadline == wolves


@pytest.mark.parametrize(("do", "seconds"), [("pause", 0), ("extend", 30), ("skip", 0)])
def test_a_stale_press_changes_nothing(table, clock, do, seconds):
    stage = on_the_seers_call(table, clock)
    table.timer("skip", 0, stage)  # the wolves' call
    before = table.pace.to_dict()
    log = len(table.state.log)
    with pytest.raises(Stale):
        table.timer(do, seconds, stage)
    assert table.pace.to_dict() == before and len(table.state.log) == log
    table.timer(do, seconds, stage + 1)  # pressed on the call it is: taken
    assert table.pace.to_dict() != before


def test_a_stale_resume_changes_nothing(table, clock):
    stage = on_the_seers_call(table, clock)
    table.timer("pause", 0, stage)
    assert table.pace.paused is not None and table.pace.stage == stage  # a pause is no new stage
    with pytest.raises(Stale):
        table.timer("resume", 0, stage - 1)
    assert table.pace.paused is not None
    table.timer("resume", 0, stage)
    assert table.pace.paused is None


def test_a_press_without_a_stage_is_taken_as_before(table, clock):
    """Scripts that send no stage (the JSON API before [issue 30]) still work."""
    on_the_seers_call(table, clock)
    table.timer("skip")
    assert current(table) == "wolves"


def test_the_stage_moves_with_pacing_alone(table, clock):
    """The stage is public: it counts pacing's steps (calls, the discussion,
    ballots...), never a night action, so it tells nothing (RULES.md §4)."""
    stage = on_the_seers_call(table, clock)
    table.act_seat(2, {"do": "inspect", "target": "A"})  # the seer answers at once
    assert table.pace.stage == stage and table.public()["pace"]["stage"] == stage
    table.timer("skip", 0, stage)
    assert table.pace.stage == stage + 1
