"""Browser tests of the pages ([issue 6] How it is checked): a real hub in this
process (the hub's server, uvicorn, on a free loopback port, the table's clock in a thread) and
Chromium driven by Playwright.

Every browser context made here records every URL its pages ask for; after
each test an autouse check fails if any went to a host other than the hub
("the pages make no request to any other host"). Requests elsewhere are
aborted, so a page that tries never reaches the internet. Screenshots of the
pages are kept under test-artifacts/screenshots/ (gitignored).

Chromium: Debian's /usr/bin/chromium (Playwright's own browser download is
not used). When it is missing the tests skip, except on CI (env CI set), where
they fail: .ci/run installs it.
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from slowness import wait_ms, wait_s

from companion.hub import create_app
from companion.hub.pairing import GmSeat
from companion.store import Store
from companion.table import Table
from companion.table.pacing import Settings

GM_TOKEN = "gm-web-test-token"
ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "test-artifacts" / "screenshots"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]

#: fast pacing for browser games: short last words and verdict; the night's
#: windows are the game's own night_s and pack_s (exact, RULES.md §4 [issue 16]:
#: a test that drives the night through the GM's API sets them to 0, and the
#: GM's Next ends each call)
FAST = Settings(ballot_s=20, prompt_s=10, last_words_s=0.5, verdict_s=1.5, voice_rate=12,
                voice_lead_s=0.15)


def chromium_path() -> str | None:
    found = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
    return found if os.path.exists(found) else None


def _missing(why: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"browser tests need {why} on CI (.ci/run installs chromium)", pytrace=False)
    pytest.skip(f"browser tests: {why} not available")


# --- the hub ------------------------------------------------------------------


@dataclass
class Hub:
    base: str
    table: Table
    app: Any
    server: Any
    token: str = GM_TOKEN

    @property
    def origin(self) -> str:
        return urlsplit(self.base).netloc

    def api(self, method: str, path: str, doc: object = None) -> Any:
        """The GM's JSON API over HTTP (the test's oracle, never the pages' way in)."""
        data = None if doc is None else json.dumps(doc).encode()
        req = urllib.request.Request(self.base + path, data=data, method=method, headers={
            "Authorization": f"Bearer {GM_TOKEN}", "Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=wait_s(10)) as r:
                return json.loads(r.read())
        except urllib.error.HTTPError as err:
            raise AssertionError(f"{method} {path}: {err.code} {err.read()[:300]!r}") from None


@contextmanager
def running_hub(folder: Path, settings: Settings = FAST, clock: Callable[[], float] | None = None,
                rng: random.Random | None = None, tick_s: float | None = 0.05,
                hardware: bool = False, port: int = 0) -> Iterator[Hub]:
    """A hub in this process on a free 127.0.0.1 port; the table's clock ticks
    every `tick_s` (None: never, for tests that move a fake clock themselves).
    `hardware`: the default pin map's 12 seat boxes on gpiozero's MockFactory
    and the display on luma's dummy device, as `werewolf serve` runs them
    without a Pi (the virtual table)."""
    from companion.hub.server import HubServer

    folder.mkdir(parents=True, exist_ok=True)
    kwargs: dict = {"settings": settings}
    if clock is not None:
        kwargs["clock"] = clock
    if rng is not None:
        kwargs["rng"] = rng
    table = Table(Store(folder / "g.sqlite3"), **kwargs)
    # the tablets' sessions are kept in the folder, as `werewolf serve` keeps
    # them: a hub started again on it knows the tablets it paired
    app = create_app(table, GmSeat(GM_TOKEN, folder=folder))
    server = HubServer(app, "127.0.0.1", port)
    base = f"http://127.0.0.1:{server.port}"
    app.config["BASE_URL"] = base
    hw = None
    if hardware:
        from companion.firmware import pinmap
        from companion.firmware.hardware import TableHardware
        from gpiozero.pins.mock import MockFactory, MockPWMPin

        pins = pinmap.builtin_default()
        hw = TableHardware(table, pins, f"{base}/gm?token={GM_TOKEN}",
                           factory=MockFactory(pin_class=MockPWMPin),
                           simulated="the browser tests").start()
        table.seat_check = lambda players: pinmap.check_players(pins, players)
        app.extensions["hardware"] = hw
    stop = threading.Event()

    serving = threading.Thread(target=server.run, name="hub-server", daemon=True)
    serving.start()
    errors: list[BaseException] = []

    def clock_thread() -> None:
        assert tick_s is not None
        while not stop.wait(tick_s):
            try:
                table.tick()
            except Exception as err:  # keep ticking; reported at the end
                errors.append(err)

    ticking = None
    if tick_s is not None:
        ticking = threading.Thread(target=clock_thread, name="hub-clock", daemon=True)
        ticking.start()
    try:
        yield Hub(base, table, app, server)
    finally:
        stop.set()
        app.extensions["narration"].close()  # its lines stop rendering [issue 42]
        if hw is not None:
            hw.close()
            hw.factory.close()
        table.close_listeners()  # the streams end, so the server can stop
        deadline = time.monotonic() + wait_s(5)
        while table.listeners() and time.monotonic() < deadline:
            time.sleep(0.02)  # each stream says "closed" before the sockets go
        server.stop()
        serving.join(timeout=wait_s(5))
        server.close()
        if ticking is not None:
            ticking.join(timeout=wait_s(5))
        table.store.close()
    assert not errors, f"the table's clock raised: {errors[:3]!r}"


@pytest.fixture(scope="session")
def hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Hub]:
    with running_hub(tmp_path_factory.mktemp("hub")) as h:
        yield h


@pytest.fixture
def hub_factory(tmp_path: Path) -> Callable[..., Any]:
    """`with hub_factory("name", clock=..., rng=..., tick_s=None) as hub:` a
    hub of the test's own (a fresh store, so its first game is game 1)."""

    def make(name: str, **kwargs: Any) -> Any:
        return running_hub(tmp_path / name, **kwargs)

    return make


# --- the browser ----------------------------------------------------------------


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    path = chromium_path()
    if path is None:
        _missing("Chromium (/usr/bin/chromium)")
    try:
        from playwright.sync_api import expect, sync_playwright
    except ImportError:
        _missing("the playwright package")
    # expect()'s own wait (5 s unless a test says), scaled like every other
    # wait: tests/slowness.py [issue 45]
    expect.set_options(timeout=wait_ms(5_000))
    pw = sync_playwright().start()
    try:
        b = pw.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
    except Exception as err:
        pw.stop()
        if os.environ.get("CI"):
            pytest.fail(f"Chromium at {path} does not start: {err}", pytrace=False)
        pytest.skip(f"Chromium at {path} does not start: {err}")
    try:
        yield b
    finally:
        b.close()
        pw.stop()


@dataclass
class Requests:
    """Every URL asked for by the pages of the contexts made in one test."""

    seen: list[tuple[str, str]] = field(default_factory=list)  # (hub origin, url)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, origin: str, url: str) -> None:
        with self.lock:
            self.seen.append((origin, url))

    def foreign(self) -> list[str]:
        """URLs that went anywhere but the hub (data:/blob:/about: load nothing)."""
        out = []
        with self.lock:
            for origin, url in self.seen:
                parts = urlsplit(url)
                if parts.scheme in ("data", "blob", "about"):
                    continue
                if parts.scheme not in ("http", "https", "ws", "wss") or parts.netloc != origin:
                    out.append(url)
        return out


@pytest.fixture
def requests_seen() -> Requests:
    return Requests()


@pytest.fixture(autouse=True)
def _no_other_host(requests_seen: Requests) -> Iterator[None]:
    """[issue 6]: the pages make no request to any other host."""
    yield
    foreign = requests_seen.foreign()
    assert not foreign, f"the pages asked hosts other than the hub for: {foreign[:10]}"


@pytest.fixture
def new_context(browser: Any, requests_seen: Requests) -> Iterator[Callable[..., Any]]:
    """`new_context(hub, **options)`: a browser context whose every request is
    recorded; requests to any other host are aborted (and fail the test)."""
    made: list[Any] = []

    def make(hub: Hub, **options: Any) -> Any:
        context = browser.new_context(**options)
        origin = hub.origin
        context.set_default_timeout(wait_ms(10_000))
        context.on("request", lambda r: requests_seen.add(origin, r.url))

        def watch(page: Any) -> None:
            page.on("websocket", lambda ws: requests_seen.add(origin, ws.url))

        context.on("page", watch)
        # a pattern the browser's side matches (a Python predicate would route
        # every request through this process, where it waits whenever the
        # test is not inside a Playwright call: a page's tap then hung until
        # the test next called Playwright, seen as a 10 s "Start" [issue 28])
        context.route(re.compile(rf"^https?://(?!{re.escape(origin)}/)"),
                      lambda route: route.abort())
        made.append(context)
        return context

    def close_all() -> None:
        """Close every context made so far: a test that starts its own hub
        calls it before that hub stops."""
        for context in made:
            context.close()
        made.clear()

    make.close_all = close_all  # type: ignore[attr-defined]
    yield make
    for context in made:
        try:
            context.close()
        except Exception:
            pass


@pytest.fixture
def shot(request: pytest.FixtureRequest) -> Callable[[Any, str], Path]:
    """`shot(page, "name")`: a full-page screenshot kept as a test artifact."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    test = re.sub(r"[^A-Za-z0-9_.-]+", "-", request.node.name)

    def take(page: Any, name: str) -> Path:
        path = SHOTS / f"{test}--{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return take

