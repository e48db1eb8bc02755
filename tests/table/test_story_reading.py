"""Whether a phone may ask for the story, said by its seat's view [issue 45]
(companion/table/audiences.py `_reads_story`, by engine.story.readable):
story.js no longer works out who is a ghost. "end" once the game is over,
"ghost" while the seat is dead with the `ghosts` option, else None — and a
death the night has not told yet opens nothing (tests/table/test_night_news.py
holds every seat's view still within a night call, this field included)."""

from __future__ import annotations

import random

import pytest
from test_night_news import random_moment

from companion.table import Table

PLAYERS = [f"P{i}" for i in range(8)]
ROLES = ["werewolf", "werewolf", "seer", "witch", "hunter", "villager", "villager", "villager"]


@pytest.mark.parametrize("ghosts", [True, False])
def test_each_seat_view_says_whether_its_phone_reads_the_story(table: Table, clock,  # type: ignore[no-untyped-def]
                                                               ghosts: bool) -> None:
    table.create({"ruleset": "millers-hollow", "players": PLAYERS, "seed": 7,
                  "deal": dict(zip(PLAYERS, ROLES)),
                  "options": {"sheriff": False, "night_s": 4, "pack_s": 6, "discussion_s": 5,
                              "ghosts": ghosts}})
    rng = random.Random(5)
    seen = set()
    for _ in range(6000):
        for seat in range(8):
            view = table.seat_view(seat)
            over = view["phase"] == "over"
            want = "end" if over else "ghost" if ghosts and not view["alive"] else None
            assert view["reads_story"] == want, (seat, view["phase"], view["alive"])
            seen.add(want)
        if table.state.phase == "over":
            break
        random_moment(table, clock, rng)
    assert table.state.phase == "over"
    assert seen == ({None, "ghost", "end"} if ghosts else {None, "end"}), seen
