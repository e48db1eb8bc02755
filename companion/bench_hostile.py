"""`werewolf bench hub`'s flood figures [issue 17]: anonymous devices doing
their worst while the GM plays, and what the table's own pages still get."""

from __future__ import annotations

import http.client
import json
import socket
import time

from .bench_clients import (
    HOST,
    TOKEN,
    WAIT_S,
    Server,
    Stream,
    arrival_latencies,
    percentile,
    settle,
)

FLOOD_DEVICES = 100  # hostile guests, each from its own loopback address (127.0.1.x)
FLOOD_PER_DEVICE = 2  # public streams each, never read
FLOOD_SLOW = 200  # half-sent requests (slowloris), one byte a second


class _Flood:
    """Anonymous devices doing their worst: `FLOOD_DEVICES` addresses that each
    open `FLOOD_PER_DEVICE` public streams and never read them, and
    `FLOOD_SLOW` connections that send a request's head a byte a second."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.socks: list[socket.socket] = []
        self.statuses: list[int] = []
        self.slow: list[socket.socket] = []
        self.slow_closed = 0

    def open(self) -> None:
        for i in range(FLOOD_DEVICES * FLOOD_PER_DEVICE):
            device = i % FLOOD_DEVICES
            sock = socket.create_connection(
                (HOST, self.port), timeout=WAIT_S,
                source_address=(f"127.0.{1 + device // 250}.{1 + device % 250}", 0))
            sock.sendall(f"GET /api/public/stream HTTP/1.1\r\nHost: {HOST}\r\n\r\n".encode())
            head = sock.recv(512)
            self.statuses.append(int(head.split(b" ", 2)[1]) if head else 0)
            self.socks.append(sock)
        for _ in range(FLOOD_SLOW):
            sock = socket.create_connection((HOST, self.port), timeout=WAIT_S)
            sock.sendall(b"GET /api/public HTTP/1.1\r\nHost: ")
            sock.setblocking(False)
            self.slow.append(sock)

    def trickle(self) -> None:
        """One more byte on every half-sent request (a closed one is counted)."""
        for sock in self.slow:
            try:
                sock.send(b"x")
            except OSError:
                self.slow_closed += 1
                sock.close()
        self.slow = [sock for sock in self.slow if sock.fileno() != -1]

    def close(self) -> None:
        for sock in self.socks + self.slow:
            sock.close()


def flooded(server: Server, streams: list[Stream], rounds: int) -> dict:
    """The table's own pages and the GM, while `_Flood` is at work: the GM
    pauses and resumes (every view changes), `rounds` times, a second apart;
    its round trips and each change's arrival on the table's streams."""
    flood = _Flood(server.port)
    sends: list[float] = []
    acks: list[float] = []
    try:
        flood.open()
        settle(streams)
        conn = http.client.HTTPConnection(HOST, server.port, timeout=WAIT_S)
        headers = {"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"}
        for k in range(rounds):
            flood.trickle()
            t0 = time.perf_counter()
            body = json.dumps({"do": "pause" if k % 2 == 0 else "resume"}).encode()
            conn.request("POST", "/api/timer", body=body, headers=headers)
            response = conn.getresponse()
            reply = response.read()
            acks.append((time.perf_counter() - t0) * 1000)
            sends.append(t0)
            if response.status != 200:
                raise RuntimeError(f"the GM's timer was refused ({response.status}): {reply!r}")
            settle(streams)
            time.sleep(max(0.0, 1.0 - (time.perf_counter() - t0)))
        conn.close()
        latencies, _, _ = arrival_latencies(streams, sends, time.perf_counter())
    finally:
        flood.close()
    return {
        "flood_gm_p95_ms": round(percentile(acks, 95), 2),
        "flood_msg_p99_ms": round(percentile(latencies, 99), 2) if latencies else None,
        "flood_streams": sum(1 for status in flood.statuses if status == 200),
        "flood_refused": sum(1 for status in flood.statuses if status == 429),
        "flood_slowloris_closed": flood.slow_closed,
    }
