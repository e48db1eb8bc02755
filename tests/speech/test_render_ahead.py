"""Nothing is rendered under the table's lock, ever [issue 42].

The issue's first reproduction: in a narrated game the dawn's line after the
witch's heal ("…The witch used her healing potion last night.", bga's
`announce_potions`) was not on disk, so it was rendered when the table heard
it, under the table's lock: the hub froze ~9 s on a busy 2-core machine, the
lines were published 7 s after their time and the table screen dropped two.
Here the voice is a fake whose renders stall (a Pi, slower still) and which
notes whether the table's lock was held while it rendered: the table never
waits for a render, and the dawn is said late (once rendered), never lost.
"""

from __future__ import annotations

import random
import threading
import time
from pathlib import Path

from slowness import wait_s

from companion.speech import Cache
from companion.speech.engines import wav_bytes
from companion.speech.narration import Narration
from companion.store import Store
from companion.table import Table, TableError

from .conftest import FakeClock

PLAYERS = ["Ann", "Bob", "Cleo", "Dan", "Eve", "Finn", "Gus", "Hana"]
ROLES = ["werewolf", "villager", "seer", "witch", "werewolf", "villager", "villager", "villager"]
HEALED = "The witch used her healing potion last night."  # the dawn's, with announce_potions
STALL_S = 3.0  # a render that stalls: a busy Pi (the test releases it sooner)


class Stalling:
    """A voice (0.05 s a letter) that notes who renders, and stalls once
    `slow` is set until `release` is, as a Pi's Open JTalk on a busy core."""

    lang, name = "en", "stalling"

    def __init__(self, table_lock: object) -> None:
        self.lock = table_lock
        self.slow = threading.Event()
        self.release = threading.Event()
        self.under_lock: list[str] = []  # texts rendered while the table's lock was held
        self.rendered: list[str] = []

    def render(self, text: str) -> bytes:
        if self.lock._is_owned():  # type: ignore[attr-defined]  # RLock's: held by this thread
            self.under_lock.append(text)
        if self.slow.is_set():
            self.release.wait(STALL_S)
        self.rendered.append(text)
        return wav_bytes(b"\x00\x10" * (800 * len(text)), 16000)


def _drain(narration: Narration, timeout: float) -> None:
    """Wait for the background thread (on the code before [issue 42], which
    had no `ahead`, for its renders to end)."""
    ahead = getattr(narration, "ahead", None)
    if ahead is not None:
        assert ahead.drain(timeout=timeout, upto=2)  # the game's lines (ahead.GAME)
    else:
        time.sleep(1.0)


def _forget(cache: Cache, text: str) -> None:
    """The text's WAV gone from the cache (the cache remembers lengths)."""
    path = cache.path("en", text)
    if path is not None and path.exists():
        path.unlink()
        cache._seconds.pop(str(path), None)


def _dawn_after_a_heal(tmp_path: Path) -> tuple[Table, Narration, FakeClock, Stalling,
                                                list[float]]:
    """A narrated bga game to the dawn after the witch healed the pack's
    victim, every render stalling from the night's start on; the wall time
    each table call took."""
    clock = FakeClock()
    table = Table(Store(tmp_path / "g.sqlite3"), clock=clock, rng=random.Random(5))
    voice = Stalling(table.lock)
    cache = Cache(tmp_path / "speech", engines={"en": voice})
    narration = Narration(table, cache)
    table.create({"ruleset": "bga", "players": PLAYERS, "deal": dict(zip(PLAYERS, ROLES)),
                  "seed": 4, "narrated": True, "wait_for_start": True,
                  "options": {"night_s": 10, "pack_s": 10, "sheriff": False,
                              "announce_potions": True, "first_night_attack": True}})
    _drain(narration, 60)  # what the deal renders ahead: on disk
    for text in (HEALED, f"Last night, there was no werewolf attack. {HEALED}"):
        _forget(cache, text)  # as in the issue: not in the cache when the dawn comes
    voice.slow.set()  # from now on every render stalls
    held: list[float] = []

    def timed(call: object, *args: object) -> None:
        start = time.monotonic()
        try:
            call(*args)  # type: ignore[operator]
        except TableError:
            pass  # not its call (pacing holds it): as a phone is told
        held.append(time.monotonic() - start)

    timed(table.timer, "start")
    want = {"seer": {"do": "inspect", "target": "Ann"},
            "wolves": {"do": "attack", "target": "Dan"},
            "witch": {"do": "potion", "heal": True, "poison": None}}
    end = clock.t + 600
    while clock.t < end and not any(HEALED in u.text for u in narration.said()):
        clock.t += 0.25
        timed(table.tick)
        pc = table.pace
        if pc.mode != "calls" or pc.opens is None or clock.t < pc.opens + 0.5:
            continue
        call = pc.calls[pc.cursor] if pc.cursor < len(pc.calls) else None
        for seat, role in enumerate(ROLES):
            if call in want and (role == call or (call == "wolves" and role == "werewolf")):
                timed(table.act_seat, seat, dict(want[str(call)]))
    return table, narration, clock, voice, held


def test_the_dawn_after_a_heal_is_never_rendered_under_the_tables_lock(tmp_path: Path) -> None:
    """[issue 42] item 1 "a line not rendered ahead stalls the whole table":
    reaching the dawn whose line is not on disk, no table call waits for a
    render (each returns at once while the voice stalls) and nothing is ever
    rendered while the table's lock is held."""
    _, narration, _, voice, held = _dawn_after_a_heal(tmp_path)
    dawn = next(u for u in narration.said() if HEALED in u.text)
    voice.release.set()
    _drain(narration, 30)
    assert not voice.under_lock, voice.under_lock[:3]
    assert max(held) < 1.0, f"the table waited {max(held):.1f} s for a render"
    assert dawn.rendered_late  # heard before it was on disk: said late, not lost
    assert dawn.said[0] in voice.rendered


def test_a_line_rendered_late_is_said_once_ready_and_the_stage_waits(tmp_path: Path) -> None:
    """[issue 42] "a line not ready in time is said late (and logged), never
    rendered in the request": the dawn is in the timeline at once (its
    text; audio not ready), then, rendered, said from a moment after that,
    whole, with the lines after it; the day's window opens after its words."""
    table, narration, clock, voice, _ = _dawn_after_a_heal(tmp_path)
    dawn = next(u for u in narration.said() if HEALED in u.text)
    shown = next(u for u in narration.timeline()["said"] if u["n"] == dawn.n)
    assert shown["ready"] is False and dawn.pending
    clock.t = dawn.at + 1.0  # the voice is still rendering it: its moment passes
    table.tick()
    voice.release.set()
    assert narration.ahead.drain(timeout=wait_s(30))
    table.tick()
    assert not dawn.pending and dawn.late > 0 and dawn.at >= clock.t
    after = [u for u in narration.said() if u.n > dawn.n and not u.dropped]
    assert all(u.at >= dawn.at + dawn.dur for u in after)
    last = max([dawn, *after], key=lambda u: u.at + u.dur)
    assert table.pace.opens is None or table.pace.opens >= last.at + last.dur - 1e-6
    assert table.pace.deadline is not None and table.pace.deadline >= last.at + last.dur


def test_every_line_of_a_game_and_its_story_is_rendered_before_it_is_said(
        tmp_path: Path) -> None:
    """[issue 42] "every line a game can say ... the story's sentences ... is
    rendered by a background worker from the deal on (or when it is first
    knowable)": a narrated jp-standard game played at random to its end (a
    voice that renders at once, the fake clock waiting for the renders the
    deal started), then the story's first pages: no line after the deal's
    was heard before it was on disk."""
    from random import Random

    from companion.engine import recommended_deal
    from companion.speech.timeline import _act

    class Japanese:
        lang, name = "ja", "tone-ja"

        def render(self, text: str) -> bytes:
            return wav_bytes(b"\x00\x10" * (80 * len(text)), 16000)

    names = ["あかり", "ゆうと", "さくら", "はると", "みお", "そうた", "ひな", "れん", "ゆい"]
    clock = FakeClock()
    table = Table(Store(tmp_path / "g.sqlite3"), clock=clock, rng=random.Random(1))
    narration = Narration(table, Cache(tmp_path / "speech", engines={"ja": Japanese()}))
    table.create({"ruleset": "jp-standard", "players": names, "language": "ja", "seed": 2,
                  "cards": recommended_deal("jp-standard", 9), "narrated": True,
                  "wait_for_start": True, "options": {"discussion_s": 10}})
    _drain(narration, 60)
    table.timer("start")
    rng, asks = Random(2), {}  # type: ignore[var-annotated]
    while not table.ended and clock.t < 1_000_000 + 4 * 3600:
        clock.t += 0.25
        table.tick()
        _act(table, rng, asks, clock.t)
    assert narration.ahead.drain(timeout=wait_s(60), upto=1)  # the story, once the end is public
    for _ in range(240):  # its first pages
        clock.t += 0.25
        table.tick()
    late = [u.text for u in narration.said() if u.rendered_late and u.step != "deal"]
    assert not late, late
    assert any(u.text == "配られたカード" for u in narration.said())  # the story was said
