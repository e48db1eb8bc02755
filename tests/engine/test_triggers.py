"""The trigger queue and the win check (RULES.md §6 Decision "the trigger queue",
§7 Winning; docs/rules.md §7.2, §8, §11 Decisions 16–20).

Deaths are processed in the order they happened; for each dead player his lover
dies of heartbreak first, then his own prompts run (hunter's shot, then the
sheriff's successor); deaths caused by triggers queue at the back; the win is
checked only when the queue is empty. Night deaths and their triggers are dated
"night N", day deaths and theirs "day N".
"""

from __future__ import annotations

import pytest
from helpers import S, a, choices, deaths, game, play, votes

# Ann werewolf, Bob werewolf, Cid seer, Dan cupid, Eve hunter, Fay, Gus, Hal villagers
T8 = ["werewolf", "werewolf", "seer", "cupid", "hunter", "villager", "villager", "villager"]
NO_SHERIFF = {"sheriff": False}


def kill(victim: str) -> list[dict]:
    return [a("Ann", "attack", victim), a("Bob", "attack", victim)]


def step_events(out: dict) -> list[str]:
    return [e["step"] for e in out["events"] if e["e"] == "step"]


# --- heartbreak, hunter, sheriff: the order for one dead player --------------------

def test_heartbreak_then_the_hunters_shot_in_a_chain_rules_6_decision():
    """RULES.md §6 trigger queue, §5 Hunter "by any cause" [002][003]: the wolves
    kill Gus; his lover Eve (the hunter) dies of heartbreak at once; her shot comes
    after that; every death is dated night 1."""
    night = [a("Dan", "link", targets=["Eve", "Gus"]), a("Cid", "inspect", "Ann"), *kill("Gus")]
    state = game("millers-hollow", T8, night, options=NO_SHERIFF)
    assert (state.step, state.actor) == ("hunter", 4)
    assert [(s, c, t) for s, c, t in state.deaths] == [
        (6, "werewolves", "night 1"), (4, "heartbreak", "night 1")]
    out = play("millers-hollow", T8, [*night, a("Eve", "shoot", "Ann")], options=NO_SHERIFF)
    assert out["status"] == 0, out.get("error")
    assert deaths(out) == [("Gus", "werewolves", "night 1"), ("Eve", "heartbreak", "night 1"),
                           ("Ann", "hunter", "night 1")]
    assert out["step"] == "day 1 vote"


def test_the_hunters_target_takes_his_lover_along_rules_6_decision():
    """RULES.md §5 Cupid "when one dies the other dies at once" [all], §6 queue: the
    hunter, killed at night, shoots Gus; Gus's lover Fay dies of heartbreak, after him."""
    night = [a("Dan", "link", targets=["Fay", "Gus"]), a("Cid", "inspect", "Ann"), *kill("Eve")]
    out = play("millers-hollow", T8, [*night, a("Eve", "shoot", "Gus")], options=NO_SHERIFF)
    assert out["status"] == 0, out.get("error")
    assert deaths(out) == [("Eve", "werewolves", "night 1"), ("Gus", "hunter", "night 1"),
                           ("Fay", "heartbreak", "night 1")]
    assert out["alive"] == ["Ann", "Bob", "Cid", "Dan", "Hal"]


def test_executed_hunter_and_his_shot_are_dated_day_n_rules_6_decision():
    """RULES.md §6: "deaths in a day (execution, day powers) and their triggers
    `day N`": the hunter executed on day 1 shoots Ann, dated day 1."""
    night = [a("Dan", "pass"), a("Cid", "inspect", "Ann"), *kill("Hal")]
    day = votes("Ann>Eve", "Bob>Eve", "Cid>Eve", "Dan>Eve", "Eve>Ann", "Fay>Eve", "Gus>Ann")
    out = play("millers-hollow", T8, [*night, *day, a("Eve", "shoot", "Ann")], options=NO_SHERIFF)
    assert out["status"] == 0, out.get("error")
    assert deaths(out) == [("Hal", "werewolves", "night 1"), ("Eve", "execution", "day 1"),
                           ("Ann", "hunter", "day 1")]
    assert out["step"] == "night 2 seer"


def test_sheriff_hunter_lover_heartbreak_then_shot_then_successor_rules_6_decision():
    """RULES.md §6 trigger queue: the sheriff Eve (hunter, lover of Hal) is executed:
    Hal dies of heartbreak first, then Eve shoots Ann, then she names her successor
    — neither Hal nor Ann (dead by then) may receive the badge. All dated day 1."""
    night = [a("Dan", "link", targets=["Eve", "Hal"]), a("Cid", "inspect", "Ann"), *kill("Gus")]
    voters = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Hal"]
    # Hal may not vote for his lover, in the election either (RULES.md §5 Cupid)
    elect = [a(v, "vote", "Eve" if v != "Hal" else "Ann") for v in voters]
    day = votes("Ann>Eve", "Bob>Eve", "Cid>Eve", "Dan>Eve", "Eve>Ann", "Fay>Eve", "Hal>Ann")
    base = [*night, *elect, *day]
    state = game("millers-hollow", T8, base)
    assert (state.step, state.actor) == ("hunter", 4)
    assert [(s, c, t) for s, c, t in state.deaths] == [
        (6, "werewolves", "night 1"), (4, "execution", "day 1"), (7, "heartbreak", "day 1")]
    state = game("millers-hollow", T8, [*base, a("Eve", "shoot", "Ann")])
    assert (state.step, state.actor) == ("appoint", 4)
    for dead in ("Hal", "Ann"):
        out = play("millers-hollow", T8,
                   [*base, a("Eve", "shoot", "Ann"), a("Eve", "appoint", dead)])
        assert out["status"] == 2 and out["error"]["index"] == len(base) + 1
    out = play("millers-hollow", T8, [*base, a("Eve", "shoot", "Ann"), a("Eve", "appoint", "Fay")])
    assert out["status"] == 0, out.get("error")
    assert deaths(out) == [("Gus", "werewolves", "night 1"), ("Eve", "execution", "day 1"),
                           ("Hal", "heartbreak", "day 1"), ("Ann", "hunter", "day 1")]
    assert out["sheriff"] == "Fay"
    assert out["step"] == "night 2 seer"


def test_sheriff_successor_timeout_goes_to_the_left_neighbour_rules_6_sheriff():
    """RULES.md §6 Sheriff "(timeout: his left neighbour)", §1 left = next *living*
    player clockwise: sheriff Cid is executed; Dan died at night, so the badge goes
    to Eve."""
    night = [a("Dan", "pass"), a("Cid", "inspect", "Ann"), *kill("Dan")]
    voters = ["Ann", "Bob", "Cid", "Eve", "Fay", "Gus", "Hal"]
    elect = [a(v, "vote", "Cid") for v in voters]
    day = [a(v, "vote", "Ann" if v == "Cid" else "Cid") for v in voters]
    out = play("millers-hollow", T8, [*night, *elect, *day])
    assert out["status"] == 0, out.get("error")
    assert out["step"] == "day 1 appoint"
    out = play("millers-hollow", T8, [*night, *elect, *day, a(None, "timeout")])
    assert out["status"] == 0, out.get("error")
    assert deaths(out) == [("Dan", "werewolves", "night 1"), ("Cid", "execution", "day 1")]
    assert out["sheriff"] == "Eve"


def test_deaths_processed_in_order_sheriff_before_later_hunter_rules_6_decision():
    """RULES.md §6 "deaths are processed in the order they happened": at dawn of
    night 2 the wolves' victim (sheriff Fay) comes before the poisoned hunter Eve,
    so Fay names her successor before Eve shoots; all dated night 2."""
    roles = ["werewolf", "werewolf", "seer", "witch", "hunter", "villager", "villager", "villager"]
    night1 = [a("Cid", "inspect", "Ann"), *kill("Hal"), a("Dan", "potion", heal=False, poison=None)]
    voters = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus"]
    elect = [a(v, "vote", "Fay") for v in voters]
    day1 = [a(v, "vote", "Ann" if v == "Gus" else "Gus") for v in voters]
    night2 = [a("Cid", "inspect", "Bob"), *kill("Fay"),
              a("Dan", "potion", heal=False, poison="Eve")]
    base = [*night1, *elect, *day1, *night2]
    state = game("millers-hollow", roles, base)
    assert (state.step, state.actor) == ("appoint", 5)
    out = play("millers-hollow", roles, [*base, a("Eve", "shoot", "Ann")])
    assert out["status"] == 2 and out["error"]["index"] == len(base)  # not Eve's turn yet
    state = game("millers-hollow", roles, [*base, a("Fay", "appoint", "Cid")])
    assert (state.step, state.actor) == ("hunter", 4)
    out = play("millers-hollow", roles,
               [*base, a("Fay", "appoint", "Cid"), a("Eve", "shoot", "Ann")])
    assert out["status"] == 0, out.get("error")
    assert deaths(out) == [("Hal", "werewolves", "night 1"), ("Gus", "execution", "day 1"),
                           ("Fay", "werewolves", "night 2"), ("Eve", "poison", "night 2"),
                           ("Ann", "hunter", "night 2")]
    assert out["sheriff"] == "Cid"
    assert out["winner"] is None
    assert out["step"] == "day 2 vote"


def test_trigger_deaths_join_the_back_of_the_queue_rules_6_decision():
    """RULES.md §6 Decision: "deaths are processed in the order they happened …
    Deaths caused by triggers join the end of the queue", and "a lover dies of
    heartbreak the moment the partner dies, before any prompt of the queue is
    answered". Dawn of night 1: the wolves' victim Eve (hunter) and the
    poisoned Fay die, and Fay's lover Gus with her, before Eve's shot (Bob),
    which Eve may no longer aim at Gus — Eve, Fay, Gus, Bob, all dated night 1."""
    roles = ["werewolf", "werewolf", "seer", "witch", "hunter", "villager", "villager", "cupid"]
    night = [a("Hal", "link", targets=["Fay", "Gus"]), a("Cid", "inspect", "Ann"), *kill("Eve"),
             a("Dan", "potion", heal=False, poison="Fay")]
    state = game("millers-hollow", roles, night, options=NO_SHERIFF)
    assert (state.step, state.actor) == ("hunter", 4)
    out = play("millers-hollow", roles, [*night, a("Eve", "shoot", "Bob")], options=NO_SHERIFF)
    assert out["status"] == 0, out.get("error")
    assert deaths(out) == [("Eve", "werewolves", "night 1"), ("Fay", "poison", "night 1"),
                           ("Gus", "heartbreak", "night 1"), ("Bob", "hunter", "night 1")]
    assert out["alive"] == ["Ann", "Cid", "Dan", "Hal"]
    assert S("Gus") not in choices(state, "Eve")["shoot"].targets
    assert out["step"] == "day 1 vote"


# --- the win is checked only when the queue is empty ------------------------------

def test_win_checked_only_after_the_queue_last_wolf_shot_at_dawn_rules_6_7():
    """RULES.md §6 "The win is checked only when the queue is empty": the wolves
    kill the hunter Cid, his lover Dan dies of heartbreak — wolf 1 vs human 1 would
    be parity — but the hunter still shoots the last wolf: the village wins."""
    roles = ["werewolf", "cupid", "hunter", "villager"]
    opts = {"sheriff": False, "wolves_win": "parity"}
    night = [a("Bob", "link", targets=["Cid", "Dan"]), a("Ann", "attack", "Cid")]
    state = game("millers-hollow", roles, night, options=opts)
    assert state.winner is None and (state.step, state.actor) == ("hunter", 2)
    out = play("millers-hollow", roles, [*night, a("Cid", "shoot", "Ann")], options=opts)
    assert out["status"] == 0, out.get("error")
    assert deaths(out) == [("Cid", "werewolves", "night 1"), ("Dan", "heartbreak", "night 1"),
                           ("Ann", "hunter", "night 1")]
    assert out["winner"] == "village"
    assert out["winners"] == ["Bob", "Cid", "Dan"]


def test_hunter_passes_then_the_win_is_checked_rules_6_7():
    """RULES.md §5 Hunter (timeout: nobody), §6/§7: same night, the hunter passes →
    the queue empties with wolf 1 vs human 1 → the wolves win (parity)."""
    roles = ["werewolf", "cupid", "hunter", "villager"]
    opts = {"sheriff": False, "wolves_win": "parity"}
    night = [a("Bob", "link", targets=["Cid", "Dan"]), a("Ann", "attack", "Cid")]
    out = play("millers-hollow", roles, [*night, a("Cid", "pass")], options=opts)
    assert out["status"] == 0, out.get("error")
    assert out["winner"] == "werewolves"
    assert out["winners"] == ["Ann"]


# --- §7 in order ---------------------------------------------------------------------

def test_nobody_alive_is_a_draw_rules_7_1():
    """RULES.md §7.1 "Nobody alive → draw": Ann (last wolf) kills Bob on night 2;
    his lover Cid (the hunter) dies of heartbreak and shoots Ann → nobody is left.
    (Before the shot only the wolf lives: the check must wait for the queue.)"""
    roles = ["werewolf", "cupid", "hunter", "villager"]
    night1 = [a("Bob", "link", targets=["Bob", "Cid"]), a("Ann", "attack", "Dan")]
    day1 = votes("Ann>Bob", "Bob>Ann", "Cid>Cid")  # 1-1-1: no sheriff → nobody
    out = play("millers-hollow", roles, [*night1, *day1, a("Ann", "attack", "Bob"),
                                         a("Cid", "shoot", "Ann")], options=NO_SHERIFF)
    assert out["status"] == 0, out.get("error")
    assert deaths(out) == [("Dan", "werewolves", "night 1"), ("Bob", "werewolves", "night 2"),
                           ("Cid", "heartbreak", "night 2"), ("Ann", "hunter", "night 2")]
    assert out["alive"] == []
    assert out["winner"] == "draw"
    assert out["winners"] == []


@pytest.mark.parametrize("wolves_win", ["all-dead", "parity"])
def test_mixed_lovers_last_two_win_alone_rules_7_2_000_003(wolves_win):
    """RULES.md §7.2 [000][003]: the wolf Ann and the villager Dan, lovers, are the
    last two alive → "lovers" win, and only they (not Cupid, not the village),
    checked before the wolves' parity (§7.6)."""
    roles = ["werewolf", "cupid", "villager", "villager"]
    actions = [a("Bob", "link", targets=["Ann", "Dan"]), a("Ann", "attack", "Cid"),
               *votes("Ann>Bob", "Dan>Bob", "Bob>Ann")]
    out = play("millers-hollow", roles, actions,
               options={"sheriff": False, "wolves_win": wolves_win})
    assert out["status"] == 0, out.get("error")
    assert deaths(out) == [("Cid", "werewolves", "night 1"), ("Bob", "execution", "day 1")]
    assert out["winner"] == "lovers"
    assert out["winners"] == ["Ann", "Dan"]


def test_no_wolf_win_while_a_mixed_lovers_partner_lives_rules_7_6_decision():
    """RULES.md §7.6 Decision: wolves at parity (2 vs 2) do not win while the partner
    of a wolf in mixed lovers lives; once the partner dies (and the wolf lover of
    heartbreak) the wolves win, without the mixed lover Ann."""
    roles = ["werewolf", "werewolf", "cupid", "villager", "villager"]
    opts = {"sheriff": False, "wolves_win": "parity"}
    night1 = [a("Cid", "link", targets=["Ann", "Dan"]), a("Ann", "attack", "Eve"),
              a("Bob", "attack", "Eve")]
    out = play("millers-hollow", roles, night1, options=opts)
    assert out["status"] == 0, out.get("error")
    assert out["winner"] is None and out["step"] == "day 1 vote"
    day1 = votes("Ann>Cid", "Bob>Cid", "Cid>Bob", "Dan>Cid")
    night2 = [a("Ann", "attack", "Dan"), a("Bob", "attack", "Dan")]
    out = play("millers-hollow", roles, [*night1, *day1], options=opts)
    assert out["winner"] is None
    out = play("millers-hollow", roles, [*night1, *day1, *night2], options=opts)
    assert out["status"] == 0, out.get("error")
    assert deaths(out) == [("Eve", "werewolves", "night 1"), ("Cid", "execution", "day 1"),
                           ("Dan", "werewolves", "night 2"), ("Ann", "heartbreak", "night 2")]
    assert out["winner"] == "werewolves"
    assert out["winners"] == ["Bob"]


def test_piper_checked_before_the_village_rules_7_3_003():
    """RULES.md §7.3 before §7.5: the last wolf is executed while the piper and the
    two charmed players are all that is left → the piper wins, not the village."""
    roles = ["werewolf", "piper", "villager", "villager", "villager"]
    night1 = [a("Ann", "attack", "Eve"), a("Bob", "charm", targets=["Cid", "Dan"])]
    day1 = votes("Ann>Cid", "Bob>Ann", "Cid>Ann", "Dan>Ann")
    out = play("millers-hollow", roles, [*night1, *day1], options=NO_SHERIFF)
    assert out["status"] == 0, out.get("error")
    assert deaths(out) == [("Eve", "werewolves", "night 1"), ("Ann", "execution", "day 1")]
    assert out["winner"] == "piper"
    assert out["winners"] == ["Bob"]


def test_white_werewolf_only_survivor_and_no_win_beside_other_wolves_rules_7_4_7_6_000():
    """RULES.md §7.6 Decision "not while a white werewolf lives beside other wolves":
    after day 1 only Ann (werewolf) and Bob (white werewolf) live — all non-wolves
    are dead, yet no one wins; on night 2 Bob devours Ann and wins alone (§7.4 [000])."""
    roles = ["werewolf", "white-werewolf", "villager", "villager"]
    actions = [a("Ann", "attack", "Cid"), a("Bob", "attack", "Cid"),
               *votes("Ann>Dan", "Bob>Dan", "Dan>Ann")]
    out = play("millers-hollow", roles, actions, options=NO_SHERIFF)
    assert out["status"] == 0, out.get("error")
    assert out["alive"] == ["Ann", "Bob"]
    assert out["winner"] is None
    assert out["step"] == "night 2 white-werewolf"
    out = play("millers-hollow", roles, [*actions, a("Bob", "devour", "Ann")], options=NO_SHERIFF)
    assert out["status"] == 0, out.get("error")
    assert deaths(out) == [("Cid", "werewolves", "night 1"), ("Dan", "execution", "day 1"),
                           ("Ann", "white-werewolf", "night 2")]
    assert out["winner"] == "white-werewolf"
    assert out["winners"] == ["Bob"]


@pytest.mark.parametrize("wolves_win,winner", [("all-dead", None), ("parity", "werewolves")])
def test_wolves_all_dead_versus_parity_rules_7_6_003(wolves_win, winner):
    """RULES.md §7.6: one wolf and one villager left — `all-dead` [003] needs every
    non-wolf dead (no win yet), `parity` [003 variant][004] wins at 1 ≥ 1."""
    roles = ["werewolf", "villager", "villager", "villager"]
    actions = [a("Ann", "attack", "Cid"), *votes("Ann>Dan", "Bob>Dan", "Dan>Ann")]
    out = play("millers-hollow", roles, actions,
               options={"sheriff": False, "wolves_win": wolves_win})
    assert out["status"] == 0, out.get("error")
    assert deaths(out) == [("Cid", "werewolves", "night 1"), ("Dan", "execution", "day 1")]
    assert out["winner"] == winner
    if winner:
        assert out["winners"] == ["Ann"]
    else:
        assert out["step"] == "night 2 wolves"


def test_all_dead_wolves_win_when_the_last_non_wolf_dies_rules_7_6_003():
    """RULES.md §7.6 all-dead [003]: the wolf kills the last villager on night 2."""
    roles = ["werewolf", "villager", "villager", "villager"]
    actions = [a("Ann", "attack", "Cid"), *votes("Ann>Dan", "Bob>Dan", "Dan>Ann"),
               a("Ann", "attack", "Bob")]
    out = play("millers-hollow", roles, actions, options=NO_SHERIFF)
    assert out["status"] == 0, out.get("error")
    assert out["winner"] == "werewolves"
    assert out["winners"] == ["Ann"]
    assert deaths(out)[-1] == ("Bob", "werewolves", "night 2")


def test_village_wins_when_no_wolf_lives_winners_include_the_dead_rules_7_5_003():
    """RULES.md §7.5 [003], §7 "every player of the winning side, dead or alive":
    the hunter, executed on day 2, shoots the last wolf → the village wins, the
    dead villagers included; both deaths are dated day 2."""
    roles = ["werewolf", "villager", "hunter", "villager", "villager", "villager"]
    night1 = [a("Ann", "attack", "Eve")]
    day1 = votes("Ann>Dan", "Bob>Dan", "Cid>Dan", "Dan>Ann", "Fay>Dan")
    night2 = [a("Ann", "attack", "Bob")]
    day2 = votes("Ann>Cid", "Fay>Cid", "Cid>Ann")
    out = play("millers-hollow", roles, [*night1, *day1, *night2, *day2, a("Cid", "shoot", "Ann")],
               options=NO_SHERIFF)
    assert out["status"] == 0, out.get("error")
    assert deaths(out) == [("Eve", "werewolves", "night 1"), ("Dan", "execution", "day 1"),
                           ("Bob", "werewolves", "night 2"), ("Cid", "execution", "day 2"),
                           ("Ann", "hunter", "day 2")]
    assert out["alive"] == ["Fay"]
    assert out["winner"] == "village"
    assert out["winners"] == ["Bob", "Cid", "Dan", "Eve", "Fay"]



def test_lone_white_werewolf_does_not_hand_the_wolves_a_parity_win_rules_7_decision() -> None:
    """RULES.md §7.4/§7.6 Decision: with the pack dead, a white werewolf alone
    with one human is no win for the werewolves; he wins as the sole survivor."""
    roles = ["werewolf", "white-werewolf", "seer", "villager", "villager"]
    options = {"sheriff": False, "wolves_win": "parity", "tie": "none"}
    night1 = [a("Cid", "pass"), a("Ann", "attack", "Dan"), a("Bob", "attack", "Dan")]
    day1 = votes("Ann>Cid", "Bob>Ann", "Cid>Ann", "Eve>Ann")
    night2 = [a("Cid", "pass"), a("Bob", "attack", "Cid")]  # no werewolf left to devour
    out = play("millers-hollow", roles, night1 + day1 + night2, options=options)
    assert out["status"] == 0, out.get("error")
    assert out["alive"] == ["Bob", "Eve"]
    assert out["winner"] is None  # 1 wolf vs 1 human is parity, yet no werewolves' win
    day2 = votes("Bob>Eve", "Eve>Bob")  # tied, tie=none: nobody
    night3 = [a("Bob", "attack", "Eve")]
    out = play("millers-hollow", roles, night1 + day1 + night2 + day2 + night3, options=options)
    assert out["status"] == 0, out.get("error")
    assert out["winner"] == "white-werewolf" and out["winners"] == ["Bob"]


def test_piper_in_mixed_lovers_cannot_win_by_charms_rules_5_cupid_002() -> None:
    """RULES.md §5 cupid [002]: a piper linked to a non-piper takes the lovers'
    goal, so charming everyone else is no win for him (and never a win with no winners)."""
    roles = ["werewolf", "werewolf", "cupid", "piper", "villager", "villager"]
    night1 = [a("Cid", "link", targets=["Dan", "Eve"]), a("Ann", "attack", "Fay"),
              a("Bob", "attack", "Fay"), a("Dan", "charm", targets=["Ann", "Bob"])]
    day1 = votes("Ann>Cid", "Bob>Cid", "Cid>Ann", "Dan>Cid", "Eve>Cid")
    night2 = [a("Ann", "pass"), a("Bob", "pass"), a("Dan", "charm", targets=["Eve"])]
    out = play("millers-hollow", roles, night1 + day1 + night2, options={"sheriff": False})
    assert out["status"] == 0, out.get("error")
    assert out["alive"] == ["Ann", "Bob", "Dan", "Eve"]
    assert out["winner"] is None


def test_public_step_hides_a_passing_hunter_without_reveal_rules_4_secrecy() -> None:
    """RULES.md §4 secrecy: with reveal_on_death=false the table sees the dead
    player's "last words", not that he holds the hunter card."""
    from companion.engine import public_view

    roles = ["werewolf", "werewolf", "seer", "hunter", "villager", "villager", "villager",
             "villager"]
    state = game("millers-hollow", roles,
                 [a("Cid", "pass"), a("Ann", "attack", "Dan"), a("Bob", "attack", "Dan")],
                 options={"sheriff": False, "reveal_on_death": False})
    assert state.step == "hunter"
    view = public_view(state)
    assert view["step"] == "night 1 last words"
    assert all(p["role"] is None for p in view["players"])


def test_hunter_dying_before_the_poisoned_elder_still_shoots_rules_6_decision_003() -> None:
    """RULES.md §6 Decision (deaths processed in order) with §5 elder [003]: the
    village loses its powers when the poisoned elder's death is processed, so a
    hunter killed earlier in the same dawn still shoots; powers are gone after."""
    roles = ["werewolf", "werewolf", "seer", "witch", "hunter", "elder", "villager",
             "villager"]
    night1 = [a("Cid", "pass"), a("Ann", "attack", "Eve"), a("Bob", "attack", "Eve"),
              a("Dan", "potion", heal=False, poison="Fay")]
    state = game("millers-hollow", roles, night1, options={"sheriff": False})
    assert state.step == "hunter" and not state.powers_lost
    out = play("millers-hollow", roles, night1 + [a("Eve", "shoot", "Ann")],
               options={"sheriff": False})
    assert out["status"] == 0, out.get("error")
    assert deaths(out) == [("Eve", "werewolves", "night 1"), ("Fay", "poison", "night 1"),
                           ("Ann", "hunter", "night 1")]
    after = game("millers-hollow", roles, night1 + [a("Eve", "shoot", "Ann")],
                 options={"sheriff": False})
    assert after.powers_lost


def test_a_dying_sheriff_hunter_may_not_name_the_lover_of_the_one_he_shot_rules_6_decision():
    """RULES.md §6 Decision, the trigger queue: "a lover dies of heartbreak the
    moment the partner dies, before any prompt of the queue is answered, so no
    dying sheriff may name … a player whose lover has already died". Sheriff Eve
    (hunter) is executed, shoots Gus; Gus's lover Fay dies at once, so Eve's
    successor may be neither Gus nor Fay (before, Fay was still offered)."""
    night = [a("Dan", "link", targets=["Fay", "Gus"]), a("Cid", "inspect", "Ann"), *kill("Hal")]
    elect = [a(v, "vote", "Eve") for v in ("Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus")]
    day = votes("Ann>Eve", "Bob>Eve", "Cid>Eve", "Dan>Eve", "Eve>Ann", "Fay>Eve", "Gus>Eve")
    state = game("millers-hollow", T8, [*night, *elect, *day, a("Eve", "shoot", "Gus")])
    assert (state.step, state.actor) == ("appoint", S("Eve"))
    assert [(s, c) for s, c, _ in state.deaths][-2:] == [(S("Gus"), "hunter"),
                                                         (S("Fay"), "heartbreak")]
    heirs = choices(state, "Eve")["appoint"].targets
    assert S("Fay") not in heirs and S("Gus") not in heirs and S("Ann") in heirs
