"""Fresh-eyes review: corners where the engine may contradict RULES.md / REPLAY.md.

Each test states the rule it checks and its source. Tests that fail against the
engine mark a discrepancy; the others pin corners the suite did not cover yet.
"""

from __future__ import annotations

import contextlib
import io
import json
import sys

from helpers import a, deaths, game, ok, play, votes

from companion.cli import main
from companion.engine import legal_actions, public_view, view_for
from companion.replay import run_replay

MH = "millers-hollow"
NS = {"sheriff": False}
R8 = ["werewolf", "werewolf", "seer", "witch", "villager", "villager", "villager", "villager"]


# --- sheriff election -----------------------------------------------------------

def test_election_revote_without_votes_still_draws_among_the_tied_rules_6_sheriff():
    """RULES.md §6 sheriff (Decision): "an election tie is re-voted once among the
    tied, then one of the tied is drawn at random". The re-vote between Ann and Bob
    gets no ballot (every voter times out, vote_timeout=abstain): it did not break
    the tie, so one of Ann and Bob is drawn — the village is not left without a
    sheriff."""
    out = ok(play(MH, R8, [
        a("Cid", "pass"), a("Ann", "attack", "Hal"), a("Bob", "attack", "Hal"),
        a("Dan", "pass"),
        *votes("Ann>Ann", "Bob>Ann", "Cid>Ann", "Dan>Bob", "Eve>Bob", "Fay>Bob", "Gus>Cid"),
        a(None, "timeout"),  # the re-vote among Ann and Bob: nobody votes
    ]))
    assert out["step"] == "day 1 vote"
    assert out["sheriff"] in ("Ann", "Bob")


# --- wolves and the little girl -------------------------------------------------

GIRL = ["werewolf", "werewolf", "seer", "little-girl", "villager", "villager", "villager",
        "villager"]


def test_wolf_may_change_pick_while_the_little_girl_keeps_the_step_open_rules_5_werewolf():
    """RULES.md §5 werewolf: "A wolf may change his pick while the step is open; the
    step closes as soon as all living wolves agree (and the little girl, if she can
    act, has spied or passed)"; REPLAY.md: "a wolf's later `attack` replaces his
    earlier pick while the wolves' step is open". The wolves agree on Hal, but the
    little girl has not acted yet, so the step is still open and both wolves may
    move to Gus."""
    state = game(MH, GIRL, [a("Cid", "pass"), a("Ann", "attack", "Hal"),
                            a("Bob", "attack", "Hal")], NS)
    assert state.step == "wolves"  # still open: the little girl may spy
    assert [c.do for c in legal_actions(state, 0)] == ["attack", "pass"]
    out = ok(play(MH, GIRL, [a("Cid", "pass"), a("Ann", "attack", "Hal"),
                             a("Bob", "attack", "Hal"), a("Ann", "attack", "Gus"),
                             a("Bob", "attack", "Gus"), a("Dan", "pass")], NS))
    assert deaths(out) == [("Gus", "werewolves", "night 1")]


# --- public information ---------------------------------------------------------

def _night(victim: str, poisoned: str):
    return game(MH, R8, [a("Cid", "pass"), a("Ann", "attack", victim),
                         a("Bob", "attack", victim),
                         a("Dan", "potion", heal=False, poison=poisoned)], NS)


def test_public_night_deaths_do_not_tell_the_wolves_victim_from_the_poisoned_rules_4_secrecy():
    """RULES.md §4 secrecy: "Nothing public ... may reveal who acted at night";
    docs/rules.md §9: a night death shows "who died, but not how". Wolves on Eve +
    poison on Fay, and wolves on Fay + poison on Eve, must look the same to the
    table. The public "deaths" list keeps the resolution order (the wolves' victim
    always first, the poisoned after), so its order tells which one was poisoned."""
    one, two = public_view(_night("Eve", "Fay")), public_view(_night("Fay", "Eve"))
    assert [d["cause"] for d in one["deaths"]] == [None, None]
    assert one["deaths"] == two["deaths"]


def test_public_can_vote_follows_the_scapegoats_choice_rules_5_scapegoat_003():
    """RULES.md §5 scapegoat [003]: he "names who may vote the next day (others may
    not)". The choice is announced to the table; the public view's `can_vote` must
    not tell the table that a player he left out may vote."""
    roles = ["werewolf", "werewolf", "seer", "scapegoat", "villager", "villager",
             "villager", "villager"]
    state = game(MH, roles, [
        a("Cid", "pass"), a("Ann", "attack", "Hal"), a("Bob", "attack", "Hal"),
        *votes("Ann>Fay", "Bob>Fay", "Cid>Gus", "Dan>Gus"), a(None, "timeout"),
        a("Dan", "allow", targets=["Cid", "Eve"]),
        a("Cid", "pass"), a("Ann", "attack", "Gus"), a("Bob", "attack", "Gus"),
    ], NS)
    assert (state.phase, state.n, state.step) == ("day", 2, "vote")
    can = {p["name"]: p["can_vote"] for p in public_view(state)["players"] if p["alive"]}
    assert can == {"Ann": False, "Bob": False, "Cid": True, "Eve": True, "Fay": False}


# --- replay input ---------------------------------------------------------------

def _cli_replay(text: str) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        old, sys.stdin = sys.stdin, io.StringIO(text)
        try:
            try:
                status = main(["replay", "-"])
            except BaseException as exc:  # a crash is the failure this test looks for
                return -1, f"{type(exc).__name__}: {exc}"
        finally:
            sys.stdin = old
    return status, out.getvalue()


def test_replay_huge_integer_is_an_error_not_a_traceback_replay_errors():
    """REPLAY.md output ("An illegal or malformed action: exit status 2 ...") and
    the issue's bad-input list: whatever the input, one JSON object, exit 2, never
    a traceback. A seed with 5000 digits is valid JSON that Python's json refuses
    (int-to-str limit): it must be answered, not crash with ValueError."""
    text = ('{"ruleset": "bga", "players": ["Ann", "Bob", "Cid", "Dan"], "seed": '
            + "7" * 5000 + "}")
    status, stdout = _cli_replay(text)
    assert status == 2, stdout
    assert json.loads(stdout)["error"]["index"] is None


def test_replay_options_that_are_not_an_object_are_refused_replay_input():
    """REPLAY.md input: `options` are "overrides of the ruleset's options" — an
    object. A list, a number or false is malformed setup and must be refused
    (exit 2), not silently read as "no overrides"."""
    base = {"ruleset": "bga", "players": ["Ann", "Bob", "Cid", "Dan"],
            "deal": {"Ann": "werewolf", "Bob": "seer", "Cid": "villager",
                     "Dan": "villager"}, "actions": []}
    for bad in ([], 0, False, ""):
        out, status = run_replay({**base, "options": bad})
        assert status == 2, (bad, out)


# --- corners not yet covered (these pass) -----------------------------------------

def test_half_power_play_counts_the_living_fox_among_the_survivors_rules_6_004():
    """RULES.md §6 runoff-draw [004] (半PP: 生存者の数が偶数で、狂人+人狼の数で
    生存者数の半分): wolf, madman, fox, villager alive — four survivors, two of them
    wolf or madman — is half power play, so three identical ties end in a draw."""
    roles = ["werewolf", "madman", "fox", "villager"]
    tie = votes("Ann>Cid", "Bob>Cid", "Cid>Ann", "Dan>Ann")
    out = ok(play("jp-standard", roles, [*tie, *tie, *tie]))
    assert out["winner"] == "draw" and out["winners"] == []
    assert deaths(out) == []


def test_witch_heals_the_caught_little_girl_and_nobody_dies_rules_5_little_girl_witch():
    """RULES.md §5 little girl [002][003]: caught, she dies in place of the wolves'
    victim and the witch is shown her; §5 witch: heal cancels the wolves' kill. So
    the healed girl lives and the wolves' own pick is not killed either."""
    roles = ["werewolf", "werewolf", "little-girl", "witch", "villager", "villager",
             "villager", "villager"]
    state = game(MH, roles, [a("Cid", "spy", mode="bold", outcome="caught"),
                             a("Ann", "attack", "Hal"), a("Bob", "attack", "Hal")], NS)
    assert view_for(state, 3)["results"][-1]["victim"] == 2
    out = ok(play(MH, roles, [a("Cid", "spy", mode="bold", outcome="caught"),
                              a("Ann", "attack", "Hal"), a("Bob", "attack", "Hal"),
                              a("Dan", "potion", heal=True, poison=None)], NS))
    assert deaths(out) == []
    assert out["step"] == "day 1 vote"


def test_elder_attacked_while_protected_keeps_his_spare_life_rules_5_elder_defender():
    """RULES.md §5 defender: protects from the wolves; §5 elder: survives the first
    wolf attack, dies to the second. An attack the defender held never reached him:
    the next unprotected attack is his first (he survives), the one after kills."""
    roles = ["werewolf", "werewolf", "defender", "elder", "villager", "villager",
             "villager", "villager"]
    night1 = [a("Cid", "protect", "Dan"), a("Ann", "attack", "Dan"), a("Bob", "attack", "Dan")]
    night2 = [a("Cid", "protect", "Eve"), a("Ann", "attack", "Dan"), a("Bob", "attack", "Dan")]
    night3 = [a("Cid", "protect", "Fay"), a("Ann", "attack", "Dan"), a("Bob", "attack", "Dan")]
    day = [a(None, "timeout")]  # abstentions: nobody executed
    out = ok(play(MH, roles, [*night1, *day, *night2], NS))
    assert deaths(out) == [] and "Dan" in out["alive"]
    assert public_view(game(MH, roles, [*night1, *day, *night2], NS))["players"][3]["role"] is None
    out = ok(play(MH, roles, [*night1, *day, *night2, *day, *night3], NS))
    assert deaths(out) == [("Dan", "werewolves", "night 3")]


def test_every_night_step_timing_out_does_nothing_rules_1_timeouts_000():
    """RULES.md §1 timeouts [000]: every night action that times out does nothing —
    thief (no swap: a villager), cupid (no lovers), defender, seer, wolves (no
    attack), white werewolf, witch, piper — and the night ends with no death."""
    roles = ["thief", "cupid", "defender", "seer", "werewolf", "white-werewolf", "witch",
             "piper", "villager", "villager"]
    state = game(MH, roles, [a(None, "timeout")] * 7, NS, center=["villager", "hunter"])
    assert (state.phase, state.n, state.step) == ("day", 1, "vote")
    assert state.roles[0] == "villager" and state.lovers is None and not state.charmed
    assert state.deaths == [] and state.potions == {"heal": True, "poison": True}
