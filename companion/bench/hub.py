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
  master's (/api/stream) and the public one (/api/public/stream), all read
  over plain sockets by one thread (a selector: clients.Stream). Each
  message is timed at its arrival: the time the kernel stamped on the
  segment that brought it to its socket (Linux's SO_TIMESTAMPNS; elsewhere,
  and where the kernel refuses the option, as qemu-user does with OSError 92,
  when the reader took it: `arrival_timing` says which, "kernel" or
  "reader", and `arrival_timing_why` why). Until 2026-12-01 each stream had a thread of its
  own: 22 threads woken per action and queueing for this process's GIL
  added their own delay to the figures (1.3-1.7 ms of p50 here, against the
  same server). Until 2026-12-02 a message was timed when the one reader
  got round to it: reading 22 streams in turn, while the hub was still
  writing them, added its own ~1.2 ms to p50 (`read_p50_ms`, still given).
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
- `read_p50_ms` / `read_p99_ms`: the same, each message timed when the
  bench's reader took it (the figures as measured until 2026-12-02). The
  difference is the bench's reading, which a table's phones, each reading
  its own stream, do not share.
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
import statistics
import tempfile
import threading
import time
from pathlib import Path
from random import Random

from ..engine import Action, State, act, legal_actions, waiting_for
from ..engine.actions import sample_uniform
from ..replay import setup_game
from .clients import (
    HOST,
    TOKEN,
    WAIT_S,
    Server,
    Stream,
    arrival_latencies,
    arrival_timing,
    machine,
    percentile,
    settle,
)
from .hostile import flooded, seat_flooded

PLAYERS = 20
DEAL = (["werewolf"] * 4 + ["seer", "witch", "hunter", "cupid", "little-girl", "defender"]
        + ["villager"] * 10)
OPTIONS = {"wolf_attack": "any-wolf"}
MAX_ACTIONS = 2000  # per game; random games end in ~150
BURST_PLAYERS = 18
BURST_VOTERS = 17


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


def _open_streams(server: Server, seats: list[dict], stop: threading.Event) -> list[Stream]:
    streams = []
    for seat in seats:
        status, _, response = server.request("GET", seat["url"], headers={"Accept": "text/html"})
        if status != 200:
            raise RuntimeError(f"seat {seat['seat']}: GET {seat['url']} answered {status}")
        cookie = (response.getheader("Set-Cookie") or "").split(";", 1)[0]
        if not cookie.startswith("device="):
            raise RuntimeError(f"seat {seat['seat']}: no device cookie")
        streams.append(Stream(f"seat{seat['seat']}", server.port, f"{seat['url']}/stream",
                               {"Cookie": cookie}, stop))
    for stream in streams:
        stream.start()
    return streams


def _play(server: Server, streams: list[Stream], gm: Stream, setup: dict, seed: int,
          max_actions: int) -> tuple[list[float], list[float], list[float], int, int]:
    """Send a random legal game's actions; return per-action latencies (ms), the
    same as the bench's reader took the messages (ms), POST round trips (ms),
    deliveries counted and actions sent."""
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
            settle(streams)
    finally:
        conn.close()
    latencies, read, deliveries = arrival_latencies(streams, sends, time.perf_counter())
    return latencies, read, acks, deliveries, len(sends)


def _to_ballots(server: Server) -> dict:
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


def _burst(server: Server, stop: threading.Event,
           rounds: int) -> tuple[list[float], list[Stream]]:
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
        acts = server.request("GET", "/api/gm")[1]["seq"]  # the undo names what it takes back
        status, undone, _ = server.request("POST", "/api/undo", {"expect": acts, "to": first})
        if status != 200:
            raise RuntimeError(f"POST /api/undo answered {status}: {undone}")
        _to_ballots(server)
    return times, seats


def _burst_round(server: Server, seats: list[dict], streams: list[Stream], voters: list[int],
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


def run(quick: bool = False) -> dict:
    games = 1 if quick else 4
    max_actions = 25 if quick else MAX_ACTIONS
    names = [f"P{i + 1:02d}" for i in range(PLAYERS)]
    latencies: list[float] = []
    read: list[float] = []
    acks: list[float] = []
    deliveries = actions = 0
    cpu = 0.0  # the server's CPU seconds over the games' actions
    stop = threading.Event()
    with tempfile.TemporaryDirectory(prefix="werewolf-bench-hub-") as tmp:
        server = Server(Path(tmp))
        gm = Stream("gm", server.port, "/api/stream", {"Authorization": f"Bearer {TOKEN}"},
                     stop, track_seq=True)
        public = Stream("public", server.port, "/api/public/stream", {}, stop)
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
                settle(live)
                cpu0 = server.cpu_s()
                lat, took, ack, got, sent = _play(server, live, gm, setup, seed, max_actions)
                cpu1 = server.cpu_s()
                if cpu0 is not None and cpu1 is not None:
                    cpu += cpu1 - cpu0
                latencies += lat
                read += took
                acks += ack
                deliveries += got
                actions += sent
            rss_mb = server.rss_mb()
            burst, phones = _burst(server, stop, 2 if quick else 10)
            streams += phones
            flood = flooded(server, [gm, public, *phones], 8 if quick else 20)
            flood |= seat_flooded(server, phones, 8 if quick else 40)
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
        "p99_ms": round(percentile(latencies, 99), 2),
        "read_p50_ms": round(statistics.median(read), 2),
        "read_p99_ms": round(percentile(read, 99), 2),
        "ack_p50_ms": round(statistics.median(acks), 2),
        "ack_p99_ms": round(percentile(acks, 99), 2),
        "actions": actions,
        "server_cpu_ms": round(cpu * 1000 / actions, 2),
        "streams": 2 + PLAYERS,
        "deliveries": deliveries,
        "games": games,
        "players": PLAYERS,
        "rss_mb": rss_mb,
        "burst_p50_ms": round(statistics.median(burst), 2),
        "burst_p99_ms": round(percentile(burst, 99), 2),
        "burst_ballots": len(burst),
        **flood,
        "startup_s": round(startup_s, 3),
        "machine": machine(),
        "quick": quick,
        **arrival_timing(),
    }
