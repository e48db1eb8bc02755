"""Pacing: night calls, discussion, ballots, prompts, last words and the
game master's timer controls, driven by a fake clock (RULES.md §1, §4, §6;
[issue 5] "Timers, timeouts and secrecy of timing")."""

from __future__ import annotations

import random

import pytest

from companion.engine import pending
from companion.store import Store
from companion.table import NotNow, Settings, Stale, Table

from .conftest import FakeClock, jp9, mh8

CALL_LO, CALL_HI = Settings().call_s


def run_calls(table: Table, clock: FakeClock, limit: int = 200) -> list[tuple[str, float]]:
    """Let the night's calls run out with nobody acting; return (call, seconds) pairs."""
    out: list[tuple[str, float]] = []
    start = clock.t
    current = table.pace.calls[table.pace.cursor]
    for _ in range(limit):
        if table.pace.mode != "calls":
            break
        clock.advance(0.5)
        table.tick()
        now = table.pace.calls[table.pace.cursor] if table.pace.mode == "calls" else None
        if now != current:
            out.append((current, clock.t - start))
            start, current = clock.t, now
    return out


def test_every_step_of_the_night_order_is_called_even_absent_roles(table, clock):
    """RULES.md §4 secrecy of the call: thief, cupid, defender, witch, piper and
    The Village's pyromaniac and rumormonger are called on night 1 of Millers
    Hollow although none of them was dealt."""
    table.create(mh8())
    assert table.pace.mode == "calls"
    assert table.pace.calls == ["thief", "cupid", "defender", "seer", "pyromaniac",
                                "rumormonger", "wolves", "witch", "piper"]
    assert table.public()["pace"]["call"] == "thief"


def test_a_call_nobody_answers_lasts_a_plausible_random_time(table, clock):
    """RULES.md §4: an absent role's call lasts a random time in the call range,
    not zero (a skipped step must not be quicker than a played one)."""
    table.create(mh8())
    lengths = []
    for _ in range(3):  # thief, cupid, defender: absent from the deal
        call = table.pace.calls[table.pace.cursor]
        start = clock.t
        while table.pace.calls[table.pace.cursor] == call:
            clock.advance(0.25)
            table.tick()
        lengths.append(clock.t - start)
    assert all(CALL_LO <= s <= CALL_HI + 0.25 for s in lengths), lengths
    assert len(set(round(s, 2) for s in lengths)) > 1  # random, not fixed


def test_a_phone_cannot_act_before_its_step_is_called(table, clock):
    """RULES.md §4: the seer's phone shows no action and is refused while the
    thief is being called; once the seer is called it may inspect."""
    table.create(mh8())
    seer = 2
    assert table.seat_view(seer)["actions"] == []
    with pytest.raises(NotNow):
        table.act_seat(seer, {"do": "inspect", "target": "A"})
    while table.pace.calls[table.pace.cursor] != "seer":
        clock.advance(1)
        table.tick()
    assert table.pace.live
    assert table.seat_view(seer)["actions"]
    view = table.act_seat(seer, {"do": "inspect", "target": "A"})
    assert view["results"][-1]["result"] == "werewolf"


def test_a_played_call_lasts_at_least_as_long_as_a_skipped_one(table, clock):
    """RULES.md §4: a seer who answers at once does not shorten her call: the
    call ends at its drawn minimum, like a call nobody answers."""
    table.create(mh8())
    while table.pace.calls[table.pace.cursor] != "seer":
        clock.advance(1)
        table.tick()
    start, min_end = clock.t, table.pace.min_end
    table.act_seat(2, {"do": "inspect", "target": "A"})
    assert table.pace.calls[table.pace.cursor] == "seer"
    while table.pace.calls[table.pace.cursor] == "seer":
        clock.advance(0.25)
        table.tick()
    assert clock.t >= min_end and clock.t - start >= CALL_LO


def test_night_timer_times_out_a_step_nobody_finishes(table, clock):
    """RULES.md §1 timeouts: a night action not taken within night_s does
    nothing; the call then moves on."""
    table.create(mh8(night_s=30))
    while table.pace.calls[table.pace.cursor] != "seer":
        clock.advance(1)
        table.tick()
    assert table.pace.live
    clock.advance(31)
    table.tick()
    assert pending(table.state)["step"] != "seer"
    assert not any(e.get("do") == "inspect" for e in table.state.log)


def test_the_public_view_says_only_night_while_the_engine_is_past_dawn(table, clock):
    """RULES.md §4: the night's deaths are not announced while steps are still
    being called, though the engine has already resolved the dawn."""
    table.create(mh8(first_night_attack=True))
    gm = table.act_gm
    gm({"actor": "C", "do": "inspect", "target": "A"})
    gm({"actor": "A", "do": "attack", "target": "F"})
    gm({"actor": "B", "do": "attack", "target": "F"})
    # the GM skipped ahead; now let the witch's call run with her answering
    gm({"actor": "D", "do": "potion", "heal": False, "poison": None})
    assert table.state.phase == "day"  # the engine has moved on...
    # ...but the piper is still to be called (the witch's call may still run
    # its course: since The Village's two calls came in, the pace reaches her
    # call by its own clock): the table sees the night
    assert table.pace.mode == "calls"
    assert table.pace.calls[table.pace.cursor:] in (["piper"], ["witch", "piper"])
    public = table.public()
    assert public["phase"] == "night" and public["step"] == "night 1"
    assert all(p["alive"] for p in public["players"])
    assert all(a["kind"] != "dawn" for a in public["announcements"])
    run_calls(table, clock)
    public = table.public()
    assert not public["players"][5]["alive"]
    assert any(a["kind"] == "dawn" for a in public["announcements"])


def drive_to_day(table: Table, clock: FakeClock) -> None:
    for _ in range(2000):
        if table.pace.mode not in ("calls", "last-words", "verdict"):
            return
        clock.advance(1)
        table.tick()
    raise AssertionError("the night never ended")


def test_ballots_wait_for_the_discussion(table, clock):
    """[issue 5] pacing: the engine opens the vote at dawn, but the hub holds
    the day's discussion (discussion_s) first; a phone's ballot is refused
    until it is over, then accepted."""
    table.create(jp9())
    drive_to_day(table, clock)
    assert table.pace.mode == "discussion"
    assert table.public()["step"] == "day 1 discussion"
    with pytest.raises(NotNow):
        table.act_seat(6, {"do": "vote", "target": "B"})
    assert table.seat_view(6)["actions"] == []
    clock.advance(table.state.opts["discussion_s"] + 1)
    table.tick()
    assert table.pace.mode == "ballot"
    table.act_seat(6, {"do": "vote", "target": "B"})
    assert table.state.votes == {6: 1}


def test_a_gm_action_is_never_held_by_pacing(table, clock):
    """[issue 5]: an action the GM sends ends any pacing phase in its way, so a
    scripted game plays at full speed."""
    table.create(jp9())
    drive_to_day(table, clock)
    assert table.pace.mode == "discussion"
    table.act_gm({"actor": "G", "do": "vote", "target": "B"})
    assert table.pace.mode == "ballot"
    assert table.state.votes == {6: 1}


def test_ballot_deadline_applies_the_vote_timeout(table, clock):
    """RULES.md §1: missing ballots follow vote_timeout (jp-standard: abstain)
    when the ballot time runs out."""
    table.create(jp9())
    drive_to_day(table, clock)
    clock.advance(table.state.opts["discussion_s"] + 1)
    table.tick()
    table.act_seat(6, {"do": "vote", "target": "B"})
    clock.advance(Settings().ballot_s + 1)
    table.tick()
    tally = [e for e in table.state.log if e["e"] == "tally"][-1]
    assert tally["counts"] == {"1": 1}
    assert sum(1 for e in table.state.log if e.get("default")) == 8


def test_runoff_waits_for_the_extra_discussion(table, clock):
    """[004] 決選投票 after extra discussion: a tie leads to a runoff, held for
    extra_discussion_s before ballots."""
    table.create(jp9())
    drive_to_day(table, clock)
    gm = table.act_gm
    for voter, target in zip("ABCDEFGHI", "GGGGBBBBH"):
        gm({"actor": voter, "do": "vote", "target": target})
    assert pending(table.state)["kind"] == "runoff"
    assert table.pace.mode == "discussion"
    assert table.pace.deadline == pytest.approx(clock.t + table.state.opts["extra_discussion_s"])


def test_pause_resume_extend(table, clock):
    """[issue 5]: the GM can pause, resume and extend the timer."""
    table.create(jp9())
    drive_to_day(table, clock)
    left = table.pace.deadline - clock.t
    table.timer("pause")
    clock.advance(10_000)
    table.tick()
    assert table.pace.mode == "discussion"
    table.timer("extend", 60)
    table.timer("resume")
    assert table.pace.deadline == pytest.approx(clock.t + left + 60)
    table.timer("skip")
    assert table.pace.mode == "ballot"


def test_deadlines_survive_a_restart(db_path, clock):
    """[issue 5]: restarting rebuilds the game from its log and resumes where
    it was, timers included."""
    table = Table(Store(db_path), clock=clock, rng=random.Random(1))
    table.create(jp9())
    drive_to_day(table, clock)
    clock.advance(100)
    table.tick()
    before = (table.pace.mode, table.pace.deadline, table.state.log)
    again = Table(Store(db_path), clock=clock, rng=random.Random(2))
    again.resume()
    assert (again.pace.mode, again.pace.deadline, again.state.log) == before


def test_a_deadline_that_passed_while_the_hub_was_down_gets_a_grace(db_path, clock):
    """[issue 5] power cut: a step does not time out the instant the hub comes
    back; the table gets restart_grace_s."""
    table = Table(Store(db_path), clock=clock, rng=random.Random(1))
    table.create(jp9())
    drive_to_day(table, clock)
    clock.advance(3600)  # the hub was off for an hour
    again = Table(Store(db_path), clock=clock)
    again.resume()
    assert again.pace.mode == "discussion"
    assert again.pace.deadline == pytest.approx(clock.t + Settings().restart_grace_s)


def test_every_death_gets_the_same_last_words_when_roles_are_hidden(table, clock):
    """[issue 5], RULES.md §6: with reveal_on_death off every death gets the
    same "last words" pause, not only a hunter's."""
    table.create(jp9())
    drive_to_day(table, clock)
    gm = table.act_gm
    for voter in "ABCDEFGHI":
        gm({"actor": voter, "do": "vote", "target": "G" if voter != "G" else "H"})
    assert table.pace.mode == "last-words" and table.pace.seat == 6
    assert table.public()["step"] == "last words"
    start = clock.t
    while table.pace.mode == "last-words":
        clock.advance(0.5)
        table.tick()
    assert clock.t - start == pytest.approx(Settings().last_words_s, abs=0.6)
    assert table.pace.mode == "verdict"  # then the day's result, then night


def test_a_stale_phone_view_is_refused(table, clock):
    """[issue 5]: an action carrying the seq of a view from an earlier step is
    refused with 409 and changes nothing."""
    table.create(jp9())
    drive_to_day(table, clock)
    clock.advance(table.state.opts["discussion_s"] + 1)
    table.tick()
    old = table.seat_view(6)["seq"]
    for voter in "ABCDEFGHI":
        table.act_gm({"actor": voter, "do": "vote", "target": "G" if voter != "G" else "H"})
    drive_to_day(table, clock)
    clock.advance(table.state.opts["discussion_s"] + 1)
    table.tick()
    log = list(table.state.log)
    with pytest.raises(Stale):
        table.act_seat(7, {"do": "vote", "target": "B", "seq": old})
    assert table.state.log == log
    fresh = table.seat_view(7)["seq"]
    table.act_seat(7, {"do": "vote", "target": "B", "seq": fresh})


def test_the_clock_alone_does_not_republish_views(table, clock):
    """[issue 5] streams: one message per change. Time passing changes no view
    (clients count down to `deadline` with the message's `now`), so a phone's
    seq stays good for the whole vote."""
    table.create(jp9())
    drive_to_day(table, clock)
    clock.advance(table.state.opts["discussion_s"] + 1)
    table.tick()
    listener, _ = table.listen("public")
    seen = table.seat_view(6)["seq"]
    for _ in range(300):  # 75 s of ticks, inside the 90 s ballot
        clock.advance(0.25)
        table.tick()
    assert listener.queue.empty()
    table.act_seat(6, {"do": "vote", "target": "B", "seq": seen})
    assert table.state.votes == {6: 1}
    assert not listener.queue.empty()  # a ballot is a change the table sees


def test_gm_ballots_do_not_restart_the_ballot_timer(table, clock):
    """[issue 5]: a GM action ends pacing only where it is in the way; a ballot
    the GM enters for a player leaves the vote's deadline as it was."""
    table.create(jp9())
    drive_to_day(table, clock)
    table.timer("skip")
    deadline = table.pace.deadline
    clock.advance(5)
    table.act_gm({"actor": "A", "do": "vote", "target": "B"})
    table.act_gm({"actor": "C", "do": "vote", "target": "B"})
    assert table.pace.deadline == deadline


def test_gm_night_actions_keep_the_night_timer(table, clock):
    """RULES.md §1 timeouts: the GM entering one wolf's pick does not switch
    off the wolves' night_s timer."""
    table.create(mh8(night_s=40, first_night_attack=True))
    table.act_gm({"actor": "C", "do": "inspect", "target": "A"})
    table.act_gm({"actor": "A", "do": "attack", "target": "F"})
    assert pending(table.state)["step"] == "wolves" and table.pace.live
    assert table.pace.deadline == pytest.approx(clock.t + 40)
    table.act_gm({"actor": "B", "do": "attack", "target": "G"})  # the pack disagrees
    clock.advance(41)
    table.tick()
    assert pending(table.state)["step"] == "witch"  # the timeout closed the wolves' step


def test_the_days_verdict_stays_on_the_table_before_night_falls(table, clock):
    """RULES.md §6, §9: after the vote the moderator announces its result; the
    table is held on the day (tally and execution) for verdict_s before the
    night's first call, even when the engine has already begun the night."""
    table.create(mh8(sheriff=False, discussion_s=0))
    drive_to_day(table, clock)
    assert table.pace.mode == "ballot"
    for voter in "ABCDEFGH":
        table.act_gm({"actor": voter, "do": "vote", "target": "A" if voter != "A" else "B"})
    assert table.state.phase == "night"  # the engine is already in night 2
    assert table.pace.mode == "verdict"
    public = table.public()
    assert public["phase"] == "day" and public["step"] == "day 1 verdict"
    assert public["last_tally"]["counts"] == {"0": 7, "1": 1}
    assert not public["players"][0]["alive"] and public["players"][0]["role"] == "werewolf"
    with pytest.raises(NotNow):
        table.act_seat(2, {"do": "inspect", "target": "B"})
    start = clock.t
    while table.pace.mode == "verdict":
        clock.advance(0.5)
        table.tick()
    assert clock.t - start == pytest.approx(Settings().verdict_s, abs=0.6)
    assert table.pace.mode == "calls" and table.public()["phase"] == "night"


def test_a_refused_gm_action_leaves_the_pacing_as_it_was(table, clock):
    """[issue 5] refused actions change nothing: an illegal action from the GM
    during the discussion does not end the discussion."""
    table.create(jp9())
    drive_to_day(table, clock)
    assert table.pace.mode == "discussion"
    before = (table.pace.to_dict(), list(table.state.log))
    with pytest.raises(NotNow):
        table.act_gm({"actor": "A", "do": "vote", "target": "A"})  # no self-vote in jp [004]
    assert (table.pace.to_dict(), table.state.log) == before
    assert table.pace.mode == "discussion"


def test_an_idle_tick_builds_no_view(table, clock, monkeypatch):
    """[issue 7] (a press waits for the table's lock): while nothing moves, the
    clock's tick neither sends a message nor rebuilds any view (views carry
    deadlines, not a time left); once something moves, it does both."""
    table.create(jp9())
    while table.pace.mode != "discussion":
        if pending(table.state)["kind"] in ("night", "wolves"):
            table.act_gm({"do": "timeout"})
        clock.advance(1)
        table.tick()
    listener, _ = table.listen("public")
    built: list[str] = []
    real = table.audiences.build
    monkeypatch.setattr(table.audiences, "build",
                        lambda live, audience: built.append(audience) or real(live, audience))
    for _ in range(20):
        clock.advance(0.25)
        table.tick()
    assert listener.queue.empty() and built == []
    table.timer("skip")  # something moves: the views are rebuilt, one message
    assert not listener.queue.empty() and "public" in built


def test_undo_from_a_night_to_the_same_step_of_an_earlier_night(table, clock):
    """[issue 5] undo: the GM rewinds from night 2's seer call to night 1's seer
    step; the table calls night 1 again (it once kept night 2's calls and
    failed with a 500, found by the API fuzz test)."""
    table.create(jp9())
    table.act_gm({"actor": "A", "do": "inspect", "target": "B"})  # night 1, action 1
    for _ in range(2000):
        p = pending(table.state)
        if p["phase"] == "night" and p["n"] == 2 and p["step"] == "seer":
            if table.pace.mode == "calls" and table.pace.live:
                break
            clock.advance(1)  # the calls before the seer's run out
            table.tick()
        elif p["kind"] in ("night", "wolves", "prompt"):
            table.act_gm({"do": "timeout"})
        else:
            clock.advance(5)
            table.tick()
    assert table.pace.mode == "calls" and table.pace.night == 2 and table.pace.live
    table.undo(table.state.acts, to=1)
    assert pending(table.state)["step"] == "seer" and table.state.n == 1
    assert table.pace.mode == "calls" and table.pace.night == 1
    clock.advance(30)
    table.tick()  # and the night goes on
