"""RULES.md's newer Decisions [issue 33 item 2], one test each, each citing
its Decision (§5 scapegoat, §6 no ballots, §7 white werewolf, §8
schoolteacher). The trigger queue's heartbreak Decision (§6) is in
test_triggers.py."""

from __future__ import annotations

import pytest
from helpers import NAMES, S, a, attack, choices, game, votes

from companion.engine import Action, IllegalAction, act, public_view

MH = "millers-hollow"
NO_SHERIFF = {"sheriff": False}
T8 = ["werewolf", "werewolf", "seer", "villager", "villager", "villager", "villager", "villager"]
NIGHT1 = [a("Cid", "inspect", "Ann"), *attack("Hal", "Ann", "Bob")]


def test_the_schoolteachers_empty_silence_is_refused_rules_8_decision():
    """RULES.md §8 Decision: "`silence` names one or two players; an empty
    list is refused. Naming nobody is not acting: she ... keeps her own vote"."""
    tokens = ["farmer"] * 8
    tokens[S("Cid")] = "schoolteacher"
    state = game("bga", T8, NIGHT1, NO_SHERIFF, professions=tokens)
    with pytest.raises(IllegalAction):
        act(state, Action(S("Cid"), "silence", targets=()))
    assert state.silenced is None and "vote" in choices(state, "Cid")


def test_the_scapegoats_list_does_not_bind_an_election_rules_5_decision():
    """RULES.md §5 scapegoat, Decision: "his list covers the next day's
    execution vote and its runoffs only, not a captain election". Day 1's
    election times out (nobody elected), a tie kills Gus (scapegoat), who
    allows Cid alone; on day 2 an election's ballots are everyone's, the
    execution vote's Cid's alone (asked of `ballots` at both steps)."""
    deal = [*T8[:6], "scapegoat", "villager"]
    day1 = votes("Ann>Dan", "Bob>Dan", "Cid>Ann", "Dan>Ann", "Eve>Fay", "Fay>Eve", "Gus>Eve")
    state = game(MH, deal, [*NIGHT1, a(None, "timeout"), *day1, a("Gus", "allow",
                                                              targets=["Cid"])],
                 options={"sheriff": True})
    assert state.allowed_next == frozenset({S("Cid")})
    assert not state.opts.get("professions")
    from companion.engine.choices import ballots
    state.step, state.phase = "election", "day"
    state.allowed = state.allowed_next
    state.memo_step.clear()
    assert ballots(state)["voters"] == list(state.up)  # everyone votes in an election
    state.step = "vote"
    state.memo_step.clear()
    assert ballots(state)["voters"] == [S("Cid")]  # the execution vote: his list


def test_a_vote_with_no_ballots_is_not_a_tie_rules_6_decision():
    """RULES.md §6 Decision (no ballots): a vote in which nobody casts a ballot
    executes nobody; it is not a tie: no runoff (`runoff-once`), no scapegoat."""
    deal = [*T8[:6], "scapegoat", "villager"]
    state = game("bga", deal, NIGHT1, {"sheriff": False, "vote_timeout": "abstain"})
    act(state, Action(None, "timeout"))
    tally = [e for e in state.log if e["e"] == "tally"][-1]
    assert "tie" not in tally and state.ties == []
    assert state.alive[S("Gus")] and state.now == "night 2"
    assert public_view(state)["phase"] == "night"


def test_a_lone_white_werewolf_never_wins_at_parity_rules_7_decision():
    """RULES.md §7 Decision: "while the white werewolf is the only wolf alive,
    rule 6 (parity included) never applies: he wins only alone". Ann (white
    werewolf) and Bob (werewolf): Bob is executed; Ann alone with two humans
    at parity 1 vs ... the game goes on at 1 wolf vs 1 human."""
    deal = ["white-werewolf", "werewolf", "seer", "villager"]
    opts = {"sheriff": False, "wolves_win": "parity"}
    state = game(MH, deal, [a("Cid", "inspect", "Ann"), *attack("Dan", "Ann", "Bob"),
                            *votes("Ann>Bob", "Bob>Cid", "Cid>Bob")], options=opts)
    assert [s for s in state.up] == [S("Ann"), S("Cid")]  # one wolf, one human: parity
    assert state.phase != "over" and state.winner is None
    assert NAMES[0] == "Ann"


# --- the seed variant idiot_dies_with_elder (RULES.md §5 elder, [003] 變體規則) -------

IDIOT = ["werewolf", "werewolf", "seer", "village-idiot", "elder", "villager", "villager",
         "villager"]
# day 1: Dan (idiot) is voted out and revealed; day 2: Eve (elder) is executed
ELDER_DAYS = [*NIGHT1, *votes("Ann>Dan", "Bob>Dan", "Cid>Dan", "Dan>Ann", "Eve>Dan",
                             "Fay>Dan", "Gus>Dan"),
              a("Cid", "inspect", "Bob"), *attack("Gus", "Ann", "Bob"),
              *votes("Ann>Eve", "Bob>Eve", "Cid>Eve", "Eve>Ann", "Fay>Eve")]


@pytest.mark.parametrize("on,dies", [(True, True), (False, False)])
def test_a_revealed_idiot_dies_with_the_elder_the_village_kills_rules_5_003_variant(on, dies):
    """RULES.md §5 elder, option `idiot_dies_with_elder` (default off) [003
    變體規則: 「女巫、獵人、投票殺死長者發生時，如果白癡的身份牌已經翻開了，則白癡將同長者
    壹起死去」]: the elder executed, the idiot revealed the day before dies with
    him at once (cause `elder`); without the option he lives on."""
    state = game(MH, IDIOT, ELDER_DAYS, options={"sheriff": False, "idiot_dies_with_elder": on})
    assert S("Dan") in state.revealed and not state.alive[S("Eve")]
    assert state.alive[S("Dan")] is not dies
    if dies:
        assert (S("Dan"), "elder", "day 2") in state.deaths
        kinds = [(e["e"], e.get("seat")) for e in state.log if e["e"] in ("died", "triggers")]
        assert kinds.index(("died", S("Dan"))) < kinds.index(("triggers", S("Eve")))


def test_the_idiot_does_not_die_with_an_elder_the_wolves_kill_rules_5_003_variant():
    """[003] names poison, the hunter's shot and the vote only: the wolves'
    second attack on the elder leaves the revealed idiot alive."""
    script = [*ELDER_DAYS[:-5], *votes("Ann>Fay", "Bob>Fay", "Cid>Fay", "Eve>Fay", "Fay>Ann"),
              a("Cid", "inspect", "Ann"), *attack("Eve", "Ann", "Bob"),  # his spare life
              *votes("Ann>Cid", "Bob>Cid", "Cid>Ann", "Eve>Ann"),  # tied: nobody
              a("Cid", "inspect", "Bob"), *attack("Eve", "Ann", "Bob")]  # the second attack
    state = game(MH, IDIOT, script, options={"sheriff": False, "idiot_dies_with_elder": True})
    assert (S("Eve"), "werewolves", "night 4") in state.deaths
    assert state.alive[S("Dan")] and S("Dan") in state.revealed
