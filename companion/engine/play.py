"""Random legal play: a random waiting seat picks uniformly among all its legal
actions (the seer's eight inspections and her pass are nine equal chances).
Used by `werewolf bench engine`, `werewolf simulate` and the tests."""

from __future__ import annotations

from collections.abc import Callable
from random import Random

from .acting import play
from .actions import sample_uniform
from .choices import cached_choices, waiting
from .state import State

MAX_ACTIONS = 5000


def play_random(state: State, rng: Random, max_actions: int = MAX_ACTIONS,
                after: Callable[[State, int], object] | None = None) -> State:
    """Play `state` to its end with random legal actions (at most `max_actions`);
    `after(state, seat)` is called after each action of `seat`.

    It asks what the hub asks (`waiting_for`, `legal_actions`, then `act`, which
    checks the action again), through their cached answers without the copies
    the public functions hand out (`play` is `act` without its list of events)."""
    for _ in range(max_actions):
        if state.phase == "over":
            return state
        seats = waiting(state)
        if not seats:
            raise RuntimeError(f"stuck: nobody to act at {state.step!r}")
        seat = seats[int(rng.random() * len(seats))] if len(seats) > 1 else seats[0]  # pick()
        play(state, sample_uniform(cached_choices(state, seat), seat, rng))
        if after is not None:
            after(state, seat)
    raise RuntimeError(f"no end after {max_actions} actions")
