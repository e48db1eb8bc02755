"""[issue 30] item 6: every expiry runs on the monotonic clock — pairing links,
GM sessions, the streams' send time-out and the connections' head deadline —
so the wall clock stepping ±1 h (NTP at boot on a Pi with no real-time clock,
a phone setting it) neither ends anything early nor keeps it late; the real
limits still expire things.

Source: issue 30 ("companion/hub/pairing.py uses time.time for pairing codes:
a +11 min wall jump expires a fresh link at once; a backward jump lengthens
its life"). Each test moves a fake monotonic clock and, apart, the wall clock
(`time.time` as the module under test sees it) by an hour either way."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

import pytest
from helpers import run_in_a_thread

from companion.hub import create_app, front, pairing, server
from companion.hub.front import SEND_TIMEOUT_S, Front
from companion.hub.pairing import PAIR_S, GmSeat
from companion.hub.server import IDLE_S
from companion.table import Listener

from .conftest import GM, GM_TOKEN, FakeClock

JUMPS = [3600.0, -3600.0, 660.0]  # ±1 h, and the issue's +11 min


class FakeTime:
    """A `time` module for the module under test: `monotonic` and the wall
    clock `time`, moved apart."""

    def __init__(self) -> None:
        self.mono = FakeClock(50.0)  # a monotonic clock starts anywhere: near boot here
        self.wall = FakeClock(1_790_000_000.0)

    def monotonic(self) -> float:
        return self.mono()

    def time(self) -> float:
        return self.wall()


@pytest.fixture
def fake_time(monkeypatch: pytest.MonkeyPatch) -> FakeTime:
    """Pairing's, the front's and the server's `time`, faked."""
    fake = FakeTime()
    for module in (pairing, front, server):
        monkeypatch.setattr(module, "time", fake, raising=False)  # server.py has none yet
    return fake


# --- pairing links -----------------------------------------------------------------------

@pytest.mark.parametrize("jump", JUMPS)
def test_a_wall_clock_jump_neither_ends_nor_lengthens_a_pairing_link(fake_time, jump):
    """[issue 30 item 6]: GmSeat's own clock (none given) is monotonic: a fresh
    link survives the wall clock's jump, and expires after its 10 minutes of
    monotonic time whatever the wall clock says."""
    seat = GmSeat(GM_TOKEN)
    fresh, _ = seat.new_code()
    late, _ = seat.new_code()
    fake_time.wall.advance(jump)
    fake_time.mono.advance(PAIR_S - 1)
    assert seat.redeem(fresh) is not None  # within its 10 minutes: the jump ended nothing
    fake_time.mono.advance(2)
    assert seat.redeem(late) is None  # past them: expired, a jump back lent no time


@pytest.mark.parametrize("jump", JUMPS)
def test_the_displays_link_stays_the_same_across_a_wall_clock_jump(fake_time, jump):
    """[issue 30 item 6]: the display's standing link is not replaced when the
    wall clock jumps (a photo of it keeps working), only when it expires."""
    seat = GmSeat(GM_TOKEN)
    shown = seat.display_code()
    fake_time.wall.advance(jump)
    fake_time.mono.advance(PAIR_S - 1)
    assert seat.display_code() == shown
    fake_time.mono.advance(2)
    assert seat.display_code() not in (None, shown)


def test_the_hubs_pairing_links_run_on_the_tables_clock(table, clock, fake_time):
    """[issue 30 item 6]: the hub's links are on the table's clock (one clock,
    the fake one here): `expires` is on it, as the views' `now` is."""
    app = create_app(table, GM_TOKEN, {"TESTING": True})
    doc = app.test_client().post("/api/gm/pair", json={}, headers=GM).json
    assert doc["expires"] == clock() + PAIR_S
    path = doc["url"].removeprefix("http://localhost")
    fake_time.wall.advance(3600)
    clock.advance(PAIR_S + 1)
    assert app.test_client().get(path).status_code == 403


# --- GM sessions -------------------------------------------------------------------------

@pytest.mark.parametrize("jump", JUMPS)
def test_a_gm_session_has_no_clock_and_outlives_jumps_and_restarts(fake_time, jump,
                                                                   tmp_path: Path):
    """[issue 30 item 6]: a paired tablet's session has no idle limit (it ends
    with a rotation or past MAX_SESSIONS, pairing.py): a month of monotonic
    time, a wall jump, a restart whose monotonic clock starts again near zero,
    none ends it."""
    seat = GmSeat(GM_TOKEN, folder=tmp_path)
    session = seat.session_for(GM_TOKEN)
    fake_time.wall.advance(jump)
    fake_time.mono.advance(30 * 86400)
    assert seat.is_session(session)
    fake_time.mono.t = 3.0  # a reboot
    assert GmSeat(GM_TOKEN, folder=tmp_path).is_session(session)


# --- the streams' send time-out and the head deadline (the hub's event loop) ------------

class FakeTimeLoop(asyncio.SelectorEventLoop):
    """An event loop whose clock is `clock` (asyncio's own is time.monotonic):
    its timers fire when a test moves the clock, not when time passes."""

    def __init__(self, clock: Callable[[], float]) -> None:
        super().__init__()
        self._clock = clock

    def time(self) -> float:
        return self._clock()


def _run(fake: FakeTime, scenario: Callable[[], Coroutine[Any, Any, None]]) -> None:
    """The scenario on a loop of fake time, on a thread of its own (a worker
    that ran a Playwright test first has a loop running in its main thread)
    [issue 45]."""
    def run() -> None:
        loop = FakeTimeLoop(fake.monotonic)
        try:
            loop.run_until_complete(scenario())
        finally:
            loop.run_until_complete(loop.shutdown_asyncgens())
            loop.close()

    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as pool:
        pool.submit(run).result()


async def _settle() -> None:
    """Let every callback due on the fake clock run."""
    for _ in range(20):
        await asyncio.sleep(0)


@pytest.mark.parametrize("jump", JUMPS)
def test_a_wall_clock_jump_neither_drops_a_stream_nor_keeps_a_stuck_one(fake_time, jump):
    """[issue 30 item 6] (front.py): a reader that takes no message is dropped
    after SEND_TIMEOUT_S of the loop's (monotonic) time, not when the wall
    clock jumps, and a jump back does not keep it."""
    hub = Front(lambda environ, start: [], threads=1, max_body=1024, heartbeat_s=1.0)

    async def scenario() -> None:
        loop = asyncio.get_running_loop()
        stuck, never = loop.create_future(), loop.create_future()

        async def send(message: dict) -> None:
            await stuck  # the reader takes nothing: its first message never leaves

        async def receive() -> dict:
            return await never  # type: ignore[no-any-return]

        stream = loop.create_task(hub._stream(Listener("public"), "{}", receive, send))
        await _settle()
        fake_time.wall.advance(jump)
        fake_time.mono.advance(SEND_TIMEOUT_S - 1)
        await _settle()
        assert not stream.done()  # the jump ended nothing
        fake_time.wall.advance(-2 * jump)
        fake_time.mono.advance(2)
        await _settle()
        assert stream.done() and stream.exception() is None  # the real limit ended it
        assert hub._sweeping is not None
        hub._sweeping.cancel()
        await _settle()

    try:
        _run(fake_time, scenario)
    finally:
        hub.close()


class _Transport:
    def __init__(self) -> None:
        self.closed = False

    def is_closing(self) -> bool:
        return self.closed

    def close(self) -> None:
        self.closed = True


class _Protocol:
    """What _HeadDeadline expects below it (uvicorn's protocol): no request yet."""

    cycle = None

    def connection_made(self, transport: Any) -> None:
        self.transport = transport

    def on_response_complete(self) -> None:
        pass

    def connection_lost(self, exc: Exception | None) -> None:
        pass


class _Connection(server._HeadDeadline, _Protocol):
    pass


@pytest.mark.parametrize("jump", JUMPS)
def test_a_wall_clock_jump_neither_closes_a_connection_nor_keeps_an_idle_one(fake_time,
                                                                              jump):
    """[issue 30 item 6] (server.py): a connection with no whole request head
    is closed IDLE_S after it opened on the loop's (monotonic) clock, whatever
    the wall clock does."""
    async def scenario() -> None:
        connection = _Connection()
        connection.loop = asyncio.get_running_loop()
        transport = _Transport()
        connection.connection_made(transport)  # type: ignore[arg-type]
        fake_time.wall.advance(jump)
        fake_time.mono.advance(IDLE_S - 0.5)
        await _settle()
        assert not transport.closed
        fake_time.wall.advance(-2 * jump)
        fake_time.mono.advance(1)
        await _settle()
        assert transport.closed
        connection.connection_lost(None)

    _run(fake_time, scenario)


def test_the_hubs_event_loop_keeps_monotonic_time():
    """[issue 30 item 6]: the loop HubServer.run makes (asyncio.run: no uvloop)
    reads time.monotonic, the clock the two tests above fake."""
    async def now() -> float:
        return asyncio.get_running_loop().time()

    before = time.monotonic()
    loop_time = run_in_a_thread(now())
    assert before <= loop_time <= time.monotonic()
