"""[issue 17 item 1] Streams can never starve the table: a real hub server on
loopback (uvicorn, `companion.hub.server`), real sockets, hostile guests
from many loopback addresses (127.0.1.x). Bounded: each test runs in seconds.

Under the old server (waitress, one thread per open stream, 48 threads) the
flood below froze every answer until it closed."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from slowness import factor_now, p95, wait_s

from companion.hub import create_app
from companion.hub import server as hub_server
from companion.hub.server import IDLE_S, MAX_HEAD
from companion.store import Store
from companion.table import StreamCaps, Table
from hub.conftest import serving

TOKEN = "flood-gm-token"
#: 40 guests asking for the public view as fast as they can; prints how many
#: answers they got when told to stop (SIGTERM)
GUESTS = """
import http.client, signal, sys, threading
port, served, stop = int(sys.argv[1]), [0], threading.Event()
def guest(i):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10,
                                      source_address=(f"127.0.4.{1 + i}", 0))
    while not stop.is_set():
        try:
            conn.request("GET", "/api/public"); conn.getresponse().read(); served[0] += 1
        except OSError:
            conn.close(); conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
signal.signal(signal.SIGTERM, lambda *a: stop.set())
threads = [threading.Thread(target=guest, args=(i,), daemon=True) for i in range(40)]
for t in threads: t.start()
stop.wait()
print(served[0], flush=True)
"""
HOST = "127.0.0.1"


class Hub:
    def __init__(self, table: Table, port: int) -> None:
        self.table, self.port = table, port

    def post(self, path: str, body: dict, headers: dict | None = None,
             timeout: float = 5.0) -> tuple[int, dict]:
        import http.client

        conn = http.client.HTTPConnection(HOST, self.port, timeout=wait_s(timeout))
        try:
            conn.request("POST", path, body=json.dumps(body).encode(), headers={
                "Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json",
                **(headers or {})})
            response = conn.getresponse()
            return response.status, json.loads(response.read() or b"{}")
        finally:
            conn.close()


@pytest.fixture
def hub(tmp_path: Path) -> Iterator[Hub]:
    table = Table(Store(tmp_path / "g.sqlite3"))
    app = create_app(table, TOKEN, {"HEARTBEAT_S": 1.0})
    try:
        with serving(table, app, limit_loopback=True) as port:  # guests from 127.0.x.y
            yield Hub(table, port)
    finally:
        table.store.close()


@pytest.fixture(params=["httptools", "h11"])
def parsed_hub(request: pytest.FixtureRequest, tmp_path: Path,
               monkeypatch: pytest.MonkeyPatch) -> Iterator[Hub]:
    """The hub with each of the server's parsers: httptools (where it has a
    wheel) and h11 (where it has none: the head guards must hold on both)."""
    if request.param == "h11":
        monkeypatch.setattr(hub_server, "guarded_protocol", lambda: hub_server._GuardedH11)
    else:
        pytest.importorskip("httptools")
    table = Table(Store(tmp_path / "g.sqlite3"))
    app = create_app(table, TOKEN, {"HEARTBEAT_S": 1.0})
    try:
        with serving(table, app, limit_loopback=True) as port:
            yield Hub(table, port)
    finally:
        table.store.close()


def trickle_until_closed(sock: socket.socket) -> float | None:
    """Send a byte a second; when the hub closes the connection, how long it took."""
    t0 = time.monotonic()
    while time.monotonic() - t0 < IDLE_S + 2:
        try:
            sock.sendall(b"X")
            sock.settimeout(1.0)
            if sock.recv(1024) == b"":
                return time.monotonic() - t0
        except TimeoutError:
            continue
        except OSError:
            return time.monotonic() - t0
    return None


def open_stream(port: int, path: str, source: str = HOST,
                headers: dict | None = None) -> tuple[socket.socket, int]:
    """A stream's socket (its head read) and its HTTP status."""
    sock = socket.create_connection((HOST, port), timeout=wait_s(5),
                                    source_address=(source, 0))
    extra = "".join(f"{k}: {v}\r\n" for k, v in (headers or {}).items())
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: {HOST}\r\n{extra}\r\n".encode())
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = sock.recv(4096)
        if not chunk:
            break
        head += chunk
    return sock, int(head.split(b" ", 2)[1]) if head else 0


def device_cookie(port: int, url: str) -> str:
    """The cookie a seat's page sets on the phone that opens it first."""
    sock = socket.create_connection((HOST, port), timeout=wait_s(5))
    sock.sendall(f"GET {url} HTTP/1.1\r\nHost: {HOST}\r\nConnection: close\r\n\r\n".encode())
    head = b""
    while b"\r\n\r\n" not in head:
        head += sock.recv(4096)
    sock.close()
    return next(line.split(":", 1)[1].split(";", 1)[0].strip()
                for line in head.decode().split("\r\n") if line.lower().startswith("set-cookie"))


class Reader(threading.Thread):
    """Reads one stream, time-stamping every event's text."""

    def __init__(self, sock: socket.socket) -> None:
        super().__init__(daemon=True)
        self.sock, self.events = sock, []  # type: ignore[var-annotated]
        self.sock.settimeout(0.1)

    def run(self) -> None:
        buf = b""
        while True:
            try:
                chunk = self.sock.recv(65536)
            except TimeoutError:
                continue
            except OSError:
                return
            if not chunk:
                return
            buf += chunk
            while b"\n\n" in buf:
                event, buf = buf.split(b"\n\n", 1)
                self.events.append((time.perf_counter(), event.decode(errors="replace")))

    def wait_for(self, text: str, since: float, timeout: float = 5.0) -> float:
        limit = time.perf_counter() + wait_s(timeout)
        while time.perf_counter() < limit:
            for at, event in list(self.events):
                if at >= since and text in event:
                    return at
            time.sleep(0.005)
        raise AssertionError(f"no event with {text!r} within {wait_s(timeout)} s")


def game(hub: Hub) -> dict:
    names = [f"P{i}" for i in range(8)]
    status, created = hub.post("/api/games", {"ruleset": "millers-hollow", "players": names,
                                              "seed": 1})
    assert status == 201, created
    return created


def test_a_flood_of_anonymous_streams_and_slowloris_starves_nobody(hub: Hub) -> None:
    """[issue 17] 200 public streams from 100 addresses that never read, and 100
    half-sent requests: the GM is answered within 250 ms at p95, and the
    table's own streams (the TV's, a seat's, the GM's) get each change within 1 s.

    Each bound is what the flood may add to the same requests' times without
    it, measured first in this test: on a quiet machine those are a few ms,
    so the bounds are the issue's; on a busy one the machine's own delay is
    not counted against the hub [issue 45]."""
    game(hub)
    tv, tv_status = open_stream(hub.port, "/api/public/stream")
    gm, gm_status = open_stream(hub.port, "/api/stream", headers={
        "Authorization": f"Bearer {TOKEN}"})
    assert (tv_status, gm_status) == (200, 200)
    readers = [Reader(tv), Reader(gm)]
    for reader in readers:
        reader.start()

    def pauses(rounds: int) -> tuple[list[float], list[float]]:
        """The GM's pause and resume, `rounds` times: each answer's time, and
        each change's time to reach the TV's stream and the GM's."""
        answers, arrivals = [], []
        for k in range(rounds):
            t0 = time.perf_counter()
            status, out = hub.post("/api/timer", {"do": "pause" if k % 2 == 0 else "resume"})
            answers.append(time.perf_counter() - t0)
            assert status == 200, out
            word = '"paused": null' if k % 2 else '"paused": '  # null: running again
            arrivals += [reader.wait_for(word, t0) - t0 for reader in readers]
        return answers, arrivals

    quiet_answers, quiet_arrivals = pauses(20)  # no flood yet
    quiet_answer, quiet_arrival = p95(quiet_answers), p95(quiet_arrivals)

    hostile, statuses = [], []
    for i in range(200):
        sock, status = open_stream(hub.port, "/api/public/stream", f"127.0.1.{1 + i % 100}")
        hostile.append(sock)
        statuses.append(status)
    for _ in range(100):
        slow = socket.create_connection((HOST, hub.port), timeout=5)
        slow.sendall(b"GET /api/public HTTP/1.1\r\nHost: ")
        hostile.append(slow)
    caps = StreamCaps()
    assert statuses.count(200) <= caps.public_total  # the rest were refused, not queued
    assert statuses.count(429) >= 200 - caps.public_total

    answers, arrivals = pauses(40)  # enough answers for a p95 that is not their maximum
    for sock in [*hostile, tv, gm]:
        sock.close()
    assert p95(answers) < 0.250 + quiet_answer, (answers, quiet_answer)
    # every change reaches the TV and the GM: 95 % within 1 s, none held for
    # long (starved, they would wait for the flood to end); the one slow
    # arrival a loaded machine gives (1.2 s seen beside the suite's other
    # worker and other tenants, load 6-7) is not starvation [issue 45]
    assert p95(arrivals) < 1.0 + quiet_arrival, (arrivals, quiet_arrival)
    assert max(arrivals) < 3.0 + quiet_arrival, (arrivals, quiet_arrival)


def test_one_address_keeps_at_most_four_public_streams_the_oldest_is_replaced(hub: Hub) -> None:
    """[issue 17] A fifth public stream from one device ends its oldest with
    `event: replaced` (the page then waits to be looked at: no ping-pong)."""
    socks = [open_stream(hub.port, "/api/public/stream", "127.0.2.7")[0] for _ in range(4)]
    oldest = Reader(socks[0])
    oldest.start()
    t0 = time.perf_counter()
    fifth, status = open_stream(hub.port, "/api/public/stream", "127.0.2.7")
    assert status == 200
    oldest.wait_for("event: replaced", t0 - 1)
    assert hub.table.listeners() == 4
    for sock in [*socks, fifth]:
        sock.close()


def test_past_the_public_total_a_stream_is_refused_with_429_and_a_reason(hub: Hub) -> None:
    """[issue 17] Refused, clearly, not queued: the 65th anonymous stream."""
    total = StreamCaps().public_total
    socks = [open_stream(hub.port, "/api/public/stream", f"127.0.3.{1 + i}")[0]
             for i in range(total)]
    sock = socket.create_connection((HOST, hub.port), timeout=5, source_address=("127.0.3.200", 0))
    sock.sendall(f"GET /api/public/stream HTTP/1.1\r\nHost: {HOST}\r\n\r\n".encode())
    time.sleep(0.3)
    reply = sock.recv(65536).decode()
    assert reply.startswith("HTTP/1.1 429"), reply[:80]
    assert "public stream is full" in reply
    for s in [*socks, sock]:
        s.close()


def test_a_half_sent_request_is_closed_after_the_idle_time(parsed_hub: Hub) -> None:
    """[issue 17] slowloris: a request's head trickled a byte a second is closed
    within IDLE_S (+1 s), so such connections cannot pile up."""
    sock = socket.create_connection((HOST, parsed_hub.port), timeout=IDLE_S + 3)
    sock.sendall(b"GET /api/public HTTP/1.1\r\n")
    closed_at = trickle_until_closed(sock)
    sock.close()
    assert closed_at is not None and closed_at <= IDLE_S + 1.5, closed_at


def test_after_an_answer_a_trickled_second_request_is_closed_too(parsed_hub: Hub) -> None:
    """[issue 17] The same on a kept-alive connection: its first request was
    answered, its second head trickles in (uvicorn's own keep-alive timer
    stops at the first byte; the hub's head deadline does not)."""
    sock = socket.create_connection((HOST, parsed_hub.port), timeout=IDLE_S + 3)
    sock.sendall(f"GET /api/public HTTP/1.1\r\nHost: {HOST}\r\n\r\n".encode())
    assert sock.recv(65536).startswith(b"HTTP/1.1 200")
    sock.sendall(b"GET /api/public HTTP/1.1\r\n")
    closed_at = trickle_until_closed(sock)
    sock.close()
    assert closed_at is not None and closed_at <= IDLE_S + 1.5, closed_at


def test_a_request_head_past_its_cap_is_refused_and_the_hub_serves_on(parsed_hub: Hub) -> None:
    """[issue 17] A head that is still not whole after MAX_HEAD (16 KB) is
    answered 4xx and its connection closed, without reaching the app (the
    hub keeps no more of it); the next request is served."""
    sock = socket.create_connection((HOST, parsed_hub.port), timeout=5)
    sock.sendall(f"GET /api/public HTTP/1.1\r\nHost: {HOST}\r\n".encode())
    for _ in range(MAX_HEAD // 1024 + 4):  # a header that never ends, 1 KB at a time
        try:
            sock.sendall(b"X-Pad: " + b"a" * 1017)
        except OSError:
            break
        time.sleep(0.002)
    reply = b""
    while chunk := sock.recv(65536):
        reply += chunk
    sock.close()
    assert reply.startswith(b"HTTP/1.1 4"), reply[:80]
    assert b'"phase"' not in reply  # the app never saw it
    status, _ = parsed_hub.post("/api/games", {"ruleset": "millers-hollow",
                                               "players": [f"P{i}" for i in range(8)]})
    assert status == 201


def test_a_seat_keeps_at_most_four_streams_and_its_newest_wins(hub: Hub) -> None:
    """[issue 17] A phone that dropped off the Wi-Fi leaves its stream open;
    its reload must still be served: the fifth stream of a seat ends the oldest."""
    created = game(hub)
    url = created["seats"][1]["url"]
    cookie = device_cookie(hub.port, url)
    streams = [open_stream(hub.port, f"{url}/stream", headers={"Cookie": cookie}) for _ in range(4)]
    assert [status for _, status in streams] == [200] * 4
    oldest = Reader(streams[0][0])
    oldest.start()
    t0 = time.perf_counter()
    fifth, status = open_stream(hub.port, f"{url}/stream", headers={"Cookie": cookie})
    assert status == 200
    oldest.wait_for("event: replaced", t0 - 1)
    for s, _ in [*streams, (fifth, 0)]:
        s.close()


def test_a_flood_of_anonymous_requests_queues_behind_itself_not_the_gm(hub: Hub) -> None:
    """[issue 17] 40 guests asking for the public view as fast as they can: the
    GM's requests and a seat holder's run on the table's own threads
    (`hub/trust.py`), answered within 250 ms at p95."""
    import http.client

    created = game(hub)
    url = created["seats"][2]["url"]
    cookie = device_cookie(hub.port, url)
    # the guests in their own process: their own CPU, and not this one's GIL

    def rounds(n: int) -> list[float]:
        """The GM's pause or resume and the seat's state, `n` times: each pair's time."""
        times = []
        for k in range(n):
            t0 = time.perf_counter()
            status, out = hub.post("/api/timer", {"do": "pause" if k % 2 == 0 else "resume"})
            assert status == 200, out
            conn = http.client.HTTPConnection(HOST, hub.port, timeout=wait_s(5))
            conn.request("GET", f"{url}/state", headers={"Cookie": cookie})
            assert conn.getresponse().status == 200
            conn.close()
            times.append(time.perf_counter() - t0)
        return times

    now = factor_now()  # how much slower than the quiet machine this one is now [issue 45]
    flood = subprocess.Popen([sys.executable, "-c", GUESTS, str(hub.port)],
                             stdout=subprocess.PIPE, text=True)
    try:
        time.sleep(1.0)
        times = rounds(40)
    finally:
        flood.terminate()
        served = int(flood.communicate(timeout=wait_s(10))[0] or 0)
    assert served > 100  # the flood was real
    # not starved: behind 40 guests' queue the GM would wait seconds; the bound
    # is loose because the suite's other worker shares the two cores (the
    # issue's 250 ms is checked under the stream flood above and in the bench).
    # The flood is work beside the hub's: on a machine `now` times slower than
    # the quiet one, each of its rounds is too (on a quiet one, the bound is 1 s)
    assert p95(times) < 1.0 * now, (times, now)


def test_whose_request_is_checked_not_believed(hub: Hub, tmp_path: Path) -> None:
    """[issue 17] The table's own queue takes the GM's token and a seat's
    holder; a wrong token, another device's cookie or nothing is a guest."""
    from companion.hub.trust import trusted_requests

    table = hub.table
    app = create_app(table, TOKEN)
    trusted = trusted_requests(app)
    created = game(hub)
    url = created["seats"][0]["url"]
    cookie = device_cookie(hub.port, url)

    def scope(path: str, **headers: str) -> dict:
        return {"path": path, "headers": [(k.lower().encode(), v.encode())
                                          for k, v in headers.items()]}

    assert trusted(scope("/api/actions", Authorization=f"Bearer {TOKEN}"))
    assert trusted(scope("/gm", Cookie=f"gm={TOKEN}"))
    assert not trusted(scope("/api/actions", Authorization="Bearer guess"))
    assert not trusted(scope("/api/public"))
    assert trusted(scope(f"{url}/action", Cookie=cookie))
    assert trusted(scope("/static/player.js", Cookie=cookie))  # a seated phone's files
    assert not trusted(scope("/static/player.js", Cookie="device=nobody"))
    assert not trusted(scope(f"{url}/action", Cookie="device=someone-else"))
    assert not trusted(scope("/p/not-a-link/action", Cookie=cookie))
    assert not trusted(scope(f"{url}/action", Cookie='device="unterminated'))


def test_a_guest_past_its_rate_is_told_429_and_the_gm_never_is(
        hub: Hub, monkeypatch: pytest.MonkeyPatch) -> None:
    """[issue 17] One device's requests past its bucket (front.GUEST_RATE: 60 at
    once) are answered 429 with a reason, before any thread runs them; the
    GM's, as many, are all served."""
    import http.client

    from companion.hub import front as front_module
    from companion.hub.front import GUEST_RATE

    def burst(headers: dict, source: str) -> list[int]:
        conn = http.client.HTTPConnection(HOST, hub.port, timeout=wait_s(5),
                                          source_address=(source, 0))
        statuses = []
        for _ in range(int(GUEST_RATE[1]) + 40):
            conn.request("GET", "/api/public", headers=headers)
            response = conn.getresponse()
            body = response.read()
            statuses.append(response.status)
            if response.status == 429:
                assert b"too many requests" in body and response.getheader("Retry-After")
        conn.close()
        return statuses

    monkeypatch.setattr(front_module, "TARPIT_S", 0.0)  # answered at once: this test counts them
    guest = burst({}, "127.0.5.1")
    assert guest.count(429) >= 30 and guest[:int(GUEST_RATE[1])].count(200) == GUEST_RATE[1]
    gm = burst({"Authorization": f"Bearer {TOKEN}"}, "127.0.5.1")
    assert set(gm) == {200}


def _raw(port: int, head: bytes) -> tuple[bytes, float]:
    """One request sent whole; the answer's first bytes and how long it took."""
    t0 = time.monotonic()
    with socket.create_connection((HOST, port), timeout=10) as sock:
        sock.sendall(head)
        reply = b""
        while not reply.endswith(b"}") and (chunk := sock.recv(65536)):
            reply += chunk
            if b"\r\n\r\n" in reply and not reply.startswith(b"HTTP/1.1 4"):
                break
    return reply, time.monotonic() - t0


@pytest.mark.parametrize("header, refused", [
    (b"Accept-Language: " + b"en," * 20_000, True),  # the 60 KB, one line
    (b"Accept-Language: " + b"en;q=0.5," * 60, True),  # 540 bytes: past 512
    (b"X-Foo: " + b"a" * 5_000, True),
    (b"Cookie: " + b"a=b; " * 2_000, True),
    (b"Accept-Language: ja,en-US;q=0.9,en;q=0.8,zh-TW;q=0.7", False),  # a browser's
])
def test_every_header_has_a_size_limit_answered_at_once(parsed_hub: Hub, header: bytes,
                                                        refused: bool) -> None:
    """[issue 41 item 5] No header had a size limit: a 60 KB Accept-Language
    cost a page 0.65-0.9 s on a busy machine (werkzeug's best_match over its
    20,000 languages, in the pages' locale selector), and 40 of them, 8 at a
    time, slowed /api/public to seconds with none refused. Now a header past
    its limit (Accept-Language: 512 bytes; any other 4 KiB, a cookie 8 KiB;
    the head 16 KiB in all) is 431 from the front, at once, on both parsers;
    a browser's passes."""
    head = (b"GET /table HTTP/1.1\r\nHost: " + HOST.encode() + b"\r\n" + header
            + b"\r\n\r\n")
    reply, _ = _raw(parsed_hub.port, head)
    if refused:
        assert reply.startswith(b"HTTP/1.1 431"), reply[:120]
        assert b"cache-control: no-store" in reply.lower() and b'"error"' in reply
    else:
        assert reply.startswith(b"HTTP/1.1 200"), reply[:120]


def test_a_long_url_is_414_and_a_long_body_413_at_once(hub: Hub) -> None:
    """[issue 41 item 5] and every field: the URL (4 KiB) and the body (64 KiB,
    by its Content-Length, before it is read)."""
    reply, _ = _raw(hub.port, b"GET /api/public?" + b"a" * 5_000 + b" HTTP/1.1\r\nHost: x\r\n\r\n")
    assert reply.startswith(b"HTTP/1.1 414"), reply[:80]
    reply, took = _raw(hub.port, b"POST /api/actions HTTP/1.1\r\nHost: x\r\nContent-Type: "
                       b"application/json\r\nContent-Length: 10000000\r\n\r\n{")
    assert reply.startswith(b"HTTP/1.1 413"), reply[:80]
    assert took < 5  # not waiting for ten megabytes that never come
