"""The tally says how it was made [issue 15] (CONTRACTS C1, docs/replay.md
"The tally"): every "tally" event, every view's `last_tally` and every
announcement of kind "tally" carry `ballots` (one per voter, in seat order,
with its weight: the sheriff's 2 in an execution vote, RULES.md §6 [000][003])
and `extra` (votes no ballot cast: the rumormonger's two, RULES.md §8 [000]),
and for every seat `counts` is its ballots' weights plus its extra votes.
Games logged before the events carried the two fields get them derived by the
views, the same as the engine logs them now.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

from helpers import S, a, attack, play, votes

from companion.engine import announcements, public_view, rebuild, view_for
from companion.replay import run_replay

MH = "millers-hollow"
SHERIFF_GAME = ["werewolf", "werewolf", "villager", "villager", "villager", "villager",
                "villager"]
# night 1 Dan dies; Cid is elected with 3 of 6 votes (one vote each in the election)
ELECT_CID = attack("Dan", "Ann", "Bob") + votes(
    "Ann>Bob", "Bob>Ann", "Cid>Eve", "Eve>Cid", "Fay>Cid", "Gus>Cid")
SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"


def tallies(events: list[dict]) -> list[dict]:
    return [e for e in events if e["e"] == "tally"]


def summed(tally: dict) -> dict[str, int]:
    """Each seat's votes as the ballots' weights and the extra votes add up."""
    got: dict[str, int] = {}
    for b in tally["ballots"]:
        if b["target"] is not None:
            got[str(b["target"])] = got.get(str(b["target"]), 0) + b["weight"]
    for x in tally["extra"]:
        got[str(x["target"])] = got.get(str(x["target"]), 0) + x["votes"]
    return got


def old_format(events: list[dict]) -> list[dict]:
    """The log as games stored before issue 15 have it: tallies without the two fields."""
    log = copy.deepcopy(events)
    for e in log:
        if e["e"] == "tally":
            del e["ballots"], e["extra"]
    return log


def test_the_sheriffs_ballot_weighs_two_in_the_execution_vote_one_in_the_election():
    """RULES.md §6 sheriff [000][003]: his vote counts two in every execution
    vote, one in the election; the tally's ballot says so, and the counts are
    the weights' sum (Cid 2 + Eve 1 on Ann: 3)."""
    script = ELECT_CID + votes("Cid>Ann", "Eve>Ann", "Ann>Eve", "Bob>Eve", "Fay>Bob", "Gus>Bob")
    out = play(MH, SHERIFF_GAME, script, {"tie": "none"})
    assert out["status"] == 0, out.get("error")
    election, vote = tallies(out["events"])
    assert election["step"] == "election"
    assert {b["weight"] for b in election["ballots"]} == {1}
    assert vote["step"] == "vote" and vote["extra"] == []
    assert vote["ballots"] == [  # seat order, every voter
        {"voter": S("Ann"), "target": S("Eve"), "weight": 1},
        {"voter": S("Bob"), "target": S("Eve"), "weight": 1},
        {"voter": S("Cid"), "target": S("Ann"), "weight": 2},
        {"voter": S("Eve"), "target": S("Ann"), "weight": 1},
        {"voter": S("Fay"), "target": S("Bob"), "weight": 1},
        {"voter": S("Gus"), "target": S("Bob"), "weight": 1},
    ]
    assert vote["counts"] == {str(S("Ann")): 3, str(S("Eve")): 2, str(S("Bob")): 2}
    assert summed(vote) == vote["counts"]


def test_the_rumormongers_two_votes_are_the_tallys_extra():
    """RULES.md §8 rumormonger [000] (scenario village-rumormonger-two-votes):
    Dan, posted last night, has Gus's ballot and the poster's two votes: his
    count of 3 is 1 ballot + 2 extra, from the source "poster"."""
    case = json.loads((SCENARIOS / "village-rumormonger-two-votes.json").read_text("utf-8"))
    out, status = run_replay(case["game"])
    assert status == 0, out.get("error")
    (tally,) = tallies(out["events"])
    dan = S("Dan")
    assert tally["extra"] == [{"source": "poster", "target": dan, "votes": 2}]
    assert tally["poster"] == dan  # the field the log had before issue 15 stays
    assert [b for b in tally["ballots"] if b["target"] == dan] == [
        {"voter": S("Gus"), "target": dan, "weight": 1}]
    assert tally["counts"][str(dan)] == 3
    assert summed(tally) == tally["counts"]


def test_views_and_announcements_carry_the_logged_ballots_and_extra():
    """CONTRACTS C1: `last_tally` (every audience) and the "tally"
    announcement carry the event's `ballots` and `extra` as logged."""
    case = json.loads((SCENARIOS / "village-rumormonger-two-votes.json").read_text("utf-8"))
    out, _ = run_replay(case["game"])
    state = rebuild(copy.deepcopy(out["events"]))
    (tally,) = tallies(out["events"])
    for view in (public_view(state), view_for(state, None), view_for(state, S("Dan"))):
        got = view["last_tally"]
        assert (got["ballots"], got["extra"]) == (tally["ballots"], tally["extra"])
        assert got["counts"] == tally["counts"] and got["votes"] == tally["votes"]
    (said,) = [x for x in announcements(state) if x["kind"] == "tally"]
    assert (said["ballots"], said["extra"]) == (tally["ballots"], tally["extra"])


def test_an_old_game_without_the_fields_gets_them_derived():
    """Old games replay unchanged [issue 15]: a log whose tallies have no
    `ballots`/`extra` (stored before) gives views and announcements with the
    same fields, derived from "votes", the sheriff then and "poster"."""
    sheriff = play(MH, SHERIFF_GAME, ELECT_CID + votes(
        "Cid>Ann", "Eve>Ann", "Ann>Eve", "Bob>Eve", "Fay>Bob", "Gus>Bob"), {"tie": "none"})
    case = json.loads((SCENARIOS / "village-rumormonger-two-votes.json").read_text("utf-8"))
    rumor, _ = run_replay(case["game"])
    for events in (sheriff["events"], rumor["events"]):
        new, old = rebuild(copy.deepcopy(events)), rebuild(old_format(events))
        assert "ballots" not in tallies(old.log)[-1]  # really the old shape
        assert public_view(old)["last_tally"] == public_view(new)["last_tally"]
        assert view_for(old, None)["last_tally"] == view_for(new, None)["last_tally"]
        assert announcements(old) == announcements(new)
    said = [x for x in announcements(rebuild(old_format(sheriff["events"])))
            if x["kind"] == "tally"]
    assert [b["weight"] for b in said[-1]["ballots"] if b["voter"] == S("Cid")] == [2]


def test_an_abstention_is_a_ballot_with_no_target():
    """CONTRACTS C1: target null = abstained; it weighs but counts for nobody
    (RULES.md §1 Timeouts: `abstain`, the default ballot names nobody)."""
    out = play(MH, SHERIFF_GAME, ELECT_CID + votes("Cid>Ann", "Eve>Ann", "Ann>Eve")
               + [a(None, "timeout")], {"tie": "none"})
    assert out["status"] == 0, out.get("error")
    tally = tallies(out["events"])[-1]
    assert [b["voter"] for b in tally["ballots"]] == sorted(
        S(n) for n in ("Ann", "Bob", "Cid", "Eve", "Fay", "Gus"))
    assert {b["voter"] for b in tally["ballots"] if b["target"] is None} == {
        S("Bob"), S("Fay"), S("Gus")}
    assert summed(tally) == tally["counts"]
