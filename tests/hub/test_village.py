"""The Village on the hub (RULES.md §8 [000], [issue 9]): the lobby offers it,
POST /api/games takes a deal of professions, day powers are used during the
discussion while ballots wait for the vote, the lord's pardon is a prompt
with its timer, and the public view never shows who owns which building or
the powers' states."""

from __future__ import annotations

import json

import pytest
from table.test_pacing import drive_to_day

from companion.engine import pending
from companion.table import NotNow

from .conftest import GM, mh8

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
    """RULES.md §8 Decision [000]: the day powers are used during the day's
    discussion, before the first ballot; the hub holds the discussion first,
    so the powers go through during the discussion while ballots are refused
    until it ends — and once it ends, so are the powers [issue 40]."""
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
    # the discussion was their window: the ballot is the same on every phone, with
    # no power's box that only its holder has, and the table refuses one [issue 40]
    assert "shave" not in [c["do"] for c in table.seat_view(6)["actions"]]
    with pytest.raises(NotNow, match="discussion"):
        table.act_seat(6, {"do": "shave", "target": "A"})
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
    assert set(pub["village"]) == {"professions", "burned", "poster", "silenced"}
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


PYRO_DEAL = ["werewolf", "werewolf", "seer", "witch", "pyromaniac", "villager", "villager",
             "villager"]
PYRO_PROFS = ["farmer", "farmer", "schoolteacher", "baker", "drifter", "confessor", "barber",
              "steward"]


def test_a_village_game_through_the_http_api(app, client, table, clock) -> None:
    """RULES.md §8 [000] [issue 9], over HTTP: the pyromaniac's phone burns a
    farm when his step is called; at dawn GET /api/public shows the burned
    building (a fire is seen by all) and no owner of a standing building;
    in the discussion the confessor's phone confesses (200) while a ballot is
    409; the seat's state carries its own profession only."""
    doc = {**mh8(), "deal": dict(zip("ABCDEFGH", PYRO_DEAL)),
           "professions": dict(zip("ABCDEFGH", PYRO_PROFS))}
    r = client.post("/api/games", json=doc, headers=GM)
    assert r.status_code == 201, r.get_json()
    seats = r.get_json()["seats"]
    pyro_url, conf_url, farm_url = seats[4]["url"], seats[5]["url"], seats[1]["url"]
    pyro, conf, farmer = (app.test_client() for _ in range(3))
    for device, url in ((pyro, pyro_url), (conf, conf_url), (farmer, farm_url)):
        device.get(url)
    for _ in range(400):
        pc = table.pace
        if pc.mode == "calls" and pc.calls[pc.cursor] == "pyromaniac" and pc.live:
            break
        clock.advance(0.5)
        table.tick()
    mine = pyro.get(pyro_url + "/state").get_json()
    assert [c["do"] for c in mine["actions"]] == ["burn", "pass"]
    assert mine["profession"] == {"id": "drifter", "dealt": "drifter", "building": None,
                                  "power": None}
    r = pyro.post(pyro_url + "/action", json={"do": "burn", "target": "A"})
    assert r.status_code == 200, r.get_json()
    drive_to_day(table, clock)
    pub = client.get("/api/public").get_json()
    assert pub["village"]["burned"] == [{"seat": 0, "building": "farmer"}]
    assert '"confessor"' not in json.dumps(pub)
    assert table.pace.mode == "discussion"
    assert farmer.post(farm_url + "/action", json={"do": "vote", "target": "C"}).status_code == 409
    r = conf.post(conf_url + "/action", json={"do": "confess", "target": "C"})
    assert r.status_code == 200, r.get_json()
    assert r.get_json()["results"][-1]["kind"] == "confess"
    seen = farmer.get(farm_url + "/state").get_json()
    assert seen["profession"]["id"] == "farmer"
    assert '"confessor"' not in json.dumps(seen) and "results" in seen
    assert not any(x["kind"] == "confess" for x in seen["results"])


def test_page_names_follow_the_engines_professions() -> None:
    """RULES.md §8 [000]: one source of truth for the professions' Japanese
    names and buildings (companion/engine/professions.py, from [000]); the
    pages' catalogs give the same words; in Chinese the same words in
    traditional characters [issue 9]."""
    from companion.engine.professions import PROFESSIONS
    from companion.words import building_names, translations

    ja = translations("ja")
    zh = translations("zh_Hant")
    en_to_zh = {"Drifter": "流浪者", "Steward": "管家", "Farmer": "農夫",
                "Schoolteacher": "女教師", "Baker": "麵包師", "Tavern keeper": "酒館老闆",
                "Confessor": "告解神父", "Barber": "理髮師", "Lord": "領主",
                "Bonesetter": "無照接骨醫"}
    # [issue 15] the names live in the words only (their seeds' words:
    # tests/words/test_names.py); the catalogs translate the table's msgids
    from companion.words import names_for

    table = {lang: names_for(lang) for lang in ("en", "ja")}
    for p in PROFESSIONS.values():
        en = table["en"]["professions"][p.id]
        assert ja.gettext(en) == table["ja"]["professions"][p.id], p.id
        assert zh.gettext(en) == en_to_zh[en], p.id
        if p.building:
            assert building_names("en")[p.id] == table["en"]["buildings"][p.id]
            assert building_names("ja")[p.id] == table["ja"]["buildings"][p.id], p.id


@pytest.mark.parametrize("lang", ["en", "ja", "zh_Hant"])
def test_moderator_lines_for_the_village(lang: str) -> None:
    """RULES.md §8, §9 [000][002][003]: the moderator's lines for the new
    calls, fires, posters, silences, pardons and the lord's prompt, in every
    language (a missing translation would read as the English msgid)."""
    from companion import words as script

    names = ["Ann", "Bob", "Cid"]
    players = [{"seat": i, "name": n, "alive": True} for i, n in enumerate(names)]
    base = {"players": players, "options": {"professions": True}, "ruleset": "millers-hollow",
            "n": 1, "phase": "night"}
    call = script.gm_line({**base, "pace": {"mode": "calls", "night": 1, "call": "pyromaniac",
                                             "cursor": 1}}, lang, [])
    dawn = script.announcement_text({"kind": "dawn", "n": 1, "deaths": [],
                                     "burned": [{"seat": 0, "name": "Ann",
                                                 "building": "farmer"}],
                                     "poster": 1}, names, lang)
    silence = script.announcement_text({"kind": "silence", "seat": 2, "targets": [0, 1]},
                                       names, lang)
    pardon = script.announcement_text({"kind": "pardon", "seat": 2, "condemned": 1}, names, lang)
    prompt = script.gm_line({**base, "phase": "day", "pace": {"mode": "prompt"},
                             "pending": {"step": "pardon", "actor": 2, "kind": "prompt"},
                             "village": {"condemned": 1}}, lang, [])
    farm = script.building_names(lang)["farmer"]
    assert "Ann" in dawn and farm in dawn and "Bob" in dawn
    assert "Ann" in silence and "Bob" in silence and "Bob" in pardon and "Bob" in prompt
    if lang != "en":
        for line in (call, dawn, silence, pardon, prompt):
            assert not any(w in line for w in ("wake up", "burned down", "silences",
                                               "pardons", "condemned")), line


def test_an_extended_discussion_keeps_its_end_after_a_shave(table, clock) -> None:
    """[issue 5] the GM's timer controls, with RULES.md §8's barber: a
    discussion the GM extended keeps its new end when the shave reopens the
    vote."""
    table.create(village8())
    drive_to_day(table, clock)
    table.timer("extend", 60)
    end = table.pace.deadline
    table.act_seat(6, {"do": "shave", "target": "A"})
    for _ in range(100):
        if table.pace.mode == "discussion":
            break
        clock.advance(1)
        table.tick()
    assert table.pace.deadline == pytest.approx(end)


def test_saved_setups_keep_the_village(client) -> None:
    """[issue 9] (RULES.md §8): a saved setup keeps The Village's cards, its
    `professions` option or an explicit deal of professions, and deals them."""
    players = list("ABCDEFGH")
    dealt = {**mh8(), "deal": dict(zip(players, PYRO_DEAL)),
             "options": {"professions": True, "sheriff": False}}
    explicit = village8()
    for name, setup in (("dealt", dealt), ("explicit", explicit)):
        r = client.post("/api/setups", json={"name": name, "setup": setup}, headers=GM)
        assert r.status_code == 201, r.get_json()
    got = {s["name"]: s["setup"] for s in client.get("/api/setups", headers=GM).json["setups"]}
    assert got == {"dealt": dealt, "explicit": explicit}
    assert client.post("/api/games", json=got["dealt"], headers=GM).status_code == 201
    village = client.get("/api/gm", headers=GM).get_json()["village"]
    assert len(set(village["professions"])) == 8  # 9 buildings for 8: no drifter, no repeat
    assert client.post("/api/games", json=got["explicit"], headers=GM).status_code == 201
    assert client.get("/api/gm", headers=GM).get_json()["village"]["professions"] == PROFS
