"""Narrated mode on a real Table and a fake clock [issue 20]: the hub says
every call and announcement by itself, from the public view only, so speech
leaks nothing: two games that differ only in hidden cards have the same
audio timeline (the same sentences at the same moments, so the same audio).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from slowness import wait_s

from companion.engine import legal_actions
from companion.speech import Cache
from companion.speech.narration import Narration
from companion.store import Store
from companion.table import Table, TableError

from .conftest import FakeClock, need_engine


def _setup(roles: list[str], narrated: bool = True, **options: object) -> dict:
    players = ["Ann", "Bob", "Cleo", "Dan", "Eve", "Finn", "Gus", "Hana"]
    return {"ruleset": "millers-hollow", "players": players, "deal": dict(zip(players, roles)),
            "seed": 4, "narrated": narrated, "options": {"first_night_attack": True, **options}}


def _narrate(path: Path, setup: dict, seconds: float,
             act: dict[str, dict] | None = None) -> list[tuple[float, str]]:
    """Play `seconds` of the game on a fake clock, ticking every half second;
    `act`: call -> the action its card's holder takes one second into it."""
    clock = FakeClock()
    table = Table(Store(path), clock=clock, rng=random.Random(5))
    narration = Narration(table, Cache(path.parent / "speech", engines={}))
    table.create(setup)
    start = clock.t
    roles = [setup["deal"][n] for n in setup["players"]]
    done: set[tuple[int, str]] = set()
    while clock.t - start < seconds:
        clock.t += 0.5
        table.tick()
        pc = table.pace
        call = pc.calls[pc.cursor] if pc.mode == "calls" and pc.cursor < len(pc.calls) else None
        key = f"{call}@{pc.night}" if act and f"{call}@{pc.night}" in act else call
        if act and key in act and (pc.night, call) not in done and clock.t - pc.started >= 1.0:
            done.add((pc.night, call))
            role = {"wolves": "werewolf"}.get(str(call), str(call))
            for seat in [i for i, r in enumerate(roles) if r == role]:
                try:
                    table.act_seat(seat, dict(act[key]))
                except TableError:  # a dead holder: the engine is not waiting for him
                    pass
    return [(round(u["at"] - start, 3), u["text"]) for u in narration.timeline()["said"]]


HIDDEN: dict = {"reveal_on_death": False, "discussion_s": 10}
BASE = ["werewolf", "villager", "seer", "witch", "werewolf", "villager", "villager", "villager"]


def test_the_hub_says_the_nights_calls_and_the_dawn_by_itself(tmp_path: Path) -> None:
    """[issue 20] "Everything the GM did by hand happens by itself": night
    falls, each call of the deck, its sleep line, then the dawn's news."""
    said = [text for _, text in _narrate(tmp_path / "a.sqlite3", _setup(BASE), 400)]
    first = said.index("Seer, wake up and choose the player whose true identity you want to see.")
    assert said[0].startswith("Night falls")
    assert said.index("The seer goes back to sleep.") > first
    assert any(s.startswith("Werewolves, wake up") for s in said)
    assert any(s.startswith("Morning has come") for s in said)


def test_a_game_master_game_is_not_narrated(tmp_path: Path) -> None:
    assert _narrate(tmp_path / "a.sqlite3", _setup(BASE, narrated=False), 60) == []


@pytest.mark.parametrize("pair", ["seer-seat", "answers-or-not", "dead-or-alive", "centre"])
def test_the_audio_timeline_is_the_same_whatever_the_hidden_cards(tmp_path: Path,
                                                                   pair: str) -> None:
    """[issue 20] "the audio timeline of a night is identical for two games
    differing only in hidden cards": each call is spoken the same, at the same
    moment, whether its card's holder sits here or there, answers or never
    does, is alive or dead, or the card lies in the centre (RULES.md §4: the
    deck is public, every call lasts its window)."""
    act: dict[str, dict] = {}
    a_setup = b_setup = None
    if pair == "seer-seat":
        a_roles = BASE
        b_roles = ["villager", "werewolf", "seer", "witch", "villager", "werewolf", "villager",
                   "villager"]
    elif pair == "answers-or-not":  # the same deck: a witch who passes, or never answers
        a_roles = b_roles = BASE
        a_setup = _setup(a_roles, **HIDDEN)
        b_setup = _setup(b_roles, **HIDDEN)
        act = {"witch@1": {"do": "potion", "heal": False, "poison": None}}
        a = _narrate(tmp_path / "a.sqlite3", a_setup, 900, act)
        b = _narrate(tmp_path / "b.sqlite3", b_setup, 900, {})
        assert a == b
        assert sum(t.startswith("Witch, wake up") for _, t in a) >= 2
        return
    elif pair == "centre":  # the seer's card dealt, or in the centre (the thief's deck)
        a_roles = ["werewolf", "villager", "seer", "thief", "werewolf", "villager", "villager",
                   "villager"]
        b_roles = [("villager" if r == "seer" else r) for r in a_roles]
        a_setup = {**_setup(a_roles, **HIDDEN), "center": ["villager", "villager"]}
        b_setup = {**_setup(b_roles, **HIDDEN), "center": ["seer", "villager"]}
    else:  # the wolves kill the seer on night 1 in one game, a villager in the other
        a_roles = BASE
        b_roles = ["werewolf", "seer", "villager", "witch", "werewolf", "villager", "villager",
                   "villager"]
        act = {"wolves@1": {"do": "attack", "target": "Cleo"},
               "seer": {"do": "inspect", "target": "Ann"}}  # answered while she lives
    a = _narrate(tmp_path / "a.sqlite3", a_setup or _setup(a_roles, **HIDDEN), 900, act)
    b = _narrate(tmp_path / "b.sqlite3", b_setup or _setup(b_roles, **HIDDEN), 900, act)
    assert a == b
    assert sum(t.startswith("Seer, wake up") for _, t in a) >= 2  # two nights, at least


def test_the_audio_timeline_has_the_same_lengths(tmp_path: Path) -> None:
    """The same sentences render to the same audio: the timeline's lengths
    are those of the words (one engine, deterministic)."""
    need_engine("en")
    cache = Cache(tmp_path / "speech")
    a = _narrate(tmp_path / "a.sqlite3", _setup(BASE), 200)
    lengths = [cache.seconds("en", text) for _, text in a[:6]]
    again = [Cache(tmp_path / "other").seconds("en", text) for _, text in a[:6]]
    assert lengths == again and all(x > 0.3 for x in lengths)


def _an_action(table: Table, seat: int, rng: random.Random) -> dict | None:
    """A phone's action: the pack and the voters name the first seat they may
    (so the game moves on), every other power is drawn at random."""
    state = table.state
    assert state is not None
    choices = legal_actions(state, seat)
    if not choices:
        return None
    for choice in choices:
        spec = choice.to_dict()
        if spec["do"] in ("attack", "vote") and spec.get("targets"):
            return {"do": spec["do"], "target": state.names[spec["targets"][0]]}
    action = rng.choice(choices).sample(seat, rng).to_dict()
    action.pop("actor", None)
    return action


def test_a_narrated_game_runs_from_deal_to_end_with_no_game_master(tmp_path: Path) -> None:
    """[issue 20]: calls, timeouts, prompts and announcements happen by
    themselves; the players' phones act; nobody sends a GM action."""
    clock = FakeClock()
    table = Table(Store(tmp_path / "g.sqlite3"), clock=clock, rng=random.Random(2))
    narration = Narration(table, Cache(tmp_path / "speech", engines={}))
    table.create(_setup(BASE, discussion_s=10))
    rng = random.Random(3)
    for _ in range(40_000):
        clock.t += 0.5
        table.tick()
        if table.state is not None and table.state.phase == "over":
            break
        for seat in range(8):
            if rng.random() < 0.2:
                action = _an_action(table, seat, rng)
                if action is not None:
                    try:
                        table.act_seat(seat, action)
                    except TableError:
                        pass  # not this seat's turn yet: pacing holds it
    assert table.state is not None and table.state.phase == "over"
    table.tick()
    said = [u["text"] for u in narration.timeline()["said"]]
    assert any("win" in s.lower() for s in said[-3:]), said[-3:]


def test_the_pis_speaker_plays_each_utterance_once_in_order_at_the_hosts_volume(
        tmp_path: Path) -> None:
    """[issue 20] "`--speaker` plays on the Pi": each utterance, in the
    timeline's order, once, scaled to the volume set on the host page."""
    import io
    import threading
    import wave

    from companion.speech.engines import wav_bytes

    class Tone:
        lang, name = "en", "tone"

        def render(self, text: str) -> bytes:
            return wav_bytes(b"\x00\x40" * (100 + len(text)), 16000)  # 16384 per sample

    played: list[bytes] = []
    got = threading.Semaphore(0)

    def speaker(data: bytes) -> None:
        played.append(data)
        got.release()

    clock = FakeClock()
    table = Table(Store(tmp_path / "g.sqlite3"), clock=clock, rng=random.Random(5))
    narration = Narration(table, Cache(tmp_path / "speech", engines={"en": Tone()}), speaker)
    narration.set_volume(0.5)
    table.create(_setup(BASE))
    said = narration.timeline()["said"]
    assert len(said) >= 2
    for u in said:  # each at its moment on the table's clock [issue 29]
        assert not got.acquire(timeout=0.3)  # not before it
        exact = narration.utterance(int(u["url"].split("/")[3]), u["n"])
        assert exact is not None and abs(exact.at - u["at"]) < 0.001
        clock.t = exact.at
        assert got.acquire(timeout=wait_s(10))
    for data, u in zip(played, said, strict=True):
        with wave.open(io.BytesIO(data)) as w:
            frames = w.readframes(w.getnframes())
        assert frames[:2] == b"\x00\x20"  # half of 0x4000
        utterance = narration.utterance(int(u["url"].split("/")[3]), u["n"])
        assert utterance is not None
        with wave.open(io.BytesIO(narration.audio(utterance))) as w:
            assert len(frames) == w.getnframes() * 2  # the whole utterance
    assert not got.acquire(timeout=0.3)  # nothing twice


def test_only_a_narrated_game_makes_the_table_build_its_public_view(tmp_path: Path) -> None:
    """The voice hears the public view before each commit (issue 29): only
    while the game is narrated, so a game master's game pays nothing."""
    table = Table(Store(tmp_path / "g.sqlite3"), clock=FakeClock(), rng=random.Random(5))
    narration = Narration(table, Cache(tmp_path / "speech", engines={}))
    built: list[str] = []
    build = table.audiences.build

    def counted(live: object, audience: str) -> dict:
        built.append(audience)
        return build(live, audience)  # type: ignore[arg-type]

    table.audiences.build = counted  # type: ignore[method-assign]
    table.create(_setup(BASE, narrated=False))
    table.timer("skip", stage=table.pace.stage)
    assert "public" not in built and not narration.listening()
    table.create(_setup(BASE))
    assert "public" in built and narration.listening()
    assert narration.timeline()["said"][0]["text"].startswith("Night falls")
    built.clear()
    table.create(_setup(BASE, narrated=False))
    table.timer("skip", stage=table.pace.stage)
    assert "public" not in built


def test_the_table_tells_its_voice_the_deal(tmp_path: Path) -> None:
    """[issue 45] One way in: the table tells the narration each public view,
    the deal's included (no route of the hub has to tell it a game was
    dealt): "look at your card" is said at once, before anything moves."""
    clock = FakeClock()
    table = Table(Store(tmp_path / "a.sqlite3"), clock=clock, rng=random.Random(5))
    narration = Narration(table, Cache(tmp_path / "speech", engines={}))
    table.create(_setup(BASE) | {"wait_for_start": True})
    said = [u["text"] for u in narration.timeline()["said"]]
    assert said == ["Everyone, look at your card in secret and keep it hidden: the night "
                    "falls soon."]
