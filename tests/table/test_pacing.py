"""Pacing: night calls, discussion, ballots, prompts, last words and the
game master's timer controls, driven by a fake clock (RULES.md §1, §4, §6;
[issue 5] "Timers, timeouts and secrecy of timing")."""

from __future__ import annotations

import json
import random

import pytest
from helpers import FakeClock, jp9, mh8

from companion.engine import pending
from companion.store import Store
from companion.table import NotNow, Settings, Stale, Table

ROLE_S, PACK_S = 20, 40  # the Millers Hollow windows (RULES.md §2 presets)


def run_calls(table: Table, clock: FakeClock, limit: int = 2000) -> list[tuple[str, float]]:
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


def test_the_night_calls_the_decks_cards_and_no_other(table, clock):
    """RULES.md §4 (revised) [issue 16]: a base game (seer, witch, hunter,
    werewolves, villagers) calls the seer, the werewolves and the witch: no
    thief, cupid, defender, piper, nor The Village's pyromaniac and
    rumormonger, which are not in the box."""
    table.create(mh8())
    assert table.pace.mode == "calls"
    assert table.pace.calls == ["seer", "wolves", "witch"]
    assert table.public()["pace"]["call"] == "seer"


def test_a_centre_card_and_a_dead_holder_are_called_all_the_same(table, clock):
    """RULES.md §4: the thief's centre cards are in the deck (a witch lying in
    the centre is called), and a dead role's card is called every night."""
    players = list("ABCDEFGH")
    roles = ["werewolf", "werewolf", "seer", "thief", "hunter", "villager", "villager",
             "villager"]
    table.create({"ruleset": "millers-hollow", "players": players, "seed": 1,
                  "deal": dict(zip(players, roles)), "center": ["witch", "villager"]})
    assert table.pace.calls == ["thief", "seer", "wolves", "witch"]


def test_secret_deck_calls_every_card_of_the_ruleset(table, clock):
    """RULES.md §4: with `secret_deck` on, every card of the ruleset is called
    (and the deck is named nowhere)."""
    table.create(mh8(secret_deck=True))
    assert table.pace.calls == ["thief", "cupid", "defender", "seer", "pyromaniac",
                                "rumormonger", "wolves", "witch", "piper"]
    assert table.public()["deck"] is None


def test_every_call_lasts_exactly_its_window_whoever_answers(table, clock):
    """RULES.md §4 [issue 16]: with nobody answering, each call lasts its
    window (night_s for a role, pack_s for the pack) and times out at its end."""
    table.create(mh8())
    assert run_calls(table, clock) == [("seer", ROLE_S), ("wolves", PACK_S), ("witch", ROLE_S)]
    assert any(e.get("do") == "timeout" for e in table.state.log)


def test_a_phone_cannot_act_before_its_step_is_called(table, clock):
    """RULES.md §4: the witch's phone shows no action and is refused while the
    seer is being called."""
    table.create(mh8())
    table.act_gm({"actor": "C", "do": "inspect", "target": "A"})
    witch = 3
    with pytest.raises(NotNow):
        table.act_seat(witch, {"do": "potion", "heal": False, "poison": None})
    assert table.seat_view(witch)["actions"] == []


def test_an_early_answer_does_not_end_the_call(table, clock):
    """RULES.md §4 [issue 16]: a seer who answers at once does not shorten her
    call: it ends at the end of its window, like a call nobody answers."""
    table.create(mh8())
    start = clock.t
    view = table.act_seat(2, {"do": "inspect", "target": "A"})
    assert view["results"] == []  # told when her call ends [issue 28]
    assert table.pace.calls[table.pace.cursor] == "seer"
    assert table.pace.deadline == pytest.approx(start + ROLE_S)
    while table.pace.calls[table.pace.cursor] == "seer":
        clock.advance(0.25)
        table.tick()
    assert clock.t - start == pytest.approx(ROLE_S)
    assert table.seat_view(2)["results"][-1]["result"] == "werewolf"


def test_the_gms_next_ends_a_live_call_at_once(table, clock):
    """[issue 16]: the GM's Next ends a call whose holder has not answered
    (it used to do nothing on a live call): the step times out, the next call
    begins with its own whole window."""
    table.create(mh8())
    assert table.pace.live and table.pace.calls[table.pace.cursor] == "seer"
    clock.advance(3)
    table.timer("skip")
    assert table.pace.calls[table.pace.cursor] == "wolves"
    assert pending(table.state)["step"] == "wolves"
    assert table.pace.deadline == pytest.approx(clock.t + PACK_S)
    assert not any(e.get("do") == "inspect" for e in table.state.log)


@pytest.mark.parametrize("mode", ["discussion", "ballot", "last-words", "verdict"])
def test_the_gms_next_ends_whatever_is_open(table, clock, mode):
    """[issue 16]: Next ends the discussion, a ballot's wait, last words, the
    verdict and a prompt's wait at once, and the table moves on."""
    table.create(jp9())
    for _ in range(200):
        if table.pace.mode == mode:
            break
        if table.pace.mode == "ballot":
            for voter in "ABCDEFGHI":  # G is executed: last words, then the verdict
                if table.pace.mode == "ballot":
                    table.act_seat("ABCDEFGHI".index(voter),
                                   {"do": "vote", "target": "G" if voter != "G" else "H"})
            continue
        table.timer("skip")
    else:
        raise AssertionError(f"never reached {mode}")
    before = table.pace.mode
    table.timer("skip")
    assert table.pace.mode != before or table.pace.step_id != -1


def test_the_gms_next_ends_the_hunters_wait(table, clock):
    """[issue 16]: Next ends a prompt's wait (the hunter's shot): its default."""
    table.create(mh8(sheriff=False))
    table.timer("skip")  # seer
    table.act_gm({"actor": "A", "do": "attack", "target": "E"})
    table.act_gm({"actor": "B", "do": "attack", "target": "E"})
    for _ in range(100):
        if table.pace.mode == "prompt":
            break
        table.timer("skip")
    assert table.pace.mode == "prompt" and pending(table.state)["step"] == "hunter"
    table.timer("skip")
    assert pending(table.state)["step"] != "hunter"


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
    # ...but the witch's call runs its whole window: the table sees the night
    assert table.pace.mode == "calls"
    assert table.pace.calls[table.pace.cursor:] == ["witch"]
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
    """[issue 5], [issue 16]: restarting rebuilds the game from its log and
    resumes where it was, each deadline with the time it had left plus
    restart_grace_s."""
    table = Table(Store(db_path), clock=clock, rng=random.Random(1))
    table.create(jp9())
    drive_to_day(table, clock)
    clock.advance(100)
    table.tick()
    before = (table.pace.mode, table.pace.deadline + Settings().restart_grace_s,
              table.state.log)
    again = Table(Store(db_path), clock=clock, rng=random.Random(2))
    again.resume()
    assert (again.pace.mode, again.pace.deadline, again.state.log) == before


def test_a_restart_resumes_the_time_left_however_long_the_hub_was_down(db_path, clock):
    """[issue 5] power cut, [issue 16] monotonic clock: the hub's clock starts
    again anywhere after a restart, so a deadline resumes with the time it had
    left at the last commit, plus restart_grace_s: the discussion does not
    end the instant the hub comes back, an hour later."""
    table = Table(Store(db_path), clock=clock, rng=random.Random(1))
    table.create(jp9())
    drive_to_day(table, clock)
    left = table.pace.deadline - clock.t
    clock.advance(3600)  # the hub was off for an hour
    again = Table(Store(db_path), clock=clock)
    again.resume()
    assert again.pace.mode == "discussion"
    assert again.pace.deadline == pytest.approx(clock.t + left + Settings().restart_grace_s)


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
    table.create(mh8(pack_s=40, first_night_attack=True))
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
        if p["phase"] == "night" and p["n"] == 2 and p["step"] == "actions":
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
    assert pending(table.state)["step"] == "actions" and table.state.n == 1
    assert table.pace.mode == "calls" and table.pace.night == 1
    clock.advance(30)
    table.tick()  # and the night goes on


# --- a monotonic clock [issue 16] -----------------------------------------------------

def _jumpy(db_path, clock: FakeClock, wall: FakeClock) -> Table:  # type: ignore[no-untyped-def]
    return Table(Store(db_path), clock=clock, rng=random.Random(1), wall=wall)


@pytest.mark.parametrize("jump", [3600.0, -3600.0])
def test_a_wall_clock_jump_neither_ends_nor_stretches_anything(db_path, clock, jump):
    """[issue 16]: the Pi's wall clock jumps an hour (at boot, or a phone sets
    it) during a ballot, a verdict and a night call: no ballot defaults, the
    verdict keeps its 10 s, the call its window; only the monotonic clock
    counts."""
    wall = FakeClock(1_700_000_000.0)
    table = _jumpy(db_path, clock, wall)
    table.create(mh8(sheriff=False, discussion_s=0))
    deadline = table.pace.deadline
    wall.advance(jump)
    clock.advance(1)
    table.tick()
    assert table.pace.deadline == deadline and table.pace.calls[table.pace.cursor] == "seer"
    drive_to_day(table, clock)
    assert table.pace.mode == "ballot"
    ballot_ends = table.pace.deadline
    wall.advance(jump)
    for _ in range(3):
        clock.advance(0.5)
        table.tick()
    assert table.pace.mode == "ballot" and table.pace.deadline == ballot_ends
    assert not any(e.get("default") for e in table.state.log)  # no ballot defaulted
    for voter in "ABCDEFGH":
        table.act_gm({"actor": voter, "do": "vote", "target": "A" if voter != "A" else "B"})
    assert table.pace.mode == "verdict"
    verdict_ends = table.pace.deadline
    wall.advance(-jump)
    clock.advance(0.5)
    table.tick()
    assert table.pace.remaining(clock.t) == pytest.approx(Settings().verdict_s - 0.5)
    assert table.pace.deadline == verdict_ends


def test_a_restart_with_the_wall_clock_behind_resumes_the_time_left(db_path, clock):
    """[issue 16]: the hub restarts with its wall clock 30 minutes behind and
    its monotonic clock started again near zero: the night call resumes with
    the time it had left plus the grace (not 1,805 s)."""
    wall = FakeClock(1_700_000_000.0)
    table = _jumpy(db_path, clock, wall)
    table.create(mh8())
    clock.advance(5)
    table.tick()
    table.act_seat(2, {"do": "inspect", "target": "A"})  # a commit, 15 s of the call left
    again = _jumpy(db_path, FakeClock(12.0), FakeClock(wall.t - 1800))
    again.resume()
    assert again.pace.calls[again.pace.cursor] == "seer"
    assert again.pace.remaining(12.0) == pytest.approx(ROLE_S - 5 + Settings().restart_grace_s)


def test_a_game_saved_on_the_wall_clock_still_opens(db_path, clock):
    """[issue 16] migration: a game stored before deadlines were kept as time
    left (its pace holds wall-clock times, its options the old night_s)
    opens, its deadline read once with the wall clock, no further off than
    LEGACY_MAX_S, and its night_s taken as the new windows' ceiling."""
    from companion.table.pacing import LEGACY_MAX_S

    wall = FakeClock(1_700_000_000.0)
    table = _jumpy(db_path, clock, wall)
    table.create(mh8())
    store = Store(db_path)
    old_pace = {**table.pace.to_dict(), "deadline": wall.t + 7200.0}  # no "clock": "left"
    store.save_pace(table.game, old_pace)
    with store._tx() as db:  # the setup event as written before issue 16
        event = json.loads(db.execute("SELECT event FROM events WHERE game = ? AND idx = 0",
                                      (table.game,)).fetchone()[0])
        event["options"] = {k: v for k, v in event["options"].items()
                            if k not in ("pack_s", "secret_deck")} | {"night_s": 60}
        db.execute("UPDATE events SET event = ? WHERE game = ? AND idx = 0",
                   (json.dumps(event), table.game))
    for copy in (".journal", ".snapshot"):  # a file from before its second copy [issue 30]
        db_path.with_name(db_path.name + copy).unlink()
    again = _jumpy(db_path, FakeClock(50.0), wall)
    again.resume()
    assert again.state.opts["night_s"] == 20 and again.state.opts["pack_s"] == 40
    assert again.pace.remaining(50.0) == pytest.approx(LEGACY_MAX_S + Settings().restart_grace_s)


def test_a_setup_saved_with_the_old_night_s_reads_as_it_was_meant(db_path):
    """[issue 16] migration: a setup saved when night_s was the longest a
    live call might last (60 s, or 0 for no limit) loads with the new exact
    windows under it (night_s 20, pack_s 40); one saved now keeps its
    night_s (saved with pack_s, it is never taken for an old one)."""
    from companion.history import History

    store = Store(db_path)
    store.save_setup("old", {**mh8(), "options": {"night_s": 60, "sheriff": False}})
    store.save_setup("unlimited", {**mh8(), "options": {"night_s": 0}})
    store.save_setup("old jp", {**jp9(), "options": {"night_s": 200}})
    history = History(store)
    history.save_setup({"name": "new", "setup": {**mh8(), "options": {"night_s": 30}}})
    got = {row["name"]: row["setup"]["options"] for row in history.setups()}
    assert got["old"] == {"night_s": 20, "pack_s": 40, "sheriff": False}
    assert got["unlimited"] == {"night_s": 20, "pack_s": 40}
    assert got["old jp"] == {"night_s": 200, "pack_s": 200}  # the one window [004]
    assert got["new"] == {"night_s": 30, "pack_s": 40}
