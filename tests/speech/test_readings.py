"""A reading for each name [issue 42 item 3]: "a table cannot say how a name
is read (陽菜: ヒナ or ハルナ)". The setup may give `readings` ({name:
reading}, optional: old setups and replay scripts stay valid); in a
Japanese game a reading is kana. The narrator says the reading, inside the
sentence; the timeline, the captions and every screen keep the name; the
public view and each phone's carry the readings (the phone shows them)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from slowness import wait_s

from companion.engine import recommended_deal
from companion.speech import Cache
from companion.speech.ahead import GAME
from companion.speech.engines import find, wav_bytes
from companion.speech.lines import said_form
from companion.speech.narration import Narration
from companion.store import Store
from companion.table import BadInput, Table

from .conftest import FakeClock

NAMES = ["陽菜", "ゆうと", "さくら", "はると", "みお", "そうた", "ひな", "れん", "ゆい"]


class Heard:
    """A Japanese voice that keeps what it was given to say."""

    lang, name = "ja", "heard"

    def __init__(self) -> None:
        self.said: list[str] = []

    def render(self, text: str) -> bytes:
        self.said.append(text)
        return wav_bytes(b"\x00\x10" * (400 * len(text)), 16000)


def _setup(**more: object) -> dict:
    return {"ruleset": "jp-standard", "players": NAMES, "language": "ja", "narrated": True,
            "cards": recommended_deal("jp-standard", 9), "wait_for_start": True, **more}


def test_the_narrator_says_the_reading_and_the_screens_keep_the_name(tmp_path: Path) -> None:
    clock = FakeClock()
    table = Table(Store(tmp_path / "g.sqlite3"), clock=clock, rng=random.Random(3))
    voice = Heard()
    narration = Narration(table, Cache(tmp_path / "speech", engines={"ja": voice}))
    table.create(_setup(readings={"陽菜": "はるな", "ゆうと": ""}))
    assert narration.ahead.drain(timeout=wait_s(60), upto=GAME)
    view = table.public()
    assert view["readings"] == {"陽菜": "はるな"}  # an empty reading is none
    assert table.seat_view(4)["readings"] == {"陽菜": "はるな"}  # the phone shows it
    rendered = "\n".join(voice.said)
    assert "はるなさん" in rendered and "陽菜" not in rendered  # said as its reading...
    assert "ゆうとさん" in rendered  # ...and a name without one as it is written
    table.timer("start")
    for u in narration.said():  # the timeline (and the captions) show the name
        assert "はるな" not in u.text
        assert u.said == tuple(said_form(x, {"陽菜": "はるな"}) for x in u.units)


def test_readings_are_checked_and_optional(tmp_path: Path) -> None:
    table = Table(Store(tmp_path / "g.sqlite3"), clock=FakeClock(), rng=random.Random(3))
    table.create(_setup())  # no readings: as before [issue 42]
    assert "readings" not in table.public() and "readings" not in table.setup
    for bad, words in [({"陽菜": "Haruna"}, "kana"), ({"誰": "だれ"}, "not a player"),
                       (["はるな"], "object"), ({"陽菜": "は\u200bるな"}, "invisible")]:
        with pytest.raises(BadInput, match=words):
            table.create(_setup(readings=bad))
    table.create({**_setup(readings={"Ann": "Anne"}), "language": "en",
                  "players": ["Ann", *NAMES[1:]]})  # outside Japanese, any letters
    assert table.setup["readings"] == {"Ann": "Anne"}


def test_open_jtalk_reads_the_reading_given() -> None:
    """陽菜 alone is read as Open JTalk guesses; with the table's reading it
    says ハルナ (its own trace)."""
    engine, why = find("ja")
    if engine is None or not hasattr(engine, "reading"):
        pytest.skip(f"no Open JTalk here: {why}")
    said = said_form("陽菜さんが処刑されました。", {"陽菜": "はるな"})
    assert engine.reading(said).startswith("ハルナサン")  # type: ignore[attr-defined]


#: each card's Japanese name as Open JTalk should say it (RULES.md §9's names)
ROLE_READINGS = {
    "villager": "ムラビト", "werewolf": "ジンロー", "seer": "ウラナイシ", "witch": "マジョ",
    "hunter": "ハンター", "cupid": "キューピッド", "little-girl": "ショージョ",
    "thief": "トーゾク", "defender": "シュゴシャ", "village-idiot": "ナマケモノ",
    "elder": "チョーロー", "scapegoat": "キラワレモノ", "piper": "フエフキ",
    "white-werewolf": "ハクロー", "pyromaniac": "ホーカマ", "rumormonger": "ウワサヤ",
    "madman": "キョージン", "medium": "レーノーシャ", "knight": "キシ",
    "freemason": "キョーユーシャ", "fox": "ヨーコ",
}


def test_open_jtalk_reads_every_card_right() -> None:
    """[issue 42] "白狼 is read シロオーカミ (ハクロー)": every card's name,
    in the line that reveals it ("…の正体は白狼でした。"), as Open JTalk's own
    trace says it (its accent marks aside)."""
    from companion.speech.engines import OpenJTalk
    from companion.words.catalogs import catalog_for
    from companion.words.names import role_names

    engine, why = find("ja")
    if not isinstance(engine, OpenJTalk):
        pytest.skip(f"no Open JTalk here: {why or engine}")
    names = role_names("ja")
    assert set(names) == set(ROLE_READINGS)  # a new card is given its reading here
    was = str(catalog_for("ja").gettext("{name} was the {role}."))
    for role, name in names.items():
        line = was.format(name="あかりさん", role=name)
        said = engine.reading(line).replace("’", "")
        assert said.startswith(f"アカリサンノショータイワ{ROLE_READINGS[role]}デシタ"), (role, said)
