"""The hub's server: uvicorn serving `front.Front` on one asyncio loop.

What a hostile Wi-Fi cannot do here [issue 17], and which part sees to it:
- hold a thread with an open stream: streams are coroutines (`front.py`);
- open unbounded streams: `audiences.StreamCaps`;
- queue in front of the table with a flood of requests: guests' requests
  run on their own threads (`trust.py`);
- slow the table from one seated phone: a seat's requests are limited per
  device, and run a few at a time, behind their own; the GM's have threads
  of their own (`front.py`) [issue 30];
- hold connections with half-sent requests (slowloris) or idle keep-alives:
  a connection with no whole request head `IDLE_S` after it opened or after
  its last answer is closed (`_HeadDeadline`), and a request head past
  `MAX_HEAD` bytes is refused; a whole head over a header's own limit, the
  URL's or the body's is refused by the front at once (431, 414, 413) [issue 41];
- keep a dead phone's stream (dropped off the Wi-Fi, never closed): TCP
  keepalive probes an idle line every `KEEPALIVE_S`, and TCP_USER_TIMEOUT
  gives up on data left unacknowledged for `USER_TIMEOUT_S`; a stream too
  slow to take a message is ended by the front;
- run the hub out of file descriptors: the soft limit is raised to the hard one.

Why uvicorn (Hypercorn served until issue 15 item 11): an action makes the
hub write ~22 stream messages and answer one POST. Through Hypercorn's layers
(its own events, h11, a lock and a drain per write) that cost the loop
~1.2 ms more CPU per action than uvicorn's direct transport writes with
httptools' C parser (measured side by side: docs/performance/hub.md). Where
httptools has no wheel, uvicorn parses with h11 (pure Python), as Hypercorn did.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import socket
from collections.abc import Callable, Iterator
from typing import Any

import uvicorn
from flask import Flask
from uvicorn.protocols.http.h11_impl import H11Protocol

from . import MAX_BODY
from .front import MAX_HEAD, Front
from .trust import trusted_requests

THREADS = 16  # requests at once: ballots of a whole table land in one group commit
IDLE_S = 5  # a connection with no whole request for this long is closed
KEEPALIVE_S = 20  # an idle line is probed after this long, then every 5 s, 3 times
USER_TIMEOUT_S = 30  # data unacknowledged this long: the peer is gone
BACKLOG = 1024
GRACEFUL_S = 2  # at stop, streams still open are ended after this long


def listening_socket(host: str, port: int) -> socket.socket:
    """A bound, listening TCP socket whose accepted connections inherit
    keepalive and the user time-out (Linux copies them on accept)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
    for name, value in (("TCP_KEEPIDLE", KEEPALIVE_S), ("TCP_KEEPINTVL", 5),
                        ("TCP_KEEPCNT", 3), ("TCP_USER_TIMEOUT", USER_TIMEOUT_S * 1000),
                        ("TCP_NODELAY", 1)):
        option = getattr(socket, name, None)
        if option is not None:  # Linux has them all; elsewhere, the defaults
            sock.setsockopt(socket.IPPROTO_TCP, option, value)
    try:
        sock.bind((host, port))
        sock.listen(BACKLOG)
    except OSError:
        sock.close()
        raise
    sock.setblocking(False)
    return sock


def raise_file_limit() -> None:
    try:
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        wanted = hard if hard != resource.RLIM_INFINITY else 65536
        if soft < wanted:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    except (ImportError, ValueError, OSError):
        pass  # not POSIX, or not allowed: the default limit stands


class HubServer:
    """`werewolf serve`'s server (and the browser tests'): bind at once (so
    the port is known and a busy one fails early), then `run()` until `stop()`."""

    def __init__(self, app: Flask, host: str, port: int, threads: int = THREADS,
                 limit_loopback: bool = False) -> None:
        self.sock = listening_socket(host, port)
        self.port: int = self.sock.getsockname()[1]
        self.front = Front(app, threads=threads, max_body=MAX_BODY,
                           heartbeat_s=float(app.config["HEARTBEAT_S"]),
                           trusted=trusted_requests(app), limit_loopback=limit_loopback)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stopping: asyncio.Event | None = None
        self._stop_early = False

    def run(self, on_signal: Callable[[], None] | None = None) -> None:
        """Serve until `stop()` (or, with `on_signal`, SIGTERM/SIGINT: it is
        called first, in the loop's thread)."""
        raise_file_limit()
        asyncio.run(self._serve(on_signal))

    async def _serve(self, on_signal: Callable[[], None] | None) -> None:
        self._loop = asyncio.get_running_loop()
        self._stopping = asyncio.Event()
        if self._stop_early:
            self._stopping.set()
        if on_signal is not None:
            for signum in (signal.SIGTERM, signal.SIGINT):
                self._loop.add_signal_handler(signum, self._signalled, on_signal)
        config = uvicorn.Config(
            self.front, http=guarded_protocol(), lifespan="on", backlog=BACKLOG,
            timeout_keep_alive=IDLE_S, timeout_graceful_shutdown=GRACEFUL_S,
            h11_max_incomplete_event_size=MAX_HEAD,
            proxy_headers=False,  # a guest's X-Forwarded-For proves nothing: its address does
            server_header=False, access_log=False, log_config=None, ws="none")
        server = _Server(config)
        until = asyncio.ensure_future(self._stopping.wait())
        until.add_done_callback(lambda _: setattr(server, "should_exit", True))
        try:
            await server.serve(sockets=[self.sock])
        finally:
            until.cancel()

    def _signalled(self, on_signal: Callable[[], None]) -> None:
        on_signal()
        self.stop()

    def stop(self) -> None:
        """Stop serving (from any thread); `run()` returns once open streams end."""
        loop, stopping = self._loop, self._stopping
        if loop is None or stopping is None:
            self._stop_early = True
            return
        loop.call_soon_threadsafe(stopping.set)

    def close(self) -> None:
        self.front.close()
        self.sock.close()


class _Server(uvicorn.Server):
    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield  # HubServer.run's handlers stand: on_signal, then stop


class _HeadDeadline:
    """A connection must send a whole request head within IDLE_S of opening,
    and of each answer: past it, with no request being served, it is closed
    (uvicorn's own keep-alive timer stops at the first byte: one byte every
    few seconds would hold the connection for ever)."""

    transport: asyncio.Transport
    cycle: Any
    loop: asyncio.AbstractEventLoop
    _deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:
        super().connection_made(transport)  # type: ignore[misc]
        self._arm()

    def on_response_complete(self) -> None:
        super().on_response_complete()  # type: ignore[misc]
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
        super().connection_lost(exc)  # type: ignore[misc]

    def _arm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
        self._deadline = self.loop.call_later(IDLE_S, self._expired)

    def _serving(self) -> bool:
        """A whole request head came and its answer is not finished."""
        return self.cycle is not None and not self.cycle.response_complete

    def _expired(self) -> None:
        self._deadline = None
        if not self._serving() and not self.transport.is_closing():
            self.transport.close()


class _GuardedH11(_HeadDeadline, H11Protocol):  # type: ignore[misc]  # uvicorn's own narrowing
    """h11 refuses a head past MAX_HEAD itself (h11_max_incomplete_event_size)."""


def guarded_protocol() -> type:
    """httptools' protocol with the head deadline and MAX_HEAD, or (no
    httptools on this machine) h11's."""
    try:
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
    except ImportError:
        return _GuardedH11

    class GuardedHttpTools(_HeadDeadline, HttpToolsProtocol):  # type: ignore[misc]  # as above
        """A head still not whole after MAX_HEAD bytes is answered 400 and
        its connection closed, as h11 does (httptools would keep growing it)."""

        _head = 0  # bytes of the head under way (none while a request is served)

        def data_received(self, data: bytes) -> None:
            heading = not self._serving()
            super().data_received(data)
            if self._serving():  # a head came whole: the next one counts from zero
                self._head = 0
            elif heading:  # these bytes did not end the head
                self._head += len(data)
                if self._head > MAX_HEAD and not self.transport.is_closing():
                    self.send_400_response(f"Request head over {MAX_HEAD} bytes.")

    return GuardedHttpTools
