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

from pathlib import Path

import pytest

from companion.table import pacing

from .lockstep import Move, Spec, assert_same, lockstep

#: (night, call, seconds into the call, seat, action); "last" = the last half second
Plan = list[tuple[int, str, float | str, int, dict]]
STOP_DAY = 2  # the run ends when day 2's ballots open: two whole nights and a day


def _moves(setup: dict, plan: Plan, votes: dict[int, int]) -> list[Move]:
    """The plan as lockstep's moves, and day 1's ballots (the dead do not vote)."""
    moves: list[Move] = [(f"{night}:{call}", after, seat, action)
                         for night, call, after, seat, action in plan]
    return moves + [("day1:ballot", 0.0, seat, {"do": "vote", "target": setup["players"][t]})
                    for seat, t in votes.items()]


def _stopped(table) -> bool:  # type: ignore[no-untyped-def]
    return table.pace.mode == "ballot" and table.state.n == STOP_DAY


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
    """Every game of the set in lockstep (tests/hub/lockstep.py), each
    compared with the first, half second by half second, routes included."""
    specs = []
    for label, deal, how in games:
        setup = setup_of(deal)
        specs.append(Spec(setup, _moves(setup, plan_of(deal, how), votes), observers, label))
    runs = lockstep(tmp_path, specs, _stopped)
    for spec, frames in zip(specs[1:], runs[1:]):
        assert_same(runs[0], frames, f"{specs[0].label} / {spec.label}")


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
