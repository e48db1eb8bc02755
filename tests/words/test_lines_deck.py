"""The moderator's lines call only the deck's cards (RULES.md §4 revised, §9)
[issue 16]: jp-standard's one window wakes its roles together, a call whose
holder cannot answer tells the GM to read it all the same, and a base game's
whole night names no card that is not in the box, in every language."""

from __future__ import annotations

import random

from companion import words
from companion.engine import new_game, pending, view_for
from companion.store import Store
from companion.table import Table

NAMES = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy"]
JP9 = ["werewolf", "werewolf", "seer", "medium", "knight", "madman", "villager", "villager",
       "villager"]


def _gm(state, call: str, night: int | None = None) -> dict:  # type: ignore[no-untyped-def]
    gm = view_for(state, None)
    gm["pending"] = pending(state)
    gm["pace"] = {"mode": "calls", "call": call, "night": night or state.n, "cursor": 1}
    return gm


def test_jp_standards_one_window_wakes_its_roles_together() -> None:
    """[004], RULES.md §4: night 1 wakes the seer and the wolves (no attack),
    not the knight; from night 2 the knight too; a deck without a knight
    never calls one."""
    jp = new_game("jp-standard", NAMES, JP9, seed=1)
    first = words.gm_line(_gm(jp, "actions"), "ja")
    assert "占い師は目を開けて" in first and "今夜の襲撃はありません" in first
    assert "騎士" not in first
    second = words.gm_line(_gm(jp, "actions", night=2), "en")
    assert "Knight, wake up" in second and "Seer, wake up" in second
    assert "Werewolves, wake up, recognise each other and choose a new victim." in second
    assert "act on your phone" in second
    no_knight = new_game("jp-standard", NAMES[:7], ["werewolf", "seer", "madman",
                                                    *["villager"] * 4], seed=1)
    assert "Knight" not in words.gm_line(_gm(no_knight, "actions", night=2), "en")


def test_a_call_nobody_can_answer_is_read_all_the_same() -> None:
    """[issue 16]: the witch's card in the centre: the GM's tablet says to read
    her call even though nobody may answer; the seer's call (her holder
    alive) says nothing of the kind; the table's line never says it."""
    state = new_game("millers-hollow", NAMES[:8],
                     ["werewolf", "werewolf", "seer", "thief", "villager", "villager",
                      "villager", "villager"], {"sheriff": False}, ["witch", "villager"], seed=1)
    note = "(Read this even though nobody may answer.)"
    assert note in words.gm_line(_gm(state, "witch"), "en")
    assert note not in words.gm_line(_gm(state, "seer"), "en")
    assert "誰も応えられない" in words.gm_line(_gm(state, "witch"), "ja")


def test_a_base_nights_lines_name_only_the_decks_cards(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """RULES.md §4, §9: a whole base night (seer, witch, hunter, wolves,
    villagers) on the GM's tablet and the table screen, in the three
    languages: no thief, cupid, defender, piper, pyromaniac, rumormonger."""
    clock = [1000.0]
    table = Table(Store(tmp_path / "g.sqlite3"), clock=lambda: clock[0], rng=random.Random(1))
    table.create({"ruleset": "millers-hollow", "players": NAMES[:8], "seed": 2,
                  "deal": dict(zip(NAMES, ["werewolf", "werewolf", "seer", "witch", "hunter",
                                           "villager", "villager", "villager"])),
                  "options": {"sheriff": False}})
    absent = {"en": ["Thief", "Cupid", "Defender", "Piper", "Pyromaniac", "Rumormonger",
                     "building"],
              "ja": ["盗人", "キューピッド", "守護者", "笛吹き", "放火魔"],
              "zh_Hant": ["盜賊", "邱比特", "守衛", "吹笛者"]}
    seen = 0
    while table.pace.mode == "calls":
        for lang, bad in absent.items():
            gm = table.gm_view()
            line = words.gm_line(gm, lang, gm["announcements"]) + words.public_line(
                table.public(), lang)
            assert not any(b in line for b in bad), (lang, line)
        seen += 1
        clock[0] += 5
        table.tick()
    assert seen >= (20 + 40 + 20) // 5
