"""The secrecy census [issue 40] (companion/hub/census.py, docs/how/security.md):
every route of the hub names who may ask it and what it may answer, a route
that does not is refused (and fails here first), and games that differ only
in hidden facts look the same through every channel of the census to every
audience that may not know the difference.

The pairs of games (`PAIRS`) are drawn at random from a seed: every ruleset,
The Village's professions, New Moon's event cards, narrated games and the
game master's, ghosts on and off. In a pair two seats swap the seer's card
(or the confessor's profession) and every hidden choice — whom the seer
looks at, whether the witch or the confessor acts, when in its window — is
drawn for each game on its own; every public move (the pack's victim, the
day's ballots) is the same. tests/hub/lockstep.py plays them.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from companion.hub import census, create_app
from companion.store import Store
from companion.table import Table
from companion.table.pacing import Settings

from .conftest import GM, GM_TOKEN
from .lockstep import PIN, Move, Spec, assert_same, lockstep, no_story_before_the_end

# --- the census itself ----------------------------------------------------------------


def census_gaps(app) -> tuple[set[str], set[str]]:  # type: ignore[no-untyped-def]
    """The app's endpoints the census does not name, and the census's names
    that are no endpoint of the app."""
    endpoints = {rule.endpoint for rule in app.url_map.iter_rules()}
    return endpoints - census.ROUTES.keys(), census.ROUTES.keys() - endpoints


def test_every_route_of_the_hub_is_in_the_census(app) -> None:  # type: ignore[no-untyped-def]
    """[issue 40] Flask's URL map, walked: every endpoint has its audience and
    what it shows, and the census names no route that is gone."""
    missing, stale = census_gaps(app)
    assert not missing, f"routes without an audience: add them to census.ROUTES: {missing}"
    assert not stale, f"census entries with no route: {stale}"


def test_a_route_added_without_an_audience_fails_here_and_is_refused(table) -> None:  # type: ignore[no-untyped-def]
    """[issue 40] The next feature's route, added without a census entry:
    the walk above names it, and the hub refuses it before it runs (403,
    fail closed) — nothing it would answer reaches anyone."""
    app = create_app(table, GM_TOKEN, {"TESTING": True})
    ran = []
    app.add_url_rule("/api/cards", "api.cards", lambda: ran.append(1) or "every card")
    assert census_gaps(app)[0] == {"api.cards"}
    for headers in ({}, GM):
        got = app.test_client().get("/api/cards", headers=headers)
        assert got.status_code == 403 and "not in the secrecy census" in got.get_json()["error"]
    assert ran == []


def test_each_route_refuses_whom_its_census_entry_does_not_name(app, client) -> None:  # type: ignore[no-untyped-def]
    """[issue 40] The census's `Who`, applied: a GM route answers 401
    without the token and 403 with a wrong one; a seat's route answers 403
    to a device that does not hold the seat; every answer but a cached
    file's says no-store, its errors too (the lost phone's 404 QR)."""
    from .conftest import jp9

    seats = client.post("/api/games", json=jp9(), headers=GM).get_json()["seats"]
    phone = app.test_client()
    phone.get(seats[0]["url"])
    stranger = app.test_client()
    for rule in app.url_map.iter_rules():
        channel = census.ROUTES[rule.endpoint]
        method = "GET" if "GET" in (rule.methods or ()) else sorted(rule.methods - {"OPTIONS"})[0]
        path = rule.rule.replace("<int:game>", "1").replace("<int:seat>", "0").replace(
            "<int:n>", "0").replace("<path:name>", "x").replace("<code>", "x").replace(
            "<path:filename>", "hub.css").replace("<path:path>", "index.html").replace(
            "<token>", seats[0]["url"].rsplit("/", 1)[1])
        if channel.who is census.Who.GM:
            nothing = stranger.open(path, method=method, json={})
            wrong = stranger.open(path, method=method, json={},
                                  headers={"Authorization": "Bearer wrong"})
            assert (nothing.status_code, wrong.status_code) == (401, 403), path
            if channel.page:  # a page's refusal: its notice, in words
                assert "Open the game master's URL with its token." in nothing.get_data(
                    as_text=True), path
                assert "wrong game master token" in wrong.get_data(as_text=True), path
            else:  # the API's: one sentence, exactly
                assert nothing.get_json() == {"error": NEED_TOKEN}, path
                assert wrong.get_json() == {"error": "wrong game master token"}, path
        elif channel.who is census.Who.SEAT:
            refused = stranger.open(path, method=method, json={})
            assert refused.status_code == 403, path
            assert "already open on another phone" in refused.get_json()["error"], path
            assert refused.headers["Cache-Control"] == "no-store", path
        if method == "GET" and not channel.cached and not rule.endpoint.endswith("stream"):
            got = phone.get(path, headers=GM)
            assert got.headers.get("Cache-Control") == "no-store", (path, got.status_code)
    assert stranger.get("/api/lost/qr.svg").headers["Cache-Control"] == "no-store"
    # a route the census marks `cached` keeps its own caching (a static file's)
    with stranger.get("/static/hub.css") as css:
        assert css.status_code == 200 and css.headers.get("Cache-Control") != "no-store"
    # a seat's route asked by a device that holds no seat, of a seat no phone holds
    unopened = seats[5]["url"]
    refused = stranger.get(unopened + "/state")
    assert (refused.status_code, refused.get_json()) == (
        403, {"error": "open your seat's link first"})


NEED_TOKEN = "the game master's token is needed (open the GM URL)"
NARRATES = "the hub narrates this game: nobody sees its secrets, the host neither"
RECORD_LATER = "the hub narrates this game: its record is read once it is over"
OPENED = ("a phone has opened this seat: while the hub narrates, its code is never shown "
          "again (a lost phone: the table votes, on the host page)")


def test_a_narrated_games_host_is_refused_each_secret_in_one_sentence(quiet, table) -> None:  # type: ignore[no-untyped-def]
    """[issue 40] The census's `Shows`, applied to the token while a narrated
    game runs: every SECRETS route 403 ("nobody sees its secrets"), the
    current game's RECORD 403 (a past one's 200), an opened seat's QR 403 (an
    unopened one's 200), the tablet's page the host's; in a game master's
    game the same token opens them all."""
    client = quiet.test_client()
    past = client.post("/api/games", json=_jp8(), headers=GM).get_json()["id"]
    seats, _ = _narrated(quiet, _jp8())
    game = table.game
    fresh = client.post("/api/seats/0/release", headers=GM, json={})
    assert fresh.status_code == 403 and fresh.get_json() == {"error": NARRATES}
    for rule in quiet.url_map.iter_rules():
        channel = census.ROUTES[rule.endpoint]
        if channel.shows is not census.Shows.SECRETS or "GET" not in (rule.methods or ()):
            continue
        got = client.get(rule.rule, headers=GM)
        if channel.page:
            assert got.status_code == 403 and NARRATES in got.get_data(as_text=True), rule
        elif not rule.endpoint.endswith("stream"):
            assert (got.status_code, got.get_json()) == (403, {"error": NARRATES}), rule
    for path in (f"/api/games/{game}", f"/api/games/{game}/view"):
        got = client.get(path, headers=GM)
        assert (got.status_code, got.get_json()) == (403, {"error": RECORD_LATER}), path
    assert client.get(f"/api/games/{past}", headers=GM).status_code == 200
    opened = client.get("/api/seats/2/qr.svg", headers=GM)
    assert (opened.status_code, opened.get_json()) == (403, {"error": OPENED})
    table.seating.claims[2] = None  # as if no phone had opened it
    assert client.get("/api/seats/2/qr.svg", headers=GM).status_code == 200
    assert client.get("/gm", headers=GM).headers["Location"].endswith("/host")


# --- the six leaks, each as it was found ------------------------------------------------


@pytest.fixture
def quiet(table, monkeypatch):  # type: ignore[no-untyped-def]
    """The hub over the fixture's table, with no speech engine: a narrated
    game's text without its audio (its clock waits for no voice)."""
    from companion.speech import Cache

    monkeypatch.setattr("companion.hub.speech.Cache",
                        lambda folder, engines=None: Cache(folder, engines={}))
    return create_app(table, GM_TOKEN, {"TESTING": True, "HEARTBEAT_S": 0.05})


def _narrated(app, setup: dict) -> tuple[list[dict], list]:  # type: ignore[no-untyped-def]
    """A narrated game dealt by the host, every phone opened with its PIN."""
    made = app.test_client().post("/api/games", json={**setup, "narrated": True}, headers=GM)
    assert made.status_code == 201, made.get_json()
    seats = made.get_json()["seats"]
    phones = []
    for s in seats:
        phone = app.test_client()
        assert phone.get(s["url"]).status_code == 200
        assert phone.post(s["url"] + "/pin", json={"pin": PIN}).status_code == 200
        phones.append(phone)
    return seats, phones


JP8_END = ["werewolf", "werewolf", "werewolf", "seer", "villager", "villager", "villager",
           "villager"]


def _jp8(**options: object) -> dict:
    players = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus", "Hal"]
    return {"ruleset": "jp-standard", "players": players, "deal": dict(zip(players, JP8_END)),
            "seed": 3, "options": {"night_s": 60, "discussion_s": 5, **options}}


def _to_night_2(app, table, clock) -> None:  # type: ignore[no-untyped-def]
    """Night 1 runs out; day 1 executes Eve; night 2's window opens."""
    for _ in range(400):
        clock.advance(1)
        table.tick()
        pc = table.pace
        if pc.mode == "ballot" and table.state.n == 1:
            for seat in range(8):
                if seat != 4:
                    table.act_seat(seat, {"do": "vote", "target": "Eve"})
        if pc.mode == "calls" and pc.night == 2:
            return
    raise AssertionError("night 2 never came")


def test_the_narrated_host_reads_the_story_like_anyone(quiet, table, clock) -> None:  # type: ignore[no-untyped-def]
    """[issue 40 leak 1] In a narrated game the token holder is a player: GET
    /api/games/<current>/story answers him 403 while the game runs, as
    /api/gm does, and 200 once the table has told the end. In a game master's
    game the GM reads it all along."""
    app, client = quiet, quiet.test_client()
    _narrated(app, _jp8())
    game = table.game
    assert client.get(f"/api/games/{game}/story", headers=GM).status_code == 403
    assert client.get("/api/gm", headers=GM).status_code == 403
    gm_game = client.post("/api/games", json=_jp8(), headers=GM).get_json()["id"]
    assert client.get(f"/api/games/{gm_game}/story", headers=GM).status_code == 200
    assert client.get(f"/api/games/{gm_game}/story").status_code == 403
    # the narrated game, now past: still not its host's, as it never ended
    assert client.get(f"/api/games/{game}/story", headers=GM).status_code == 403


def test_nothing_of_the_end_is_said_or_shown_before_the_table_tells_it(quiet, table, clock) -> None:  # type: ignore[no-untyped-def]
    """[issue 40 leak 2] A narrated jp-standard game: the wolves' deciding
    attack at 1 s into night 2's 60 s window ends the log, not the table.
    Until the window's end the public view is the night, the speech says
    nothing of the end or the cards, the story is nobody's (the host's and
    every seat's 403), the game list tells no winner, a lost phone may
    still be voted on; at the window's end the dawn tells the end, and the
    story begins after it."""
    app, client = quiet, quiet.test_client()
    from companion.table.pace import STORY_START_S

    seats, phones = _narrated(app, _jp8())
    _to_night_2(app, table, clock)
    clock.advance(1)
    table.act_seat(3, {"do": "inspect", "target": "Ann"})  # the seer: the engine waits for nobody
    table.act_seat(0, {"do": "attack", "target": "Fay"})
    assert table.state.phase == "over" and not table.ended  # the log's end, not the table's
    end = table.pace.deadline
    said_before = len(client.get("/api/speech?after=-1").get_json()["said"])
    assert client.post("/api/seats/5/lost", headers=GM, json={}).status_code == 200
    client.post("/api/lost/cancel", headers=GM, json={})
    while not table.ended:  # the window, then Fay's last words (roles are hidden)
        public = client.get("/api/public").get_json()
        assert public["phase"] == "night" and "story" not in public
        assert client.get(f"/api/games/{table.game}/story", headers=GM).status_code == 403
        assert phones[5].get(seats[5]["url"] + "/story").status_code == 403
        assert [g["winner"] for g in client.get("/api/games", headers=GM).get_json()["games"]] \
            == [None]
        said = client.get("/api/speech?after=-1").get_json()["said"]
        if clock.t < end:  # nothing new is said in the night
            assert len(said) == said_before, said[said_before:]
        assert not any("Werewolf" in u["text"] or "人狼" in u["text"] for u in said)
        clock.advance(1)
        table.tick()
    assert clock.t >= end  # not a moment before the window's end
    assert client.get("/api/public").get_json()["phase"] == "over"
    assert client.get(f"/api/games/{table.game}/story", headers=GM).status_code == 200
    clock.advance(STORY_START_S + 0.1)
    table.tick()
    assert "story" in client.get("/api/public").get_json()


def test_a_reissued_seat_stays_locked_by_its_pin_across_a_restart(quiet, table, clock,
                                                                  tmp_path) -> None:  # type: ignore[no-untyped-def]
    """[issue 40 leak 3] After the table's vote reissues a seat, polling the
    TV's QR with no credentials, or reading the host's seats after a
    restart, gives a link that opens a PIN field, never the card; the seat's
    player opens it with his PIN. A seat whose player never chose a PIN is
    not reissued by a vote (its new link would open for anyone)."""
    app, client = quiet, quiet.test_client()
    seats, phones = _narrated(app, _jp8())
    assert client.post("/api/seats/3/lost", headers=GM, json={}).status_code == 200
    for seat in (0, 1, 2, 4):
        assert phones[seat].post(seats[seat]["url"] + "/lost", json={"yes": True}).status_code \
            == 200
    new = table.seats()[3]["url"]
    # a restart: the vote's memory is gone, the seat is still locked
    again = Table(Store(table.store.path), clock=clock, rng=random.Random(1))
    again.resume()
    app2 = create_app(again, GM_TOKEN, {"TESTING": True})
    listed = app2.test_client().get("/api/seats", headers=GM).get_json()["seats"][3]["url"]
    for link in {new, listed} - {None}:
        grab = app2.test_client()
        page = grab.get(link)
        assert page.status_code == 200 and 'data-post="unlock"' in page.get_data(as_text=True)
        assert grab.get(link + "/state").status_code == 403
        assert grab.post(link + "/unlock", json={"pin": "1111"}).status_code == 403
    dan = app2.test_client()
    dan.get(new)
    assert dan.post(new + "/unlock", json={"pin": PIN}).status_code == 200
    assert dan.get(new + "/state").get_json()["role"] == "seer"


def test_five_wrong_pins_and_the_link_opens_no_more(quiet, table) -> None:  # type: ignore[no-untyped-def]
    """[issue 40] A guessed PIN: 5 tries at 4 digits is a 1-in-2000 chance;
    the sixth try, the right PIN included, is refused: the table votes again.
    A PIN is set once (403 to change it), is 4–8 digits (400), and a game
    master's game asks none (no `pin` in a seat's view, 409 to set one)."""
    app, client = quiet, quiet.test_client()
    seats, phones = _narrated(app, _jp8())
    assert phones[0].post(seats[0]["url"] + "/pin", json={"pin": "9999"}).status_code == 403
    assert phones[0].post(seats[0]["url"] + "/pin", json={"pin": "12"}).status_code == 400
    table.seating.claims[3] = None  # as a vote's reissue leaves it (its link kept: simpler)
    table.seating.claims[3] = None
    thief = app.test_client()
    thief.get(seats[3]["url"])
    for _ in range(5):
        assert thief.post(seats[3]["url"] + "/unlock", json={"pin": "0000"}).status_code == 403
    last = thief.post(seats[3]["url"] + "/unlock", json={"pin": PIN})
    assert last.status_code == 403 and "too many" in last.get_json()["error"]
    gm = client.post("/api/games", json=_jp8(), headers=GM).get_json()["seats"]
    phone = app.test_client()
    phone.get(gm[0]["url"])
    assert "pin" not in phone.get(gm[0]["url"] + "/state").get_json()
    assert phone.post(gm[0]["url"] + "/pin", json={"pin": PIN}).status_code == 409


def test_a_seat_without_a_pin_is_never_reissued_by_a_vote(quiet, table) -> None:  # type: ignore[no-untyped-def]
    """[issue 40] Its new link would open for anyone: the vote is refused (409)."""
    app, client = quiet, quiet.test_client()
    made = client.post("/api/games", json={**_jp8(), "narrated": True}, headers=GM).get_json()
    app.test_client().get(made["seats"][2]["url"])  # opened, no PIN chosen yet
    refused = client.post("/api/seats/2/lost", headers=GM, json={})
    assert refused.status_code == 409 and "PIN" in refused.get_json()["error"]


# --- non-interference over the census ---------------------------------------------------

FAST = Settings(call_s=(4.0, 6.0), ballot_s=30.0, prompt_s=6.0, last_words_s=3.0,
                verdict_s=3.0)
NAMES = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon", "Kim", "Lea"]


def _after(rng: random.Random, window: float) -> float | str:
    """When within its window a hidden move is made: at once, at a random
    moment, at its last half second."""
    pick = rng.random()
    return 0.0 if pick < 0.3 else "last" if pick > 0.7 else round(rng.uniform(0.5, window - 1), 1)


def _hidden(rng: random.Random, moment: str, seat: int, action: dict, window: float) -> list[Move]:
    """A hidden move, made (at a random moment) or never."""
    return [] if rng.random() < 0.25 else [(moment, _after(rng, window), seat, action)]


def _pair_mh(seed: int, ruleset: str, narrated: bool, ghosts: bool) -> tuple[Spec, Spec]:
    """8 players (2 wolves, the seer, the witch, villagers): two seats swap
    the seer and a villager; the seer's look and the witch's pass are each
    game's own; the pack's victims and day 1's ballots are the same."""
    rng = random.Random(seed)
    cards = ["werewolf", "werewolf", "seer", "witch"] + ["villager"] * 4
    rng.shuffle(cards)
    seer = cards.index("seer")
    swap = rng.choice([i for i, c in enumerate(cards) if c == "villager"])
    plain = [i for i, c in enumerate(cards) if c == "villager" and i != swap]
    victim1, executed, victim2 = rng.sample(plain, 3)
    wolves = [i for i, c in enumerate(cards) if c == "werewolf"]
    witch = cards.index("witch")
    options = {"sheriff": False, "reveal_on_death": rng.random() < 0.5, "ghosts": ghosts,
               "discussion_s": 4, "first_night_attack": True, "vote_timeout": "abstain"}
    public: list[Move] = []
    for night, victim in ((1, victim1), (2, victim2)):
        for k, wolf in enumerate(wolves):  # the wolves see each other: the same moments
            public.append((f"{night}:wolves", round(rng.uniform(0, 5), 1) + k * 0.0, wolf,
                           {"do": "attack", "target": NAMES[victim]}))
    public += [("day1:ballot", 0.0, s, {"do": "vote", "target": NAMES[executed]})
               for s in range(8) if s not in (victim1, executed)]
    specs = []
    for game in (0, 1):
        deal = list(cards)
        if game:
            deal[seer], deal[swap] = deal[swap], deal[seer]
        own = random.Random(seed * 7 + game)
        moves = list(public)
        for night in (1, 2):
            target = own.choice([NAMES[i] for i in range(8)])
            moves += _hidden(own, f"{night}:seer", deal.index("seer"),
                             {"do": "inspect", "target": target}, 4)
            moves += _hidden(own, f"{night}:witch", witch,
                             {"do": "potion", "heal": False, "poison": None}, 4)
        dead = {victim1, executed, victim2} if ghosts else set()
        observers = [i for i in range(8) if i not in (seer, swap, witch) and i not in dead]
        specs.append(Spec({"ruleset": ruleset, "players": NAMES[:8],
                           "deal": dict(zip(NAMES, deal)), "seed": seed, "options": options,
                           "narrated": narrated}, moves, observers,
                          f"{ruleset} seed {seed} game {'ab'[game]}"))
    return specs[0], specs[1]


def _pair_village(seed: int, narrated: bool) -> tuple[Spec, Spec]:
    """12 players of BGA with The Village's professions and New Moon's six
    event cards: two villagers swap the confessor's and the baker's
    professions (both own a building: who is a drifter the schoolteacher's
    and the barber's choices show, by the rules, RULES.md §8), and the
    confessor confesses (or not) when he likes; the seer's looks and the
    baker's finds are each game's own."""
    rng = random.Random(seed)
    cards = ["werewolf"] * 3 + ["seer"] + ["villager"] * 8
    rng.shuffle(cards)
    villagers = [i for i, c in enumerate(cards) if c == "villager"]
    confessor, drifter, victim1, executed, victim2 = rng.sample(villagers, 5)
    others = ["steward", "farmer", "schoolteacher", "tavern-keeper", "barber", "lord",
              "bonesetter"]
    rng.shuffle(others)
    rest = [i for i in range(12) if i not in (confessor, drifter, victim1, executed, victim2)]
    base = {**dict(zip(rest, others)), victim1: "drifter", executed: "drifter",
            victim2: "drifter"}
    keeper = next((i for i, p in base.items() if p == "tavern-keeper"), None)
    wolves = [i for i, c in enumerate(cards) if c == "werewolf"]
    seer = cards.index("seer")
    public: list[Move] = []
    for night, victim in ((1, victim1), (2, victim2)):
        for wolf in wolves:
            public.append((f"{night}:wolves", round(rng.uniform(0, 5), 1), wolf,
                           {"do": "attack", "target": NAMES[victim]}))
    # the tavern keeper's ballot first (RULES.md §8): the others' wait for hers
    public += [("day1:ballot", 0.0, s, {"do": "vote", "target": NAMES[executed]})
               for s in sorted(range(12), key=lambda s: s != keeper)
               if s not in (victim1, executed)]
    options = {"sheriff": False, "discussion_s": 8, "first_night_attack": True,
               "reveal_on_death": rng.random() < 0.5, "vote_timeout": "abstain",
               "events": ["wolves-ally", "quiet-night", "two-executions", "one-voice",
                          "open-ballots", "no-discussion"]}
    specs = []
    for game in (0, 1):
        profs = dict(base)
        profs[confessor], profs[drifter] = ("confessor", "baker") if not game else \
            ("baker", "confessor")
        own = random.Random(seed * 11 + game)
        moves = list(public)
        holder = confessor if not game else drifter
        moves += _hidden(own, "day1:discussion", holder,
                         {"do": "confess", "target": NAMES[own.choice(wolves)]}, 8)
        for night in (1, 2):
            moves += _hidden(own, f"{night}:seer", seer,
                             {"do": "inspect", "target": NAMES[own.randrange(12)]}, 4)
        # the bonesetter is shown which once-only powers are used (his own choice's, by
        # the rules, RULES.md §8): whether the confessor confessed is his to know
        bonesetter = next((i for i, p in base.items() if p == "bonesetter"), None)
        observers = [i for i in range(12) if i not in (confessor, drifter, seer, bonesetter)]
        specs.append(Spec({"ruleset": "bga", "players": NAMES, "deal": dict(zip(NAMES, cards)),
                           "professions": {NAMES[i]: p for i, p in profs.items()},
                           "seed": seed, "options": options, "narrated": narrated},
                          moves, observers, f"village seed {seed} game {'ab'[game]}"))
    return specs[0], specs[1]


def _pair_jp_end(seed: int, wolves_observe: bool) -> tuple[Spec, Spec]:
    """A narrated jp-standard game of 8 (3 wolves) to its end on night 2:
    the seer and a villager swap cards; night 1 ends on every phone's Ready
    (the seer's look made or not before it); day 1 executes a villager; the
    pack's deciding attack comes at its own moment in each game when the
    wolves are not compared (the end is told at the window's end, whenever
    it was decided)."""
    rng = random.Random(seed)
    cards = list(JP8_END)
    rng.shuffle(cards)
    seer = cards.index("seer")
    villagers = [i for i, c in enumerate(cards) if c == "villager"]
    swap, executed, victim = rng.sample(villagers, 3)
    wolves = [i for i, c in enumerate(cards) if c == "werewolf"]
    ready_at = round(rng.uniform(1, 3), 1)
    public: list[Move] = [("1:actions", ready_at, s, {"do": "ready"}) for s in range(8)]
    public += [("day1:ballot", 0.0, s, {"do": "vote", "target": NAMES[executed]})
               for s in range(8) if s != executed]
    shared_attack = round(rng.uniform(0, 3.5), 1)
    specs = []
    for game in (0, 1):
        deal = list(cards)
        if game:
            deal[seer], deal[swap] = deal[swap], deal[seer]
        own = random.Random(seed * 13 + game)
        moves = list(public)
        look = _after(own, ready_at)  # before her Ready, her last word for the window
        moves += [] if own.random() < 0.3 else [
            ("1:actions", 0.0 if look == "last" else min(float(look), ready_at - 0.5),
             deal.index("seer"), {"do": "inspect", "target": NAMES[own.randrange(8)]})]
        when = shared_attack if wolves_observe else _after(own, 4)
        moves.append(("2:actions", when, wolves[0], {"do": "attack", "target": NAMES[victim]}))
        observers = [i for i in range(8) if i not in (seer, swap)
                     and (wolves_observe or i not in wolves)]
        specs.append(Spec({"ruleset": "jp-standard", "players": NAMES[:8],
                           "deal": dict(zip(NAMES, deal)), "seed": seed, "narrated": True,
                           "options": {"discussion_s": 4}}, moves, observers,
                          f"jp end seed {seed} game {'ab'[game]}"))
    return specs[0], specs[1]


def _day2_or_end(table) -> bool:  # type: ignore[no-untyped-def]
    return table.ended or (table.state.n == 2 and table.pace.mode in ("discussion", "ballot"))


PAIRS = {
    "millers-hollow, the GM's": lambda seed: _pair_mh(seed, "millers-hollow", False, False),
    "bga, narrated, ghosts": lambda seed: _pair_mh(seed, "bga", True, True),
    "bga, The Village, every event card": lambda seed: _pair_village(seed, False),
    "bga, The Village, narrated": lambda seed: _pair_village(seed, True),
    "jp-standard, narrated, to the end": lambda seed: _pair_jp_end(seed, False),
    "jp-standard, narrated, the wolves watching": lambda seed: _pair_jp_end(seed, True),
}
#: seeds a run plays per kind of pair: WEREWOLF_CENSUS_SEEDS=20 for a longer run
SEEDS = range(int(os.environ.get("WEREWOLF_CENSUS_SEEDS", "1")))


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("kind", list(PAIRS))
def test_games_that_differ_in_hidden_facts_look_the_same_through_every_channel(
        tmp_path: Path, kind: str, seed: int) -> None:
    """[issue 40] Non-interference over the census: in a pair that differs
    only in who holds a card and what it did (and when), the table, anyone,
    every observing seat (living and dead) and the narrated game's host are
    shown the same bytes at the same half second: views, streams and every
    route the census opens to them. Nobody's frame holds the story before
    the table tells the end."""
    a, b = PAIRS[kind](1000 * (seed + 1) + len(kind))
    end = kind.endswith("to the end") or kind.endswith("watching")
    fa, fb = lockstep(tmp_path, [a, b], (lambda t: t.ended) if end else _day2_or_end,
                      settings=FAST, after=24 if end else 0)
    assert_same(fa, fb, kind)
    no_story_before_the_end(fa)
    routes = next(f["routes"] for f in fa if "routes" in f)
    assert any(key.startswith("anyone ") for key in routes)
    assert any(key.startswith("seat:") for key in routes)
    if a.setup.get("narrated"):
        assert any(key.startswith("host ") for key in routes)
    if end:
        assert fa[-1]["where"] == "over" and '"story"' in str(fa[-1]["public"])
