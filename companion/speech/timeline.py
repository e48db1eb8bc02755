"""`werewolf narrate --timeline` [issue 29]: a whole narrated game on a fake
clock, with the real table, the real narration and the durations of the
really rendered lines, heard as the table screen plays them (each line at
its moment, one after another). It prints one JSON object last:

    {"ruleset", "players", "lang", "seed", "length_s": the game's length,
     "lines": [{"n", "text", "at", "dur", "step", "dropped", "cut",
                "opens", "closes" (a call's window: its wake line's)}],
     "said": N, "max_lag_s": how far any line started after the event it
     announces, "late": lines still being said after their step ended,
     "dropped": lines whose step ended before they could start, "cut": lines
     stopped where their step ended,
     "wake_after_open": calls whose wake line ended after their window opened}

Each line is rendered when it is heard (the fake clock waits for it, as if
the hub had rendered it ahead: `Narration(offline=True)`); `werewolf bench
narration` measures what rendering costs a real hub [issue 42].

Every seat acts at random moments of what it is asked (some never do). The
times are seconds from the game's start (the host's "Start").
"""

from __future__ import annotations

import tempfile
from collections.abc import Sequence
from pathlib import Path
from random import Random

from ..engine import legal_actions, recommended_deal
from ..store import Store
from ..table import Table, TableError
from .cache import Cache
from .engines import SpeechError, engine_for, find
from .lines import SAMPLE_NAMES
from .narration import Narration, Utterance

TICK_S = 0.05  # the fake clock's step
NEVER = 0.2  # the share of asks a seat never answers
MAX_S = 4 * 3600.0  # a game longer than this on the fake clock is a bug


class FakeClock:
    def __init__(self) -> None:
        self.t = 10_000.0

    def __call__(self) -> float:
        return self.t


def run(ruleset: str, players: int, lang: str, seed: int, speech: Path,
        options: dict | None = None) -> dict:
    """Play the game and measure its timeline (SpeechError: no voice for `lang`)."""
    if engine_for(lang) is None:
        raise SpeechError(find(lang)[1])
    rng = Random(seed)
    names = (SAMPLE_NAMES[lang] + [f"P{i}" for i in range(len(SAMPLE_NAMES[lang]), 40)])[:players]
    setup = {"ruleset": ruleset, "players": names, "cards": recommended_deal(ruleset, players),
             "seed": seed, "language": lang, "narrated": True, "wait_for_start": True,
             "options": dict(options or {})}
    clock = FakeClock()
    with tempfile.TemporaryDirectory(prefix="werewolf-timeline-") as folder:
        tmp = Path(folder)
        table = Table(Store(tmp / "games.sqlite3"), clock=clock, rng=Random(seed))
        # each line rendered when heard: as if all had been rendered ahead (a fake clock)
        narration = Narration(table, Cache(speech), keep=100_000, offline=True)
        table.create(setup)  # the narration hears the deal
        stages: dict[int, dict] = {}  # stage -> {"start", "end", "opens", "deadline", "mode"}
        start = clock.t + 5.0  # the host starts once every phone has its card
        clock.t = start
        table.timer("start")
        _watch(table, stages, clock.t)
        asks: dict[tuple[int, int], float | None] = {}
        while clock.t - start < MAX_S:
            clock.t += TICK_S
            table.tick()
            _watch(table, stages, clock.t)
            state = table.state
            assert state is not None
            if state.phase == "over":
                break
            _act(table, rng, asks, clock.t)
        said = narration.said()
        end = max([clock.t] + [u.at + u.dur for u in said if not u.dropped])
        stages[table.pace.stage]["end"] = end
        return _report(said, narration.steps(), stages, start, end) | {
            "ruleset": ruleset, "players": players, "lang": lang, "seed": seed,
            "options": setup["options"]}


def _watch(table: Table, stages: dict[int, dict], now: float) -> None:
    """Note each stage's start and end, and its window as last committed."""
    pc = table.pace
    for stage, info in stages.items():
        if stage != pc.stage and info["end"] is None:
            info["end"] = now
    info = stages.setdefault(pc.stage, {"start": now, "end": None, "mode": pc.mode})
    info["opens"], info["deadline"] = pc.opens, pc.deadline


def _act(table: Table, rng: Random, asks: dict[tuple[int, int], float | None],
         now: float) -> None:
    """Each seat the game waits for answers at a random moment once the
    narrator has said what opens the stage (or never): a pick among its legal
    actions; the pack and the voters often name the first they may, so the
    game moves on."""
    state = table.state
    assert state is not None
    stage = table.pace.stage
    for seat in range(state.size):
        key = (stage, seat)
        if key not in asks:
            if not legal_actions(state, seat):
                continue
            heard = max(now, table.pace.opens or now)  # a player answers once he has heard
            asks[key] = None if rng.random() < NEVER else heard + rng.uniform(0.0, 40.0)
        when = asks[key]
        if when is None or now < when:
            continue
        asks[key] = None
        choices = legal_actions(state, seat)
        if not choices:
            continue
        choice = rng.choice(choices)
        spec = choice.to_dict()
        if spec["do"] in ("attack", "vote") and spec.get("targets") and rng.random() < 0.7:
            action = {"do": spec["do"], "target": state.names[spec["targets"][0]]}
        else:
            action = _named(choice.sample(seat, rng).to_dict(), state.names)
        try:
            table.act_seat(seat, action)
        except TableError:
            pass  # pacing holds it, or the game moved on: as a phone would be told


def _named(action: dict, names: Sequence[str]) -> dict:
    """An engine action as a phone sends it: players by name, no actor."""
    action.pop("actor", None)
    for key in ("target", "poison"):
        if isinstance(action.get(key), int):
            action[key] = names[action[key]]
    if "targets" in action:
        action["targets"] = [names[t] for t in action["targets"]]
    return action


def _report(said: list[Utterance], steps: list[tuple[float, str]],
            stages: dict[int, dict], start: float, end: float) -> dict:
    lines, lag, late, dropped, cut, wake_late = [], 0.0, 0, 0, 0, 0
    firsts: dict[float, float] = {}
    for u in said:
        if not u.dropped:
            firsts.setdefault(u.event, u.at)
    for event, at in firsts.items():
        lag = max(lag, at - event)
    woken: set[int] = set()
    for u in said:
        info = stages.get(u.stage, {})
        line = {"n": u.n, "text": u.text, "at": round(u.at - start, 3), "dur": round(u.dur, 3),
                "step": u.step, "dropped": u.dropped, "cut": u.cut}
        if u.dropped:
            dropped += 1
        else:
            cut += u.cut
            if u.at + u.dur > _step_end(steps, u, end) + 1e-6:
                late += 1
        if info.get("mode") == "calls" and info.get("opens") is not None \
                and u.stage not in woken and not u.dropped:
            stage_lines = [v for v in said if v.stage == u.stage and not v.dropped]
            if u is stage_lines[-1]:  # the wake line: the stage's last opening words
                woken.add(u.stage)
                line["opens"] = round(info["opens"] - start, 3)
                line["closes"] = round(info["deadline"] - start, 3)
                if u.at + u.dur > info["opens"] + 1e-6:
                    wake_late += 1
        lines.append(line)
    return {"length_s": round(end - start, 1), "said": len(said), "lines": lines,
            "max_lag_s": round(lag, 3), "late": late, "dropped": dropped, "cut": cut,
            "wake_after_open": wake_late, "calls": len(woken)}


def _step_end(steps: list[tuple[float, str]], u: Utterance, end: float) -> float:
    """When the step a line belongs to ended (the game's end for the last)."""
    begun = max((i for i, (t, step) in enumerate(steps) if t <= u.event and step == u.step),
                default=None)
    if begun is None:
        return end
    return next((t for t, step in steps[begun + 1:] if step != u.step), end)


__all__ = ["run"]
