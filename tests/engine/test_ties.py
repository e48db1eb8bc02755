"""Tied execution votes: every `tie` policy, the scapegoat, runoffs, timeouts
(RULES.md §1 Timeouts, §6 Execution vote; docs/rules.md §7.4–§7.5, §11).

Most games seat seven (Millers Hollow / BGA, sheriff off unless a test needs him):

    Ann werewolf, Bob werewolf, Cid seer, Dan, Eve, Fay, Gus villagers

Night 1: the seer inspects Ann, both wolves kill Gus. Day 1 has six voters,
Ann..Fay, and TIE splits them 3–3 between Ann and Dan.
"""

from __future__ import annotations

import pytest
from helpers import a, deaths, play, votes

R7 = ["werewolf", "werewolf", "seer", "villager", "villager", "villager", "villager"]
R7_NAMES = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus"]
NIGHT1 = [a("Cid", "inspect", "Ann"), a("Ann", "attack", "Gus"), a("Bob", "attack", "Gus")]
GUS_N1 = ("Gus", "werewolves", "night 1")
TIE = votes("Cid>Ann", "Dan>Ann", "Eve>Ann", "Ann>Dan", "Bob>Dan", "Fay>Dan")
NO_SHERIFF = {"sheriff": False}
POLICIES = ["scapegoat-sheriff-none", "runoff-once", "none", "runoff-random", "runoff-draw"]


def tallies(out: dict) -> list[dict]:
    return [e for e in out["events"] if e["e"] == "tally" and e["step"] == "vote"]


def tied_names(out: dict) -> list[list[str] | None]:
    """The tied players of each execution vote and runoff (None: no tie)."""
    return [[R7_NAMES[s] for s in t["tie"]] if t.get("tie") else None for t in tallies(out)]


def election(to: str, voters=("Ann", "Bob", "Cid", "Dan", "Eve", "Fay")) -> list[dict]:
    return [a(v, "vote", to) for v in voters]


# --- scapegoat-sheriff-none [002] ---------------------------------------------------

def test_scapegoat_sheriff_none_sheriff_picks_among_the_tied_rules_6_002():
    """RULES.md §6 tie scapegoat-sheriff-none [002]: no scapegoat, the sheriff (Cid,
    double vote) voted for Ann, one of the tied (3–3) → Ann is executed."""
    out = play("millers-hollow", R7, [*NIGHT1, *election("Cid"),
                                       *votes("Cid>Ann", "Dan>Ann", "Ann>Dan", "Bob>Dan", "Eve>Dan",
                                              "Fay>Eve")])
    assert out["status"] == 0, out.get("error")
    assert out["sheriff"] == "Cid"
    assert tied_names(out) == [["Ann", "Dan"]]
    assert deaths(out) == [GUS_N1, ("Ann", "execution", "day 1")]
    assert out["step"] == "night 2 seer"


def test_scapegoat_sheriff_none_sheriff_voted_outside_the_tie_rules_6_002():
    """RULES.md §6 tie scapegoat-sheriff-none [002]: the sheriff's vote (2 on Gus) is
    not for one of the tied (Ann 3, Dan 3) → nobody is executed."""
    r8 = [*R7, "villager"]
    night = [a("Cid", "inspect", "Ann"), a("Ann", "attack", "Hal"), a("Bob", "attack", "Hal")]
    voters = ("Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus")
    out = play("millers-hollow", r8, [*night, *election("Cid", voters),
                                       *votes("Cid>Gus", "Dan>Ann", "Eve>Ann", "Fay>Ann",
                                              "Ann>Dan", "Bob>Dan", "Gus>Dan")])
    assert out["status"] == 0, out.get("error")
    assert tied_names(out) == [["Ann", "Dan"]]
    assert deaths(out) == [("Hal", "werewolves", "night 1")]
    assert out["step"] == "night 2 seer"


def test_scapegoat_sheriff_none_without_sheriff_nobody_dies_rules_6_002():
    """RULES.md §6 tie scapegoat-sheriff-none [002]: no scapegoat, no sheriff → nobody."""
    out = play("millers-hollow", R7, [*NIGHT1, *TIE], options=NO_SHERIFF)
    assert out["status"] == 0, out.get("error")
    assert len(tallies(out)) == 1
    assert deaths(out) == [GUS_N1]
    assert out["step"] == "night 2 seer"


# --- the scapegoat overrides every policy [002][003] ---------------------------------

RS = ["werewolf", "werewolf", "seer", "villager", "villager", "villager", "scapegoat"]
NIGHT1_S = [a("Cid", "inspect", "Ann"), a("Ann", "attack", "Fay"), a("Bob", "attack", "Fay")]
TIE_S = votes("Cid>Ann", "Dan>Ann", "Eve>Ann", "Ann>Dan", "Bob>Dan", "Gus>Dan")


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("ruleset", ["millers-hollow", "bga"])
def test_scapegoat_dies_on_a_tie_whatever_the_policy_rules_6_002_003(ruleset, policy):
    """RULES.md §5 Scapegoat, §6 "A scapegoat in play overrides every policy"
    [002][003]: on the first tie the scapegoat dies (cause "scapegoat"), no runoff,
    and he is asked who may vote next day."""
    out = play(ruleset, RS, [*NIGHT1_S, *TIE_S], options={"sheriff": False, "tie": policy})
    assert out["status"] == 0, out.get("error")
    assert len(tallies(out)) == 1
    assert deaths(out) == [("Fay", "werewolves", "night 1"), ("Gus", "scapegoat", "day 1")]
    assert out["step"] == "day 1 allow"
    out = play(ruleset, RS, [*NIGHT1_S, *TIE_S, a("Gus", "allow", targets=["Cid", "Dan"])],
               options={"sheriff": False, "tie": policy})
    assert out["status"] == 0, out.get("error")
    assert out["step"] == "night 2 seer"


def test_scapegoat_beats_the_sheriffs_pick_rules_6_002():
    """RULES.md §6 scapegoat-sheriff-none [002]: "scapegoat dies if alive; *else*
    the sheriff's pick" — the sheriff voted for a tied player, the scapegoat dies."""
    voters = ("Ann", "Bob", "Cid", "Dan", "Eve", "Gus")
    out = play("millers-hollow", RS, [*NIGHT1_S, *election("Cid", voters),
                                       *votes("Cid>Ann", "Dan>Ann", "Ann>Dan", "Bob>Dan",
                                              "Eve>Dan", "Gus>Eve")])
    assert out["status"] == 0, out.get("error")
    assert tied_names(out) == [["Ann", "Dan"]]
    assert deaths(out) == [("Fay", "werewolves", "night 1"), ("Gus", "scapegoat", "day 1")]


def test_dead_scapegoat_no_longer_overrides_rules_6():
    """RULES.md §6 "scapegoat dies if alive": a scapegoat killed at night leaves the
    policy (here `none`) in charge."""
    night = [a("Cid", "inspect", "Ann"), a("Ann", "attack", "Gus"), a("Bob", "attack", "Gus")]
    out = play("millers-hollow", RS, [*night, *TIE], options={"sheriff": False, "tie": "none"})
    assert out["status"] == 0, out.get("error")
    assert deaths(out) == [GUS_N1]
    assert out["step"] == "night 2 seer"


# --- runoff-once [000] --------------------------------------------------------------

def test_runoff_once_tied_again_nobody_dies_rules_6_000():
    """RULES.md §6 tie runoff-once [000]: one runoff among the tied; tied again →
    nobody is executed and night falls."""
    out = play("bga", R7, [*NIGHT1, *TIE], options=NO_SHERIFF)
    assert out["status"] == 0, out.get("error")
    assert out["step"] == "day 1 runoff 1"
    out = play("bga", R7, [*NIGHT1, *TIE, *TIE], options=NO_SHERIFF)
    assert out["status"] == 0, out.get("error")
    assert tied_names(out) == [["Ann", "Dan"], ["Ann", "Dan"]]
    assert deaths(out) == [GUS_N1]
    assert out["step"] == "night 2 seer"


def test_runoff_once_runoff_decides_rules_6_000():
    """RULES.md §6 tie runoff-once [000]: the runoff has a majority → Ann executed."""
    runoff = votes("Cid>Ann", "Dan>Ann", "Eve>Ann", "Fay>Ann", "Ann>Dan", "Bob>Dan")
    out = play("bga", R7, [*NIGHT1, *TIE, *runoff], options=NO_SHERIFF)
    assert out["status"] == 0, out.get("error")
    assert deaths(out) == [GUS_N1, ("Ann", "execution", "day 1")]
    assert [t["round"] for t in tallies(out)] == [1, 2]


@pytest.mark.parametrize("policy", ["runoff-once", "runoff-random", "runoff-draw"])
def test_runoff_voters_may_only_name_the_tied_rules_6(policy):
    """RULES.md §6 "runoffs among the tied" (docs/rules.md §7.5 "only the tied
    players may be voted for"): naming Eve in the Ann/Dan runoff is refused."""
    actions = [*NIGHT1, *TIE, a("Cid", "vote", "Eve")]
    out = play("millers-hollow", R7, actions, options={"sheriff": False, "tie": policy})
    assert out["status"] == 2 and out["error"]["index"] == len(actions) - 1
    assert out["step"] == "day 1 runoff 1"


# --- none [003] ------------------------------------------------------------------------

def test_tie_none_executes_nobody_rules_6_003():
    """RULES.md §6 tie none [003]: a tie executes nobody, without a runoff."""
    out = play("millers-hollow", R7, [*NIGHT1, *TIE], options={"sheriff": False, "tie": "none"})
    assert out["status"] == 0, out.get("error")
    assert len(tallies(out)) == 1
    assert deaths(out) == [GUS_N1]
    assert out["step"] == "night 2 seer"


def test_tie_none_ignores_the_sheriffs_pick_rules_6_003():
    """RULES.md §6 tie none [003]: even the sheriff's vote for a tied player does not
    break the tie (that is scapegoat-sheriff-none's rule, not this one)."""
    out = play("millers-hollow", R7, [*NIGHT1, *election("Cid"),
                                       *votes("Cid>Ann", "Dan>Ann", "Ann>Dan", "Bob>Dan", "Eve>Dan",
                                              "Fay>Eve")],
               options={"tie": "none"})
    assert out["status"] == 0, out.get("error")
    assert deaths(out) == [GUS_N1]
    assert out["step"] == "night 2 seer"


# --- runoff-random [003 variant] --------------------------------------------------

def test_runoff_random_draws_after_the_third_tie_rules_6_003():
    """RULES.md §6 tie runoff-random [003 variant], docs/rules.md §11 Decision 15:
    the first vote counts; after two tied votes a second runoff opens; after the
    third tie one of the tied (Ann or Dan) is executed at random."""
    opts = {"sheriff": False, "tie": "runoff-random"}
    out = play("millers-hollow", R7, [*NIGHT1, *TIE, *TIE], options=opts)
    assert out["status"] == 0, out.get("error")
    assert out["step"] == "day 1 runoff 2"
    assert deaths(out) == [GUS_N1]
    out = play("millers-hollow", R7, [*NIGHT1, *TIE, *TIE, *TIE], options=opts)
    assert out["status"] == 0, out.get("error")
    assert len(tallies(out)) == 3
    drawn = [e for e in out["events"] if e["e"] == "drawn"]
    assert len(drawn) == 1 and drawn[0]["among"] == [0, 3]
    victim = R7_NAMES[drawn[0]["seat"]]
    assert victim in ("Ann", "Dan")
    assert deaths(out) == [GUS_N1, (victim, "execution", "day 1")]


def test_runoff_random_is_deterministic_from_the_seed_rules_6_docs_11_22():
    """RULES.md §6 runoff-random, docs/rules.md §11 Decision 22 (all chance from the
    seed): the same seed draws the same player; over many seeds both are drawn."""
    opts = {"sheriff": False, "tie": "runoff-random"}
    picks = {}
    for seed in range(1, 21):
        first = play("millers-hollow", R7, [*NIGHT1, *TIE, *TIE, *TIE], options=opts, seed=seed)
        again = play("millers-hollow", R7, [*NIGHT1, *TIE, *TIE, *TIE], options=opts, seed=seed)
        assert deaths(first) == deaths(again)
        picks[seed] = deaths(first)[-1][0]
    assert set(picks.values()) == {"Ann", "Dan"}


# --- runoff-draw [004] ----------------------------------------------------------------

HALF_PP = ["werewolf", "madman", "villager", "villager"]  # 4 alive, wolf + madman = half
JP_TIE = votes("Ann>Cid", "Bob>Cid", "Cid>Ann", "Dan>Ann")  # Ann 2, Cid 2


def test_runoff_draw_three_same_ties_in_half_power_play_is_a_draw_rules_6_7_004():
    """RULES.md §6 tie runoff-draw, §7.1 [004] (半PP, 同じ内訳での引き分け投票が3回):
    three consecutive ties with the same breakdown while wolf + madman are half of
    an even number alive → the game ends in a draw, nobody executed."""
    out = play("jp-standard", HALF_PP, [*JP_TIE, *JP_TIE])
    assert out["status"] == 0, out.get("error")
    assert out["winner"] is None and out["step"] == "day 1 runoff 2"
    out = play("jp-standard", HALF_PP, [*JP_TIE, *JP_TIE, *JP_TIE])
    assert out["status"] == 0, out.get("error")
    assert out["winner"] == "draw"
    assert out["winners"] == []
    assert deaths(out) == []
    assert out["alive"] == ["Ann", "Bob", "Cid", "Dan"]
    assert len(tallies(out)) == 3


def test_runoff_draw_needs_half_power_play_else_random_rules_6_004():
    """RULES.md §6 tie runoff-draw [004]: the same three ties without half power play
    (one wolf among four) → one of the last tied is executed at random."""
    roles = ["werewolf", "villager", "villager", "villager"]
    out = play("jp-standard", roles, [*JP_TIE, *JP_TIE, *JP_TIE])
    assert out["status"] == 0, out.get("error")
    assert out["winner"] != "draw"
    drawn = [e for e in out["events"] if e["e"] == "drawn"]
    assert len(drawn) == 1 and drawn[0]["among"] == [0, 2]
    victim = ["Ann", "Bob", "Cid", "Dan"][drawn[0]["seat"]]
    assert deaths(out) == [(victim, "execution", "day 1")]
    assert out["winner"] == ("village" if victim == "Ann" else None)


def test_runoff_draw_different_breakdown_is_random_not_draw_rules_6_004():
    """RULES.md §6 tie runoff-draw [004] ("the same tied players with the same
    counts"): in half power play, ties of 2–2, 1–1 (two abstain at the timeout),
    2–2 are not the same breakdown → random execution, no draw."""
    runoff1 = [*votes("Ann>Cid", "Cid>Ann"), a(None, "timeout")]
    out = play("jp-standard", HALF_PP, [*JP_TIE, *runoff1, *JP_TIE])
    assert out["status"] == 0, out.get("error")
    assert [t["top"] for t in tallies(out)] == [2, 1, 2]
    assert out["winner"] != "draw"
    victims = [d for d in deaths(out) if d[1] == "execution"]
    assert len(victims) == 1 and victims[0][0] in ("Ann", "Cid") and victims[0][2] == "day 1"


def test_runoff_draw_is_jp_standard_default_rules_2_004():
    """RULES.md §2 jp-standard key defaults (tie: runoff among the tied, draw rule)
    [004]: the first tie opens a runoff among the tied."""
    out = play("jp-standard", HALF_PP, JP_TIE)
    assert out["status"] == 0, out.get("error")
    assert out["step"] == "day 1 runoff 1"
    out = play("jp-standard", HALF_PP, [*JP_TIE, a("Bob", "vote", "Dan")])
    assert out["status"] == 2 and out["error"]["index"] == 4


# --- the sheriff's double vote in runoffs [all] ------------------------------------

def test_sheriffs_double_vote_counts_in_runoffs_rules_6_sheriff():
    """RULES.md §6 Sheriff "His vote counts two in every execution vote and runoff"
    [all]: in the Ann/Dan runoff Cid's two votes make it Ann 4 – Dan 3 (3–3 if it
    counted one, and runoff-once would then execute nobody)."""
    first = votes("Cid>Ann", "Dan>Ann", "Ann>Dan", "Bob>Dan", "Eve>Dan", "Fay>Eve")
    runoff = votes("Cid>Ann", "Dan>Ann", "Fay>Ann", "Ann>Dan", "Bob>Dan", "Eve>Dan")
    out = play("millers-hollow", R7, [*NIGHT1, *election("Cid"), *first, *runoff],
               options={"tie": "runoff-once"})
    assert out["status"] == 0, out.get("error")
    assert out["sheriff"] == "Cid"
    counts = [t["counts"] for t in tallies(out)]
    assert counts == [{"0": 3, "3": 3, "4": 1}, {"0": 4, "3": 3}]
    assert deaths(out) == [GUS_N1, ("Ann", "execution", "day 1")]


# --- vote_timeout [000] ------------------------------------------------------------

@pytest.mark.parametrize("cast,missing,right", [
    # Dan misses the vote; his right neighbour is Cid.
    (votes("Ann>Cid", "Bob>Cid", "Cid>Ann", "Eve>Ann", "Fay>Bob"), "Dan", "Cid"),
    # Ann misses; her right neighbour skips the dead Gus and is Fay.
    (votes("Bob>Fay", "Cid>Fay", "Dan>Bob", "Eve>Bob", "Fay>Cid"), "Ann", "Fay"),
])
def test_vote_timeout_right_neighbour_rules_1_000(cast, missing, right):
    """RULES.md §1 Timeouts, vote_timeout=right-neighbour [000] (seat i-1, the
    previous *living* player): the missing vote goes to the right neighbour, who
    then has 3 votes and is executed."""
    out = play("bga", R7, [*NIGHT1, *cast, a(None, "timeout")], options=NO_SHERIFF)
    assert out["status"] == 0, out.get("error")
    assert deaths(out) == [GUS_N1, (right, "execution", "day 1")]
    seats = {n: i for i, n in enumerate(R7_NAMES)}
    assert tallies(out)[0]["votes"][str(seats[missing])] == seats[right]


@pytest.mark.parametrize("cast", [
    votes("Ann>Cid", "Bob>Cid", "Cid>Ann", "Eve>Ann", "Fay>Bob"),
    votes("Bob>Fay", "Cid>Fay", "Dan>Bob", "Eve>Bob", "Fay>Cid"),
])
def test_vote_timeout_abstain_rules_1(cast):
    """RULES.md §1 Timeouts, vote_timeout=abstain: the same missing vote is an
    abstention, which leaves a 2–2 tie (bga → runoff)."""
    out = play("bga", R7, [*NIGHT1, *cast, a(None, "timeout")],
               options={"sheriff": False, "vote_timeout": "abstain"})
    assert out["status"] == 0, out.get("error")
    assert deaths(out) == [GUS_N1]
    assert out["step"] == "day 1 runoff 1"
    assert len(tallies(out)[0]["tie"]) == 2


def test_vote_timeout_right_neighbour_in_a_runoff_rules_1_000():
    """RULES.md §1 Timeouts [000], docs/rules.md §11 Decision 13: in the Ann/Dan
    runoff Eve misses; her right neighbour Dan is a candidate, so the vote goes to
    him → Ann 3, Dan 3 → runoff-once executes nobody (abstaining would give Ann 3–2)."""
    runoff = votes("Cid>Ann", "Dan>Ann", "Fay>Ann", "Ann>Dan", "Bob>Dan")
    out = play("bga", R7, [*NIGHT1, *TIE, *runoff, a(None, "timeout")], options=NO_SHERIFF)
    assert out["status"] == 0, out.get("error")
    assert deaths(out) == [GUS_N1]
    assert tallies(out)[1]["counts"] == {"0": 3, "3": 3}
    out = play("bga", R7, [*NIGHT1, *TIE, *runoff, a(None, "timeout")],
               options={"sheriff": False, "vote_timeout": "abstain"})
    assert deaths(out) == [GUS_N1, ("Ann", "execution", "day 1")]


def test_vote_timeout_right_neighbour_who_is_his_lover_is_an_abstention_docs_11_13():
    """RULES.md §6 "Forbidden: voting for your lover" [000][003], docs/rules.md §11
    Decision 13: Dan misses the vote and his right neighbour Cid is his lover, so
    the default is an abstention → Cid 2, Ann 2 → runoff (not Cid executed)."""
    roles = ["werewolf", "werewolf", "seer", "cupid", "villager", "villager", "villager"]
    night = [a("Dan", "link", targets=["Cid", "Dan"]), *NIGHT1]
    cast = votes("Ann>Cid", "Bob>Cid", "Cid>Ann", "Eve>Ann", "Fay>Bob")
    out = play("bga", roles, [*night, *cast, a(None, "timeout")], options=NO_SHERIFF)
    assert out["status"] == 0, out.get("error")
    assert deaths(out) == [GUS_N1]
    assert tallies(out)[0]["votes"]["3"] is None
    assert out["step"] == "day 1 runoff 1"


def test_timeout_with_no_vote_executes_nobody_docs_11_14():
    """docs/rules.md §11 Decision 14: with abstain, a vote in which nobody voted
    executes nobody."""
    out = play("millers-hollow", R7, [*NIGHT1, a(None, "timeout")],
               options={"sheriff": False})
    assert out["status"] == 0, out.get("error")
    assert deaths(out) == [GUS_N1]
    assert out["step"] == "night 2 seer"


# --- changing a vote -------------------------------------------------------------

def test_voter_may_change_his_vote_while_it_is_open_docs_11_12():
    """docs/rules.md §11 Decision 12, §7.4 ("While the vote is open, a voter may
    change his vote"; replay.md "a later vote … replaces his earlier vote"): Ann's
    second vote replaces her first → Cid 3 executed (the first would make a 2–2–2 tie)."""
    actions = [*NIGHT1, a("Ann", "vote", "Dan"), a("Ann", "vote", "Cid"),
               *votes("Bob>Cid", "Dan>Cid", "Cid>Ann", "Eve>Ann", "Fay>Dan")]
    out = play("bga", R7, actions, options=NO_SHERIFF)
    assert out["status"] == 0, out.get("error")
    assert tallies(out)[0]["counts"] == {"2": 3, "0": 2, "3": 1}
    assert deaths(out) == [GUS_N1, ("Cid", "execution", "day 1")]
