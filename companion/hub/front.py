"""The hub's front door: one asyncio loop holds every connection, and an
open event stream costs a coroutine, never a thread [issue 17].

Why: a page keeps its event stream open for as long as it is shown. Behind a
thread-per-request server each stream held one of its threads, and one `curl`
loop of anonymous streams took them all: the GM, the phones and the TV got no
answer. Here:

- a request runs the Flask app on a small thread pool, one hop each way (the
  whole response is collected in the thread: every answer but a stream is
  one small JSON or page). Whose it is (`trust.py`) picks the pool: the GM's
  requests have threads of their own and are never limited; a seat
  holder's run on the table's pool; guests' on theirs. Guests are
  rate-limited (`GUEST_RATE` per address, `GUESTS_IN_ALL` in all; past it, a
  429 from the loop, before any thread or Flask): a flood of anonymous
  requests can neither queue in front of the table nor take its CPU;
- a seated phone is limited too, per device (`SEAT_RATE`, from any address:
  a seat's link is a phone's, never the Pi's own page), and at most
  `SEAT_AT_ONCE` of its requests run at a time, the rest waiting on the
  loop behind its own [issue 30]: one phone looping on its link cannot take
  the table's threads or its CPU from the GM and the other seats;
- a stream route (`common.stream`) checks who may follow what, as any route
  does, then hands its listener over (`Handoffs`) instead of a body: the
  front answers with the stream's headers and writes its messages from this
  loop. A listener's queue holds whole views, so a slow reader is sent only
  the newest one, and a reader that takes longer than `SEND_TIMEOUT_S` to
  take a message is dropped;
- slow or half-sent requests, idle keep-alive connections and dead phones are
  the server's and the socket's business (`server.py`: the head deadline,
  the keep-alive timeout, TCP keepalive, TCP_USER_TIMEOUT);
- every header has a size limit, and so has the URL and the body: past it
  the loop answers 431, 414 or 413 at once, before any thread or Flask
  [issue 41 item 5]. (A 60 KB Accept-Language cost a page 0.65–0.9 s on a
  busy machine: werkzeug's `best_match` over its 20,000 languages, in the
  pages' locale selector; 40 of them, 8 at a time, slowed /api/public to
  seconds. A browser's is under 100 bytes.)

Under the Flask test client there is no front: `common.stream` then streams
from a generator, as any WSGI server would run it.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import sys
import threading
import time
from collections.abc import Awaitable, Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from io import BytesIO
from typing import Any

from ..table import Listener

#: the response header by which a stream route hands its listener to the front
STREAM_HEADER = "x-werewolf-stream"
#: the environ key under which a route finds the front's `Handoffs`
ENVIRON_KEY = "werewolf.streams"
SEND_TIMEOUT_S = 30.0  # a reader this slow to take one message is gone (or hostile)
#: a guest's device: 20 requests a second, 60 at once (a page and its files
#: load in one burst of about 15); all guests together: 200 a second
GUEST_RATE = (20.0, 60.0)
GUESTS_IN_ALL = (200.0, 200.0)
#: a seated phone: 10 requests a second, 40 at once. Its page is 2 of them
#: (the page, its stream: its files carry no seat cookie and count as a
#: guest's), a reconnect 2, a tap 1, a change of language 3: a phone hurried
#: by its player stays far below; a loop of requests does not [issue 30]
SEAT_RATE = (10.0, 40.0)
SEAT_AT_ONCE = 2  # a seated phone's requests running at a time; the rest wait their turn
GM_THREADS = 4  # the GM's own: a tablet or two, never behind a seat's or a guest's
TARPIT_S = 1.0  # how long a refused guest (or seat) waits for its 429
#: a request's line and headers in all, in bytes (the server refuses more itself)
MAX_HEAD = 16 * 1024
MAX_URL = 4 * 1024  # a path and its query: a seat's link is under 100 bytes
MAX_HEADERS = 64  # a browser sends about 15
#: each header's size limit in bytes (a browser's, measured, is far below);
#: a header not named here: HEADER_LIMIT [issue 41 item 5]
HEADER_LIMITS = {"accept-language": 512, "accept": 1024, "accept-encoding": 256,
                 "cookie": 8 * 1024, "user-agent": 2048, "referer": MAX_URL, "origin": 1024}
HEADER_LIMIT = 4 * 1024
#: whose request: the GM's (`trust.py`; a seated device's is `seated(device)`,
#: a guest's None)
GM = "gm"


def seated(device: str) -> str:
    """Whose request a seated device's is: its own, whichever seat it asks for."""
    return f"device:{device}"


Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict]]
Send = Callable[[dict], Awaitable[None]]
Wsgi = Callable[[dict, Callable], Any]


class Handoffs:
    """Listeners a stream route has opened, waiting for the front to take
    them (thread-safe: routes run on the pool, the front on the loop)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._ids = itertools.count(1)
        self._waiting: dict[str, tuple[Listener, str, Callable[[Listener], None]]] = {}

    def add(self, listener: Listener, first: str, done: Callable[[Listener], None]) -> str:
        """Keep `listener` (whose first message is `first`; `done` ends it)
        for the front; returns the key the route puts in STREAM_HEADER."""
        with self._lock:
            key = str(next(self._ids))
            self._waiting[key] = (listener, first, done)
        return key

    def take(self, key: str) -> tuple[Listener, str, Callable[[Listener], None]] | None:
        with self._lock:
            return self._waiting.pop(key, None)


class Front:
    """The ASGI application uvicorn serves: Flask for requests, the loop for streams."""

    def __init__(self, app: Wsgi, *, threads: int, max_body: int, heartbeat_s: float,
                 trusted: Callable[[Scope], str | None] = lambda scope: GM,
                 clock: Callable[[], float] = time.monotonic,
                 limit_loopback: bool = False) -> None:
        self.app = app
        self.max_body = max_body
        self.heartbeat_s = heartbeat_s
        self.trusted = trusted
        self.pool = ThreadPoolExecutor(threads, thread_name_prefix="hub-request")
        self.gm_pool = ThreadPoolExecutor(GM_THREADS, thread_name_prefix="hub-gm")
        self.guests = ThreadPoolExecutor(max(2, threads // 4), thread_name_prefix="hub-guest")
        self.handoffs = Handoffs()
        self._followers: set[_Follower] = set()
        self._wake_lock = threading.Lock()
        self._to_wake: list[_Follower] = []
        self._sweeping: asyncio.Task | None = None
        self.clock = clock
        #: the Pi's own requests (its kiosk browser, scripts) are not a guest's
        #: flood; tests of the limits from loopback addresses turn this on
        self.limit_loopback = limit_loopback
        self.per_guest: dict[str, Bucket] = {}
        self.all_guests = Bucket(*GUESTS_IN_ALL)
        self.per_seat: dict[str, _Lane] = {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await _lifespan(receive, send)
        elif scope["type"] == "http":
            await self._http(scope, receive, send)

    async def _http(self, scope: Scope, receive: Receive, send: Send) -> None:
        url = len(scope.get("raw_path") or scope["path"].encode()) + len(
            scope.get("query_string", b""))
        refused = (414, f"the URL is over {MAX_URL} bytes") if url > MAX_URL else \
            head_problem((n.decode("latin-1"), v.decode("latin-1"))
                         for n, v in scope.get("headers", []))
        if refused is None and _length(scope) > self.max_body:
            refused = (413, f"request body over {self.max_body} bytes")
        body = await _read_body(receive, self.max_body) if refused is None else b""
        if body is None:
            refused = (413, f"request body over {self.max_body} bytes")
        if refused is not None or body is None:  # at once, from the loop: no thread, no Flask
            await _refuse(send, *(refused or (413, "request body too large")))
            return
        loop = asyncio.get_running_loop()
        environ = _environ(scope, body, self.handoffs)
        whose = self.trusted(scope)
        if whose == GM:
            status, headers, payload = await loop.run_in_executor(self.gm_pool, self._run, environ)
        elif whose is not None:  # a seated phone's
            lane = self._lane(whose)
            if not lane.bucket.take(self.clock()):
                await _too_many(send)
                return
            async with lane:  # behind its own device's requests, not in front of the table's
                status, headers, payload = await loop.run_in_executor(
                    self.pool, self._run, environ)
        else:
            address = str((scope.get("client") or ("",))[0])
            local = address.startswith("127.") or address == "::1"
            if (self.limit_loopback or not local) and not self._guest_may(address):
                await _too_many(send)
                return
            status, headers, payload = await loop.run_in_executor(self.guests, self._run, environ)
        key = next((value for name, value in headers if name == STREAM_HEADER.encode()), None)
        handoff = self.handoffs.take(key.decode()) if key else None
        if handoff is not None:  # its length is open: drop the empty body's
            headers = [(n, v) for n, v in headers
                       if n not in (STREAM_HEADER.encode(), b"content-length")]
        await send({"type": "http.response.start", "status": status, "headers": headers})
        if handoff is None:
            await send({"type": "http.response.body", "body": payload, "more_body": False})
            return
        listener, first, done = handoff
        try:
            await self._stream(listener, first, receive, send)
        except asyncio.CancelledError:
            done(listener)  # the server is stopping: no thread to wait for
            return
        try:
            await loop.run_in_executor(self.pool, done, listener)
        except RuntimeError:  # the pool is shut down: the server is stopping
            done(listener)
            return
        await send({"type": "http.response.body", "body": b"", "more_body": False})

    def _guest_may(self, address: str) -> bool:
        """A guest's request is run if its device's and all guests' buckets
        allow it (the table's own requests are never counted)."""
        now = self.clock()
        bucket = self.per_guest.get(address)
        if bucket is None:
            if len(self.per_guest) > 4096:  # addresses are cheap to make: forget the full ones
                self.per_guest = {a: b for a, b in self.per_guest.items() if not b.full(now)}
            bucket = self.per_guest[address] = Bucket(*GUEST_RATE)
        return bucket.take(now) and self.all_guests.take(now)

    def _lane(self, whose: str) -> _Lane:
        """A seated device's lane (made at its first request)."""
        lane = self.per_seat.get(whose)
        if lane is None:
            if len(self.per_seat) > 1024:  # every game's phones: forget the idle ones
                now = self.clock()
                self.per_seat = {k: v for k, v in self.per_seat.items() if not v.idle(now)}
            lane = self.per_seat[whose] = _Lane()
        return lane

    def _run(self, environ: dict) -> tuple[int, list[tuple[bytes, bytes]], bytes]:
        """The Flask app on a pool thread: status, headers and the whole body."""
        started: list = []

        def start_response(status: str, headers: list[tuple[str, str]],
                           exc_info: object = None) -> None:
            started[:] = [int(status.split(" ", 1)[0]),
                          [(n.lower().encode("latin-1"), v.encode("latin-1")) for n, v in headers]]

        result = self.app(environ, start_response)
        try:
            payload = b"".join(result)
        finally:
            if hasattr(result, "close"):
                result.close()
        return started[0], started[1], payload

    async def _stream(self, listener: Listener, first: str, receive: Receive,
                      send: Send) -> None:
        """Server-sent events from `listener` until it closes or the reader goes.
        Per message this costs one future and one write: waking is batched
        (`_wake`), the heartbeat and the send time-out are one sweep for all
        streams (`_sweep`), and the reader's leaving is one task per stream."""
        loop = asyncio.get_running_loop()
        self._start_sweeping(loop)
        follower = _Follower(asyncio.current_task())
        listener.wake = partial(self._wake, loop, follower)
        self._followers.add(follower)
        gone = asyncio.ensure_future(_disconnected(receive))
        gone.add_done_callback(lambda _: follower.leave())
        try:
            text: str | None = f"retry: 2000\n\ndata: {first}\n\n"
            while not follower.gone:
                if text is None:
                    if not listener.queue.queue and not follower.beat:  # (a peek; taken locked)
                        await follower.sleep(loop)
                        continue
                    newest = _drain(listener)  # whole views: only the newest matters
                    if listener.closed:
                        text = f"event: {listener.reason}\ndata: {{}}\n\n"
                        follower.gone = True  # after this last word
                    elif newest:
                        text = f"data: {newest}\n\n"
                    elif follower.beat:
                        text = ": heartbeat\n\n"
                    follower.beat = False
                    if text is None:
                        continue
                follower.writing_since = loop.time()
                try:
                    await send({"type": "http.response.body", "body": text.encode(),
                                "more_body": True})
                except asyncio.CancelledError:
                    if follower.timed_out:
                        return  # the sweep gave up on this reader
                    raise
                except Exception:  # the connection is gone under us
                    return
                follower.writing_since, text = None, None
        finally:
            listener.wake = None
            self._followers.discard(follower)
            gone.cancel()

    def _wake(self, loop: asyncio.AbstractEventLoop, follower: _Follower) -> None:
        """A listener has a message (any thread): one call into the loop per
        batch of wakes, not one per stream (a publish wakes ~22 at once)."""
        with self._wake_lock:
            first = not self._to_wake
            self._to_wake.append(follower)
        if first:
            loop.call_soon_threadsafe(self._flush)

    def _flush(self) -> None:
        with self._wake_lock:
            batch, self._to_wake = self._to_wake, []
        for follower in batch:
            follower.poke()

    def _start_sweeping(self, loop: asyncio.AbstractEventLoop) -> None:
        if self._sweeping is None or self._sweeping.get_loop() is not loop:
            self._sweeping = loop.create_task(self._sweep(loop))

    async def _sweep(self, loop: asyncio.AbstractEventLoop) -> None:
        """Every heartbeat: each stream owes its reader a heartbeat comment,
        and a stream whose reader has not taken a message for SEND_TIMEOUT_S ends."""
        while True:
            await asyncio.sleep(self.heartbeat_s)
            now = loop.time()
            for follower in list(self._followers):
                since = follower.writing_since
                if since is not None and now - since > SEND_TIMEOUT_S:
                    follower.timed_out = True
                    follower.task.cancel()
                else:
                    follower.beat = True
                    follower.poke()

    def close(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)
        self.gm_pool.shutdown(wait=False, cancel_futures=True)
        self.guests.shutdown(wait=False, cancel_futures=True)


class _Follower:
    """One open stream's state on the loop."""

    def __init__(self, task: asyncio.Task | None) -> None:
        assert task is not None
        self.task = task
        self.waiter: asyncio.Future | None = None
        self.beat = False  # a heartbeat is due
        self.gone = False  # the reader left (or the stream said its last word)
        self.timed_out = False
        self.writing_since: float | None = None  # loop time a write began, until it is taken

    async def sleep(self, loop: asyncio.AbstractEventLoop) -> None:
        self.waiter = loop.create_future()
        try:
            await self.waiter
        finally:
            self.waiter = None

    def poke(self) -> None:
        waiter = self.waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    def leave(self) -> None:
        self.gone = True
        self.poke()


class Bucket:
    """A token bucket: `rate` requests a second on average, `burst` at once."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = rate, burst
        self.tokens, self.at = burst, -1.0

    def take(self, now: float) -> bool:
        if self.at >= 0:
            self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    def full(self, now: float) -> bool:
        return self.tokens + (now - self.at) * self.rate >= self.burst


class _Lane:
    """One seated device's requests: its bucket, and the turns of those that
    run (`SEAT_AT_ONCE` at a time; the others wait here, on the loop)."""

    def __init__(self) -> None:
        self.bucket = Bucket(*SEAT_RATE)
        self.turns = asyncio.Semaphore(SEAT_AT_ONCE)
        self.users = 0  # requests running or waiting their turn

    async def __aenter__(self) -> None:
        self.users += 1
        try:
            await self.turns.acquire()
        except BaseException:
            self.users -= 1
            raise

    async def __aexit__(self, *exc: object) -> None:
        self.turns.release()
        self.users -= 1

    def idle(self, now: float) -> bool:
        return self.users == 0 and self.bucket.full(now)


def head_problem(headers: Iterable[tuple[str, str]]) -> tuple[int, str] | None:
    """(431, what) for a request head over its limits (HEADER_LIMITS, MAX_HEAD,
    MAX_HEADERS), else None."""
    count = total = 0
    for name, value in headers:
        key = name.lower()
        count += 1
        total += len(name) + len(value) + 4
        limit = HEADER_LIMITS.get(key, HEADER_LIMIT)
        if len(value) > limit:
            return 431, f"request header {key!r} over {limit} bytes"
        if count > MAX_HEADERS:
            return 431, f"over {MAX_HEADERS} request headers"
        if total > MAX_HEAD:
            return 431, f"request headers over {MAX_HEAD} bytes in all"
    return None


def _length(scope: Scope) -> int:
    for name, value in scope.get("headers", []):
        if name.lower() == b"content-length":
            try:
                return int(value)
            except ValueError:
                return 0
    return 0


async def _refuse(send: Send, status: int, message: str) -> None:
    body = json.dumps({"error": message}).encode()
    await send({"type": "http.response.start", "status": status, "headers": [
        (b"content-type", b"application/json"), (b"cache-control", b"no-store"),
        (b"connection", b"close"), (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body, "more_body": False})


async def _too_many(send: Send) -> None:
    """429, after a second: a guest's (or a seat's) loop of requests is
    slowed to one a second per connection, at the cost of a sleeping coroutine."""
    await asyncio.sleep(TARPIT_S)
    body = b'{"error": "too many requests from this device: wait a moment, then retry"}'
    await send({"type": "http.response.start", "status": 429, "headers": [
        (b"content-type", b"application/json"), (b"retry-after", b"1"),
        (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body, "more_body": False})


def _drain(listener: Listener) -> str:
    """Take every queued message at once (one lock); the newest non-empty
    one is what the reader needs (each is a whole view)."""
    q = listener.queue
    with q.mutex:
        messages = list(q.queue)
        q.queue.clear()
        q.not_full.notify_all()
    return next((m for m in reversed(messages) if m), "")


async def _disconnected(receive: Receive) -> None:
    while (await receive())["type"] != "http.disconnect":
        pass


async def _read_body(receive: Receive, cap: int) -> bytes | None:
    """The request's body, or None once it passes `cap` bytes (the rest is not read)."""
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            break
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > cap:
            return None
        chunks.append(chunk)
        if not message.get("more_body"):
            break
    return b"".join(chunks)


async def _lifespan(receive: Receive, send: Send) -> None:
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            await send({"type": "lifespan.shutdown.complete"})
            return


def _environ(scope: Scope, body: bytes, handoffs: Handoffs) -> dict:
    """PEP 3333's environ for one ASGI HTTP request."""
    server = scope.get("server") or ("localhost", 80)
    client = scope.get("client") or ("", 0)
    path = scope.get("root_path", "") + scope["path"]
    environ = {
        "REQUEST_METHOD": scope["method"],
        "SCRIPT_NAME": "",
        "PATH_INFO": path.encode("utf-8").decode("latin-1"),  # PEP 3333: bytes as latin-1
        "QUERY_STRING": scope.get("query_string", b"").decode("latin-1"),
        "SERVER_NAME": str(server[0]),
        "SERVER_PORT": str(server[1]),
        "SERVER_PROTOCOL": f"HTTP/{scope.get('http_version', '1.1')}",
        "REMOTE_ADDR": str(client[0]),
        "REMOTE_PORT": str(client[1]),
        "CONTENT_LENGTH": str(len(body)),
        "wsgi.version": (1, 0),
        "wsgi.url_scheme": scope.get("scheme", "http"),
        "wsgi.input": BytesIO(body),
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": True,
        "wsgi.multiprocess": False,
        "wsgi.run_once": False,
        ENVIRON_KEY: handoffs,
    }
    for raw_name, raw_value in scope.get("headers", []):
        name = raw_name.decode("latin-1").upper().replace("-", "_")
        value = raw_value.decode("latin-1")
        if name == "CONTENT_TYPE":
            environ["CONTENT_TYPE"] = value
            continue
        if name == "CONTENT_LENGTH":
            continue  # the body as read
        key = f"HTTP_{name}"
        joiner = "; " if name == "COOKIE" else ","
        environ[key] = f"{environ[key]}{joiner}{value}" if key in environ else value
    return environ
