"""The announcements (companion/words/announce.py) [issue 6] "Languages",
RULES.md §9 [004]: each entry of `engine.announcements()` as the GM says it,
in English, Japanese and Traditional Chinese: the dawn's victims (their cards
only where the entry has them), the day's deaths, votes and sheriff, and the
winners."""

from __future__ import annotations

from companion import words
from companion.engine import ROLES

LANGS = ("en", "ja", "zh_Hant")
NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kai", "Lu"]


def test_peaceful_dawn_uses_004s_words() -> None:
    """RULES.md §9 [004]: "みなさん、明るい朝がやってきました。昨晩、人狼の襲撃は
    ありませんでした。" when nobody died."""
    dawn = {"kind": "dawn", "time": "night 2", "n": 2, "deaths": []}
    assert words.announcement_text(dawn, NAMES, "ja") == "昨晩、人狼の襲撃はありませんでした。"
    assert words.announcement_text(dawn, NAMES, "en") == \
        "Last night, there was no werewolf attack."
    assert words.announcement_text(dawn, NAMES, "zh_Hant") == "昨晚沒有人被狼人殺害。"


def test_dawn_names_the_victim_and_withholds_the_role() -> None:
    """RULES.md §9 [004]: "昨晩、人狼の襲撃にあったのは○○さんです。○○さんはゲームから
    抜け、以後話し合いに参加する事はできません。" The card is named only when the
    entry has it (`reveal_on_death`)."""
    hidden = {"kind": "dawn", "time": "night 2", "n": 2,
              "deaths": [{"seat": 1, "name": "Bob", "role": None, "cause": None}]}
    assert words.announcement_text(hidden, NAMES, "ja", "jp-standard") == (
        "昨晩、人狼の襲撃にあったのはBobさんです。"
        "Bobさんはゲームから抜け、以後話し合いに参加する事はできません。")
    shown = {**hidden, "deaths": [{"seat": 1, "name": "Bob", "role": "seer", "cause": None}]}
    text = words.announcement_text(shown, NAMES, "ja", "millers-hollow")
    assert "Bobさんの正体は占い師でした。" in text and "人狼の襲撃" not in text
    two = {**hidden, "deaths": [{"seat": 1, "name": "Bob", "role": None, "cause": None},
                                {"seat": 3, "name": "Dee", "role": None, "cause": None}]}
    assert words.announcement_text(two, NAMES, "en") .startswith(
        "Last night's victims: Bob and Dee.")
    for lang in LANGS:
        for role in ROLES:
            assert words.role_name(role, lang) not in words.announcement_text(
                hidden, NAMES, lang, "jp-standard") or role == "werewolf"


def test_day_announcements_and_the_winners() -> None:
    """RULES.md §9 [004]: the execution ("投票の結果、○○さんが処刑されました"), the
    winning side ("人狼は全て処刑されました。村人陣営の勝利です", "村人は全て人狼に食い
    尽くされてしまいました…。人狼陣営の勝利です", the fox's line), and the other
    entries of `announcements()` as sentences."""
    text = words.announcement_text(
        {"kind": "death", "seat": 0, "name": "Ann", "role": None, "cause": "execution"},
        NAMES, "ja")
    assert text.startswith("投票の結果、Annさんが処刑されました。")
    assert words.announcement_text({"kind": "over", "winner": "village", "winners": [0]},
                                    NAMES, "ja").startswith(
        "人狼は全て処刑されました。村人陣営の勝利です。")
    assert words.announcement_text({"kind": "over", "winner": "werewolves", "winners": []},
                                    NAMES, "ja") == \
        "村人は全て人狼に食い尽くされてしまいました…。人狼陣営の勝利です。"
    assert "妖狐陣営の勝利です" in words.announcement_text(
        {"kind": "over", "winner": "fox", "winners": [2]}, NAMES, "ja")
    entries = [
        {"kind": "no-execution"}, {"kind": "revealed", "seat": 1, "name": "Bob"},
        {"kind": "tally", "step": "vote", "round": 1, "counts": {"0": 2, "1": 2},
         "top": 2, "tie": [0, 1]},
        {"kind": "tally", "step": "election", "round": 1, "counts": {}, "top": 0,
         "tie": None},
        *({"kind": "sheriff", "seat": 2, "how": how}
          for how in ("elected", "drawn", "none", "appointed", "default", "died")),
        *({"kind": "death", "seat": 0, "name": "Ann", "role": "hunter", "cause": cause}
          for cause in (None, "execution", "hunter", "scapegoat")),
        *({"kind": "over", "winner": w, "winners": [0, 1]}
          for w in ("village", "werewolves", "fox", "lovers", "piper", "white-werewolf",
                    "draw")),
    ]
    for lang in LANGS:
        texts = [words.announcement_text(a, NAMES, lang) for a in entries]
        assert all(texts), lang
        assert len(set(texts)) == len(texts), lang


