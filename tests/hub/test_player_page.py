"""The phone page and the table screen over the Flask test client [issue 6]:
the DOM hooks of docs/pages.md in English and Japanese, the night's decoy
pick (`POST /p/<token>/suspect`) that changes nothing anyone else sees, pages
that load nothing from outside the Pi, and private headers on a seat's link."""

from __future__ import annotations

import json
import re

import pytest

from .conftest import GM, GM_TOKEN, jp9, mh8

PHONE_HOOKS = ("card", "role", "team", "power", "lang", "night-screen", "night-call", "results",
               "knows-held", "tonight", "deal-screen", "dead", "error", "confirm")
TABLE_HOOKS = ("phase", "timer", "line", "deaths", "tally", "sheriff", "winner", "reveal",
               "sound")


def new_game(client, setup: dict | None = None) -> dict:  # type: ignore[no-untyped-def]
    r = client.post("/api/games", json=setup or mh8(), headers=GM)
    assert r.status_code == 201, r.json
    return r.json  # type: ignore[no-any-return]


def phone(app, url: str):  # type: ignore[no-untyped-def]
    """A new device that opened `url` (and so claimed the seat)."""
    device = app.test_client()
    assert device.get(url).status_code == 200
    return device


def hooks(html: str) -> set[str]:
    return set(re.findall(r'data-test="([^"]+)"', html))


def i18n_of(html: str) -> dict:
    m = re.search(r'<script type="application/json" id="i18n">(.*?)</script>', html, re.S)
    assert m, "the page renders its strings for JavaScript"
    return json.loads(m.group(1))  # type: ignore[no-any-return]


def static(client, path: str) -> str:  # type: ignore[no-untyped-def]
    """A static file's text (the response closed: it holds the file open)."""
    with client.get(path) as r:
        assert r.status_code == 200, path
        return r.get_data(as_text=True)  # type: ignore[no-any-return]


def without_clock(view: dict) -> dict:
    return {k: v for k, v in view.items() if k != "now"}


# --- the phone page -------------------------------------------------------------


def test_phone_page_has_the_dom_hooks_in_english(app, client):
    """[issue 6] docs/pages.md's phone hooks, English text, strings for JS."""
    seat = new_game(client)["seats"][2]
    r = app.test_client().get(seat["url"], headers={"Accept-Language": "en"})
    assert r.status_code == 200
    html = r.get_data(as_text=True)
    assert set(PHONE_HOOKS) <= hooks(html)
    assert '<html lang="en">' in html
    strings = i18n_of(html)
    assert strings["Not taken: hold your card to see why."] == \
        "Not taken: hold your card to see why."
    names = json.loads(re.search(r'id="names">(.*?)</script>', html, re.S).group(1))
    assert names["roles"]["seer"] == "Seer" and names["teams"]["village"] == "Village"
    assert "/static/stream.js" in html and "/static/player.js" in html


def test_lang_query_sets_the_cookie_and_reloads_in_japanese(app, client):
    """[issue 6] `?lang=ja` keeps the player's choice in a cookie, then the page
    (and its strings for JS) come in Japanese."""
    seat = new_game(client)["seats"][0]
    device = app.test_client()
    r = device.get(seat["url"] + "?lang=ja")
    assert r.status_code == 302 and r.headers["Location"].endswith(seat["url"])
    assert "lang=ja" in r.headers["Set-Cookie"] or any(
        "lang=ja" in c for c in r.headers.getlist("Set-Cookie"))
    html = device.get(seat["url"]).get_data(as_text=True)
    assert '<html lang="ja">' in html
    assert '<option value="ja" selected>' in html
    assert set(PHONE_HOOKS) <= hooks(html)
    i18n_of(html)  # still valid JSON
    # the seat was claimed by that first visit: the same device gets its state
    assert device.get(seat["url"] + "/state").status_code == 200


def test_lang_cookie_picks_the_page_language(app, client):
    """[issue 6] the `lang` cookie wins over the browser's language."""
    seat = new_game(client)["seats"][1]
    device = app.test_client()
    device.set_cookie("lang", "ja")
    html = device.get(seat["url"], headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert '<html lang="ja">' in html


def test_an_unknown_language_sets_no_cookie(app, client):
    """[issue 6] `?lang=xx` reloads the page and keeps nothing."""
    seat = new_game(client)["seats"][1]
    r = app.test_client().get(seat["url"] + "?lang=xx")
    assert r.status_code == 302
    assert not any(c.startswith("lang=") for c in r.headers.getlist("Set-Cookie"))


def test_taken_seat_page_is_403_and_private(app, client):
    """[issue 6] a second phone sees the "already open" page."""
    seat = new_game(client)["seats"][0]
    phone(app, seat["url"])
    r = app.test_client().get(seat["url"])
    assert r.status_code == 403
    assert "already open on another phone" in r.get_data(as_text=True)
    assert r.headers["Cache-Control"] == "no-store"


# --- the decoy pick ---------------------------------------------------------------


def test_suspect_answers_ok_and_changes_nothing(app, client, table):
    """[issue 6] the decoy pick: 200 with the seat's unchanged view, like a
    real action; the GM's state, the table and every seat's view (its seq
    included) are exactly as before."""
    game = new_game(client, jp9())
    devices = [phone(app, s["url"]) for s in game["seats"]]

    def everything() -> list:
        views = [without_clock(d.get(s["url"] + "/state").json)
                 for d, s in zip(devices, game["seats"])]
        return [client.get("/api/state", headers=GM).json,
                without_clock(client.get("/api/gm", headers=GM).json),
                without_clock(client.get("/api/public").json), views,
                table.store.load(game["id"]).events]

    before = everything()
    for seat, device in zip(game["seats"], devices):
        r = device.post(seat["url"] + "/suspect", json={"target": "B"})
        assert r.status_code == 200 and r.json["seat"] == seat["seat"] and "actions" in r.json
        assert r.headers["Cache-Control"] == "no-store"
    assert everything() == before


def test_suspect_is_refused_for_another_device(app, client):
    """[issue 6] only the phone holding the seat may send its decoy pick."""
    seat = new_game(client)["seats"][3]
    phone(app, seat["url"])
    r = app.test_client().post(seat["url"] + "/suspect", json={"target": "A"})
    assert r.status_code == 403 and "error" in r.json


@pytest.mark.parametrize("doc", [{"target": "Nobody"}, {"target": 3}, {}, [],
                                 {"target": "A", "extra": 1}, {"target": "A", "seq": "1"}])
def test_suspect_refuses_a_malformed_pick(app, client, doc):
    """[issue 6] a name of this game, nothing else (400)."""
    seat = new_game(client)["seats"][0]
    device = phone(app, seat["url"])
    r = device.post(seat["url"] + "/suspect", json=doc)
    assert r.status_code == 400 and "error" in r.json


def test_suspect_takes_a_sign_and_refuses_a_stale_seq_as_an_action_would(app, client, table):
    """[issue 28] the night's one screen posts a tap that means nothing for
    the card here, as a real one goes to /action: a sign or Pass (no name)
    is taken; a `seq` of a view whose step has moved on is refused (409) as
    a real action's would be, so a late tap reads the same on every phone."""
    game = new_game(client, mh8())
    device = phone(app, game["seats"][5]["url"])
    url = game["seats"][5]["url"]
    seq = device.get(url + "/state").json["seq"]
    assert device.post(url + "/suspect", json={"target": None, "seq": seq}).status_code == 200
    table.act_gm({"actor": "C", "do": "inspect", "target": "A"})  # the seer's step ends
    r = device.post(url + "/suspect", json={"target": "A", "seq": seq})
    assert r.status_code == 409 and "moved on" in r.json["error"]


def test_suspect_on_an_unknown_link_is_404(client):
    """[issue 6]"""
    new_game(client)
    assert client.post("/p/not-a-seat/suspect", json={"target": "A"}).status_code == 404


# --- the table screen -------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_table_screen_has_the_dom_hooks(app, client, lang):
    """[issue 6] docs/pages.md's table hooks, in English and Japanese."""
    new_game(client)
    device = app.test_client()
    device.set_cookie("lang", lang)
    html = device.get("/table").get_data(as_text=True)
    assert set(TABLE_HOOKS) <= hooks(html)
    assert f'<html lang="{lang}">' in html
    i18n_of(html)
    assert "/api/public/stream" in static(client, "/static/table.js")


def test_lang_query_on_the_table_screen_and_the_gm_pages(app, client):
    """[issue 6] `?lang=` works on every page, not only a phone's (README
    *Languages*): in a Japanese game the table screen and the GM's tablet
    switch to English and back, and the GM's token survives the reload."""
    new_game(client, {**jp9(), "language": "ja"})
    screen = app.test_client()
    assert '<html lang="ja">' in screen.get("/table").get_data(as_text=True)  # the game's
    r = screen.get("/table?lang=en")
    assert r.status_code == 302 and r.headers["Location"].endswith("/table")
    assert any(c.startswith("lang=en") for c in r.headers.getlist("Set-Cookie"))
    html = screen.get("/table").get_data(as_text=True)
    assert '<html lang="en">' in html and set(TABLE_HOOKS) <= hooks(html)

    tablet = app.test_client()
    r = tablet.get(f"/gm?token={GM_TOKEN}&lang=en")
    assert r.status_code == 302 and r.headers["Location"].endswith(f"/gm?token={GM_TOKEN}")
    r = tablet.get(r.headers["Location"])  # the token's own reload sets the GM cookie
    assert r.status_code == 302 and r.headers["Location"].endswith("/gm")
    assert '<html lang="en">' in tablet.get("/gm").get_data(as_text=True)
    for page in ("/gm/table", "/gm/sheet"):
        assert tablet.get(f"{page}?lang=ja").status_code == 302
        assert '<html lang="ja">' in tablet.get(page).get_data(as_text=True)
    r = tablet.get("/gm/table?lang=xx")  # an unknown language keeps the choice made
    assert r.status_code == 302
    assert not any(c.startswith("lang=") for c in r.headers.getlist("Set-Cookie"))
    assert '<html lang="ja">' in tablet.get("/gm").get_data(as_text=True)


# --- nothing from outside the Pi ------------------------------------------------

EXTERNAL = re.compile(r"https?://|(?<![:/\w])//(?=[\w.-]+\.\w)|@import|url\(\s*['\"]?(?!/\w|data:)")


def assets(app, client) -> dict[str, str]:
    """The pages' HTML and every script and style sheet they load."""
    seat = new_game(client)["seats"][0]
    out = {"player": app.test_client().get(seat["url"]).get_data(as_text=True),
           "table": client.get("/table").get_data(as_text=True)}
    for html in list(out.values()):
        for ref in re.findall(r'(?:src|href)="([^"]+)"', html):
            assert ref.startswith("/") and not ref.startswith("//"), ref
            if ref == "/help":  # a link to the manual, not a load (tests/docs/test_help.py)
                continue
            out[ref] = static(client, ref)
    return out


def test_pages_load_nothing_from_outside(app, client):
    """[issue 6] offline at the table: no CDN, no web font, no absolute URL."""
    files = assets(app, client)
    assert {"/static/player.js", "/static/table.js", "/static/stream.js", "/static/hub.css",
            "/static/player.css", "/static/table.css"} <= set(files)
    for name, text in files.items():
        # a JS comment (`// ...`) is not a URL: only `//host.tld` counts
        found = EXTERNAL.findall(text)
        assert not found, (name, found)


def test_external_url_pattern_catches_what_it_should():
    """[issue 6] the check above is not vacuous."""
    for bad in ('src="https://cdn.example.com/x.js"', "fetch('//evil.example.org/x')",
                "@import 'x.css';", "url(https://fonts.example/x.woff2)"):
        assert EXTERNAL.search(bad), bad
    for fine in ("// a comment", 'fetch("/p/abc/state")', "url(/static/x.svg)", "a // b"):
        assert not EXTERNAL.search(fine), fine


# --- private headers --------------------------------------------------------------


def test_every_answer_of_a_seat_link_is_private(app, client):
    """[issue 6] no-store and no-referrer on the page, its state, its actions
    and its decoy pick (errors included)."""
    seat = new_game(client)["seats"][0]
    device = app.test_client()
    answers = [device.get(seat["url"]), device.get(seat["url"] + "?lang=ja"),
               device.get(seat["url"] + "/state"),
               device.post(seat["url"] + "/suspect", json={"target": "B"}),
               device.post(seat["url"] + "/action", json={"do": "vote", "target": "B"}),
               device.post(seat["url"] + "/suspect", json={"target": "?"})]
    for r in answers:
        assert r.headers["Cache-Control"] == "no-store", r.request.path
        assert r.headers["Referrer-Policy"] == "no-referrer", r.request.path
    html = answers[0].get_data(as_text=True)
    assert '<meta name="referrer" content="no-referrer">' in html
