"""Players' names are checked [issue 17 item 8]: NFKC-normalised, trimmed, no
invisible or bidi control characters, at most 40 characters, no two the same
after normalisation or look-alikes across scripts; Japanese, Chinese and
accented names are fine; a refused name gets a message naming it.

Source: issue 17 ("5,000-character names are accepted ... 'Ann', 'Ann ',
'A\\u200bnn' and Cyrillic 'Аnn' are four different players;
'\\u202eevil.exe' shows as 'exe.live'"). The setup is parsed once
(companion/table/setup.py), so the hub, saved setups and the log agree."""

from __future__ import annotations

import unicodedata

import pytest

from companion.table import BadInput
from companion.table.setup import parse_setup

ROLES = ["werewolf", "werewolf", "seer", "witch", "hunter", "villager", "villager", "villager"]
OTHERS = ["Bea", "Cid", "Dan", "Eve", "Fay", "Gus", "Hal"]


def _setup(first: str, others: list[str] = OTHERS) -> dict:
    players = [first, *others]
    return {"ruleset": "millers-hollow", "players": players,
            "deal": dict(zip(players, ROLES, strict=True)), "seed": 1}


def _names(doc: dict) -> list[str]:
    return list(parse_setup(doc).state.names)


@pytest.mark.parametrize(("given", "kept"), [
    ("  Ann ", "Ann"), ("Ａｎｎ", "Ann"), ("Ann\u3000 Lee", "Ann Lee"), ("ｶｲ", "カイ"),
    ("太郎", "太郎"), ("陳大文", "陳大文"), ("Zoë", "Zoë"), ("Zoe\u0308", "Zoë"),
    ("Ștefan", "Ștefan"), ("x" * 40, "x" * 40)])
def test_a_name_is_normalised_and_kept(given, kept):
    doc = _setup(given)
    assert _names(doc)[0] == kept
    assert parse_setup(doc).record["players"][0] == kept  # the log keeps the clean form


@pytest.mark.parametrize(("given", "why"), [
    ("A\u200bnn", "invisible"), ("\u202eevil.exe", "U+202E"), ("An\u2066n", "invisible"),
    ("Ann\u00ad", "invisible"), ("\u3164", "nothing visible"), ("   ", "nothing visible"),
    ("", "nothing visible"), ("Ann\x07", "control character"), ("x" * 41, "at most 40"),
    ("x" * 5000, "5000 characters")])
def test_a_misleading_name_is_refused_by_name(given, why):
    with pytest.raises(BadInput) as err:
        _names(_setup(given))
    message = str(err.value)
    assert why in message
    assert repr(given)[:20] in message or repr(given[:20])[:-1] in message


@pytest.mark.parametrize("twin", ["Ann", "Ann ", "A\u200bnn", "\u0410nn", "ANN", "Ａｎｎ"])
def test_two_players_the_same_or_alike_are_refused(twin):
    """The issue's four "different" players, and case and width look-alikes."""
    with pytest.raises(BadInput) as err:
        _names(_setup("Ann", [twin, *OTHERS[1:]]))
    assert "'Ann'" in str(err.value) or repr(twin) in str(err.value)  # named


def test_a_cross_script_look_alike_names_its_foreign_letter():
    with pytest.raises(BadInput, match="CYRILLIC CAPITAL LETTER A"):
        _names(_setup("Ann", ["\u0410nn", *OTHERS[1:]]))


def test_different_names_in_every_script_pass():
    names = ["Ann", "Anne", "太郎", "花子", "陳大文", "Zoë", "Léa", "カイ"]
    assert _names(_setup(names[0], names[1:])) == names


# --- [issue 30 item 5] near look-alikes: a mark that changes no letter -------------------
#: combining marks NFKC leaves apart from an "n" (no "n" with them exists):
#: the issue's list, each shown under or over or around "Ann"'s last letter
STRAY_MARKS = ["\u0320", "\u0358", "\u0315", "\u035c", "\u0325", "\u0347", "\u0359",
               "\u3099", "\u20dd"]


@pytest.mark.parametrize("mark", STRAY_MARKS)
def test_a_mark_that_changes_no_letter_is_a_look_alike(mark):
    """[issue 30 item 5] "'Ann' plus a combining mark that NFKC does not merge
    (U+0320 … U+20DD) is accepted beside 'Ann'": refused now, as any look-alike,
    naming both names and the mark."""
    twin = "Ann" + mark
    with pytest.raises(BadInput) as err:
        _names(_setup("Ann", [twin, *OTHERS[1:]]))
    assert str(err.value) == (
        f"player names 'Ann' and {twin!r} look alike (U+{ord(mark):04X} "
        f"{unicodedata.name(mark)} changes no letter): tell them apart (an initial, "
        "a nickname)")


@pytest.mark.parametrize("twin", ["An\u0320n", "A\u0358nn", "Ann\u0320\u0358", "ANN\u0325",
                                  "\u0410nn\u0347", "Ａｎｎ\u0315"])
def test_stray_marks_anywhere_with_case_script_and_width_look_alikes(twin):
    """[issue 30 item 5]: inside the name, stacked, or on top of the other
    look-alikes (case, a Cyrillic А, full width)."""
    with pytest.raises(BadInput, match="look alike"):
        _names(_setup("Ann", [twin, *OTHERS[1:]]))


@pytest.mark.parametrize("pair", [
    ("が", "か"), ("ガイ", "カイ"), ("か\u3099", "か"),  # kana's voicing mark makes a new kana
    ("Zoë", "Zoey"), ("José", "Joël"), ("Ștefan", "Łukasz"),  # accents NFC composes
    ("陳大文", "陳大衛"), ("한지민", "한지만"), ("민준", "민주"),  # Chinese, Hangul
    ("นิน", "นัน"), ("सुनील", "सनील"),  # a script's own vowel signs are its spelling
])
def test_names_whose_marks_make_other_letters_pass_together(pair):
    """[issue 30 item 5] legitimate names still pass: a mark that NFC composes
    with its letter (が, ë, é) makes another letter, and Thai and Devanagari
    vowel signs are spelling; two such names are two players."""
    first, second = (unicodedata.normalize("NFKC", n) for n in pair)
    assert _names(_setup(pair[0], [pair[1], *OTHERS[1:]]))[:2] == [first, second]


def test_a_name_with_a_mark_no_letter_holds_passes_alone():
    """[issue 30 item 5]: the rule is about two players, not about a name:
    Yoruba's "ọ̀" (ọ and a grave accent Unicode has no one letter for) is a
    name's own spelling; it is refused only beside the same name without it."""
    assert _names(_setup("Adébáyọ̀"))[0] == "Adébáyọ̀"
    with pytest.raises(BadInput, match="U\\+0300 COMBINING GRAVE ACCENT changes no letter"):
        _names(_setup("Adébáyọ̀", ["Adébáyọ", *OTHERS[1:]]))


@pytest.mark.parametrize("name", ["Z" + "\u0301\u0316\u0350" * 13, "An" + "\u0e34" * 4 + "n"])
def test_a_pile_of_marks_on_one_letter_is_refused_as_in_an_event_card(name):
    """[issue 41 item 8] a name refuses what an event card's text refuses (the
    engine's copy, event_cards.MAX_MARKS, is kept in step by
    tests/engine/test_events.py): more than three combining marks on one
    letter; a script's own marks pass (test above: Thai, Devanagari, Yoruba)."""
    with pytest.raises(BadInput, match="combining marks on one letter"):
        _names(_setup(name))


# --- the one invisible-character rule [issue 45] -------------------------------------

@pytest.mark.parametrize("ch", ["\u200b", "\u202e", "\u2066", "\u00ad", "\ufeff", "\u3164",
                                "\u2800", "\ufe0f", "\ue000", "\u0378"],
                         ids=lambda c: f"U+{ord(c):04X}")
def test_a_name_a_replays_name_and_an_event_text_refuse_alike(ch):
    """One rule (companion/engine/characters.py), three users: a player's
    name at the table, a replay script's name (which let "A\\u200bnn" and
    "\\u202eevil" through before [issue 45]) and a text-only event card."""
    from companion.engine import SetupError, characters, new_game
    from companion.replay import check_names
    assert characters.refused(ch)
    with pytest.raises(BadInput, match="invisible or direction-changing"):
        _names(_setup("An" + ch + "n"))
    with pytest.raises(SetupError, match="invisible or direction-changing"):
        check_names(["An" + ch + "n", "Bob"])
    with pytest.raises(SetupError, match="invisible or direction-changing"):
        new_game("millers-hollow", [f"P{i}" for i in range(8)], options={"events": [
            {"title": {"en": "A"}, "text": {"en": "B" + ch + "C"}}]})


def test_a_pile_of_marks_is_refused_in_a_replays_name_too():
    """[issue 45] as at the table (above) and in an event card's text."""
    from companion.engine import SetupError
    from companion.replay import check_names
    with pytest.raises(SetupError, match="4 combining marks on one letter"):
        check_names(["Z\u0301\u0316\u0350\u0301", "Bob"])
    check_names(["Adébáyọ̀", "กี่ครั้ง", "सुनील"])  # a script's own marks pass
