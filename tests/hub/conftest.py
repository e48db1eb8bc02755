"""Fixtures for the hub: a table over a real SQLite file in a temp folder, a
fake clock (tests never sleep), a seeded RNG for the night calls' lengths, and
Flask test clients for the GM and for phones."""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from companion.hub import create_app
from companion.store import Store
from companion.table import Table

GM_TOKEN = "gm-test-token"


@contextmanager
def serving(table: Table, app, **kwargs) -> Iterator[int]:  # type: ignore[no-untyped-def]
    """The hub's real server (uvicorn) for `app` on a free 127.0.0.1 port, in
    a thread; yields the port, and at the end ends the streams and stops it."""
    from companion.hub.server import HubServer

    server = HubServer(app, "127.0.0.1", 0, **kwargs)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        yield server.port
    finally:
        table.close_listeners()
        server.stop()
        thread.join(timeout=10)
        server.close()
GM = {"Authorization": f"Bearer {GM_TOKEN}"}


class FakeClock:
    """Time as an input: `clock.t += 30` then `table.tick()`."""

    def __init__(self, t: float = 1_000_000.0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += seconds


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "games.sqlite3"


@pytest.fixture
def table(db_path: Path, clock: FakeClock) -> Table:
    return Table(Store(db_path), clock=clock, rng=random.Random(7))


@pytest.fixture
def app(table: Table):  # type: ignore[no-untyped-def]
    app = create_app(table, GM_TOKEN, {"TESTING": True, "HEARTBEAT_S": 0.05})
    yield app
    app.extensions["narration"].close()  # a narrated game's lines stop rendering [issue 42]


@pytest.fixture
def client(app):  # type: ignore[no-untyped-def]
    return app.test_client()


def jp9(seed: int = 3) -> dict:
    """A 9-player jp-standard setup with a fixed deal (seat order A..I)."""
    players = list("ABCDEFGHI")
    roles = ["seer", "werewolf", "werewolf", "madman", "medium", "knight", "villager",
             "villager", "villager"]
    return {"ruleset": "jp-standard", "players": players, "deal": dict(zip(players, roles)),
            "seed": seed}


def mh8(seed: int = 3, **options: object) -> dict:
    """An 8-player Millers Hollow setup with a fixed deal (seat order A..H)."""
    players = list("ABCDEFGH")
    roles = ["werewolf", "werewolf", "seer", "witch", "hunter", "villager", "villager",
             "villager"]
    doc: dict = {"ruleset": "millers-hollow", "players": players,
                 "deal": dict(zip(players, roles)), "seed": seed}
    if options:
        doc["options"] = options
    return doc
