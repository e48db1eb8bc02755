"""The API the game master's tablet needs beyond issue 5's, and the GM pages
([issue 6] "The game master's tablet"; docs/pages.md "API the pages need"):
rulesets, recommended deals, seat QR codes, saved setups, a kept game's view
after its first K actions, per-player statistics, `/gm` and `/gm/sheet`."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
import qrcode
import qrcode.image.svg

from companion.engine import ROLES, RULESETS, act, view_for
from companion.replay import parse_action, setup_game
from companion.words.announce import news_text

from .conftest import GM, jp9, mh8

ROOT = Path(__file__).resolve().parents[2]
BAD_GM = {"Authorization": "Bearer not-the-token"}

NEW_GM_ROUTES = [
    ("get", "/api/rulesets"),
    ("get", "/api/roles?ruleset=bga&players=9"),
    ("get", "/api/seats/0/qr.svg"),
    ("get", "/api/setups"),
    ("post", "/api/setups"),
    ("delete", "/api/setups/x"),
    ("get", "/api/games/1/view?at=0"),
    ("get", "/api/stats"),
    ("get", "/gm/sheet"),
]


def _scenario(name: str) -> dict:
    doc = json.loads((ROOT / "tests" / "scenarios" / name).read_text(encoding="utf-8"))
    return doc["game"]  # type: ignore[no-any-return]


def _example(name: str) -> dict:
    return json.loads((ROOT / "docs" / "examples" / name).read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def play(client, doc: dict) -> int:  # type: ignore[no-untyped-def]
    """Deal `doc`'s setup, send each of its actions as the GM; the game's id."""
    r = client.post("/api/games", json={k: v for k, v in doc.items() if k != "actions"},
                    headers=GM)
    assert r.status_code == 201, r.json
    for action in doc.get("actions", []):
        r = client.post("/api/actions", json=action, headers=GM)
        assert r.status_code == 200, (action, r.json)
    return int(r.json["game"] if "game" in r.json else r.json["id"])


# --- auth ---------------------------------------------------------------------------


@pytest.mark.parametrize(("method", "url"), NEW_GM_ROUTES)
def test_new_routes_are_for_the_game_master_only(client, method: str, url: str) -> None:
    """[issue 6] Every new route is GM-only: 401 without a token, 403 with a
    wrong one, and private (no-store) either way."""
    kwargs = {"json": {}} if method in ("post", "delete") else {}  # a change is JSON [issue 17]
    r = getattr(client, method)(url, **kwargs)
    assert r.status_code == 401
    r = getattr(client, method)(url, headers=BAD_GM, **kwargs)
    assert r.status_code in (401, 403)
    if url.startswith("/api"):
        assert r.status_code == 403 and "error" in r.json
        assert r.headers["Cache-Control"] == "no-store"


# --- rulesets and deals -------------------------------------------------------------


def test_rulesets_list_players_roles_copies_and_options(client) -> None:
    """[issue 6] GET /api/rulesets: `{id: {"players", "roles", "copies", "centre",
    "options": {name: {"default", "values"}}}}` for every ruleset, with
    The Village's roles and option where the ruleset has them (RULES.md §8, [issue 9])."""
    r = client.get("/api/rulesets", headers=GM)
    assert r.status_code == 200
    assert r.headers["Cache-Control"] == "no-store"
    doc = r.json
    assert set(doc) == set(RULESETS) == {"millers-hollow", "bga", "jp-standard"}
    mh, jp = doc["millers-hollow"], doc["jp-standard"]
    assert mh["players"] == [8, 18] and jp["players"] == [7, 15]
    assert "witch" in mh["roles"] and "pyromaniac" in mh["roles"]
    assert "rumormonger" in mh["roles"] and "fox" not in mh["roles"]
    assert mh["options"]["professions"] == {"default": False, "values": [True, False]}
    assert set(jp["roles"]) == {"villager", "werewolf", "seer", "madman", "medium", "knight",
                                "freemason", "fox"}
    assert jp["copies"]["freemason"] == 2 and jp["copies"]["villager"] is None
    assert mh["copies"]["seer"] == 1 and mh["copies"]["werewolf"] is None
    # the centre's cards beyond one per seat are the engine's deal (RULES.md §3
    # thief: two centre cards); the lobby counts from them [issue 15]
    assert mh["centre"] == doc["bga"]["centre"] == {"thief": 2} and jp["centre"] == {}
    for preset in doc.values():
        assert set(preset["copies"]) == set(preset["roles"])
        assert all(preset["copies"][r] == ROLES[r].copies for r in preset["roles"])
    assert mh["options"]["tie"] == {"default": "scapegoat-sheriff-none", "values": [
        "scapegoat-sheriff-none", "runoff-once", "none", "runoff-random", "runoff-draw"]}
    assert mh["options"]["sheriff"] == {"default": True, "values": [True, False]}
    assert mh["options"]["night_s"] == {"default": 20, "values": None}  # [issue 16]
    assert doc["bga"]["options"]["tie"]["default"] == "runoff-once"
    assert jp["options"]["sheriff"]["default"] is False


def test_rulesets_offer_only_the_options_that_apply(client) -> None:
    """[issue 28] "the lobby": a ruleset's lobby shows only the options that
    apply to it, decided from data (engine.rulesets.OPTION_CONCERNS): there
    is no witch in jp-standard (no self-heal to allow), its night is one
    window (no werewolves' call `pack_s`), and The Village's `professions`
    belong to Millers Hollow. The lobby renders /api/rulesets' "options"."""
    doc = client.get("/api/rulesets", headers=GM).json
    jp = doc["jp-standard"]["options"]
    assert not {"witch_self_heal", "pack_s", "professions"} & set(jp)
    assert set(jp) == set(RULESETS["jp-standard"]["options"]) - {
        "witch_self_heal", "pack_s", "professions", "idiot_dies_with_elder",  # no elder [004]
        "witch_single_potion", "announce_potions",  # no witch [004]
        "election"}  # no sheriff to elect [004] [issue 34]
    assert jp["night_s"] == {"default": 300, "values": None}  # its one window stays
    assert jp["ready_ends_night"] == {"default": True, "values": [True, False]}  # [004]
    for name in ("millers-hollow", "bga"):  # every option applies to them but the one
        # window's ready button (RULES.md §4 [004], jp-standard's night) [issue 34]
        assert set(doc[name]["options"]) == set(RULESETS[name]["options"]) - {
            "ready_ends_night"}


def test_an_option_that_does_not_apply_is_still_taken(client) -> None:
    """[issue 28] only the lobby's list changes: a game created through the
    API with an option that does not apply to its ruleset (jp-standard with
    the witch's self-heal and a werewolves' call) is accepted as before, and
    a saved setup holding one keeps it."""
    setup = {**jp9(), "options": {"witch_self_heal": True, "pack_s": 30, "professions": False}}
    r = client.post("/api/games", json=setup, headers=GM)
    assert r.status_code == 201, r.json
    assert client.get("/api/games/1", headers=GM).json["setup"]["options"] == setup["options"]
    r = client.post("/api/setups", json={"name": "jp", "setup": setup}, headers=GM)
    assert r.status_code == 201, r.json
    assert r.json["setups"][0]["setup"]["options"] == setup["options"]


def test_roles_gives_the_recommended_deal(client) -> None:
    """[issue 6] GET /api/roles is `werewolf roles`: the README's example."""
    r = client.get("/api/roles?ruleset=millers-hollow&players=12&add=witch&add=thief",
                   headers=GM)
    assert r.status_code == 200
    assert r.json == {"werewolf": 3, "seer": 1, "villager": 8, "witch": 1, "thief": 1}
    r = client.get("/api/roles?ruleset=jp-standard&players=9", headers=GM)
    assert r.json == {"werewolf": 2, "seer": 1, "medium": 1, "knight": 1, "madman": 1,
                      "villager": 3}


@pytest.mark.parametrize(("query", "message"), [
    ("ruleset=millers-hollow&players=7", "millers-hollow recommends deals for 8–18 players, not 7"),
    ("ruleset=jp-standard&players=16", "jp-standard recommends deals for 7–15 players, not 16"),
    ("ruleset=nope&players=9", "unknown ruleset 'nope'"),
    ("ruleset=bga&players=9&add=fox", "role 'fox' is not part of the bga ruleset"),
    ("ruleset=bga&players=9&add=seer", "a game has at most 1 seer card(s)"),
    ("ruleset=bga&players=nine", "'players' is a number of players"),
    ("ruleset=bga", "'players' is a number of players"),
    ("ruleset=bga&players=-3", "'players' is a number of players"),
    ("ruleset=bga&players=99999999999999999999", "'players' is a number of players"),
])
def test_roles_refuses_a_bad_count_with_the_engines_message(client, query: str,
                                                            message: str) -> None:
    """[issue 6] A count or a role the engine does not take: 400 with its message."""
    r = client.get(f"/api/roles?{query}", headers=GM)
    assert r.status_code == 400
    assert r.json["error"].startswith(message)


# --- QR codes -----------------------------------------------------------------------


def _qr(text: str) -> str:
    image = qrcode.make(text, border=2, image_factory=qrcode.image.svg.SvgPathImage)
    return image.to_string(encoding="unicode")  # type: ignore[no-any-return]


def test_seat_qr_encodes_the_hubs_lan_url(app, client) -> None:
    """[issue 6] GET /api/seats/<n>/qr.svg: an SVG QR code of BASE_URL + the
    seat's link (what a phone must open), no-store; it follows a reissue."""
    app.config["BASE_URL"] = "http://192.168.4.1:8000"
    seats = client.post("/api/games", json=mh8(), headers=GM).json["seats"]
    r = client.get("/api/seats/3/qr.svg", headers=GM)
    assert r.status_code == 200
    assert r.mimetype == "image/svg+xml"
    assert r.headers["Cache-Control"] == "no-store"
    svg = r.get_data(as_text=True)
    assert svg.startswith("<svg") and "<path" in svg
    assert svg == _qr("http://192.168.4.1:8000" + seats[3]["url"])
    new = client.post("/api/seats/3/reissue", json={}, headers=GM).json["seats"][3]["url"]
    assert client.get("/api/seats/3/qr.svg", headers=GM).get_data(as_text=True) == _qr(
        "http://192.168.4.1:8000" + new)


def test_seat_qr_without_base_url_uses_the_address_the_tablet_used(client) -> None:
    """[issue 6] Without BASE_URL (not started by `werewolf serve`), the
    request's own host."""
    seats = client.post("/api/games", json=mh8(), headers=GM).json["seats"]
    svg = client.get("/api/seats/0/qr.svg", headers=GM).get_data(as_text=True)
    assert svg == _qr("http://localhost" + seats[0]["url"])


def test_seat_qr_of_no_seat_is_404(client) -> None:
    """[issue 6] No game yet, or a seat past the last: 404."""
    assert client.get("/api/seats/0/qr.svg", headers=GM).status_code == 404
    client.post("/api/games", json=mh8(), headers=GM)
    assert client.get("/api/seats/8/qr.svg", headers=GM).status_code == 404
    assert client.get("/api/seats/7/qr.svg", headers=GM).status_code == 200


# --- saved setups -------------------------------------------------------------------


def test_setups_save_list_replace_delete(client) -> None:
    """[issue 6] POST /api/setups saves a POST /api/games body under a name
    (201, the list); the same name replaces it; DELETE forgets it; a saved
    setup deals a game as it is."""
    assert client.get("/api/setups", headers=GM).json == {"setups": []}
    friday = {**mh8(), "language": "ja", "options": {"sheriff": False}}
    r = client.post("/api/setups", json={"name": "Friday group", "setup": friday}, headers=GM)
    assert r.status_code == 201
    assert [(s["name"], s["setup"]) for s in r.json["setups"]] == [("Friday group", friday)]
    client.post("/api/setups", json={"name": "Japan", "setup": jp9()}, headers=GM)
    client.post("/api/setups", json={"name": "Friday group", "setup": mh8(seed=9)}, headers=GM)
    got = client.get("/api/setups", headers=GM).json["setups"]
    assert sorted(s["name"] for s in got) == ["Friday group", "Japan"]
    assert next(s for s in got if s["name"] == "Friday group")["setup"] == mh8(seed=9)
    assert got[0]["name"] == "Friday group"  # most recently saved first
    r = client.post("/api/games", json=got[1]["setup"], headers=GM)
    assert r.status_code == 201
    r = client.delete("/api/setups/Japan", json={}, headers=GM)
    assert r.status_code == 200 and [s["name"] for s in r.json["setups"]] == ["Friday group"]
    r = client.delete("/api/setups/Japan", json={}, headers=GM)
    assert r.status_code == 404 and "error" in r.json


def test_setup_with_slash_and_unicode_name(client) -> None:
    """[issue 6] Any name of 1–60 characters, the URL's path included."""
    name = "金曜日/Friday"
    r = client.post("/api/setups", json={"name": name, "setup": jp9()}, headers=GM)
    assert r.status_code == 201
    assert client.delete("/api/setups/金曜日/Friday", json={}, headers=GM).status_code == 200


@pytest.mark.parametrize(("doc", "message"), [
    ({"name": "", "setup": {}}, "a setup's name is 1–60 characters"),
    ({"name": "   ", "setup": mh8()}, "a setup's name is 1–60 characters"),
    ({"name": "x" * 61, "setup": mh8()}, "a setup's name is 1–60 characters"),
    ({"name": 5, "setup": mh8()}, "a setup's name is 1–60 characters"),
    ({"name": "a"}, 'send {"name"'),
    ({"name": "a", "setup": mh8(), "x": 1}, 'send {"name"'),
    ([1], 'send {"name"'),
    ({"name": "a", "setup": [1]}, "'setup' is the POST /api/games body"),
    ({"name": "a", "setup": {**mh8(), "actions": []}}, "unknown setup field(s): actions"),
    ({"name": "a", "setup": {**mh8(), "language": "fr"}}, "'language' is one of"),
    ({"name": "a", "setup": {**mh8(), "ruleset": "nope"}}, "unknown ruleset 'nope'"),
    ({"name": "a", "setup": {"ruleset": "bga", "players": ["A", "B", "C", "D", "E"]}},
     "bga recommends deals for 8–18 players, not 5"),
])
def test_setup_refused_saves_nothing(client, doc: object, message: str) -> None:
    """[issue 6] A bad name (empty, over 60 characters, not a string) or a
    setup that POST /api/games would refuse: 400, nothing saved."""
    r = client.post("/api/setups", json=doc, headers=GM)
    assert r.status_code == 400
    assert r.json["error"].startswith(message), r.json
    assert client.get("/api/setups", headers=GM).json == {"setups": []}


def test_a_60_character_name_is_fine(client) -> None:
    """[issue 6] 60 characters is the limit, not past it."""
    r = client.post("/api/setups", json={"name": "x" * 60, "setup": mh8()}, headers=GM)
    assert r.status_code == 201


# --- a kept game, step by step ------------------------------------------------------


def _engine_view_after(doc: dict, k: int) -> dict:
    state = setup_game({key: v for key, v in doc.items() if key != "actions"})
    for raw in doc["actions"][:k]:
        act(state, parse_action(state, raw))
    return view_for(state, None)


def test_game_view_at_each_action_is_the_engines_gm_view(client) -> None:
    """[issue 6] GET /api/games/<id>/view?at=K is the engine's GM view after
    the game's first K actions, for every K; `action` is the K-th action;
    `news` each announcement's line in the page's language [issue 45]."""
    doc = _example("millers-hollow-hunter-and-lovers.json")
    game = play(client, doc)
    client.post("/api/games", json=mh8(), headers=GM)  # a newer game: the old one stays readable
    total = len(doc["actions"])
    for k in range(total + 1):
        r = client.get(f"/api/games/{game}/view?at={k}", headers=GM)
        assert r.status_code == 200
        view = r.json
        assert view.pop("at") == k and view.pop("total") == total and view.pop("game") == game
        action = view.pop("action")
        view.pop("created")
        log = view.pop("log")
        assert log[0]["e"] == "setup" and all(e["a"] <= k for e in log)
        said = view.pop("announcements")
        assert isinstance(said, list)
        # each announcement's line for the GM's tablet, in words [issue 45]
        names = [p["name"] for p in view["players"]]
        assert view.pop("news") == [news_text(a, names, "en") for a in said]
        assert view == _engine_view_after(doc, k)
        if k == 0:
            assert action is None
        else:
            assert action["e"] == "act" and action["a"] == k
            assert action["do"] == doc["actions"][k - 1]["do"]
    last = client.get(f"/api/games/{game}/view", headers=GM).json
    assert last["at"] == total and last["winner"] == "village" and last["step"] == "over"


@pytest.mark.parametrize("at", ["-1", "abc", "1.5", "", "99", "9999999999999999999999"])
def test_game_view_refuses_a_bad_k(client, at: str) -> None:
    """[issue 6] K not an action number of that game: 400."""
    play(client, {**mh8(), "actions": [{"actor": "C", "do": "inspect", "target": "A"}]})
    r = client.get(f"/api/games/1/view?at={at}", headers=GM)
    assert r.status_code == 400
    assert r.json == {"error": "'at' is an action number 0–1"}


def test_game_view_of_no_game_is_404(client) -> None:
    """[issue 6] An unknown game: 404."""
    assert client.get("/api/games/1/view?at=0", headers=GM).status_code == 404
    client.post("/api/games", json=mh8(), headers=GM)
    assert client.get("/api/games/2/view", headers=GM).status_code == 404
    assert client.get(f"/api/games/{2**64}/view", headers=GM).status_code == 404


# --- statistics ---------------------------------------------------------------------


def test_stats_count_finished_games_per_player(client) -> None:
    """[issue 6] GET /api/stats, per name across finished games: played, won,
    per role and per side [played, won]. The thief counts as the card he
    took; a mixed pair of lovers is the side "lovers"; a running game counts
    for nothing."""
    assert client.get("/api/stats", headers=GM).json == {}
    # 1. village wins: Ann and Bob (wolves) lose; the cupid, hunter... win
    play(client, _example("millers-hollow-hunter-and-lovers.json"))
    # 2. mixed lovers (Ann, a wolf, and Cid) win alone
    play(client, _scenario("mh-lovers-mixed-win.json"))
    # 3. Ann the thief takes a werewolf card, and the village wins
    thief = _scenario("mh-thief-plays-new-role.json")
    thief["actions"] += [{"actor": "Bob", "do": "attack", "target": "Dan"},
                         {"actor": "Eve", "do": "vote", "target": "Bob"},
                         {"actor": "Fay", "do": "vote", "target": "Bob"},
                         {"actor": "Bob", "do": "vote", "target": "Eve"}]
    play(client, thief)
    # 4. a game still running: not counted
    play(client, {**mh8(), "players": ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus", "Zed"],
                  "deal": dict(zip(["Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus", "Zed"],
                                   mh8()["deal"].values()))})
    stats = client.get("/api/stats", headers=GM).json
    assert "Zed" not in stats
    assert stats["Ann"] == {"played": 3, "won": 1,
                            "roles": {"werewolf": [3, 1]},
                            "sides": {"werewolves": [2, 0], "lovers": [1, 1]}}
    assert stats["Cid"] == {"played": 3, "won": 3,
                            "roles": {"seer": [1, 1], "villager": [2, 2]},
                            "sides": {"village": [2, 2], "lovers": [1, 1]}}
    assert stats["Bob"] == {"played": 3, "won": 0,
                            "roles": {"werewolf": [2, 0], "cupid": [1, 0]},
                            "sides": {"werewolves": [2, 0], "village": [1, 0]}}
    assert stats["Hal"] == {"played": 1, "won": 1, "roles": {"villager": [1, 1]},
                            "sides": {"village": [1, 1]}}
    assert stats["Eve"] == {"played": 3, "won": 2,  # lost to the lovers in game 2
                            "roles": {"hunter": [1, 1], "villager": [2, 1]},
                            "sides": {"village": [3, 2]}}


def test_stats_follow_an_undo_of_the_winning_action(client) -> None:
    """[issue 6] A game taken back from its end is running again: not counted."""
    play(client, _example("millers-hollow-hunter-and-lovers.json"))
    assert client.get("/api/stats", headers=GM).json["Ann"]["played"] == 1
    expect = client.get("/api/gm", headers=GM).json["seq"]  # [issue 17]
    assert client.post("/api/undo", json={"expect": expect}, headers=GM).status_code == 200
    assert client.get("/api/stats", headers=GM).json == {}


# --- the pages ----------------------------------------------------------------------


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tests: set[str] = set()
        self.urls: list[str] = []
        self.scripts: dict[str, str] = {}
        self._script: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if a.get("data-test"):
            self.tests.add(str(a["data-test"]))
        for key in ("src", "href", "action"):
            if a.get(key):
                self.urls.append(str(a[key]))
        if tag == "script" and a.get("id"):
            self._script = str(a["id"])
            self.scripts[self._script] = ""

    def handle_data(self, data: str) -> None:
        if self._script:
            self.scripts[self._script] += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._script = None


def _page(client, url: str) -> tuple[_Tags, str]:  # type: ignore[no-untyped-def]
    client.set_cookie("gm", "gm-test-token")
    r = client.get(url)
    assert r.status_code == 200
    assert r.headers["Cache-Control"] == "no-store"
    html = r.get_data(as_text=True)
    tags = _Tags()
    tags.feed(html)
    return tags, html


def test_gm_page_has_the_contracts_views_and_static_parts(client) -> None:
    """[issue 6] /gm holds the four views and the fixed data-test hooks of
    docs/pages.md; JS strings come from the template as JSON; nothing is
    loaded from another host."""
    tags, html = _page(client, "/gm")
    fixed = {"lobby", "names", "ruleset", "language", "deal-total", "seed", "create",
             "setup-name", "save-setup", "setups", "same-again",
             "dealing", "seat-qr", "pass-to", "next-seat", "sheet", "start",
             "running", "line", "waiting", "timer", "pause", "resume", "extend", "skip",
             "act-seat", "gm-act", "tally", "announcements", "undo", "rewind",
             "confirm-undo", "log", "secrets", "reveal", "winner",
             "history", "step-back", "step-forward", "stats"}
    assert fixed <= tags.tests, fixed - tags.tests
    assert all(not re.match(r"^(https?:)?//", u) for u in tags.urls), tags.urls
    strings = json.loads(tags.scripts["i18n"])
    assert isinstance(strings, dict) and strings
    assert all(isinstance(k, str) and isinstance(v, str) for k, v in strings.items())
    names = json.loads(tags.scripts["words"])
    assert set(names["roles"]) >= set(ROLES)
    assert set(names["options"]) >= set(RULESETS["millers-hollow"]["options"])


@pytest.mark.parametrize("lang", ["en", "ja", "zh_Hant"])
def test_the_lobby_draws_every_declared_option_with_its_words(client, lang: str) -> None:
    """[issue 45] gm.html's lobby takes its options from their declaration
    (companion/options): every declared option is in `option_order`, in the
    declaration's order (`ghosts` too), with the declaration's label and
    help in the page's language; every option /api/rulesets offers has
    words, and each value of a choice its own."""
    from companion import words
    from companion.options import OPTIONS

    client.set_cookie("lang", lang)
    tags, _html = _page(client, "/gm")
    names = json.loads(tags.scripts["words"])
    assert names["option_order"] == [o.name for o in OPTIONS]
    for option in OPTIONS:
        assert names["options"][option.name] == [words.option_label(option.name, lang),
                                                 words.option_help(option.name, lang)]
        for c in option.choices:
            assert names["values"][c.id] == words.option_value(option.name, c.id, lang)
    offered = client.get("/api/rulesets").json
    for preset in offered.values():
        assert set(preset["options"]) <= set(names["option_order"])


def test_gm_sheet_prints_every_seat(client) -> None:
    """[issue 6] /gm/sheet: every seat's name with its QR code image and link."""
    tags, html = _page(client, "/gm/sheet")  # no game yet: an empty sheet
    seats = client.post("/api/games", json=jp9(), headers=GM).json["seats"]
    tags, html = _page(client, "/gm/sheet")
    for seat in seats:
        assert f"/api/seats/{seat['seat']}/qr.svg" in tags.urls
        assert seat["name"] in html and seat["url"] in html
    assert "@media print" in html or any(u.endswith(".css") for u in tags.urls)


def test_gm_pages_need_the_gm(client) -> None:
    """[issue 6] Without the GM cookie, /gm and /gm/sheet show no seat links."""
    client.post("/api/games", json=jp9(), headers=GM)
    r = client.get("/gm/sheet")
    assert r.status_code == 401 and "/p/" not in r.get_data(as_text=True)
    assert client.get("/gm").status_code == 401

