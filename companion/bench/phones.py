"""The phones of `werewolf bench narration` [issue 42]: every seat's phone,
in-process, playing the bench's game as its players would (see
narration.py's docstring): the pack takes a villager each night, the witch
heals on night 1 and poisons on night 2, the knight guards the pack's next
victim, day 1's vote is tied (a runoff), then the village votes out a wolf a
day; each acts 1–3 s after its window opens, the speaker passes after 2 s.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from random import Random
from typing import Any

from ..engine import legal_actions, pending
from ..table.ready import ready_window, up_tonight

#: the pack's cards (whom the village votes out, whom the pack spares)
WOLVES = ("werewolf", "white-werewolf")


class Phones:
    """Every seat's phone, in-process, with the bench's strategy."""

    def __init__(self, table: object, rng: Random) -> None:
        self.table = table
        self.rng = rng
        self.due: dict[tuple[int, int, str], float | None] = {}

    def step(self, now: float) -> None:
        """What each phone does at `now`: its tasks read under the table's
        lock, then each one that is due sent as its route would."""
        table: Any = self.table
        with table.lock:
            state, pace = table.state, table.pace
            if state is None or state.phase == "over" or pace.mode == "deal":
                return
            opens = pace.opens if pace.opens is not None else pace.started
            stage = pace.stage
            tasks = self._tasks(state, pace)
        for seat, kind, action in tasks:
            if self._due((stage, seat, kind), now, opens):
                self._send(seat, kind, action)

    def _tasks(self, state: Any, pace: Any) -> list[tuple[int, str, dict | None]]:
        """Each seat's action (its strategy's pick), its Ready (jp-standard's)
        and the speaker's pass."""
        mode = pace.mode
        turn = pace.turns[pace.turn] if pace.turns and pace.turn < len(pace.turns) else None
        tasks: list[tuple[int, str, dict | None]] = []
        window = ready_window(state, pace)
        for seat in range(state.size):
            choices = legal_actions(state, seat) if state.alive[seat] or mode == "prompt" \
                else []
            action = pick(state, seat, choices) if choices else None
            if action is not None:
                tasks.append((seat, "act", action))
            if window and up_tonight(state, pace.night, seat):  # jp-standard's Ready
                tasks.append((seat, "ready", None))
        if turn is not None and mode == "discussion":
            tasks.append((turn, "pass", None))
        return tasks

    def _due(self, key: tuple[int, int, str], now: float, opens: float) -> bool:
        """Whether the task `key` (stage, seat, kind) is due at `now`: once, 1–3 s
        after its window opened (a pass: 2 s)."""
        if key not in self.due:
            self.due[key] = max(now, opens) + self.rng.uniform(1.0, 3.0) if key[2] != "pass" \
                else max(now, opens) + 2.0
        when = self.due[key]
        if when is None or now < when:
            return False
        self.due[key] = None
        return True

    def _send(self, seat: int, kind: str, action: dict | None) -> None:
        from ..table import TableError

        table: Any = self.table
        try:
            if kind == "act" and action is not None:
                table.act_seat(seat, action)
            elif kind == "ready":
                table.ready(seat)
            else:
                table.pass_turn(seat)
        except TableError:
            pass  # pacing holds it, or the game moved on: as a phone would be told


@dataclass
class _Seat:
    """What a seat's strategy reads: the game, the seat, its choices by kind."""

    state: Any  # the engine's State
    seat: int
    by: dict[str, dict]  # each Choice's dict, by its `do`
    wolves: list[int]
    prey: list[int]  # the living seats the pack may take
    names: list[str]

    def targets(self, do: str) -> list[int]:
        return list(self.by[do].get("targets") or [])


def pick(state: Any, seat: int, choices: list) -> dict | None:
    """The action the bench's strategy takes among `choices` (None: none)."""
    wolves = [i for i, r in enumerate(state.roles) if r in WOLVES]
    prey = [i for i in range(len(state.names)) if state.alive[i] and i not in wolves]
    by = {c.to_dict()["do"]: c.to_dict() for c in choices}
    me = _Seat(state, seat, by, wolves, prey, state.names)
    return next((a for a in (rule(me) for rule in STRATEGY) if a is not None), None)


def _attack(me: _Seat) -> dict | None:
    if "attack" not in me.by or not me.prey:
        return None
    target = me.prey[(me.state.n * 3) % len(me.prey)]
    return {"do": "attack", "target": me.names[target]}


def _guard(me: _Seat) -> dict | None:
    """The knight guards the pack's next victim."""
    if "guard" not in me.by or not me.prey:
        return None
    target = me.prey[(me.state.n * 3) % len(me.prey)]
    if target in me.by["guard"].get("targets", []):
        return {"do": "guard", "target": me.names[target]}
    return None


def _potion(me: _Seat) -> dict | None:
    """The witch heals on night 1 and poisons on night 2."""
    if "potion" not in me.by:
        return None
    night, potion = me.state.n, me.by["potion"]
    if night == 1 and potion.get("heal"):
        return {"do": "potion", "heal": True, "poison": None}
    if night == 2:
        victim = next((i for i in me.prey if i != me.seat), None)
        if victim is not None and victim in potion.get("targets", []):
            return {"do": "potion", "heal": False, "poison": me.names[victim]}
    return None


def _inspect(me: _Seat) -> dict | None:
    if "inspect" not in me.by or not me.by["inspect"].get("targets"):
        return None
    return {"do": "inspect", "target": me.names[me.by["inspect"]["targets"][0]]}


def _vote(me: _Seat) -> dict | None:
    """Day 1's vote tied (a runoff); an election's first candidate; else a
    living wolf (a wolf votes for the first candidate)."""
    if "vote" not in me.by:
        return None
    targets = me.targets("vote")
    kind = pending(me.state)["kind"]
    if me.state.n == 1 and kind == "vote":  # day 1's vote tied: a runoff
        side = _tied_side(me.state, me.seat, [t for t in targets if t not in me.wolves])
        if side is not None:
            return {"do": "vote", "target": me.names[side]}
    if kind == "election":
        return {"do": "vote", "target": me.names[targets[0]]}
    living_wolves = [w for w in me.wolves if me.state.alive[w] and w in targets]
    chosen = living_wolves[0] if living_wolves and me.seat not in me.wolves else targets[0]
    return {"do": "vote", "target": me.names[chosen]}


def _shoot_or_appoint(me: _Seat) -> dict | None:
    """The hunter's shot and the sheriff's heir: a wolf if one is among them."""
    for do in ("shoot", "appoint"):
        if do in me.by and me.by[do].get("targets"):
            targets = me.by[do]["targets"]
            chosen = next((t for t in targets if t in me.wolves), targets[0])
            return {"do": do, "target": me.names[chosen]}
    return None


def _pass(me: _Seat) -> dict | None:
    return {"do": "pass"} if "pass" in me.by else None


#: the strategy, in order: the first rule that picks an action decides
STRATEGY: tuple[Callable[[_Seat], dict | None], ...] = (
    _attack, _guard, _potion, _inspect, _vote, _shoot_or_appoint, _pass)


def _tied_side(state: object, seat: int, candidates: list[int]) -> int | None:
    """The candidate `seat` votes for so that the first two tie (the
    sheriff's vote weighs two; an odd weight left over goes to a third)."""
    if len(candidates) < 3:
        return None
    s = state
    voters = [v for v in range(len(s.names)) if s.alive[v]  # type: ignore[attr-defined]
              and (s.silenced is None or v not in s.silenced)]  # type: ignore[attr-defined]
    weight = {v: 2 if v == s.sheriff else 1 for v in voters}  # type: ignore[attr-defined]
    total = sum(weight.values())
    sides = [0, 0]
    for v in voters:
        if total % 2 and weight[v] == 1 and v == voters[-1]:
            side = 2  # the odd vote: a third candidate
        else:
            side = 0 if sides[0] <= sides[1] else 1
            sides[side] += weight[v]
        if v == seat:
            return candidates[side]
    return None
