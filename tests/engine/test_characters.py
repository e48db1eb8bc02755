"""The one invisible-character rule (companion/engine/characters.py) [issue
45]: what a player's name, a replay script's name and a text-only event
card's words refuse. tests/table/test_names.py checks that the three refuse
by it."""

from __future__ import annotations

import unicodedata

import pytest

from companion.engine import characters

#: what the rule refuses, one of each kind
REFUSED = ["\x07", "\t", "\n", "\x7f", "\u200b", "\u200c", "\u200d", "\u2060", "\ufeff",
           "\u00ad", "\u202e", "\u2066", "\u2069", "\ue000", "\u0378", "\u2028", "\u2029",
           "\u034f", "\u115f", "\u1160", "\u3164", "\uffa0", "\u2800", "\u17b4", "\u180b",
           "\u180e", "\ufe00", "\ufe0f"]
#: what it lets through: letters of every script, spaces, a script's own marks,
#: punctuation and emoji
PASSED = ["A", "é", "ß", "Ж", "太", "か", "が", "한", "ก", "\u0e34", "स", "\u0301", " ",
          "\u3000", "-", "'", "·", "★", "😀", "ｶ", "Ａ"]


@pytest.mark.parametrize("ch", REFUSED, ids=lambda c: f"U+{ord(c):04X}")
def test_invisible_and_direction_changing_characters_are_refused(ch):
    assert characters.refused(ch)
    assert characters.first_refused("Ann" + ch + "Lee") == ch


@pytest.mark.parametrize("ch", PASSED, ids=lambda c: f"U+{ord(c):04X}")
def test_letters_spaces_and_a_scripts_marks_pass(ch):
    assert not characters.refused(ch)


def test_the_rule_is_its_categories_and_its_invisible_letters():
    """Every code point: refused exactly when its category is a control,
    format, private-use, surrogate, unassigned or line/paragraph separator,
    or it is one of the blank letters and marks."""
    for code in range(0x110000):
        ch = chr(code)
        assert characters.refused(ch) == (
            unicodedata.category(ch) in {"Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"}
            or ch in characters.INVISIBLE), f"U+{code:04X}"
    assert "\u3164" in characters.INVISIBLE and "\u2800" in characters.INVISIBLE


def test_an_event_text_keeps_its_line_breaks():
    assert characters.first_refused("one\ntwo", allowed="\n") is None
    assert characters.first_refused("one\n\u200btwo", allowed="\n") == "\u200b"


def test_a_refused_character_is_named():
    assert characters.named("\u202e") == "U+202E RIGHT-TO-LEFT OVERRIDE"
    assert characters.named("\u0378") == "U+0378 U+0378"  # unassigned: no name


@pytest.mark.parametrize(("text", "where"), [
    ("Z" + "\u0301\u0316\u0350\u0301", (0, 4)), ("Ann" + "\u0e34" * 5, (2, 5)),
    ("a\u0301b\u0301\u0301\u0301\u0301\u0301", (2, 5))])
def test_more_than_three_marks_on_one_letter_are_a_pile(text, where):
    assert characters.MAX_MARKS == 3
    assert characters.stacked(text) == where


@pytest.mark.parametrize("text", ["Adébáyọ̀", "กี่ครั้ง", "བསྒྲུབས", "सुनील", "שָׁלוֹם",
                                  "Z" + "\u0301\u0316\u0350"])
def test_a_scripts_own_marks_are_no_pile(text):
    assert characters.stacked(text) is None


@pytest.mark.parametrize("text", ["", " ", "\u3000\t", "\u200b\u2060\ufeff", "\u3164",
                                  "\u0301", " \u0301\u0316 "])
def test_a_text_of_spaces_marks_and_refused_characters_is_blank(text):
    assert characters.blank(text)


@pytest.mark.parametrize("text", ["A", " a ", "\u200bA", "太", "\u0301a", "😀"])
def test_a_text_with_one_drawn_character_is_not_blank(text):
    assert not characters.blank(text)
