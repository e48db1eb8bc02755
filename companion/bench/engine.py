"""`werewolf bench engine`: how fast the rules engine is on this machine.
(`werewolf bench hub`, a live hub's latency, is in companion/bench/hub.py.)

Every figure comes from random legal games (a random waiting seat picks
uniformly among all its legal actions), measured with `time.perf_counter` on
one core. The games of a `games_per_s*` run draw the deal's shuffle and the
players' picks from one RNG for the whole run, as AIWolf's RandomBench does
(../shared/bench/aiwolf); each game keeps its own seed for the engine's draws.

- `games_per_s`: complete 9-player jp-standard games per second (the figure
  ../shared/bench/aiwolf/compare.sh sets beside AIWolf's);
- `games_per_s_mh12`: 12-player Millers Hollow games with witch, hunter, cupid
  and little girl;
- `games_per_s_views`: the games of `games_per_s`, building after every action
  the acting seat's `view_for` and the `public_view`, as the hub does [issue 8];
- `games_per_s_village`: the 12-player Millers Hollow games of
  `games_per_s_mh12` with The Village (RULES.md §8): the pyromaniac and the
  rumormonger in place of two more villagers, and professions dealt from the
  seed (the nine buildings and three drifters) [issue 9];
- `apply_us_median`, `apply_us_p99`: one `act` call, in microseconds;
- `replay_200_ms`: rebuilding an 18-player game from its first 200 events.
"""

from __future__ import annotations

import platform
import statistics
import time
from random import Random

from ..engine import (
    State,
    act,
    legal_actions,
    new_game,
    public_view,
    rebuild,
    recommended_deal,
    view_for,
    waiting_for,
)
from ..engine.actions import sample_uniform
from ..engine.play import play_random

MH12_ADD = ("witch", "hunter", "cupid", "little-girl")
VILLAGE_ADD = (*MH12_ADD, "pyromaniac", "rumormonger")


def _deal(ruleset: str, players: int, add: tuple[str, ...] = ()) -> list[str]:
    return [r for r, c in sorted(recommended_deal(ruleset, players, add).items()) for _ in range(c)]


def _shuffled_game(ruleset: str, deal: list[str], seed: int, options: dict | None = None,
                   rng: Random | None = None) -> tuple[State, Random]:
    """A new game (its seed `seed`) with `deal` shuffled by `rng` (None: a new
    one seeded from `seed`), and the RNG to play it with."""
    if rng is None:
        rng = Random(seed)
    cards = deal[:]
    rng.shuffle(cards)
    return new_game(ruleset, [f"P{i}" for i in range(len(cards))], cards, options,
                    seed=seed), rng


def _views(state: State, seat: int) -> None:
    """What the hub builds after an action: the acting seat's view and the table's."""
    view_for(state, seat)
    public_view(state)


def _games_per_s(ruleset: str, players: int, add: tuple[str, ...], seconds: float,
                 views: bool = False, options: dict | None = None) -> float:
    """Complete random games per second; with `views`, building after every
    action the acting seat's `view_for` and the `public_view`, as the hub does."""
    deal = _deal(ruleset, players, add)
    after = _views if views else None
    rng = Random(0)  # one for the run (a new Mersenne Twister per game cost ~2 %)
    games, seed = 0, 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds or games < 20:
        state, _ = _shuffled_game(ruleset, deal, seed, options, rng)
        play_random(state, rng, after=after)
        games += 1
        seed += 1
    return games / elapsed


def _apply_times_us(games: int) -> list[float]:
    """Wall time of each `act` call over random 9-player jp-standard and
    12-player millers-hollow games."""
    times: list[float] = []
    for seed in range(games):
        ruleset, players, add = (("jp-standard", 9, ()) if seed % 2
                                 else ("millers-hollow", 12, MH12_ADD))
        state, rng = _shuffled_game(ruleset, _deal(ruleset, players, add), seed)
        clock = time.perf_counter_ns
        while state.phase != "over":
            seat = rng.choice(waiting_for(state))
            action = sample_uniform(legal_actions(state, seat), seat, rng)
            t0 = clock()
            act(state, action)
            times.append((clock() - t0) / 1000)
    return times


def _replay_ms(events: int, repeats: int) -> tuple[float, int]:
    """Median time to rebuild a game from its first `events` events."""
    deal = _deal("millers-hollow", 18, ("witch", "hunter", "cupid", "little-girl", "defender"))
    seed = 0
    while True:  # a long 18-player game, cut to the first `events` events
        state, rng = _shuffled_game("millers-hollow", deal, seed)
        try:
            play_random(state, rng)
        except RuntimeError:
            pass  # four wolves picking at random may take thousands of picks to agree
        if len(state.log) >= events:
            break
        seed += 1
    log = state.log[:events]
    runs = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        rebuild(log)
        runs.append((time.perf_counter() - t0) * 1000)
    return statistics.median(runs), len(log)


def run(what: str, quick: bool = False) -> dict:
    if what == "hub":
        from . import hub as bench_hub

        return bench_hub.run(quick=quick)
    if what != "engine":
        raise ValueError(f"unknown benchmark {what!r}")
    seconds = 0.3 if quick else 5.0
    times = _apply_times_us(10 if quick else 400)
    replay_ms, replay_events = _replay_ms(200, 20 if quick else 300)
    return {
        "apply_us_median": round(statistics.median(times), 1),
        "apply_us_p99": round(statistics.quantiles(times, n=100)[98], 1),
        "actions_measured": len(times),
        "replay_200_ms": round(replay_ms, 3),
        "replay_events": replay_events,
        "games_per_s": round(_games_per_s("jp-standard", 9, (), seconds), 1),
        "games_per_s_mh12": round(_games_per_s("millers-hollow", 12, MH12_ADD, seconds), 1),
        "games_per_s_views": round(_games_per_s("jp-standard", 9, (), seconds, views=True), 1),
        "games_per_s_village": round(_games_per_s("millers-hollow", 12, VILLAGE_ADD, seconds,
                                                  options={"professions": True}), 1),
        "python": platform.python_version(),
        "machine": platform.machine(),
        "quick": quick,
    }
