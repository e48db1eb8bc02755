"""The Village on the hub (RULES.md §8 [000], [issue 9]): the lobby offers it,
POST /api/games takes a deal of professions, day powers are used during the
discussion while ballots wait for the vote, the lord's pardon is a prompt
with its timer, and the public view never shows who owns which building or
the powers' states."""

from __future__ import annotations

import json

import pytest

from companion.engine import pending
from companion.table.session import NotNow

from .conftest import GM, mh8
from .test_pacing import drive_to_day

PROFS = ["farmer", "farmer", "lord", "tavern-keeper", "baker", "confessor", "barber", "drifter"]


def village8(seed: int = 3) -> dict:
    """mh8 with an explicit deal of professions (the replay format's `professions`)."""
    return {**mh8(seed), "professions": dict(zip("ABCDEFGH", PROFS))}


def test_the_lobby_offers_the_village(client) -> None:
    """[issue 9] The Village's cards (pyromaniac, rumormonger) and the
    `professions` option are offered by the lobby (RULES.md §8)."""
    out = client.get("/api/rulesets", headers=GM).get_json()
    assert any("pyromaniac" in r["roles"] and "rumormonger" in r["roles"] for r in out.values())
    assert any("professions" in r["options"] for r in out.values())


def test_post_games_takes_professions(client) -> None:
    """RULES.md §8 Decision: an explicit deal of professions, name → profession
    id as in the replay format; the GM view shows every building."""
    r = client.post("/api/games", json=village8(), headers=GM)
    assert r.status_code == 201, r.get_json()
    gm = client.get("/api/gm", headers=GM).get_json()
    assert gm["village"]["professions"] == PROFS
    bad = client.post("/api/games", json={**mh8(), "professions": {"A": "mayor"}}, headers=GM)
    assert bad.status_code == 400


def test_day_powers_during_the_discussion_ballots_held(table, clock) -> None:
    """RULES.md §8 Decision [000]: the day powers are used in the day's first
    vote before any ballot; the hub holds the discussion first, so the powers
    go through during the discussion while ballots are refused until it ends."""
    table.create(village8())
    drive_to_day(table, clock)
    assert table.pace.mode == "discussion"
    assert [c["do"] for c in table.seat_view(5)["actions"]] == ["confess"]
    assert [c["do"] for c in table.seat_view(6)["actions"]] == ["shave"]
    assert table.seat_view(0)["actions"] == []  # a farmer: nothing to do yet
    with pytest.raises(NotNow):
        table.act_seat(0, {"do": "vote", "target": "F"})
    table.act_seat(5, {"do": "confess", "target": "C"})
    mine = table.seat_view(5)
    assert {"kind": "confess", "target": 2, "result": "seer", "time": "day 1"} in mine["results"]
    assert mine["profession"] == {"id": "confessor", "dealt": "confessor",
                                  "building": "confessor", "power": "used"}
    assert not any(r.get("kind") == "confess" for r in table.seat_view(2)["results"])
    clock.advance(table.state.opts["discussion_s"] + 1)
    table.tick()
    assert table.pace.mode == "ballot"
    # the powers stay usable until the first ballot (the engine's window)
    assert "shave" in [c["do"] for c in table.seat_view(6)["actions"]]
    # the tavern keeper votes first, and her ballot is public before the others vote
    table.act_seat(3, {"do": "vote", "target": "F"})
    assert table.public()["vote"]["first"] == {"seat": 3, "target": 5}
    assert "shave" not in [c["do"] for c in table.seat_view(6)["actions"]]


def test_the_lords_pardon_is_a_prompt_with_its_timer(table, clock) -> None:
    """RULES.md §8 [000]: the lord may pardon an execution once; the hub gives
    his prompt the prompt's deadline, and the public step does not tell that a
    lord is deciding."""
    table.create(village8())
    drive_to_day(table, clock)
    clock.advance(table.state.opts["discussion_s"] + 1)
    table.tick()
    table.act_seat(3, {"do": "vote", "target": "F"})
    for s in range(8):
        if s != 3 and table.seat_view(s)["actions"]:
            table.act_seat(s, {"do": "vote", "target": "F" if s != 5 else "A"})
    assert pending(table.state)["step"] == "pardon"
    assert table.pace.mode == "prompt"
    assert table.pace.deadline == pytest.approx(clock.t + table.settings.prompt_s)
    assert [c["do"] for c in table.seat_view(2)["actions"]] == ["pardon", "pass"]
    assert table.gm_view()["village"]["condemned"] == 5
    assert table.public()["step"] == "day 1 execution"
    table.act_seat(2, {"do": "pardon"})
    assert table.state.alive[5]


def test_public_view_keeps_buildings_secret(table, clock) -> None:
    """RULES.md §8: who owns which standing building and the powers' states
    are secret; a seat's view shows only its own profession [issue 9]."""
    table.create(village8())
    drive_to_day(table, clock)
    table.act_seat(5, {"do": "confess", "target": "C"})
    pub = table.public()
    text = json.dumps(pub)
    assert "profession" not in {k for p in pub["players"] for k in p}
    assert set(pub["village"]) == {"burned", "poster", "silenced"}
    for word in ('"confessor"', '"tavern-keeper"', '"barber"', '"usable"', '"used"'):
        assert word not in text, word
    seat = table.seat_view(0)
    assert seat["profession"]["id"] == "farmer"
    assert '"confessor"' not in json.dumps(seat)


def test_the_barbers_shave_does_not_restart_the_discussion(table, clock) -> None:
    """RULES.md §8 [000]: the barber kills by day, and the engine opens the
    vote again; the hub's discussion goes on to its first end instead of
    starting over, and the vote's ballots still wait for it."""
    table.create(village8())
    drive_to_day(table, clock)
    end = table.pace.deadline
    clock.advance(100)
    table.tick()
    table.act_seat(6, {"do": "shave", "target": "A"})  # A is a werewolf: only he dies
    assert not table.state.alive[0] and table.state.alive[6]
    for _ in range(100):
        if table.pace.mode == "discussion":
            break
        clock.advance(1)
        table.tick()
    assert table.pace.mode == "discussion"
    assert table.pace.deadline == pytest.approx(end)
    with pytest.raises(NotNow):
        table.act_seat(1, {"do": "vote", "target": "F"})
