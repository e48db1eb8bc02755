"""The host holds no key to a secret [issue 29]: while a narrated game runs,
nothing the GM token opens moves a seat to another phone or shows an opened
seat's code (release, reissue, the seat's QR, its link in GET /api/seats
and on the printed sheet: 403 or null); a seat nobody opened is shown by
its own code until a phone opens it, then never again. A lost phone is the
table's vote (companion/table/lost_phone.py): the living but the lost seat
answer on their phones, a strict majority of them reissues the seat, half
of them saying no (or the time) cancels it, the dead do not vote, and the
new code's QR is served once, for the table screen."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from companion.table.lost_phone import SHOW_S, VOTE_S

from .conftest import AUTH

ROOT = Path(__file__).resolve().parents[2]
PLAYERS = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus", "Hal"]
SEER = 2  # Cid, in every game here: the seat whose card and night the host wants




def _example() -> dict:
    return json.loads((ROOT / "docs/examples/millers-hollow-village-wins.json").read_text())


def _deal(app: Any, narrated: bool = True) -> list[dict]:
    """The example game dealt (narrated or a game master's): its seats."""
    doc = {k: v for k, v in _example().items() if k != "actions"}
    got = app.test_client().post("/api/games", json={**doc, "narrated": narrated}, headers=AUTH)
    assert got.status_code == 201
    return list(got.get_json()["seats"])


def pin_of(url: str) -> str:
    """The PIN each test player chooses (a narrated game asks for one) [issue 40]."""
    return str(4000 + sum(map(ord, url)) % 1000)


def _phone(app: Any, seat: dict) -> Any:
    """A phone that opened `seat`'s link (it holds the seat now) and, in a
    narrated game, chose the seat's PIN."""
    phone = app.test_client()
    assert phone.get(seat["url"]).status_code == 200
    if phone.get(seat["url"] + "/state").get_json().get("pin") is False:
        chosen = phone.post(seat["url"] + "/pin", json={"pin": pin_of(seat["url"])})
        assert chosen.status_code == 200 and chosen.get_json()["pin"] is True
    return phone


def _play_out(app: Any) -> None:
    """The example game's actions, as the phones would send them, to its end,
    and the table's clock on until the table has told it (the night's calls
    last their windows after the deciding action) [issue 40]."""
    table = app.extensions["table"]
    for action in _example()["actions"]:
        table.act_gm(action)
    assert table.state.phase == "over"
    for _ in range(50):
        if table.ended:
            return
        table.timer("skip")
    raise AssertionError("the table never told the end")


def _moves(client: Any, seat: int) -> dict[str, int]:
    """What the GM token gets for the routes that move or show seat `seat`."""
    return {"release": client.post(f"/api/seats/{seat}/release", headers=AUTH, json={}).status_code,
            "reissue": client.post(f"/api/seats/{seat}/reissue", headers=AUTH, json={}).status_code,
            "qr": client.get(f"/api/seats/{seat}/qr.svg", headers=AUTH).status_code}


# --- the host holds no key ------------------------------------------------------------


def test_the_host_holds_no_key_to_an_opened_seat(app) -> None:  # type: ignore[no-untyped-def]
    """[issue 29] the host holds no key: with the GM token, while a narrated
    game runs, releasing or reissuing an opened seat, or asking for its QR,
    is 403; its link is null in GET /api/seats and absent from the printed
    sheet; its phone keeps it (the seer's card stays with the seer)."""
    seats = _deal(app)
    seer = _phone(app, seats[SEER])
    client = app.test_client()
    assert _moves(client, SEER) == {"release": 403, "reissue": 403, "qr": 403}
    refused = client.post(f"/api/seats/{SEER}/reissue", headers=AUTH, json={}).get_json()
    assert "narrates" in refused["error"]  # the guard's refusal, not a malformed request's
    listed = client.get("/api/seats", headers=AUTH).get_json()["seats"]
    assert listed[SEER]["url"] is None and listed[SEER]["claimed"] is True
    token = seats[SEER]["url"].rsplit("/", 1)[1]
    assert token not in client.get("/api/seats", headers=AUTH).get_data(as_text=True)
    sheet = client.get("/gm/sheet", headers=AUTH)
    assert sheet.status_code == 200 and token not in sheet.get_data(as_text=True)
    assert f'data-test="slip-opened-{SEER}"' in sheet.get_data(as_text=True)
    # another phone on the old link: still refused; the seer's phone still plays
    assert app.test_client().get(seats[SEER]["url"]).status_code == 403
    assert seer.get(seats[SEER]["url"] + "/state").get_json()["role"] == "seer"


def test_a_seat_nobody_opened_is_shown_by_its_own_code_until_opened(app) -> None:  # type: ignore[no-untyped-def]
    """[issue 29] "shown once": the host page shows an unopened seat's QR
    code (and its link); once that seat's phone opened it, the code is gone
    from GET /api/seats and the hub refuses to serve it again. Releasing or
    reissuing it is refused all along (403)."""
    seats = _deal(app)
    client = app.test_client()
    assert client.get("/api/seats/4/qr.svg", headers=AUTH).status_code == 200
    assert client.get("/api/seats", headers=AUTH).get_json()["seats"][4]["url"] == seats[4]["url"]
    assert client.post("/api/seats/4/release", headers=AUTH, json={}).status_code == 403
    assert client.post("/api/seats/4/reissue", headers=AUTH, json={}).status_code == 403
    _phone(app, seats[4])
    assert client.get("/api/seats/4/qr.svg", headers=AUTH).status_code == 403
    assert client.get("/api/seats", headers=AUTH).get_json()["seats"][4]["url"] is None
    assert client.get("/api/seats/5/qr.svg", headers=AUTH).status_code == 200  # another, unopened


def test_the_keys_come_back_once_the_game_is_over(app) -> None:  # type: ignore[no-untyped-def]
    """[issue 29] the guard holds while the narrated game runs only: once it
    is over the host releases, reissues and shows any seat's code again (200)."""
    seats = _deal(app)
    _phone(app, seats[SEER])
    client = app.test_client()
    assert _moves(client, SEER)["reissue"] == 403
    _play_out(app)
    assert _moves(client, SEER) == {"release": 200, "reissue": 200, "qr": 200}
    assert client.get("/api/seats", headers=AUTH).get_json()["seats"][SEER]["url"]


def test_a_game_masters_game_keeps_its_seat_routes(app) -> None:  # type: ignore[no-untyped-def]
    """[issue 29] a game master's (not narrated) game: the GM releases,
    reissues and shows an opened seat's code as before (200), and the
    table's lost-phone vote is not his (409: he reissues himself)."""
    seats = _deal(app, narrated=False)
    _phone(app, seats[SEER])
    client = app.test_client()
    assert client.get("/api/seats", headers=AUTH).get_json()["seats"][SEER]["url"]
    assert _moves(client, SEER) == {"release": 200, "reissue": 200, "qr": 200}
    _phone(app, {"url": app.extensions["table"].seats()[SEER]["url"]})
    assert client.post(f"/api/seats/{SEER}/lost", headers=AUTH, json={}).status_code == 409


def test_the_public_view_says_which_seats_are_opened(app) -> None:  # type: ignore[no-untyped-def]
    """[issue 29] the host page follows the seats live: the public view's
    `opened` flips when a phone opens its seat (Table.claim publishes)."""
    seats = _deal(app)
    client = app.test_client()
    assert client.get("/api/public").get_json()["opened"] == [False] * 8
    _phone(app, seats[3])
    assert client.get("/api/public").get_json()["opened"] == [i == 3 for i in range(8)]


# --- a lost phone: the table votes ----------------------------------------------------------


def _everyone(app: Any) -> tuple[list[dict], list[Any]]:
    seats = _deal(app)
    return seats, [_phone(app, s) for s in seats]


def _answer(phones: list[Any], seats: list[dict], seat: int, yes: bool) -> Any:
    return phones[seat].post(seats[seat]["url"] + "/lost", json={"yes": yes})


def _public(app: Any) -> dict:
    return dict(app.test_client().get("/api/public").get_json())


def test_a_majority_of_the_living_reissues_the_seat(app) -> None:  # type: ignore[no-untyped-def]
    """[issue 29] "This phone is lost" opens a public request (the table
    screen and every phone show it); a strict majority of the living but
    the lost seat (4 of 7) reissues the seat: its old link ends, and its new
    code is shown once on the table screen — its QR served once, to anyone
    (the TV), never in the host's list; gone once the seat's phone opened it."""
    seats, phones = _everyone(app)
    client = app.test_client()
    asked = client.post(f"/api/seats/{SEER}/lost", headers=AUTH, json={})
    assert asked.status_code == 200 and asked.get_json()["outcome"] == "open"
    lost = _public(app)["lost_phone"]
    assert lost["status"] == "vote" and lost["name"] == "Cid" and lost["needed"] == 4
    assert lost["voters"] == [0, 1, 3, 4, 5, 6, 7]
    assert phones[5].get(seats[5]["url"] + "/state").get_json()["lost_phone"] == lost
    # one request at a time
    assert client.post("/api/seats/4/lost", headers=AUTH, json={}).status_code == 409
    assert _answer(phones, seats, SEER, True).status_code == 403  # the lost seat votes not
    assert _answer(phones, seats, 0, False).get_json()["outcome"] == "open"
    for seat in (0, 1, 3):  # Ann changes her mind: the last answer counts
        assert _answer(phones, seats, seat, True).get_json()["outcome"] == "open"
    assert app.test_client().get("/api/lost/qr.svg").status_code == 404  # nothing to show yet
    done = _answer(phones, seats, 4, True).get_json()
    assert done["outcome"] == "reissued" and done["lost_phone"]["status"] == "code"
    assert phones[SEER].get(seats[SEER]["url"] + "/state").status_code == 404  # the old link ends
    assert _public(app)["lost_phone"]["status"] == "code"
    tv = app.test_client().get("/api/lost/qr.svg")  # no token: the table screen
    assert tv.status_code == 200 and tv.mimetype == "image/svg+xml"
    assert app.test_client().get("/api/lost/qr.svg").status_code == 410  # shown once
    assert client.get(f"/api/seats/{SEER}/qr.svg", headers=AUTH).status_code == 403
    assert client.get("/api/seats", headers=AUTH).get_json()["seats"][SEER]["url"] is None
    new = app.extensions["table"].seats()[SEER]["url"]
    assert new != seats[SEER]["url"]
    # [issue 40] the new code opens only with the PIN Cid chose on his first phone:
    # whoever scans the TV first is shown a PIN field, never the card
    stranger = app.test_client()
    page = stranger.get(new)
    assert page.status_code == 200 and 'data-post="unlock"' in page.get_data(as_text=True)
    assert stranger.get(new + "/state").status_code == 403
    assert stranger.post(new + "/unlock", json={"pin": "0000"}).status_code == 403
    cid = app.test_client()
    cid.get(new)
    assert cid.post(new + "/unlock", json={"pin": pin_of(seats[SEER]["url"])}).status_code == 200
    assert cid.get(new + "/state").get_json()["role"] == "seer"
    assert stranger.get(new + "/state").status_code == 403
    assert "lost_phone" not in _public(app)


def test_half_of_the_living_saying_no_cancels(app) -> None:  # type: ignore[no-untyped-def]
    """[issue 29] a no-majority cancels: once a strict majority of yes cannot
    be reached (4 of 7 said no), the request ends and the seat stays its
    phone's; 3 yes were not enough."""
    seats, phones = _everyone(app)
    app.test_client().post(f"/api/seats/{SEER}/lost", headers=AUTH, json={})
    for seat in (0, 1, 3):
        assert _answer(phones, seats, seat, True).get_json()["outcome"] == "open"
    for seat in (4, 5, 6):
        assert _answer(phones, seats, seat, False).get_json()["outcome"] == "open"
    assert _answer(phones, seats, 7, False).get_json()["outcome"] == "cancelled"
    assert "lost_phone" not in _public(app)
    assert phones[SEER].get(seats[SEER]["url"] + "/state").status_code == 200
    assert _answer(phones, seats, 0, True).status_code == 409  # no vote open


def test_a_dead_player_cannot_vote(app) -> None:  # type: ignore[no-untyped-def]
    """[issue 29] the dead do not vote (403) and do not count: with Fay dead
    the voters are the 6 living but the lost seat, and 4 of them are needed."""
    seats, phones = _everyone(app)
    table = app.extensions["table"]
    for action in _example()["actions"][:4]:  # night 1: the wolves kill Fay
        table.act_gm(action)
    fay = PLAYERS.index("Fay")
    assert _public(app)["players"][fay]["alive"] is True  # the table sees it at dawn only
    assert phones[1].post(seats[1]["url"] + "/lost", json={"yes": True}).status_code == 409
    app.test_client().post(f"/api/seats/{SEER}/lost", headers=AUTH, json={})
    assert fay in _public(app)["lost_phone"]["voters"]  # a vote at night tells no death
    app.test_client().post("/api/lost/cancel", headers=AUTH, json={})
    table.timer("skip")  # the night's calls end: dawn
    assert _public(app)["players"][fay]["alive"] is False
    app.test_client().post(f"/api/seats/{SEER}/lost", headers=AUTH, json={})
    lost = _public(app)["lost_phone"]
    assert fay not in lost["voters"] and len(lost["voters"]) == 6 and lost["needed"] == 4
    refused = _answer(phones, seats, fay, True)
    assert refused.status_code == 403 and "dead" in refused.get_json()["error"]
    for seat in (0, 1, 3):
        assert _answer(phones, seats, seat, True).get_json()["outcome"] == "open"
    assert _answer(phones, seats, 4, True).get_json()["outcome"] == "reissued"


def test_the_time_ends_a_vote_and_a_code(app, clock) -> None:  # type: ignore[no-untyped-def]
    """[issue 29] a vote nobody finished is cancelled after VOTE_S; a new
    code nobody scanned stops being shown after SHOW_S, and that seat's code
    is still not the host's: the table votes again (the host may ask)."""
    seats, phones = _everyone(app)
    client = app.test_client()
    lost = app.extensions["lost_phones"]
    client.post(f"/api/seats/{SEER}/lost", headers=AUTH, json={})
    clock.t += VOTE_S + 1
    lost.check()
    assert "lost_phone" not in _public(app)
    client.post(f"/api/seats/{SEER}/lost", headers=AUTH, json={})
    for seat in (0, 1, 3, 4):
        _answer(phones, seats, seat, True)
    assert _public(app)["lost_phone"]["status"] == "code"
    clock.t += SHOW_S + 1
    lost.check()
    assert "lost_phone" not in _public(app)
    assert app.test_client().get("/api/lost/qr.svg").status_code == 404
    assert client.get(f"/api/seats/{SEER}/qr.svg", headers=AUTH).status_code == 403
    again = client.post(f"/api/seats/{SEER}/lost", headers=AUTH, json={})
    assert again.status_code == 200 and again.get_json()["outcome"] == "open"


def test_the_lost_phone_routes_refuse_what_is_not_theirs(app) -> None:  # type: ignore[no-untyped-def]
    """[issue 29] only the host asks (401 without the token); a seat never
    opened has its own code (409); an answer is {"yes": bool} (400); a
    phone answers for its own seat only (403 on another's link)."""
    seats = _deal(app)
    ann = _phone(app, seats[0])
    bob = _phone(app, seats[1])
    client = app.test_client()
    assert client.post("/api/seats/1/lost", json={}).status_code == 401
    assert client.post("/api/seats/5/lost", headers=AUTH, json={}).status_code == 409
    assert client.post("/api/seats/1/lost", headers=AUTH, json={}).status_code == 200
    assert ann.post(seats[0]["url"] + "/lost", json={"yes": "yes"}).status_code == 400
    assert ann.post(seats[2]["url"] + "/lost", json={"yes": True}).status_code == 403
    assert bob.post(seats[0]["url"] + "/lost", json={"yes": True}).status_code == 403
    assert client.post("/api/lost/cancel", headers=AUTH, json={}).status_code == 200
    assert "lost_phone" not in _public(app)
