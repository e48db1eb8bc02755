"""`werewolf simulate`: many random games of one deal, and who won them.

Each game deals the recommended cards for the table (RULES.md §3, with the
`--add` roles) shuffled from its own seed, and plays it to its end with the
engine's random player (`play_random`: a random waiting seat picks uniformly
among all its legal actions, as `werewolf bench engine` plays). Random play
says little about balance between good players: it measures the deal under
players who know nothing, a baseline, not a verdict.

The result is one JSON object:

    {"games": K, "wins": {side: share}, "ci95": {side: [low, high]},
     "mean_days": float, "games_per_s": float, ...}

Sides are those of the replay output's `winner` (village, werewolves, lovers,
piper, white-werewolf, fox, draw): every side this deal can produce, draws
included, each with its share of the games and a 95 % Wilson interval.
"""

from __future__ import annotations

import math
import time
from collections import Counter
from random import Random
from typing import TextIO

from tqdm import tqdm

from .engine import ROLES, new_game, recommended_deal, resolve_options
from .engine.play import play_random

#: Actions one game may take before it counts as unfinished (four wolves that
#: must agree at random can take thousands of picks; a real table never does).
MAX_ACTIONS = 200_000
Z95 = 1.959963984540054


def sides(deal: dict[str, int]) -> list[str]:
    """The winners a game of `deal` can have: its cards' teams, the lovers with
    a cupid, and a draw."""
    teams = {ROLES[role].team for role in deal}
    if "cupid" in deal:
        teams.add("lovers")
    order = ("village", "werewolves", "lovers", "piper", "white-werewolf", "fox")
    return [t for t in order if t in teams] + ["draw"]


def wilson(wins: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a share `wins / n`."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def deal_game(ruleset: str, cards: list[str], seed: int) -> tuple[list[str], list[str], Random]:
    """Seats' cards and centre cards for game `seed`: the cards shuffled, the
    first ones dealt; with a thief the last two lie in the centre (if the thief
    card itself lands there, nobody is the thief and the centre is unused)."""
    rng = Random(seed)
    cards = cards[:]
    rng.shuffle(cards)
    if "thief" not in cards:
        return cards, [], rng
    deal, center = cards[:-2], cards[-2:]
    return (deal, center, rng) if "thief" in deal else (deal, [], rng)


def run(ruleset: str, players: int, add: list[str] | tuple[str, ...] = (), games: int = 10_000,
        seed: int = 0, progress: TextIO | None = None, professions: bool = False,
        events: list[str] | tuple[str, ...] = (), options: dict | None = None) -> dict:
    """Play `games` random games; the figures as a JSON-ready dict. `progress`
    (a terminal, usually stderr) gets a progress bar. SetupError for a deal
    the ruleset does not allow. `professions`: The Village's professions are
    dealt from each game's seed (the `professions` option, RULES.md §8).
    `events`: New Moon's event cards, shuffled with each game's seed (the
    `events` option, RULES.md §10). `options`: any other game options
    (`--option`), e.g. vote_mode=candidates [issue 34]."""
    counts = recommended_deal(ruleset, players, list(add))
    overrides = _overrides(ruleset, options, professions, events)
    cards = [r for r, c in sorted(counts.items()) for _ in range(c)]
    names = [f"P{i + 1}" for i in range(players)]
    # tqdm's bar on `progress` (stderr), redrawn at most ten times a second [issue 32]
    bar = tqdm(total=games, file=progress, disable=progress is None, unit=" games",
               mininterval=0.1, ascii=progress is not None and not progress.isatty())
    start = time.perf_counter()
    won, days, unfinished = _play(ruleset, cards, names, overrides or None, games, seed, bar)
    elapsed = time.perf_counter() - start
    bar.close()
    finished = games - unfinished
    order = sides(counts)
    order += sorted(set(won) - set(order))  # none expected: every winner is a side of the deal
    return {
        "games": games,
        "wins": {side: round(won[side] / finished, 4) if finished else 0.0 for side in order},
        "ci95": {side: [round(x, 4) for x in wilson(won[side], finished)] for side in order},
        "mean_days": round(days / finished, 2) if finished else 0.0,
        "games_per_s": round(games / elapsed, 1),
        "unfinished": unfinished,
        "ruleset": ruleset, "players": players, "deal": counts, "seed": seed,
        "events": list(events), "options": dict(options or {}),
    }


def _overrides(ruleset: str, options: dict | None, professions: bool,
               events: list[str] | tuple[str, ...]) -> dict:
    """The games' options: `options`, with the professions and the event
    cards asked for; SetupError before the first game if the ruleset refuses them."""
    overrides = dict(options or {})
    if professions:
        overrides["professions"] = True
    if events:
        overrides["events"] = list(events)
    if overrides:
        resolve_options(ruleset, overrides)
    return overrides


def _play(ruleset: str, cards: list[str], names: list[str], options: dict | None, games: int,
          seed: int, bar: tqdm) -> tuple[Counter[str], int, int]:
    """Each game played to its end: the wins per side, the days of the
    finished games, and how many did not finish."""
    won: Counter[str] = Counter()
    days = unfinished = 0
    for i in range(games):
        game_seed = seed * 1_000_003 + i
        deal, center, rng = deal_game(ruleset, cards, game_seed)
        state = new_game(ruleset, names, deal, options, center=center, seed=game_seed)
        try:
            play_random(state, rng, max_actions=MAX_ACTIONS)
        except RuntimeError:
            unfinished += 1
        else:
            assert state.winner is not None  # play_random returns finished games only
            won[state.winner] += 1
            days += sum(1 for e in state.log if e["e"] == "day")
        bar.update(1)
    return won, days, unfinished
