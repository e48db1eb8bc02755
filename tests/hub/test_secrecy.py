"""Non-interference ([issue 5] Security; RULES.md §4 secrecy of the call):
two games that differ only in cards a seat may not know give that seat — and
the public table view — byte-identical views and stream messages at every
moment, timing included.

Each pair of games is played in lockstep on fake clocks: every half second the
clock moves and the table ticks; the roles act through their phones when
their step is called (a role absent from one game simply does not act). The
night calls last exactly their windows (RULES.md §4); tests/hub/
test_secrecy_time.py holds the same proof for whole nights, every role
acting at once, at the last second, never, or dead [issue 16].
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path

from companion.store import Store
from companion.table import Table

from .conftest import FakeClock

#: (call or "last-words", after seconds, role ("werewolf#2": its 2nd holder), action)
Plan = list[tuple[str, float, str, dict]]


def _holder(cards: list[str], role: str) -> int | None:
    name, _, nth = role.partition("#")
    seats = [i for i, c in enumerate(cards) if c == name]
    k = int(nth or 1) - 1
    return seats[k] if k < len(seats) else None


def _play(path: Path, setup: dict, plan: Plan, observers: list[int],
          until: Callable[[Table], bool]) -> list[dict]:
    clock = FakeClock()
    table = Table(Store(path), clock=clock, rng=random.Random(5))
    table.create(setup)
    names = setup["players"]
    cards = [setup["deal"][n] for n in names]
    audiences = ["public"] + [f"seat:{s}" for s in observers]
    listeners = {a: table.listen(a)[0] for a in audiences}
    todo = list(plan)
    frames: list[dict] = []
    for _ in range(6000):
        clock.advance(0.5)
        table.tick()
        pc = table.pace
        where = pc.calls[pc.cursor] if pc.mode == "calls" and pc.cursor < len(pc.calls) \
            else pc.mode
        for item in list(todo):
            call, after, role, action = item
            if call == where and clock.t - pc.started >= after:
                todo.remove(item)
                seat = _holder(cards, role)
                if seat is not None:
                    table.act_seat(seat, dict(action))
        frame = {"public": json.dumps(table.public(), sort_keys=True)}
        for s in observers:
            frame[f"seat:{s}"] = json.dumps(table.seat_view(s), sort_keys=True)
        for a, listener in listeners.items():
            frame[f"stream:{a}"] = []
            while not listener.queue.empty():
                frame[f"stream:{a}"].append(listener.queue.get_nowait())
        frames.append(frame)
        if until(table):
            return frames
    raise AssertionError("the game never reached the end of the test")


def _assert_same(a: list[dict], b: list[dict]) -> None:
    assert len(a) == len(b), (len(a), len(b))
    for i, (fa, fb) in enumerate(zip(a, b)):
        for key in fa:
            assert fa[key] == fb[key], f"{key} differs at tick {i}:\n{fa[key]}\n{fb[key]}"
            # the story of the game [issue 35] is nobody's before the end: no part of it
            # in the table's view nor a seat's (their streams included)
            text = fa[key] if isinstance(fa[key], str) else "".join(fa[key])
            assert '"story"' not in text, f"{key} holds the story at tick {i}"


def _mh(roles: list[str], **options: object) -> dict:
    players = list("ABCDEFGH")
    return {"ruleset": "millers-hollow", "players": players, "deal": dict(zip(players, roles)),
            "seed": 4, "options": {"first_night_attack": True, **options}}


def _at_discussion(table: Table) -> bool:
    return table.pace.mode == "discussion"


def test_a_witch_who_acts_looks_like_a_witch_who_never_does(tmp_path):
    """RULES.md §4 (revised: the deck is public, [issue 16]): the witch's call
    takes the same time and shows the table and every villager the same
    thing whether the witch answers it or lets it time out."""
    deal = ["werewolf", "villager", "seer", "witch", "werewolf", "villager", "villager",
            "villager"]
    with_witch, without = _mh(deal), _mh(deal)
    seer: Plan = [("seer", 2.0, "seer", {"do": "inspect", "target": "A"})]
    witch: Plan = [("witch", 3.0, "witch", {"do": "potion", "heal": False, "poison": None})]
    # both wolves must agree (unanimous): each attacks F
    attack: Plan = [("wolves", 1.0 + k, f"werewolf#{k + 1}", {"do": "attack", "target": "F"})
                    for k in (0, 1)]
    observers = [1, 5, 6, 7]  # villagers, the victim among them
    a = _play(tmp_path / "a.sqlite3", with_witch, seer + witch + attack, observers,
              _at_discussion)
    b = _play(tmp_path / "b.sqlite3", without, seer + attack, observers, _at_discussion)
    _assert_same(a, b)
    assert '"alive": false, "can_vote": false, "name": "F"' in a[-1]["public"]  # F was killed


def test_who_holds_the_seer_card_is_invisible_to_the_others(tmp_path):
    """RULES.md §4, [004]: villagers, wolves and the madman see the same game
    whether Ann or Hal is the seer, and whichever one inspects."""
    players = list("ABCDEFGHI")

    def deal(seer: int) -> dict:
        roles = ["villager", "werewolf", "werewolf", "madman", "medium", "knight", "villager",
                 "villager", "villager"]
        roles[seer] = "seer"
        return {"ruleset": "jp-standard", "players": players,
                "deal": dict(zip(players, roles)), "seed": 9}

    plan: Plan = [("seer", 3.0, "seer", {"do": "inspect", "target": "B"})]
    observers = [1, 2, 3, 4, 5, 6, 8]  # everyone but seats 0 and 7
    a = _play(tmp_path / "a.sqlite3", deal(0), plan, observers, _at_discussion)
    b = _play(tmp_path / "b.sqlite3", deal(7), plan, observers, _at_discussion)
    _assert_same(a, b)


def test_a_hunter_who_passes_looks_like_anybody_else_when_roles_are_hidden(tmp_path):
    """[issue 5], RULES.md §6: with reveal_on_death off every death gets the
    same last-words pause, so a dead hunter who passes is not told apart from
    a dead villager (the hunter sitting elsewhere)."""
    hunter = _mh(["werewolf", "villager", "seer", "villager", "hunter", "werewolf",
                  "villager", "villager"], reveal_on_death=False)
    # the same deck (public, RULES.md §4 revised): the hunter's card at G, alive
    villager = _mh(["werewolf", "villager", "seer", "villager", "villager", "werewolf",
                    "hunter", "villager"], reveal_on_death=False)
    plan: Plan = [
        ("wolves", 1.0, "werewolf#1", {"do": "attack", "target": "E"}),
        ("wolves", 2.0, "werewolf#2", {"do": "attack", "target": "E"}),
        ("last-words", 2.0, "hunter", {"do": "pass"}),
    ]
    observers = [1, 3, 7]
    a = _play(tmp_path / "a.sqlite3", hunter, plan, observers, _at_discussion)
    b = _play(tmp_path / "b.sqlite3", villager, plan[:2], observers, _at_discussion)
    _assert_same(a, b)
    assert '"alive": false, "can_vote": false, "name": "E"' in a[-1]["public"]  # E was killed
