"""New Moon's event cards (RULES.md §10 [003]; companion/engine/event_cards.py,
new_moon.py): the option `events`, the deck shuffled with the game's seed,
the card turned at each dawn, the wolves' ally and the house events.

Each test names the rule it checks; each fails if that rule breaks.
"""

from __future__ import annotations

import pytest
from helpers import S, a, attack, choices, game, play, votes

from companion.engine import (
    SetupError,
    announcements,
    event_cards,
    new_game,
    night_calls,
    pending,
    public_view,
    rebuild,
    view_for,
)
from companion.engine.actions import Action
from companion.engine.play import play_random
from companion.engine.rules import act

MH = "millers-hollow"
# Ann, Bob werewolves; Cid seer; the rest villagers
T8 = ["werewolf", "werewolf", "seer", "villager", "villager", "villager", "villager", "villager"]
NIGHT1 = [a("Cid", "inspect", "Ann"), *attack("Hal", "Ann", "Bob")]
DAY1 = votes("Ann>Gus", "Bob>Gus", "Cid>Gus", "Dan>Gus", "Eve>Ann", "Fay>Gus", "Gus>Ann")


def opts(*events, **more) -> dict:
    return {"sheriff": False, "events": list(events), **more}


def turned(state) -> list[tuple[str, int]]:
    return [(e["card"], e["n"]) for e in state.log if e["e"] == "event"]


# --- the deck and the turn ---------------------------------------------------------

def test_the_card_turns_at_dawn_after_the_nights_deaths_before_the_vote_rules_10():
    """RULES.md §10 "When": at each day's dawn, after the night's deaths are
    announced and their triggers have run, before the vote; never at night."""
    state = game(MH, T8, [a("Cid", "inspect", "Ann")], options=opts("one-voice"))
    assert turned(state) == []  # night 1, mid-night: nothing turned
    state = game(MH, T8, NIGHT1, options=opts("one-voice"))
    kinds = [e["e"] for e in state.log]
    assert turned(state) == [("one-voice", 1)]
    assert kinds.index("died") < kinds.index("day") < kinds.index("event")
    assert state.step == "vote" and public_view(state)["event"]["card"] == "one-voice"
    assert [x["kind"] for x in announcements(state)][-2:] == ["dawn", "event"]


def test_an_empty_deck_turns_no_card_rules_10():
    """RULES.md §10: "An empty deck turns no card": one card, two days."""
    state = game(MH, T8, [*NIGHT1, *DAY1, a("Cid", "inspect", "Bob"),
                          *attack("Dan", "Ann", "Bob")], options=opts("one-voice"))
    assert state.now == "day 2" and turned(state) == [("one-voice", 1)]
    assert public_view(state)["event"]["today"] is False


def test_the_deck_is_shuffled_with_the_seed_and_a_replay_turns_the_same_cards_rules_10():
    """RULES.md §10: "shuffled with the game's seed": the same seed deals the
    same order (so a replay turns the same cards); the deck draws no chance of
    the game's own (old scripts replay unchanged)."""
    ids = list(event_cards.EVENTS)
    orders = {event_cards.deck({"events": ids}, seed) for seed in range(20)}
    assert len(orders) > 1  # shuffled, not the listed order
    assert event_cards.deck({"events": ids}, 5) == event_cards.deck({"events": ids}, 5)
    names = [f"P{i}" for i in range(10)]
    for seed in (1, 2, 3):
        import random
        state = new_game(MH, names, options={"events": ids}, seed=seed)
        play_random(state, random.Random(seed))
        again = rebuild(state.log)
        assert (again.winner, again.winners, again.deaths) == (
            state.winner, state.winners, state.deaths)
        assert turned(again) == turned(state)
        assert [c for c, _ in turned(state)] == list(state.cards[:len(turned(state))])


def test_events_are_refused_where_the_ruleset_plays_none_and_checked_rules_10():
    """RULES.md §2: `events` is for millers-hollow and bga (New Moon); an unknown
    id or a card listed twice is refused."""
    names = [f"P{i}" for i in range(8)]
    with pytest.raises(SetupError, match="no event cards"):
        new_game("jp-standard", names, options={"events": ["quiet-night"]})
    with pytest.raises(SetupError, match="unknown event"):
        new_game(MH, names, options={"events": ["full-moon"]})
    with pytest.raises(SetupError, match="twice"):
        new_game("bga", names, options={"events": ["one-voice", "one-voice"]})
    assert new_game("bga", names, options={"events": []}).cards == ()


# --- wolves-ally [003] ---------------------------------------------------------------

def test_the_first_dead_is_called_first_the_next_night_and_names_the_ally_rules_10():
    """RULES.md §10 wolves-ally [003]: on the next night, before every other
    call, the first player of the game to have died (Hal, night 1) is called —
    a dead player's phone gets a call — and names a living player; a non-wolf
    named is shown who the wolves are and is on the wolves' side."""
    state = game(MH, T8, [*NIGHT1, *DAY1], options=opts("wolves-ally"))
    assert night_calls(state)[:2] == ["first-dead", "ally"]
    assert (state.step, state.actor) == ("first-dead", S("Hal"))
    assert not state.alive[S("Hal")]
    assert view_for(state, S("Hal"))["actions"][0]["do"] == "name"
    assert pending(state)["timer"] == "night_s"  # a call like any other (§4)
    state = game(MH, T8, [*NIGHT1, *DAY1, a("Hal", "name", "Fay")], options=opts("wolves-ally"))
    fay = view_for(state, S("Fay"))
    assert fay["results"] == [{"kind": "ally", "wolves": [0, 1], "time": "night 2"}]
    assert fay["team"] == "werewolves" and fay["role"] == "villager"  # keeps his card
    assert state.step == "seer"  # then the night goes on as ever


WOLVES_WIN = [*NIGHT1, *DAY1, a("Hal", "name", "Fay"), a("Cid", "inspect", "Bob"),
              *attack("Dan", "Ann", "Bob"),
              *votes("Ann>Cid", "Bob>Cid", "Cid>Ann", "Eve>Cid", "Fay>Cid")]


def test_the_ally_wins_with_the_wolves_and_is_human_to_the_headcount_rules_10_7():
    """RULES.md §10: the ally "wins if and only if the werewolves win ... human
    to every check and in every headcount" (§7 parity: Ann, Bob vs Eve, Fay)."""
    out = play(MH, T8, WOLVES_WIN, options=opts("wolves-ally", wolves_win="parity"))
    assert out["status"] == 0, out.get("error")
    assert out["winner"] == "werewolves"
    assert sorted(out["winners"]) == ["Ann", "Bob", "Fay"]


def test_the_ally_loses_with_the_village_rules_10():
    """RULES.md §10: the ally wins iff the wolves win: the village's win is not his."""
    script = [*NIGHT1, *DAY1, a("Hal", "name", "Fay"), a("Cid", "inspect", "Bob"),
              *attack("Dan", "Ann", "Bob"),
              *votes("Ann>Cid", "Bob>Eve", "Cid>Ann", "Eve>Ann", "Fay>Ann"),
              a("Cid", "inspect", "Bob"), a("Bob", "attack", "Eve"),
              *votes("Bob>Cid", "Cid>Bob", "Fay>Bob")]
    out = play(MH, T8, script, options=opts("wolves-ally"))
    assert out["status"] == 0, out.get("error")
    assert out["winner"] == "village"
    assert "Fay" not in out["winners"] and "Cid" in out["winners"]


def _views(state, skip: set[int]) -> list:
    return [public_view(state), announcements(state), pending(state), night_calls(state)] + [
        {k: v for k, v in view_for(state, s).items()} for s in range(state.size)
        if s not in skip]


def test_a_wolf_named_changes_nothing_and_leaks_nothing_rules_10_decision():
    """RULES.md §10 Decision: "the named player being a wolf changes nothing,
    and nobody is told (the call lasts its window either way; the dead player
    learns nothing)": naming Ann (a wolf) or Fay (a villager), every seat but
    the two named, and the table, see the same, step by step; Ann gets no
    result and stays a wolf."""
    base = [*NIGHT1, *DAY1]
    rest = [a("Cid", "inspect", "Bob"), *attack("Dan", "Ann", "Bob")]
    wolf = game(MH, T8, [*base, a("Hal", "name", "Ann")], options=opts("wolves-ally"))
    fay = game(MH, T8, [*base, a("Hal", "name", "Fay")], options=opts("wolves-ally"))
    assert wolf.ally is None and fay.ally == S("Fay")
    skip = {S("Ann"), S("Fay")}
    assert _views(wolf, skip) == _views(fay, skip)
    assert view_for(wolf, S("Ann"))["results"] == []
    for x in rest:
        act(wolf, Action(S(x["actor"]), x["do"], S(x["target"])))
        act(fay, Action(S(x["actor"]), x["do"], S(x["target"])))
        assert _views(wolf, skip) == _views(fay, skip)


def test_nobody_dead_yet_the_event_does_nothing_but_its_calls_are_made_rules_10():
    """RULES.md §10 Decision: "If nobody has died yet, the event does nothing";
    the calls are still in the night's order (the night's length says nothing)."""
    night = [a("Cid", "inspect", "Ann"), *attack("Hal", "Ann", "Bob"),
             ]
    state = game(MH, ["werewolf", "werewolf", "seer", "witch", *["villager"] * 4],
                 [a("Cid", "inspect", "Ann"), *attack("Hal", "Ann", "Bob"),
                  a("Dan", "potion", heal=True, poison=None),
                  *votes("Ann>Gus", "Bob>Gus", "Cid>Ann", "Dan>Ann", "Eve>Ann", "Fay>Gus",
                         "Gus>Ann", "Hal>Gus")], options=opts("wolves-ally", tie="none"))
    del night
    assert state.deaths == [] and state.now == "night 2"
    assert night_calls(state)[:2] == ["first-dead", "ally"]
    assert state.step == "seer"  # the engine passes the first dead's step over


def test_the_first_deads_timeout_names_nobody_rules_10_decision():
    """RULES.md §10 Decision: "The call's timeout names nobody"."""
    state = game(MH, T8, [*NIGHT1, *DAY1, a(None, "timeout")], options=opts("wolves-ally"))
    assert state.ally is None and state.step == "seer"


@pytest.mark.parametrize("solo", ["fox", "piper"])
def test_a_solo_card_named_keeps_his_goal_and_nobody_is_told_rules_10_decision(solo):
    """RULES.md §10 Decision: "the fox or the piper named keeps his solo goal
    (the event does nothing to him, and nobody is told)" (the fox is not
    in millers-hollow: the piper is; the rule is the hook's, tried on both)."""
    from companion.engine import new_moon
    assert solo in new_moon.SOLO
    if solo == "piper":
        deal = [*T8[:-1], "piper"]
        state = game(MH, deal, [*NIGHT1[:1], *attack("Gus", "Ann", "Bob"),
                                a("Hal", "charm", targets=["Cid", "Dan"]),
                                *votes("Ann>Eve", "Bob>Eve", "Cid>Eve", "Dan>Eve", "Eve>Ann",
                                       "Fay>Eve", "Hal>Ann"),
                                a("Gus", "name", "Hal")], options=opts("wolves-ally"))
        assert state.ally is None and view_for(state, S("Hal"))["team"] == "piper"


# --- the house events -----------------------------------------------------------------

def test_quiet_night_the_wolves_do_not_attack_but_are_called_rules_10_house():
    """RULES.md §10 quiet-night: the next night the wolves do not attack
    (their call is still made for its whole window)."""
    state = game(MH, [*T8[:-1], "defender"], [
        a("Hal", "protect", "Cid"), *NIGHT1[:1], *attack("Gus", "Ann", "Bob"),
        *votes("Ann>Fay", "Bob>Fay", "Cid>Fay", "Dan>Fay", "Eve>Ann", "Fay>Ann", "Hal>Fay")],
        options=opts("quiet-night"))
    assert state.now == "night 2"
    assert "wolves" in night_calls(state) and "defender" not in night_calls(state)
    act(state, Action(S("Cid"), "inspect", S("Bob")))
    assert state.now == "day 2" and [d[2] for d in state.deaths] == ["night 1", "day 1"]


def test_quiet_night_stops_the_packs_attack_only_rules_10_r5():
    """RULES.md §10 quiet-night, Decision (r5): it stops the pack's attack
    only: the white werewolf still devours on his night (night 2), and the
    little girl, with no attack to spy on, is not offered `spy` (so cannot
    be caught); the wolves' call is still made."""
    deal = ["werewolf", "white-werewolf", "little-girl", *["villager"] * 5]
    night1 = [a("Cid", "pass"), *attack("Hal", "Ann", "Bob")]
    day1 = votes("Ann>Gus", "Bob>Gus", "Cid>Gus", "Dan>Gus", "Eve>Gus", "Fay>Gus", "Gus>Ann")
    state = game(MH, deal, [*night1, *day1], options=opts())
    assert (state.now, state.step) == ("night 2", "wolves")  # without the card: she may spy
    assert "spy" in choices(state, "Cid") and "attack" in choices(state, "Ann")
    state = game(MH, deal, [*night1, *day1], options=opts("quiet-night"))
    assert "wolves" in night_calls(state)  # the pack is still called, for its window
    assert (state.now, state.step) == ("night 2", "white-werewolf")  # no attack to open
    assert "spy" not in choices(state, "Cid") and "attack" not in choices(state, "Ann")
    assert set(choices(state, "Bob")) == {"devour", "pass"}


def test_two_executions_the_second_vote_after_the_firsts_triggers_rules_10_house():
    """RULES.md §10 two-executions: the day holds two execution votes, the
    second after the first's triggers."""
    deal = ["werewolf", "werewolf", "seer", "hunter", *["villager"] * 4]
    script = [*NIGHT1, *votes("Ann>Dan", "Bob>Dan", "Cid>Dan", "Dan>Ann", "Eve>Dan",
                              "Fay>Dan", "Gus>Dan")]
    state = game(MH, deal, script, options=opts("two-executions"))
    assert state.step == "hunter"  # the first execution's trigger first
    state = game(MH, deal, [*script, a("Dan", "shoot", "Ann")], options=opts("two-executions"))
    assert (state.now, state.step, state.round) == ("day 1", "vote", 1)
    state = game(MH, deal, [*script, a("Dan", "shoot", "Ann"),
                            *votes("Bob>Cid", "Cid>Bob", "Eve>Bob", "Fay>Bob", "Gus>Bob")],
                 options=opts("two-executions"))
    assert state.phase == "over" and state.winner == "village"


def test_one_voice_the_sheriffs_ballot_counts_once_today_rules_10_house():
    """RULES.md §10 one-voice: today the sheriff's ballot counts once (§6: twice)."""
    elect = votes("Ann>Cid", "Bob>Cid", "Cid>Cid", "Dan>Cid", "Eve>Cid", "Fay>Cid", "Gus>Cid")
    ballots = votes("Ann>Dan", "Bob>Dan", "Cid>Ann", "Dan>Eve", "Eve>Ann", "Fay>Dan", "Gus>Ann")
    for events, weight in ((["one-voice"], 1), ([], 2)):
        state = game(MH, T8, [*NIGHT1, *elect, *ballots],
                     options={"events": events})
        tally = [e for e in state.log if e["e"] == "tally" and e["step"] == "vote"][0]
        assert {b["voter"]: b["weight"] for b in tally["ballots"]}[S("Cid")] == weight


def test_open_ballots_are_shown_named_as_cast_rules_10_house():
    """RULES.md §10 open-ballots: today's execution ballots are shown, named,
    as they are cast (without the card: who voted, not for whom)."""
    for events, shown in ((["open-ballots"], {"0": 6}), ([], None)):
        state = game(MH, T8, [*NIGHT1, a("Ann", "vote", "Gus")], options=opts(*events))
        assert public_view(state)["vote"].get("open") == shown


def test_no_discussion_the_vote_opens_at_dawn_rules_10_house():
    """RULES.md §10 no-discussion: the vote opens at dawn, without the
    discussion (pending's timer is the ballot's, not discussion_s)."""
    assert pending(game(MH, T8, NIGHT1, options=opts("no-discussion")))["timer"] is None
    assert pending(game(MH, T8, NIGHT1, options=opts()))["timer"] == "discussion_s"


# --- text-only events -------------------------------------------------------------------

TEXT = {"title": {"en": "Harvest fair", "ja": "収穫祭"},
        "text": {"en": "Everyone stands up to vote.", "ja": "全員立って投票します。"}}


def test_a_text_only_event_is_turned_shown_and_changes_no_rule_rules_10():
    """RULES.md §10 text-only events: turned over and shown like the others,
    with their title and text; they change no rule."""
    state = game(MH, T8, NIGHT1, options=opts(TEXT))
    shown = public_view(state)["event"]
    assert (shown["card"], shown["source"], shown["title"]["ja"]) == ("text-1", "text", "収穫祭")
    plain = game(MH, T8, NIGHT1, options=opts())
    assert pending(state)["timer"] == pending(plain)["timer"] and state.step == plain.step


@pytest.mark.parametrize("bad,why", [
    ({"title": {"en": "A"}, "text": {"ja": "B"}}, "same languages"),
    ({"title": {"fr": "A"}, "text": {"fr": "B"}}, "unknown language"),
    ({"title": {"en": "A\u200bB"}, "text": {"en": "B"}}, "invisible"),
    ({"title": {"en": "\u202eA"}, "text": {"en": "B"}}, "invisible"),
    ({"title": {"en": "A" * 41}, "text": {"en": "B"}}, "at most 40"),
    ({"title": {"en": "A"}, "text": {"en": " "}}, "empty"),
    ({"title": {"en": "A"}, "text": {"en": "B"}, "n": 1}, "nothing else"),
    # [issue 41 item 8] a pile of combining marks on one letter (it overflowed the
    # TV's and the tablet's cards and widened a phone's page to 836 px)
    ({"title": {"en": "A"}, "text": {"en": "Z" + "\u0301\u0316\u0350" * 79}},
     "more than 3 combining marks on one letter"),
    ({"title": {"en": "A\u0e34\u0e34\u0e34\u0e34"}, "text": {"en": "B"}}, "combining marks"),
])
def test_text_only_events_are_checked_like_names_rules_10(bad, why):
    """RULES.md §10 text-only events: a title and a text in each language given
    (en, ja, zh_Hant), of bounded length, without the invisible or
    direction-changing characters a player's name refuses (player_names.py)."""
    with pytest.raises(SetupError, match=why):
        new_game(MH, [f"P{i}" for i in range(8)], options={"events": [bad]})


def test_the_event_cards_languages_are_the_words():
    """event_cards.LANGS copies the words' LANGUAGES (the engine may not import the words)."""
    from companion.words import LANGUAGES
    assert event_cards.LANGS == set(LANGUAGES)


@pytest.mark.parametrize("words", ["\u0301\u0316", " \u0301 "])
def test_an_event_text_of_marks_alone_is_empty_issue_45(words):
    """[issue 45] a title or text that draws nothing is refused as a blank one
    is (characters.blank, as a replay's name): combining marks on no letter."""
    with pytest.raises(SetupError, match="is empty"):
        new_game(MH, [f"P{i}" for i in range(8)], options={"events": [
            {"title": {"en": "A"}, "text": {"en": words}}]})


def test_two_executions_end_with_a_vote_of_no_ballots_rules_6_decision():
    """RULES.md §6 Decision (no ballots): a vote in which nobody casts a
    ballot "executes nobody and ends the day's voting" — on a two-executions
    day (§10) too: no second vote, night falls. A vote with ballots still
    brings the second (the test above)."""
    deal = ["werewolf", "werewolf", "seer", "hunter", *["villager"] * 4]
    state = game(MH, deal, NIGHT1, options=opts("two-executions", vote_timeout="abstain"))
    assert (state.now, state.step) == ("day 1", "vote")
    act(state, Action(None, "timeout"))  # every ballot missing
    assert state.now == "night 2" and state.alive.count(True) == 7
    resolve = [e for e in state.log if e["e"] == "resolve"][-1]
    assert resolve.get("ends_day") is True


@pytest.mark.parametrize("words", ["Adébáyọ̀ wins", "กี่ครั้ง", "བསྒྲུབས", "सुनील",
                                   "שָׁלוֹם", "Zoë et José"])
def test_a_scripts_own_marks_pass_in_an_event_text(words):
    """[issue 41 item 8] the limit refuses piles, not spelling: Yoruba, Thai's
    vowel and tone, Tibetan's stacked letters, Devanagari, Hebrew's points."""
    state = new_game(MH, [f"P{i}" for i in range(8)], options={"events": [
        {"title": {"en": "A"}, "text": {"en": words}}]})
    assert state is not None


# --- what nothing tested (mutation testing of this round, [issue 44 item 9]) -----------

CUPID8 = ["werewolf", "werewolf", "seer", "cupid", "villager", "villager", "villager",
          "villager"]


def test_an_ally_who_is_a_mixed_lover_keeps_the_lovers_goal_rules_10_decision():
    """RULES.md §10 Decision: "an ally who is a lover in a mixed pair keeps the
    lovers' goal (§7)": Dan (cupid) links Ann (a wolf) and Fay; Fay named by
    the first dead is still on the lovers' side, never the wolves'."""
    night1 = [a("Dan", "link", targets=["Ann", "Fay"]), a("Cid", "inspect", "Bob"),
              *attack("Hal", "Ann", "Bob")]
    day1 = votes("Ann>Gus", "Bob>Gus", "Cid>Gus", "Dan>Gus", "Eve>Gus", "Fay>Gus", "Gus>Ann")
    state = game(MH, CUPID8, [*night1, *day1, a("Hal", "name", "Fay")],
                 options=opts("wolves-ally"))
    from companion.engine import side_of
    assert state.ally == S("Fay") and view_for(state, S("Fay"))["team"] == "lovers"
    assert side_of(state, S("Fay")) == "lovers" and side_of(state, S("Ann")) == "lovers"


def test_the_first_deads_pass_names_nobody_and_the_call_goes_on_rules_10():
    """RULES.md §10 wolves-ally: the first dead may name nobody; his pass is
    not a naming: no ally, nobody shown the wolves, the night goes on."""
    state = game(MH, T8, [*NIGHT1, *DAY1], options=opts("wolves-ally"))
    dos = [c["do"] for c in view_for(state, S("Hal"))["actions"]]
    if "pass" not in dos:
        pytest.skip("the first dead's call offers no pass (its timeout names nobody)")
    state = game(MH, T8, [*NIGHT1, *DAY1, a("Hal", "pass")], options=opts("wolves-ally"))
    assert state.ally is None and state.step == "seer"
    assert all(r["kind"] != "ally" for s in range(8) for r in view_for(state, s)["results"])


def test_a_text_event_with_a_newline_and_a_40_character_title_is_kept_whole_rules_10():
    """RULES.md §10 text-only events: a title of exactly 40 characters is
    taken (41 is refused, above), and a text's newline is kept as written."""
    own = {"title": {"en": "T" * 40}, "text": {"en": "First line.\nSecond line."}}
    state = game(MH, T8, NIGHT1, options=opts(own))
    shown = public_view(state)["event"]
    assert shown["title"]["en"] == "T" * 40 and shown["text"]["en"] == "First line.\nSecond line."


def test_a_text_only_card_then_an_unknown_id_is_refused_rules_10():
    """RULES.md §10 option `events`: an unknown id is refused wherever it
    stands, after a text-only card too."""
    own = {"title": {"en": "Fog"}, "text": {"en": "No talking."}}
    with pytest.raises(SetupError, match="no-such-card|unknown"):
        new_game(MH, [f"P{i}" for i in range(8)], options={"events": [own, "no-such-card"]})
