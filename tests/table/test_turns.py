"""Speaking turns, the candidates' defences and the night's "ready" at the
table [issue 34]: pacing runs them from the engine's `pending` (pure, a fake
`now`), the table takes a speaker's pass and a phone's "ready", the public
view, the moderator's line and the seat boxes' LEDs say whose turn it is.

Sources: RULES.md §6 `discussion_turns` [003] 「從剛才天黑時被殺的玩家左手邊的玩家開始，
按照順時針方向，輪流發言，玩家之間不得對話」 (each living player `turn_s`, then the
vote; the hub shows whose turn it is; leak-free order), §6 `vote_mode=candidates`
[003] 「候選人可以再次發言，為自己辯解。…其他未成為候選人的玩家再次進行表決」
(Decision: candidates defend in seat order, shown as discussion turns are) and
§4 `ready_ends_night` [004 l.86–87] 「参戦者全員の準備が完了次第、Bに移ります」."""

from __future__ import annotations

import pytest
from companion.firmware.bridge import lights

from companion.engine import Action, act, pending
from companion.replay import setup_game
from companion.table import pacing, ready, turns
from companion.table.errors import NotNow
from companion.table.pacing import Pace, Rules, Settings
from companion.table.timing import SAVE_LEFT_S
from companion.words import public_line

RULES = Rules(Settings(), "phones")
TURN = 10


def mh(**options: object) -> dict:
    players = list("ABCDEFGH")
    roles = ["werewolf", "werewolf", "seer", "witch", "hunter", "villager", "villager",
             "villager"]
    return {"ruleset": "millers-hollow", "players": players,
            "deal": dict(zip(players, roles)), "seed": 3,
            "options": {"sheriff": False, "turn_s": TURN, **options}}


def jp9(**options: object) -> dict:
    players = list("ABCDEFGHI")
    roles = ["seer", "werewolf", "werewolf", "madman", "medium", "knight", "villager",
             "villager", "villager"]
    return {"ruleset": "jp-standard", "players": players, "deal": dict(zip(players, roles)),
            "seed": 3, "options": options}


def run(state, pace: Pace, now: float, until) -> tuple[Pace, float]:  # type: ignore[no-untyped-def]
    """Advance in 1 s steps (timeouts applied) until `until(pace)`."""
    for _ in range(2000):
        pace, timeout = pacing.advance(state, pace, now, RULES)
        if timeout:
            act(state, Action(None, "timeout"), expect=state.acts)
            continue
        if until(pace):
            return pace, now
        now += 1.0
    raise AssertionError("never reached")


def to_day(setup: dict, kill: int | None = None):  # type: ignore[no-untyped-def]
    """The game at day 1's first speaking turn; `kill`: the wolves' victim."""
    state = setup_game(setup)
    pace, now = run(state, Pace(), 0.0, lambda pc: pc.mode == "calls" and pc.live
                    and pending(state)["step"] == "wolves")
    if kill is not None:
        for wolf in (0, 1):
            act(state, Action(wolf, "attack", target=kill), expect=state.acts)
    pace, now = run(state, pace, now, lambda pc: pc.mode in ("discussion", "ballot"))
    return state, pace, now


def test_the_days_discussion_runs_as_turns_in_the_engines_order_then_the_vote():
    """RULES.md §6 [003]: every living player speaks in turn, clockwise from
    the left of the night's victim, `turn_s` each, then the vote; the public
    pace says whose turn it is and who is next, each turn a stage of its own."""
    state, pace, now = to_day(mh(discussion_turns=True), kill=5)
    order = pending(state)["turns"]
    assert order == [6, 7, 0, 1, 2, 3, 4]  # from the victim's left (seat 5 died)
    seen, stages = [], []
    while pace.mode == "discussion":
        shown = pacing.public(pace)["turns"]
        seen.append(shown["seat"])
        stages.append(pace.stage)
        assert shown["order"] == order and shown["of"] == "discussion"
        assert shown["next"] == (order[len(seen)] if len(seen) < len(order) else None)
        assert pace.deadline == pytest.approx(now + TURN)
        started = now
        pace, now = run(state, pace, now, lambda pc, s=pace.stage: pc.stage != s)
        assert now - started == pytest.approx(TURN)
    assert seen == order and len(set(stages)) == len(order)
    assert pace.mode == "ballot" and "turns" not in pacing.public(pace)


def test_without_the_option_the_discussion_is_free():
    """`discussion_turns` off (every preset's default): one discussion of
    `discussion_s`, no turns (today's behaviour)."""
    state, pace, _ = to_day(mh(), kill=5)
    assert pace.mode == "discussion" and pace.turns == [] and "turns" not in pacing.public(pace)


def test_the_gm_next_skips_one_turn_and_the_speaker_may_pass():
    """The GM's (or host's) Next ends the open turn only; the speaker's phone
    may pass, nobody else's (RULES.md §6 discussion_turns)."""
    state, pace, now = to_day(mh(discussion_turns=True), kill=5)
    first, second, third = pace.turns[:3]
    pace = pacing.timer(pace, "skip", 0, now)
    pace, _ = pacing.advance(state, pace, now, RULES)
    assert pace.mode == "discussion" and pace.turns[pace.turn] == second
    with pytest.raises(ValueError):
        turns.pass_turn(pace, third, now)
    pace = turns.pass_turn(pace, second, now + 2)
    pace, _ = pacing.advance(state, pace, now + 2, RULES)
    assert pace.turns[pace.turn] == third and pace.deadline == pytest.approx(now + 2 + TURN)


def test_the_candidates_defend_in_seat_order_then_only_the_others_vote():
    """RULES.md §6 vote_mode=candidates: the first round names the two most
    voted, who defend (`turn_s` each, seat order, shown as discussion turns),
    then the ballot opens for the non-candidates only."""
    state, pace, now = to_day(mh(vote_mode="candidates"), kill=5)
    pace, now = run(state, pace, now, lambda pc: pc.mode == "ballot")
    for voter, target in zip(pending(state)["waiting"], [4, 4, 3, 3, 3, 4, 6]):
        act(state, Action(voter, "vote", target=target), expect=state.acts)
    pace, _ = pacing.advance(state, pace, now, RULES)
    shown = pacing.public(pace)["turns"]
    assert shown == {"of": "defence", "order": [3, 4], "index": 0, "seat": 3, "next": 4}
    pace, now = run(state, pace, now, lambda pc: pc.mode == "ballot")
    assert set(pending(state)["waiting"]).isdisjoint({3, 4})


def test_turns_tell_nothing_hidden():
    """Leak-free (RULES.md §6): two games that differ only in who holds which
    hidden card show the same turns at the same moments."""
    a = mh(discussion_turns=True)
    b = mh(discussion_turns=True)
    b["deal"] = dict(zip(list("ABCDEFGH"), ["werewolf", "werewolf", "villager", "witch",
                                            "hunter", "seer", "villager", "villager"]))
    runs = []
    for setup in (a, b):
        state, pace, now = to_day(setup, kill=7)
        shown = []
        while pace.mode == "discussion":
            shown.append((now, pacing.public(pace)))
            pace, now = run(state, pace, now + 1, lambda pc: True)
        runs.append(shown)
    assert runs[0] == runs[1]


def test_the_table_screen_and_the_moderator_say_whose_turn_it_is():
    """The table screen's line (what a narrated game says) names the speaker
    and who is next, in the game's language; one turn to the next changes
    only that sentence, so the voice says only the new turn."""
    state, pace, now = to_day(mh(discussion_turns=True), kill=5)
    from companion.engine import announcements, public_view
    view = public_view(state)
    view["announcements"] = announcements(state)
    view["pace"] = pacing.public(pace)
    first = public_line(view, "zh_Hant").split("\n")
    assert first[-2:] == ["G，請發言。", "下一位：H"], first
    pace = pacing.timer(pace, "skip", 0, now)
    pace, _ = pacing.advance(state, pace, now, RULES)
    view["pace"] = pacing.public(pace)
    second = public_line(view, "zh_Hant").split("\n")
    assert second[:-2] == first[:-2] and second[-2:] == ["H，請發言。", "下一位：A"]
    from companion.speech.lines import spoken
    before = {**view, "pace": {"mode": "discussion"}, "line": "\n".join(first), "game": 1}
    now_said = spoken(before, {**view, "line": "\n".join(second), "game": 1}, "zh_Hant")
    assert now_said == ["H，請發言。", "下一位：A"]  # the narrator says the new turn only


def test_the_speakers_seat_box_lights():
    """The seat box of the speaker is lit (solid) while the turns run, in
    any button mode; nobody else's."""
    state, pace, _ = to_day(mh(discussion_turns=True), kill=5)
    from companion.engine import public_view
    view = public_view(state)
    view["pace"] = pacing.public(pace)
    leds = lights(view)
    assert leds[6] == "speaking" and [s for s, led in leds.items() if led == "speaking"] == [6]


# --- ready_ends_night ---------------------------------------------------------------

def night_one(setup: dict):  # type: ignore[no-untyped-def]
    state = setup_game(setup)
    pace, now = pacing.advance(state, Pace(), 0.0, RULES)[0], 0.0
    assert pace.mode == "calls" and pace.live
    return state, pace, now


def ready_all(state, pace: Pace, seats) -> Pace:  # type: ignore[no-untyped-def]
    for seat in seats:
        pace = ready.tap_ready(state, pace, seat)
    return pace


def test_night_one_ends_on_the_taps_alone_and_a_ready_seer_has_passed():
    """RULES.md §4 [004] and its Decision r5: with `ready_ends_night`
    (jp-standard's default) the night-1 window ends once every living phone
    tapped "ready" — whether the seer has acted or not: her Ready is her
    last word (the step times out: she passed), and the window's end never
    waits on an action, else its moment tells when she acted [issue 40]."""
    state, pace, now = night_one(jp9())
    assert state.opts["ready_ends_night"] is True  # the preset's default
    pace = ready_all(state, pace, range(9))
    assert pacing.seat_refusal(pace, 0, "inspect", "phones", lambda: True, now) \
        == pacing.SAID_READY  # her Ready was her last word
    pace, timeout = pacing.advance(state, pace, now + 5, RULES)
    assert pace.deadline == pytest.approx(now + 5) and timeout  # ended: the seer's step times out


def test_one_phone_not_ready_keeps_the_night_open():
    state, pace, now = night_one(jp9())
    act(state, Action(0, "inspect", target=3), expect=state.acts)
    pace, _ = pacing.advance(state, pace, now + 1, RULES)  # the engine ran ahead: held
    pace = ready_all(state, pace, range(8))  # seat 8 has not tapped
    pace, _ = pacing.advance(state, pace, now + 5, RULES)
    assert pace.mode == "calls" and pace.night == 1 and pace.deadline == pytest.approx(300.0)


def test_without_the_option_ready_is_refused_and_the_window_runs_its_time():
    state, pace, _ = night_one(jp9(ready_ends_night=False))
    with pytest.raises(ValueError):
        ready.tap_ready(state, pace, 0)


def test_the_table_takes_a_ready_tap_and_a_pass_through_its_one_path(table, clock):
    """The table's `ready` keeps the tap in the pace (durable) and shows the
    tapping phone its own "ready"; every living phone has the same button.
    A pass from a seat whose turn it is not is refused (409)."""
    table.create(jp9())
    views = [table.seat_view(s) for s in range(9)]
    assert all(v["ready"] is False for v in views)
    mine = table.ready(4)
    assert mine["ready"] is True and table.seat_view(3)["ready"] is False
    assert table.store.load(table.game).pace["ready"] == [4]
    with pytest.raises(NotNow):
        table.pass_turn(4)


def test_the_nights_victim_must_be_ready_too():
    """With an attack on night 1 (first_night_attack on) the engine may
    resolve the dawn while the table still holds the window: the victim's
    phone was alive at nightfall and still counts, or the early end would
    tell the table someone died (RULES.md §4: nothing public reveals it)."""
    state, pace, now = night_one(jp9(first_night_attack=True))
    act(state, Action(0, "inspect", target=3), expect=state.acts)
    act(state, Action(1, "attack", target=6), expect=state.acts)  # any-wolf: one pick
    act(state, Action(5, "guard", target=7), expect=state.acts)  # the knight
    pace, _ = pacing.advance(state, pace, now + 1, RULES)
    assert not state.alive[6] and pace.mode == "calls"  # resolved, but held
    pace = ready_all(state, pace, [s for s in range(9) if s != 6])
    pace, _ = pacing.advance(state, pace, now + 2, RULES)
    assert pace.mode == "calls" and pace.night == 1
    pace = ready.tap_ready(state, pace, 6)
    pace, _ = pacing.advance(state, pace, now + 3, RULES)
    assert not (pace.mode == "calls" and pace.night == 1)


def test_the_display_shows_the_speaker_and_the_candidates_round():
    """The display (firmware/display.py, public view only) names the speaker
    in large type while turns run, and labels the candidates' round: the
    frame differs from the one without the turns / without nominees."""
    from companion.firmware.display import render

    from companion.engine import public_view

    state, pace, _ = to_day(mh(discussion_turns=True), kill=5)
    view = public_view(state)
    view["pace"] = pacing.public(pace)
    plain = {**view, "pace": {k: v for k, v in view["pace"].items() if k != "turns"}}
    assert render(view, "en").tobytes() != render(plain, "en").tobytes()
    other = {**view, "pace": {**view["pace"], "turns": {**view["pace"]["turns"], "seat": 7}}}
    assert render(view, "en").tobytes() != render(other, "en").tobytes()  # the name shown
    state, pace, now = to_day(mh(vote_mode="candidates"), kill=5)
    pace, now = run(state, pace, now, lambda pc: pc.mode == "ballot")
    for voter, target in zip(pending(state)["waiting"], [4, 4, 3, 3, 3, 4, 6]):
        act(state, Action(voter, "vote", target=target), expect=state.acts)
    pace, now = run(state, pace, now, lambda pc: pc.mode == "ballot")
    view = public_view(state)
    view["pace"] = pacing.public(pace)
    assert view["vote"]["nominees"] == [3, 4]
    runoff = {**view, "vote": {k: v for k, v in view["vote"].items() if k != "nominees"}}
    assert render(view, "en").tobytes() != render(runoff, "en").tobytes()


def test_a_restart_mid_turn_resumes_the_same_speaker(table, clock, db_path):
    """The turns are kept with the pace (time left, [issue 16]): a hub that
    restarts during the third turn comes back on the third turn, the same
    speaker, with the time he had left and the restart's grace."""
    import random

    from companion.store import Store
    from companion.table import Table

    table.create(mh(discussion_turns=True))
    for _ in range(400):
        clock.t += 1
        table.tick()
        if table.pace.mode == "discussion":
            break
        p = pending(table.state)
        if p["kind"] in ("night", "wolves"):
            table.act_gm({"do": "timeout"})
    assert table.pace.turns
    for _ in range(2):
        table.timer("skip")
    clock.t += 3
    table.tick()
    speaker, left = table.pace.turns[table.pace.turn], table.pace.deadline - clock.t
    assert table.pace.turn == 2
    table.store.close()
    again = Table(Store(db_path), clock=clock, rng=random.Random(7))
    again.resume()
    assert again.pace.turns[again.pace.turn] == speaker and again.pace.turn == 2
    # the time left as last saved (at most SAVE_LEFT_S ago), plus the grace
    grace = again.settings.restart_grace_s
    assert left + grace <= again.pace.deadline - clock.t <= left + grace + SAVE_LEFT_S
    assert again.public()["pace"]["turns"]["seat"] == speaker


def test_the_election_after_the_turns_then_the_vote_at_once():
    """RULES.md §6 `election` after-discussion [003 l.26] with
    `discussion_turns`: day 1's turns come first, then the sheriff's
    election, then the execution vote with no second discussion."""
    state, pace, now = to_day(mh(sheriff=True, election="after-discussion",
                                 discussion_turns=True), kill=5)
    assert pace.mode == "discussion" and pace.turns and pending(state)["kind"] == "election"
    while pace.mode == "discussion":
        pace = pacing.timer(pace, "skip", 0, now)
        pace, _ = pacing.advance(state, pace, now, RULES)
    assert pace.mode == "ballot" and pending(state)["kind"] == "election"
    for voter in pending(state)["waiting"]:
        act(state, Action(voter, "vote", target=2), expect=state.acts)
    pace, _ = pacing.advance(state, pace, now, RULES)
    assert pending(state)["kind"] == "vote" and pace.mode == "ballot" and not pace.turns
