"""Millers Hollow / BGA roles, one or more tests per rule.

Every test names its source: `RULES.md §N <role> [src]` refers to
/work/shared/RULES.md; `docs/rules.md §11.N` to the engine's own decisions.
Games are scripted with tests/helpers.py: players Ann, Bob, Cid, … are dealt
the listed roles in seat order. Most games switch the sheriff off so that
day 1 goes straight to the execution vote.
"""

from __future__ import annotations

import pytest
from helpers import (
    NAMES,
    S,
    a,
    attack,
    choices,
    deaths,
    game,
    ok,
    play,
    refused,
    results,
    seats,
    votes,
)

from companion.engine import (
    Action,
    IllegalAction,
    act,
    legal_actions,
    public_view,
    view_for,
    waiting_for,
)

MH = "millers-hollow"
BGA = "bga"
NO_SHERIFF = {"sheriff": False}


# --- small helpers -------------------------------------------------------------

def everyone_votes(target: str, voters: list[str], own_vote: str) -> list[dict]:
    """Every voter names `target`; the target himself names `own_vote`."""
    return [a(v, "vote", own_vote if v == target else target) for v in voters]


# =============================================================================
# Seer — RULES.md §5 seer [000][003][004]
# =============================================================================

SEER_GAME = ["werewolf", "seer", "witch", "villager", "villager"]


def test_seer_sees_the_card_with_seer_sees_role__rules_s5_seer_000_003():
    """RULES.md §5 seer: seer_sees=role → she learns the card [000][003], at once (§1)."""
    st = game(MH, SEER_GAME, [a("Bob", "inspect", "Cid")], NO_SHERIFF)
    assert st.step == "wolves"  # the answer is given before dawn
    assert results(st, "Bob") == [
        {"kind": "inspect", "target": S("Cid"), "result": "witch"}]
    st = game(MH, SEER_GAME, [a("Bob", "inspect", "Ann")], NO_SHERIFF)
    assert results(st, "Bob")[-1]["result"] == "werewolf"
    # the seer's view now shows Ann's card
    assert view_for(st, S("Bob"))["players"][S("Ann")]["role"] == "werewolf"


@pytest.mark.parametrize("target,expected", [
    ("Ann", "wolf"), ("Cid", "human"), ("Dan", "human")])
def test_seer_sees_wolf_or_human_with_seer_sees_team__rules_s5_seer_003_004(target, expected):
    """RULES.md §5 seer: seer_sees=team → only wolf/human [003 variant][004]."""
    st = game(MH, SEER_GAME, [a("Bob", "inspect", target)], {**NO_SHERIFF, "seer_sees": "team"})
    assert results(st, "Bob") == [
        {"kind": "inspect", "target": S(target), "result": expected}]


def test_seer_reads_white_werewolf_as_wolf_in_team_mode__rules_s1_teams_s5_seer():
    """RULES.md §1 teams / §5 seer: the white werewolf holds a wolf card → reads "wolf"."""
    st = game(MH, ["werewolf", "white-werewolf", "seer", "villager", "villager"],
              [a("Cid", "inspect", "Bob")], {**NO_SHERIFF, "seer_sees": "team"})
    assert results(st, "Cid")[-1]["result"] == "wolf"


def test_seer_result_is_private__rules_s5_seer_and_s4_secrecy():
    """RULES.md §5 seer: the result goes to the seer only."""
    st = game(MH, SEER_GAME, [a("Bob", "inspect", "Ann")], NO_SHERIFF)
    for other in ("Ann", "Cid", "Dan", "Eve"):
        assert view_for(st, S(other))["results"] == []


def test_seer_inspects_one_player_each_night__rules_s5_seer():
    """RULES.md §5 seer: each night inspects one player (a single target)."""
    st = game(MH, SEER_GAME, [], NO_SHERIFF)
    assert st.step == "seer"
    c = choices(st, "Bob")["inspect"]
    assert c.count == (1, 1)
    assert set(seats("Ann", "Cid", "Dan", "Eve")) <= set(c.targets)
    assert refused(play(MH, SEER_GAME, [a("Bob", "inspect", None, targets=["Ann", "Cid"])],
                            NO_SHERIFF)) == 0


# =============================================================================
# Witch — RULES.md §5 witch [000][002]
# =============================================================================

# Ann, Bob wolves; Cid witch; Dan..Hal villagers (8 players, so the game lasts)
WITCH_GAME = ["werewolf", "werewolf", "witch", "villager", "villager", "villager",
              "villager", "villager"]
ALL8 = NAMES[:8]


def test_witch_heal_cancels_the_wolves_kill__rules_s5_witch_002():
    """RULES.md §5 witch [002]: heal cancels the wolves' kill."""
    out = ok(play(MH, WITCH_GAME, attack("Dan", "Ann", "Bob")
                  + [a("Cid", "potion", heal=True, poison=None)], NO_SHERIFF))
    assert deaths(out) == []
    assert out["step"] == "day 1 vote"


def test_witch_is_shown_the_wolves_victim__rules_s5_witch_002():
    """RULES.md §5 witch [002]: she is shown the wolves' victim and may heal it."""
    st = game(MH, WITCH_GAME, attack("Dan", "Ann", "Bob"), NO_SHERIFF)
    assert st.step == "witch"
    c = choices(st, "Cid")["potion"]
    assert c.info["victim"] == S("Dan") and c.heal is True
    assert results(st, "Cid")[-1] == {"kind": "victim", "victim": S("Dan")}


def test_witch_poison_kills_anyone__rules_s5_witch_002():
    """RULES.md §5 witch: poison kills anyone (here a wolf); the wolves' victim dies too."""
    out = ok(play(MH, WITCH_GAME, attack("Dan", "Ann", "Bob")
                  + [a("Cid", "potion", heal=False, poison="Ann")], NO_SHERIFF))
    assert sorted(deaths(out)) == [("Ann", "poison", "night 1"), ("Dan", "werewolves", "night 1")]


def test_witch_poison_may_target_herself__rules_s5_witch_003():
    """RULES.md §5 witch: "poison kills anyone" — herself included; [003] says so
    explicitly (女巫可以自殺, "the witch may kill herself")."""
    st = game(MH, WITCH_GAME, attack("Dan", "Ann", "Bob"), NO_SHERIFF)
    assert S("Cid") in choices(st, "Cid")["potion"].targets
    out = ok(play(MH, WITCH_GAME, attack("Dan", "Ann", "Bob")
                  + [a("Cid", "potion", heal=True, poison="Cid")], NO_SHERIFF))
    assert deaths(out) == [("Cid", "poison", "night 1")]


def test_witch_may_heal_and_poison_the_same_night__rules_s5_witch_002():
    """RULES.md §5 witch [002]: both potions may be used the same night."""
    out = ok(play(MH, WITCH_GAME, attack("Dan", "Ann", "Bob")
                  + [a("Cid", "potion", heal=True, poison="Ann")], NO_SHERIFF))
    assert deaths(out) == [("Ann", "poison", "night 1")]
    assert "Dan" in out["alive"]


def test_witch_heal_only_once_per_game__rules_s5_witch_002():
    """RULES.md §5 witch [002]: the healing potion is used once per game."""
    script = (attack("Dan", "Ann", "Bob") + [a("Cid", "potion", heal=True, poison=None)]
              + everyone_votes("Hal", ALL8, "Ann") + attack("Eve", "Ann", "Bob"))
    st = game(MH, WITCH_GAME, script, NO_SHERIFF)
    assert st.n == 2 and st.step == "witch"
    c = choices(st, "Cid")["potion"]
    assert c.info["victim"] == S("Eve")
    assert c.heal is False  # already spent
    with pytest.raises(IllegalAction):
        act(st, Action(S("Cid"), "potion", heal=True))
    out = ok(play(MH, WITCH_GAME, script + [a("Cid", "potion", heal=False, poison=None)],
                  NO_SHERIFF))
    assert ("Eve", "werewolves", "night 2") in deaths(out)


def test_witch_poison_only_once_per_game__rules_s5_witch_002():
    """RULES.md §5 witch [002]: the poison is used once per game."""
    alive_d1 = ["Bob", "Cid", "Eve", "Fay", "Gus", "Hal"]
    script = (attack("Dan", "Ann", "Bob") + [a("Cid", "potion", heal=False, poison="Ann")]
              + everyone_votes("Hal", alive_d1, "Bob") + attack("Eve", "Bob"))
    st = game(MH, WITCH_GAME, script, NO_SHERIFF)
    assert st.n == 2 and st.step == "witch"
    c = choices(st, "Cid")["potion"]
    assert c.targets == ()  # no poison left
    assert c.heal is True  # the heal is still there
    out = play(MH, WITCH_GAME, script + [a("Cid", "potion", heal=False, poison="Bob")],
               NO_SHERIFF)
    assert refused(out) == len(script)


def test_witch_with_both_potions_spent_is_not_called__rules_s5_witch_s1_passing():
    """RULES.md §5 witch + §1 (a step whose actor has no legal move is skipped)."""
    alive_d1 = ["Bob", "Cid", "Dan", "Eve", "Fay", "Gus", "Hal"]  # Dan was healed
    script = (attack("Dan", "Ann", "Bob") + [a("Cid", "potion", heal=True, poison="Ann")]
              + everyone_votes("Hal", alive_d1, "Bob") + attack("Eve", "Bob"))
    st = game(MH, WITCH_GAME, script, NO_SHERIFF)
    assert (st.phase, st.n, st.step) == ("day", 2, "vote")  # night 2 went wolves → dawn
    assert st.deaths[-1] == (S("Eve"), "werewolves", "night 2")


def test_witch_self_heal_allowed_by_default__rules_s5_witch_000():
    """RULES.md §5 witch: self-heal allowed (witch_self_heal, [000]; on in millers-hollow)."""
    st = game(MH, WITCH_GAME, attack("Cid", "Ann", "Bob"), NO_SHERIFF)
    c = choices(st, "Cid")["potion"]
    assert c.info["victim"] == S("Cid") and c.heal is True
    out = ok(play(MH, WITCH_GAME, attack("Cid", "Ann", "Bob")
                  + [a("Cid", "potion", heal=True, poison=None)], NO_SHERIFF))
    assert deaths(out) == []


def test_witch_self_heal_forbidden_when_option_off__rules_s5_witch_000():
    """RULES.md §2/§5 witch: witch_self_heal=false → she cannot heal herself."""
    opts = {**NO_SHERIFF, "witch_self_heal": False}
    st = game(MH, WITCH_GAME, attack("Cid", "Ann", "Bob"), opts)
    c = choices(st, "Cid")["potion"]
    assert c.heal is False
    assert S("Ann") in c.targets  # she may still poison
    out = play(MH, WITCH_GAME, attack("Cid", "Ann", "Bob")
               + [a("Cid", "potion", heal=True, poison=None)], opts)
    assert refused(out) == 2
    out = ok(play(MH, WITCH_GAME, attack("Cid", "Ann", "Bob") + [a("Cid", "pass")], opts))
    assert deaths(out) == [("Cid", "werewolves", "night 1")]


DEF_WITCH_GAME = ["werewolf", "werewolf", "witch", "defender", "villager", "villager",
                  "villager"]


def test_witch_not_shown_a_victim_the_defender_protected__rules_s5_witch_002():
    """RULES.md §5 witch [002]: protected victim → the witch is shown none."""
    script = [a("Dan", "protect", "Eve")] + attack("Eve", "Ann", "Bob")
    st = game(MH, DEF_WITCH_GAME, script, NO_SHERIFF)
    assert st.step == "witch"
    c = choices(st, "Cid")["potion"]
    assert c.info["victim"] is None
    assert c.heal is False  # nothing to heal
    assert results(st, "Cid")[-1] == {"kind": "victim", "victim": None}
    out = ok(play(MH, DEF_WITCH_GAME, script + [a("Cid", "pass")], NO_SHERIFF))
    assert deaths(out) == []


def test_witch_shown_the_victim_when_defender_guarded_someone_else__rules_s5_witch_002():
    """RULES.md §5 witch [002]: the victim is hidden only when *it* was protected."""
    st = game(MH, DEF_WITCH_GAME, [a("Dan", "protect", "Fay")] + attack("Eve", "Ann", "Bob"),
              NO_SHERIFF)
    c = choices(st, "Cid")["potion"]
    assert c.info["victim"] == S("Eve") and c.heal is True


# =============================================================================
# Hunter — RULES.md §5 hunter [002][003]
# =============================================================================

# Ann, Bob wolves; Cid hunter; Dan, Eve, Fay villagers
HUNTER_GAME = ["werewolf", "werewolf", "hunter", "villager", "villager", "villager"]


def test_hunter_shoots_when_killed_by_wolves__rules_s5_hunter_002_003():
    """RULES.md §5 hunter [002][003]: killed by the wolves → shoots (dated night 1, §6)."""
    st = game(MH, HUNTER_GAME, attack("Cid", "Ann", "Bob"), NO_SHERIFF)
    assert st.step == "hunter" and st.actor == S("Cid")
    c = choices(st, "Cid")
    assert set(c) == {"shoot", "pass"}
    assert sorted(c["shoot"].targets) == list(seats("Ann", "Bob", "Dan", "Eve", "Fay"))
    out = ok(play(MH, HUNTER_GAME, attack("Cid", "Ann", "Bob") + [a("Cid", "shoot", "Ann")],
                  NO_SHERIFF))
    assert deaths(out) == [("Cid", "werewolves", "night 1"), ("Ann", "hunter", "night 1")]


def test_hunter_shoots_when_executed__rules_s5_hunter_002_003():
    """RULES.md §5 hunter: by any cause, execution included."""
    alive = ["Ann", "Bob", "Cid", "Dan", "Eve"]
    script = attack("Fay", "Ann", "Bob") + everyone_votes("Cid", alive, "Ann")
    st = game(MH, HUNTER_GAME, script, NO_SHERIFF)
    assert st.step == "hunter" and st.actor == S("Cid")
    out = ok(play(MH, HUNTER_GAME, script + [a("Cid", "shoot", "Bob")], NO_SHERIFF))
    assert deaths(out) == [("Fay", "werewolves", "night 1"), ("Cid", "execution", "day 1"),
                           ("Bob", "hunter", "day 1")]


def test_hunter_shoots_when_poisoned__rules_s5_hunter_002_003():
    """RULES.md §5 hunter: by any cause, poison included."""
    roles = ["werewolf", "werewolf", "hunter", "witch", "villager", "villager", "villager"]
    script = attack("Gus", "Ann", "Bob") + [a("Dan", "potion", heal=False, poison="Cid"),
                                            a("Cid", "shoot", "Ann")]
    out = ok(play(MH, roles, script, NO_SHERIFF))
    assert sorted(deaths(out)) == [("Ann", "hunter", "night 1"), ("Cid", "poison", "night 1"),
                                   ("Gus", "werewolves", "night 1")]


def test_hunter_shoots_when_dying_of_heartbreak__rules_s5_hunter_and_cupid():
    """RULES.md §5 hunter (any cause) + cupid (heartbreak)."""
    roles = ["werewolf", "werewolf", "hunter", "cupid", "villager", "villager", "villager"]
    script = [a("Dan", "link", None, targets=["Cid", "Eve"])] + attack("Eve", "Ann", "Bob") \
        + [a("Cid", "shoot", "Bob")]
    out = ok(play(MH, roles, script, NO_SHERIFF))
    assert deaths(out) == [("Eve", "werewolves", "night 1"), ("Cid", "heartbreak", "night 1"),
                           ("Bob", "hunter", "night 1")]


@pytest.mark.parametrize("how", [a("Cid", "pass"), a(None, "timeout")], ids=["pass", "timeout"])
def test_hunter_pass_or_timeout_shoots_nobody__rules_s5_hunter(how):
    """RULES.md §5 hunter: timeout → nobody; docs/rules.md §11.18: pass = timeout."""
    st = game(MH, HUNTER_GAME, attack("Cid", "Ann", "Bob") + [how], NO_SHERIFF)
    assert st.deaths == [(S("Cid"), "werewolves", "night 1")]
    assert (st.phase, st.n, st.step) == ("day", 1, "vote")


# =============================================================================
# Cupid and the lovers — RULES.md §5 cupid [000][003]
# =============================================================================

# Ann, Bob wolves; Cid cupid; Dan..Gus villagers
CUPID_GAME = ["werewolf", "werewolf", "cupid", "villager", "villager", "villager", "villager"]


def test_cupid_links_two_players_himself_allowed__rules_s5_cupid_000_003():
    """RULES.md §5 cupid [000][003]: night 1, two players, himself allowed."""
    st = game(MH, CUPID_GAME, [], NO_SHERIFF)
    assert st.n == 1 and st.step == "cupid"
    c = choices(st, "Cid")["link"]
    assert c.count == (2, 2)
    assert S("Cid") in c.targets
    st = game(MH, CUPID_GAME, [a("Cid", "link", None, targets=["Cid", "Dan"])], NO_SHERIFF)
    assert sorted(st.lovers) == [S("Cid"), S("Dan")]
    assert refused(play(MH, CUPID_GAME, [a("Cid", "link", None, targets=["Dan"])],
                            NO_SHERIFF)) == 0


def test_lovers_know_each_other_not_their_cards__rules_s4_night1_002_003():
    """RULES.md §4: lovers wake and see each other (not each other's roles)."""
    st = game(MH, CUPID_GAME, [a("Cid", "link", None, targets=["Ann", "Dan"])], NO_SHERIFF)
    dan = view_for(st, S("Dan"))
    assert dan["knows"]["lover"] == [S("Ann")]
    assert dan["players"][S("Ann")]["role"] is None
    assert view_for(st, S("Ann"))["knows"]["lover"] == [S("Dan")]


def test_lover_dies_of_heartbreak_at_once__rules_s5_cupid_all():
    """RULES.md §5 cupid [all]: when one lover dies the other dies at once."""
    script = [a("Cid", "link", None, targets=["Dan", "Eve"])] + attack("Dan", "Ann", "Bob")
    out = ok(play(MH, CUPID_GAME, script, NO_SHERIFF))
    assert deaths(out) == [("Dan", "werewolves", "night 1"), ("Eve", "heartbreak", "night 1")]


def test_heartbreak_by_day_is_dated_day__rules_s5_cupid_s6_queue():
    """RULES.md §5 cupid + §6 (deaths in a day and their triggers are dated day N)."""
    alive = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay"]
    script = [a("Cid", "link", None, targets=["Dan", "Eve"])] + attack("Gus", "Ann", "Bob") \
        + votes("Ann>Dan", "Bob>Dan", "Cid>Dan", "Dan>Ann", "Eve>Ann", "Fay>Dan")
    out = ok(play(MH, CUPID_GAME, script, NO_SHERIFF))
    assert deaths(out)[1:] == [("Dan", "execution", "day 1"), ("Eve", "heartbreak", "day 1")]
    assert set(out["alive"]) == set(alive) - {"Dan", "Eve"}


def test_lovers_may_not_vote_for_each_other__rules_s5_cupid_000_003():
    """RULES.md §5 cupid / §6 execution vote: voting for your lover is forbidden."""
    script = [a("Cid", "link", None, targets=["Dan", "Eve"])] + attack("Gus", "Ann", "Bob")
    st = game(MH, CUPID_GAME, script, NO_SHERIFF)
    assert st.step == "vote"
    dan = choices(st, "Dan")["vote"].targets
    eve = choices(st, "Eve")["vote"].targets
    assert S("Eve") not in dan and S("Dan") not in eve
    assert S("Ann") in dan and S("Ann") in eve
    out = play(MH, CUPID_GAME, script + [a("Dan", "vote", "Eve")], NO_SHERIFF)
    assert refused(out) == len(script)


def test_lovers_may_not_vote_for_each_other_in_the_sheriff_election__rules_s5_cupid_000_003():
    """RULES.md §5 Cupid: lovers may not vote for each other in *any* vote, the
    sheriff election included ([000] 恋人はお互いを投票できない; [003] 投票時…
    不得把票投給另壹名情侶) [issue 9]; each may still vote for himself there."""
    script = [a("Cid", "link", None, targets=["Dan", "Eve"])] + attack("Gus", "Ann", "Bob")
    st = game(MH, CUPID_GAME, script)
    assert st.step == "election"
    dan = choices(st, "Dan")["vote"].targets
    eve = choices(st, "Eve")["vote"].targets
    assert S("Eve") not in dan and S("Dan") not in eve
    assert S("Dan") in dan and S("Ann") in eve
    out = play(MH, CUPID_GAME, script + [a("Eve", "vote", "Dan")])
    assert refused(out) == len(script)


def test_mixed_lovers_win_as_last_two_alive_without_cupid__rules_s5_cupid_s7_000_003():
    """RULES.md §5 cupid / §7.2: mixed lovers are the only two alive → they (only) win;
    Cupid keeps his own goal [000], so he is not among the winners."""
    roles = ["werewolf", "cupid", "villager", "villager", "villager"]
    script = ([a("Bob", "link", None, targets=["Ann", "Cid"])] + attack("Dan", "Ann")
              + votes("Ann>Bob", "Cid>Bob", "Eve>Bob", "Bob>Ann")
              + attack("Eve", "Ann"))
    out = ok(play(MH, roles, script, NO_SHERIFF))
    assert deaths(out) == [("Dan", "werewolves", "night 1"), ("Bob", "execution", "day 1"),
                           ("Eve", "werewolves", "night 2")]
    assert out["winner"] == "lovers"
    assert out["winners"] == ["Ann", "Cid"]


def test_mixed_lovers_do_not_win_with_their_old_side_cupid_does__rules_s5_cupid_s7_000():
    """RULES.md §5 cupid / §7: the village wins; the mixed villager lover is not a winner
    (goal changed), Cupid keeps his own goal and wins with the village [000]."""
    script = ([a("Cid", "link", None, targets=["Bob", "Dan"])] + attack("Gus", "Ann", "Bob")
              + votes("Ann>Cid", "Bob>Ann", "Cid>Ann", "Dan>Ann", "Eve>Ann", "Fay>Ann")
              + attack("Fay", "Bob")
              + votes("Cid>Bob", "Eve>Bob", "Bob>Cid", "Dan>Eve"))
    out = ok(play(MH, CUPID_GAME, script, NO_SHERIFF))
    assert deaths(out) == [("Gus", "werewolves", "night 1"), ("Ann", "execution", "day 1"),
                           ("Fay", "werewolves", "night 2"), ("Bob", "execution", "day 2"),
                           ("Dan", "heartbreak", "day 2")]
    assert out["winner"] == "village"
    assert out["winners"] == ["Cid", "Eve", "Fay", "Gus"]


def test_non_mixed_lovers_win_with_their_side__rules_s5_cupid_s7():
    """RULES.md §5 cupid / §7: only a *mixed* pair changes goal; two village lovers win
    with the village, Cupid too."""
    script = ([a("Cid", "link", None, targets=["Dan", "Eve"])] + attack("Gus", "Ann", "Bob")
              + votes("Ann>Cid", "Bob>Ann", "Cid>Ann", "Dan>Ann", "Eve>Ann", "Fay>Ann")
              + attack("Fay", "Bob")
              + votes("Cid>Bob", "Dan>Bob", "Eve>Bob", "Bob>Cid"))
    out = ok(play(MH, CUPID_GAME, script, NO_SHERIFF))
    assert out["winner"] == "village"
    assert out["winners"] == ["Cid", "Dan", "Eve", "Fay", "Gus"]


def test_wolves_do_not_win_while_mixed_partner_lives__rules_s7_decision():
    """RULES.md §7.6 (Decision): no wolf win while a mixed-lover wolf's partner lives
    (here at parity: 2 wolves, 2 humans, one of them Ann's lover)."""
    roles = ["werewolf", "werewolf", "cupid", "villager", "villager"]
    script = [a("Cid", "link", None, targets=["Ann", "Dan"])] + attack("Eve", "Ann", "Bob")
    st = game(MH, roles, script, {**NO_SHERIFF, "wolves_win": "parity"})
    assert st.winner is None and (st.phase, st.step) == ("day", "vote")
    # control: without the lovers the same position is a wolf win at parity
    out = ok(play(MH, roles, [a("Cid", "pass")] + attack("Eve", "Ann", "Bob"),
                  {**NO_SHERIFF, "wolves_win": "parity"}))
    assert out["winner"] == "werewolves"


# =============================================================================
# Little girl — RULES.md §5 little girl [000][002][003]
# =============================================================================

# Ann, Bob wolves; Cid little girl; Dan, Eve, Fay villagers
GIRL_GAME = ["werewolf", "werewolf", "little-girl", "villager", "villager", "villager"]


def spy(outcome: str, mode: str = "discreet") -> dict:
    return a("Cid", "spy", mode=mode, outcome=outcome)


def test_wolves_step_waits_for_the_little_girl__rules_s5_werewolf():
    """RULES.md §5 werewolf: the step closes once the wolves agree *and* the little girl
    (if she can act) has spied or passed."""
    st = game(MH, GIRL_GAME, attack("Dan", "Ann", "Bob"), NO_SHERIFF)
    assert st.step == "wolves"
    assert waiting_for(st) == [S("Cid")]
    c = choices(st, "Cid")
    assert set(c) == {"spy", "pass"}
    assert set(c["spy"].modes) == {"discreet", "bold"}


def test_little_girl_caught_dies_instead_of_the_victim__rules_s5_little_girl_002_003():
    """RULES.md §5 little girl: caught → she dies in place of the wolves' victim."""
    out = ok(play(MH, GIRL_GAME, [spy("caught")] + attack("Dan", "Ann", "Bob"), NO_SHERIFF))
    assert deaths(out) == [("Cid", "werewolves", "night 1")]
    assert "Dan" in out["alive"]


@pytest.mark.parametrize("mode", ["discreet", "bold"])
def test_little_girl_spy_nothing_victim_dies__rules_s5_little_girl_000(mode):
    """RULES.md §5 little girl: outcome "nothing" changes nothing."""
    out = ok(play(MH, GIRL_GAME, attack("Dan", "Ann", "Bob") + [spy("nothing", mode)],
                  NO_SHERIFF))
    assert deaths(out) == [("Dan", "werewolves", "night 1")]
    st = game(MH, GIRL_GAME, attack("Dan", "Ann", "Bob") + [spy("nothing", mode)], NO_SHERIFF)
    assert results(st, "Cid") == [
        {"kind": "spy", "mode": mode, "outcome": "nothing", "wolf": None}]


@pytest.mark.parametrize("mode,odds", [("discreet", (0.2, 0.2, 0.6)), ("bold", (0.4, 0.4, 0.2))])
def test_little_girl_spy_odds__rules_s5_little_girl_000(mode, odds):
    """RULES.md §5 little girl [000]: discreet 20/20/60 %, bold 40/40/20 % (wolf/caught/
    nothing), drawn from the seed when the script does not force the outcome."""
    n = 400
    seen = {"wolf": 0, "caught": 0, "nothing": 0}
    for seed in range(n):
        st = game(MH, GIRL_GAME, attack("Dan", "Ann", "Bob") + [a("Cid", "spy", mode=mode)],
                  NO_SHERIFF, seed=seed)
        seen[results(st, "Cid")[-1]["outcome"]] += 1
    for outcome, p in zip(("wolf", "caught", "nothing"), odds):
        assert abs(seen[outcome] / n - p) < 0.07, (outcome, seen)


def test_little_girl_spy_wolf_learns_a_wolf__rules_s5_little_girl_000():
    """RULES.md §5 little girl: outcome "wolf" → she learns one wolf; the victim still dies."""
    script = attack("Dan", "Ann", "Bob") + [spy("wolf", "bold")]
    st = game(MH, GIRL_GAME, script, NO_SHERIFF)
    res = results(st, "Cid")
    assert len(res) == 1 and res[0]["outcome"] == "wolf"
    assert res[0]["wolf"] in seats("Ann", "Bob")
    out = ok(play(MH, GIRL_GAME, script, NO_SHERIFF))
    assert deaths(out) == [("Dan", "werewolves", "night 1")]


def test_little_girl_caught_is_the_victim_the_witch_sees__rules_s5_little_girl():
    """RULES.md §5 little girl: caught → the witch is shown her."""
    roles = ["werewolf", "werewolf", "little-girl", "witch", "villager", "villager", "villager"]
    st = game(MH, roles, attack("Eve", "Ann", "Bob") + [spy("caught")], NO_SHERIFF)
    assert st.step == "witch"
    c = choices(st, "Dan")["potion"]
    assert c.info["victim"] == S("Cid") and c.heal is True


DEF_GIRL_GAME = ["werewolf", "werewolf", "little-girl", "defender", "villager", "villager"]


def test_defender_protection_on_caught_little_girl_has_no_effect__rules_s5_little_girl():
    """RULES.md §5 little girl [002][003]: the defender may choose her, without effect."""
    st = game(MH, DEF_GIRL_GAME, [], NO_SHERIFF)
    assert S("Cid") in choices(st, "Dan")["protect"].targets
    script = [a("Dan", "protect", "Cid")] + attack("Eve", "Ann", "Bob") + [spy("caught")]
    out = ok(play(MH, DEF_GIRL_GAME, script, NO_SHERIFF))
    assert deaths(out) == [("Cid", "werewolves", "night 1")]
    assert "Eve" in out["alive"]


def test_defender_protection_on_attacked_little_girl_has_no_effect__rules_s5_little_girl():
    """RULES.md §5 little girl / defender [002: 少女を守護した場合、守護者は無効]."""
    script = [a("Dan", "protect", "Cid")] + attack("Cid", "Ann", "Bob") + [a("Cid", "pass")]
    out = ok(play(MH, DEF_GIRL_GAME, script, NO_SHERIFF))
    assert deaths(out) == [("Cid", "werewolves", "night 1")]


# =============================================================================
# Thief — RULES.md §5 thief [000][002][003]
# =============================================================================

# Ann thief; Bob, Cid wolves; Dan, Eve, Fay villagers
THIEF_GAME = ["thief", "werewolf", "werewolf", "villager", "villager", "villager"]


def test_thief_sees_the_centre_and_may_swap_or_pass__rules_s5_thief():
    """RULES.md §5 thief: night 1, sees the two centre cards and may swap."""
    st = game(MH, THIEF_GAME, [], NO_SHERIFF, center=["seer", "villager"])
    assert st.n == 1 and st.step == "thief"
    c = choices(st, "Ann")
    assert set(c) == {"swap", "pass"}
    assert set(c["swap"].cards) == {0, 1}
    assert results(st, "Ann") == [{"kind": "centre", "cards": ["seer", "villager"]}]


def test_thief_swap_plays_the_new_role_that_night__rules_s5_thief():
    """RULES.md §5 thief: after a swap he plays the new role from that night on."""
    st = game(MH, THIEF_GAME, [a("Ann", "swap", card=0)], NO_SHERIFF,
              center=["seer", "villager"])
    assert st.roles[S("Ann")] == "seer"
    assert st.center == ["thief", "villager"]
    assert st.step == "seer" and "inspect" in choices(st, "Ann")
    view = view_for(st, S("Ann"))
    assert view["role"] == "seer" and view["dealt"] == "thief"


def test_thief_who_takes_a_werewolf_attacks_that_night__rules_s5_thief():
    """RULES.md §5 thief: takes a werewolf → he is a wolf and must agree that very night."""
    center = ["werewolf", "villager"]
    st = game(MH, THIEF_GAME, [a("Ann", "swap", card=0)] + attack("Dan", "Bob", "Cid"),
              NO_SHERIFF, center=center)
    assert st.step == "wolves" and S("Ann") in waiting_for(st) and st.attack is None
    assert view_for(st, S("Ann"))["knows"]["pack"] == list(seats("Ann", "Bob", "Cid"))
    out = ok(play(MH, THIEF_GAME, [a("Ann", "swap", card=0)] + attack("Dan", "Bob", "Cid", "Ann"),
                  NO_SHERIFF, center=center))
    assert deaths(out) == [("Dan", "werewolves", "night 1")]


def test_thief_must_swap_when_both_centre_cards_are_werewolves__rules_s5_thief_000_002_003():
    """RULES.md §5 thief [000][002][003]: two werewolves in the centre → he must swap."""
    center = ["werewolf", "werewolf"]
    st = game(MH, THIEF_GAME, [], NO_SHERIFF, center=center)
    assert [c.do for c in legal_actions(st, S("Ann"))] == ["swap"]
    assert refused(play(MH, THIEF_GAME, [a("Ann", "pass")], NO_SHERIFF, center=center)) == 0


def test_thief_timeout_with_two_werewolves_takes_card_0__rules_s5_thief_decision():
    """RULES.md §5 thief (must swap) + docs/rules.md §11.8: timeout gives card 0."""
    st = game(MH, THIEF_GAME, [a(None, "timeout")], NO_SHERIFF, center=["werewolf", "werewolf"])
    assert st.roles[S("Ann")] == "werewolf"
    assert st.step == "wolves" and S("Ann") in waiting_for(st)


@pytest.mark.parametrize("how", [a("Ann", "pass"), a(None, "timeout")], ids=["pass", "timeout"])
def test_thief_without_swap_is_a_villager__rules_s5_thief(how):
    """RULES.md §5 thief: without a swap he is a villager (§1: a timeout = pass)."""
    st = game(MH, THIEF_GAME, [how], NO_SHERIFF, center=["seer", "villager"])
    assert st.roles[S("Ann")] == "villager"
    assert view_for(st, S("Ann"))["role"] == "villager"
    assert st.step == "wolves" and legal_actions(st, S("Ann")) == []


# =============================================================================
# Defender — RULES.md §5 defender [002][003]
# =============================================================================

# Ann, Bob wolves; Cid defender; Dan..Hal villagers
DEF_GAME = ["werewolf", "werewolf", "defender", "villager", "villager", "villager",
            "villager", "villager"]


def test_defender_protects_from_the_wolves__rules_s5_defender_002_003():
    """RULES.md §5 defender: the protected player survives the wolves."""
    out = ok(play(MH, DEF_GAME, [a("Cid", "protect", "Dan")] + attack("Dan", "Ann", "Bob"),
                  NO_SHERIFF))
    assert deaths(out) == []
    out = ok(play(MH, DEF_GAME, [a("Cid", "protect", "Eve")] + attack("Dan", "Ann", "Bob"),
                  NO_SHERIFF))
    assert deaths(out) == [("Dan", "werewolves", "night 1")]


def test_defender_may_protect_himself__rules_s5_defender_002_003():
    """RULES.md §5 defender: himself allowed."""
    st = game(MH, DEF_GAME, [], NO_SHERIFF)
    assert st.step == "defender"
    assert S("Cid") in choices(st, "Cid")["protect"].targets
    out = ok(play(MH, DEF_GAME, [a("Cid", "protect", "Cid")] + attack("Cid", "Ann", "Bob"),
                  NO_SHERIFF))
    assert deaths(out) == []


def test_defender_not_the_same_player_two_nights_running__rules_s5_defender_002_003():
    """RULES.md §5 defender [002][003]: never the same player two nights in a row."""
    alive = ["Ann", "Bob", "Cid", "Dan", "Fay", "Gus", "Hal"]
    script = ([a("Cid", "protect", "Dan")] + attack("Eve", "Ann", "Bob")
              + everyone_votes("Hal", alive, "Ann"))
    st = game(MH, DEF_GAME, script, NO_SHERIFF)
    assert st.n == 2 and st.step == "defender"
    targets = choices(st, "Cid")["protect"].targets
    assert S("Dan") not in targets
    assert {S("Cid"), S("Fay"), S("Ann")} <= set(targets)
    assert refused(play(MH, DEF_GAME, script + [a("Cid", "protect", "Dan")],
                            NO_SHERIFF)) == len(script)


def test_defender_self_not_two_nights_running__rules_s5_defender_002():
    """RULES.md §5 defender [002: 前夜に守られたプレイヤーを続けて守ることはできない] —
    the rule covers himself too."""
    alive = ["Ann", "Bob", "Cid", "Dan", "Fay", "Gus", "Hal"]
    script = ([a("Cid", "protect", "Cid")] + attack("Eve", "Ann", "Bob")
              + everyone_votes("Hal", alive, "Ann"))
    st = game(MH, DEF_GAME, script, NO_SHERIFF)
    assert S("Cid") not in choices(st, "Cid")["protect"].targets


# =============================================================================
# Village idiot — RULES.md §5 village idiot [002][003]
# =============================================================================

# Ann, Bob wolves; Cid idiot; Dan..Gus villagers
IDIOT_GAME = ["werewolf", "werewolf", "village-idiot", "villager", "villager", "villager",
              "villager"]
IDIOT_DAY1 = attack("Gus", "Ann", "Bob") + everyone_votes(
    "Cid", ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay"], "Ann")


def test_idiot_survives_execution_and_is_revealed__rules_s5_village_idiot_002_003():
    """RULES.md §5 village idiot: voted out → card revealed, stays alive."""
    st = game(MH, IDIOT_GAME, IDIOT_DAY1, NO_SHERIFF)
    assert st.alive[S("Cid")]
    assert st.deaths == [(S("Gus"), "werewolves", "night 1")]
    pub = public_view(st)["players"][S("Cid")]
    assert pub["role"] == "village-idiot" and pub["can_vote"] is False
    assert (st.phase, st.n) == ("night", 2)


def test_revealed_idiot_loses_his_vote__rules_s5_village_idiot_002_003():
    """RULES.md §5 village idiot / §6: the revealed idiot can never vote again."""
    script = IDIOT_DAY1 + attack("Fay", "Ann", "Bob")
    st = game(MH, IDIOT_GAME, script, NO_SHERIFF)
    assert (st.phase, st.n, st.step) == ("day", 2, "vote")
    assert legal_actions(st, S("Cid")) == []
    assert S("Cid") not in waiting_for(st)
    assert refused(play(MH, IDIOT_GAME, script + [a("Cid", "vote", "Ann")],
                            NO_SHERIFF)) == len(script)


def test_revealed_idiot_dies_to_wolves_normally__rules_s5_village_idiot_003():
    """RULES.md §5 village idiot [003]: wolves kill him normally."""
    out = ok(play(MH, IDIOT_GAME, IDIOT_DAY1 + attack("Cid", "Ann", "Bob"), NO_SHERIFF))
    assert deaths(out) == [("Gus", "werewolves", "night 1"), ("Cid", "werewolves", "night 2")]


def test_unrevealed_idiot_dies_to_wolves_normally__rules_s5_village_idiot_003():
    """RULES.md §5 village idiot [003]: wolves kill him normally."""
    out = ok(play(MH, IDIOT_GAME, attack("Cid", "Ann", "Bob"), NO_SHERIFF))
    assert deaths(out) == [("Cid", "werewolves", "night 1")]


def test_idiot_survives_execution_only_once__rules_s5_village_idiot():
    """RULES.md §5 village idiot: the reprieve is once; voted out again, he dies."""
    script = IDIOT_DAY1 + attack("Fay", "Ann", "Bob") + votes(
        "Ann>Cid", "Bob>Cid", "Dan>Cid", "Eve>Ann")
    out = ok(play(MH, IDIOT_GAME, script, NO_SHERIFF))
    assert deaths(out)[-1] == ("Cid", "execution", "day 2")


def test_idiot_killed_by_hunter_normally__rules_s5_village_idiot_003():
    """RULES.md §5 village idiot [003]: the hunter kills him normally."""
    roles = ["werewolf", "werewolf", "village-idiot", "hunter", "villager", "villager"]
    out = ok(play(MH, roles, attack("Dan", "Ann", "Bob") + [a("Dan", "shoot", "Cid")],
                  NO_SHERIFF))
    assert deaths(out) == [("Dan", "werewolves", "night 1"), ("Cid", "hunter", "night 1")]


# =============================================================================
# Elder — RULES.md §5 elder [002][003]
# =============================================================================

# Ann, Bob wolves; Cid seer; Dan elder; Eve..Hal villagers
ELDER_GAME = ["werewolf", "werewolf", "seer", "elder", "villager", "villager", "villager",
              "villager"]


def test_elder_survives_the_first_wolf_attack_card_hidden__rules_s5_elder_002_003():
    """RULES.md §5 elder: survives the first wolf attack; his card stays hidden."""
    st = game(MH, ELDER_GAME, [a("Cid", "inspect", "Eve")] + attack("Dan", "Ann", "Bob"),
              NO_SHERIFF)
    assert st.deaths == [] and st.alive[S("Dan")]
    assert (st.phase, st.n) == ("day", 1)
    assert public_view(st)["players"][S("Dan")]["role"] is None


def test_elder_dies_to_the_second_wolf_attack__rules_s5_elder_002_003():
    """RULES.md §5 elder: dies to the second attack."""
    alive = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus", "Hal"]
    script = ([a("Cid", "inspect", "Eve")] + attack("Dan", "Ann", "Bob")
              + everyone_votes("Hal", alive, "Ann")
              + [a("Cid", "inspect", "Fay")] + attack("Dan", "Ann", "Bob"))
    out = ok(play(MH, ELDER_GAME, script, NO_SHERIFF))
    assert deaths(out) == [("Hal", "execution", "day 1"), ("Dan", "werewolves", "night 2")]


def test_elder_healed_attack_still_costs_the_spare_life__rules_s5_elder_003():
    """RULES.md §5 elder [003]: an attack the witch heals still uses up his spare life."""
    roles = ["werewolf", "werewolf", "witch", "elder", "villager", "villager", "villager",
             "villager"]
    alive = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus", "Hal"]
    script = (attack("Dan", "Ann", "Bob") + [a("Cid", "potion", heal=True, poison=None)]
              + everyone_votes("Hal", alive, "Ann")
              + attack("Dan", "Ann", "Bob") + [a("Cid", "pass")])
    out = ok(play(MH, roles, script, NO_SHERIFF))
    assert deaths(out) == [("Hal", "execution", "day 1"), ("Dan", "werewolves", "night 2")]


def _seer_called_on_night_2(script: list[dict], roles=ELDER_GAME) -> tuple[bool, object]:
    st = game(MH, roles, script, NO_SHERIFF)
    assert (st.phase, st.n) == ("night", 2)
    return st.step == "seer", st


def test_elder_executed_village_loses_powers__rules_s5_elder_003():
    """RULES.md §5 elder [003]: executed → every village role loses its power
    (the seer is no longer called and has no legal action)."""
    alive = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus"]
    day1 = [a("Cid", "inspect", "Eve")] + attack("Hal", "Ann", "Bob")
    called, st = _seer_called_on_night_2(day1 + everyone_votes("Dan", alive, "Ann"))
    assert st.deaths[-1] == (S("Dan"), "execution", "day 1")
    assert not called and st.step == "wolves"
    assert legal_actions(st, S("Cid")) == []
    # control: executing a plain villager leaves the seer her power
    called, st = _seer_called_on_night_2(day1 + everyone_votes("Gus", alive, "Ann"))
    assert called and "inspect" in choices(st, "Cid")


def test_elder_poisoned_village_loses_powers__rules_s5_elder_003():
    """RULES.md §5 elder [003]: poison kills him at once, then village roles lose powers."""
    roles = ["werewolf", "werewolf", "seer", "elder", "witch", "villager", "villager",
             "villager"]
    alive = ["Ann", "Bob", "Cid", "Eve", "Gus", "Hal"]
    script = ([a("Cid", "inspect", "Eve")] + attack("Fay", "Ann", "Bob")
              + [a("Eve", "potion", heal=False, poison="Dan")]
              + everyone_votes("Hal", alive, "Ann"))
    st = game(MH, roles, script, NO_SHERIFF)
    assert (S("Dan"), "poison", "night 1") in st.deaths
    assert (st.phase, st.n, st.step) == ("night", 2, "wolves")
    assert legal_actions(st, S("Cid")) == []


def test_elder_shot_by_hunter_village_loses_powers__rules_s5_elder_003():
    """RULES.md §5 elder [003]: the hunter's shot kills him at once; powers lost."""
    roles = ["werewolf", "werewolf", "seer", "elder", "hunter", "villager", "villager",
             "villager"]
    alive = ["Ann", "Bob", "Cid", "Dan", "Eve", "Gus", "Hal"]
    script = ([a("Cid", "inspect", "Eve")] + attack("Fay", "Ann", "Bob")
              + everyone_votes("Eve", alive, "Ann") + [a("Eve", "shoot", "Dan")])
    st = game(MH, roles, script, NO_SHERIFF)
    assert st.deaths[-2:] == [(S("Eve"), "execution", "day 1"), (S("Dan"), "hunter", "day 1")]
    assert (st.phase, st.n, st.step) == ("night", 2, "wolves")
    assert legal_actions(st, S("Cid")) == []


def test_elder_executed_other_village_powers_lost_too__rules_s5_elder_003():
    """RULES.md §5 elder [003]: *every* village role loses its power — the witch is not
    called and a later hunter does not shoot."""
    roles = ["werewolf", "werewolf", "witch", "elder", "hunter", "villager", "villager",
             "villager"]
    alive = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus"]
    script = (attack("Hal", "Ann", "Bob") + [a("Cid", "pass")]
              + everyone_votes("Dan", alive, "Ann") + attack("Eve", "Ann", "Bob"))
    st = game(MH, roles, script, NO_SHERIFF)
    # the witch's step is skipped, and the hunter dies without a shot
    assert (st.phase, st.n, st.step) == ("day", 2, "vote")
    assert st.deaths[-1] == (S("Eve"), "werewolves", "night 2")


def test_elder_killed_by_wolves_keeps_village_powers__rules_s5_elder_003():
    """RULES.md §5 elder [003]: only poison, hunter or execution cost the powers."""
    alive1 = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus", "Hal"]
    alive2 = ["Ann", "Bob", "Cid", "Eve", "Fay", "Gus"]
    script = ([a("Cid", "inspect", "Eve")] + attack("Dan", "Ann", "Bob")
              + everyone_votes("Hal", alive1, "Ann")
              + [a("Cid", "inspect", "Fay")] + attack("Dan", "Ann", "Bob")
              + everyone_votes("Gus", alive2, "Ann"))
    st = game(MH, ELDER_GAME, script, NO_SHERIFF)
    assert (st.phase, st.n, st.step) == ("night", 3, "seer")
    assert "inspect" in choices(st, "Cid")


# =============================================================================
# Scapegoat — RULES.md §5 scapegoat [002][003]
# =============================================================================

# Ann, Bob wolves; Cid scapegoat; Dan..Hal villagers
GOAT_GAME = ["werewolf", "werewolf", "scapegoat", "villager", "villager", "villager",
             "villager", "villager"]
GOAT_TIE = attack("Hal", "Ann", "Bob") + votes(
    "Ann>Dan", "Bob>Dan", "Cid>Eve", "Dan>Eve", "Eve>Dan", "Fay>Eve", "Gus>Ann")


def test_scapegoat_dies_on_a_tie_instead__rules_s5_scapegoat_002_003():
    """RULES.md §5 scapegoat: on a tie he dies instead of the tied players."""
    st = game(MH, GOAT_GAME, GOAT_TIE, NO_SHERIFF)
    assert st.deaths == [(S("Hal"), "werewolves", "night 1"), (S("Cid"), "scapegoat", "day 1")]
    assert st.alive[S("Dan")] and st.alive[S("Eve")]
    assert st.step == "allow" and st.actor == S("Cid")
    c = choices(st, "Cid")
    assert list(c) == ["allow"]
    assert c["allow"].count[0] == 0  # he may name nobody


def test_scapegoat_overrides_the_bga_runoff__rules_s6_tie():
    """RULES.md §6: a scapegoat in play overrides every tie policy (bga: runoff-once)."""
    st = game(BGA, GOAT_GAME, GOAT_TIE, NO_SHERIFF)
    assert st.deaths[-1] == (S("Cid"), "scapegoat", "day 1")
    assert st.step == "allow"


def test_scapegoat_names_next_days_voters__rules_s5_scapegoat_003():
    """RULES.md §5 scapegoat [003]: he names who may vote the next day (others may not)."""
    script = GOAT_TIE + [a("Cid", "allow", None, targets=["Dan", "Eve"])] \
        + attack("Fay", "Ann", "Bob")
    st = game(MH, GOAT_GAME, script, NO_SHERIFF)
    assert (st.phase, st.n, st.step) == ("day", 2, "vote")
    assert sorted(waiting_for(st)) == list(seats("Dan", "Eve"))
    assert legal_actions(st, S("Gus")) == [] and legal_actions(st, S("Ann")) == []
    assert refused(play(MH, GOAT_GAME, script + [a("Gus", "vote", "Ann")],
                            NO_SHERIFF)) == len(script)
    out = ok(play(MH, GOAT_GAME, script + votes("Dan>Ann", "Eve>Ann"), NO_SHERIFF))
    assert deaths(out)[-1] == ("Ann", "execution", "day 2")


def test_scapegoat_names_nobody_no_execution_vote_next_day__rules_s5_scapegoat_decision():
    """RULES.md §5 scapegoat (Decision): empty list → no execution vote that day."""
    script = GOAT_TIE + [a("Cid", "allow", None, targets=[])] + attack("Fay", "Ann", "Bob")
    st = game(MH, GOAT_GAME, script, NO_SHERIFF)
    assert (st.phase, st.n) == ("night", 3)
    assert [d[0] for d in st.deaths] == list(seats("Hal", "Cid", "Fay"))


def test_scapegoat_named_voters_all_dead_no_execution_vote__rules_s5_scapegoat_decision():
    """RULES.md §5 scapegoat (Decision): none of the named can vote → no execution vote."""
    script = GOAT_TIE + [a("Cid", "allow", None, targets=["Fay"])] + attack("Fay", "Ann", "Bob")
    st = game(MH, GOAT_GAME, script, NO_SHERIFF)
    assert (st.phase, st.n) == ("night", 3)


def test_scapegoat_restriction_lasts_one_day__rules_s5_scapegoat_003():
    """RULES.md §5 scapegoat [003]: his choice is for *the next day* only."""
    script = GOAT_TIE + [a("Cid", "allow", None, targets=[])] + attack("Fay", "Ann", "Bob") \
        + attack("Gus", "Ann", "Bob")
    st = game(MH, GOAT_GAME, script, NO_SHERIFF)
    assert (st.phase, st.n, st.step) == ("day", 3, "vote")
    assert sorted(waiting_for(st)) == list(seats("Ann", "Bob", "Dan", "Eve"))


def test_scapegoat_timeout_everyone_votes__docs_rules_s11_19():
    """docs/rules.md §11.19: a timeout on his choice leaves everyone free to vote."""
    script = GOAT_TIE + [a(None, "timeout")] + attack("Fay", "Ann", "Bob")
    st = game(MH, GOAT_GAME, script, NO_SHERIFF)
    assert (st.phase, st.n, st.step) == ("day", 2, "vote")
    assert sorted(waiting_for(st)) == list(seats("Ann", "Bob", "Dan", "Eve", "Gus"))


# =============================================================================
# White werewolf — RULES.md §5 white werewolf [000]
# =============================================================================

# Ann werewolf; Bob white werewolf; Cid..Hal villagers
WW_GAME = ["werewolf", "white-werewolf", "villager", "villager", "villager", "villager",
           "villager", "villager"]


def test_white_werewolf_wakes_with_the_wolves__rules_s5_white_werewolf_000():
    """RULES.md §5 white werewolf: wakes with the wolves, who see him as one of them;
    under `unanimous` his pick is needed too."""
    st = game(MH, WW_GAME, attack("Cid", "Ann"), NO_SHERIFF)
    assert st.step == "wolves" and S("Bob") in waiting_for(st) and st.attack is None
    assert S("Ann") not in choices(st, "Bob")["attack"].targets
    ann = view_for(st, S("Ann"))
    assert ann["knows"]["pack"] == list(seats("Ann", "Bob"))
    assert ann["players"][S("Bob")]["role"] == "werewolf"
    out = ok(play(MH, WW_GAME, attack("Cid", "Ann", "Bob"), NO_SHERIFF))
    assert deaths(out) == [("Cid", "werewolves", "night 1")]


def test_white_werewolf_devours_on_even_nights_only__rules_s5_white_werewolf_000():
    """RULES.md §5 white werewolf [000: 偶数番目の夜]: called on nights 2, 4, …, never 1, 3."""
    st = game(MH, WW_GAME, attack("Cid", "Ann", "Bob"), NO_SHERIFF)
    assert (st.phase, st.n) == ("day", 1)  # night 1: no white-werewolf step
    n1 = attack("Cid", "Ann", "Bob") + everyone_votes(
        "Dan", ["Ann", "Bob", "Dan", "Eve", "Fay", "Gus", "Hal"], "Ann")
    st = game(MH, WW_GAME, n1 + attack("Eve", "Ann", "Bob"), NO_SHERIFF)
    assert (st.n, st.step) == (2, "white-werewolf")
    c = choices(st, "Bob")
    assert set(c) == {"devour", "pass"}
    assert c["devour"].targets == (S("Ann"),)  # only a werewolf
    n2 = n1 + attack("Eve", "Ann", "Bob") + [a("Bob", "pass")] + everyone_votes(
        "Fay", ["Ann", "Bob", "Fay", "Gus", "Hal"], "Ann")
    st = game(MH, WW_GAME, n2 + attack("Gus", "Ann", "Bob"), NO_SHERIFF)
    assert (st.phase, st.n) == ("day", 3)  # night 3: not called


def test_white_werewolf_devour_kills_a_werewolf__rules_s5_white_werewolf_000():
    """RULES.md §5 white werewolf: on an even night he may kill one werewolf."""
    n1 = attack("Cid", "Ann", "Bob") + everyone_votes(
        "Dan", ["Ann", "Bob", "Dan", "Eve", "Fay", "Gus", "Hal"], "Ann")
    out = ok(play(MH, WW_GAME, n1 + attack("Eve", "Ann", "Bob") + [a("Bob", "devour", "Ann")],
                  NO_SHERIFF))
    assert sorted(deaths(out)[2:]) == [("Ann", "white-werewolf", "night 2"),
                                       ("Eve", "werewolves", "night 2")]


def test_white_werewolf_cannot_devour_a_villager__rules_s5_white_werewolf_000():
    """RULES.md §5 white werewolf: he devours a werewolf, not anyone."""
    n1 = attack("Cid", "Ann", "Bob") + everyone_votes(
        "Dan", ["Ann", "Bob", "Dan", "Eve", "Fay", "Gus", "Hal"], "Ann")
    script = n1 + attack("Eve", "Ann", "Bob")
    assert refused(play(MH, WW_GAME, script + [a("Bob", "devour", "Fay")],
                            NO_SHERIFF)) == len(script)


WW5 = ["werewolf", "white-werewolf", "villager", "villager", "villager"]
WW5_DAY1 = attack("Cid", "Ann", "Bob") + votes("Ann>Dan", "Bob>Dan", "Dan>Ann", "Eve>Dan")


def test_white_werewolf_wins_alone__rules_s5_white_werewolf_s7_000():
    """RULES.md §5 / §7.4: the white werewolf as sole survivor wins alone."""
    out = ok(play(MH, WW5, WW5_DAY1 + attack("Eve", "Ann", "Bob") + [a("Bob", "devour", "Ann")],
                  NO_SHERIFF))
    assert out["alive"] == ["Bob"]
    assert out["winner"] == "white-werewolf"
    assert out["winners"] == ["Bob"]


def test_wolves_do_not_win_beside_a_living_white_werewolf__rules_s7_decision():
    """RULES.md §7.6 (Decision): no wolf win while a white werewolf lives beside wolves."""
    st = game(MH, WW5, WW5_DAY1 + attack("Eve", "Ann", "Bob") + [a("Bob", "pass")], NO_SHERIFF)
    assert [NAMES[i] for i in range(5) if st.alive[i]] == ["Ann", "Bob"]
    assert st.winner is None and st.phase == "day"


# =============================================================================
# Piper — RULES.md §5 piper [002][003]
# =============================================================================

# Ann, Bob wolves; Cid piper; Dan..Gus villagers
PIPER_GAME = ["werewolf", "werewolf", "piper", "villager", "villager", "villager", "villager"]


def test_piper_charms_two_other_players__rules_s5_piper_002_003():
    """RULES.md §5 piper: each night charms two other players (never himself); the charmed
    wake together and see each other."""
    st = game(MH, PIPER_GAME, attack("Gus", "Ann", "Bob"), NO_SHERIFF)
    assert st.step == "piper"
    c = choices(st, "Cid")["charm"]
    assert c.count == (2, 2)
    assert S("Cid") not in c.targets
    assert refused(play(MH, PIPER_GAME, attack("Gus", "Ann", "Bob")
                            + [a("Cid", "charm", None, targets=["Dan"])], NO_SHERIFF)) == 2
    assert refused(play(MH, PIPER_GAME, attack("Gus", "Ann", "Bob")
                            + [a("Cid", "charm", None, targets=["Cid", "Dan"])], NO_SHERIFF)) == 2
    st = game(MH, PIPER_GAME, attack("Gus", "Ann", "Bob")
              + [a("Cid", "charm", None, targets=["Dan", "Eve"])], NO_SHERIFF)
    assert st.charmed == set(seats("Dan", "Eve"))
    assert view_for(st, S("Dan"))["knows"]["charmed"] == list(seats("Dan", "Eve"))
    assert "charmed" not in view_for(st, S("Fay"))["knows"]


def test_piper_not_called_when_the_wolves_kill_him__rules_s5_piper_002():
    """RULES.md §5 piper [002]: not called on a night the wolves kill him."""
    st = game(MH, PIPER_GAME, attack("Cid", "Ann", "Bob"), NO_SHERIFF)
    assert (st.phase, st.n, st.step) == ("day", 1, "vote")
    assert st.deaths == [(S("Cid"), "werewolves", "night 1")]
    st = game(MH, PIPER_GAME, attack("Dan", "Ann", "Bob"), NO_SHERIFF)  # control
    assert st.step == "piper"


PIPER_WITCH = ["werewolf", "werewolf", "piper", "witch", "villager", "villager", "villager"]


def test_piper_not_called_when_the_witch_poisons_him__rules_s5_piper_002():
    """RULES.md §5 piper [002]: not called on a night the witch kills him."""
    st = game(MH, PIPER_WITCH, attack("Gus", "Ann", "Bob")
              + [a("Dan", "potion", heal=False, poison="Cid")], NO_SHERIFF)
    assert (st.phase, st.n) == ("day", 1)
    assert (S("Cid"), "poison", "night 1") in st.deaths


def test_piper_called_when_the_witch_heals_him__rules_s5_piper_002():
    """RULES.md §5 piper [002]: attacked but healed → he is not killed, so he is called."""
    st = game(MH, PIPER_WITCH, attack("Cid", "Ann", "Bob")
              + [a("Dan", "potion", heal=True, poison=None)], NO_SHERIFF)
    assert st.step == "piper" and "charm" in choices(st, "Cid")


def test_piper_wins_at_dawn_after_the_nights_deaths__rules_s5_piper_s7_002_003():
    """RULES.md §5 piper: wins when every other living player is charmed, checked at dawn
    after the night's deaths [002 ⑦]."""
    roles = ["werewolf", "piper", "villager", "villager"]
    script = attack("Dan", "Ann") + [a("Bob", "charm", None, targets=["Ann", "Cid"])]
    out = ok(play(MH, roles, script, NO_SHERIFF))
    assert deaths(out) == [("Dan", "werewolves", "night 1")]
    assert out["winner"] == "piper"
    assert out["winners"] == ["Bob"]


def test_piper_wins_after_a_day_death__rules_s5_piper_s7():
    """RULES.md §5 piper / §7: checked after every day death, before the village win."""
    roles = ["werewolf", "piper", "villager", "villager", "villager"]
    script = (attack("Eve", "Ann") + [a("Bob", "charm", None, targets=["Cid", "Dan"])]
              + votes("Bob>Ann", "Cid>Ann", "Dan>Ann", "Ann>Bob"))
    out = ok(play(MH, roles, script, NO_SHERIFF))
    assert deaths(out) == [("Eve", "werewolves", "night 1"), ("Ann", "execution", "day 1")]
    assert out["winner"] == "piper"
    assert out["winners"] == ["Bob"]


def test_piper_does_not_win_while_someone_is_uncharmed__rules_s5_piper():
    """RULES.md §5 piper: *every* other living player must be charmed."""
    roles = ["werewolf", "piper", "villager", "villager", "villager"]
    st = game(MH, roles, attack("Eve", "Ann") + [a("Bob", "charm", None, targets=["Cid", "Dan"])],
              NO_SHERIFF)
    assert st.winner is None and (st.phase, st.n) == ("day", 1)


def test_piper_charms_one_when_only_one_is_left__docs_rules_s11_9():
    """docs/rules.md §11.9: if only one uncharmed player remains, he charms one."""
    roles = ["werewolf", "piper", "villager", "villager", "villager", "villager"]
    script = (attack("Fay", "Ann") + [a("Bob", "charm", None, targets=["Cid", "Dan"])]
              + votes("Ann>Eve", "Bob>Eve", "Cid>Eve", "Dan>Eve", "Eve>Ann")
              + attack("Dan", "Ann"))
    st = game(MH, roles, script, NO_SHERIFF)
    assert (st.n, st.step) == (2, "piper")
    c = choices(st, "Bob")["charm"]
    assert c.count == (1, 1) and c.targets == (S("Ann"),)
    out = ok(play(MH, roles, script + [a("Bob", "charm", None, targets=["Ann"])], NO_SHERIFF))
    assert out["winner"] == "piper" and out["winners"] == ["Bob"]


def test_charm_does_not_spread_between_lovers__rules_s5_piper_003():
    """RULES.md §5 piper [003]: charm does not spread between lovers."""
    roles = ["werewolf", "werewolf", "piper", "cupid", "villager", "villager", "villager"]
    st = game(MH, roles, [a("Dan", "link", None, targets=["Eve", "Fay"])]
              + attack("Gus", "Ann", "Bob") + [a("Cid", "charm", None, targets=["Eve", "Ann"])],
              NO_SHERIFF)
    assert st.charmed == set(seats("Eve", "Ann"))


# =============================================================================
# Sheriff — RULES.md §6 sheriff [000][002][003]
# =============================================================================

# Ann, Bob wolves; Cid..Gus villagers; sheriff on (the millers-hollow default)
SHERIFF_GAME = ["werewolf", "werewolf", "villager", "villager", "villager", "villager",
                "villager"]
# night 1 Dan dies; Cid is elected with 3 of 6 votes
ELECT_CID = attack("Dan", "Ann", "Bob") + votes(
    "Ann>Bob", "Bob>Ann", "Cid>Eve", "Eve>Cid", "Fay>Cid", "Gus>Cid")


def test_sheriff_elected_on_day_1_before_the_vote__rules_s6_sheriff_000_003():
    """RULES.md §6 sheriff: elected by plurality on day 1 before the first execution vote."""
    st = game(MH, SHERIFF_GAME, attack("Dan", "Ann", "Bob"))
    assert (st.phase, st.n, st.step) == ("day", 1, "election")
    st = game(MH, SHERIFF_GAME, ELECT_CID)
    assert st.sheriff == S("Cid")
    assert (st.step, st.round) == ("vote", 1)


def test_sheriff_no_election_when_option_off__rules_s2_options():
    """RULES.md §2: `sheriff=false` → no election, straight to the execution vote."""
    st = game(MH, SHERIFF_GAME, attack("Dan", "Ann", "Bob"), NO_SHERIFF)
    assert st.step == "vote" and st.sheriff is None


def test_sheriff_election_votes_count_one_each__rules_s6_sheriff_all():
    """RULES.md §6 sheriff: the election counts one vote each; a 3–3 tie is re-voted among
    the tied (Decision)."""
    st = game(MH, SHERIFF_GAME, attack("Dan", "Ann", "Bob") + votes(
        "Ann>Ann", "Bob>Ann", "Cid>Ann", "Eve>Cid", "Fay>Cid", "Gus>Cid"))
    assert st.sheriff is None
    assert (st.step, st.round, st.candidates) == ("election", 2, seats("Ann", "Cid"))


def test_sheriff_vote_counts_double_in_the_execution_vote__rules_s6_sheriff_all():
    """RULES.md §6 sheriff [all]: his vote counts two in every execution vote.
    With `tie=none`, single votes would tie 2–2–2 and execute nobody."""
    opts = {"tie": "none"}
    script = ELECT_CID + votes("Cid>Ann", "Eve>Ann", "Ann>Eve", "Bob>Eve", "Fay>Bob", "Gus>Bob")
    out = ok(play(MH, SHERIFF_GAME, script, opts))
    assert deaths(out) == [("Dan", "werewolves", "night 1"), ("Ann", "execution", "day 1")]
    tally = [e for e in out["events"] if e["e"] == "tally"][-1]
    assert tally["counts"] == {str(S("Ann")): 3, str(S("Eve")): 2, str(S("Bob")): 2}


def test_sheriff_double_vote_in_runoff__rules_s6_sheriff_all():
    """RULES.md §6 sheriff: double in every execution vote *and runoff* (bga runoff-once)."""
    script = ELECT_CID + votes("Cid>Gus", "Ann>Gus", "Bob>Eve", "Eve>Fay", "Fay>Eve", "Gus>Fay")
    # round 1: Gus 3 (Cid double + Ann), Eve 2, Fay 2 → Gus executed (no runoff needed)
    out = ok(play(BGA, SHERIFF_GAME, script))
    assert deaths(out)[-1] == ("Gus", "execution", "day 1")
    # a runoff: round 1 ties Eve/Fay 3–3; in the runoff single votes would tie 3–3 again
    script = ELECT_CID + votes("Cid>Eve", "Ann>Eve", "Bob>Fay", "Eve>Fay", "Fay>Gus", "Gus>Fay")
    st = game(BGA, SHERIFF_GAME, script)
    assert (st.step, st.round, st.candidates) == ("vote", 2, seats("Eve", "Fay"))
    out = ok(play(BGA, SHERIFF_GAME, script + votes(
        "Cid>Fay", "Ann>Eve", "Bob>Eve", "Eve>Fay", "Fay>Eve", "Gus>Fay")))
    # Fay: Cid 2 + Eve + Gus = 4; Eve: Ann + Bob + Fay = 3
    assert deaths(out)[-1] == ("Fay", "execution", "day 1")


SHERIFF_DAY1 = ELECT_CID + votes("Cid>Ann", "Eve>Ann", "Fay>Ann", "Gus>Ann", "Ann>Eve", "Bob>Eve")


def test_dying_sheriff_names_a_successor__rules_s6_sheriff_000_002_003():
    """RULES.md §6 sheriff: when he dies he names a successor among the living; he cannot
    decline (docs/rules.md §11.18)."""
    script = SHERIFF_DAY1 + attack("Cid", "Bob")
    st = game(MH, SHERIFF_GAME, script)
    assert st.step == "appoint" and st.actor == S("Cid")
    c = choices(st, "Cid")
    assert list(c) == ["appoint"]
    assert sorted(c["appoint"].targets) == list(seats("Bob", "Eve", "Fay", "Gus"))
    out = ok(play(MH, SHERIFF_GAME, script + [a("Cid", "appoint", "Gus")]))
    assert out["sheriff"] == "Gus"
    assert deaths(out)[-1] == ("Cid", "werewolves", "night 2")


def test_dying_sheriff_timeout_gives_badge_to_left_neighbour__rules_s6_sheriff_s1():
    """RULES.md §6 sheriff: timeout → his left neighbour, the next *living* player
    clockwise (§1): Dan (seat after Cid) is dead, so Eve."""
    out = ok(play(MH, SHERIFF_GAME, SHERIFF_DAY1 + attack("Cid", "Bob") + [a(None, "timeout")]))
    assert out["sheriff"] == "Eve"


def test_executed_sheriff_names_a_successor__rules_s6_sheriff():
    """RULES.md §6 sheriff: successor on any death, execution included (after his other
    triggers, §6 queue)."""
    script = ELECT_CID + votes("Ann>Cid", "Bob>Cid", "Eve>Cid", "Cid>Ann", "Fay>Ann", "Gus>Cid")
    st = game(MH, SHERIFF_GAME, script)
    assert st.deaths[-1] == (S("Cid"), "execution", "day 1")
    assert st.step == "appoint" and st.actor == S("Cid")
    out = ok(play(MH, SHERIFF_GAME, script + [a("Cid", "appoint", "Fay")]))
    assert out["sheriff"] == "Fay"


def test_hunter_sheriff_shoots_before_naming_successor__rules_s6_queue():
    """RULES.md §6 (Decision, trigger queue): the hunter's shot, then the sheriff's successor."""
    roles = ["werewolf", "werewolf", "hunter", "villager", "villager", "villager", "villager"]
    script = attack("Dan", "Ann", "Bob") + votes(
        "Ann>Bob", "Bob>Ann", "Cid>Eve", "Eve>Cid", "Fay>Cid", "Gus>Cid")
    script += votes("Cid>Ann", "Eve>Ann", "Fay>Ann", "Gus>Ann", "Ann>Eve", "Bob>Eve")
    script += attack("Cid", "Bob")
    st = game(MH, roles, script)
    assert (st.step, st.actor) == ("hunter", S("Cid"))
    st = game(MH, roles, script + [a("Cid", "shoot", "Gus")])
    assert (st.step, st.actor) == ("appoint", S("Cid"))
    assert S("Gus") not in choices(st, "Cid")["appoint"].targets


def test_revealed_idiot_sheriff_loses_the_double_vote__rules_s6_sheriff_003():
    """RULES.md §6: a revealed idiot who holds the badge loses its vote too [003]."""
    roles = ["werewolf", "werewolf", "village-idiot", "villager", "villager", "villager",
             "villager"]
    script = ELECT_CID + votes("Ann>Cid", "Bob>Cid", "Cid>Ann", "Eve>Cid", "Fay>Cid", "Gus>Ann")
    st = game(MH, roles, script)
    assert st.alive[S("Cid")] and S("Cid") in st.revealed
    st = game(MH, roles, script + attack("Eve", "Ann", "Bob"))
    assert (st.phase, st.n, st.step) == ("day", 2, "vote")
    assert legal_actions(st, S("Cid")) == []


def test_scapegoat_loses_his_power_with_the_elder__rules_s5_elder_003() -> None:
    """RULES.md §5 elder [003]: once the village has executed the elder, every
    village-team role loses its power — the scapegoat no longer dies on a tie,
    and the tie policy (scapegoat-sheriff-none, no sheriff: nobody) applies."""
    names = "Ann Bob Cid Dan Eve Fay Gus Hal".split()
    roles = ["werewolf", "werewolf", "seer", "elder", "scapegoat", "villager", "villager",
             "villager"]
    acts = ([a("Cid", "inspect", "Ann"), a("Ann", "attack", "Hal"), a("Bob", "attack", "Hal")]
            + [a(x, "vote", "Dan") for x in names[:7]]
            + [a("Ann", "attack", "Gus"), a("Bob", "attack", "Gus")]
            + votes("Ann>Cid", "Bob>Cid", "Cid>Ann", "Eve>Ann", "Fay>Bob"))
    out = play("millers-hollow", roles, acts, options={"sheriff": False})
    assert out["status"] == 0, out.get("error")
    assert ("Dan", "execution", "day 1") in deaths(out)
    assert not any(d[0] == "Eve" for d in deaths(out))
    assert out["step"] == "night 3 wolves"  # the seer is powerless too
