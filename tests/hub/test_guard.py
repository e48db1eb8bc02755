"""Only the hub's own pages can act [issue 17 item 3]: a state-changing
request (POST, PUT, DELETE; the GM's routes and the seats' alike) needs
`Content-Type: application/json` and an `Origin` that is the hub's own, or no
`Origin` at all (a script); anything else is 403 and changes nothing.

Source: issue 17 ("Only the GM's own pages can act for the GM": a page on
the same host at another port undid an action with a no-cors text/plain
fetch)."""

from __future__ import annotations

import json

import pytest
from slowness import wait_s

from .conftest import GM, mh8, serving

SEER = {"actor": "C", "do": "inspect", "target": "A"}
OWN = "http://localhost"  # the Flask test client's host
FOREIGN = ["http://localhost:8080", "http://evil.example", "null", "https://localhost"]


def _game(client) -> None:  # type: ignore[no-untyped-def]
    assert client.post("/api/games", json=mh8(), headers=GM).status_code == 201
    assert client.post("/api/actions", json=SEER, headers=GM).status_code == 200


def _state(client) -> dict:  # type: ignore[no-untyped-def]
    return client.get("/api/state", headers=GM).json  # type: ignore[no-any-return]


def _gm_cookie_client(app):  # type: ignore[no-untyped-def]
    """A tablet holding the GM's cookie (through the terminal's URL)."""
    tablet = app.test_client()
    tablet.get("/gm?token=" + app.config["GM_TOKEN"])
    return tablet


@pytest.mark.parametrize("origin", FOREIGN)
def test_a_foreign_origin_cannot_undo_with_the_gm_cookie(app, client, origin):
    """The attack of the issue: another origin (another port of the same host,
    another site, a sandboxed page's "null") posting with the GM's cookie."""
    _game(client)
    before = _state(client)
    tablet = _gm_cookie_client(app)
    expect = tablet.get("/api/gm").json["seq"]
    r = tablet.post("/api/undo", json={"expect": expect}, headers={"Origin": origin})
    assert r.status_code == 403 and "only the hub's own pages" in r.json["error"]
    assert _state(client) == before


@pytest.mark.parametrize("kind", ["text/plain", "application/x-www-form-urlencoded",
                                  "multipart/form-data; boundary=x", None])
def test_a_change_that_is_not_json_is_refused(app, client, kind):
    """A no-cors fetch can send text/plain, a form urlencoded or multipart:
    403 even from the hub's own origin, and nothing changes."""
    _game(client)
    before = _state(client)
    tablet = _gm_cookie_client(app)
    expect = tablet.get("/api/gm").json["seq"]
    headers = {"Origin": OWN, **({"Content-Type": kind} if kind else {})}
    r = tablet.post("/api/undo", data=json.dumps({"expect": expect}), headers=headers)
    assert r.status_code == 403 and "application/json" in r.json["error"]
    assert _state(client) == before


def test_the_hubs_own_page_and_a_script_are_let_through(app, client):
    """Same origin with JSON (the tablet's fetch), or no Origin with the
    bearer token (a script), acts as before."""
    _game(client)
    tablet = _gm_cookie_client(app)
    expect = tablet.get("/api/gm").json["seq"]
    own = {"Origin": OWN, "Sec-Fetch-Site": "same-origin"}
    r = tablet.post("/api/undo", json={"expect": expect}, headers=own)
    assert r.status_code == 200, r.json
    assert client.post("/api/actions", json=SEER, headers=GM).status_code == 200


def test_a_cross_site_fetch_is_refused_even_without_origin(app, client):
    """`Sec-Fetch-Site` other than same-origin (a browser's own word) is 403."""
    _game(client)
    before = _state(client)
    tablet = _gm_cookie_client(app)
    r = tablet.post("/api/timer", json={"do": "pause"}, headers={"Sec-Fetch-Site": "same-site"})
    assert r.status_code == 403
    assert _state(client) == before


@pytest.mark.parametrize("origin", FOREIGN)
def test_a_seats_phone_cannot_be_made_to_vote_by_another_origin(app, client, origin):
    """The seat routes are guarded too: the phone's device cookie rides on
    any request for this host."""
    _game(client)
    seats = client.get("/api/seats", headers=GM).json["seats"]
    phone = app.test_client()
    url = seats[2]["url"]
    assert phone.get(url).status_code == 200
    before = _state(client)
    r = phone.post(url + "/action", json={"do": "pass"}, headers={"Origin": origin})
    assert r.status_code == 403
    r = phone.post(url + "/suspect", data='{"target": "A"}', headers={"Content-Type": "text/plain"})
    assert r.status_code == 403
    assert _state(client) == before


@pytest.mark.parametrize(("method", "path"), [
    ("post", "/api/games"), ("post", "/api/seats/0/reissue"), ("post", "/api/seats/0/release"),
    ("post", "/api/setups"), ("delete", "/api/setups/x"), ("post", "/api/timer"),
    ("post", "/api/actions")])
def test_every_gm_change_is_guarded(app, client, method, path):
    """Every state-changing GM route, not only undo."""
    _game(client)
    before = _state(client)
    seats = client.get("/api/seats", headers=GM).json
    tablet = _gm_cookie_client(app)
    r = getattr(tablet, method)(path, data="{}", headers={"Content-Type": "text/plain"})
    assert r.status_code == 403
    r = getattr(tablet, method)(path, json={}, headers={"Origin": "http://localhost:9"})
    assert r.status_code == 403
    assert _state(client) == before
    assert client.get("/api/seats", headers=GM).json == seats


def test_reads_need_no_json(app, client):
    """GETs change nothing and stay as they were (a page load, a stream)."""
    _game(client)
    assert client.get("/api/gm", headers={**GM, "Origin": "http://evil.example"}).status_code \
        == 200


def test_the_issues_attack_over_real_http_changes_nothing(tmp_path):
    """The issue's own test, on a real server over loopback: a page of the
    same host at another port sends a no-cors text/plain undo with the GM's
    cookie (a paired tablet's): 403, nothing undone; the tablet's own JSON
    with its own Origin: 200."""
    import http.client

    from companion.hub import create_app
    from companion.store import Store
    from companion.table import Table

    table = Table(Store(tmp_path / "g.sqlite3"))
    app = create_app(table, "real-token")

    def send(method: str, path: str, body: str | None, headers: dict) -> tuple[int, dict]:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=wait_s(10))
        try:
            conn.request(method, path, body=body, headers=headers)
            r = conn.getresponse()
            raw = r.read()
            return r.status, (json.loads(raw) if raw.startswith(b"{") else {})
        finally:
            conn.close()

    with serving(table, app) as port:
        bearer = {"Authorization": "Bearer real-token", "Content-Type": "application/json"}
        assert send("POST", "/api/games", json.dumps(mh8()), bearer)[0] == 201
        assert send("POST", "/api/actions", json.dumps(SEER), bearer)[0] == 200
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=wait_s(10))
        conn.request("GET", "/gm?token=real-token")
        cookie = conn.getresponse().getheader("Set-Cookie", "").split(";")[0]
        conn.close()
        assert cookie.startswith("gm=") and "real-token" not in cookie
        seq = send("GET", "/api/gm", None, {"Cookie": cookie})[1]["seq"]
        attack = {"Cookie": cookie, "Content-Type": "text/plain",
                  "Origin": f"http://127.0.0.1:{port + 1}"}
        status, doc = send("POST", "/api/undo", json.dumps({"expect": seq}), attack)
        assert status == 403, doc
        assert send("GET", "/api/gm", None, {"Cookie": cookie})[1]["seq"] == seq
        own = {"Cookie": cookie, "Content-Type": "application/json",
               "Origin": f"http://127.0.0.1:{port}"}
        assert send("POST", "/api/undo", json.dumps({"expect": seq}), own)[0] == 200
    table.store.close()
