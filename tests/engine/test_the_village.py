"""The Village expansion: professions, buildings, the pyromaniac and the
rumormonger, one or more scripted cases per rule.

Every test names its rule and source: `RULES.md §8 <what> [000]` refers to
the project's rules reference (§8, The Village, digested from the BGA wiki
excerpt [000]), "§8 Decision" to a reading RULES.md fixes where the seed is
terse, `docs/rules.md §10` to the engine's own decisions. The seed's words
for each profession are quoted where a test turns on them.

Players Ann, Bob, Cid, … are dealt the listed cards and professions in seat
order (tests/helpers.py). Most games switch the sheriff off so that day 1 goes
straight to the execution vote, where the day powers are used.
"""

from __future__ import annotations

from collections import Counter

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
    script,
    seats,
    votes,
)

from companion.engine import (
    Action,
    IllegalAction,
    SetupError,
    act,
    legal_actions,
    new_game,
    public_view,
    view_for,
    waiting_for,
)
from companion.engine.professions import BUILDINGS
from companion.replay import run_replay

MH = "millers-hollow"
BGA = "bga"
NO_SHERIFF = {"sheriff": False}
W, V = "werewolf", "villager"
F, D = "farmer", "drifter"


def power(state, name: str) -> str | None:
    return view_for(state, S(name))["profession"]["power"]


# Eight players: two wolves (Ann, Bob), six villagers; everyone owns a farm
# unless a test gives him another token.
ROLES8 = [W, W, V, V, V, V, V, V]


def profs(**given: str) -> list[str]:
    """Farmers all round, but the named players' tokens."""
    return [given.get(n, F) for n in NAMES[:8]]


# =============================================================================
# The deal — RULES.md §8 Decision (professions listed, or dealt from the seed)
# =============================================================================

def test_the_option_deals_one_of_each_building_then_drifters__rules_s8_decision():
    """RULES.md §8 Decision: the `professions` option deals one of each of the
    nine building professions, drifters for the rest, from the seed; fewer
    players than buildings: a random subset. Off in every preset."""
    twelve = new_game(MH, NAMES[:12], None, {"professions": True}, seed=5)
    assert twelve.village
    assert Counter(twelve.prof) == Counter({**{b: 1 for b in BUILDINGS}, D: 3})
    again = new_game(MH, NAMES[:12], None, {"professions": True}, seed=5)
    assert again.prof == twelve.prof  # from the seed
    eight = new_game(MH, NAMES[:8], None, {"professions": True}, seed=5)
    assert len(set(eight.prof)) == 8 and D not in eight.prof
    assert set(eight.prof) <= set(BUILDINGS)
    plain = new_game(MH, NAMES[:8], None, seed=5)
    assert not plain.village and plain.prof == ["house"] * 8  # a plain house each
    assert "profession" not in view_for(plain, 0)


@pytest.mark.parametrize("tokens, why", [
    ({"Ann": F}, "no profession for"),
    ({**{n: F for n in NAMES[:8]}, "Zed": F}, "not among the players"),
    ({**{n: F for n in NAMES[:8]}, "Ann": "priest"}, "unknown profession"),
    ({**{n: F for n in NAMES[:8]}, "Ann": "lord", "Bob": "lord"}, "at most 1 lord"),
])
def test_replay_refuses_bad_professions__replay_md(tokens, why):
    """docs/replay.md `professions`: every player listed, known ids, each
    building unique but the farm (RULES.md §8 Decision): exit 2 with a clear
    message, before any action."""
    doc = script(MH, ROLES8, [], NO_SHERIFF)
    doc["professions"] = tokens
    out, status = run_replay(doc)
    assert status == 2 and out["error"]["index"] is None
    assert why in out["error"]["message"]


def test_several_farmers_may_be_dealt__rules_s8_decision():
    """RULES.md §8 Decision: several farmers may be dealt explicitly."""
    st = game(MH, ROLES8, [], NO_SHERIFF, professions=profs())
    assert st.prof == [F] * 8
    with pytest.raises(SetupError):
        new_game(MH, NAMES[:8], ROLES8, NO_SHERIFF, professions=[F] * 7)


# =============================================================================
# Drifter — RULES.md §8 drifter [000] 「女教師,床屋,うわさ屋,放火魔の対象にならない」
# =============================================================================

def test_drifters_cannot_be_named_by_teacher_barber_rumormonger_pyromaniac__rules_s8_000():
    """RULES.md §8 drifter [000]: no building; the schoolteacher, barber,
    rumormonger and pyromaniac cannot target him."""
    roles = [W, W, "pyromaniac", "rumormonger", V, V, V, V]
    tokens = profs(Cid="schoolteacher", Dan="barber", Eve=D, Fay=D)
    st = game(MH, roles, [], NO_SHERIFF, professions=tokens)
    assert st.step == "pyromaniac"
    burn = choices(st, "Cid")["burn"]
    assert S("Eve") not in burn.targets and S("Gus") in burn.targets
    st = game(MH, roles, [a("Cid", "pass")], NO_SHERIFF, professions=tokens)
    post = choices(st, "Dan")["post"]
    assert S("Eve") not in post.targets and S("Fay") not in post.targets
    st = game(MH, roles, [a("Cid", "pass"), a("Dan", "pass"), *attack("Hal", "Ann", "Bob")],
              NO_SHERIFF, professions=tokens)
    assert st.step == "vote"
    assert S("Eve") not in choices(st, "Cid")["silence"].targets
    assert S("Eve") not in choices(st, "Dan")["shave"].targets
    with pytest.raises(IllegalAction):
        act(st, Action(S("Dan"), "shave", S("Eve")))
    assert view_for(st, S("Eve"))["profession"] == {
        "id": D, "dealt": D, "building": None, "power": None}


# =============================================================================
# Pyromaniac — RULES.md §8 night roles [000], §4 night order
# =============================================================================

PYRO = [V, W, V, V, "pyromaniac", W, V]  # Bob (1) and Fay (5) are the wolves


def test_pyromaniac_burns_once_owner_becomes_drifter__rules_s8_pyromaniac_000():
    """RULES.md §8 pyromaniac [000]: the building is gone and its owner becomes
    a drifter; the burn resolves at dawn; a burned building is public (§8,
    views); once per game (§8 Decision); called after the seer, before the
    wolves (§4 Decision)."""
    st = game(MH, PYRO, [], NO_SHERIFF, professions=[F] * 7)
    assert st.step == "pyromaniac"
    st = game(MH, PYRO, [a("Eve", "burn", "Cid"), *attack("Ann", "Bob", "Fay")], NO_SHERIFF,
              professions=[F] * 7)
    assert st.prof[S("Cid")] == D and st.alive[S("Cid")]
    assert view_for(st, S("Cid"))["profession"]["id"] == D
    assert public_view(st)["village"]["burned"] == [{"seat": S("Cid"), "building": F}]
    # night 2: he is not called again (once per game)
    st2 = game(MH, PYRO, [a("Eve", "burn", "Cid"), *attack("Ann", "Bob", "Fay"),
                          a(None, "timeout")], NO_SHERIFF, professions=[F] * 7)
    assert st2.phase == "night" and st2.n == 2 and st2.step == "wolves"
    assert legal_actions(st2, S("Eve")) == []


def test_pyromaniac_without_professions_burns_a_plain_house__rules_s8_decision():
    """RULES.md §8 Decision: without professions every player owns a plain
    house, so the pyromaniac can target anyone; the burned owner is a drifter."""
    st = game(MH, PYRO, [a("Eve", "burn", "Dan"), *attack("Ann", "Bob", "Fay")], NO_SHERIFF)
    assert not st.village and st.prof[S("Dan")] == D
    assert public_view(st)["village"]["burned"] == [{"seat": S("Dan"), "building": "house"}]


def test_fire_saves_the_attacked_owner_and_kills_the_nearest_wolf__rules_s8_000():
    """RULES.md §8 pyromaniac [000]: the burned player, attacked by the wolves
    that night, survives; the wolf seated nearest him dies instead (cause
    `fire`); equal distance: the one to his left (clockwise) (§8 Decision)."""
    out = ok(play(MH, PYRO, [a("Eve", "burn", "Dan"), *attack("Dan", "Bob", "Fay")],
                  NO_SHERIFF, professions=[F] * 7))
    # Dan (3): Bob (1) and Fay (5) two seats away each: Fay is to his left
    assert deaths(out) == [("Fay", "fire", "night 1")]


def test_fire_distance_counts_living_seats_only__rules_s8_decision():
    """RULES.md §8 Decision: the distance to the nearest wolf counts living
    seats only: with Cid dead, Bob is next to Dan."""
    out = ok(play(MH, PYRO, [a("Eve", "pass"), *attack("Cid", "Bob", "Fay"),
                             a(None, "timeout"),  # day 1: nobody votes
                             a("Eve", "burn", "Dan"), *attack("Dan", "Bob", "Fay")],
                  NO_SHERIFF, professions=[F] * 7))
    assert deaths(out) == [("Cid", "werewolves", "night 1"), ("Bob", "fire", "night 2")]


# =============================================================================
# Rumormonger — RULES.md §8 night roles [000]
# =============================================================================

RUMOR = [W, W, "rumormonger", V, V, V, V, V]


def test_rumormonger_adds_two_votes_in_the_next_first_vote__rules_s8_000():
    """RULES.md §8 rumormonger [000]: 「翌日の被投票数が2票追加」: two extra
    votes against the posted player in the next day's first execution vote.
    The poster is a public notice by day, not at night (§8, views)."""
    night = [a("Cid", "post", "Dan"), *attack("Hal", "Ann", "Bob")]
    st = game(MH, RUMOR, night, NO_SHERIFF)
    assert public_view(st)["village"]["poster"] == S("Dan")
    out = ok(play(MH, RUMOR, night + votes(
        "Ann>Eve", "Bob>Eve", "Cid>Dan", "Dan>Fay", "Eve>Fay", "Fay>Gus", "Gus>Ann"),
        NO_SHERIFF))
    # Eve 2, Fay 2, Dan 1 + 2 posted = 3
    assert ("Dan", "execution", "day 1") in deaths(out)
    tally = next(e for e in out["events"] if e["e"] == "tally")
    assert tally["counts"][str(S("Dan"))] == 3 and tally["poster"] == S("Dan")
    at_night = game(MH, RUMOR, [a("Cid", "post", "Dan")], NO_SHERIFF)
    assert public_view(at_night)["village"]["poster"] is None  # secret while it is night


def test_poster_counts_even_if_the_rumormonger_died_that_night__rules_s8_decision():
    """RULES.md §8 Decision: the poster counts even if the rumormonger died
    that night."""
    out = ok(play(MH, RUMOR, [a("Cid", "post", "Dan"), *attack("Cid", "Ann", "Bob"),
                              *votes("Ann>Eve", "Bob>Eve", "Dan>Fay", "Eve>Fay", "Fay>Gus",
                                     "Gus>Dan", "Hal>Gus")], NO_SHERIFF))
    # Eve 2, Fay 2, Gus 2, Dan 1 + 2 = 3
    assert deaths(out) == [("Cid", "werewolves", "night 1"), ("Dan", "execution", "day 1")]


def test_poster_does_not_count_in_runoffs__rules_s8_decision():
    """RULES.md §8 Decision: the two votes count in the first execution vote
    only, not in its runoffs (bga: one runoff among the tied [000])."""
    out = ok(play(BGA, RUMOR, [a("Cid", "post", "Dan"), *attack("Hal", "Ann", "Bob"),
                               *votes("Ann>Eve", "Bob>Eve", "Cid>Eve", "Dan>Fay", "Eve>Dan",
                                      "Fay>Gus", "Gus>Ann"),
                               # runoff between Eve (3) and Dan (1 + 2): no poster now
                               *votes("Ann>Dan", "Bob>Eve", "Cid>Dan", "Dan>Eve", "Eve>Dan",
                                      "Fay>Eve", "Gus>Eve")], NO_SHERIFF))
    tallies = [e for e in out["events"] if e["e"] == "tally"]
    assert tallies[0]["tie"] == sorted(seats("Dan", "Eve"))
    assert "poster" not in tallies[1] and tallies[1]["counts"][str(S("Dan"))] == 3
    assert ("Eve", "execution", "day 1") in deaths(out)


# =============================================================================
# Tavern keeper — RULES.md §8 [000]
# 「人狼の襲撃や投票の対象にならない。…先に投票しなければならない」
# =============================================================================

TAVERN = profs(Cid="tavern-keeper")
NIGHT1 = attack("Hal", "Ann", "Bob")


def test_tavern_keeper_cannot_be_attacked_or_voted_against__rules_s8_000():
    """RULES.md §8 tavern keeper [000]: the wolves cannot attack her and nobody
    may vote against her while she holds her power."""
    st = game(MH, ROLES8, [], NO_SHERIFF, professions=TAVERN)
    assert S("Cid") not in choices(st, "Ann")["attack"].targets
    st = game(MH, ROLES8, NIGHT1 + votes("Cid>Ann"), NO_SHERIFF, professions=TAVERN)
    assert S("Cid") not in choices(st, "Dan")["vote"].targets
    with pytest.raises(IllegalAction):
        act(st, Action(S("Dan"), "vote", S("Cid")))


def test_tavern_keeper_votes_first__rules_s8_decision():
    """RULES.md §8 Decision: the execution vote waits for her ballot, and it is
    shown before the others vote."""
    st = game(MH, ROLES8, NIGHT1, NO_SHERIFF, professions=TAVERN)
    assert waiting_for(st) == [S("Cid")]
    assert "vote" not in choices(st, "Dan")
    with pytest.raises(IllegalAction):
        act(st, Action(S("Dan"), "vote", S("Ann")))
    act(st, Action(S("Cid"), "vote", S("Ann")))
    assert S("Dan") in waiting_for(st) and "vote" in choices(st, "Dan")
    assert public_view(st)["vote"]["first"] == {"seat": S("Cid"), "target": S("Ann")}


def test_the_table_counts_every_voter_while_the_tavern_keeper_votes_first__issue_44():
    """[issue 44 item 3] "0 of 1 have voted" while the vote waited for the
    tavern keeper: the public view's `of` counts every voter of the ballot,
    those waiting behind her included (7 living, all voting)."""
    st = game(MH, ROLES8, NIGHT1, NO_SHERIFF, professions=TAVERN)
    vote = public_view(st)["vote"]
    assert vote["waiting"] == [S("Cid")] and vote["of"] == 7
    act(st, Action(S("Cid"), "vote", S("Ann")))
    vote = public_view(st)["vote"]
    assert vote["voted"] == [S("Cid")] and vote["of"] == 7 and len(vote["waiting"]) == 6
    # the candidates' second vote (a pool of one or two): every non-candidate counted
    opts = {**NO_SHERIFF, "vote_mode": "candidates"}
    first = votes("Cid>Dan", "Ann>Dan", "Bob>Dan", "Dan>Eve", "Eve>Dan", "Fay>Eve", "Gus>Dan")
    st = game(MH, ROLES8, NIGHT1 + first, opts, professions=TAVERN)
    vote = public_view(st)["vote"]
    assert (vote["round"], vote["waiting"], vote["of"]) == (2, [S("Cid")], 5)  # 7 but Dan, Eve


@pytest.mark.parametrize("others, lost", [
    (["Ann>Eve", "Bob>Eve", "Dan>Ann", "Eve>Ann", "Fay>Ann", "Gus>Eve"], True),  # alone
    (["Ann>Eve", "Bob>Eve", "Dan>Gus", "Eve>Ann", "Fay>Gus", "Gus>Dan"], True),  # tied
    (["Ann>Eve", "Bob>Eve", "Dan>Eve", "Eve>Ann", "Fay>Gus", "Gus>Eve"], False),
], ids=["alone", "tied", "not-most"])
def test_tavern_keeper_loses_her_power_when_her_target_has_most_votes__rules_s8(others, lost):
    """RULES.md §8 tavern keeper [000] 「その投票したプレイヤーが最多票になった場合、
    パワーを失う」, §8 Decision: alone or tied. Lost, she may be attacked and
    voted against."""
    st = game(MH, ROLES8, NIGHT1 + votes("Cid>Ann", *others), NO_SHERIFF, professions=TAVERN)
    assert power(st, "Cid") == ("lost" if lost else "usable")
    if st.phase == "night" and st.step == "wolves":
        assert (S("Cid") in choices(st, "Bob")["attack"].targets) == lost


def test_the_tavern_keeper_loses_her_power_by_the_round_that_executes_rules_6_r5():
    """RULES.md §6 Decisions (r5), §8: with `vote_mode=candidates` the round
    that executes decides whether the tavern keeper loses her power: her
    round-1 target being most voted costs her nothing; her round-2 target
    being executed does."""
    opts = {"sheriff": False, "vote_mode": "candidates"}
    first = votes("Cid>Dan", "Ann>Dan", "Bob>Dan", "Dan>Eve", "Eve>Dan", "Fay>Eve", "Gus>Ann")
    st = game(MH, ROLES8, NIGHT1 + first, opts, professions=TAVERN)
    assert [e for e in st.log if e["e"] == "tally"][-1]["nominees"] == [S("Dan"), S("Eve")]
    assert power(st, "Cid") == "usable"  # round 1's most voted was hers: not yet
    second = votes("Cid>Eve", "Ann>Eve", "Bob>Eve", "Fay>Dan", "Gus>Eve")
    for raw in second:
        act(st, Action(S(raw["actor"]), "vote", target=S(raw["target"])))
    assert power(st, "Cid") == "lost"  # round 2 executes her target: lost


# =============================================================================
# Schoolteacher — RULES.md §8 [000] 「プレイヤーを2人まで指定(流れ者は不可)…投票権を失わせる」
# =============================================================================

def test_schoolteacher_silences_up_to_two_for_the_vote_and_runoffs__rules_s8_000():
    """RULES.md §8 schoolteacher [000]: names up to two players (no
    drifters); she and they lose their vote that day, in the execution vote
    and its runoffs (§8 Decision); the next day they vote again."""
    tokens = profs(Cid="schoolteacher", Hal=D)
    st = game(BGA, ROLES8, NIGHT1, NO_SHERIFF, professions=tokens)
    silence = choices(st, "Cid")["silence"]
    assert silence.count == (1, 2) and S("Hal") not in silence.targets
    act(st, Action(S("Cid"), "silence", targets=seats("Dan", "Eve")))
    assert set(waiting_for(st)) == set(seats("Ann", "Bob", "Fay", "Gus"))
    assert "vote" not in choices(st, "Dan") and "vote" not in choices(st, "Cid")
    assert public_view(st)["village"]["silenced"] == sorted(seats("Cid", "Dan", "Eve"))
    for v in votes("Ann>Gus", "Bob>Gus", "Fay>Ann", "Gus>Ann"):  # a tie: runoff
        act(st, Action(S(v["actor"]), "vote", S(v["target"])))
    assert st.round == 2 and set(waiting_for(st)) == set(seats("Ann", "Bob", "Fay", "Gus"))
    for v in votes("Ann>Gus", "Bob>Gus", "Fay>Gus", "Gus>Ann"):
        act(st, Action(S(v["actor"]), "vote", S(v["target"])))
    act(st, Action(S("Ann"), "attack", S("Fay")))
    act(st, Action(S("Bob"), "attack", S("Fay")))
    assert st.phase == "day" and st.n == 2
    assert S("Dan") in waiting_for(st) and "silence" in choices(st, "Cid")  # permanent


# =============================================================================
# Baker — RULES.md §8 [000] 「毎晩『25％の確率』で人狼が誰かが分かる」, §4 Decision
# =============================================================================

def test_baker_learns_a_wolf_one_night_in_four_from_the_seed__rules_s8_000():
    """RULES.md §8 baker [000]: each night a 25 % chance to learn one
    werewolf, rolled at dawn from the seed (§4 Decision): the same seed gives
    the same result; she alone is told."""
    tokens = profs(Cid="baker")
    hits = 0
    for seed in range(400):
        st = game(MH, ROLES8, NIGHT1, NO_SHERIFF, seed=seed, professions=tokens)
        rolls = [e for e in st.log if e["e"] == "baker"]
        assert len(rolls) == 1
        if rolls[0]["wolf"] is not None:
            hits += 1
            assert rolls[0]["wolf"] in seats("Ann", "Bob")
            found = rolls[0]["wolf"]
    assert 70 <= hits <= 130, hits  # 25 % of 400 = 100
    again = game(MH, ROLES8, NIGHT1, NO_SHERIFF, seed=seed, professions=tokens)
    assert [e for e in again.log if e["e"] == "baker"] == rolls
    st = next(s for s in (game(MH, ROLES8, NIGHT1, NO_SHERIFF, seed=k, professions=tokens)
                          for k in range(400))
              if any(e["e"] == "baker" and e["wolf"] is not None for e in s.log))
    found = next(e["wolf"] for e in st.log if e["e"] == "baker")
    assert results(st, "Cid") == [{"kind": "baker", "wolf": found}]
    assert view_for(st, S("Cid"))["players"][found]["role"] == W
    assert view_for(st, S("Dan"))["players"][found]["role"] is None
    assert results(st, "Dan") == []


# =============================================================================
# Confessor — RULES.md §8 [000] 「昼にプレイヤー一人を選択して、『役職』を確認する」
# =============================================================================

def test_confessor_learns_a_card_privately_once__rules_s8_000():
    """RULES.md §8 confessor [000]: once, by day, learns one player's card;
    only she sees it; her power is then used."""
    st = game(MH, ROLES8, NIGHT1 + [a("Cid", "confess", "Ann")], NO_SHERIFF,
              professions=profs(Cid="confessor"))
    assert results(st, "Cid") == [{"kind": "confess", "target": S("Ann"), "result": W}]
    assert view_for(st, S("Cid"))["players"][S("Ann")]["role"] == W
    assert view_for(st, S("Dan"))["players"][S("Ann")]["role"] is None
    assert "confess" not in choices(st, "Cid") and power(st, "Cid") == "used"
    assert "confess" not in str(public_view(st))


def test_day_powers_are_optional_and_close_at_the_first_ballot__rules_s8_decision():
    """RULES.md §8 Decision: day powers are used before the first execution
    ballot; an unused power needs no pass (nobody waits for it); the first
    ballot closes the window."""
    st = game(MH, ROLES8, NIGHT1, NO_SHERIFF, professions=profs(Cid="confessor"))
    assert set(waiting_for(st)) == set(seats("Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus"))
    assert {"vote", "confess"} <= set(choices(st, "Cid"))
    act(st, Action(S("Dan"), "vote", S("Ann")))
    assert "confess" not in choices(st, "Cid")
    with pytest.raises(IllegalAction):
        act(st, Action(S("Cid"), "confess", S("Ann")))


# =============================================================================
# Barber — RULES.md §8 [000]
# 「人狼を死亡させた場合、再度パワーを使用できる。人狼以外…床屋も死亡する」
# =============================================================================

def test_barber_on_a_wolf_may_shave_again_the_same_day__rules_s8_000():
    """RULES.md §8 barber [000]: by day kills a player (cause `barber`); a
    wolf: the power is usable again, the same day included (§8 Decision)."""
    st = game(MH, ROLES8, NIGHT1 + [a("Cid", "shave", "Ann")], NO_SHERIFF,
              professions=profs(Cid="barber"))
    assert not st.alive[S("Ann")] and st.alive[S("Cid")]
    assert st.step == "vote" and "shave" in choices(st, "Cid") and power(st, "Cid") == "usable"
    out = ok(play(MH, ROLES8, NIGHT1 + [a("Cid", "shave", "Ann"), a("Cid", "shave", "Bob")],
                  NO_SHERIFF, professions=profs(Cid="barber")))
    assert deaths(out)[1:] == [("Ann", "barber", "day 1"), ("Bob", "barber", "day 1")]
    assert out["winner"] == "village"
    shown = [d["cause"] for d in public_view(st)["deaths"] if d["time"] == "day 1"]
    assert shown == ["barber"]  # a public death


def test_barber_on_a_non_wolf_dies_too__rules_s8_000():
    """RULES.md §8 barber [000]: shaving a non-wolf, the barber dies too; both
    deaths have cause `barber`; the vote opens again afterwards."""
    st = game(MH, ROLES8, NIGHT1 + [a("Cid", "shave", "Dan")], NO_SHERIFF,
              professions=profs(Cid="barber"))
    assert [(s, c) for s, c, _ in st.deaths[1:]] == [(S("Dan"), "barber"), (S("Cid"), "barber")]
    assert st.step == "vote" and st.round == 1 and S("Eve") in waiting_for(st)


# =============================================================================
# Lord — RULES.md §8 [000] 「投票による処刑を無効化できる(自身可)」
# =============================================================================

LORD_VOTES = votes("Ann>Dan", "Bob>Dan", "Cid>Dan", "Dan>Ann", "Eve>Dan", "Fay>Dan", "Gus>Dan")


def test_lord_pardons_an_execution_once__rules_s8_000():
    """RULES.md §8 lord [000]: once, cancels an execution; offered once the
    vote is decided, before the execution (§8 Decision); a used pardon is not
    offered again."""
    tokens = profs(Fay="lord")
    st = game(MH, ROLES8, NIGHT1 + LORD_VOTES, NO_SHERIFF, professions=tokens)
    assert st.step == "pardon" and waiting_for(st) == [S("Fay")]
    assert public_view(st)["step"] == "day 1 execution"  # the table cannot tell a lord waits
    out = ok(play(MH, ROLES8, NIGHT1 + LORD_VOTES + [a("Fay", "pardon"),
                                                     *attack("Gus", "Ann", "Bob")],
                  NO_SHERIFF, professions=tokens))
    assert ("Dan", "execution", "day 1") not in deaths(out)
    day2 = [v for v in LORD_VOTES if v["actor"] != "Gus"]
    st = game(MH, ROLES8, NIGHT1 + LORD_VOTES + [a("Fay", "pardon"),
                                                 *attack("Gus", "Ann", "Bob")] + day2,
              NO_SHERIFF, professions=tokens)
    assert not st.alive[S("Dan")] and st.phase == "night"  # day 2: no pardon left


def test_lord_may_pardon_himself_and_pass_lets_it_happen__rules_s8_000():
    """RULES.md §8 lord [000] (自身可): himself included; `pass` lets the
    execution happen (§8 Decision)."""
    tokens = profs(Dan="lord")
    st = game(MH, ROLES8, NIGHT1 + LORD_VOTES + [a("Dan", "pardon")], NO_SHERIFF,
              professions=tokens)
    assert st.alive[S("Dan")] and st.phase == "night"
    st = game(MH, ROLES8, NIGHT1 + LORD_VOTES + [a("Dan", "pass")], NO_SHERIFF,
              professions=tokens)
    assert not st.alive[S("Dan")] and power(st, "Dan") == "usable"


# =============================================================================
# Bonesetter — RULES.md §8 [000]
# 「一回限りで使用済みの建物効果(聴罪司祭,床屋,領主)を再度使用可能にする」
# =============================================================================

def test_bonesetter_restores_a_used_power__rules_s8_000():
    """RULES.md §8 bonesetter [000]: once, by day, makes a used once-only power
    (confessor, barber, lord) usable again; `restore` names the power (§8
    Decision)."""
    tokens = profs(Cid="confessor", Dan="bonesetter")
    st = game(MH, ROLES8, NIGHT1 + [a("Cid", "confess", "Ann")], NO_SHERIFF,
              professions=tokens)
    assert choices(st, "Dan")["restore"].powers == ("confessor",)
    act(st, Action(S("Dan"), "restore", power="confessor"))
    assert power(st, "Cid") == "usable" and power(st, "Dan") == "used"
    act(st, Action(S("Cid"), "confess", S("Bob")))
    assert [r["target"] for r in results(st, "Cid")] == list(seats("Ann", "Bob"))
    with pytest.raises(IllegalAction):
        act(st, Action(S("Dan"), "restore", power="confessor"))


# =============================================================================
# Steward — RULES.md §8 [000] 「所有者のいない建物がある場合、流れ者に建物を割り当てることができる」
# =============================================================================

def test_steward_hands_an_ownerless_building_to_a_drifter_and_restores_it__rules_s8_000():
    """RULES.md §8 steward [000]: gives an ownerless building to a drifter;
    its used power becomes usable again: the barber who died with his used
    power leaves his shop to Hal, who may shave."""
    tokens = profs(Cid="barber", Dan="steward", Hal=D)
    st = game(MH, ROLES8, attack("Gus", "Ann", "Bob") + [a("Cid", "shave", "Eve")],
              NO_SHERIFF, professions=tokens)
    assert not st.alive[S("Cid")] and sorted(st.vacant) == ["barber", "farmer", "farmer"]
    assign = choices(st, "Dan")["assign"]
    assert assign.targets == (S("Hal"),) and "barber" in assign.buildings
    act(st, Action(S("Dan"), "assign", S("Hal"), building="barber"))
    assert view_for(st, S("Hal"))["profession"] == {
        "id": "barber", "dealt": D, "building": "barber", "power": "usable"}
    act(st, Action(S("Hal"), "shave", S("Ann")))
    assert not st.alive[S("Ann")]


# =============================================================================
# Farmer — RULES.md §8 [000] 「2日目の昼に、農家の中からキャプテンを一人選出する…」
# =============================================================================

FARM = [W, W, V, V, V, V, V, V, V, V]


def test_farmers_captain_on_day_2_successor_among_farmers__rules_s8_000():
    """RULES.md §8 farmer [000], §8 Decision: no captain election on day 1; on
    day 2 everyone votes among the living farmers; a dying captain's
    successor is a farmer; when the last farmer dies there is no captain."""
    tokens = [D, D, F, F, D, D, D, D, D, D]  # Cid and Dan farm
    st = game(MH, FARM, attack("Jon", "Ann", "Bob"), professions=tokens)
    assert st.step == "vote"  # day 1: no election
    day1 = attack("Jon", "Ann", "Bob") + [a(None, "timeout")] + attack("Ivy", "Ann", "Bob")
    st = game(MH, FARM, day1, professions=tokens)
    assert st.step == "election" and st.candidates == seats("Cid", "Dan")
    with pytest.raises(IllegalAction):
        act(st, Action(S("Eve"), "vote", S("Eve")))
    elect = [a(n, "vote", "Cid") for n in NAMES[:8]]
    execute_cid = [a(n, "vote", "Cid" if n != "Cid" else "Ann") for n in NAMES[:8]]
    st = game(MH, FARM, day1 + elect + execute_cid, professions=tokens)
    assert st.step == "appoint" and choices(st, "Cid")["appoint"].targets == (S("Dan"),)
    out = ok(play(MH, FARM, day1 + elect + execute_cid + [a("Cid", "appoint", "Dan"),
                                                          *attack("Dan", "Ann", "Bob")],
                  professions=tokens))
    sheriffs = [(e["seat"], e["how"]) for e in out["events"] if e["e"] == "sheriff"]
    assert sheriffs == [(S("Cid"), "elected"), (S("Dan"), "appointed"), (None, "died")]
    assert out["sheriff"] is None


# =============================================================================
# Views — what each audience sees (docs/rules.md §9, RULES.md §8)
# =============================================================================

def test_views_show_own_profession_gm_every_building__rules_s8():
    """docs/rules.md §9 / RULES.md §8: a seat sees its own profession, building
    and power state; the GM sees every building and which powers are used;
    the table sees no standing building."""
    tokens = profs(Cid="confessor", Dan="lord")
    st = game(MH, ROLES8, NIGHT1 + [a("Cid", "confess", "Ann")], NO_SHERIFF,
              professions=tokens)
    assert view_for(st, S("Dan"))["profession"] == {
        "id": "lord", "dealt": "lord", "building": "lord", "power": "usable"}
    gm = view_for(st, None)["village"]
    assert gm["professions"] == tokens and gm["spent"] == {"confessor": "used"}
    assert gm["powers"][S("Cid")] == "used"
    pv = public_view(st)
    assert "profession" not in pv and set(pv["village"]) == {"professions", "burned", "poster",
                                                               "silenced"}


def test_announcements_tell_fires_posters_silences_and_pardons__rules_s8():
    """docs/rules.md §9 / RULES.md §8: the table is told the burned building and
    the poster at dawn, the schoolteacher's silence and the lord's pardon as
    they happen; nothing of them at night."""
    from companion.engine import announcements

    roles = [W, W, "pyromaniac", "rumormonger", V, V, V, V]
    tokens = profs(Gus="schoolteacher", Fay="lord")
    night = [a("Cid", "burn", "Dan"), a("Dan", "post", "Hal"), *attack("Eve", "Ann", "Bob")]
    st = game(MH, roles, night[:2], NO_SHERIFF, professions=tokens)
    assert announcements(st) == []  # still night: nothing
    st = game(MH, roles, night + [a("Gus", "silence", targets=["Hal"])] + votes(
        "Ann>Fay", "Bob>Fay", "Cid>Fay", "Dan>Fay", "Fay>Ann") + [a("Fay", "pardon")],
        NO_SHERIFF, professions=tokens)
    said = announcements(st)
    dawn = next(x for x in said if x["kind"] == "dawn")
    assert dawn["burned"] == [{"seat": S("Dan"), "name": "Dan", "building": F}]
    assert dawn["poster"] == S("Hal")
    silence = next(x for x in said if x["kind"] == "silence")
    assert silence["seat"] == S("Gus") and silence["targets"] == [S("Hal")]
    pardon = next(x for x in said if x["kind"] == "pardon")
    assert pardon["seat"] == S("Fay") and pardon["condemned"] == S("Fay")
    assert st.alive[S("Fay")] and said[-1]["kind"] == "no-execution"


def test_a_timeout_while_waiting_for_the_tavern_keeper_opens_the_vote__docs_rules_10():
    """docs/rules.md §10 (our decision): a timeout while the vote waits for the
    tavern keeper applies her default ballot (`vote_timeout`), then the others
    vote."""
    st = game(BGA, ROLES8, NIGHT1 + [a(None, "timeout")], NO_SHERIFF, professions=TAVERN)
    # bga: vote_timeout=right-neighbour: Bob sits at her right
    assert st.votes == {S("Cid"): S("Bob")} and st.step == "vote"
    assert S("Dan") in waiting_for(st) and S("Cid") not in waiting_for(st)


def test_the_barbers_victims_triggers_run_then_the_vote_opens_again__rules_s8_s6():
    """RULES.md §6 trigger queue, §8 barber: a shaved hunter shoots at once (the
    barber, who shaved no wolf, dies with him); then the day's first vote
    opens again, with its window (§8 Decision)."""
    roles = [W, W, V, "hunter", V, V, V, V]
    st = game(MH, roles, NIGHT1 + [a("Cid", "shave", "Dan")], NO_SHERIFF,
              professions=profs(Cid="barber"))
    assert st.step == "hunter" and st.actor == S("Dan")
    act(st, Action(S("Dan"), "shoot", S("Ann")))
    assert [(s, c) for s, c, _ in st.deaths] == [
        (S("Hal"), "werewolves"), (S("Dan"), "barber"), (S("Cid"), "barber"),
        (S("Ann"), "hunter")]
    assert st.step == "vote" and st.round == 1 and not st.votes


def test_silenced_players_cannot_vote_in_the_public_view__rules_s8():
    """RULES.md §8 schoolteacher, docs/rules.md §9: the table sees who may vote
    today (`can_vote`), the silenced excluded."""
    st = game(MH, ROLES8, NIGHT1 + [a("Cid", "silence", targets=["Dan"])], NO_SHERIFF,
              professions=profs(Cid="schoolteacher"))
    can = {p["name"]: p["can_vote"] for p in public_view(st)["players"]}
    assert not can["Cid"] and not can["Dan"] and can["Eve"]


def test_a_dying_captains_timeout_gives_the_badge_to_the_nearest_farmer_left__docs_10():
    """docs/rules.md §10 (our decision): the dying captain's timeout gives the
    badge to the nearest living farmer to his left, not to his left neighbour."""
    tokens = [D, D, F, D, F, D, D, F, D, D]  # Cid (2), Eve (4), Hal (7) farm
    day1 = attack("Jon", "Ann", "Bob") + [a(None, "timeout")] + attack("Ivy", "Ann", "Bob")
    elect = [a(n, "vote", "Cid") for n in NAMES[:8]]
    execute_cid = [a(n, "vote", "Cid" if n != "Cid" else "Ann") for n in NAMES[:8]]
    st = game(MH, FARM, day1 + elect + execute_cid + [a(None, "timeout")], professions=tokens)
    assert st.sheriff == S("Eve")  # Dan (3) sits to his left, but is no farmer


def test_refusals_say_why_a_voter_must_wait__replay_md_errors():
    """docs/replay.md errors ("an action that comes at the wrong moment is
    answered with the step that is open"), RULES.md §8: a silenced voter is told
    he was silenced; a voter before the tavern keeper is told she votes first."""
    out = play(MH, ROLES8, NIGHT1 + [a("Cid", "silence", targets=["Dan"]),
                                     a("Dan", "vote", "Ann")],
               NO_SHERIFF, professions=profs(Cid="schoolteacher"))
    assert refused(out) == 3 and "silenced" in out["error"]["message"]
    out = play(MH, ROLES8, NIGHT1 + votes("Dan>Ann"), NO_SHERIFF, professions=TAVERN)
    assert refused(out) == 2 and "Cid, the tavern keeper, votes first" in out["error"]["message"]
