"""`werewolf bench hub`: how fast a real hub answers and fans out, on this machine.

It starts `werewolf serve` in a subprocess (this interpreter, this copy of the
package, a fresh temporary data folder, 127.0.0.1, a free port) and measures:

- `startup_s`: from starting the process to the first HTTP 200 of
  GET /api/public (polled every 10 ms).
- For each game (4 in a full run, 1 cut to 25 actions with `--quick`): a
  20-player millers-hollow game with an explicit deal (4 werewolves, seer,
  witch, hunter, cupid, little girl, defender, 10 villagers) and
  `wolf_attack: any-wolf` (random unanimous wolves would re-pick for
  thousands of actions). 22 server-sent-event streams are open: every seat's
  (GET /p/<token> for the device cookie, then GET /p/<token>/stream), the game
  master's (/api/stream) and the public one (/api/public/stream), each read
  by its own thread over a plain socket and time-stamped on arrival.
- The game master then plays a random legal game (the engine is driven
  locally with the same seed: a random waiting seat picks uniformly among
  its legal actions, as in `werewolf bench engine`) by POSTing each action to
  /api/actions over one keep-alive connection, one at a time.
- `p50_ms` / `p99_ms`: per action, the time from just before the POST is
  sent to the arrival of the last of the messages that reflect it, over every
  stream whose view it changed. A stream's message reflects the action when it
  arrives after that POST was sent and before the next one, and its view
  differs from the stream's previous message once `seq` and `now` (the hub's
  clock when the message was made) are set aside. The hub sends a message
  only when that audience's view changed, so in practice every message counts.
  The game master's stream changes with every action (its `seq` is the number
  of actions applied); a seat's or the public stream only when its own view
  changed (most night actions change two or three of the 22).
  Before the next action is sent, the bench waits for the game master's
  stream to show the action's seq, then for 20 ms in which no stream receives
  anything, so every message is counted against the action that caused it.
  That wait is not part of any figure. Client and server share this machine's
  cores, so the clients' own reading is part of the latency.
- `ack_p50_ms` / `ack_p99_ms`: the POST's own round trip (the action is
  committed to SQLite, `synchronous=FULL`, before the 200).
- `server_cpu_ms`: the server process's CPU time (user + system, from
  /proc/<pid>/stat) over the games, per action: what one action costs the
  hub, whatever else the machine is doing (wall-clock figures are not).
- `rss_mb`: the server's VmRSS (/proc/<pid>/status) after the last action,
  with every stream still open.
- `burst_p50_ms` / `burst_p99_ms`: 17 phones vote at the same instant. An
  18-player game (no sheriff, no discussion) is brought by the game master
  to its first day's ballots; every seat's stream is open and each of 17
  phones holds its own keep-alive connection. Released together (a
  barrier), each POSTs its ballot to /p/<token>/action; each phone's time is
  from just before its POST to its answer (the ballot committed). The 18th
  seat does not vote, so the ballots stay open; the game master's undo then
  takes the ballots back for the next round (10 rounds, 2 with `--quick`).
"""

from __future__ import annotations

import http.client
import json
import os
import platform
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from random import Random

from .engine import Action, State, act, legal_actions, waiting_for
from .engine.actions import sample_uniform
from .replay import setup_game

PLAYERS = 20
DEAL = (["werewolf"] * 4 + ["seer", "witch", "hunter", "cupid", "little-girl", "defender"]
        + ["villager"] * 10)
OPTIONS = {"wolf_attack": "any-wolf"}
TOKEN = "bench-gm-token"
HOST = "127.0.0.1"
QUIET_S = 0.020  # no stream message for this long: the action's messages are all in
START_TIMEOUT_S = 30.0
WAIT_S = 10.0  # bound on any one wait for the hub
MAX_ACTIONS = 2000  # per game; random games end in ~150
BURST_PLAYERS = 18
BURST_VOTERS = 17
FLOOD_DEVICES = 100  # hostile guests, each from its own loopback address (127.0.1.x)
FLOOD_PER_DEVICE = 2  # public streams each, never read
FLOOD_SLOW = 200  # half-sent requests (slowloris), one byte a second


def _free_port() -> int:
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


class _Server:
    """`werewolf serve` as a subprocess of this interpreter and this package."""

    def __init__(self, data: Path) -> None:
        self.data = data
        self.port = _free_port()
        self.proc: subprocess.Popen | None = None

    def start(self) -> float:
        """Start it; return the seconds until GET /api/public first answers 200."""
        root = str(Path(__file__).resolve().parents[1])  # the folder holding `companion`
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(
            p for p in (root, os.environ.get("PYTHONPATH", "")) if p)}
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


class _Stream(threading.Thread):
    """One server-sent-event stream, read over a plain socket (HTTP/1.0, so the
    body is the raw event text); every message is kept with its arrival time."""

    def __init__(self, name: str, port: int, path: str, headers: dict[str, str],
                 stop: threading.Event, track_seq: bool = False) -> None:
        super().__init__(name=f"bench-stream-{name}", daemon=True)
        self.label, self.port, self.path, self.headers, self.stop = name, port, path, headers, stop
        self.track_seq = track_seq  # parse each message for its seq (the GM's: actions applied)
        self.messages: list[tuple[float, str]] = []
        self.last_arrival = 0.0
        self.seq = -1  # the last message's "seq"
        self.status: int | None = None
        self.error: str | None = None
        self.ended = False
        self.changed = threading.Condition()

    def run(self) -> None:
        lines = [f"GET {self.path} HTTP/1.0", f"Host: {HOST}:{self.port}",
                 "Accept: text/event-stream"] + [f"{k}: {v}" for k, v in self.headers.items()]
        try:
            with socket.create_connection((HOST, self.port), timeout=WAIT_S) as sock:
                sock.settimeout(0.2)
                sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
                self._read(sock)
        except OSError as err:
            self.error = f"{type(err).__name__}: {err}"
        finally:
            with self.changed:
                self.ended = True
                self.changed.notify_all()

    def _read(self, sock: socket.socket) -> None:
        buf = b""
        head = True
        while not self.stop.is_set():
            try:
                chunk = sock.recv(1 << 16)
            except TimeoutError:
                continue
            if not chunk:
                return
            now = time.perf_counter()
            buf += chunk
            if head:
                if b"\r\n\r\n" not in buf:
                    continue
                status_line, buf = buf.split(b"\r\n\r\n", 1)
                self.status = int(status_line.split(b" ", 2)[1])
                head = False
                if self.status != 200:
                    return
            while b"\n\n" in buf:
                event, buf = buf.split(b"\n\n", 1)
                if not self._event(now, event.decode("utf-8")):
                    return

    def _event(self, now: float, text: str) -> bool:
        data = [line[5:].lstrip(" ") for line in text.split("\n") if line.startswith("data:")]
        if any(line.startswith("event: closed") for line in text.split("\n")):
            return False
        if not data:
            return True  # a heartbeat or the retry hint
        message = "\n".join(data)
        seq = json.loads(message).get("seq", -1) if self.track_seq else -1
        with self.changed:
            self.messages.append((now, message))
            self.last_arrival = now
            self.seq = seq if isinstance(seq, int) else -1
            self.changed.notify_all()
        return True

    def wait(self, test: Callable[[_Stream], bool], timeout: float = WAIT_S) -> None:
        with self.changed:
            if not self.changed.wait_for(lambda: self.ended or test(self), timeout=timeout):
                raise RuntimeError(f"stream {self.label}: no expected message in {timeout} s")
            if not test(self):
                raise RuntimeError(f"stream {self.label} ended: status {self.status}, "
                                   f"{self.error or 'closed'}")


def _content(message: str) -> dict:
    """A view without what every message carries anew: its seq and the hub's clock."""
    view = json.loads(message)
    view.pop("seq", None)
    view.pop("now", None)
    return dict(view)


def _replay_action(state: State, a: Action) -> dict:
    """An engine action in the replay format (names, not seats)."""
    names, d = state.names, a.to_dict()
    out: dict = {"do": d["do"]}
    if d["actor"] is not None:
        out["actor"] = names[d["actor"]]
    if "target" in d:
        out["target"] = names[d["target"]]
    if "targets" in d:
        out["targets"] = [names[t] for t in d["targets"]]
    if "heal" in d:
        out["heal"] = d["heal"]
    if d.get("poison") is not None:
        out["poison"] = names[d["poison"]]
    for key in ("card", "mode", "outcome"):
        if key in d:
            out[key] = d[key]
    return out


def _latencies(streams: list[_Stream], sends: list[float],
               end: float) -> tuple[list[float], int]:
    """Per action (sent at sends[k], the last one's window closing at `end`): ms
    until the last stream whose view it changed had its message; and how many
    such deliveries there were in all."""
    ends = sends[1:] + [end]
    worst = [0.0] * len(sends)
    deliveries = 0
    for stream in streams:
        previous: dict | None = None
        k = 0
        seen = -1  # the last action this stream already had a message for
        for t, message in list(stream.messages):
            content = _content(message)
            changed, previous = previous is not None and content != previous, content
            while k < len(sends) and t >= ends[k]:
                k += 1
            if not changed or k >= len(sends) or t < sends[k] or seen == k:
                continue
            seen = k
            deliveries += 1
            worst[k] = max(worst[k], (t - sends[k]) * 1000)
    return worst, deliveries


def _open_streams(server: _Server, seats: list[dict], stop: threading.Event) -> list[_Stream]:
    streams = []
    for seat in seats:
        status, _, response = server.request("GET", seat["url"], headers={"Accept": "text/html"})
        if status != 200:
            raise RuntimeError(f"seat {seat['seat']}: GET {seat['url']} answered {status}")
        cookie = (response.getheader("Set-Cookie") or "").split(";", 1)[0]
        if not cookie.startswith("device="):
            raise RuntimeError(f"seat {seat['seat']}: no device cookie")
        streams.append(_Stream(f"seat{seat['seat']}", server.port, f"{seat['url']}/stream",
                               {"Cookie": cookie}, stop))
    for stream in streams:
        stream.start()
    return streams


def _play(server: _Server, streams: list[_Stream], gm: _Stream, setup: dict, seed: int,
          max_actions: int) -> tuple[list[float], list[float], int, int]:
    """Send a random legal game's actions; return per-action latencies (ms), POST
    round trips (ms), deliveries counted and actions sent."""
    state = setup_game(setup)
    rng = Random(seed)
    sends: list[float] = []
    acks: list[float] = []
    conn = http.client.HTTPConnection(HOST, server.port, timeout=WAIT_S)
    headers = {"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"}
    try:
        for _ in range(max_actions):
            if state.phase == "over":
                break
            seat = rng.choice(waiting_for(state))
            action = sample_uniform(legal_actions(state, seat), seat, rng)
            body = json.dumps(_replay_action(state, action)).encode()
            act(state, action)
            t0 = time.perf_counter()
            conn.request("POST", "/api/actions", body=body, headers=headers)
            response = conn.getresponse()
            reply = response.read()
            acks.append((time.perf_counter() - t0) * 1000)
            sends.append(t0)
            if response.status != 200:
                raise RuntimeError(f"action {state.acts} refused ({response.status}): "
                                   f"{reply[:300]!r}")
            seq = json.loads(reply)["seq"]
            if seq != state.acts:  # the hub's clock acted (a timeout): not a bench run
                raise RuntimeError(f"the hub is at action {seq}, the bench at {state.acts}")
            gm.wait(lambda s: s.seq >= seq)
            _settle(streams)
    finally:
        conn.close()
    latencies, deliveries = _latencies(streams, sends, time.perf_counter())
    return latencies, acks, deliveries, len(sends)


def _settle(streams: list[_Stream]) -> None:
    """Wait until no stream has received anything for QUIET_S (at most WAIT_S)."""
    limit = time.perf_counter() + WAIT_S
    while (now := time.perf_counter()) < limit:
        last = max(s.last_arrival for s in streams)
        if now - last >= QUIET_S:
            return
        time.sleep(QUIET_S - (now - last) + 0.001)


def _to_ballots(server: _Server) -> dict:
    """The game master brings the game to its ballots: the night's steps time
    out, pacing's calls are skipped. Answers the GM view there."""
    for _ in range(200):
        status, gm, _ = server.request("GET", "/api/gm")
        if status != 200:
            raise RuntimeError(f"GET /api/gm answered {status}")
        if gm["pending"]["kind"] in ("night", "wolves", "prompt"):
            server.request("POST", "/api/actions", {"do": "timeout"})
        elif gm["pace"]["mode"] != "ballot":
            server.request("POST", "/api/timer", {"do": "skip"})
        elif gm["pending"]["kind"] == "vote":
            return gm
        else:
            raise RuntimeError(f"no day vote: {gm['pending']}")
    raise RuntimeError("the game never reached its ballots")


def _burst(server: _Server, stop: threading.Event,
           rounds: int) -> tuple[list[float], list[_Stream]]:
    """17 phones POST their ballots at once, `rounds` times; each one's ms,
    and the 18 seats' streams (still open)."""
    names = [f"B{i + 1:02d}" for i in range(BURST_PLAYERS)]
    roles = ["werewolf"] * 3 + ["seer"] + ["villager"] * (BURST_PLAYERS - 4)
    setup = {"ruleset": "millers-hollow", "players": names, "seed": 7,
             "deal": dict(zip(names, roles)),
             "options": {"sheriff": False, "discussion_s": 0, "wolf_attack": "any-wolf"}}
    status, created, _ = server.request("POST", "/api/games", setup)
    if status != 201:
        raise RuntimeError(f"POST /api/games answered {status}: {created}")
    seats = _open_streams(server, created["seats"], stop)
    times: list[float] = []
    gm = _to_ballots(server)
    alive = [p["seat"] for p in gm["players"] if p["alive"]]
    voters = alive[:min(BURST_VOTERS, len(alive) - 1)]  # one abstains: the vote stays open
    first = gm["actions_applied"] + 1
    for _ in range(rounds):
        times += _burst_round(server, created["seats"], seats, voters, alive, names)
        status, undone, _ = server.request("POST", "/api/undo", {"to": first})
        if status != 200:
            raise RuntimeError(f"POST /api/undo answered {status}: {undone}")
        _to_ballots(server)
    return times, seats


def _burst_round(server: _Server, seats: list[dict], streams: list[_Stream], voters: list[int],
                 alive: list[int], names: list[str]) -> list[float]:
    conns = []
    for seat in voters:
        conn = http.client.HTTPConnection(HOST, server.port, timeout=WAIT_S)
        conn.connect()
        conns.append(conn)
    barrier = threading.Barrier(len(voters))
    times: list[float] = []
    errors: list[str] = []

    def vote(k: int, seat: int) -> None:
        target = names[alive[(alive.index(seat) + 1) % len(alive)]]
        body = json.dumps({"do": "vote", "target": target}).encode()
        headers = {"Content-Type": "application/json", **streams[seat].headers}
        barrier.wait()
        t0 = time.perf_counter()
        conns[k].request("POST", f"{seats[seat]['url']}/action", body=body, headers=headers)
        response = conns[k].getresponse()
        reply = response.read()
        times.append((time.perf_counter() - t0) * 1000)
        if response.status != 200:
            errors.append(f"seat {seat}: {response.status} {reply[:200]!r}")

    threads = [threading.Thread(target=vote, args=(k, seat)) for k, seat in enumerate(voters)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(WAIT_S)
    for conn in conns:
        conn.close()
    if errors:
        raise RuntimeError(f"a ballot was refused: {errors[0]}")
    return times


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


def _flooded(server: _Server, streams: list[_Stream], rounds: int) -> dict:
    """The table's own pages and the GM, while `_Flood` is at work: the GM
    pauses and resumes (every view changes), `rounds` times, a second apart;
    its round trips and each change's arrival on the table's streams."""
    flood = _Flood(server.port)
    sends: list[float] = []
    acks: list[float] = []
    try:
        flood.open()
        _settle(streams)
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
            _settle(streams)
            time.sleep(max(0.0, 1.0 - (time.perf_counter() - t0)))
        conn.close()
        latencies, _ = _latencies(streams, sends, time.perf_counter())
    finally:
        flood.close()
    return {
        "flood_gm_p95_ms": round(_percentile(acks, 95), 2),
        "flood_msg_p99_ms": round(_percentile(latencies, 99), 2) if latencies else None,
        "flood_streams": sum(1 for status in flood.statuses if status == 200),
        "flood_refused": sum(1 for status in flood.statuses if status == 429),
        "flood_slowloris_closed": flood.slow_closed,
    }


def _percentile(values: list[float], q: int) -> float:
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1]


def run(quick: bool = False) -> dict:
    games = 1 if quick else 4
    max_actions = 25 if quick else MAX_ACTIONS
    names = [f"P{i + 1:02d}" for i in range(PLAYERS)]
    latencies: list[float] = []
    acks: list[float] = []
    deliveries = actions = 0
    cpu = 0.0  # the server's CPU seconds over the games' actions
    stop = threading.Event()
    with tempfile.TemporaryDirectory(prefix="werewolf-bench-hub-") as tmp:
        server = _Server(Path(tmp))
        gm = _Stream("gm", server.port, "/api/stream", {"Authorization": f"Bearer {TOKEN}"},
                     stop, track_seq=True)
        public = _Stream("public", server.port, "/api/public/stream", {}, stop)
        streams = [gm, public]
        try:
            startup_s = server.start()
            for game in range(games):
                seed = 1000 + game
                cards = DEAL[:]
                Random(seed).shuffle(cards)
                setup = {"ruleset": "millers-hollow", "players": names,
                         "deal": dict(zip(names, cards)), "options": OPTIONS, "seed": seed}
                status, created, _ = server.request("POST", "/api/games", setup)
                if status != 201:
                    raise RuntimeError(f"POST /api/games answered {status}: {created}")
                seats = _open_streams(server, created["seats"], stop)
                if game == 0:
                    gm.start()
                    public.start()
                live = [gm, public, *seats]
                streams += seats
                for stream in live:  # each stream's first message: the full current view
                    stream.wait(lambda s: any(json.loads(m).get("game") == created["id"]
                                              for _, m in s.messages[-1:]))
                _settle(live)
                cpu0 = server.cpu_s()
                lat, ack, got, sent = _play(server, live, gm, setup, seed, max_actions)
                cpu1 = server.cpu_s()
                if cpu0 is not None and cpu1 is not None:
                    cpu += cpu1 - cpu0
                latencies += lat
                acks += ack
                deliveries += got
                actions += sent
            rss_mb = server.rss_mb()
            burst, phones = _burst(server, stop, 2 if quick else 10)
            streams += phones
            flood = _flooded(server, [gm, public, *phones], 8 if quick else 20)
        finally:
            server.stop()
            stop.set()
            for stream in streams:
                if stream.is_alive():
                    stream.join(timeout=WAIT_S)
    if not latencies:
        raise RuntimeError("no action was measured")
    return {
        "p50_ms": round(statistics.median(latencies), 2),
        "p99_ms": round(_percentile(latencies, 99), 2),
        "ack_p50_ms": round(statistics.median(acks), 2),
        "ack_p99_ms": round(_percentile(acks, 99), 2),
        "actions": actions,
        "server_cpu_ms": round(cpu * 1000 / actions, 2),
        "streams": 2 + PLAYERS,
        "deliveries": deliveries,
        "games": games,
        "players": PLAYERS,
        "rss_mb": rss_mb,
        "burst_p50_ms": round(statistics.median(burst), 2),
        "burst_p99_ms": round(_percentile(burst, 99), 2),
        "burst_ballots": len(burst),
        **flood,
        "startup_s": round(startup_s, 3),
        "machine": machine(),
        "quick": quick,
    }
