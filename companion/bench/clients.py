"""The benches' clients of a live hub: `werewolf serve` in a subprocess, its
event streams read over plain sockets, and the arithmetic of their arrival
times (`hub`, `hostile`, `presses` of companion/bench/ share them)."""

from __future__ import annotations

import http.client
import json
import os
import platform
import selectors
import signal
import socket
import statistics
import struct
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

TOKEN = "bench-gm-token"
HOST = "127.0.0.1"
QUIET_S = 0.020  # no stream message for this long: the action's messages are all in
START_TIMEOUT_S = 30.0
WAIT_S = 10.0  # bound on any one wait for the hub
#: Linux's SO_TIMESTAMPNS (its value on x86, ARM and RISC-V; Python names
#: no constant): the kernel stamps each segment a socket receives with the
#: wall clock, and `recvmsg` hands the last one read over. A stream's message
#: is timed when it reached its socket, as a phone's would be, not when the
#: bench's one reader got round to it [2026-12-02]
SO_TIMESTAMPNS = 35
KERNEL_STAMPS = sys.platform == "linux" and platform.machine() in (
    "x86_64", "i686", "aarch64", "armv6l", "armv7l", "armv8l", "riscv64")
_TIMESPEC = struct.Struct("@ll")
_ANCILLARY = socket.CMSG_SPACE(_TIMESPEC.size) if KERNEL_STAMPS else 0
#: why the kernel's stamps were not used where they should be: qemu-user offers
#: no SO_TIMESTAMPNS (setsockopt fails, OSError 92, ENOPROTOOPT) [issue 31]; the
#: messages are then timed when the reader took them, and the figures say so
_STAMPS_REFUSED: list[str] = []


def arrival_timing() -> dict:
    """How this run timed each message's arrival: "kernel" (the socket's
    receive stamp) or "reader" (when the bench's reader took it), and why."""
    if not KERNEL_STAMPS:
        return {"arrival_timing": "reader",
                "arrival_timing_why": f"no receive stamps on {sys.platform} {platform.machine()}"}
    if _STAMPS_REFUSED:
        return {"arrival_timing": "reader",
                "arrival_timing_why": f"SO_TIMESTAMPNS refused ({_STAMPS_REFUSED[0]})"}
    return {"arrival_timing": "kernel", "arrival_timing_why": "SO_TIMESTAMPNS"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def machine() -> dict:
    cpu = platform.processor()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as fh:
            for line in fh:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return {"python": platform.python_version(), "implementation": platform.python_implementation(),
            "system": platform.system(), "machine": platform.machine(), "cpu": cpu,
            "cpus": os.cpu_count()}


class Server:
    """`werewolf serve` as a subprocess of this interpreter and this package."""

    def __init__(self, data: Path) -> None:
        self.data = data
        self.port = free_port()
        self.proc: subprocess.Popen | None = None

    def start(self) -> float:
        """Start it; return the seconds until GET /api/public first answers 200."""
        root = str(Path(__file__).resolve().parents[1])  # the folder holding `companion`
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(
            p for p in (root, os.environ.get("PYTHONPATH", "")) if p),
               # no manual (/help) built in the background: it would share the
               # cores with what is measured, and under qemu it was still writing
               # the data folder when the bench removed it [issue 31]
               "WEREWOLF_MANUAL_AT_START": "0"}
        with open(self.data / "serve.log", "w", encoding="utf-8") as log:
            t0 = time.perf_counter()
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "companion.cli", "serve", "--host", HOST, "--port",
                 str(self.port), "--data", str(self.data), "--gm-token", TOKEN],
                cwd=root, env=env, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        while time.perf_counter() - t0 < START_TIMEOUT_S:
            if self.proc.poll() is not None:
                raise RuntimeError(f"werewolf serve exited ({self.proc.returncode}): "
                                   f"{self.log_tail()}")
            try:
                if self.request("GET", "/api/public", timeout=1.0)[0] == 200:
                    return time.perf_counter() - t0
            except OSError:
                pass
            time.sleep(0.01)
        raise RuntimeError(f"werewolf serve did not answer in {START_TIMEOUT_S} s")

    def log_tail(self) -> str:
        try:
            return (self.data / "serve.log").read_text(encoding="utf-8", errors="replace")[-2000:]
        except OSError:
            return ""

    def cpu_s(self) -> float | None:
        """The server's CPU time so far (user + system, /proc/<pid>/stat): a
        figure that other work on the machine barely moves, unlike wall time."""
        assert self.proc is not None
        try:
            with open(f"/proc/{self.proc.pid}/stat", encoding="utf-8") as fh:
                fields = fh.read().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, ValueError, IndexError):
            return None

    def rss_mb(self) -> float | None:
        assert self.proc is not None
        try:
            with open(f"/proc/{self.proc.pid}/status", encoding="utf-8") as fh:
                for line in fh:
                    if line.startswith("VmRSS:"):
                        return round(int(line.split()[1]) / 1024, 1)
        except OSError:
            pass
        return None

    def stop(self) -> None:
        if self.proc is None:
            return
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=WAIT_S)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=WAIT_S)
        self.proc = None

    def request(self, method: str, path: str, body: object = None, timeout: float = WAIT_S,
                headers: dict | None = None) -> tuple[int, dict, http.client.HTTPResponse]:
        conn = http.client.HTTPConnection(HOST, self.port, timeout=timeout)
        try:
            hdrs = {"Authorization": f"Bearer {TOKEN}", **(headers or {})}
            data = None if body is None else json.dumps(body).encode()
            if data is not None:
                hdrs["Content-Type"] = "application/json"
            conn.request(method, path, body=data, headers=hdrs)
            response = conn.getresponse()
            raw = response.read()
            try:
                doc = json.loads(raw) if raw else {}
            except ValueError:
                doc = {}
            return response.status, doc, response
        finally:
            conn.close()


class Stream:
    """One server-sent-event stream, read over a plain socket (HTTP/1.0, so the
    body is the raw event text); every message is kept with its arrival time.

    Every stream is read by one thread (`_Reader`, a selector), as a phone's
    browser reads its own: the bench's reading costs one `recv` per arrival,
    not a thread woken per message and 22 threads queueing for this
    process's GIL, which the figures would count as the hub's latency. A
    message's time is its arrival at the socket (the kernel's stamp, where
    `KERNEL_STAMPS`); `lags` keeps how much later the reader took it."""

    def __init__(self, name: str, port: int, path: str, headers: dict[str, str],
                 stop: threading.Event, track_seq: bool = False) -> None:
        self.label, self.port, self.path, self.headers, self.stop = name, port, path, headers, stop
        self.track_seq = track_seq  # parse each message for its seq (the GM's: actions applied)
        self.messages: list[tuple[float, str]] = []  # (arrival, message)
        #: per message, how long after its arrival the bench's reader took it
        #: (0 without the kernel's stamps): the reader's share, not the hub's
        self.lags: list[float] = []
        self.last_arrival = 0.0
        self.seq = -1  # the last message's "seq"
        self.status: int | None = None
        self.error: str | None = None
        self.ended = False
        self.started = False
        self.changed = threading.Condition()
        self._buf = b""
        self._head = True

    def start(self) -> None:
        """Connect, send the request and hand the socket to the reader."""
        self.started = True
        lines = [f"GET {self.path} HTTP/1.0", f"Host: {HOST}:{self.port}",
                 "Accept: text/event-stream"] + [f"{k}: {v}" for k, v in self.headers.items()]
        try:
            sock = socket.create_connection((HOST, self.port), timeout=WAIT_S)
            if KERNEL_STAMPS:
                try:
                    sock.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
                except OSError as err:  # qemu-user: [Errno 92] Protocol not available
                    if not _STAMPS_REFUSED:
                        _STAMPS_REFUSED.append(f"{type(err).__name__}: {err}")
            sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
            sock.setblocking(False)
        except OSError as err:
            self.error = f"{type(err).__name__}: {err}"
            self._end()
            return
        _Reader.shared().add(self, sock)

    def is_alive(self) -> bool:
        return self.started and not self.ended

    def join(self, timeout: float | None = None) -> None:
        with self.changed:
            self.changed.wait_for(lambda: self.ended, timeout=timeout)

    def _end(self) -> None:
        with self.changed:
            self.ended = True
            self.changed.notify_all()

    def _received(self, now: float, chunk: bytes, lag: float = 0.0) -> bool:
        """Bytes that arrived at `now` (and were read `lag` s later); False
        once the stream is over."""
        self._buf += chunk
        if self._head:
            if b"\r\n\r\n" not in self._buf:
                return True
            status_line, self._buf = self._buf.split(b"\r\n\r\n", 1)
            self.status = int(status_line.split(b" ", 2)[1])
            self._head = False
            if self.status != 200:
                return False
        while b"\n\n" in self._buf:
            event, self._buf = self._buf.split(b"\n\n", 1)
            if not self._event(now, event.decode("utf-8"), lag):
                return False
        return True

    def _event(self, now: float, text: str, lag: float = 0.0) -> bool:
        data = [line[5:].lstrip(" ") for line in text.split("\n") if line.startswith("data:")]
        if any(line.startswith("event: closed") for line in text.split("\n")):
            return False
        if not data:
            return True  # a heartbeat or the retry hint
        message = "\n".join(data)
        seq = json.loads(message).get("seq", -1) if self.track_seq else -1
        with self.changed:
            self.messages.append((now, message))
            self.lags.append(lag)
            self.last_arrival = now
            self.seq = seq if isinstance(seq, int) else -1
            self.changed.notify_all()
        return True

    def wait(self, test: Callable[[Stream], bool], timeout: float = WAIT_S) -> None:
        with self.changed:
            if not self.changed.wait_for(lambda: self.ended or test(self), timeout=timeout):
                raise RuntimeError(f"stream {self.label}: no expected message in {timeout} s")
            if not test(self):
                raise RuntimeError(f"stream {self.label} ended: status {self.status}, "
                                   f"{self.error or 'closed'}")


class _Reader(threading.Thread):
    """The one thread that reads every open `Stream` (a selector over their
    sockets). Each ready socket is read and stamped before any is parsed, so
    one stream's parsing does not delay another's arrival time."""

    _one: _Reader | None = None
    _lock = threading.Lock()

    def __init__(self) -> None:
        super().__init__(name="bench-streams", daemon=True)
        self.selector = selectors.DefaultSelector()
        self.wakeup, self._poke = socket.socketpair()
        self.wakeup.setblocking(False)
        self.selector.register(self.wakeup, selectors.EVENT_READ, None)
        self.pending: list[tuple[Stream, socket.socket]] = []

    @classmethod
    def shared(cls) -> _Reader:
        with cls._lock:
            if cls._one is None or not cls._one.is_alive():
                cls._one = cls()
                cls._one.start()
            return cls._one

    def add(self, stream: Stream, sock: socket.socket) -> None:
        with self._lock:
            self.pending.append((stream, sock))
        self._poke.send(b"x")

    def run(self) -> None:
        socks: dict[Stream, socket.socket] = {}
        while True:
            with self._lock:
                for stream, sock in self.pending:
                    socks[stream] = sock
                    self.selector.register(sock, selectors.EVENT_READ, stream)
                self.pending.clear()
            arrived: list[tuple[Stream, float, float, bytes]] = []
            for key, _ in self.selector.select(timeout=0.2):
                stream = key.data
                if stream is None:
                    try:
                        self.wakeup.recv(4096)
                    except BlockingIOError:
                        pass
                    continue
                try:
                    chunk, lag = _read(socks[stream])
                except BlockingIOError:
                    continue
                except OSError as err:
                    stream.error = f"{type(err).__name__}: {err}"
                    chunk, lag = b"", 0.0
                arrived.append((stream, time.perf_counter() - lag, lag, chunk))
            for stream, now, lag, chunk in arrived:
                if not chunk or not stream._received(now, chunk, lag):
                    self._close(socks, stream)
            for stream in [s for s in socks if s.stop.is_set()]:
                self._close(socks, stream)

    def _close(self, socks: dict[Stream, socket.socket], stream: Stream) -> None:
        sock = socks.pop(stream, None)
        if sock is None:
            return
        self.selector.unregister(sock)
        sock.close()
        stream._end()


def _read(sock: socket.socket) -> tuple[bytes, float]:
    """What the socket holds, and how long ago (s) the kernel received its
    last segment (0 when it gives no stamp)."""
    if not KERNEL_STAMPS:
        return sock.recv(1 << 16), 0.0
    chunk, ancillary, _, _ = sock.recvmsg(1 << 16, _ANCILLARY)
    read = time.time()
    for level, kind, data in ancillary:
        if level == socket.SOL_SOCKET and kind == SO_TIMESTAMPNS and len(data) >= _TIMESPEC.size:
            seconds, nanoseconds = _TIMESPEC.unpack_from(data)
            # both stamps are the wall clock, a moment apart: only a step of
            # it (NTP) between them could skew this; it is kept within [0, 1 s]
            return chunk, min(max(0.0, read - (seconds + nanoseconds / 1e9)), 1.0)
    return chunk, 0.0


def view_content(message: str) -> dict:
    """A view without what every message carries anew: its seq and the hub's clock."""
    view = json.loads(message)
    view.pop("seq", None)
    view.pop("now", None)
    return dict(view)


def arrival_latencies(streams: list[Stream], sends: list[float],
                      end: float) -> tuple[list[float], list[float], int]:
    """Per action (sent at sends[k], the last one's window closing at `end`): ms
    until the last stream whose view it changed had its message; the same
    until the bench's reader took it (each message counted against the
    action of its arrival); and how many such deliveries there were in all."""
    ends = sends[1:] + [end]
    worst = [0.0] * len(sends)
    worst_read = [0.0] * len(sends)
    deliveries = 0
    for stream in streams:
        previous: dict | None = None
        k = 0
        seen = -1  # the last action this stream already had a message for
        for (t, message), lag in zip(list(stream.messages), list(stream.lags)):
            content = view_content(message)
            changed, previous = previous is not None and content != previous, content
            while k < len(sends) and t >= ends[k]:
                k += 1
            if not changed or k >= len(sends) or t < sends[k] or seen == k:
                continue
            seen = k
            deliveries += 1
            worst[k] = max(worst[k], (t - sends[k]) * 1000)
            worst_read[k] = max(worst_read[k], (t + lag - sends[k]) * 1000)
    return worst, worst_read, deliveries


def settle(streams: list[Stream]) -> None:
    """Wait until no stream has received anything for QUIET_S (at most WAIT_S)."""
    limit = time.perf_counter() + WAIT_S
    while (now := time.perf_counter()) < limit:
        last = max(s.last_arrival for s in streams)
        if now - last >= QUIET_S:
            return
        time.sleep(QUIET_S - (now - last) + 0.001)


def percentile(values: list[float], q: int) -> float:
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1]
