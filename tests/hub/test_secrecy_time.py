"""Non-interference in time ([issue 16], RULES.md §4 "every call lasts exactly
its window"): games that differ only in what a seat may not know — who holds
the seer's card, whether the seer (the witch, the knight) acts at once, at the
last second, never, or is dead — give every other seat and the table
byte-identical views and stream messages at every half second of whole
nights, in Millers Hollow, BGA and jp-standard.

Every game is played on its own fake clock, in lockstep: every half second
the clock moves, the table ticks, and each phone acts when its plan says
(a call and the seconds into it). The same public moves are made in every
game of a set (the wolves' victims, the day's ballots), through the phones.
The last test shows the comparison failing when an answered call may end
early, as the night did before issue 16.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from companion.store import Store
from companion.table import Table, pacing

from .conftest import FakeClock

#: (night, call, seconds into the call, seat, action); "last" = the last half second
Plan = list[tuple[int, str, float | str, int, dict]]
STOP_DAY = 2  # the run ends when day 2's ballots open: two whole nights and a day


def _play(path: Path, setup: dict, plan: Plan, votes: dict[int, int],
          observers: list[int]) -> list[dict]:
    clock = FakeClock()
    table = Table(Store(path), clock=clock, rng=random.Random(5))
    table.create(setup)
    audiences = ["public"] + [f"seat:{s}" for s in observers]
    listeners = {a: table.listen(a)[0] for a in audiences}
    todo = list(plan)
    voted_day = 0
    frames: list[dict] = []
    for _ in range(20_000):
        clock.advance(0.5)
        table.tick()
        pc = table.pace
        if pc.mode == "calls" and pc.cursor < len(pc.calls):
            call = pc.calls[pc.cursor]
            window = (pc.deadline or 0) - pc.started
            for item in list(todo):
                night, at, after, seat, action = item
                when = window - 0.5 if after == "last" else float(after)
                if night == pc.night and at == call and clock.t - pc.started >= when:
                    todo.remove(item)
                    table.act_seat(seat, dict(action))
        elif pc.mode == "ballot" and table.state.n == STOP_DAY:
            break
        elif pc.mode == "ballot" and voted_day != table.state.n:
            voted_day = table.state.n  # day 1: every living phone votes as the plan says
            for seat, target in votes.items():
                if table.state.alive[seat]:
                    table.act_seat(seat, {"do": "vote", "target": setup["players"][target]})
        frame = {"public": json.dumps(table.public(), sort_keys=True)}
        for s in observers:
            frame[f"seat:{s}"] = json.dumps(table.seat_view(s), sort_keys=True)
        for a, listener in listeners.items():
            frame[f"stream:{a}"] = []
            while not listener.queue.empty():
                frame[f"stream:{a}"].append(listener.queue.get_nowait())
        frames.append(frame)
    else:
        raise AssertionError("the game never reached day 2's ballots")
    assert not todo, f"planned actions never made: {todo}"
    return frames


def _assert_same(a: list[dict], b: list[dict], what: str) -> None:
    for i, (fa, fb) in enumerate(zip(a, b)):
        for key in fa:
            assert fa[key] == fb[key], f"{what}: {key} differs at {i / 2} s:\n{fa[key]}\n{fb[key]}"
    assert len(a) == len(b), f"{what}: the runs' lengths differs at {min(len(a), len(b)) / 2} s"


def _setup(ruleset: str, roles: list[str], **options: object) -> dict:
    players = [chr(ord("A") + i) for i in range(len(roles))]
    return {"ruleset": ruleset, "players": players, "deal": dict(zip(players, roles)),
            "seed": 4, "options": {"sheriff": False, "discussion_s": 0, **options}}


def _games(base: list[str], seer_seats: list[int], dead_seer: int, villager: str = "villager"
           ) -> list[tuple[str, list[str], str]]:
    """(label, deal, how the night roles act): the seer at each of `seer_seats`
    acting at once, at the last second and never, and the seer at `dead_seer`
    (who dies before night 2) acting at once."""
    out = []
    for seat in seer_seats:
        for how in ("at once", "last second", "never"):
            deal = list(base)
            deal[seat] = "seer"
            out.append((f"seer at {seat}, {how}", deal, how))
    deal = list(base)
    deal[dead_seer] = "seer"
    out.append((f"seer at {dead_seer}, dead on night 2", deal, "at once"))
    return out


AFTER = {"at once": 0.0, "last second": "last"}


def _run_set(tmp_path: Path, setup_of, games, plan_of, votes, observers) -> None:  # type: ignore[no-untyped-def]
    runs = []
    for k, (label, deal, how) in enumerate(games):
        frames = _play(tmp_path / f"g{k}.sqlite3", setup_of(deal), plan_of(deal, how), votes,
                       observers)
        runs.append((label, frames))
    first_label, first = runs[0]
    for label, frames in runs[1:]:
        _assert_same(first, frames, f"{first_label} / {label}")


# --- Millers Hollow and BGA: seer, witch, wolves ----------------------------------

MH_BASE = ["werewolf", "werewolf", "villager", "witch", "villager", "villager", "villager",
           "villager"]
MH_OBSERVERS = [0, 1, 4, 7]  # the wolves and two villagers (seats 2, 5, 6 hold the seer once)


def _mh_plan(deal: list[str], how: str) -> Plan:
    """Night 1 the pack takes F (seat 5), night 2 E (seat 4); the seer and the
    witch act `how`; a dead seer does not act."""
    plan: Plan = []
    for night, victim in ((1, "F"), (2, "E")):
        plan += [(night, "wolves", 3.0, 0, {"do": "attack", "target": victim}),
                 (night, "wolves", 7.0, 1, {"do": "attack", "target": victim})]
        if how in AFTER:
            seer = deal.index("seer")
            if not (night == 2 and seer == 5):  # the seer at F died on night 1
                plan.append((night, "seer", AFTER[how], seer, {"do": "inspect", "target": "A"}))
            plan.append((night, "witch", AFTER[how], 3,
                         {"do": "potion", "heal": False, "poison": None}))
    return plan


MH_VOTES = {0: 7, 1: 7, 2: 7, 3: 7, 4: 7, 6: 7, 7: 4}  # day 1: H is executed


@pytest.mark.parametrize("ruleset", ["millers-hollow", "bga"])
def test_nights_look_the_same_whoever_holds_the_seer_and_whenever_anyone_acts(
        tmp_path: Path, ruleset: str) -> None:
    """[issue 16]: the seer at seat 2 or 6 acting at once, at the last second
    or never, or the seer at seat 5 killed on night 1 (roles hidden on death);
    the witch passing at once, at the last second or never: the table, the
    wolves and the villagers see the same two nights, half second by half
    second, and the same messages."""
    games = _games(MH_BASE, [2, 6], 5)
    _run_set(tmp_path, lambda deal: _setup(ruleset, deal, reveal_on_death=False),
             games, _mh_plan, MH_VOTES, MH_OBSERVERS)


# --- jp-standard: the one window --------------------------------------------------

JP_BASE = ["werewolf", "werewolf", "madman", "medium", "knight", "villager", "villager",
           "villager", "villager"]
JP_OBSERVERS = [0, 1, 2, 3, 5]  # wolves, madman, medium, a villager


def _jp_plan(deal: list[str], how: str) -> Plan:
    """In night 2's one window the first wolf takes F (seat 5) at 4 s, the
    knight guards D; the seer (and the knight) act `how`."""
    plan: Plan = [(2, "actions", 4.0, 0, {"do": "attack", "target": "F"})]
    if how in AFTER:
        seer = deal.index("seer")
        plan.append((1, "actions", AFTER[how], seer, {"do": "inspect", "target": "A"}))
        if seer != 7:  # the seer at H was executed on day 1
            plan.append((2, "actions", AFTER[how], seer, {"do": "inspect", "target": "B"}))
        plan.append((2, "actions", AFTER[how], 4, {"do": "guard", "target": "D"}))
    return plan


JP_VOTES = {i: 7 for i in range(9) if i != 7} | {7: 5}  # day 1: H is executed


def test_jp_standards_one_window_looks_the_same_whoever_acts_and_when(tmp_path: Path) -> None:
    """[issue 16], RULES.md §4 [004]: the one night window lasts `night_s`
    whatever the seer and the knight do: the seer at seat 6 or 8 acting at
    once, at the last second or never, or the seer at seat 7 executed on day 1;
    the wolves, the madman, the medium, a villager and the table see the
    same."""
    games = _games(JP_BASE, [6, 8], 7)
    _run_set(tmp_path, lambda deal: _setup("jp-standard", deal, night_s=60), games, _jp_plan,
             JP_VOTES, JP_OBSERVERS)


def test_the_comparison_fails_if_an_answered_call_may_end_early(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The test above must be able to fail: with pacing changed so that a call
    ends as soon as its step is answered (the night before issue 16), the
    seer who answers at once and the one who never does are told apart."""
    due = pacing._due

    def early(pc: pacing.Pace, now: float) -> bool:
        answered = pc.mode == "calls" and not pc.live and pc.cursor < len(pc.calls) \
            and now - pc.started >= 1.0
        return answered or due(pc, now)

    monkeypatch.setattr(pacing, "_due", early)
    games = [g for g in _games(MH_BASE, [2], 5) if g[2] in ("at once", "never")]
    with pytest.raises(AssertionError, match="differs at"):
        _run_set(tmp_path, lambda deal: _setup("millers-hollow", deal, reveal_on_death=False),
                 games, _mh_plan, MH_VOTES, MH_OBSERVERS)
