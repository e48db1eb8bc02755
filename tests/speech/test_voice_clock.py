"""The voice and the clock as one [issue 29]: in a narrated game the table's
pacing waits for the words (each line lasts its rendered WAV's length, a
public fact), a call's window opens once its wake line is said, the seats
wait while the narrator speaks, and a line whose step has ended is dropped
(or cut), never played late. `werewolf narrate --timeline` measures it on a
whole game.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from slowness import wait_s

from companion.speech import Cache
from companion.speech import timeline as narrate_timeline
from companion.speech.ahead import GAME
from companion.speech.narration import Narration
from companion.store import Store
from companion.table import NotNow, Table
from companion.table.pace import Pace
from companion.table.pacing import NARRATOR_SPEAKING, Settings
from companion.table.voicing import VERDICT_AFTER_S, voiced

from .conftest import PLAYERS, ROLES, FakeClock, Tone, need_engine

LEAD_S = Settings().voice_lead_s  # the hub's own lead before a step's first words
def _table(path: Path, **options: object) -> tuple[Table, Narration, FakeClock]:
    clock = FakeClock()
    table = Table(Store(path / "g.sqlite3"), clock=clock, rng=random.Random(5))
    narration = Narration(table, Cache(path / "speech", engines={"en": Tone()}))
    table.create({"ruleset": "millers-hollow", "players": PLAYERS,
                  "deal": dict(zip(PLAYERS, ROLES)), "seed": 4, "narrated": True,
                  "wait_for_start": True, "options": {"night_s": 20, "pack_s": 30,
                                                      "first_night_attack": True, **options}})
    # the game's lines, from the deal on
    assert narration.ahead.drain(timeout=wait_s(60), upto=GAME)
    return table, narration, clock


# --- pacing.voiced -----------------------------------------------------------------

def test_a_window_opens_once_its_words_are_said() -> None:
    """[issue 29] "a call's window opens when its wake line has been spoken":
    a call, the discussion, a ballot, a prompt or last words that open with
    words keep their whole window after them."""
    for mode in ("calls", "discussion", "ballot", "prompt", "last-words"):
        pc = Pace(mode=mode, started=100.0, deadline=120.0)
        got = voiced(pc, 107.5, opened=True)
        assert (got.opens, got.deadline) == (107.5, 127.5), mode
        assert pc.deadline == 120.0  # the record given is never changed


def test_the_verdict_lasts_until_a_moment_after_its_last_word() -> None:
    """[issue 29] "the verdict ... last[s] at least as long as what is said in it"."""
    assert voiced(Pace(mode="verdict", started=0.0, deadline=10.0), 25.0, True).deadline == \
        25.0 + VERDICT_AFTER_S
    assert voiced(Pace(mode="verdict", started=0.0, deadline=10.0), 4.0, True).deadline == 10.0


def test_words_said_in_an_open_window_are_heard_before_anyone_acts() -> None:
    """A day power's news said mid-discussion: the discussion lasts at least
    as long, and the seats wait for its end (`opens`)."""
    got = voiced(Pace(mode="discussion", started=0.0, deadline=60.0, opens=3.0), 70.0, False)
    assert (got.opens, got.deadline) == (70.0, 70.0)


def test_a_paused_or_untimed_stage_is_left_alone() -> None:
    paused = Pace(mode="calls", started=0.0, deadline=None, paused=12.0)
    assert voiced(paused, 30.0, True) == paused
    assert voiced(Pace(mode="over", started=0.0), 30.0, True).deadline is None


# --- on a table ----------------------------------------------------------------------

def test_the_seers_window_opens_when_her_wake_line_ends(tmp_path: Path) -> None:
    """[issue 29] item 1: the seer's "wake up" is said before her window, and
    her 20 s are whole after it; a tap (an action, or any phone's decoy)
    while the narrator speaks is refused alike, then taken."""
    table, narration, clock = _table(tmp_path)
    table.timer("start")
    start = clock.t
    said = [u for u in narration.said() if u.step != "deal"]
    wake = next(u for u in said if u.text.startswith("Seer, wake up"))
    assert said[0].at == pytest.approx(start + LEAD_S) and wake.at > said[0].at + said[0].dur
    pace = table.pace
    assert pace.opens == pytest.approx(wake.at + wake.dur)
    assert pace.deadline == pytest.approx(pace.opens + 20.0)
    seer, villager = ROLES.index("seer"), ROLES.index("villager")
    with pytest.raises(NotNow, match=NARRATOR_SPEAKING):
        table.act_seat(seer, {"do": "inspect", "target": "Ann"})
    with pytest.raises(NotNow, match=NARRATOR_SPEAKING):
        table.suspect(villager, {"target": "Ann"})
    clock.t = pace.opens + 0.1
    table.tick()
    table.act_seat(seer, {"do": "inspect", "target": "Ann"})
    table.suspect(villager, {"target": "Ann"})
    clock.t = pace.deadline - 0.1
    table.tick()
    assert table.pace.calls[table.pace.cursor] == "seer"  # the whole window
    clock.t = pace.deadline + 0.1
    table.tick()
    assert table.pace.calls[table.pace.cursor] == "wolves"


def test_a_line_whose_step_ended_is_dropped_or_cut(tmp_path: Path) -> None:
    """[issue 29] "A line that can no longer be said in time is dropped, never
    played late": the host's Next during "Night falls…" cuts it where it is
    and drops the seer's wake line (never begun); the next call is said."""
    table, narration, clock = _table(tmp_path)
    table.timer("start")
    first = next(u for u in narration.said() if u.step != "deal")
    clock.t = first.at + 1.0
    table.timer("skip", stage=table.pace.stage)
    said = {u.text[:14]: u for u in narration.said()}
    assert said["Night falls an"].cut and said["Night falls an"].dur == pytest.approx(1.0)
    assert said["Seer, wake up "].dropped
    assert said["Werewolves, wa"].at >= clock.t + LEAD_S
    assert not said["Werewolves, wa"].dropped
    timeline = narration.timeline()["said"]
    assert [u["dropped"] for u in timeline if u["text"].startswith("Seer, wake up")] == [True]


def test_a_resumed_narrated_game_says_where_it_is(tmp_path: Path) -> None:
    """After a restart the voice (made after the game was loaded) says the
    call being made, and its window waits for those words."""
    table, _, clock = _table(tmp_path)
    table.timer("start")
    again = Table(Store(tmp_path / "g.sqlite3"), clock=clock, rng=random.Random(5))
    again.resume()
    narration = Narration(again, Cache(tmp_path / "speech", engines={"en": Tone()}))
    said = narration.said()
    assert said and said[-1].text.startswith("Seer, wake up")
    assert again.pace.opens == pytest.approx(said[-1].at + said[-1].dur)


def _timeline(path: Path, roles: list[str], act: bool, engines: dict,
              speech: Path) -> list[tuple]:
    """A narrated game's (at, dur, text) from its start, the seer and the witch
    answering or not (`act`), on a fake clock."""
    clock = FakeClock()
    table = Table(Store(path), clock=clock, rng=random.Random(5))
    narration = Narration(table, Cache(speech, engines=engines), offline=True)
    table.create({"ruleset": "millers-hollow", "players": PLAYERS, "seed": 4, "narrated": True,
                  "deal": dict(zip(PLAYERS, roles)), "wait_for_start": True,
                  "options": {"night_s": 6, "pack_s": 8, "discussion_s": 5,
                              "first_night_attack": True, "reveal_on_death": False,
                              "sheriff": False}})
    table.timer("start")
    start = clock.t
    wolves = [i for i, r in enumerate(roles) if r == "werewolf"]
    while clock.t - start < 150:
        clock.t += 0.25
        table.tick()
        if not act or table.pace.opens is None or clock.t < table.pace.opens + 1:
            continue
        for seat, role in enumerate(roles):
            state = table.state
            assert state is not None
            want = {"seer": {"do": "inspect", "target": PLAYERS[wolves[0]]},
                    "witch": {"do": "potion", "heal": False, "poison": None},
                    "werewolf": {"do": "attack", "target": PLAYERS[roles.index("villager")]}}
            if role in want and state.alive[seat]:
                try:
                    table.act_seat(seat, dict(want[role]))
                except Exception:  # noqa: BLE001 - not its call: pacing holds it
                    pass
    return [(round(u.at - start, 3), round(u.dur, 3), u.text) for u in narration.said()]


@pytest.mark.parametrize("pair", ["seer-seat", "answers-or-not"])
def test_the_timeline_is_the_same_whatever_the_hidden_cards(tmp_path: Path, pair: str,
                                                            engines: dict,
                                                            speech_cache: Cache) -> None:
    """[issue 29] "The night stays leak-free": with the real voice's lengths,
    two games that differ only in where the seer sits, or in whether the
    seer and the witch answer at all, say the same words at the same
    moments for the same time (the night's length depends on public facts)."""
    need_engine("en")
    other = ["villager", "werewolf", "seer", "witch", "villager", "werewolf", "villager",
             "villager"] if pair == "seer-seat" else ROLES
    a = _timeline(tmp_path / "a.sqlite3", ROLES, True, engines, speech_cache.folder)
    b = _timeline(tmp_path / "b.sqlite3", other, pair == "seer-seat", engines,
                  speech_cache.folder)
    dawn_a = next(i for i, (_, _, t) in enumerate(a) if t.startswith("Morning"))
    dawn_b = next(i for i, (_, _, t) in enumerate(b) if t.startswith("Morning"))
    assert dawn_a > 4 and all(dur > 0.3 for _, dur, _ in a)
    assert a[:dawn_a] == b[:dawn_b]  # the whole night, word for word, moment for moment
    assert a[dawn_a][0] == b[dawn_b][0]  # and the dawn at the same moment


# --- werewolf narrate --timeline ---------------------------------------------------------

CASES = [("millers-hollow", 8, "en", {}), ("bga", 12, "zh_Hant", {"professions": True}),
         ("jp-standard", 9, "ja", {})]


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize(("ruleset", "players", "lang", "options"), CASES,
                         ids=[c[0] for c in CASES])
def test_the_timeline_of_a_whole_game_keeps_time(ruleset: str, players: int, lang: str,
                                                 options: dict, seed: int,
                                                 speech_cache: Cache) -> None:
    """[issue 29] "How it is checked": millers-hollow 8 (en), bga 12 with The
    Village (zh_Hant) and jp-standard 9 (ja), seeds 1-3: no line is still
    said after its step ended, every wake line ends before its window opens,
    and no line starts more than 1.5 s after what it announces."""
    need_engine(lang)
    got = narrate_timeline.run(ruleset, players, lang, seed, speech_cache.folder, options)
    assert got["late"] == 0 and got["wake_after_open"] == 0, got
    assert got["max_lag_s"] <= 1.5
    assert got["calls"] >= 1 and got["said"] >= 20
    lines = got["lines"]
    assert all(a["at"] + a["dur"] <= b["at"] + 1e-6 for a, b in zip(lines, lines[1:])
               if not a["dropped"] and not b["dropped"])  # one after another
    assert any("opens" in line for line in lines)


def test_werewolf_narrate_timeline_prints_one_json_object_last(tmp_path: Path) -> None:
    need_engine("en")
    run = subprocess.run([sys.executable, "-m", "companion.cli", "narrate", "--timeline",
                          "--lang", "en", "--seed", "2", "--data", str(tmp_path)],
                         capture_output=True, text=True, timeout=wait_s(300), check=False)
    assert run.returncode == 0, run.stderr
    got = json.loads(run.stdout.strip().splitlines()[-1])
    assert got["ruleset"] == "millers-hollow" and got["players"] == 8 and got["seed"] == 2
    assert {"lines", "max_lag_s", "late", "dropped", "length_s"} <= got.keys()
    assert (tmp_path / "speech" / "en").is_dir()  # rendered into the hub's folder (--data)
    bad = subprocess.run([sys.executable, "-m", "companion.cli", "narrate", "--timeline",
                          "--lang", "en", "--players", "2", "--data", str(tmp_path)],
                         capture_output=True, text=True, timeout=wait_s(60), check=False)
    assert bad.returncode == 2 and "werewolf narrate:" in bad.stderr
