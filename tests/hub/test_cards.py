"""POST /api/games and saved setups take `cards` (the whole box as counts)
and the hub deals them from the seed (issue 15, contract C2); the record
of a game says the box it was dealt from (`setup.cards`), for "same again".

Sources: contract C2; docs/replay.md (the deal and the seed are the game's
setup, so a game replays from its log)."""

from __future__ import annotations

from collections import Counter

from companion.engine.dealing import deal_cards

from .conftest import GM

PLAYERS = list("ABCDEFGH")
CARDS = {"werewolf": 2, "seer": 1, "witch": 1, "thief": 1, "villager": 5}  # 8 + 2


def new(client, **fields):  # type: ignore[no-untyped-def]
    doc = {"ruleset": "millers-hollow", "players": PLAYERS, "cards": CARDS, **fields}
    return client.post("/api/games", json=doc, headers=GM)


def dealt(client, game: int) -> tuple[list[str], list[str]]:  # type: ignore[no-untyped-def]
    gm = client.get("/api/gm", headers=GM).json
    assert gm["game"] == game
    return [p["role"] for p in gm["players"]], gm["center"]


def test_a_seeded_box_is_dealt_as_deal_cards_deals_it(client):
    r = new(client, seed=11)
    assert r.status_code == 201, r.json
    deal, center = dealt(client, r.json["id"])
    assert (deal, center) == deal_cards(CARDS, 8, 11)
    assert "thief" not in center and "thief" in deal  # (before the thief's own swap)


def test_without_a_seed_the_hub_draws_one_and_keeps_it(client):
    r = new(client)
    assert r.status_code == 201
    record = client.get(f"/api/games/{r.json['id']}", headers=GM).json
    seed = record["setup"]["seed"]
    assert isinstance(seed, int)
    assert dealt(client, r.json["id"]) == deal_cards(CARDS, 8, seed)
    assert record["setup"]["cards"] == dict(sorted(CARDS.items()))


def test_same_again_sends_back_the_records_cards(client):
    """GET /api/games/<id> gains setup.cards (deal plus centre as counts), also
    for a game dealt the old way; sent back without a seed it deals anew."""
    players = PLAYERS
    old = {"ruleset": "millers-hollow", "players": players, "seed": 2, "center": ["seer", "witch"],
           "deal": dict(zip(players, ["thief", "werewolf", "werewolf", "villager", "villager",
                                      "villager", "villager", "villager"]))}
    game = client.post("/api/games", json=old, headers=GM).json["id"]
    record = client.get(f"/api/games/{game}", headers=GM).json
    assert record["setup"]["cards"] == dict(sorted(CARDS.items()))
    again = {k: v for k, v in record["setup"].items() if k not in ("deal", "center", "seed")}
    r = client.post("/api/games", json=again, headers=GM)
    assert r.status_code == 201, r.json
    deal, center = dealt(client, r.json["id"])
    assert Counter(deal) + Counter(center) == Counter(CARDS)


def test_counts_that_do_not_fit_are_a_clear_400(client):
    r = new(client, cards={**CARDS, "villager": 4})
    assert r.status_code == 400
    assert r.json["error"] == ("the box holds 9 cards: 8 players need 10 (one each and the "
                               "thief's 2 centre cards)")
    r = new(client, deal=dict(zip(PLAYERS, ["villager"] * 8)))
    assert r.status_code == 400 and "not both" in r.json["error"]
    r = new(client, cards={**CARDS, "thief": 0, "villager": 4})
    assert r.status_code == 201  # no thief: one card each, no centre
    r = new(client, cards={"villager": 7, "nope": 1})
    assert r.status_code == 400  # the engine's own word on a role it does not know


def test_a_saved_setup_may_hold_cards_and_is_checked_the_same_way(client):
    ok = {"ruleset": "millers-hollow", "players": PLAYERS, "cards": CARDS}
    r = client.post("/api/setups", json={"name": "box", "setup": ok}, headers=GM)
    assert r.status_code == 201
    assert r.json["setups"][0]["setup"] == ok  # kept as given: no seed drawn for it
    bad = {**ok, "cards": {**CARDS, "villager": 9}}
    r = client.post("/api/setups", json={"name": "bad", "setup": bad}, headers=GM)
    assert r.status_code == 400 and r.json["error"].startswith("the box holds 14 cards")
