"""The announcements' words for issue 34's rules, in en/ja/zh_Hant: the
witch's potions told at dawn (RULES.md §5 witch [000]), the idiot sheriff's
badge (§6 [002]), the candidates named (§6 [003]), and the bitten fox's
morning read like a knight's guard (§9 [004])."""

from __future__ import annotations

import pytest
from helpers import NAMES, a, attack, bitten_fox_and_guarded, game, votes

from companion.engine import announcements
from companion.words import announcement_text

LANGS = ("en", "ja", "zh_Hant")
WITCH = ["werewolf", "werewolf", "seer", "witch", "villager", "villager", "villager",
         "villager"]
NIGHT1 = [a("Cid", "inspect", "Ann"), *attack("Hal", "Ann", "Bob")]
POTIONS = {
    # [000] l.49 「癒しの薬、毒薬使用時は翌朝公表される。」; [003]: 解藥, 毒藥
    "heal": {"en": "The witch used her healing potion last night.",
             "ja": "昨晩、魔女が癒しの薬を使いました。", "zh_Hant": "昨晚女巫使用了解藥。"},
    "both": {"en": "The witch used her healing potion and her poison last night.",
             "ja": "昨晩、魔女が癒しの薬と毒薬を使いました。",
             "zh_Hant": "昨晚女巫使用了解藥和毒藥。"},
}


def dawn(state) -> dict:
    return [x for x in announcements(state) if x["kind"] == "dawn"][-1]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("used,potion", [("heal", {"heal": True}),
                                         ("both", {"heal": True, "poison": "Ann"})])
def test_the_dawn_says_the_witch_used_her_potions_rules_5_000(lang, used, potion):
    """RULES.md §5 witch `announce_potions` (on in bga) [000 l.49]: the dawn's
    words say which potions the witch used, in the game's language, and
    never whom she saved (Hal) or who she is (Dan)."""
    action = a("Dan", "potion", heal=potion["heal"], poison=potion.get("poison"))
    state = game("bga", WITCH, NIGHT1 + [action], {"sheriff": False})
    text = announcement_text(dawn(state), list(NAMES[:8]), lang)
    assert POTIONS[used][lang] in text
    assert "Hal" not in text and "Dan" not in text


@pytest.mark.parametrize("lang", LANGS)
def test_nothing_is_said_of_the_potions_without_the_option_rules_5(lang):
    """Off (millers-hollow's default), the dawn says nothing of them."""
    state = game("millers-hollow", WITCH, NIGHT1 + [a("Dan", "potion", heal=True)],
                 {"sheriff": False})
    text = announcement_text(dawn(state), list(NAMES[:8]), lang)
    assert all(s[lang] not in text for s in POTIONS.values())


@pytest.mark.parametrize("lang,words", [
    ("en", "he names no successor"), ("ja", "後継者は指定されず"), ("zh_Hant", "不指定繼任者")])
def test_the_idiot_sheriffs_badge_leaves_with_him_rules_6_002(lang, words):
    """RULES.md §6 [002 l.77 「保安官が脱落：怠け者以外は後継者を指定する」]."""
    entry = {"kind": "sheriff", "time": "night 2", "seat": None, "how": "idiot"}
    assert words in announcement_text(entry, list(NAMES[:8]), lang)


@pytest.mark.parametrize("lang,words", [
    ("en", "The candidates are Dan and Eve."), ("ja", "候補者は"), ("zh_Hant", "候選人是")])
def test_the_first_round_names_the_candidates_rules_6_003(lang, words):
    """RULES.md §6 `vote_mode=candidates` [003: 「候選人」]: the tally of the
    first round says who the candidates are."""
    state = game("millers-hollow", ["werewolf", "werewolf", "seer", "villager", "villager",
                                    "villager", "villager", "villager"],
                 NIGHT1 + votes("Ann>Dan", "Bob>Dan", "Cid>Eve", "Dan>Eve", "Eve>Fay",
                                "Fay>Gus", "Gus>Ann"),
                 {"sheriff": False, "vote_mode": "candidates"})
    tally = [x for x in announcements(state) if x["kind"] == "tally"][-1]
    text = announcement_text(tally, list(NAMES[:8]), lang)
    assert words in text and "Tie" not in text and "同票" not in text


@pytest.mark.parametrize("lang,words", [
    ("en", "Last night, there was no werewolf attack."),
    ("ja", "昨晩、人狼の襲撃はありませんでした"),  # [004] l.109
    ("zh_Hant", "昨晚沒有人被狼人殺害")])
def test_a_bitten_fox_reads_no_attack_like_a_guard_rules_9_004(lang, words):
    """RULES.md §9 [004 l.57 「死体無し」; l.109 「昨晩、人狼の襲撃はありませんでした」]:
    the wolves bite the fox (he lives); the morning reads "no attack", word
    for word the knight's guard's, in every language."""
    fox, guard = bitten_fox_and_guarded()
    said = [announcement_text(dawn(s), list(NAMES[:8]), lang, "jp-standard")
            for s in (fox, guard)]
    assert said[0] == said[1] and words in said[0]


@pytest.mark.parametrize("lang", LANGS)
def test_the_moderator_and_the_narration_say_the_potions_rules_5_000(lang):
    """RULES.md §5 witch `announce_potions` [000 l.49]: the GM's line, the
    table screen's line and what the narration says from it carry the dawn's
    potion sentence (all from the engine's announcements)."""
    from companion.engine import pending, public_view, view_for
    from companion.speech.lines import said_of
    from companion.words.lines import gm_line, public_line

    state = game("bga", WITCH, NIGHT1 + [a("Dan", "potion", heal=True)], {"sheriff": False})
    view = public_view(state)
    view["announcements"], view["pace"] = announcements(state), {"mode": "discussion"}
    gm = view_for(state, None)
    gm["pending"], gm["pace"] = pending(state), {"mode": "discussion"}
    line = public_line(view, lang)
    assert POTIONS["heal"][lang] in line
    assert POTIONS["heal"][lang] in gm_line(gm, lang, announcements(state))
    said = [s.text for s in said_of(view, lang)]
    assert any(POTIONS["heal"][lang] in s for s in said)
