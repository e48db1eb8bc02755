"""The GM's seat is paired, not printed [issue 17 item 2]: what the display
shows is a pairing link good for 10 minutes and one tablet, never the token;
the token (the terminal's) pairs a tablet too and keeps working for scripts;
a second tablet is paired from the first; rotating the token ends every
other session and link.

Source: issue 17 ("the lobby QR decodes to /gm?token=…, the same after a
restart. One photo of the display gives GM access, every card included")."""

from __future__ import annotations

import stat

from companion.firmware.device import Display
from companion.firmware.display import render_boot

from companion.hub import create_app
from companion.hub.pairing import MAX_SESSIONS, PAIR_S, GmSeat

from .conftest import GM, GM_TOKEN, FakeClock, mh8


def _app(table, clock: FakeClock, folder=None):  # type: ignore[no-untyped-def]
    seat = GmSeat(GM_TOKEN, folder=folder, clock=clock)
    return create_app(table, seat, {"TESTING": True}), seat


def _cookie(client) -> str | None:  # type: ignore[no-untyped-def]
    got = client.get_cookie("gm")
    return got.value if got is not None else None


def test_the_display_shows_a_pairing_link_that_pairs_one_tablet_once(table, clock):
    app, seat = _app(table, clock)
    code = seat.display_code()
    assert code is not None and GM_TOKEN not in code
    first = app.test_client()
    r = first.get(f"/gm/pair/{code}")
    assert r.status_code in (302, 303) and r.headers["Location"].endswith("/gm")
    assert _cookie(first) not in (None, GM_TOKEN)  # a session of its own, not the token
    assert first.post("/api/games", json=mh8()).status_code == 201
    second = app.test_client()  # the same photo, a second time
    r = second.get(f"/gm/pair/{code}")
    assert r.status_code == 403 and _cookie(second) is None
    assert second.get("/api/gm").status_code == 401
    assert seat.display_code() is None  # paired: the display shows no more links


def test_a_pairing_link_expires_after_ten_minutes(table, clock):
    app, seat = _app(table, clock)
    code = seat.display_code()
    clock.advance(PAIR_S + 1)
    assert app.test_client().get(f"/gm/pair/{code}").status_code == 403
    assert seat.display_code() not in (None, code)  # the display shows a fresh one


def test_the_displays_frame_holds_the_pairing_link_never_the_token(table, clock):
    app, seat = _app(table, clock)
    base = "http://192.168.4.1:8000"
    display = Display(url=lambda: (f"{base}/gm/pair/{c}" if (c := seat.display_code()) else None))
    lobby = {"phase": "lobby", "players": []}
    frame = display.frame(lobby).tobytes()
    assert frame == render_boot(f"{base}/gm/pair/{seat.display_code()}").tobytes()
    assert frame != render_boot(f"{base}/gm?token={GM_TOKEN}").tobytes()
    app.test_client().get(f"/gm/pair/{seat.display_code()}")
    assert display.frame(lobby).tobytes() != frame  # paired: the code is gone


def test_a_second_tablet_is_paired_from_the_first(table, clock):
    app, seat = _app(table, clock)
    first = app.test_client()
    first.get(f"/gm/pair/{seat.display_code()}")
    doc = first.post("/api/gm/pair", json={}).json
    assert doc["url"].startswith("http://localhost/gm/pair/") and "<svg" in doc["svg"]
    assert doc["seconds"] == PAIR_S
    second = app.test_client()
    assert second.get(doc["url"].removeprefix("http://localhost")).status_code in (302, 303)
    assert second.get("/api/gm").status_code in (200, 404)  # paired (404: no game yet)
    assert app.test_client().post("/api/gm/pair", json={}).status_code == 401  # not for anyone


def test_the_terminals_token_pairs_a_tablet_and_serves_scripts(table, clock):
    app, _ = _app(table, clock)
    tablet = app.test_client()
    tablet.get(f"/gm?token={GM_TOKEN}")
    assert _cookie(tablet) not in (None, GM_TOKEN)
    assert tablet.post("/api/games", json=mh8()).status_code == 201
    assert app.test_client().get("/api/gm", headers=GM).status_code == 200


def test_rotating_the_token_ends_every_other_session(table, clock, tmp_path):
    app, seat = _app(table, clock, folder=tmp_path)
    said: list[str] = []
    seat.on_rotate = said.append
    first, second = app.test_client(), app.test_client()
    first.get(f"/gm?token={GM_TOKEN}")
    second.get(f"/gm/pair/{first.post('/api/gm/pair', json={}).json['url'].split('/')[-1]}")
    assert second.post("/api/games", json=mh8()).status_code == 201
    waiting = first.post("/api/gm/pair", json={}).json["url"].split("/")[-1]
    assert first.post("/api/gm/rotate", json={}).json == {"rotated": True}
    assert first.get("/api/gm").status_code == 200  # the rotating tablet stays
    assert second.get("/api/gm").status_code == 403  # every other one is unpaired
    assert app.test_client().get(f"/gm/pair/{waiting}").status_code == 403  # links end
    assert app.test_client().get("/api/gm", headers=GM).status_code == 403  # the old token
    new = (tmp_path / "gm-token").read_text().strip()
    assert new != GM_TOKEN and said == [new]
    assert stat.S_IMODE((tmp_path / "gm-token").stat().st_mode) == 0o600
    bearer = {"Authorization": f"Bearer {new}"}
    assert app.test_client().get("/api/gm", headers=bearer).status_code == 200


def test_the_rotating_tablet_keeps_its_own_session(table, clock, tmp_path):
    """[issue 17 item 2] the rotating tablet's cookie is not replaced: its
    stream, ended with every GM stream, reconnects on the same cookie (a new
    session raced that reconnection, which reloaded the page and lost the
    "new token made" notice). Kept across a restart (the sessions file)."""
    app, _ = _app(table, clock, folder=tmp_path)
    tablet = app.test_client()
    tablet.get(f"/gm?token={GM_TOKEN}")
    before = _cookie(tablet)
    answer = tablet.post("/api/gm/rotate", json={})
    assert answer.json == {"rotated": True}
    assert "gm=" not in answer.headers.get("Set-Cookie", "")
    assert _cookie(tablet) == before and tablet.get("/api/gm/tablets").json == {"paired": 1}
    seat = GmSeat((tmp_path / "gm-token").read_text().strip(), folder=tmp_path, clock=clock)
    assert seat.paired == 1 and seat.is_session(before)  # the hub restarted


def test_a_tablet_whose_cookie_held_the_token_is_given_a_session(table, clock, tmp_path):
    """[issue 17 item 2] a cookie holding the old token itself (tablets paired
    before issue 17) would be refused after the rotation: it gets a session."""
    app, seat = _app(table, clock, folder=tmp_path)
    tablet = app.test_client()
    tablet.set_cookie("gm", GM_TOKEN)
    assert tablet.post("/api/gm/rotate", json={}).json == {"rotated": True}
    assert _cookie(tablet) != GM_TOKEN and seat.is_session(_cookie(tablet))
    assert tablet.get("/api/gm/tablets").json == {"paired": 1}


def test_rotating_the_token_ends_the_gm_streams_already_open(table, clock, tmp_path):
    """[issue 17 item 2] a tablet unpaired by a new token is not sent the GM's
    view any more: its stream, open before the rotation, ends (the rotating
    tablet's page reads its view again and follows anew; the other's is refused)."""
    app, _ = _app(table, clock, folder=tmp_path)
    tablet = app.test_client()
    tablet.get(f"/gm?token={GM_TOKEN}")
    assert tablet.post("/api/games", json=mh8()).status_code == 201
    intruder, _ = table.listen("gm")  # a stream another tablet opened before
    seat, _ = table.listen("seat:0")
    assert tablet.post("/api/gm/rotate", json={}).json == {"rotated": True}
    assert intruder.closed and intruder.reason == "closed"
    assert intruder.queue.get_nowait() == ""  # the stream's last word
    assert not seat.closed  # the players' streams go on


def test_the_oldest_tablet_unpaired_past_the_cap_loses_its_stream(table, clock):
    """[issue 17 item 2] past MAX_SESSIONS the oldest tablet is unpaired: its
    open GM stream ends too (the paired tablets' pages follow again)."""
    app, seat = _app(table, clock)
    tablets = [app.test_client() for _ in range(MAX_SESSIONS)]
    for tablet in tablets:
        tablet.get(f"/gm?token={GM_TOKEN}")
    assert tablets[0].post("/api/games", json=mh8()).status_code == 201
    stream, _ = table.listen("gm")
    tablets[-1].post("/api/gm/pair", json={})  # a link: nobody unpaired yet
    assert not stream.closed
    app.test_client().get(f"/gm?token={GM_TOKEN}")  # one more: the oldest goes
    assert stream.closed and seat.paired == MAX_SESSIONS
    assert tablets[0].get("/api/gm").status_code == 403


def test_a_paired_tablet_stays_paired_across_a_restart_until_the_token_changes(
        table, clock, tmp_path):
    app, seat = _app(table, clock, folder=tmp_path)
    tablet = app.test_client()
    tablet.get(f"/gm/pair/{seat.display_code()}")
    session = _cookie(tablet)
    assert stat.S_IMODE((tmp_path / "gm-sessions").stat().st_mode) == 0o600
    assert session is not None and session not in (tmp_path / "gm-sessions").read_text()
    again = GmSeat(GM_TOKEN, folder=tmp_path, clock=clock)  # the hub restarted
    assert again.is_session(session) and again.display_code() is None
    other = GmSeat("another-token", folder=tmp_path, clock=clock)  # serve --new-gm-token
    assert not other.is_session(session) and other.display_code() is not None


def test_a_paired_tablets_requests_are_the_tables_own(table, clock):
    """The front's queue (trust.py) knows a paired tablet by its session
    cookie, as the routes do: it is never queued behind guests [issue 17]."""
    from companion.hub.trust import trusted_requests

    app, seat = _app(table, clock)
    tablet = app.test_client()
    tablet.get(f"/gm/pair/{seat.display_code()}")
    trusted = trusted_requests(app)

    def scope(cookie: str) -> dict:
        return {"path": "/api/gm", "headers": [(b"cookie", cookie.encode())]}

    assert trusted(scope(f"gm={_cookie(tablet)}"))
    assert not trusted(scope("gm=guessed"))
    bearer = {"path": "/api/gm", "headers": [(b"authorization", f"Bearer {GM_TOKEN}".encode())]}
    assert trusted(bearer)


def test_paired_tablets_are_capped_the_oldest_unpaired_first(table, clock):
    """Each visit of the terminal's URL pairs one more tablet: at most
    MAX_SESSIONS are kept, so the file stays small."""
    from companion.hub.pairing import MAX_SESSIONS

    _, seat = _app(table, clock)
    sessions = [seat.session_for(GM_TOKEN) for _ in range(MAX_SESSIONS + 1)]
    assert not seat.is_session(sessions[0])
    assert all(seat.is_session(s) for s in sessions[1:])


def test_the_gm_sees_how_many_tablets_are_paired(table, clock):
    """Someone who photographed the display and paired first shows up as one
    tablet too many (GET /api/gm/tablets; the terminal prints each pairing)."""
    app, seat = _app(table, clock)
    told: list[int] = []
    seat.on_pair = told.append
    intruder, gm = app.test_client(), app.test_client()
    intruder.get(f"/gm/pair/{seat.display_code()}")
    gm.get(f"/gm?token={GM_TOKEN}")
    assert gm.get("/api/gm/tablets").json == {"paired": 2} and told == [1, 2]
    gm.post("/api/gm/rotate", json={})
    assert gm.get("/api/gm/tablets").json == {"paired": 1}
    assert intruder.get("/api/gm/tablets").status_code == 403
