"""The hub's JSON API over Flask's test client ([issue 5] "The hub's JSON API"):
every endpoint, every error code, GM auth, seat claims, private headers, body
limits, seq checks, undo, pacing through HTTP and the event streams.

Time only moves through the fake clock and `table.tick()`; nothing sleeps
(the stream generator waits HEARTBEAT_S = 0.05 s between heartbeats)."""

from __future__ import annotations

import json

import pytest

from .conftest import GM, GM_TOKEN, jp9, mh8

JSON = {"Content-Type": "application/json"}
BAD_GM = {"Authorization": "Bearer not-the-token"}
PRIVATE = {"Cache-Control": "no-store", "Referrer-Policy": "no-referrer"}

#: every GM-only endpoint, with a body it would accept
GM_ENDPOINTS = [
    ("post", "/api/games", mh8()),
    ("get", "/api/games", None),
    ("get", "/api/games/1", None),
    ("get", "/api/state", None),
    ("get", "/api/gm", None),
    ("get", "/api/seats", None),
    ("post", "/api/actions", {"actor": "A", "do": "attack", "target": "F"}),
    ("post", "/api/undo", {}),
    ("post", "/api/timer", {"do": "pause"}),
    ("post", "/api/seats/0/reissue", None),
    ("post", "/api/seats/0/release", None),
    ("get", "/api/stream", None),
]
#: every POST that takes a JSON body, as the GM ("/p/" is filled with a claimed seat)
POSTS = ["/api/games", "/api/actions", "/api/undo", "/api/timer", "/p/"]
SEER = {"actor": "C", "do": "inspect", "target": "A"}
NIGHT_1 = [SEER, {"actor": "A", "do": "attack", "target": "F"},
           {"actor": "B", "do": "attack", "target": "F"},
           {"actor": "D", "do": "potion", "heal": False, "poison": None}]


# --- helpers -------------------------------------------------------------------


def new_game(client, setup: dict | None = None) -> dict:  # type: ignore[no-untyped-def]
    r = client.post("/api/games", json=setup or mh8(), headers=GM)
    assert r.status_code == 201, r.json
    return r.json  # type: ignore[no-any-return]


def gm_state(client) -> dict:  # type: ignore[no-untyped-def]
    r = client.get("/api/state", headers=GM)
    assert r.status_code == 200, r.json
    return r.json  # type: ignore[no-any-return]


def game_part(client) -> dict:  # type: ignore[no-untyped-def]
    """The replay output part of /api/state (what an action changes)."""
    out = gm_state(client)
    out.pop("pace")
    return out


def last_act(client) -> dict:  # type: ignore[no-untyped-def]
    """The last action event of the current game's log."""
    return [e for e in gm_state(client)["events"] if e["e"] == "act"][-1]


def act(client, action: object):  # type: ignore[no-untyped-def]
    """POST an action as the GM (as JSON text, so `None` is sent as null)."""
    return client.post("/api/actions", data=json.dumps(action), headers={**GM, **JSON})


def undo(client, **body: object):  # type: ignore[no-untyped-def]
    """POST /api/undo naming the action count the GM sees [issue 17]."""
    expect = client.get("/api/gm", headers=GM).json["seq"]
    return client.post("/api/undo", json={"expect": expect, **body}, headers=GM)


def phone(app, url: str):  # type: ignore[no-untyped-def]
    """A new device that opened `url` (and so claimed the seat if it was free)."""
    device = app.test_client()
    device.get(url)
    return device


def call(table, clock, step: str) -> None:  # type: ignore[no-untyped-def]
    """Let the night's calls run until `step` is called."""
    for _ in range(400):
        pc = table.pace
        if pc.mode == "calls" and pc.calls[pc.cursor] == step and pc.live:
            return
        clock.advance(0.5)
        table.tick()
    raise AssertionError(f"{step} was never called")


def assert_error(r, status: int) -> None:  # type: ignore[no-untyped-def]
    assert r.status_code == status, (r.status_code, r.get_data(as_text=True)[:300])
    assert r.is_json, r.get_data(as_text=True)[:300]
    assert set(r.json) == {"error"} and isinstance(r.json["error"], str) and r.json["error"]
    assert "Traceback" not in r.get_data(as_text=True)


def sse(response, limit: int = 40) -> list[str]:  # type: ignore[no-untyped-def]
    """The chunks the stream has ready: read until a heartbeat (nothing new)."""
    out = []
    for chunk in response.response:
        text = chunk.decode() if isinstance(chunk, bytes) else chunk
        out.append(text)
        if text.startswith(": heartbeat") or len(out) >= limit:
            break
    return out


def data_messages(chunks: list[str]) -> list[dict]:
    return [json.loads(c[len("data: "):]) for c in chunks if c.startswith("data: ")]


# --- GM auth ------------------------------------------------------------------------


@pytest.mark.parametrize(("method", "path", "body"), GM_ENDPOINTS,
                         ids=[f"{m} {p}" for m, p, _ in GM_ENDPOINTS])
def test_gm_endpoints_need_the_token(client, method, path, body):
    """[issue 5] GM auth: a GM endpoint answers 401 without a token, 403 with a
    wrong bearer token or a wrong "gm" cookie, and changes nothing."""
    new_game(client)
    before = gm_state(client)
    send = getattr(client, method)
    kwargs = {"json": body if body is not None else {}}  # a change is JSON [issue 17]
    assert_error(send(path, **kwargs), 401)
    assert_error(send(path, headers=BAD_GM, **kwargs), 403)
    other = client.application.test_client()
    other.set_cookie("gm", "not-the-token")
    assert_error(getattr(other, method)(path, **kwargs), 403)
    assert gm_state(client) == before


@pytest.mark.parametrize(("method", "path", "body"), GM_ENDPOINTS,
                         ids=[f"{m} {p}" for m, p, _ in GM_ENDPOINTS])
def test_gm_endpoints_accept_the_bearer_token(client, method, path, body):
    """[issue 5] GM auth: `Authorization: Bearer <token>` opens every GM endpoint."""
    new_game(client)
    act(client, SEER)
    kwargs = {"json": body if body is not None else {}}  # a change is JSON [issue 17]
    if path == "/api/undo":
        kwargs["json"] = {"expect": client.get("/api/gm", headers=GM).json["seq"]}
    r = getattr(client, method)(path, headers=GM, buffered=path.endswith("stream") is False,
                                **kwargs)
    assert r.status_code in (200, 201), r.get_data(as_text=True)[:300]
    r.close()


def test_gm_url_sets_an_httponly_cookie_that_opens_the_api(app):
    """[issue 5] GM auth: GET /gm?token=T sets the HttpOnly "gm" cookie and
    redirects to /gm (the token leaves the address bar); the cookie alone then
    opens the GM API and the GM page."""
    tablet = app.test_client()
    r = tablet.get(f"/gm?token={GM_TOKEN}")
    assert r.status_code in (302, 303) and r.headers["Location"].endswith("/gm")
    cookie = r.headers["Set-Cookie"]
    assert cookie.startswith("gm=") and "HttpOnly" in cookie
    assert tablet.post("/api/games", json=mh8()).status_code == 201
    assert tablet.get("/api/state").status_code == 200
    page = tablet.get("/gm")
    assert page.status_code == 200
    for key, value in PRIVATE.items():
        assert page.headers[key] == value


def test_gm_url_with_a_wrong_token_sets_no_cookie(app):
    """[issue 5] GM auth: /gm?token=<wrong> sets no cookie; the API stays 401
    and the GM page answers 401."""
    tablet = app.test_client()
    r = tablet.get("/gm?token=wrong")
    assert "Set-Cookie" not in r.headers
    assert_error(tablet.get("/api/state"), 401)
    assert tablet.get("/gm").status_code == 401


# --- before any game ------------------------------------------------------------------


def test_public_view_is_an_empty_lobby_before_any_game(client):
    """[issue 5] GET /api/public answers 200 with an empty lobby before any game
    (no auth needed), and is never cached."""
    r = client.get("/api/public")
    assert r.status_code == 200
    assert r.json["phase"] == "lobby" and r.json["players"] == [] and r.json["game"] is None
    assert r.headers["Cache-Control"] == "no-store"


@pytest.mark.parametrize(("method", "path", "body"), [
    ("get", "/api/state", None), ("get", "/api/gm", None), ("get", "/api/seats", None),
    ("get", "/api/games/1", None), ("post", "/api/actions", SEER),
    ("post", "/api/undo", {"expect": 0}),
    ("post", "/api/timer", {"do": "pause"}), ("post", "/api/seats/0/release", None),
    ("post", "/api/seats/0/reissue", None)])
def test_game_endpoints_answer_404_before_any_game(client, method, path, body):
    """[issue 5] Errors: an endpoint about the current game answers 404 (JSON)
    while there is no game; GET /api/games lists none."""
    kwargs = {"json": body if body is not None else {}}  # a change is JSON [issue 17]
    assert_error(getattr(client, method)(path, headers=GM, **kwargs), 404)
    assert client.get("/api/games", headers=GM).json == {"games": []}


# --- games ------------------------------------------------------------------------------


def test_create_game_answers_201_with_a_private_link_per_seat(client):
    """[issue 5] POST /api/games: 201 with the game's id and one seat per player
    (seat, name, url /p/<token>, claimed false); every link is distinct."""
    out = new_game(client, jp9())
    assert isinstance(out["id"], int)
    assert [s["seat"] for s in out["seats"]] == list(range(9))
    assert [s["name"] for s in out["seats"]] == list("ABCDEFGHI")
    assert all(s["url"].startswith("/p/") and len(s["url"]) > 12 for s in out["seats"])
    assert len({s["url"] for s in out["seats"]}) == 9
    assert not any(s["claimed"] for s in out["seats"])
    assert gm_state(client)["id"] == out["id"]


def test_create_game_without_a_deal_deals_from_the_seed(client):
    """[issue 5] POST /api/games takes the replay setup fields: with no deal the
    recommended deal is drawn from the seed."""
    players = [f"P{i}" for i in range(10)]
    out = new_game(client, {"ruleset": "bga", "players": players, "seed": 11})
    assert len(out["seats"]) == 10
    roles = [p["role"] for p in client.get("/api/gm", headers=GM).json["players"]]
    assert roles.count("werewolf") >= 2


@pytest.mark.parametrize("setup", [
    [], "game", 7, None, {}, {"ruleset": "nope", "players": list("ABCDEFGH")},
    {**mh8(), "actions": []}, {**mh8(), "players": list("ABCDEFGA")},
    {**mh8(), "deal": {**mh8()["deal"], "A": "seeer"}}, {**mh8(), "seed": "x"},
    {**mh8(), "options": {"tie": "coin"}}, {**mh8(), "options": []},
    {**mh8(), "professions": {"A": "baker"}}, {**mh8(), "extra": 1},
    {"ruleset": "millers-hollow", "players": ["A", "B"]},
    {"ruleset": "jp-standard", "players": [1, 2, 3, 4, 5, 6, 7]},
], ids=lambda s: json.dumps(s)[:40])
def test_create_game_refuses_a_bad_setup_with_400(client, setup):
    """[issue 5] POST /api/games: a setup that is not the replay format's (not an
    object, actions inside, unknown ruleset/role/option/field, duplicate names,
    wrong types, too few players) is 400 and the current game is kept."""
    first = new_game(client)
    r = client.post("/api/games", data=json.dumps(setup), headers={**GM, **JSON})
    assert_error(r, 400)
    assert gm_state(client)["id"] == first["id"]


def test_games_are_listed_newest_first_and_each_can_be_read(client):
    """[issue 5] GET /api/games lists every game newest first; GET
    /api/games/<id> gives one of them (replay output, setup, id); an unknown id
    is 404."""
    ids = [new_game(client, setup)["id"] for setup in (mh8(), jp9(), mh8(seed=4))]
    act(client, SEER)
    listed = client.get("/api/games", headers=GM).json["games"]
    assert [g["id"] for g in listed] == ids[::-1]
    assert listed[1]["ruleset"] == "jp-standard" and listed[1]["players"] == list("ABCDEFGHI")
    one = client.get(f"/api/games/{ids[1]}", headers=GM).json
    # contract C2: the record's setup also says the box it was dealt from, as counts
    cards = {"knight": 1, "madman": 1, "medium": 1, "seer": 1, "villager": 3, "werewolf": 2}
    assert one["id"] == ids[1] and one["setup"] == {**jp9(), "cards": cards} \
        and one["players"] == list("ABCDEFGHI")
    last = client.get(f"/api/games/{ids[2]}", headers=GM).json
    current = gm_state(client)
    assert last["events"] == current["events"] and last["step"] == current["step"]
    assert_error(client.get("/api/games/999", headers=GM), 404)
    assert_error(client.get(f"/api/games/{10**30}", headers=GM), 404)


# --- actions, seq, undo -------------------------------------------------------------


def test_gm_action_answers_the_gm_view(client):
    """[issue 5] POST /api/actions takes one replay action (names) and answers
    200 with the GM's view (every card, the pending step, seq = actions so far)."""
    new_game(client)
    r = act(client, SEER)
    assert r.status_code == 200
    view = r.json
    assert view["seq"] == 1 and view["step"] == "night 1 wolves"
    assert [p["role"] for p in view["players"]][:3] == ["werewolf", "werewolf", "seer"]
    assert view["pending"]["step"] == "wolves"
    assert last_act(client)["do"] == "inspect"


def test_gm_view_and_state_agree(client):
    """[issue 5] GET /api/gm is the GM's view; GET /api/state is the replay output
    object plus "id" and "pace"."""
    new_game(client)
    view = client.get("/api/gm", headers=GM).json
    out = gm_state(client)
    assert set(out) == {"winner", "winners", "deaths", "alive", "sheriff", "step", "players",
                        "events", "id", "pace"}
    assert out["step"] == view["step"] and out["pace"]["mode"] == view["pace"]["mode"]


@pytest.mark.parametrize("action", [
    {"actor": "A", "do": "vote", "target": "B"},  # not the step
    {"actor": "D", "do": "inspect", "target": "A"},  # not the seer
    {"actor": "C", "do": "inspect", "target": "C"},  # herself
], ids=["wrong-step", "wrong-actor", "bad-target"])
def test_an_action_out_of_turn_is_409_and_changes_nothing(client, action):
    """[issue 5] POST /api/actions: an action the engine refuses now is 409 and
    the state is unchanged."""
    new_game(client)
    before = game_part(client)
    assert_error(act(client, action), 409)
    assert game_part(client) == before


@pytest.mark.parametrize("action", [
    [SEER], "inspect", 3, None, {}, {"do": "inspect"}, {"actor": "Zed", "do": "inspect",
                                                          "target": "A"},
    {"actor": "C", "do": "inspect", "target": "Zed"}, {"actor": "C", "do": "fly"},
    {"actor": "C", "do": 1}, {"actor": ["C"], "do": "inspect", "target": "A"},
    {"actor": "C", "do": "inspect", "target": {"x": 1}},
    {"actor": "C", "do": "inspect", "target": "A", "colour": "red"},
    {"actor": "C", "do": "inspect", "target": "A", "seq": "0"},
    {"actor": "C", "do": "inspect", "target": "A", "seq": 1.0},
    {"actor": "A", "do": "link", "targets": "B"}, {"actor": "D", "do": "potion", "heal": 1},
    {"actor": "C", "do": "swap", "card": 2}, {"actor": "C", "do": "spy", "mode": 3},
    {"actor": "C", "do": "restore", "power": 3},
], ids=lambda a: json.dumps(a)[:40])
def test_a_malformed_action_is_400_and_changes_nothing(client, action):
    """[issue 5] Errors: an action that is not a well-formed replay action (not an
    object, unknown field/action/player, wrong types, a non-integer seq) is 400
    and the state is unchanged."""
    new_game(client)
    before = game_part(client)
    assert_error(act(client, action), 400)
    assert game_part(client) == before


def test_a_stale_seq_is_409_and_changes_nothing(client):
    """[issue 5] "seq" in an action: when the game moved on since that seq (the
    current step opened after it) the action is 409 and nothing changes; the
    current seq is accepted."""
    new_game(client)
    seq0 = client.get("/api/gm", headers=GM).json["seq"]
    assert act(client, {**SEER, "seq": seq0}).status_code == 200  # the wolves' step opens
    before = game_part(client)
    r = act(client, {"actor": "A", "do": "attack", "target": "F", "seq": seq0})
    assert_error(r, 409)
    assert game_part(client) == before
    assert_error(act(client, {"actor": "A", "do": "attack", "target": "F", "seq": 99}), 409)
    assert game_part(client) == before
    seq1 = client.get("/api/gm", headers=GM).json["seq"]
    assert act(client, {"actor": "A", "do": "attack", "target": "F", "seq": seq1}).status_code \
        == 200


def test_a_seq_inside_the_open_step_is_accepted(client):
    """[issue 5] seq: an older seq is still good while the step it saw is open
    (one wolf's pick does not make the other wolf's view stale)."""
    new_game(client)
    act(client, SEER)
    seq = client.get("/api/gm", headers=GM).json["seq"]
    assert act(client, {"actor": "A", "do": "attack", "target": "F", "seq": seq}).status_code \
        == 200
    assert act(client, {"actor": "B", "do": "attack", "target": "F", "seq": seq}).status_code \
        == 200
    assert gm_state(client)["step"] == "night 1 witch"


def test_undo_takes_back_the_last_action(client):
    """[issue 5] POST /api/undo takes back the last action: the state is the
    one before it. [issue 17] It names the action count it expects."""
    new_game(client)
    act(client, SEER)
    before = game_part(client)
    act(client, NIGHT_1[1])
    r = undo(client)
    assert r.status_code == 200 and r.json["seq"] == 1
    assert game_part(client) == before
    assert undo(client).status_code == 200
    assert gm_state(client)["step"] == "night 1 seer"


def test_undo_to_k_rewinds_every_action_from_the_kth_on(client):
    """[issue 5] POST /api/undo {"to": K} rewinds every action from the K-th on
    (K counts from 1), leaving K-1 actions."""
    new_game(client)
    states = [game_part(client)]
    for action in NIGHT_1:
        assert act(client, action).status_code == 200
        states.append(game_part(client))
    r = undo(client, to=2)
    assert r.status_code == 200 and r.json["seq"] == 1
    assert game_part(client) == states[1]
    undo(client, to=1)
    assert game_part(client) == states[0]


def test_undo_with_nothing_to_undo_is_409(client):
    """[issue 5] POST /api/undo at the start of a game is 409."""
    new_game(client)
    assert_error(undo(client), 409)


@pytest.mark.parametrize("to", [0, -1, 5, "1", 1.0, True, [1], 10**40])
def test_undo_to_an_impossible_action_is_400(client, to):
    """[issue 5] POST /api/undo {"to": K}: K must be an integer from 1 to the
    number of actions (400 otherwise, nothing changes)."""
    new_game(client)
    for action in NIGHT_1[:2]:
        act(client, action)
    before = game_part(client)
    assert_error(undo(client, to=to), 400)
    assert game_part(client) == before


def test_after_an_undo_the_engine_plays_on(client):
    """[issue 5] undo: after a rewind the taken-back step accepts a new action."""
    new_game(client)
    act(client, SEER)
    undo(client)
    assert act(client, {"actor": "C", "do": "inspect", "target": "D"}).status_code == 200
    assert last_act(client)["target"] == 3


# --- timer ---------------------------------------------------------------------------


def test_timer_pause_resume_extend_skip(client, table, clock):
    """[issue 5] POST /api/timer: pause freezes the deadline (time passing does not
    move the table), resume restarts it, extend adds seconds, skip ends the
    current call; each answers the GM view."""
    new_game(client)
    deadline = table.pace.deadline
    r = client.post("/api/timer", json={"do": "pause"}, headers=GM)
    assert r.status_code == 200 and r.json["pace"]["paused"] is not None
    cursor = table.pace.cursor
    clock.advance(100)
    table.tick()
    assert table.pace.cursor == cursor  # frozen
    r = client.post("/api/timer", json={"do": "extend", "seconds": 30}, headers=GM)
    assert r.status_code == 200
    r = client.post("/api/timer", json={"do": "resume"}, headers=GM)
    assert r.status_code == 200 and r.json["pace"]["paused"] is None
    assert table.pace.deadline == pytest.approx(deadline + 100 + 30)
    before = table.pace.deadline
    assert client.post("/api/timer", json={"do": "extend", "seconds": 5.5},
                       headers=GM).status_code == 200
    assert table.pace.deadline == pytest.approx(before + 5.5)
    assert client.post("/api/timer", json={"do": "skip"}, headers=GM).status_code == 200
    assert table.pace.cursor == cursor + 1


@pytest.mark.parametrize("doc", [
    {}, {"do": "stop"}, {"do": 1}, [], "pause", {"do": "extend", "seconds": -1},
    {"do": "extend", "seconds": 3601}, {"do": "extend", "seconds": "5"},
    {"do": "extend", "seconds": True}, {"do": "extend", "seconds": None},
    {"do": "extend", "seconds": 10**400},
], ids=lambda d: json.dumps(d)[:40])
def test_timer_refuses_a_bad_request_with_400(client, doc):
    """[issue 5] POST /api/timer: "do" is pause|resume|extend|skip and "seconds" a
    number from 0 to 3600; anything else is 400 and changes nothing."""
    new_game(client)
    before = gm_state(client)
    assert_error(client.post("/api/timer", json=doc, headers=GM), 400)
    assert gm_state(client) == before


# --- seats and devices -------------------------------------------------------------------


def test_seats_list_shows_claims(app, client):
    """[issue 5] GET /api/seats lists each seat's name, link and whether a device
    holds it."""
    seats = new_game(client)["seats"]
    phone(app, seats[3]["url"])
    out = client.get("/api/seats", headers=GM).json
    assert [s["claimed"] for s in out["seats"]] == [i == 3 for i in range(8)]
    assert [s["url"] for s in out["seats"]] == [s["url"] for s in seats]


def test_first_device_claims_the_seat_and_a_second_is_refused(app, client):
    """[issue 5] GET /p/<token>: the first device to open a seat's link claims it
    (an HttpOnly "device" cookie); another device gets 403 "already open on
    another phone" on the page, the state, the action and the stream."""
    url = new_game(client)["seats"][2]["url"]
    first = app.test_client()
    r = first.get(url)
    assert r.status_code == 200 and r.mimetype == "text/html"
    cookie = r.headers["Set-Cookie"]
    assert cookie.startswith("device=") and "HttpOnly" in cookie
    assert first.get(url).status_code == 200  # the same phone again
    assert first.get(url + "/state").json["name"] == "C"
    second = app.test_client()
    r = second.get(url)
    assert r.status_code == 403 and "already open on another phone" in r.get_data(as_text=True)
    for r in (second.get(url + "/state"), second.post(url + "/action", json={"do": "pass"}),
              second.get(url + "/stream")):
        assert_error(r, 403)
        assert "already open on another phone" in r.json["error"]


def test_a_seat_needs_its_page_opened_before_its_state(app, client):
    """[issue 5] A seat's state, action and stream are refused (403) to a device
    that has not opened the link (no device cookie)."""
    url = new_game(client)["seats"][2]["url"]
    stranger = app.test_client()
    assert_error(stranger.get(url + "/state"), 403)
    assert_error(stranger.post(url + "/action", json={"do": "pass"}), 403)
    assert_error(stranger.get(url + "/stream"), 403)


def test_release_lets_a_new_device_in(app, client):
    """[issue 5] POST /api/seats/<n>/release frees the seat: the next device to open
    the (same) link claims it and the old device is refused."""
    url = new_game(client)["seats"][2]["url"]
    old = phone(app, url)
    r = client.post("/api/seats/2/release", json={}, headers=GM)
    assert r.status_code == 200 and r.json["seats"][2]["claimed"] is False
    new = app.test_client()
    assert new.get(url).status_code == 200
    assert new.get(url + "/state").status_code == 200
    assert_error(old.get(url + "/state"), 403)
    assert old.get(url).status_code == 403


def test_reissue_makes_the_old_link_404(app, client):
    """[issue 5] POST /api/seats/<n>/reissue gives the seat a new link: the old
    link is 404 everywhere (even for the device that held it), the new one can be
    claimed by a new device."""
    url = new_game(client)["seats"][2]["url"]
    old = phone(app, url)
    r = client.post("/api/seats/2/reissue", json={}, headers=GM)
    assert r.status_code == 200
    new_url = r.json["seats"][2]["url"]
    assert new_url != url and r.json["seats"][2]["claimed"] is False
    for resp in (old.get(url), old.get(url + "/state"),
                 old.post(url + "/action", json={"do": "pass"}), old.get(url + "/stream")):
        assert resp.status_code == 404
    device = app.test_client()
    assert device.get(new_url).status_code == 200
    assert device.get(new_url + "/state").json["name"] == "C"


@pytest.mark.parametrize("what", ["reissue", "release"])
@pytest.mark.parametrize("seat", [8, 99, 10**30])
def test_reissue_or_release_of_an_unknown_seat_is_404(client, what, seat):
    """[issue 5] POST /api/seats/<n>/reissue|release of a seat the game does not
    have is 404."""
    new_game(client)
    assert_error(client.post(f"/api/seats/{seat}/{what}", json={}, headers=GM), 404)


@pytest.mark.parametrize("suffix", ["", "/state", "/stream", "/action"])
def test_an_unknown_seat_link_is_404(client, suffix):
    """[issue 5] A link that is no seat of the current game is 404 (JSON for the
    API routes)."""
    new_game(client)
    url = "/p/not-a-token" + suffix
    r = client.post(url, json={"do": "pass"}) if suffix == "/action" else client.get(url)
    assert r.status_code == 404
    if suffix:
        assert_error(r, 404)


def test_a_new_game_makes_the_old_links_404(app, client):
    """[issue 5] Seat links belong to one game: after POST /api/games the previous
    game's links are 404."""
    url = new_game(client)["seats"][0]["url"]
    device = phone(app, url)
    new_game(client, jp9())
    assert device.get(url + "/state").status_code == 404


# --- private headers -----------------------------------------------------------------------


def test_private_pages_and_streams_are_no_store_and_no_referrer(app, client):
    """[issue 5] Private pages and streams carry Cache-Control: no-store and
    Referrer-Policy: no-referrer: the seat page (also when refused), its state,
    its action answer (also an error), its stream, the GM page and every GM API
    answer."""
    seats = new_game(client)["seats"]
    url = seats[2]["url"]
    device = app.test_client()
    answers = [device.get(url), device.get(url + "/state"),
               device.post(url + "/action", json={"do": "pass"}),
               device.post(url + "/action", json={"do": "fly"}),
               app.test_client().get(url),
               client.get("/api/state", headers=GM), client.get("/api/gm", headers=GM),
               client.get("/api/games", headers=GM), act(client, {"actor": "Z", "do": "x"})]
    streams = [device.get(url + "/stream", buffered=False),
               client.get("/api/stream", headers=GM, buffered=False),
               client.get("/api/public/stream", buffered=False)]
    tablet = app.test_client()
    tablet.get(f"/gm?token={GM_TOKEN}")
    answers.append(tablet.get("/gm"))
    for r in answers + streams:
        for key, value in PRIVATE.items():
            assert r.headers.get(key) == value, (r.request.path, key, r.headers)
    for r in streams:
        assert r.mimetype == "text/event-stream"
        r.close()


# --- bodies ---------------------------------------------------------------------------------


def _post(app, client, path: str, **kwargs):  # type: ignore[no-untyped-def]
    """POST as the GM, or (path "/p/") as the phone of a claimed seat."""
    if path == "/p/":
        url = client.get("/api/seats", headers=GM).json["seats"][2]["url"]
        device = phone(app, url)
        return device.post(url + "/action", **kwargs)
    return client.post(path, headers={**GM, **kwargs.pop("headers", {})}, **kwargs)


@pytest.mark.parametrize("path", POSTS)
def test_a_body_over_64_kb_is_413(app, client, path):
    """[issue 5] Bodies are capped at 64 KB: a larger one is 413 (JSON), even when
    it is valid JSON, and nothing changes."""
    new_game(client)
    before = game_part(client)
    big = json.dumps({"actor": "C", "do": "inspect", "target": "A", "pad": "x" * 70_000})
    assert_error(_post(app, client, path, data=big, headers=JSON), 413)
    assert game_part(client) == before


MALFORMED = {
    "truncated": b'{"actor": "C", "do": ',
    "not-json": b"inspect A",
    "deep-list": b"[" * 60_000,
    "deep-object": b'{"a":' * 12_000,
    "deep-in-action": b'{"actor": "C", "do": "inspect", "target": ' + b"[" * 30_000,
    "huge-int": b"9" * 5_000,
    "huge-int-seq": b'{"actor": "C", "do": "inspect", "target": "A", "seq": ' + b"9" * 5000 + b"}",
    "bad-utf8": b'{"actor": "\xff\xfe", "do": "inspect"}',
    "empty": b"",
    "nan-action": b"NaN",
}


@pytest.mark.parametrize("raw", MALFORMED.values(), ids=MALFORMED.keys())
@pytest.mark.parametrize("path", POSTS)
def test_malformed_deep_or_huge_json_is_400(app, client, path, raw):
    """[issue 5] Errors: malformed JSON, JSON nested too deeply, integers past
    Python's digit limit, bad UTF-8 or a missing body are 400 (JSON, no stack
    trace) on every POST that takes a body, and nothing changes. ([issue 17]:
    an empty body to /api/undo is 400 too: an undo names what it takes back.)"""
    new_game(client)
    before = game_part(client)
    r = _post(app, client, path, data=raw, headers=JSON)
    assert_error(r, 400)
    assert game_part(client) == before


def test_unknown_routes_and_methods_are_json_errors(client):
    """[issue 5] Errors are JSON everywhere: an unknown API route is 404, a wrong
    method 405, with {"error": ...}."""
    assert_error(client.get("/api/nothing", headers=GM), 404)
    r = client.delete("/api/state", headers=GM)
    assert r.status_code == 405 and set(r.json) == {"error"}


# --- phones -------------------------------------------------------------------------------------


def test_phone_acts_for_its_own_seat_when_called(app, client, table, clock):
    """[issue 5] POST /p/<token>/action: a phone sends an action without "actor"
    and acts for its own seat once its night step is called; it answers the
    seat's view. [issue 28] The seer's result waits for her call's end."""
    url = new_game(client)["seats"][2]["url"]
    seer = phone(app, url)
    call(table, clock, "seer")
    assert seer.get(url + "/state").json["actions"]
    r = seer.post(url + "/action", json={"do": "inspect", "target": "A"})
    assert r.status_code == 200, r.json
    assert r.json["name"] == "C" and r.json["results"] == [] and r.json["actions"] == []
    for key, value in PRIVATE.items():
        assert r.headers[key] == value
    assert last_act(client)["do"] == "inspect"
    call(table, clock, "wolves")
    assert seer.get(url + "/state").json["results"][-1]["result"] == "werewolf"


def test_phone_action_naming_an_actor_is_400(app, client, table, clock):
    """[issue 5] A phone's action has no "actor": one that names any actor
    (even its own seat) is 400 and nothing changes."""
    url = new_game(client)["seats"][2]["url"]
    seer = phone(app, url)
    call(table, clock, "seer")
    before = game_part(client)
    for actor in ("C", "A"):
        assert_error(seer.post(url + "/action", json={"actor": actor, "do": "inspect",
                                                      "target": "A"}), 400)
    assert game_part(client) == before


def test_phone_action_before_its_call_is_held_409(app, client, table):
    """[issue 5] Pacing, mode "calls": the table holds a phone's action until its
    night step is called (409, nothing changes), while the GM's same action goes
    through at once. (The engine is ahead of the calls: the GM timed the
    thief out and the cupid's card lies in the centre, so the engine waits for
    the seer while the thief's call runs its window, RULES.md §4 [issue 16].)"""
    setup = mh8()
    setup["deal"]["D"], setup["center"] = "thief", ["cupid", "villager"]
    url = new_game(client, setup)["seats"][2]["url"]
    assert act(client, {"do": "timeout"}).status_code == 200
    assert table.state.step == "seer"
    seer = phone(app, url)
    before = game_part(client)
    assert seer.get(url + "/state").json["actions"] == []
    assert_error(seer.post(url + "/action", json={"do": "inspect", "target": "A"}), 409)
    assert game_part(client) == before
    assert act(client, SEER).status_code == 200


def test_phone_cannot_time_out_a_step(app, client, table, clock):
    """[issue 5] Only the GM or the clock ends a step: a phone's "timeout" is 409."""
    url = new_game(client)["seats"][2]["url"]
    seer = phone(app, url)
    call(table, clock, "seer")
    before = game_part(client)
    assert_error(seer.post(url + "/action", json={"do": "timeout"}), 409)
    assert game_part(client) == before


def cupid_first() -> dict:
    """mh8 with a cupid, whose call comes before the seer's (the night calls
    the deck's cards, RULES.md §4 [issue 16])."""
    setup = mh8()
    setup["deal"]["F"] = "cupid"
    return setup


def test_phone_with_a_stale_seq_is_409(app, client, table, clock):
    """[issue 5] seq on a phone: a seq from a view older than the current step is
    409 and nothing changes; the seq of its current view is accepted."""
    url = new_game(client, cupid_first())["seats"][2]["url"]
    seer = phone(app, url)
    old = seer.get(url + "/state").json["seq"]
    call(table, clock, "seer")
    current = seer.get(url + "/state").json["seq"]
    assert current != old
    before = game_part(client)
    assert_error(seer.post(url + "/action", json={"do": "inspect", "target": "A",
                                                  "seq": old - 1}), 409)
    assert game_part(client) == before
    r = seer.post(url + "/action", json={"do": "inspect", "target": "A", "seq": current})
    assert r.status_code == 200, r.json


def _to_the_day(client, table, clock) -> None:  # type: ignore[no-untyped-def]
    for action in NIGHT_1:
        assert act(client, action).status_code == 200
    for _ in range(200):
        if table.pace.mode == "discussion":
            return
        clock.advance(1)
        table.tick()
    raise AssertionError(table.pace)


def test_votes_are_held_during_the_discussion_but_not_the_gms(app, client, table, clock):
    """[issue 5] Pacing: during the day's discussion a phone's vote is 409 (held);
    once discussion_s has passed the ballot opens and the phone's vote counts; a GM
    vote is never held."""
    seats = new_game(client)["seats"]
    devices = [phone(app, s["url"]) for s in seats]
    _to_the_day(client, table, clock)
    before = game_part(client)
    r = devices[2].post(seats[2]["url"] + "/action", json={"do": "vote", "target": "A"})
    assert_error(r, 409)
    assert game_part(client) == before
    assert act(client, {"actor": "C", "do": "vote", "target": "A"}).status_code == 200
    # the GM's vote ended the discussion: the ballot is open to phones
    r = devices[3].post(seats[3]["url"] + "/action", json={"do": "vote", "target": "A"})
    assert r.status_code == 200, r.json
    assert last_act(client)["actor"] == 3


def test_ballot_opens_to_phones_when_the_discussion_is_over(app, client, table, clock):
    """[issue 5] Pacing: once discussion_s (300 s here) has passed on the clock the
    ballot opens and a phone's vote counts."""
    seats = new_game(client)["seats"]
    device = phone(app, seats[4]["url"])
    _to_the_day(client, table, clock)
    clock.advance(299)
    table.tick()
    assert_error(device.post(seats[4]["url"] + "/action", json={"do": "vote", "target": "A"}),
                 409)
    clock.advance(2)
    table.tick()
    r = device.post(seats[4]["url"] + "/action", json={"do": "vote", "target": "A"})
    assert r.status_code == 200, r.json
    assert last_act(client)["actor"] == 4


def test_ballot_times_out_on_the_clock(client, table, clock):
    """[issue 5] Pacing: a ballot nobody finishes closes at its deadline with the
    engine's timeout (table.tick on the fake clock, no sleeping)."""
    new_game(client)
    _to_the_day(client, table, clock)
    step = gm_state(client)["step"]
    clock.advance(301)
    table.tick()  # the discussion ends: the ballot opens for ballot_s
    assert table.pace.mode == "ballot" and gm_state(client)["step"] == step
    clock.advance(91)
    table.tick()
    assert gm_state(client)["step"] != step


# --- streams ---------------------------------------------------------------------------------


def test_gm_stream_sends_the_full_view_then_one_message_per_change(client, table):
    """[issue 5] GET /api/stream (GM): server-sent events; the first message is the
    full GM view, then one message per change, with heartbeat comments between;
    closing the response ends the listener."""
    new_game(client)
    r = client.get("/api/stream", headers=GM, buffered=False)
    assert r.status_code == 200 and r.mimetype == "text/event-stream"
    first = sse(r)
    assert first[-1].startswith(": heartbeat")
    messages = data_messages(first)
    assert len(messages) == 1
    assert messages[0] == client.get("/api/gm", headers=GM).json
    assert table.listeners() == 1
    act(client, SEER)
    after = data_messages(sse(r))
    assert len(after) == 1
    assert after[0]["seq"] == 1 and after[0] == client.get("/api/gm", headers=GM).json
    assert data_messages(sse(r)) == []  # nothing changed: heartbeats only
    r.close()
    assert table.listeners() == 0


def test_seat_stream_sends_the_seat_view(app, client, table, clock):
    """[issue 5] GET /p/<token>/stream: the seat's own view first (no other card),
    then a new message when that view changes."""
    url = new_game(client, cupid_first())["seats"][2]["url"]
    seer = phone(app, url)
    r = seer.get(url + "/stream", buffered=False)
    assert r.status_code == 200
    messages = data_messages(sse(r))
    assert len(messages) == 1 and messages[0] == seer.get(url + "/state").json
    assert messages[0]["name"] == "C"
    assert [p["role"] for p in messages[0]["players"]].count(None) == 7
    call(table, clock, "seer")
    later = data_messages(sse(r))
    assert later and later[-1] == seer.get(url + "/state").json and later[-1]["actions"]
    r.close()
    assert table.listeners() == 0


def test_reissue_closes_the_seat_stream(app, client):
    """[issue 5] A reissued link ends its open stream (an "event: closed" message)."""
    url = new_game(client)["seats"][2]["url"]
    seer = phone(app, url)
    r = seer.get(url + "/stream", buffered=False)
    sse(r)
    client.post("/api/seats/2/reissue", json={}, headers=GM)
    rest = sse(r)
    assert any(c.startswith("event: closed") for c in rest)
    r.close()


def test_public_stream_starts_with_the_lobby_and_follows_the_table(client, table):
    """[issue 5] GET /api/public/stream (no auth): the lobby first when there is no
    game, then the public view once a game begins; no card is in it."""
    r = client.get("/api/public/stream", buffered=False)
    assert r.status_code == 200
    first = data_messages(sse(r))
    assert first[0]["phase"] == "lobby" and first[0]["players"] == []
    new_game(client)
    later = data_messages(sse(r))
    assert later and later[-1] == client.get("/api/public").json
    assert all(p.get("role") is None for p in later[-1]["players"])
    r.close()
    assert table.listeners() == 0


def test_gm_stream_needs_the_token(client):
    """[issue 5] GET /api/stream without a token is 401, with a wrong one 403."""
    new_game(client)
    assert_error(client.get("/api/stream"), 401)
    assert_error(client.get("/api/stream", headers=BAD_GM), 403)


def test_public_view_hides_the_cards(client):
    """[issue 5] GET /api/public during a game: no card of a living player, and
    never cached."""
    new_game(client)
    r = client.get("/api/public")
    assert r.status_code == 200 and r.json["game"] is not None
    assert all(p.get("role") is None for p in r.json["players"])
    assert r.headers["Cache-Control"] == "no-store"


@pytest.mark.parametrize("raw", [b"[1, 2]", b"7", b'"x"', b'{"to": 1, "also": 2}', b"NaN",
                                 b"{}", b'{"to": 1}', b'{"expect": "1"}', b'{"expect": 1.0}'])
def test_undo_with_a_body_it_cannot_read_is_400_and_undoes_nothing(client, raw):
    """[issue 5] bad input gets a clear error and changes nothing: an undo whose
    body is not {"expect": N} or {"expect": N, "to": K} (or not JSON: NaN)
    is refused. [issue 17] {} and {"to": K} name no count: refused too."""
    client.post("/api/games", json=mh8(), headers=GM)
    assert client.post("/api/actions", json=SEER, headers=GM).status_code == 200
    before = client.get("/api/state", headers=GM).get_json()
    r = client.post("/api/undo", data=raw, headers={**GM, "Content-Type": "application/json"})
    assert_error(r, 400)
    assert client.get("/api/state", headers=GM).get_json() == before
