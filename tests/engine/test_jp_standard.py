"""jp-standard, the Japanese "通常人狼" ruleset [004] (RULES.md §2, §4, §5, §7).

Most games use the nine-seat deal of [004]'s table plus a fox:

    Ann werewolf, Bob werewolf, Cid seer, Dan medium, Eve knight,
    Fay madman, Gus villager, Hal villager, Ivy fox

Night 1 only calls the seer (the wolves merely meet, the knight is not called),
so a script starts with the seer's inspection and goes straight to day 1.
"""

from __future__ import annotations

import pytest
from helpers import NAMES, a, deaths, game, play, votes

from companion.engine import legal_actions, view_for, waiting_for

JP9 = ["werewolf", "werewolf", "seer", "medium", "knight", "madman", "villager", "villager", "fox"]
SEAT = {name: i for i, name in enumerate(NAMES)}


def lynch(target: str, voters: list[str], instead: str) -> list[dict]:
    """Every voter names `target`; `target` himself names `instead` (no self-vote [004])."""
    return [a(v, "vote", instead if v == target else target) for v in voters]


def results(state, name: str) -> list[dict]:
    """A seat's private results (view_for), keeping the fields these tests check."""
    keep = ("kind", "target", "result")
    return [{k: r[k] for k in keep if k in r} for r in view_for(state, SEAT[name])["results"]]


def state_choices(state, name: str):
    return legal_actions(state, SEAT[name])


def alive9(*dead: str) -> list[str]:
    return [n for n in NAMES[:9] if n not in dead]


def steps_of_night(out: dict, n: int) -> list[str]:
    """The night steps the engine opened during night `n`, in order."""
    steps, current = [], None
    for e in out["events"]:
        if e["e"] == "night":
            current = e["n"]
        elif e["e"] == "day":
            current = None
        elif e["e"] == "step" and current == n:
            steps.append(e["step"])
    return steps


# --- night 1: the wolves only meet [004] ------------------------------------------

def test_night_1_calls_only_the_seer_rules_4_jp_004():
    """RULES.md §4 jp-standard [004]: on night 1 the wolves only meet and the seer
    inspects; the knight is not called. Nobody dies; day 1 opens at once."""
    state = game("jp-standard", JP9, [])
    assert waiting_for(state) == [SEAT["Cid"]]  # the one night step waits for the seer only
    out = play("jp-standard", JP9, [a("Cid", "inspect", "Gus")])
    assert out["status"] == 0
    assert steps_of_night(out, 1) == ["actions"]  # [issue 16]: one step, the seer alone
    assert deaths(out) == []
    assert out["step"] == "day 1 vote"
    assert out["alive"] == NAMES[:9]


@pytest.mark.parametrize("actor,do", [("Ann", "attack"), ("Bob", "attack"), ("Eve", "guard")])
def test_no_wolf_attack_nor_guard_on_night_1_rules_2_jp_004(actor, do):
    """RULES.md §2 jp-standard "no attack on night 1", §4 "the knight is not
    called" [004]: a wolf's attack or the knight's guard on night 1 is refused."""
    out = play("jp-standard", JP9, [a("Cid", "inspect", "Gus"), a(actor, do, "Hal")])
    assert out["status"] == 2 and out["error"]["index"] == 1
    assert deaths(out) == []


def test_night_2_order_seer_knight_wolves_rules_4_jp_004():
    """RULES.md §4 [004] (revised, [issue 16]): a jp-standard night is one step
    in which the seer, the knight and the wolves act at once; old scripts,
    which act in §4's order, play as before."""
    out = play("jp-standard", JP9, [a("Cid", "inspect", "Gus"),
                                     *lynch("Hal", alive9(), "Gus"),
                                     a("Cid", "inspect", "Fay"), a("Eve", "guard", "Cid"),
                                     a("Ann", "attack", "Gus")])
    assert out["status"] == 0, out.get("error")
    assert steps_of_night(out, 2) == ["actions"]
    assert deaths(out) == [("Hal", "execution", "day 1"), ("Gus", "werewolves", "night 2")]


NIGHT2 = [a("Cid", "inspect", "Gus"), *lynch("Hal", alive9(), "Gus")]
ACTS2 = [a("Cid", "inspect", "Fay"), a("Eve", "guard", "Gus"), a("Ann", "attack", "Gus")]


def test_one_night_step_waits_for_seer_knight_and_wolves_at_once_rules_4_issue_16():
    """RULES.md §4 jp-standard: every night role acts during the same window;
    the step waits for each of them, and each may act first."""
    state = game("jp-standard", JP9, NIGHT2)
    assert state.step == "actions"
    assert waiting_for(state) == [SEAT["Ann"], SEAT["Bob"], SEAT["Cid"], SEAT["Eve"]]
    for name in ("Ann", "Bob", "Cid", "Eve"):
        assert legal_actions(state, SEAT[name]), name


@pytest.mark.parametrize("order", [(0, 1, 2), (2, 1, 0), (1, 2, 0), (2, 0, 1)])
def test_any_order_gives_the_same_night_rules_4_issue_16(order):
    """[issue 16]: the seer, the knight and the wolves act in any order; the
    night resolves in §4's order when all have acted (the guard holds, the
    seer learns her answer), whatever the order they came in."""
    base = play("jp-standard", JP9, NIGHT2 + ACTS2)
    out = play("jp-standard", JP9, NIGHT2 + [ACTS2[k] for k in order])
    assert out["status"] == base["status"] == 0
    assert deaths(out) == deaths(base) == [("Hal", "execution", "day 1")]  # Gus guarded
    assert out["step"] == "day 2 vote"
    state = game("jp-standard", JP9, NIGHT2 + [ACTS2[k] for k in order])
    assert results(state, "Cid")[-1] == {"kind": "inspect", "target": SEAT["Fay"],
                                         "result": "human"}


def test_each_acts_once_in_the_one_step_rules_4_issue_16():
    """[issue 16]: the seer who has inspected waits for the others; a second
    inspection in the same night is refused."""
    out = play("jp-standard", JP9, NIGHT2 + [a("Cid", "inspect", "Fay"),
                                             a("Cid", "inspect", "Ann")])
    assert out["status"] == 2 and out["error"]["index"] == len(NIGHT2) + 1
    state = game("jp-standard", JP9, NIGHT2 + [a("Cid", "inspect", "Fay")])
    assert SEAT["Cid"] not in waiting_for(state)


def test_one_timeout_ends_the_whole_night_with_each_default_rules_1_issue_16():
    """RULES.md §1, [issue 16]: one `timeout` ends the whole night: the knight
    who did not guard guards nobody, the wolf's pick made stands."""
    out = play("jp-standard", JP9, NIGHT2 + [a("Ann", "attack", "Gus"), {"do": "timeout"}])
    assert out["status"] == 0, out.get("error")
    assert deaths(out)[-1] == ("Gus", "werewolves", "night 2")
    assert out["step"] == "day 2 vote"
    out = play("jp-standard", JP9, NIGHT2 + [a("Eve", "guard", "Cid"), {"do": "timeout"}])
    assert deaths(out) == [("Hal", "execution", "day 1")]  # no pick: nobody attacked


# --- the seer: wolf or human [004] ----------------------------------------------------

@pytest.mark.parametrize("target,reads", [
    ("Ann", "wolf"), ("Bob", "wolf"), ("Fay", "human"), ("Ivy", "human"),
    ("Eve", "human"), ("Dan", "human"), ("Gus", "human"),
])
def test_seer_sees_wolf_or_human_madman_and_fox_read_human_rules_5_seer_004(target, reads):
    """RULES.md §5 Seer, seer_sees=team [004]: werewolves read "wolf"; the madman and
    the fox (and every other card) read "human"."""
    state = game("jp-standard", JP9, [a("Cid", "inspect", target)])
    assert results(state, "Cid") == [{"kind": "inspect", "target": SEAT[target], "result": reads}]


# --- the fox [004] -------------------------------------------------------------------

def test_inspected_fox_dies_at_dawn_cause_seer_rules_5_fox_004():
    """RULES.md §5 Seer/Fox [004] (呪殺): the fox inspected on night 1 dies at dawn,
    cause "seer", dated night 1."""
    out = play("jp-standard", JP9, [a("Cid", "inspect", "Ivy")])
    assert out["status"] == 0
    assert deaths(out) == [("Ivy", "seer", "night 1")]
    assert "Ivy" not in out["alive"]
    assert out["step"] == "day 1 vote"


def test_fox_cursed_even_if_the_seer_dies_that_night_rules_5_seer_004():
    """RULES.md §5 Seer [004]: inspecting the fox kills it "even if the seer dies
    the same night" (seer → fox, then wolves → seer: both die)."""
    out = play("jp-standard", JP9, [a("Cid", "inspect", "Gus"),
                                     *lynch("Hal", alive9(), "Gus"),
                                     a("Cid", "inspect", "Ivy"), a("Eve", "guard", "Gus"),
                                     a("Ann", "attack", "Cid")])
    assert out["status"] == 0, out.get("error")
    assert deaths(out)[0] == ("Hal", "execution", "day 1")
    assert sorted(deaths(out)[1:]) == [("Cid", "werewolves", "night 2"),
                                       ("Ivy", "seer", "night 2")]
    assert out["winner"] is None
    assert out["step"] == "day 2 vote"


def test_fox_survives_the_wolves_attack_rules_5_fox_004():
    """RULES.md §5 Fox [004]: "survives wolf attacks" — nobody dies that night."""
    out = play("jp-standard", JP9, [a("Cid", "inspect", "Gus"),
                                     *lynch("Hal", alive9(), "Gus"),
                                     a("Cid", "inspect", "Gus"), a("Eve", "guard", "Cid"),
                                     a("Ann", "attack", "Ivy")])
    assert out["status"] == 0, out.get("error")
    assert deaths(out) == [("Hal", "execution", "day 1")]
    assert "Ivy" in out["alive"]
    assert out["step"] == "day 2 vote"


def test_fox_wins_instead_of_the_village_rules_7_5_fox_004():
    """RULES.md §7.5 [004]: no wolf alive → the village would win, but the living fox
    wins instead (winners: the fox alone)."""
    roles = ["werewolf", "villager", "villager", "fox"]
    out = play("jp-standard", roles, lynch("Ann", ["Ann", "Bob", "Cid", "Dan"], "Bob"))
    assert out["status"] == 0, out.get("error")
    assert deaths(out) == [("Ann", "execution", "day 1")]
    assert out["winner"] == "fox"
    assert out["winners"] == ["Dan"]


def test_fox_wins_instead_of_the_wolves_and_is_not_counted_rules_7_6_fox_004():
    """RULES.md §7.6, §5 Fox [004]: werewolf, fox and villager left → the fox is not
    counted, so wolves reach parity (1 ≥ 1), and the living fox wins instead."""
    roles = ["werewolf", "villager", "villager", "fox"]
    out = play("jp-standard", roles, lynch("Bob", ["Ann", "Bob", "Cid", "Dan"], "Cid"))
    assert out["status"] == 0, out.get("error")
    assert deaths(out) == [("Bob", "execution", "day 1")]
    assert out["alive"] == ["Ann", "Cid", "Dan"]
    assert out["winner"] == "fox"
    assert out["winners"] == ["Dan"]


def test_village_wins_when_the_fox_is_dead_rules_7_5_004():
    """RULES.md §7.5 [004]: the fox cursed on night 1, the wolf executed on day 1 →
    the village wins; the dead fox and the wolf are not among the winners."""
    roles = ["werewolf", "seer", "villager", "villager", "fox"]
    out = play("jp-standard", roles, [a("Bob", "inspect", "Eve"),
                                      *lynch("Ann", ["Ann", "Bob", "Cid", "Dan"], "Bob")])
    assert out["status"] == 0, out.get("error")
    assert deaths(out) == [("Eve", "seer", "night 1"), ("Ann", "execution", "day 1")]
    assert out["winner"] == "village"
    assert out["winners"] == ["Bob", "Cid", "Dan"]


# --- the knight [004] ----------------------------------------------------------------

@pytest.mark.parametrize("guarded,dead", [("Gus", []), ("Cid", [("Gus", "werewolves", "night 2")])])
def test_knight_guard_saves_the_guarded_player_rules_5_knight_004(guarded, dead):
    """RULES.md §5 Knight [004]: the guarded player survives the wolves' attack;
    guarding someone else does not help the victim."""
    out = play("jp-standard", JP9, [a("Cid", "inspect", "Gus"),
                                     *lynch("Hal", alive9(), "Gus"),
                                     a("Cid", "inspect", "Fay"), a("Eve", "guard", guarded),
                                     a("Ann", "attack", "Gus")])
    assert out["status"] == 0, out.get("error")
    assert deaths(out) == [("Hal", "execution", "day 1"), *dead]
    assert out["step"] == "day 2 vote"


def test_knight_may_not_guard_himself_rules_5_knight_004():
    """RULES.md §5 Knight [004] "自分を護衛することは出来ない": guarding himself is refused."""
    actions = [a("Cid", "inspect", "Gus"), *lynch("Hal", alive9(), "Gus"),
               a("Cid", "inspect", "Fay"), a("Eve", "guard", "Eve")]
    out = play("jp-standard", JP9, actions)
    assert out["status"] == 2 and out["error"]["index"] == len(actions) - 1
    state = game("jp-standard", JP9, actions[:-1])
    guard = [c for c in state_choices(state, "Eve") if c.do == "guard"]
    assert guard and SEAT["Eve"] not in guard[0].targets


def test_knight_may_guard_the_same_player_twice_docs_rules_11_7_004():
    """docs/rules.md §11 Decision 7 ([004] forbids only himself): the knight guards
    Gus on nights 2 and 3 and Gus survives both attacks."""
    out = play("jp-standard", JP9, [a("Cid", "inspect", "Gus"),
                                     *lynch("Hal", alive9(), "Gus"),
                                     a("Cid", "inspect", "Fay"), a("Eve", "guard", "Gus"),
                                     a("Ann", "attack", "Gus"),
                                     *lynch("Ivy", alive9("Hal"), "Gus"),
                                     a("Cid", "inspect", "Dan"), a("Eve", "guard", "Gus"),
                                     a("Bob", "attack", "Gus")])
    assert out["status"] == 0, out.get("error")
    assert deaths(out) == [("Hal", "execution", "day 1"), ("Ivy", "execution", "day 2")]
    assert out["step"] == "day 3 vote"


# --- the medium [004] ----------------------------------------------------------------

@pytest.mark.parametrize("executed,reads", [
    ("Ann", "wolf"), ("Fay", "human"), ("Ivy", "human"), ("Hal", "human"),
])
def test_medium_learns_the_executed_at_the_next_night_rules_5_medium_004(executed, reads):
    """RULES.md §5 Medium [004]: at the next night he learns whether the executed
    player was a wolf (madman and fox read human); nothing before the execution."""
    before = lynch(executed, alive9(), "Gus" if executed != "Gus" else "Hal")
    state = game("jp-standard", JP9, [a("Cid", "inspect", "Gus"), *before[:-1]])
    assert results(state, "Dan") == []
    state = game("jp-standard", JP9, [a("Cid", "inspect", "Gus"), *before])
    assert state.phase == "night" and state.n == 2
    assert results(state, "Dan") == [
        {"kind": "medium", "target": SEAT[executed], "result": reads}]
    assert results(state, "Gus") == []  # private to the medium


def test_medium_learns_nothing_after_a_day_without_execution_docs_rules_6_medium():
    """RULES.md §5 Medium [004], docs/rules.md §6 Medium: after a day with no
    execution (nobody voted, §11 Decision 14) night 3 brings no new result."""
    state = game("jp-standard", JP9, [a("Cid", "inspect", "Gus"),
                                       *lynch("Ann", alive9(), "Gus"),
                                       a("Cid", "inspect", "Fay"), a("Eve", "guard", "Cid"),
                                       a("Bob", "attack", "Hal"),
                                       a(None, "timeout")])
    assert [(d[0], d[1]) for d in state.deaths] == [(0, "execution"), (7, "werewolves")]
    assert state.phase == "night" and state.n == 3
    assert results(state, "Dan") == [
        {"kind": "medium", "target": SEAT["Ann"], "result": "wolf"}]


# --- freemasons [004] ----------------------------------------------------------------

def test_freemasons_know_each_other_rules_5_freemasons_004():
    """RULES.md §5 Freemasons [004]: the two freemasons know each other (view
    "knows"); other players do not learn them."""
    roles = ["werewolf", "werewolf", "seer", "medium", "knight", "madman",
             "freemason", "freemason", "villager", "villager", "villager", "villager"]
    state = game("jp-standard", roles)
    for me, other in ((6, 7), (7, 6)):
        view = view_for(state, me)
        assert view["knows"] == {"freemasons": [6, 7]}
        assert view["players"][other]["role"] == "freemason"
    villager = view_for(state, 8)
    assert "freemasons" not in villager["knows"]
    assert villager["players"][6]["role"] is None and villager["players"][7]["role"] is None
    wolf = view_for(state, 0)
    assert wolf["knows"] == {"pack": [0, 1]}
    assert wolf["players"][6]["role"] is None


# --- winning: parity, the madman [004] ----------------------------------------------

def test_wolves_win_at_parity_and_madman_counts_as_human_rules_7_6_004():
    """RULES.md §1 "madman counts as human in every headcount", §7.6 parity [004]:
    wolf + madman + villager left is 1 wolf vs 2 humans (no win); once only
    wolf + madman remain (1 ≥ 1) the wolves win, and the madman wins with them."""
    roles = ["werewolf", "madman", "villager", "villager", "villager"]
    actions = [*lynch("Eve", ["Ann", "Bob", "Cid", "Dan", "Eve"], "Ann"),
               a("Ann", "attack", "Dan")]
    out = play("jp-standard", roles, actions)
    assert out["status"] == 0, out.get("error")
    assert deaths(out) == [("Eve", "execution", "day 1"), ("Dan", "werewolves", "night 2")]
    assert out["winner"] is None
    assert out["step"] == "day 2 vote"
    out = play("jp-standard", roles, [*actions, *votes("Ann>Cid", "Bob>Cid", "Cid>Bob")])
    assert out["status"] == 0, out.get("error")
    assert deaths(out)[-1] == ("Cid", "execution", "day 2")
    assert out["winner"] == "werewolves"
    assert out["winners"] == ["Ann", "Bob"]


def test_madman_loses_with_the_wolves_rules_2_teams_004():
    """RULES.md §1 Teams, §5 Madman [004]: the village wins when the last wolf is
    executed; the madman (werewolves' team) is not among the winners."""
    roles = ["werewolf", "madman", "villager", "villager", "villager"]
    out = play("jp-standard", roles, lynch("Ann", ["Ann", "Bob", "Cid", "Dan", "Eve"], "Cid"))
    assert out["status"] == 0, out.get("error")
    assert out["winner"] == "village"
    assert out["winners"] == ["Cid", "Dan", "Eve"]


def test_no_parity_win_before_wolves_equal_humans_rules_7_6_004():
    """RULES.md §7.6 parity [004]: 2 wolves vs 3 humans is no win; the game goes on."""
    roles = ["werewolf", "werewolf", "villager", "villager", "villager", "villager"]
    day1 = lynch("Fay", ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay"], "Cid")
    out = play("jp-standard", roles, day1)
    assert out["status"] == 0, out.get("error")
    assert out["winner"] is None
    out = play("jp-standard", roles, [*day1, a("Ann", "attack", "Eve")])
    assert out["winner"] == "werewolves"  # 2 wolves vs 2 humans
    assert out["winners"] == ["Ann", "Bob"]


# --- votes: no self-vote [004] -------------------------------------------------------

def test_no_self_vote_rules_6_004():
    """RULES.md §6 Execution vote, §2 jp-standard "no self-vote" [004] (自分に投票すること
    is forbidden): voting for yourself is refused."""
    out = play("jp-standard", JP9, [a("Cid", "inspect", "Gus"), a("Gus", "vote", "Gus")])
    assert out["status"] == 2 and out["error"]["index"] == 1
    state = game("jp-standard", JP9, [a("Cid", "inspect", "Gus")])
    vote = [c for c in state_choices(state, "Gus") if c.do == "vote"]
    assert vote and SEAT["Gus"] not in vote[0].targets and SEAT["Ann"] in vote[0].targets


# --- any-wolf attack [004] ------------------------------------------------------------

def test_any_wolf_first_pick_closes_the_wolves_part_rules_5_werewolf_004():
    """RULES.md §5 Werewolf, wolf_attack=any-wolf [004] ("生き残っている内の一人が…伝えます"):
    the first living wolf's pick stands and closes the wolves' part; the second
    wolf's later attack is refused."""
    base = [a("Cid", "inspect", "Gus"), *lynch("Hal", alive9(), "Gus"),
            a("Cid", "inspect", "Fay"), a("Eve", "guard", "Cid"), a("Bob", "attack", "Gus")]
    out = play("jp-standard", JP9, base)
    assert out["status"] == 0, out.get("error")
    assert deaths(out) == [("Hal", "execution", "day 1"), ("Gus", "werewolves", "night 2")]
    assert out["step"] == "day 2 vote"
    out = play("jp-standard", JP9, [*base, a("Ann", "attack", "Dan")])
    assert out["status"] == 2 and out["error"]["index"] == len(base)
    assert "Dan" in out["alive"]


def test_unanimous_override_waits_for_every_wolf_rules_2_options():
    """RULES.md §2 "a rule that is an option is never hard-coded", §5 Werewolf
    (unanimous [000]): with wolf_attack=unanimous one wolf's pick does not close the step."""
    out = play("jp-standard", JP9, [a("Cid", "inspect", "Gus"), *lynch("Hal", alive9(), "Gus"),
                                     a("Cid", "inspect", "Fay"), a("Eve", "guard", "Cid"),
                                     a("Bob", "attack", "Gus")],
               options={"wolf_attack": "unanimous"})
    assert out["status"] == 0, out.get("error")
    assert out["step"] == "night 2 actions"  # the one night step [issue 16]
    assert deaths(out) == [("Hal", "execution", "day 1")]
