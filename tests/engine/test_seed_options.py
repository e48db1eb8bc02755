"""Issue 34: the seeds' table variants as options, and the Decisions that go
with them (RULES.md §2, §4, §5 witch, §6, §9), each test citing its rule and
its seed line. The announcements' words are in tests/words/test_seed_words.py.
"""

from __future__ import annotations

import pytest
from helpers import NAMES, S, a, attack, bitten_fox_and_guarded, choices, game, votes

from companion.engine import (
    RULESETS,
    Action,
    IllegalAction,
    act,
    announcements,
    discussion_order,
    night_ready,
    pending,
    public_view,
    ready_window,
    rebuild,
    step_label,
)
from companion.engine.rulesets import LEGACY_OPTIONS, lobby_options

MH = "millers-hollow"
T8 = ["werewolf", "werewolf", "seer", "villager", "villager", "villager", "villager", "villager"]
NIGHT1 = [a("Cid", "inspect", "Ann"), *attack("Hal", "Ann", "Bob")]  # Hal dies
CANDIDATES = {"sheriff": False, "vote_mode": "candidates"}


def tallies(state) -> list[dict]:
    return [e for e in state.log if e["e"] == "tally"]


# --- the options as data (RULES.md §2) -------------------------------------------

def test_the_presets_set_each_new_option_from_its_seed_rules_2():
    """RULES.md §2: bga announces the witch's potions [000 l.49
    「癒しの薬、毒薬使用時は翌朝公表される。」]; jp-standard's night 1 ends once
    all are ready [004 l.86–87]; every other new option is off (or its
    default) in every preset: one `turn_s` of 45 s (§6)."""
    for name, preset in RULESETS.items():
        opts = preset["options"]
        assert opts["announce_potions"] is (name == "bga")
        assert opts["ready_ends_night"] is (name == "jp-standard")
        assert (opts["witch_single_potion"], opts["election"], opts["discussion_turns"],
                opts["vote_mode"], opts["turn_s"]) == (
            False, "before-discussion", False, "plurality", 45)


def test_the_lobby_offers_each_option_only_where_it_belongs_rules_2():
    """The lobby (OPTION_CONCERNS): the witch's options where a witch can be
    dealt, the election's timing where a sheriff is elected, the ready button
    in jp-standard's one night window (RULES.md §4, §5, §6)."""
    jp, mh = lobby_options("jp-standard"), lobby_options(MH)
    assert {"witch_single_potion", "announce_potions", "election"} <= set(mh)
    assert not {"witch_single_potion", "announce_potions", "election"} & set(jp)
    assert "ready_ends_night" in jp and "ready_ends_night" not in mh
    for opt in ("discussion_turns", "vote_mode", "turn_s"):
        assert opt in jp and opt in mh


@pytest.mark.parametrize("ruleset", ["bga", "jp-standard"])
def test_a_stored_game_without_the_new_options_plays_as_before(ruleset):
    """Old games keep their behaviour: a log whose setup predates the options
    rebuilds with today's (LEGACY_OPTIONS), not the preset's new defaults:
    an old bga game announces no potions, an old jp-standard game has no
    ready button."""
    state = game(ruleset, T8 if ruleset == "bga" else
                 ["werewolf", "werewolf", "seer", "madman", "villager", "villager", "villager",
                  "villager"], [])
    log = [dict(e) for e in state.log]
    log[0]["options"] = {k: v for k, v in log[0]["options"].items() if k not in LEGACY_OPTIONS}
    old = rebuild(log)
    for key, value in LEGACY_OPTIONS.items():
        assert old.opts[key] == value
    assert not old.opts["announce_potions"] and not ready_window(old)
    if ruleset == "jp-standard":
        assert ready_window(state)  # a new one has it [004]


# --- vote_mode=candidates (RULES.md §6 [003] variant) ------------------------------

ROUND1 = votes("Ann>Dan", "Bob>Dan", "Cid>Eve", "Dan>Eve", "Eve>Fay", "Fay>Gus", "Gus>Ann")


def test_the_first_round_names_two_candidates_and_only_the_others_vote_rules_6_003():
    """RULES.md §6 `vote_mode=candidates` [003 variant
    「最高票…的兩位…玩家成為“候選人”…其他未成為候選人的玩家再次進行表決」]: Dan and Eve
    (2 votes each) become the candidates; the first round is no tie; only
    the five others vote, among the two; the most votes is executed."""
    state = game(MH, T8, NIGHT1 + ROUND1, CANDIDATES)
    first = tallies(state)[-1]
    assert first["nominees"] == [S("Dan"), S("Eve")] and "tie" not in first
    assert state.ties == []
    p = pending(state)
    assert (p["step"], p["round"], p["candidates"]) == ("vote", 2, [S("Dan"), S("Eve")])
    assert p["nominees"] == p["defence"] == p["turns"] == [S("Dan"), S("Eve")]
    assert p["timer"] == "turn_s"  # each candidate's defence, then the ballots
    assert p["waiting"] == [S(n) for n in ("Ann", "Bob", "Cid", "Fay", "Gus")]
    assert choices(state, "Dan") == {} and choices(state, "Eve") == {}
    assert choices(state, "Ann")["vote"].targets == (S("Dan"), S("Eve"))
    assert step_label(state) == "day 1 candidates"
    assert public_view(state)["vote"]["nominees"] == [S("Dan"), S("Eve")]
    with pytest.raises(IllegalAction):
        act(state, Action(S("Dan"), "vote", target=S("Eve")))
    for v, t in (("Ann", "Eve"), ("Bob", "Dan"), ("Cid", "Dan"), ("Fay", "Eve"), ("Gus", "Dan")):
        act(state, Action(S(v), "vote", target=S(t)))
    assert (S("Dan"), "execution", "day 1") in state.deaths and state.phase == "night"


@pytest.mark.parametrize("ballots,named", [
    # one first, two tied for second: three candidates
    (("Ann>Dan", "Bob>Dan", "Cid>Dan", "Dan>Eve", "Eve>Fay", "Fay>Eve", "Gus>Fay"),
     ("Dan", "Eve", "Fay")),
    # three tied for first: all three
    (("Ann>Dan", "Bob>Eve", "Cid>Fay", "Dan>Eve", "Eve>Fay", "Fay>Dan", "Gus>Ann"),
     ("Dan", "Eve", "Fay")),
    # a clear first and second: two
    (("Ann>Dan", "Bob>Dan", "Cid>Dan", "Dan>Eve", "Eve>Dan", "Fay>Eve", "Gus>Ann"),
     ("Dan", "Eve")),
])
def test_candidates_are_the_two_most_voted_more_if_tied_for_second_rules_6_003(ballots, named):
    """RULES.md §6 [003]: 「最高票…的兩位（如果平手則可能是兩位以上）玩家成為“候選人”」."""
    state = game(MH, T8, NIGHT1 + votes(*ballots), CANDIDATES)
    assert tallies(state)[-1]["nominees"] == [S(n) for n in named]


def test_only_a_player_who_received_a_ballot_is_a_candidate_rules_6_decision():
    """RULES.md §6 Decision: "only a player who received a ballot can be a
    candidate": one ballot, then the timeout closes the round (abstentions):
    Dan is the only candidate; everyone else votes in the second round."""
    state = game(MH, T8, NIGHT1 + votes("Ann>Dan") + [a(None, "timeout")], CANDIDATES)
    assert tallies(state)[-1]["nominees"] == [S("Dan")]
    assert pending(state)["waiting"] == [S(n) for n in ("Ann", "Bob", "Cid", "Eve", "Fay",
                                                          "Gus")]


def test_the_rumormongers_votes_alone_make_no_candidate_rules_6_decision():
    """RULES.md §6 Decision (only a player who received a ballot) with §8's
    rumormonger: his two posted votes count in the first round, yet Fay,
    named by no ballot, is no candidate though she has as many as Dan."""
    deal = [*T8[:6], "rumormonger", "villager"]
    night = [a("Cid", "inspect", "Ann"), a("Gus", "post", "Fay"), *attack("Hal", "Ann", "Bob")]
    state = game(MH, deal, night + votes("Ann>Dan", "Bob>Dan", "Cid>Eve") +
                 [a(None, "timeout")], CANDIDATES)
    first = tallies(state)[-1]
    assert first["counts"][str(S("Fay"))] == 2 == first["counts"][str(S("Dan"))]
    assert first["nominees"] == [S("Dan"), S("Eve")]


def test_the_first_round_is_never_a_tie_even_with_a_scapegoat_rules_6_decision():
    """RULES.md §6 Decision: "the first round is never a tie (no scapegoat, no
    runoff…)": Dan and Eve tied at the top become the candidates, the
    scapegoat lives; a tie in the second round kills him (§5 scapegoat)."""
    deal = [*T8[:6], "scapegoat", "villager"]
    state = game(MH, deal, NIGHT1 + ROUND1, CANDIDATES)
    assert state.alive[S("Gus")] and state.step == "vote" and state.round == 2
    for v, t in (("Ann", "Dan"), ("Bob", "Eve"), ("Cid", "Dan"), ("Fay", "Eve")):
        act(state, Action(S(v), "vote", target=S(t)))
    act(state, Action(None, "timeout"))  # Gus abstains: Dan 2, Eve 2
    assert (S("Gus"), "scapegoat", "day 1") in state.deaths


def test_the_sheriff_counts_two_in_both_rounds_rules_6_decision():
    """RULES.md §6 Decision: "the sheriff's weight applies in both rounds";
    the timeout closes a round: Cid (sheriff) names Dan (2) against Eve's one
    and Fay's one in the candidates' round, so Dan alone is executed."""
    elect = votes("Ann>Cid", "Bob>Cid", "Cid>Dan", "Dan>Cid", "Eve>Cid", "Fay>Cid", "Gus>Cid")
    first = votes("Cid>Dan", "Ann>Eve", "Bob>Eve", "Dan>Fay", "Eve>Fay", "Fay>Gus", "Gus>Ann")
    state = game(MH, T8, NIGHT1 + elect + first, {"vote_mode": "candidates"})
    t1 = tallies(state)[-1]
    assert state.sheriff == S("Cid") and t1["counts"][str(S("Dan"))] == 2
    assert t1["nominees"] == [S("Dan"), S("Eve"), S("Fay")]
    for v, t in (("Cid", "Dan"), ("Ann", "Eve"), ("Bob", "Fay")):
        act(state, Action(S(v), "vote", target=S(t)))
    act(state, Action(None, "timeout"))
    t2 = tallies(state)[-1]
    assert t2["round"] == 2 and t2["counts"] == {str(S("Dan")): 2, str(S("Eve")): 1,
                                                  str(S("Fay")): 1}
    assert (S("Dan"), "execution", "day 1") in state.deaths


def test_lovers_may_not_vote_for_each_other_in_either_round_rules_6_decision():
    """RULES.md §6 Decision: "lovers may not vote for each other in either"
    round (§5 Cupid [000][003]): Dan, whose lover Fay is a candidate, may
    name only Eve in the candidates' round."""
    deal = [*T8[:6], "cupid", "villager"]
    night = [a("Gus", "link", targets=["Dan", "Fay"]), *NIGHT1]
    first = votes("Ann>Fay", "Bob>Fay", "Cid>Eve", "Dan>Eve", "Eve>Ann", "Fay>Gus", "Gus>Cid")
    state = game(MH, deal, night + first, CANDIDATES)
    assert tallies(state)[-1]["nominees"] == [S("Eve"), S("Fay")]
    assert choices(state, "Dan")["vote"].targets == (S("Eve"),)
    with pytest.raises(IllegalAction):
        act(state, Action(S("Dan"), "vote", target=S("Fay")))


def test_a_tie_among_the_candidates_goes_to_runoffs_the_others_voting_rules_6_decision():
    """RULES.md §6 Decision: "runoffs after a tie are among the tied, the
    non-candidates voting", by `tie` (bga: one runoff [000]): the runoff is
    among Dan and Eve, the candidates still may not vote; tied again: nobody."""
    opts = {**CANDIDATES, "vote_timeout": "abstain"}
    state = game("bga", T8, NIGHT1 + ROUND1 + votes("Ann>Dan", "Bob>Eve", "Cid>Dan", "Fay>Eve")
                 + [a(None, "timeout")], opts)
    p = pending(state)
    assert (p["round"], p["candidates"], p["nominees"], p["defence"]) == (
        3, [S("Dan"), S("Eve")], [S("Dan"), S("Eve")], None)
    assert p["timer"] == "extra_discussion_s" and step_label(state) == "day 1 runoff 1"
    assert S("Dan") not in p["waiting"] and S("Eve") not in p["waiting"]
    for v, t in (("Ann", "Dan"), ("Bob", "Eve"), ("Cid", "Dan"), ("Fay", "Eve")):
        act(state, Action(S(v), "vote", target=S(t)))
    act(state, Action(None, "timeout"))
    assert state.phase == "night" and state.alive[S("Dan")] and state.alive[S("Eve")]
    assert len([t for t in tallies(state) if t.get("tie")]) == 2


def test_the_first_round_does_not_count_for_runoff_draw_rules_6_decision():
    """RULES.md §6 Decision: the first round is "not one of `runoff-draw`'s
    three" [004]: in half power play (2 of 4 are wolf or madman) the draw
    comes after the third tied runoff round (rounds 2, 3 and 4), not earlier."""
    deal = ["werewolf", "madman", "villager", "villager"]
    opts = {"vote_mode": "candidates"}
    first = votes("Ann>Cid", "Bob>Dan", "Cid>Dan", "Dan>Cid")  # Cid 2, Dan 2: candidates
    tie = votes("Ann>Cid", "Bob>Dan")
    state = game("jp-standard", deal, first + tie + tie, opts)
    assert state.phase == "day" and state.round == 4 and len(state.ties) == 2
    act(state, Action(S("Ann"), "vote", target=S("Cid")))
    act(state, Action(S("Bob"), "vote", target=S("Dan")))
    assert state.winner == "draw"


def test_a_first_round_with_no_ballots_executes_nobody_rules_6_decision():
    """RULES.md §6 Decision (no ballots): no candidates, nobody, night falls."""
    state = game(MH, T8, NIGHT1 + [a(None, "timeout")], CANDIDATES)
    assert state.phase == "night" and "nominees" not in tallies(state)[-1]


# --- election=after-discussion and discussion_turns (RULES.md §6) ------------------

ELECT = votes("Ann>Cid", "Bob>Cid", "Cid>Dan", "Dan>Cid", "Eve>Cid", "Fay>Cid", "Gus>Cid")


@pytest.mark.parametrize("when", ["before-discussion", "after-discussion"])
def test_the_day_1_election_before_or_after_the_discussion_rules_6_003(when):
    """RULES.md §6 option `election` [003 l.26
    「我們是在第壹天大家各自發表意見之後，先選舉村長」]: after the discussion, the
    election holds day 1's discussion and the first execution vote follows
    it with no second one; before (today's default), the vote keeps its
    discussion. Either way the election comes before the first execution vote."""
    state = game(MH, T8, NIGHT1, {"election": when})
    assert pending(state)["step"] == "election" and pending(state)["timer"] == "discussion_s"
    for raw in ELECT:
        act(state, Action(S(raw["actor"]), "vote", target=S(raw["target"])))
    p = pending(state)
    assert (p["step"], p["round"], state.sheriff) == ("vote", 1, S("Cid"))
    assert p["timer"] == ("discussion_s" if when == "before-discussion" else None)


@pytest.mark.parametrize("when,turns_at", [("before-discussion", "vote"),
                                           ("after-discussion", "election")])
def test_discussion_turns_run_where_the_discussion_is_rules_6_003(when, turns_at):
    """RULES.md §6 option `discussion_turns` [003 variant]: the day's
    discussion is held as turns (each `turn_s`) before the step that follows
    it: the execution vote, or the election when it comes after the discussion."""
    state = game(MH, T8, NIGHT1, {"election": when, "discussion_turns": True})
    order = [S(n) for n in ("Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus")]
    p = pending(state)
    assert p["turns"] == (order if turns_at == "election" else None)
    for raw in ELECT:
        act(state, Action(S(raw["actor"]), "vote", target=S(raw["target"])))
    p = pending(state)
    assert p["turns"] == (order if turns_at == "vote" else None)
    assert p["timer"] == ("turn_s" if turns_at == "vote" else None)


def test_the_turns_start_left_of_the_nights_victim_rules_6_003():
    """RULES.md §6 [003] 「從剛才天黑時被殺的玩家左手邊的玩家開始，按照順時針方向」;
    §1: a seat's left is the next seat clockwise: Dan dies, Eve speaks first."""
    state = game(MH, T8, [a("Cid", "inspect", "Ann"), *attack("Dan", "Ann", "Bob")],
                 {"sheriff": False})
    assert discussion_order(state) == [S(n) for n in ("Eve", "Fay", "Gus", "Hal", "Ann",
                                                         "Bob", "Cid")]


def test_the_first_victim_is_the_first_announced_not_the_wolves_rules_6_decision():
    """Leak-free (issue 34): the wolves kill Gus, the witch poisons Dan; the
    dawn names them in seat order (RULES.md §6), so the turns start left of
    Dan, never telling which death was the wolves'."""
    deal = ["werewolf", "werewolf", "seer", "villager", "witch", "villager", "villager",
            "villager"]
    night = [a("Cid", "inspect", "Ann"), *attack("Gus", "Ann", "Bob"),
             a("Eve", "potion", heal=False, poison="Dan")]
    state = game(MH, deal, night, {"sheriff": False})
    assert [s for s, _, _ in state.deaths] == [S("Gus"), S("Dan")]  # resolved: wolves first
    assert discussion_order(state)[0] == S("Eve")


def test_a_hunters_night_shot_never_starts_the_turns_rules_6_issue_44():
    """RULES.md §6 [003] the turns start left of the night's victim [issue 44
    item 9]: the wolves kill Eve, the hunter, who shoots Bob as she dies; the
    dawn's victim is Eve (her shot is public and told after), so Fay speaks
    first, not Cid. Had the night's only recorded death been the shot, the
    turns would start left of the shot (the docstring's fallback)."""
    deal = ["werewolf", "werewolf", "seer", "villager", "hunter", "villager", "villager",
            "villager"]
    state = game(MH, deal, [a("Cid", "inspect", "Ann"), *attack("Eve", "Ann", "Bob"),
                            a("Eve", "shoot", "Bob")], {"sheriff": False})
    assert state.deaths == [(S("Eve"), "werewolves", "night 1"), (S("Bob"), "hunter", "night 1")]
    assert discussion_order(state) == [S(n) for n in ("Fay", "Gus", "Hal", "Ann", "Cid",
                                                         "Dan")]
    state.deaths = [(S("Bob"), "hunter", "night 1")]
    assert discussion_order(state)[0] == S("Cid")

def test_no_victim_from_the_sheriffs_left_else_seat_1_rules_6_decision():
    """RULES.md §6 Decision: with no victim, from the sheriff's left, else
    from seat 1 (the first living seat after it)."""
    peaceful = [a("Cid", "inspect", "Ann"), a(None, "timeout")]  # the wolves never pick
    state = game(MH, T8, peaceful, {"sheriff": False})
    assert state.deaths == [] and discussion_order(state) == list(range(8))
    # Ann executed on day 1, a peaceful night 2: seat 1 is dead, Bob starts
    day1 = votes("Bob>Ann", "Cid>Ann", "Dan>Ann", "Eve>Ann", "Fay>Ann", "Gus>Ann", "Hal>Ann",
                 "Ann>Bob")
    state = game(MH, T8, peaceful + day1 + [a("Cid", "inspect", "Bob"), a(None, "timeout")],
                 {"sheriff": False})
    assert state.phase == "day" and state.n == 2
    assert discussion_order(state)[0] == S("Bob")
    # with a sheriff (Cid), from his left: Dan
    elect = votes("Ann>Cid", "Bob>Cid", "Cid>Dan", "Dan>Cid", "Eve>Cid", "Fay>Cid", "Gus>Cid",
                  "Hal>Cid")
    day1 = votes("Bob>Ann", "Cid>Ann", "Dan>Ann", "Eve>Ann", "Fay>Ann", "Gus>Ann", "Hal>Ann",
                 "Ann>Bob")
    state = game(MH, T8, peaceful + elect + day1 + [a("Cid", "inspect", "Bob"),
                                                     a(None, "timeout")])
    assert state.sheriff == S("Cid") and discussion_order(state)[0] == S("Dan")


# --- ready_ends_night (RULES.md §4 [004]) ----------------------------------------

JP8 = ["werewolf", "werewolf", "seer", "madman", "medium", "villager", "villager", "villager"]


def test_night_1_ends_once_everyone_is_ready_rules_4_004_r5():
    """RULES.md §4 `ready_ends_night` [004 l.86–87 「参戦者全員の準備が完了次第、
    Bに移ります」] and its Decision r5: jp-standard's night-1 window may end
    once every living player is ready — the seer too, whether she has acted
    or not (her Ready passes: the end never waits on an action) [issue 40];
    not on night 2, not without the option."""
    state = game("jp-standard", JP8, [])
    everyone = set(range(8))
    assert ready_window(state) and pending(state)["ready"]
    assert night_ready(state, everyone)  # the seer has not acted: her Ready passes
    assert night_ready(state, everyone - {S("Cid")}) is False
    act(state, Action(S("Cid"), "pass"))
    # the engine has left the window (nobody to wait for); the table holds it
    # for night_s until every living player is ready
    assert state.phase == "day" and ready_window(state)
    assert not night_ready(state, everyone - {S("Hal")})
    assert night_ready(state, everyone)
    off = game("jp-standard", JP8, [], {"ready_ends_night": False})
    assert not ready_window(off) and not night_ready(off, everyone)
    later = game("jp-standard", JP8, [a("Cid", "pass"), a(None, "timeout")])
    assert later.n == 2 and not ready_window(later)  # night 1 only [004]


# --- the witch (RULES.md §5) --------------------------------------------------------

WITCH = ["werewolf", "werewolf", "seer", "witch", "villager", "villager", "villager",
         "villager"]


def test_one_potion_for_the_whole_game_rules_5_003_house_rule():
    """RULES.md §5 witch `witch_single_potion` [003
    「我們玩時都是只能有壹種解藥，要不救人，要不殺人」]: heal and poison together are
    refused; once she has healed she has nothing left (her step is skipped)."""
    state = game(MH, WITCH, NIGHT1, {"witch_single_potion": True, "sheriff": False})
    assert state.step == "witch"
    with pytest.raises(IllegalAction):
        act(state, Action(S("Dan"), "potion", heal=True, poison=S("Ann")))
    act(state, Action(S("Dan"), "potion", heal=True))
    assert state.potions == {"heal": False, "poison": False} and state.alive[S("Hal")]
    act(state, Action(None, "timeout"))  # day 1: nobody executed
    act(state, Action(S("Cid"), "inspect", target=S("Bob")))
    for w in ("Ann", "Bob"):
        act(state, Action(S(w), "attack", target=S("Gus")))
    assert state.phase == "day" and not state.alive[S("Gus")]  # no witch's step


def test_without_the_option_both_potions_the_same_night_rules_5_002():
    """RULES.md §5 witch [002]: "both may be used the same night" (the default)."""
    state = game(MH, WITCH, NIGHT1 + [a("Dan", "potion", heal=True, poison="Ann")],
                 {"sheriff": False})
    assert state.potions == {"heal": False, "poison": False}
    assert [(s, c) for s, c, _ in state.deaths] == [(S("Ann"), "poison")]


@pytest.mark.parametrize("ruleset,told", [("bga", True), (MH, False)])
def test_the_dawn_tells_the_potions_used_never_on_whom_rules_5_000(ruleset, told):
    """RULES.md §5 witch `announce_potions` [000 l.49 「癒しの薬、毒薬使用時は翌朝
    公表される。」], on in bga: the dawn says she used her healing potion, not
    whom it saved; the public view the same; off in millers-hollow."""
    state = game(ruleset, WITCH, NIGHT1 + [a("Dan", "potion", heal=True)], {"sheriff": False})
    dawn = next(x for x in announcements(state) if x["kind"] == "dawn")
    assert dawn["deaths"] == []
    if told:
        assert dawn["potions"] == {"heal": True, "poison": False}
        assert public_view(state)["potions_used"] == {"heal": True, "poison": False}
    else:
        assert "potions" not in dawn and "potions_used" not in public_view(state)
    # nothing names the saved one or the witch
    for x in (dawn, public_view(state).get("potions_used", {})):
        assert "Hal" not in str(x) and "Dan" not in str(x)


# --- the idiot sheriff (RULES.md §6 [002]) ------------------------------------------

IDIOT8 = ["werewolf", "werewolf", "seer", "village-idiot", "villager", "villager", "villager",
          "villager"]


def test_the_revealed_idiot_sheriff_names_no_successor_rules_6_002():
    """RULES.md §6 [002 l.77 「保安官が脱落：怠け者以外は後継者を指定する」]: Dan,
    sheriff and village idiot, is voted out (revealed, keeps the badge
    without its vote); when the wolves kill him, no successor is named: the
    badge leaves the game with him."""
    elect = votes("Ann>Dan", "Bob>Dan", "Cid>Dan", "Dan>Cid", "Eve>Dan", "Fay>Dan", "Gus>Dan")
    out = votes("Ann>Dan", "Bob>Dan", "Cid>Dan", "Dan>Ann", "Eve>Dan", "Fay>Dan", "Gus>Dan")
    state = game(MH, IDIOT8, NIGHT1 + elect + out)
    assert S("Dan") in state.revealed and state.sheriff == S("Dan")
    act(state, Action(S("Cid"), "inspect", target=S("Bob")))
    for w in ("Ann", "Bob"):
        act(state, Action(S(w), "attack", target=S("Dan")))
    assert state.sheriff is None and state.phase == "day" and state.step != "appoint"
    trig = [e for e in state.log if e["e"] == "triggers" and e["seat"] == S("Dan")]
    assert trig[-1]["prompts"] == []
    assert [x for x in announcements(state) if x["kind"] == "sheriff"][-1]["how"] == "idiot"


def test_an_unrevealed_idiot_sheriff_still_names_one_rules_6_002():
    """[002]: 「怠け者以外は」 — only the revealed idiot: killed before he was
    ever voted out, his card hidden, the sheriff names his successor."""
    elect = votes("Ann>Dan", "Bob>Dan", "Cid>Dan", "Dan>Cid", "Eve>Dan", "Fay>Dan", "Gus>Dan")
    state = game(MH, IDIOT8, NIGHT1 + elect + [a(None, "timeout"), a("Cid", "inspect", "Bob"),
                                              *attack("Dan", "Ann", "Bob")])
    assert (state.step, state.actor) == ("appoint", S("Dan"))


# --- the bitten fox (RULES.md §9 [004]) ---------------------------------------------

def test_a_bitten_fox_leaves_a_morning_with_no_death_like_a_guard_rules_9_004():
    """RULES.md §9 [004 l.57 「死体無し」]: the wolves bite the fox, who lives
    (§5 fox); the dawn has no death, the same entry as a knight's guard."""
    fox, guard = bitten_fox_and_guarded()
    for state in (fox, guard):
        assert state.phase == "day" and state.n == 2 and state.deaths == []
        dawn = [x for x in announcements(state) if x["kind"] == "dawn"][-1]
        assert dawn["deaths"] == []
    assert NAMES  # helpers' names in use


# --- vote_mode=candidates, RULES.md §6 Decisions (r5) [issue 44 item 1] --------------

def test_a_ballot_missing_at_round_1s_timeout_is_an_abstention_rules_6_r5():
    """RULES.md §6 Decisions (r5): "A ballot missing at round 1's timeout is
    an abstention whatever `vote_timeout` says": in BGA (`right-neighbour`)
    the timed-out voters name nobody in round 1, so the candidates are the
    two who got real ballots — not 8 of 10 players (the table's game of
    [issue 44]); in round 2 `vote_timeout` applies among the candidates."""
    first = votes("Ann>Dan", "Bob>Dan", "Cid>Eve")  # the rest time out
    state = game("bga", T8, NIGHT1 + first + [a(None, "timeout")],
                 {"sheriff": False, "vote_mode": "candidates"})
    first_tally = tallies(state)[-1]
    assert first_tally["nominees"] == [S("Dan"), S("Eve")]
    assert all(first_tally["votes"][str(S(n))] is None for n in ("Dan", "Eve", "Fay", "Gus"))
    p = pending(state)
    assert (p["step"], p["round"], p["candidates"]) == ("vote", 2, [S("Dan"), S("Eve")])
    # round 2: a missing ballot is the right neighbour's when he is a candidate
    act(state, Action(None, "timeout"))
    second = tallies(state)[-1]
    assert any(t is not None for k, t in second["votes"].items()
               if int(k) not in (S("Dan"), S("Eve")))
