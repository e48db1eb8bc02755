"""`werewolf bench engine` and `werewolf bench hub` print one JSON object of
figures as their last line [issue 2: benchmark]. Smoke tests of the shape only:
figures are measured by running the command, never asserted by a timed test."""

from __future__ import annotations

import json
from random import Random

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
    assert figures["actions"] == 25 and figures["streams"] == 22
    assert figures["machine"]["python"] and figures["quick"] is True


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
