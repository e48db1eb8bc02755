"""`werewolf bench engine` prints one JSON object of figures as its last line
[issue 2: benchmark]. A smoke test of its shape only: figures are measured by
running the command, never asserted by a timed test."""

from __future__ import annotations

import json
from random import Random

from companion.cli import main
from companion.engine import new_game
from companion.engine.play import play_random

FIGURES = {"apply_us_median", "replay_200_ms", "games_per_s", "games_per_s_mh12"}


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
