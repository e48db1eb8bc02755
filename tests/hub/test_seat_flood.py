"""No one phone can slow the table [issue 30] item 3: a seated phone's
requests are limited per device as a guest's are (a 429 with Retry-After,
from any address: a seat's link is a phone's), at most `SEAT_AT_ONCE` of
them run at a time, the rest waiting behind their own device's, and the
GM's run on threads of their own, never limited.

The issue: 16 connections from one seat for 20 s were all answered (5,476,
none refused); the GM's answers went from p50/p95 3.7/42 ms to 62/147 ms and
the other seats' from 4 to 117 ms p50. A real hub on loopback (uvicorn,
real sockets) and the front on its own (`Front` driven by hand)."""

from __future__ import annotations

import asyncio
import http.client
import json
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers import run_in_a_thread
from slowness import factor_now, p95, wait_s

from companion.bench.hostile import SEAT_FLOOD_CONNECTIONS, SEAT_FLOODER
from companion.hub import create_app
from companion.hub import front as front_module
from companion.hub.front import GM, SEAT_AT_ONCE, SEAT_RATE, Front, seated
from companion.store import Store
from companion.table import Table
from hub.conftest import serving
from hub.test_hostile_streams import HOST, TOKEN, Hub, device_cookie, game, open_stream


@pytest.fixture
def hub(tmp_path: Path) -> Iterator[Hub]:
    """The hub as `werewolf serve` runs it: guests from loopback are not
    limited (the Pi's own), seats are, from any address."""
    table = Table(Store(tmp_path / "g.sqlite3"))
    app = create_app(table, TOKEN, {"HEARTBEAT_S": 1.0})
    try:
        with serving(table, app) as port:
            yield Hub(table, port)
    finally:
        table.store.close()


def _get(port: int, path: str, headers: dict) -> tuple[int, http.client.HTTPResponse, bytes]:
    conn = http.client.HTTPConnection(HOST, port, timeout=wait_s(10))
    try:
        conn.request("GET", path, headers=headers)
        response = conn.getresponse()
        return response.status, response, response.read()
    finally:
        conn.close()


def test_one_seats_flood_is_refused_and_slows_neither_the_gm_nor_the_other_seats(hub: Hub) -> None:
    """[issue 30] item 3: the issue's flood (16 connections with one seat's
    link and device cookie asking for its state as fast as they can, the
    bench's own flooder, in a process of its own): past the seat's bucket it
    is refused (429), and meanwhile the GM's pauses and resumes and the other
    seats' reads are answered as if there were no flood."""
    created = game(hub)
    urls = [seat["url"] for seat in created["seats"]]
    cookies = [device_cookie(hub.port, url) for url in urls]

    def rounds(n: int) -> tuple[list[float], list[float]]:
        """The GM's pause or resume and another seat's state, `n` times: each one's time."""
        gm, others = [], []
        for k in range(n):
            t0 = time.perf_counter()
            status, out = hub.post("/api/timer", {"do": "pause" if k % 2 == 0 else "resume"})
            gm.append(time.perf_counter() - t0)
            assert status == 200, out
            seat = 1 + k % (len(urls) - 1)
            t1 = time.perf_counter()
            status, _, reply = _get(hub.port, f"{urls[seat]}/state", {"Cookie": cookies[seat]})
            others.append(time.perf_counter() - t1)
            assert status == 200, reply
            time.sleep(0.05)
        return gm, others

    now = factor_now()  # how much slower than the quiet machine this one is now [issue 45]
    t_start = time.perf_counter()
    flood = subprocess.Popen(
        [sys.executable, "-c", SEAT_FLOODER, str(hub.port), f"{urls[0]}/state", cookies[0],
         str(SEAT_FLOOD_CONNECTIONS)], stdout=subprocess.PIPE, text=True)
    try:
        assert flood.stdout is not None and flood.stdout.readline().strip() == "ready"
        time.sleep(1.0)  # its first burst is spent
        gm, others = rounds(40)  # enough answers for a p95 that is not their maximum
    finally:
        flood.terminate()
        out = flood.communicate(timeout=wait_s(10))[0].strip().splitlines()
        lasted = time.perf_counter() - t_start
    counts = json.loads(out[-1])
    # the flood was held to the seat's rate: its bucket, then SEAT_RATE a second
    # (each of its connections then told 429 about once a second, the tarpit)
    rate, burst = SEAT_RATE
    assert counts["answered"] <= burst + rate * lasted + SEAT_FLOOD_CONNECTIONS, (counts, lasted)
    assert counts["refused"] >= SEAT_FLOOD_CONNECTIONS, counts
    assert counts["other"] == 0, counts
    # not slowed: the goal is p95 ≤ 100 ms for the GM and p50 ≤ 20 ms
    # for the other seats, checked by the bench (seat_flood_*; 60-90 ms and
    # 2-4 ms here beside the suite's other worker). The bounds are looser, as
    # the request flood's are (test_hostile_streams): the other worker shares
    # the two cores, and at a load of 14 this GM's p95 was once 0.5 s. What
    # breaks when the limit is gone is the count above (thousands answered).
    # The flood is work beside the hub's: on a machine `now` times slower than
    # the quiet one, each answer is too (on a quiet one, the bounds as written)
    assert p95(gm) < 1.0 * now, (gm, now)
    assert statistics.median(others) < 0.100 * now, (others, now)


def test_a_seat_past_its_rate_is_told_429_and_another_seat_and_the_gm_are_not(
        hub: Hub, monkeypatch: pytest.MonkeyPatch) -> None:
    """[issue 30] item 3: one device's requests past its bucket (SEAT_RATE:
    40 at once) are answered 429 with Retry-After and a reason, before any
    thread runs them, from loopback too; the next seat's and the GM's are
    all served."""
    monkeypatch.setattr(front_module, "TARPIT_S", 0.0)  # answered at once: this test counts them
    created = game(hub)
    urls = [seat["url"] for seat in created["seats"][:2]]
    cookies = [device_cookie(hub.port, url) for url in urls]

    def burst(path: str, headers: dict, n: int) -> list[int]:
        conn = http.client.HTTPConnection(HOST, hub.port, timeout=wait_s(5))
        statuses = []
        for _ in range(n):
            conn.request("GET", path, headers=headers)
            response = conn.getresponse()
            body = response.read()
            statuses.append(response.status)
            if response.status == 429:
                assert b"too many requests" in body, body
                assert response.getheader("Retry-After") == "1"
        conn.close()
        return statuses

    n = int(SEAT_RATE[1]) + 30
    flooded = burst(f"{urls[0]}/state", {"Cookie": cookies[0]}, n)
    assert flooded[:int(SEAT_RATE[1])] == [200] * int(SEAT_RATE[1])
    assert flooded.count(429) >= 20, flooded
    assert set(burst(f"{urls[1]}/state", {"Cookie": cookies[1]}, 10)) == {200}
    assert set(burst("/api/gm", {"Authorization": f"Bearer {TOKEN}"}, n)) == {200}


def test_a_phones_own_bursts_never_meet_its_limit(hub: Hub) -> None:
    """[issue 30] item 3: the limit is sized so a real phone's bursts never
    hit it. In well under a second, one phone: its page loaded four times
    (the page, then its stream), woken four times (its state, its stream
    again) and twelve taps; none is refused. (Its page's files carry no
    seat cookie, path /p: they count as its address's, a guest's.)"""
    created = game(hub)
    url = created["seats"][3]["url"]
    cookie = device_cookie(hub.port, url)
    statuses, streams = [], []

    def stream() -> None:
        sock, status = open_stream(hub.port, f"{url}/stream", headers={"Cookie": cookie})
        streams.append(sock)
        statuses.append(status)

    for _ in range(4):
        statuses.append(_get(hub.port, url, {"Cookie": cookie})[0])
        stream()
    for _ in range(4):
        statuses.append(_get(hub.port, f"{url}/state", {"Cookie": cookie})[0])
        stream()
    conn = http.client.HTTPConnection(HOST, hub.port, timeout=wait_s(5))
    for _ in range(12):
        conn.request("POST", f"{url}/suspect", body=json.dumps({"target": "P4"}).encode(),
                     headers={"Cookie": cookie, "Content-Type": "application/json"})
        response = conn.getresponse()
        response.read()
        statuses.append(response.status)
    conn.close()
    for sock in streams:
        sock.close()
    assert len(statuses) == 28 and 429 not in statuses, statuses


def _front_requests(whose: list[str], late: str, threads: int,
                    run_s: float = 0.15) -> tuple[float, dict[str, int], list[int]]:
    """The front on its own (no server): requests of `whose` sent at once,
    each running `run_s` on a thread; 10 ms later one of `late`. Answers the
    late one's time to its answer, each one's most requests running at
    once, and every status."""
    lock = threading.Lock()
    running: dict[str, int] = {}
    peak: dict[str, int] = {}

    def app(environ: dict, start_response):  # type: ignore[no-untyped-def]
        who = environ["HTTP_X_WHO"]
        with lock:
            running[who] = running.get(who, 0) + 1
            peak[who] = max(peak.get(who, 0), running[who])
        time.sleep(run_s)
        with lock:
            running[who] -= 1
        start_response("200 OK", [("Content-Type", "text/plain")])
        return [b"ok"]

    front = Front(app, threads=threads, max_body=1024, heartbeat_s=1.0,
                  trusted=lambda scope: dict(scope["headers"])[b"x-who"].decode())

    async def request(who: str) -> tuple[int, float]:
        loop = asyncio.get_running_loop()
        sent: list[dict] = []

        async def receive() -> dict:
            return {"type": "http.request", "body": b"", "more_body": False}

        async def send(message: dict) -> None:
            sent.append(message)

        t0 = loop.time()
        await front({"type": "http", "method": "GET", "path": "/", "client": ("192.0.2.7", 1),
                     "headers": [(b"x-who", who.encode())]}, receive, send)
        return sent[0]["status"], loop.time() - t0

    async def main() -> tuple[tuple[int, float], list[tuple[int, float]]]:
        early = [asyncio.ensure_future(request(who)) for who in whose]
        await asyncio.sleep(0.01)
        last = await request(late)
        return last, list(await asyncio.gather(*early))

    try:
        (status, took), rest = run_in_a_thread(main())
    finally:
        front.close()
    return took, peak, [status] + [s for s, _ in rest]


def test_a_seats_flood_waits_behind_itself_not_in_front_of_another_seat() -> None:
    """[issue 30] item 3: one seat's 12 requests at once (4 threads for the
    table): only SEAT_AT_ONCE of them run at a time, so another seat's
    request, sent just after, takes a free thread at once (one request's
    time, not four rounds behind the flood)."""
    took, peak, statuses = _front_requests([seated("flood")] * 12, seated("other"), threads=4)
    assert set(statuses) == {200}
    assert peak[seated("flood")] == SEAT_AT_ONCE, peak
    # one round is 0.15 s; behind the flood's 12: 0.6 s. The bound is the
    # request's time alone (a round, on a quiet machine) plus 1.5 rounds
    alone = _front_requests([], seated("other"), threads=4)[0]
    assert took < alone + 0.225, (took, alone)


def test_the_gm_has_threads_of_his_own() -> None:
    """[issue 30] item 3: the GM's request is never queued behind the seats'
    requests: six phones, two requests running each, 12 at once on the
    table's 4 threads; the GM's, sent just after, runs at once on his own."""
    phones = [seated(f"phone{i}") for i in range(6) for _ in range(SEAT_AT_ONCE)]
    took, _, statuses = _front_requests(phones, GM, threads=4)
    assert set(statuses) == {200}
    # one round is 0.15 s; behind the table's 3 rounds: 0.6 s. The bound is
    # the GM's request alone (a round, on a quiet machine) plus 1.5 rounds
    alone = _front_requests([], GM, threads=4)[0]
    assert took < alone + 0.225, (took, alone)
