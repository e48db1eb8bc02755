"""`werewolf bench engine` and `werewolf bench hub` print one JSON object of
figures as their last line [issue 2: benchmark]. Smoke tests of the shape only:
figures are measured by running the command, never asserted by a timed test."""

from __future__ import annotations

import json
import socket
import threading
import time
from random import Random

import pytest

from companion.bench import clients as bench_clients
from companion.cli import main
from companion.engine import new_game
from companion.engine.play import play_random

FIGURES = {"apply_us_median", "replay_200_ms", "games_per_s", "games_per_s_mh12",
           "games_per_s_views", "games_per_s_village"}


def test_bench_engine_prints_one_json_object_of_figures(capsys) -> None:
    assert main(["bench", "engine", "--quick"]) == 0
    last = capsys.readouterr().out.strip().splitlines()[-1]
    figures = json.loads(last)
    assert FIGURES <= set(figures)
    assert all(figures[k] > 0 for k in FIGURES)
    assert figures["replay_events"] == 200


def test_play_random_ends_a_game() -> None:
    """The benchmark's player: uniform random legal play ends a jp game (RULES.md §7)."""
    state = new_game("jp-standard", [f"P{i}" for i in range(9)], None, seed=3)
    play_random(state, Random(3))
    assert state.phase == "over" and state.winner in {"village", "werewolves", "draw"}


HUB_FIGURES = {"p50_ms", "p99_ms", "rss_mb", "startup_s"}


def test_bench_hub_prints_one_json_object_of_figures(capsys) -> None:
    """`werewolf bench hub --quick`: a real `werewolf serve`, 22 streams, 25 actions."""
    assert main(["bench", "hub", "--quick"]) == 0
    last = capsys.readouterr().out.strip().splitlines()[-1]
    figures = json.loads(last)
    assert {*HUB_FIGURES, "actions", "streams", "machine"} <= set(figures)
    assert all(figures[k] > 0 for k in HUB_FIGURES)
    assert figures["p99_ms"] >= figures["p50_ms"]
    # a message is timed when it reached its socket; the reader takes it after
    assert figures["read_p50_ms"] >= figures["p50_ms"]
    assert figures["actions"] == 25 and figures["streams"] == 22
    assert figures["machine"]["python"] and figures["quick"] is True
    # [issue 31 item 6] which timing the figures used, and why
    assert figures["arrival_timing"] == ("kernel" if bench_clients.KERNEL_STAMPS else "reader")
    # [issue 30 item 3] one seat's flood, beside the same with no flood: the
    # flood is refused past the seat's rate (a count, not a time)
    assert {"seat_calm_gm_p95_ms", "seat_flood_gm_p95_ms", "seat_flood_msg_p50_ms",
            "seat_flood_others_p50_ms", "seat_flood_answered"} <= set(figures)
    assert figures["seat_flood_refused"] > 0


@pytest.mark.skipif(not bench_clients.KERNEL_STAMPS, reason="Linux's receive stamps")
def test_a_message_is_timed_when_it_reached_its_socket_not_when_it_was_read() -> None:
    """[issue 15 item 11] The bench's one reader stands in for 22 phones, each
    of which reads its own stream: a message read late (here 80 ms after it
    came) is timed at its arrival, with the reader's delay kept beside it."""
    with socket.create_server((bench_clients.HOST, 0)) as server:
        phone = socket.create_connection(server.getsockname())
        hub, _ = server.accept()
        with phone, hub:
            phone.setsockopt(socket.SOL_SOCKET, bench_clients.SO_TIMESTAMPNS, 1)
            # Linux turns its receive stamps on a moment after the first
            # socket asks (deferred work): until then a segment has none, and
            # the bench falls back to the reader's time
            for _ in range(100):
                hub.sendall(b": warm-up\n\n")
                if bench_clients._read(phone) != (b": warm-up\n\n", 0.0):
                    break
                time.sleep(0.01)
            hub.sendall(b"data: {}\n\n")
            time.sleep(0.08)
            chunk, lag = bench_clients._read(phone)
    assert chunk == b"data: {}\n\n"
    assert 0.07 <= lag < 1.0, lag


def test_a_refused_stamp_option_falls_back_to_the_readers_time(monkeypatch) -> None:
    """[issue 31 item 6] Under qemu-user the kernel's arrival stamp is not
    offered: setsockopt(SO_TIMESTAMPNS) fails with OSError 92. The stream is
    still read, each message timed when the reader took it (lag 0), and the
    bench's JSON says it used the reader's timing and why."""
    real = socket.socket.setsockopt

    def refuse(sock, level, option, *value):
        if level == socket.SOL_SOCKET and option == bench_clients.SO_TIMESTAMPNS:
            raise OSError(92, "Protocol not available")
        return real(sock, level, option, *value)

    monkeypatch.setattr(socket.socket, "setsockopt", refuse)
    monkeypatch.setattr(bench_clients, "_STAMPS_REFUSED", [])
    monkeypatch.setattr(bench_clients, "KERNEL_STAMPS", True)
    with socket.create_server((bench_clients.HOST, 0)) as server:
        stop = threading.Event()
        stream = bench_clients.Stream("s", server.getsockname()[1], "/", {}, stop)
        stream.start()
        hub, _ = server.accept()
        with hub:
            hub.recv(1024)
            hub.sendall(b"HTTP/1.0 200 OK\r\nContent-Type: text/event-stream\r\n\r\n"
                        b'data: {"seq": 1}\n\n')
            stream.wait(lambda s: len(s.messages) == 1)
            stop.set()
    assert stream.error is None and stream.messages[0][1] == '{"seq": 1}'
    assert stream.lags == [0.0]
    timing = bench_clients.arrival_timing()
    assert timing["arrival_timing"] == "reader"
    assert "Errno 92" in timing["arrival_timing_why"]


def test_latencies_count_the_arrival_and_the_readers_time() -> None:
    """`arrival_latencies`: per action, until the last changed view arrived,
    and the same with each message's reader delay added (the figure as
    stamped until 2026-12-02, `read_p50_ms`)."""
    stream = bench_clients.Stream("s", 0, "/", {}, stop=None)  # type: ignore[arg-type]
    stream._event(10.000, 'data: {"seq": 1, "a": 1}')
    stream._event(10.004, 'data: {"seq": 2, "a": 2}', lag=0.003)
    arrived, read, n = bench_clients.arrival_latencies([stream], [10.001], 11.0)
    assert n == 1 and arrived == [pytest.approx(3.0)] and read == [pytest.approx(6.0)]


PRESS_FIGURES = {"presses", "lost", "duplicates", "p50_ms", "p99_ms"}


def test_bench_presses_prints_one_json_object_of_figures(capsys) -> None:
    """`werewolf bench presses --quick` [issue 7]: 18 mock seat boxes pressed
    together, 20 rounds, through the table to the LEDs; every press counted
    once (a count, not a time: it would fail if presses were lost or doubled)."""
    assert main(["bench", "presses", "--quick"]) == 0
    last = capsys.readouterr().out.strip().splitlines()[-1]
    figures = json.loads(last)
    assert PRESS_FIGURES <= set(figures)
    assert figures["presses"] == 18 * 20
    assert figures["lost"] == 0 and figures["duplicates"] == 0
