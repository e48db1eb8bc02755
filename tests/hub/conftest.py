"""Fixtures for the hub: Flask test clients for the GM and for phones over
the table of tests/conftest.py (a real SQLite file in a temp folder, a fake
clock: tests never sleep, a seeded RNG for the night calls' lengths), and the
hub's real server for the tests that need sockets."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

# the hub's tests import the table's setups and clock from here (.conftest)
from helpers import FakeClock, jp9, mh8
from slowness import wait_s

from companion.hub import create_app
from companion.table import Table

__all__ = ["GM", "GM_TOKEN", "FakeClock", "jp9", "mh8", "serving"]

GM_TOKEN = "gm-test-token"
GM = {"Authorization": f"Bearer {GM_TOKEN}"}


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
        thread.join(timeout=wait_s(10))
        server.close()


@pytest.fixture
def app(table: Table):  # type: ignore[no-untyped-def]
    app = create_app(table, GM_TOKEN, {"TESTING": True, "HEARTBEAT_S": 0.05})
    yield app
    app.extensions["narration"].close()  # a narrated game's lines stop rendering [issue 42]


@pytest.fixture
def client(app):  # type: ignore[no-untyped-def]
    return app.test_client()
