"""Hypothesis against the hub's HTTP API ([issue 5] Errors: "never a 500 and
never a stack trace, whatever the body"): random JSON bodies and random
action-like objects to every POST endpoint, as the GM and as a phone, and random
sequences of legal and illegal actions, undos, timer presses and clock ticks.
Every answer is below 500 and JSON; every refused one (>= 400) leaves GET
/api/state identical.

Each test builds its own hub (a table over SQLite in a temporary folder and a
fake clock) because hypothesis runs many examples per test function."""

from __future__ import annotations

import json
import random
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.engine.actions import ACTION_IDS
from companion.hub import create_app
from companion.store import Store
from companion.table import Table

from .conftest import GM, GM_TOKEN, FakeClock, jp9, mh8

NAMES = list("ABCDEFGHI")
SETUPS = [mh8(), jp9(), mh8(seed=5, sheriff=False, tie="none"),
          {"ruleset": "bga", "players": [f"P{i}" for i in range(10)], "seed": 2},
          {"ruleset": "millers-hollow", "players": list("ABCDEFGHIJ"), "seed": 4,
           "deal": dict(zip("ABCDEFGHIJ", ["werewolf", "werewolf", "thief", "cupid", "witch",
                                          "little-girl", "hunter", "seer", "villager",
                                          "villager"])),
           "center": ["villager", "defender"]}]
POST_PATHS = ["/api/games", "/api/actions", "/api/undo", "/api/timer", "/api/seats/{n}/reissue",
              "/api/seats/{n}/release", "phone"]
FUZZ = settings(max_examples=200, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

# --- strategies -------------------------------------------------------------------

scalars = (st.none() | st.booleans() | st.integers()
           | st.integers(min_value=-2**70, max_value=2**70) | st.floats()
           | st.text(max_size=12) | st.sampled_from(NAMES + ["P1", "Zed", ""]))
json_values = st.recursive(
    scalars, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.text(max_size=8), inner, max_size=4), max_leaves=12)
names = st.sampled_from(NAMES + ["P0", "P3", "Zed", ""])
ACTIONISH = {
    "actor": names | json_values,
    "do": st.sampled_from(sorted(ACTION_IDS) + ["fly", "", "VOTE"]) | json_values,
    "target": names | json_values,
    "targets": st.lists(names, max_size=3) | json_values,
    "heal": st.booleans() | json_values,
    "poison": names | st.none() | json_values,
    "card": st.sampled_from([0, 1, 2, -1, True, 0.0]) | json_values,
    "mode": st.sampled_from(["discreet", "bold", "calls"]) | json_values,
    "seq": st.integers(min_value=-2, max_value=40) | st.integers() | json_values,
    "to": st.integers(min_value=-1, max_value=40) | json_values,
    "seconds": st.integers(min_value=-5, max_value=4000) | st.floats() | json_values,
    "outcome": st.sampled_from(["wolf", "caught", "nothing"]) | json_values,
}
actionish = st.fixed_dictionaries({}, optional=ACTIONISH)
bodies = st.one_of(
    json_values.map(lambda v: json.dumps(v).encode()),
    actionish.map(lambda v: json.dumps(v).encode()),
    st.dictionaries(st.sampled_from(sorted(ACTIONISH) + ["ruleset", "players", "deal",
                                                         "options", "center", "note"]),
                    json_values, max_size=6).map(lambda v: json.dumps(v).encode()),
    st.binary(max_size=40),
    st.sampled_from([b"", b"[" * 3000, b'{"do": ' * 2000, b"9" * 4400, b"\xff\xfe{}",
                     b"NaN", b"-Infinity", b'{"do": "vote", "seq": 1e400}']),
)


# --- the hub ----------------------------------------------------------------------


class Hub:
    """A hub of its own: a table over SQLite, a fake clock, a GM client, phones."""

    def __init__(self, folder: Path) -> None:
        self.clock = FakeClock()
        self.table = Table(Store(folder / "games.sqlite3"), clock=self.clock,
                           rng=random.Random(7))
        self.app = create_app(self.table, GM_TOKEN, {"TESTING": True, "HEARTBEAT_S": 0.05})
        self.gm = self.app.test_client()
        self.phones: dict[int, object] = {}

    def new_game(self, setup: dict) -> None:
        r = self.gm.post("/api/games", json=setup, headers=GM)
        assert r.status_code == 201, r.json
        self.phones = {}

    def state(self) -> dict:
        r = self.gm.get("/api/state", headers=GM)
        assert r.status_code == 200, r.json
        return r.json  # type: ignore[no-any-return]

    def phone(self, seat: int):  # type: ignore[no-untyped-def]
        """The device that holds `seat` (it opens the seat's current link)."""
        url = self.gm.get("/api/seats", headers=GM).json["seats"][seat]["url"]
        device = self.phones.setdefault(seat, self.app.test_client())
        device.get(url)  # type: ignore[attr-defined]
        return device, url

    def post(self, path: str, raw: bytes, seat: int = 0):  # type: ignore[no-untyped-def]
        headers = {"Content-Type": "application/json"}
        if path == "phone":
            device, url = self.phone(seat)
            return device.post(url + "/action", data=raw, headers=headers)
        return self.gm.post(path.format(n=seat), data=raw, headers={**GM, **headers})

    def check(self, r, before: dict) -> None:  # type: ignore[no-untyped-def]
        """Never a 5xx; errors are {"error": str}; a refusal changes nothing."""
        text = r.get_data(as_text=True)
        assert r.status_code < 500, (r.request.path, r.status_code, text[:300])
        if r.status_code >= 400:
            assert r.status_code in (400, 401, 403, 404, 409, 413), (r.status_code, text[:300])
            assert set(r.json) == {"error"} and isinstance(r.json["error"], str), text[:300]
            assert "Traceback" not in text
            assert self.state() == before, (r.request.path, r.json)


def legal_action(view: dict, rnd: random.Random) -> dict | None:
    """An action built from the GM view's choices (legal in form, likely legal now).
    It leans towards each choice's first target, so wolves agree and votes
    converge, and games reach their end."""
    names_ = [p["name"] for p in view["players"]]

    def pick(xs: list[str]) -> str:
        return xs[0] if rnd.random() < 0.7 else rnd.choice(xs)

    options = [(p, c) for p in view["players"] for c in p["actions"]]
    if not options:
        return None
    player, choice = rnd.choice(options)
    action: dict = {"actor": player["name"], "do": choice["do"]}
    targets = [names_[t] for t in choice.get("targets", [])]
    lo, hi = choice.get("count", [0, 0])
    if choice["do"] == "potion":
        action["heal"] = bool(choice.get("heal")) and rnd.random() < 0.5
        action["poison"] = pick(targets) if targets and rnd.random() < 0.5 else None
    elif choice["do"] in ("link", "charm", "allow") or hi > 1:
        k = rnd.randint(lo, min(hi, len(targets)))
        action["targets"] = rnd.sample(targets, k)
    elif targets:
        action["target"] = pick(targets)
    if choice.get("cards"):
        action["card"] = rnd.choice(choice["cards"])
    if choice.get("modes"):
        action["mode"] = rnd.choice(choice["modes"])
    return action


# --- properties -----------------------------------------------------------------------


def test_random_bodies_to_every_post_never_5xx(tmp_path_factory) -> None:  # type: ignore[no-untyped-def]
    """[issue 5] Errors: any JSON value, action-like objects with random types, raw
    bytes and hostile JSON, POSTed to every endpoint as the GM or as a seat's
    phone, get an answer below 500; a refused one leaves GET /api/state
    identical."""
    hub = Hub(tmp_path_factory.mktemp("fuzz-bodies"))
    hub.new_game(mh8())

    @FUZZ
    @given(path=st.sampled_from(POST_PATHS), raw=bodies,
           seat=st.integers(min_value=-1, max_value=10) | st.just(10**25),
           setup=st.sampled_from(range(len(SETUPS))), tick=st.integers(0, 30))
    def run(path: str, raw: bytes, seat: int, setup: int, tick: int) -> None:
        if hub.table.state is None or hub.table.state.winner is not None:
            hub.new_game(SETUPS[setup])
        hub.clock.advance(tick)
        hub.table.tick()
        size = len(hub.state()["players"])
        if path == "phone":
            seat = seat % size
        before = hub.state()
        hub.check(hub.post(path, raw, seat), before)

    run()


def test_random_action_objects_as_gm_and_phone_never_5xx(tmp_path_factory) -> None:  # type: ignore[no-untyped-def]
    """[issue 5] Errors: action-like objects (actor/do/target/targets/heal/poison/
    card/mode/seq with random types) sent as the GM to /api/actions and from a
    phone to /p/<token>/action are never a 5xx; a refused one changes nothing."""
    hub = Hub(tmp_path_factory.mktemp("fuzz-actions"))

    @FUZZ
    @given(action=actionish, setup=st.sampled_from(range(len(SETUPS))), seat=st.integers(0, 9),
           as_phone=st.booleans(), ticks=st.integers(0, 40))
    def run(action: dict, setup: int, seat: int, as_phone: bool, ticks: int) -> None:
        hub.new_game(SETUPS[setup])
        for _ in range(ticks):  # into the night's calls, maybe a live one
            hub.clock.advance(1)
            hub.table.tick()
        before = hub.state()
        raw = json.dumps(action).encode()
        path = "phone" if as_phone else "/api/actions"
        hub.check(hub.post(path, raw, seat % len(before["players"])), before)

    run()


STEP = st.one_of(
    st.tuples(st.just("legal"), st.integers(0, 2**32)),
    st.tuples(st.just("burst"), st.tuples(st.integers(0, 2**32), st.integers(1, 40))),
    st.tuples(st.just("legal-phone"), st.integers(0, 2**32)),
    st.tuples(st.just("gm"), actionish),
    st.tuples(st.just("phone"), st.tuples(st.integers(0, 9), actionish)),
    st.tuples(st.just("undo"), st.none() | st.integers(-1, 30) | json_values),
    st.tuples(st.just("timer"), st.fixed_dictionaries(
        {"do": st.sampled_from(["pause", "resume", "extend", "skip", "stop"])},
        optional={"seconds": st.integers(-1, 4000) | st.floats()})),
    st.tuples(st.just("tick"), st.floats(0, 400)),
    st.tuples(st.just("seat"), st.tuples(st.sampled_from(["reissue", "release"]),
                                         st.integers(-1, 10))),
)


def test_random_sequences_of_legal_and_illegal_actions_never_5xx(tmp_path_factory) -> None:  # type: ignore[no-untyped-def]
    """[issue 5] Errors: a game driven by a random mix of legal actions (built from
    the GM view's choices, sent by the GM or the actor's phone), malformed and
    out-of-turn actions, undos and rewinds, timer presses, seat reissues and
    releases and clock ticks never answers 5xx, and every refusal leaves GET
    /api/state identical."""
    hub = Hub(tmp_path_factory.mktemp("fuzz-games"))
    stats = {"deepest": 0, "phone-accepted": 0, "over": 0}

    @settings(max_examples=120, deadline=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(setup=st.sampled_from(range(len(SETUPS))), steps=st.lists(STEP, max_size=40))
    def run(setup: int, steps: list[tuple[str, object]]) -> None:
        hub.new_game(SETUPS[setup])
        size = len(SETUPS[setup]["players"])
        for kind, arg in steps:
            before = hub.state()
            if kind == "tick":
                hub.clock.advance(float(arg))  # type: ignore[arg-type]
                hub.table.tick()
                continue
            if kind == "burst":  # deep into the game: many legal GM actions in a row
                rnd = random.Random(arg[0])  # type: ignore[index]
                for _ in range(arg[1]):  # type: ignore[index]
                    action = legal_action(hub.gm.get("/api/gm", headers=GM).json, rnd)
                    if action is None:
                        break
                    r = hub.post("/api/actions", json.dumps(action).encode())
                    assert r.status_code == 200, (action, r.json)
                stats["deepest"] = max(stats["deepest"], len(hub.state()["events"]))
                continue
            if kind in ("legal", "legal-phone"):
                view = hub.gm.get("/api/gm", headers=GM).json
                action = legal_action(view, random.Random(arg))  # type: ignore[arg-type]
                if action is None:
                    continue
                if kind == "legal-phone":
                    seat = [p["name"] for p in view["players"]].index(action.pop("actor"))
                    r = hub.post("phone", json.dumps(action).encode(), seat)
                    stats["phone-accepted"] += r.status_code == 200
                else:
                    r = hub.post("/api/actions", json.dumps(action).encode())
                    assert r.status_code == 200, (action, r.json)  # the GM is never held
            elif kind == "gm":
                r = hub.post("/api/actions", json.dumps(arg).encode())
            elif kind == "phone":
                seat, action = arg  # type: ignore[misc]
                r = hub.post("phone", json.dumps(action).encode(), seat % size)
            elif kind == "undo":
                seq = hub.gm.get("/api/gm", headers=GM).json["seq"]  # named [issue 17]
                doc = {"expect": seq} if arg is None else {"expect": seq, "to": arg}
                r = hub.post("/api/undo", json.dumps(doc).encode())
            elif kind == "timer":
                r = hub.post("/api/timer", json.dumps(arg).encode())
            else:
                what, seat = arg  # type: ignore[misc]
                r = hub.post(f"/api/seats/{{n}}/{what}", b"", seat)
            hub.check(r, before)
            public = hub.gm.get("/api/public")
            assert public.status_code == 200
        stats["over"] += hub.state()["winner"] is not None

    run()
    # the generator reached into games: phones acted, some games ran long
    assert stats["phone-accepted"] > 0 and stats["deepest"] > 40, stats
