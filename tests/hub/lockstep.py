"""Games in lockstep: the non-interference proofs' one harness [issue 5,
issue 16, issue 40].

Two or more games that differ only in what some audience may not know (who
holds a card, whom a card chose, when within its window it acted) are
played side by side on fake clocks: every half second each clock moves, each
table ticks, and each phone acts when its plan says. At every half second a
`Frame` records what each audience is shown — the public view and each
observing seat's view, and every message their streams were pushed — and at
every half second where anything changed in any of the games (any stream's
push, the GM's included), everything the secrecy census
(companion/hub/census.py) lets each audience fetch: every GET route, as
anyone, as each observing seat's phone, and as the host's token in a
narrated game, bytes and status. `assert_same` then compares the frames
pairwise: the same bytes at the same half second, so a difference in a
view, a route or in the moment something changes (timing) fails.

    specs = [Spec(setup_a, moves_a, observers), Spec(setup_b, moves_b, observers)]
    frames = lockstep(tmp_path, specs, until=lambda t: t.ended)
    assert_same(frames[0], frames[1])

A move is `(moment, after, who, action)`:
- `moment`: where the table is — a night call ("seer", "wolves", "actions",
  "first-dead"; "2:seer" for night 2's only), "last-words", or a day's stage
  ("ballot", "discussion", "prompt"; "day1:ballot" for day 1's only). A move
  is made once, the first time its moment has lasted `after` seconds;
- `after`: seconds into the moment, or "last" (its window's last half second);
- `who`: a seat, or a card ("seer", "werewolf#2": its 2nd holder; a card the
  game does not deal: the move is not made);
- `action`: a phone's action (`Table.act_seat`), or {"do": "ready"} (night
  1's Ready), {"do": "decoy", "target": name} (the night screen's decoy tap).

Tokens, device cookies and PINs are drawn from a per-game counter, so two
games of a pair hand out the same links: a QR code is the same bytes when the
games are the same to its audience.
"""

from __future__ import annotations

import json
import random
import re
import secrets
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any
from unittest import mock

from companion.hub import census, create_app
from companion.speech import Cache
from companion.store import Store
from companion.table import Table, TableError
from companion.table.pacing import Settings

from .conftest import FakeClock

TOKEN = "lockstep-gm-token"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
PIN = "2468"  # every seat's, in both games of a pair

Move = tuple[str, "float | str", "int | str", dict]


@dataclass
class Spec:
    """One game of a lockstep set: its setup, its phones' moves, and the seats
    whose views and routes are compared (the others may know the difference)."""

    setup: dict
    moves: list[Move]
    observers: list[int]
    label: str = ""


@dataclass
class _Game:
    spec: Spec
    clock: FakeClock
    table: Table
    app: Any
    tokens: Iterator[int]
    phones: dict[int, Any] = field(default_factory=dict)
    links: dict[int, str] = field(default_factory=dict)
    todo: list[Move] = field(default_factory=list)
    listeners: dict[str, Any] = field(default_factory=dict)
    refused: list[tuple[int, str]] = field(default_factory=list)  # moves the table refused
    started: tuple[str, float] = ("", 0.0)  # the moment now and when it began


class _Tokens:
    """`secrets.token_urlsafe` for the game being stepped: its own counter."""

    def __init__(self) -> None:
        self.game: _Game | None = None

    def __call__(self, nbytes: int | None = None) -> str:
        assert self.game is not None, "a token drawn outside a game's step"
        return f"tok{next(self.game.tokens):05d}"


@contextmanager
def _quiet_and_counted(tokens: _Tokens) -> Iterator[None]:
    """No speech engine (the narrated games' text, not their audio) and
    tokens from the game's counter."""
    def mute(folder: Path, engines: object = None) -> Cache:  # the hub's own: none
        return Cache(folder, engines={})

    wall = SimpleNamespace(time=lambda: 1_800_000_000.0, strftime=time.strftime)
    with mock.patch("companion.hub.speech.Cache", mute), \
            mock.patch.object(secrets, "token_urlsafe", tokens), \
            mock.patch("companion.store.log.time", wall):  # a game's `created`: one moment
        yield


def holder(cards: list[str], who: int | str) -> int | None:
    if isinstance(who, int):
        return who
    name, _, nth = who.partition("#")
    seats = [i for i, c in enumerate(cards) if c == name]
    k = int(nth or 1) - 1
    return seats[k] if k < len(seats) else None


def where(table: Table) -> str:
    """The table's moment: "2:seer" (night 2's seer call), "2:dawn",
    "day1:ballot", "last-words", "over"."""
    pc = table.pace
    if pc.mode == "calls":
        call = pc.calls[pc.cursor] if pc.cursor < len(pc.calls) else "dawn"
        return f"{pc.night}:{call}"
    if pc.mode in ("last-words", "over", "deal", ""):
        return pc.mode or "lobby"
    return f"day{table.state.n if table.state else 0}:{pc.mode}"


def _matches(moment: str, now: str) -> bool:
    return moment == now or (":" not in moment and now.split(":")[-1] == moment)


def _window(table: Table) -> float:
    pc = table.pace
    return (pc.deadline or pc.started) - pc.started


def _make(tmp: Path, spec: Spec, settings: Settings | None, tokens: _Tokens) -> _Game:
    clock = FakeClock()
    table = Table(Store(tmp / "games.sqlite3"), clock=clock, rng=random.Random(5),
                  settings=settings)
    app = create_app(table, TOKEN, {"TESTING": True, "HEARTBEAT_S": 0.05,
                                    "SPEECH_DIR": tmp / "speech", "MANUAL_DIR": tmp / "manual"})
    game = _Game(spec, clock, table, app, iter(range(1, 10**6)), todo=list(spec.moves))
    tokens.game = game
    gm = app.test_client()
    made = gm.post("/api/games", json=spec.setup, headers=AUTH)
    assert made.status_code == 201, made.get_json()
    narrated = bool(spec.setup.get("narrated"))
    for s in made.get_json()["seats"]:
        phone = app.test_client()
        assert phone.get(s["url"]).status_code == 200
        game.phones[s["seat"]], game.links[s["seat"]] = phone, s["url"]
        if narrated:  # every phone of a narrated game chooses its PIN first [issue 40]
            assert phone.post(s["url"] + "/pin", json={"pin": PIN}).status_code == 200
    audiences = ["public", "gm"] + [f"seat:{s}" for s in spec.observers]
    game.listeners = {a: table.listen(a)[0] for a in audiences}
    return game


def _act(game: _Game) -> None:
    table, pc = game.table, game.table.pace
    now = where(table)
    if game.started[0] != now:
        game.started = (now, game.clock.t)
    cards = [game.spec.setup["deal"][n] for n in game.spec.setup["players"]]
    for move in list(game.todo):
        moment, after, who, action = move
        if not _matches(moment, now):
            continue
        began = pc.started if pc.mode in ("calls", "discussion", "ballot", "prompt",
                                          "last-words") else game.started[1]
        when = _window(table) - 0.5 if after == "last" else float(after)
        if game.clock.t - began < when:
            continue
        game.todo.remove(move)
        seat = holder(cards, who)
        if seat is None:
            continue
        if action.get("do") == "vote" and not table.state.alive[seat]:
            continue  # the dead do not vote
        try:
            if action.get("do") == "ready":
                table.ready(seat)
            elif action.get("do") == "decoy":
                table.suspect(seat, {"target": action.get("target")})
            else:
                table.act_seat(seat, dict(action))
        except TableError as err:  # refused (a quiet night's attack...): its phone is told
            game.refused.append((seat, str(err)))


def _fetches(game: _Game) -> dict[str, str]:
    """Everything the census lets each compared audience fetch now (GET
    routes; the streams are the listeners'), as 'status content-type body'."""
    out: dict[str, str] = {}
    table, app = game.table, game.app
    narrated = bool(game.spec.setup.get("narrated"))
    anyone = app.test_client()
    host = app.test_client() if narrated else None
    for rule in app.url_map.iter_rules():
        channel = census.ROUTES[rule.endpoint]
        if "GET" not in (rule.methods or ()) or channel.shows is census.Shows.NOTHING \
                or rule.endpoint.endswith("stream") or rule.endpoint == "speech.audio":
            continue
        for args in _arguments(rule, table):
            path = _path(rule.rule, args)
            if channel.who is census.Who.ANYONE:
                out[f"anyone {path}"] = _got(anyone.get(path))
            elif channel.who is census.Who.SEAT:
                for seat in game.spec.observers:
                    own = _path(rule.rule, {**args, "token": _token(game.links[seat])})
                    out[f"seat:{seat} {rule.rule}"] = _got(game.phones[seat].get(own))
            elif host is not None:
                out[f"host {path}"] = _got(host.get(path, headers=AUTH))
    return out


def _arguments(rule: Any, table: Table) -> list[dict]:
    args = set(rule.arguments)
    if args - {"game", "seat", "token"}:
        return []  # a file, a code, a name: not a game's
    seats = range(table.state.size) if "seat" in args and table.state else [None]
    return [{"game": table.game, "seat": s, "token": None} for s in seats]


def _token(link: str) -> str:
    return link.rsplit("/", 1)[1]


def _path(rule: str, args: dict) -> str:
    path = re.sub(r"<(?:\w+:)?(\w+)>", lambda m: str(args.get(m.group(1))), rule)
    return path + ("?after=-1" if path == "/api/speech" else "")


def _got(response: Any) -> str:
    body = response.get_data(as_text=True)
    return f"{response.status_code} {response.mimetype} {body}"


Frame = dict[str, object]


def lockstep(tmp_path: Path, specs: list[Spec], until: Callable[[Table], bool],
             settings: Settings | None = None, routes: bool = True,
             max_ticks: int = 20_000, after: int = 0) -> list[list[Frame]]:
    """Play `specs` side by side until `until` holds for every game (then
    `after` half seconds more); one list of frames per game."""
    tokens = _Tokens()
    frames: list[list[Frame]] = [[] for _ in specs]
    with _quiet_and_counted(tokens):
        games = []
        for k, spec in enumerate(specs):
            folder = tmp_path / f"game{k}"
            folder.mkdir()
            games.append(_make(folder, spec, settings, tokens))
        left = None
        for _ in range(max_ticks):
            pushed = False
            ticked: list[Frame] = []
            for game in games:
                tokens.game = game
                game.clock.advance(0.5)
                game.table.tick()
                _act(game)
                frame: Frame = {"where": where(game.table),
                                "public": json.dumps(game.table.public(), sort_keys=True)}
                for s in game.spec.observers:
                    frame[f"seat:{s}"] = json.dumps(game.table.seat_view(s), sort_keys=True)
                    frame[f"refused:{s}"] = [why for seat, why in game.refused if seat == s]
                game.refused.clear()
                for audience, listener in game.listeners.items():
                    got = []
                    while not listener.queue.empty():
                        got.append(listener.queue.get_nowait())
                    pushed = pushed or bool(got)
                    if audience != "gm":  # the GM knows every difference
                        frame[f"stream:{audience}"] = got
                ticked.append(frame)
            if routes and pushed:  # something changed in some game: fetch everything, in all
                for game, frame in zip(games, ticked):
                    tokens.game = game
                    frame["routes"] = _fetches(game)
            for k, frame in enumerate(ticked):
                frames[k].append(frame)
            if left is None and all(until(g.table) for g in games):
                left = after
            if left is not None:
                if left <= 0:
                    break
                left -= 1
        else:
            raise AssertionError("the games never reached the end of the test")
    for game in games:
        assert not game.todo, f"{game.spec.label}: moves never made: {game.todo}"
    return frames


def assert_same(a: list[Frame], b: list[Frame], what: str = "") -> None:
    """Every audience's frames the same, half second by half second, until
    the table tells the end — then every card is public, and only the moment
    of the end is compared (the same half second in both)."""
    for i, (fa, fb) in enumerate(zip(a, b)):
        if fa["where"] == "over" or fb["where"] == "over":
            assert fa["where"] == fb["where"], f"{what}: the end is told at {i / 2} s in one only"
            continue
        for key in fa.keys() & fb.keys():  # an audience observed in one game only: not compared
            if key == "routes":
                ra, rb = fa.get(key) or {}, fb.get(key) or {}
                assert isinstance(ra, dict) and isinstance(rb, dict)
                for route in ra.keys() & rb.keys():
                    assert ra.get(route) == rb.get(route), \
                        f"{what}: {route} differs at {i / 2} s" \
                        f"{_which(ra.get(route), rb.get(route))}:\n{ra.get(route)}\n{rb.get(route)}"
                continue
            assert fa.get(key) == fb.get(key), \
                f"{what}: {key} differs at {i / 2} s{_which(fa.get(key), fb.get(key))}:\n" \
                f"{fa.get(key)}\n{fb.get(key)}"
    assert len(a) == len(b), f"{what}: the runs' lengths differ"


def _which(a: object, b: object) -> str:
    """The top-level keys two JSON views (or messages) differ in, to read a failure."""
    def parts(x: object) -> dict:
        texts = [x] if isinstance(x, str) else list(x) if isinstance(x, list) else []
        out: dict = {}
        for n, text in enumerate(texts):
            body = text.split(" ", 2)[-1] if text[:3].isdigit() else text
            try:
                doc = json.loads(body)
            except ValueError:
                continue
            if isinstance(doc, dict):
                out.update({f"{n}.{k}": v for k, v in doc.items()})
        return out
    pa, pb = parts(a), parts(b)
    keys = sorted(k for k in pa.keys() | pb.keys() if pa.get(k) != pb.get(k))
    return f" (in {', '.join(keys)})" if keys else ""


def no_story_before_the_end(frames: list[Frame]) -> None:
    """The story of the game [issue 35] is nobody's before the end: no part
    of it in the table's view nor a seat's (their streams included) while
    the table has not told the end."""
    for i, frame in enumerate(frames):
        if frame["where"] == "over":
            return
        for key, value in frame.items():
            if key in ("where", "routes"):
                continue
            text = value if isinstance(value, str) else "".join(value)  # type: ignore[arg-type]
            assert '"story"' not in text, f"{key} holds the story at {i / 2} s"
