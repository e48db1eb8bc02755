"""The pacing waits for a table screen that is behind [issue 42], a few
seconds a stage at most.

The issue's second reproduction, on the hub's side: a TV that was late (a
hub frozen 9 s by a render, a slow fetch on the Wi-Fi, a reload) played its
lines after the calls' windows had opened ("7 ballot and runoff calls were
still playing after their window had opened"). The TV now tells the hub
when it begins and ends each line (POST /api/speech/heard), and the hub
moves what follows — and the window — as late as the TV is, capped, so a
guest's word cannot hold the table. The TV's side (it catches up on the
news it missed) is tests/web/test_narrated_in_browser.py's.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from slowness import wait_s

from companion.speech import Cache
from companion.speech.ahead import GAME
from companion.speech.narration import SCREEN_HOLD_S, SCREEN_STEP_S, Narration
from companion.store import Store
from companion.table import Table

from .conftest import AUTH, PLAYERS, ROLES, FakeClock, Tone


def _started(tmp_path: Path) -> tuple[Table, Narration, FakeClock]:
    """A narrated game at night 1's seer call, every line on disk."""
    clock = FakeClock()
    table = Table(Store(tmp_path / "g.sqlite3"), clock=clock, rng=random.Random(5))
    narration = Narration(table, Cache(tmp_path / "speech", engines={"en": Tone()}))
    table.create({"ruleset": "millers-hollow", "players": PLAYERS,
                  "deal": dict(zip(PLAYERS, ROLES)), "seed": 4, "narrated": True,
                  "wait_for_start": True, "options": {"night_s": 20, "pack_s": 30}})
    assert narration.ahead.drain(timeout=wait_s(60), upto=GAME)
    table.timer("start")
    return table, narration, clock


def _wake(narration: Narration):  # type: ignore[no-untyped-def]
    return next(u for u in narration.said() if u.text.startswith("Seer, wake up"))


def test_a_screen_that_begins_a_call_late_moves_its_window(tmp_path: Path) -> None:
    """[issue 42] "the pacing waits for the TV's acknowledgement of a line":
    the TV begins the seer's wake line 2 s after its moment: the line is
    said from then, and her window opens 2 s later and keeps its 20 s."""
    table, narration, clock = _started(tmp_path)
    wake = _wake(narration)
    opens, deadline = table.pace.opens, table.pace.deadline
    assert opens is not None and deadline is not None
    clock.t = wake.at + 2.0
    narration.heard_on_screen(table.game or 0, wake.n, "begun")
    assert wake.at == pytest.approx(clock.t) and wake.held == pytest.approx(2.0)
    assert table.pace.opens == pytest.approx(opens + 2.0)
    assert table.pace.deadline == pytest.approx(deadline + 2.0)
    narration.heard_on_screen(table.game or 0, wake.n, "begun")  # only the first word counts
    assert table.pace.opens == pytest.approx(opens + 2.0)


def test_a_screen_on_time_or_early_moves_nothing(tmp_path: Path) -> None:
    table, narration, clock = _started(tmp_path)
    wake = _wake(narration)
    opens = table.pace.opens
    clock.t = wake.at + 0.1  # within the slack
    narration.heard_on_screen(table.game or 0, wake.n, "begun")
    clock.t = wake.at + wake.dur - 1.0  # "ended" early (a lie): never sooner
    narration.heard_on_screen(table.game or 0, wake.n, "ended")
    assert table.pace.opens == opens and wake.held == 0


def test_the_stage_waits_while_a_playing_screen_has_not_ended_its_last_line(
        tmp_path: Path) -> None:
    """A TV playing (it said it began the line) that has not said it ended
    the wake line when its moment is over: the window waits, tick by tick,
    until it says so."""
    table, narration, clock = _started(tmp_path)
    wake = _wake(narration)
    narration.heard_on_screen(table.game or 0, wake.n, "begun")
    end = wake.at + wake.dur
    for k in range(1, 5):
        clock.t = end + k * SCREEN_STEP_S
        table.tick()
        assert table.pace.opens is not None and table.pace.opens > clock.t  # still waiting
    narration.heard_on_screen(table.game or 0, wake.n, "ended")
    opens = table.pace.opens
    clock.t += 1.0
    table.tick()
    assert table.pace.opens == opens and opens < clock.t  # it ended: the window is open


def test_a_guests_word_holds_a_stage_a_few_seconds_at_most(tmp_path: Path) -> None:
    """[issue 42] a hostile client's word must not stall the table: a guest
    who says every line began long after its moment, and never ends one,
    holds the stage SCREEN_HOLD_S at most."""
    table, narration, clock = _started(tmp_path)
    wake = _wake(narration)
    opens = table.pace.opens
    assert opens is not None
    for u in narration.said():
        clock.t = max(clock.t, u.at + 30.0)
        narration.heard_on_screen(table.game or 0, u.n, "begun")
    for _ in range(100):
        clock.t += SCREEN_STEP_S
        table.tick()
    assert wake.held <= SCREEN_HOLD_S + 1e-6
    assert table.pace.calls[table.pace.cursor] != "seer" or \
        table.pace.opens <= opens + SCREEN_HOLD_S + 1e-6


def test_a_skipped_line_and_a_screen_switched_off_are_not_waited_for(tmp_path: Path) -> None:
    table, narration, clock = _started(tmp_path)
    wake = _wake(narration)
    first = narration.said()[0]
    narration.heard_on_screen(table.game or 0, first.n, "begun")  # a TV plays
    narration.heard_on_screen(table.game or 0, wake.n, "skipped")  # ...passed over the wake line
    opens = table.pace.opens
    clock.t = wake.at + wake.dur + 1.0
    table.tick()
    assert table.pace.opens == opens
    narration.heard_on_screen(table.game or 0, -1, "off")
    assert narration._screen_at is None


def test_the_route_takes_a_screens_word_and_refuses_nonsense(app) -> None:  # type: ignore[no-untyped-def]
    client = app.test_client()
    players = list("ABCDEFGH")
    doc = {"ruleset": "millers-hollow", "players": players, "narrated": True,
           "deal": dict(zip(players, ROLES)), "seed": 3}
    assert client.post("/api/games", json=doc, headers=AUTH).status_code == 201
    said = client.get("/api/speech").get_json()
    n = said["said"][0]["n"]
    got = client.post("/api/speech/heard", json={"game": said["game"], "n": n, "what": "begun"})
    assert got.status_code == 204 and not got.data  # anyone: the TV holds no credential
    for bad in ({"game": said["game"], "n": n, "what": "paused"}, {"game": "1", "n": n},
                {"game": said["game"], "n": True, "what": "ended"}, [1, 2]):
        assert client.post("/api/speech/heard", json=bad).status_code == 400
    assert client.post("/api/speech/heard", json={"game": 999, "n": n,
                                                  "what": "ended"}).status_code == 204
