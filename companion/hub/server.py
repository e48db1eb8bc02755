"""The hub's server: Hypercorn serving `front.Front` on one asyncio loop.

What a hostile Wi-Fi cannot do here [issue 17], and which part sees to it:
- hold a thread with an open stream: streams are coroutines (`front.py`);
- open unbounded streams: `audiences.StreamCaps`;
- queue in front of the table with a flood of requests: guests' requests
  run on their own threads (`trust.py`);
- hold connections with half-sent requests (slowloris) or idle keep-alives:
  Hypercorn closes a connection that has not sent a whole request within
  `IDLE_S`, and drops a request's head past 16 KB;
- keep a dead phone's stream (dropped off the Wi-Fi, never closed): TCP
  keepalive probes an idle line every `KEEPALIVE_S`, and TCP_USER_TIMEOUT
  gives up on data left unacknowledged for `USER_TIMEOUT_S`; a stream too
  slow to take a message is ended by the front;
- run the hub out of file descriptors: the soft limit is raised to the hard one.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import socket
from collections.abc import Callable

from flask import Flask

from . import MAX_BODY
from .front import Front
from .trust import trusted_requests

THREADS = 16  # requests at once: ballots of a whole table land in one group commit
IDLE_S = 5  # a connection with no whole request for this long is closed
KEEPALIVE_S = 20  # an idle line is probed after this long, then every 5 s, 3 times
USER_TIMEOUT_S = 30  # data unacknowledged this long: the peer is gone
BACKLOG = 1024


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
        from hypercorn.asyncio import serve
        from hypercorn.config import Config

        self._loop = asyncio.get_running_loop()
        self._stopping = asyncio.Event()
        if self._stop_early:
            self._stopping.set()
        if on_signal is not None:
            for signum in (signal.SIGTERM, signal.SIGINT):
                self._loop.add_signal_handler(signum, self._signalled, on_signal)
        config = Config()
        # Hypercorn owns the socket from here, and closes it when it stops
        config.bind = [f"fd://{self.sock.detach()}"]
        config.keep_alive_timeout = IDLE_S
        config.backlog = BACKLOG
        config.accesslog = None
        config.errorlog = logging.getLogger("werewolf.server")
        config.include_server_header = False
        config.graceful_timeout = 2
        await serve(self.front, config,  # type: ignore[arg-type]  # ASGI 3, typed loosely here
                    shutdown_trigger=self._stopping.wait, mode="asgi")

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
