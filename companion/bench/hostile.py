"""`werewolf bench hub`'s flood figures: anonymous devices doing their worst
while the GM plays, and what the table's own pages still get [issue 17]
(`flood_*`); one seated phone flooding its own link (`seat_flood_*`,
beside the same figures with no flood, `seat_calm_*`) [issue 30]."""

from __future__ import annotations

import http.client
import json
import socket
import statistics
import subprocess
import sys
import time

from .clients import (
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


def _gm_press(conn: http.client.HTTPConnection, headers: dict, k: int) -> float:
    """The GM's k-th press of the clock (pause, resume, in turns), its answer
    read whole; answers when it was sent (perf_counter)."""
    t0 = time.perf_counter()
    body = json.dumps({"do": "pause" if k % 2 == 0 else "resume"}).encode()
    conn.request("POST", "/api/timer", body=body, headers=headers)
    response = conn.getresponse()
    reply = response.read()
    if response.status != 200:
        raise RuntimeError(f"the GM's timer was refused ({response.status}): {reply!r}")
    return t0


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
            t0 = _gm_press(conn, headers, k)
            acks.append((time.perf_counter() - t0) * 1000)
            sends.append(t0)
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


SEAT_FLOOD_CONNECTIONS = 16  # one seat's link and device cookie, on 16 keep-alive connections
#: one seat flooding its own state, as fast as its connections allow, in a
#: process of its own (its CPU and GIL, not the bench's); at SIGTERM it
#: prints how many requests were answered 200 and how many 429
SEAT_FLOODER = """
import http.client, json, signal, sys, threading
port, path, cookie, n = int(sys.argv[1]), sys.argv[2], sys.argv[3], int(sys.argv[4])
counts, lock, stop = {"answered": 0, "refused": 0, "other": 0}, threading.Lock(), threading.Event()
def flood():
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    while not stop.is_set():
        try:
            conn.request("GET", path, headers={"Cookie": cookie})
            response = conn.getresponse(); response.read()
            kind = {200: "answered", 429: "refused"}.get(response.status, "other")
        except OSError:
            conn.close(); conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            kind = "other"
        with lock:
            counts[kind] += 1
signal.signal(signal.SIGTERM, lambda *a: stop.set())
for _ in range(n):
    threading.Thread(target=flood, daemon=True).start()
print("ready", flush=True)
stop.wait()
print(json.dumps(counts), flush=True)
"""


def _table_round_trips(server: Server, phones: list[Stream], rounds: int,
                       every_s: float) -> tuple[list[float], list[float], list[float]]:
    """`rounds` times, `every_s` apart: the GM pauses or resumes (a POST: the
    view of every stream changes), then two seats read their state (a
    connection each: a phone's idle keep-alive is closed after 5 s). The GM's
    round trips, per change the arrival of its message on the last of
    `phones`' streams, and the seats' round trips (ms)."""
    gm_conn = http.client.HTTPConnection(HOST, server.port, timeout=WAIT_S)
    headers = {"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"}
    gm: list[float] = []
    sends: list[float] = []
    seats: list[float] = []
    settle(phones)
    try:
        for k in range(rounds):
            t0 = _gm_press(gm_conn, headers, k)
            gm.append((time.perf_counter() - t0) * 1000)
            sends.append(t0)
            settle(phones)
            for i in (2 * k % len(phones), (2 * k + 1) % len(phones)):
                url = phones[i].path.removesuffix("/stream")
                t1 = time.perf_counter()
                conn = http.client.HTTPConnection(HOST, server.port, timeout=WAIT_S)
                conn.request("GET", f"{url}/state", headers=phones[i].headers)
                response = conn.getresponse()
                reply = response.read()
                seats.append((time.perf_counter() - t1) * 1000)
                conn.close()
                if response.status != 200:
                    raise RuntimeError(f"GET {url}/state answered {response.status}: {reply!r}")
            time.sleep(max(0.0, every_s - (time.perf_counter() - t0)))
    finally:
        gm_conn.close()
    arrivals, _, _ = arrival_latencies(phones, sends, time.perf_counter())
    return gm, arrivals, seats


def seat_flooded(server: Server, phones: list[Stream], rounds: int) -> dict:
    """[issue 30 item 3] One seated phone floods: `SEAT_FLOOD_CONNECTIONS`
    connections with its link and device cookie ask for its state as fast
    as they can, while the GM pauses and resumes and the other seats follow
    (`_table_round_trips`, `rounds` times, half a second apart). The same
    is measured first with no flood (`seat_calm_*`), a quarter of a second apart."""
    flooder, others = phones[0], phones[1:]
    calm_gm, calm_msg, calm_seats = _table_round_trips(server, others, rounds, 0.25)
    flood = subprocess.Popen(
        [sys.executable, "-c", SEAT_FLOODER, str(server.port),
         flooder.path.removesuffix("/stream") + "/state", flooder.headers["Cookie"],
         str(SEAT_FLOOD_CONNECTIONS)],
        stdout=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True)
    try:
        assert flood.stdout is not None
        if flood.stdout.readline().strip() != "ready":
            raise RuntimeError("the seat's flood did not start")
        time.sleep(1.0)  # its first burst spent: the figures are the flood's steady state
        t0 = time.perf_counter()
        gm, msg, seats = _table_round_trips(server, others, rounds, 0.5)
        lasted = time.perf_counter() - t0 + 1.0
    finally:
        flood.terminate()
        out = flood.communicate(timeout=WAIT_S)[0].strip().splitlines()
    counts = json.loads(out[-1]) if out else {}
    return {
        "seat_calm_gm_p50_ms": round(statistics.median(calm_gm), 2),
        "seat_calm_gm_p95_ms": round(percentile(calm_gm, 95), 2),
        "seat_calm_msg_p50_ms": round(statistics.median(calm_msg), 2),
        "seat_calm_others_p50_ms": round(statistics.median(calm_seats), 2),
        "seat_flood_gm_p50_ms": round(statistics.median(gm), 2),
        "seat_flood_gm_p95_ms": round(percentile(gm, 95), 2),
        "seat_flood_msg_p50_ms": round(statistics.median(msg), 2),
        "seat_flood_msg_p95_ms": round(percentile(msg, 95), 2),
        "seat_flood_others_p50_ms": round(statistics.median(seats), 2),
        "seat_flood_others_p95_ms": round(percentile(seats, 95), 2),
        "seat_flood_answered": counts.get("answered"),
        "seat_flood_refused": counts.get("refused"),
        "seat_flood_s": round(lasted, 1),
    }
