"""The night (RULES.md §4–§5): its steps in order, the wolves' attack, dawn.

Steps come in NIGHT_STEPS order (roles.py), each on its nights; a step whose
card is absent, dead or without a choice is passed over. Each function
returns what comes next (flow.py): dawn hands the night's dead to the queue.
"""

from __future__ import annotations

from ..options import WOLF_ATTACK
from . import new_moon, powers
from . import professions as village
from .choices import night_choices, waiting
from .kernel import (
    Next,
    attack_tonight,
    emit,
    fresh_memo,
    heartbreaks,
    holder,
    in_play,
    kill,
    living_wolves,
    night_order,
    together_steps,
)
from .powers import attack_kills, shown_victim
from .roles import NIGHT_STEPS, called_tonight
from .rulesets import together
from .state import TOGETHER, State


def begin_night(state: State, n: int) -> Next:
    emit(state, {"e": "night", "n": n})
    for role, hook in in_play(state, powers.NIGHTFALL).items():  # the medium's result
        seat = holder(state, role)
        if seat is not None:
            hook(state, seat)
    if together(state.ruleset):
        return open_together(state)
    if new_moon.nightfall(state):
        return None  # an event card's call comes before every other (RULES.md §10)
    return next_night_step(state)


def open_together(state: State) -> Next:
    """jp-standard's night (RULES.md §4, [004]): one step in which the seer,
    the knight and the wolves act in any order; it closes when all have acted."""
    emit(state, {"e": "step", "step": TOGETHER})
    return None if waiting(state) else close_together(state)


def close_together(state: State) -> Next:
    """The one step is over (all acted, or its timeout): resolved in §4's
    order. The seer's answer came as she acted and the knight's guard waits
    for dawn, so what is left is the pack's attack, then dawn."""
    if "wolves" in together_steps(state):
        emit(state, {"e": "attack", "target": _pack_target(state), "caught": state.caught})
    return dawn(state)


def next_night_step(state: State) -> Next:
    """Open the next night step that has something to do, else dawn."""
    order = night_order(state)
    step = state.step
    if step in order:
        start = order.index(step) + 1
    elif step in NIGHT_STEPS:  # its card just left play (the thief's swap): the steps after it
        at = NIGHT_STEPS.index(step)
        start = sum(1 for s in order if NIGHT_STEPS.index(s) < at)
    else:
        start = 0  # the night begins
    attack = attack_tonight(state)
    n = state.n
    for step in order[start:]:
        if not called_tonight(step, n, attack):
            continue  # e.g. no attack tonight: the wolves only meet, protectors are not called
        if step == "wolves":
            emit(state, {"e": "step", "step": step})
            if waiting(state):
                return None
            return close_wolves(state)
        actor = holder(state, step)
        if actor is None:
            continue
        skips = powers.SKIPS.get(step)
        if skips is not None and skips(state, actor):
            continue  # the piper on a night he is killed
        choices = night_choices(state, actor, step)
        if not choices:
            continue
        called = powers.CALLED.get(step)
        if called is not None:
            called(state, actor)  # what the thief and the witch are shown
        emit(state, {"e": "step", "step": step})
        memo = fresh_memo(state)  # what waiting and cached_choices would find now
        memo[actor], memo["waiting"] = choices, [actor]
        return None
    return dawn(state)


def close_wolves(state: State) -> Next:
    emit(state, {"e": "attack", "target": _pack_target(state), "caught": state.caught})
    return next_night_step(state)


def _pack_target(state: State) -> int | None:
    """The pack's victim as its part closes: the first pick (any-wolf), the
    agreed one (unanimous), or the one caught spying [000]."""
    target = None
    if WOLF_ATTACK.of(state.opts) == "any-wolf":
        target = next((t for t in state.picks.values() if t is not None), None)
    else:
        wolves = living_wolves(state)
        picks = [state.picks[w] for w in wolves if w in state.picks]
        if picks and len(picks) == len(wolves) and len(set(picks)) == 1:
            target = picks[0]
    if state.caught:  # the one caught spying in the pack's step is the victim [000]
        target = next(s for s in (holder(state, role) for role in powers.PACK) if s is not None)
    return target


def dawn(state: State) -> Next:
    time = state.now
    dead: list[tuple[int, str]] = []
    victim = shown_victim(state)
    if victim is not None and attack_kills(state, victim):
        dead.append((victim, "werewolves"))
    # devoured, poisoned, the inspected fox; the elder's wound; the fire
    for hook in in_play(state, powers.DAWN).values():
        hook(state, dead)
    if state.village:
        village.dawn(state, dead)  # the baker's chance
    emit(state, {"e": "resolve", "then": "day"})
    seen: list[int] = []
    for seat, cause in dead:  # the night's deaths together, then their lovers (§6)
        if seat not in seen:
            seen.append(seat)
            kill(state, seat, cause, time, heartbreak=False)
    heartbreaks(state, seen, time)
    return "queue"
