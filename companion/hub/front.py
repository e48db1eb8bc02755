"""The hub's front door: one asyncio loop holds every connection, and an
open event stream costs a coroutine, never a thread [issue 17].

Why: a page keeps its event stream open for as long as it is shown. Behind a
thread-per-request server each stream held one of its threads, and one `curl`
loop of anonymous streams took them all: the GM, the phones and the TV got no
answer. Here:

- a request runs the Flask app on a small thread pool, one hop each way (the
  whole response is collected in the thread: every answer but a stream is
  one small JSON or page);
- a stream route (`common.stream`) checks who may follow what, as any route
  does, then hands its listener over (`Handoffs`) instead of a body: the
  front answers with the stream's headers and writes its messages from this
  loop. A listener's queue holds whole views, so a slow reader is sent only
  the newest one, and a reader that takes longer than `SEND_TIMEOUT_S` to
  take a message is dropped;
- slow or half-sent requests, idle keep-alive connections and dead phones are
  the server's and the socket's business (`server.py`: Hypercorn's idle
  timeout, TCP keepalive, TCP_USER_TIMEOUT).

Under the Flask test client there is no front: `common.stream` then streams
from a generator, as any WSGI server would run it.
"""

from __future__ import annotations

import asyncio
import itertools
import sys
import threading
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from io import BytesIO
from typing import Any

from ..table import Listener

#: the response header by which a stream route hands its listener to the front
STREAM_HEADER = "x-werewolf-stream"
#: the environ key under which a route finds the front's `Handoffs`
ENVIRON_KEY = "werewolf.streams"
SEND_TIMEOUT_S = 30.0  # a reader this slow to take one message is gone (or hostile)

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
    """The ASGI application Hypercorn serves: Flask for requests, the loop for streams."""

    def __init__(self, app: Wsgi, *, threads: int, max_body: int, heartbeat_s: float) -> None:
        self.app = app
        self.max_body = max_body
        self.heartbeat_s = heartbeat_s
        self.pool = ThreadPoolExecutor(threads, thread_name_prefix="hub-request")
        self.handoffs = Handoffs()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await _lifespan(receive, send)
        elif scope["type"] == "http":
            await self._http(scope, receive, send)

    async def _http(self, scope: Scope, receive: Receive, send: Send) -> None:
        body = await _read_body(receive, self.max_body)
        loop = asyncio.get_running_loop()
        environ = _environ(scope, body if body is not None else b"", self.handoffs)
        if body is None:  # over the cap: Flask answers 413 from the length alone
            environ["CONTENT_LENGTH"] = str(self.max_body + 1)
        status, headers, payload = await loop.run_in_executor(self.pool, self._run, environ)
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
        finally:
            await loop.run_in_executor(self.pool, done, listener)
        await send({"type": "http.response.body", "body": b"", "more_body": False})

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
        """Server-sent events from `listener` until it closes or the reader goes."""
        loop = asyncio.get_running_loop()
        ready = asyncio.Event()
        def wake() -> None:
            loop.call_soon_threadsafe(ready.set)

        listener.wake = wake
        gone = asyncio.ensure_future(_disconnected(receive))
        try:
            if not await self._write(send, f"retry: 2000\n\ndata: {first}\n\n"):
                return
            while not gone.done():
                if listener.queue.empty():
                    ready.clear()
                    if listener.queue.empty():  # nothing came in between
                        waiting = asyncio.ensure_future(ready.wait())
                        finished, _ = await asyncio.wait(
                            {waiting, gone}, timeout=self.heartbeat_s,
                            return_when=asyncio.FIRST_COMPLETED)
                        waiting.cancel()
                        if not finished:
                            if not await self._write(send, ": heartbeat\n\n"):
                                return
                        continue
                newest = _drain(listener)  # whole views: only the newest matters
                if listener.closed:
                    await self._write(send, f"event: {listener.reason}\ndata: {{}}\n\n")
                    return
                if newest and not await self._write(send, f"data: {newest}\n\n"):
                    return
        finally:
            listener.wake = None
            gone.cancel()

    @staticmethod
    async def _write(send: Send, text: str) -> bool:
        try:
            await asyncio.wait_for(
                send({"type": "http.response.body", "body": text.encode(), "more_body": True}),
                SEND_TIMEOUT_S)
        except (TimeoutError, OSError):
            return False
        return True

    def close(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)


def _drain(listener: Listener) -> str:
    newest = ""
    while not listener.queue.empty():
        message = listener.queue.get_nowait()
        if message:
            newest = message
    return newest


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
