"""What each log entry says has one home in companion/words [issue 45]: the
story's sentence per kind (`entries.STORY`), the table's announcement per
kind (`announce.ANNOUNCED`), the display's rows (`announce.ROWS`) and the
GM's tablet's line (`announce.NEWS`, sent with the game's record: the page
composes no sentence from a kind).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.engine import announcements, rebuild
from companion.engine.story import story
from companion.replay import run_replay
from companion.words.announce import ANNOUNCED, NEWS, news_text
from companion.words.entries import STORY, Speaker, said

SCENARIOS = sorted((Path(__file__).parents[1] / "scenarios").glob("*.json"))
NAMES = ["Ann", "Bob", "Cid", "Dee"]
#: the story's entries that say nothing alone (the elder's wound: "spared" tells it)
SILENT = {"wounded"}


def _games() -> list:
    out = []
    for path in SCENARIOS:
        played, status = run_replay(json.loads(path.read_text(encoding="utf-8"))["game"])
        if status == 0:
            out.append(rebuild(played["events"]))
    return out


def test_every_entry_kind_the_scripted_games_make_has_its_sentence() -> None:
    """[issue 45] every kind of story entry and of announcement that the
    scripted games (tests/scenarios) make is a row of its table, and says
    something in every language."""
    games = _games()
    assert len(games) > 20
    kinds = {e["kind"] for s in games for ch in story(s)["chapters"] for e in ch["entries"]}
    told = {a["kind"] for s in games for a in announcements(s)}
    assert kinds - SILENT <= set(STORY), sorted(kinds - SILENT - set(STORY))
    assert told <= set(ANNOUNCED), sorted(told - set(ANNOUNCED))
    for s in games[:6]:
        for ch in story(s)["chapters"]:
            for e in ch["entries"]:
                for lang in ("en", "ja", "zh_Hant"):
                    assert (said(Speaker(lang, list(s.names)), e) == "") == (
                        e["kind"] in SILENT), (e, lang)


@pytest.mark.parametrize(("entry", "en", "ja"), [
    ({"kind": "dawn", "deaths": [{"seat": 0, "name": "Ann", "role": "seer"},
                                 {"seat": 1, "name": "Bob", "role": None}]},
     "Dawn: Ann (Seer), Bob", "朝：Ann (占い師), Bob"),
    ({"kind": "dawn", "deaths": []}, "Dawn: nobody died.", "朝：犠牲者はいません。"),
    ({"kind": "death", "name": "Cid", "role": "hunter", "cause": "execution"},
     "Cid · Hunter dies (executed)", "Cid · ハンターが死亡（処刑）"),
    ({"kind": "death", "name": "Cid", "role": None, "cause": None},
     "Cid dies (?)", "Cidが死亡（?）"),
    ({"kind": "tally", "counts": {"3": 1, "2": 5}},
     "Votes: Cid: 5, Dee: 1", "得票：Cid：5, Dee：1"),
    ({"kind": "tally", "counts": {}}, "Votes: Nobody", "得票：なし"),
    ({"kind": "sheriff", "seat": 0}, "Ann is the sheriff", "Annが保安官"),
    ({"kind": "revealed", "name": "Dee"}, "Dee, the village idiot, is spared",
     "怠け者のDeeは処刑されません"),
    ({"kind": "no-execution"}, "No execution.", "処刑なし。"),
    ({"kind": "over", "winner": "village"}, "The village wins", "村人陣営の勝利"),
])
def test_the_gm_tablet_line_of_each_announcement(entry: dict, en: str, ja: str) -> None:
    """[issue 45] the GM's tablet lists each announcement in one short line,
    as gm_state.js's newsText wrote it (the same msgids, now the hub's
    words): the dead with their card when revealed, the counts most first."""
    assert news_text(entry, NAMES, "en") == en
    assert news_text(entry, NAMES, "ja") == ja
    assert entry["kind"] in NEWS
