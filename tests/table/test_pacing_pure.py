"""Pacing as a pure function (companion.table.pacing): state + pace record +
now → the next record, and whether the engine's step has run out of time.
No Flask, no threads, no clock: `now` is a number the test chooses.

Sources: the pacing rules in companion/table/pacing.py's docstring (issue 16:
every call of the deck lasts exactly its window even when its role is dead
or in the centre, RULES.md §4; the day's discussion before ballots, RULES.md
§6), issue 7 (roll-call windows), issue 15 (pacing is pure) and issue 16
(deadlines kept as time left)."""

from __future__ import annotations

import pytest

from companion.engine import Action, act, night_calls, pending
from companion.replay import setup_game
from companion.table import pacing
from companion.table.pacing import Pace, Rules, Settings

RULES = Rules(Settings(), "phones")
T0 = 1000.0


def mh_thief(**options: object) -> dict:
    """Millers Hollow with a thief and the witch card in the centre."""
    players = list("ABCDEFGH")
    roles = ["werewolf", "werewolf", "seer", "thief", "hunter", "villager", "villager",
             "villager"]
    return {"ruleset": "millers-hollow", "players": players, "deal": dict(zip(players, roles)),
            "center": ["witch", "villager"], "seed": 3, "options": options}


def jp9(**options: object) -> dict:
    players = list("ABCDEFGHI")
    roles = ["seer", "werewolf", "werewolf", "madman", "medium", "knight", "villager",
             "villager", "villager"]
    return {"ruleset": "jp-standard", "players": players, "deal": dict(zip(players, roles)),
            "seed": 3, "options": options}


def test_a_new_game_starts_calling_its_night_in_the_public_order():
    """The first move from the lobby: night 1's calls, in the engine's public
    calling order (RULES.md §4), the first call open at once."""
    state = setup_game(jp9())
    pace, timeout = pacing.advance(state, Pace(), T0, RULES)
    assert pace.mode == "calls" and pace.night == 1 and pace.cursor == 0
    assert pace.calls == night_calls(state)
    assert timeout is False


def test_advance_never_changes_the_record_it_is_given_and_is_repeatable():
    """Pure: the record given is left as it was, the same inputs give the
    same answer, and a settled record asked again at the same time stays."""
    state = setup_game(jp9())
    given = Pace()
    before = given.to_dict()
    first = pacing.advance(state, given, T0, RULES)
    assert given.to_dict() == before
    assert pacing.advance(state, given, T0, RULES)[0].to_dict() == first[0].to_dict()
    again, timeout = pacing.advance(state, first[0], T0, RULES)
    assert again.to_dict() == first[0].to_dict() and timeout is False


def test_a_whole_night_is_called_then_the_day_discussion_then_ballots():
    """Driven by the pure function alone (the test applies the engine's
    timeout when pacing says so, and moves `now` to each deadline): every
    call of night 1 is called in order, each for exactly its window
    (night_s, pack_s), the witch's whose card lies in the centre too
    (RULES.md §4: timing tells nothing); then the day holds its discussion for
    `discussion_s`, then ballots open for `ballot_s`, then the engine's
    timeout is due."""
    state = setup_game(mh_thief(discussion_s=120, sheriff=False, night_s=15, pack_s=35))
    calls = night_calls(state)
    assert calls == ["thief", "seer", "wolves", "witch"]
    now, pace = T0, Pace()
    called: list[tuple[str, float, bool]] = []  # (call, when it began, open in the engine)
    for _ in range(200):
        pace, timeout = pacing.advance(state, pace, now, RULES)
        if timeout:
            act(state, Action(None, "timeout"), expect=state.acts)
            continue
        if pace.mode == "calls" and (not called or called[-1][0] != pace.calls[pace.cursor]):
            called.append((pace.calls[pace.cursor], now, pace.live))
        if pace.mode == "discussion":
            break
        now = pace.deadline if pace.deadline is not None else now + 1
    assert [c for c, _, _ in called] == calls
    assert [live for _, _, live in called] == [True, True, True, False]  # the witch: centre
    ends = [when for _, when, _ in called[1:]] + [called[-1][1] + 15]
    assert [e - w for e, (_, w, _) in zip(ends, called)] == [15, 15, 35, 15]
    assert pace.mode == "discussion"
    talk_end = pace.deadline
    pace, timeout = pacing.advance(state, pace, talk_end - 0.01, RULES)
    assert pace.mode == "discussion" and not timeout  # not a moment early
    pace, timeout = pacing.advance(state, pace, talk_end, RULES)
    assert pace.mode == "ballot" and pace.deadline == talk_end + Settings().ballot_s
    assert pending(state)["kind"] == "vote" and not timeout
    pace, timeout = pacing.advance(state, pace, talk_end + Settings().ballot_s, RULES)
    assert timeout is True  # the ballots' time is up: the engine's timeout applies


def test_an_early_answer_does_not_end_a_call_and_next_ends_it_always():
    """RULES.md §4 [issue 16]: the seer who answers at once leaves her call's
    deadline where it was; the GM's Next ends any call, a live one included
    (its step's timeout is then due)."""
    state = setup_game(mh_thief(night_s=15, pack_s=35))
    pace, _ = pacing.advance(state, Pace(), T0, RULES)
    pace, timeout = pacing.advance(state, pacing.timer(pace, "skip", 0, T0 + 1), T0 + 1, RULES)
    assert timeout is True  # Next on the thief's live call: its timeout
    act(state, Action(None, "timeout"), expect=state.acts)
    pace, _ = pacing.advance(state, pace, T0 + 1, RULES)
    assert pace.calls[pace.cursor] == "seer" and pace.live
    seer_ends = pace.deadline
    act(state, Action(2, "inspect", target=0), expect=state.acts)
    pace, timeout = pacing.advance(state, pace, T0 + 2, RULES)
    assert not timeout and pace.calls[pace.cursor] == "seer" and not pace.live
    assert pace.deadline == seer_ends == T0 + 1 + 15
    pace, _ = pacing.advance(state, pace, seer_ends, RULES)
    assert pace.calls[pace.cursor] == "wolves" and pace.live
    pace, timeout = pacing.advance(state, pacing.timer(pace, "skip", 0, T0 + 20), T0 + 20,
                                   RULES)
    assert timeout is True  # Next on the live pack: its timeout, at once


def test_the_game_masters_clock():
    """pause keeps the time left, resume restarts from it, extend adds to the
    deadline (or to the time left while paused), skip ends a call or a
    discussion now; any other word is refused (ValueError)."""
    pace = Pace(mode="discussion", deadline=T0 + 60)
    paused = pacing.timer(pace, "pause", 0, T0 + 20)
    assert paused.paused == 40 and pace.paused is None  # the given record unchanged
    assert pacing.timer(paused, "extend", 15, T0 + 30).paused == 55
    resumed = pacing.timer(paused, "resume", 0, T0 + 100)
    assert resumed.deadline == T0 + 140 and resumed.paused is None
    assert resumed.talk_until == T0 + 140  # a reopened vote keeps the GM's timing
    assert pacing.timer(pace, "extend", 30, T0).deadline == T0 + 90
    skipped = pacing.timer(pace, "skip", 0, T0 + 5)
    assert skipped.deadline == T0 + 5
    for mode in ("calls", "ballot", "prompt", "last-words", "verdict"):  # [issue 16]
        assert pacing.timer(Pace(mode=mode, deadline=T0 + 60, live=True), "skip", 0,
                            T0 + 5).deadline == T0 + 5
    assert pacing.timer(Pace(mode="ballot", paused=30.0), "skip", 0, T0).deadline == T0
    with pytest.raises(ValueError, match="pause, resume, extend, skip"):
        pacing.timer(pace, "stop", 0, T0)


def test_a_restart_gives_every_deadline_a_moment_more():
    """[issue 16]: after a restart every running deadline gets
    `restart_grace_s` more than it had left (one already passed: that
    moment); a paused record is kept."""
    settings = Settings()
    assert pacing.resumed(Pace(deadline=T0), T0 + 100, settings).deadline == \
        T0 + 100 + settings.restart_grace_s
    assert pacing.resumed(Pace(deadline=T0 + 500), T0, settings).deadline == \
        T0 + 500 + settings.restart_grace_s
    assert pacing.resumed(Pace(deadline=T0, paused=3.0), T0 + 100, settings).deadline == T0


def test_the_stored_record_keeps_time_left_whatever_the_clocks_say():
    """[issue 16] monotonic clock: the store keeps the deadlines as time left
    (seconds from the commit), so a record read on a clock that starts
    anywhere, with any wall clock, resumes with the same time left."""
    pace = Pace(mode="ballot", deadline=T0 + 42, started=T0 - 8, talk_until=T0 + 2)
    record = pace.to_record(T0)
    assert (record["deadline"], record["started"], record["talk_until"]) == (42, -8, 2)
    for now, wall in ((5.0, 1e9), (1e7, 0.0), (T0, -3600.0)):
        back = Pace.from_record(record, now, wall)
        assert (back.deadline, back.started, back.talk_until) == (now + 42, now - 8, now + 2)


def test_a_record_saved_on_the_wall_clock_is_read_once_with_it():
    """[issue 16]: a record stored before deadlines were kept as time left
    holds wall-clock times: read with the wall clock once, and never further
    off than LEGACY_MAX_S (a Pi's clock set back 30 min gives no 1,805 s call)."""
    old = Pace(mode="calls", deadline=5000.0, started=4990.0).to_dict()
    back = Pace.from_record(old, 10.0, 4980.0)
    assert back.deadline == 30.0 and back.started == 20.0
    far = Pace.from_record(old, 10.0, 5000.0 - 1800)
    assert far.deadline == 10.0 + pacing.LEGACY_MAX_S


@pytest.mark.parametrize(("pace", "seat", "do", "why"), [
    (Pace(mode="calls", live=False), 0, "inspect", "not your turn: wait to be called"),
    (Pace(mode="calls", live=True), 0, "inspect", None),
    (Pace(mode="discussion"), 0, "vote", "voting opens when the discussion is over"),
    (Pace(mode="discussion"), 0, "confess", None),  # a day power (RULES.md §8)
    (Pace(mode="last-words", seat=2), 1, "shoot", "wait: last words"),
    (Pace(mode="last-words", seat=2), 2, "shoot", None),
    (Pace(mode="verdict"), 0, "vote", "wait: the day's result is being announced"),
    (Pace(mode="ballot"), 0, "timeout", "only the game master or the clock ends a step"),
    (Pace(mode="ballot"), 0, "vote", None),
])
def test_what_a_phone_may_do_now(pace, seat, do, why):
    """What pacing holds back, in the words a phone is answered with."""
    assert pacing.seat_refusal(pace, seat, do, "phones", lambda: True) == why


def test_a_phone_the_engine_is_not_waiting_for_and_roll_call_votes():
    """The engine decides last ("not waiting for you"); by roll-call a vote is
    a button press, never a phone's tap [issue 7]."""
    ballot = Pace(mode="ballot")
    assert pacing.seat_refusal(ballot, 0, "vote", "phones", lambda: False) == \
        "the game is not waiting for you now"
    assert pacing.seat_refusal(ballot, 0, "vote", "roll-call", lambda: True).startswith(
        "in this game you vote with your seat's button")


def test_roll_call_windows_end_back_to_back_at_the_deadline():
    """[issue 7] One window per candidate, in calling order, the last ending
    at the deadline; the public view names the candidate and its window's end."""
    pace = Pace(mode="ballot", order=[4, 0, 2], deadline=T0 + 15)
    assert [pace.rollcall(T0 + t, 5.0) for t in (0, 4.9, 5, 10, 14.9, 15)] == \
        [0, 0, 1, 2, 2, None]
    assert pacing.rollcall_view(pace, 1, 5.0) == {"candidate": 0, "index": 1, "of": 3,
                                                  "ends": T0 + 10}
    assert pacing.rollcall_view(Pace(mode="discussion"), 1, 5.0) is None


def test_the_public_pace_says_no_time_left():
    """Every audience sees the mode and the deadline (no time left: it would
    change every view at every tick); during calls which call and which
    night: a call lasts exactly its window (RULES.md §4), so its deadline
    tells only the deck and the GM's Next."""
    calls = Pace(mode="calls", calls=["wolves", "seer"], cursor=1, night=2,
                 deadline=T0 + 3, live=True, stage=7)
    assert pacing.public(calls) == {"mode": "calls", "paused": None, "call": "seer",
                                    "night": 2, "deadline": T0 + 3, "stage": 7}
    assert pacing.public(Pace(mode="ballot", deadline=T0)) == {
        "mode": "ballot", "paused": None, "deadline": T0, "stage": 0}


def test_the_record_round_trips_as_data():
    """The record is saved with every commit: to_dict/from_dict keep every
    field, and to_dict hands out copies of its lists."""
    pace = Pace(mode="ballot", order=[1, 2], picks={"3": 1}, words=[4], calls=["seer"])
    data = pace.to_dict()
    assert Pace.from_dict(data) == pace
    data["order"].append(9)
    data["picks"]["5"] = 0
    assert pace.order == [1, 2] and pace.picks == {"3": 1}


def test_an_election_with_one_candidate_opens_its_vote_at_once():
    """[issue 44 item 2] With The Village's professions the day-2 election is
    among the living farmers (RULES.md §8 Decision); with one farmer alive it
    needs no discussion: its vote opens at once (the election's rules are
    unchanged: ballots for him elect him, none elects nobody). With two, the
    election keeps its discussion."""
    from helpers import attack, game, votes

    roles = ["werewolf", "werewolf"] + ["villager"] * 6
    night1 = attack("Hal", "Ann", "Bob")
    day1 = votes("Ann>Gus", "Bob>Gus", "Cid>Gus", "Dan>Gus", "Eve>Gus", "Fay>Gus", "Gus>Ann")
    night2 = attack("Fay", "Ann", "Bob")
    for farmers, mode in ((["Cid"], "ballot"), (["Cid", "Dan"], "discussion")):
        profs = ["farmer" if n in farmers else "drifter"
                 for n in ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus", "Hal"]]
        state = game("millers-hollow", roles, night1 + day1 + night2,
                     {"discussion_s": 120}, professions=profs)
        p = pending(state)
        assert (p["step"], p["candidates"]) == ("election", [2] if mode == "ballot" else [2, 3])
        pace = pacing.advance(state, Pace(nights_called=2, verdict_night=2, deaths_seen=3),
                              T0, RULES)[0]
        assert pace.mode == mode, farmers
