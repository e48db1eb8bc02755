"""Players' names are checked [issue 17 item 8]: NFKC-normalised, trimmed, no
invisible or bidi control characters, at most 40 characters, no two the same
after normalisation or look-alikes across scripts; Japanese, Chinese and
accented names are fine; a refused name gets a message naming it.

Source: issue 17 ("5,000-character names are accepted ... 'Ann', 'Ann ',
'A\\u200bnn' and Cyrillic 'Аnn' are four different players;
'\\u202eevil.exe' shows as 'exe.live'"). The setup is parsed once
(companion/table/setup.py), so the hub, saved setups and the log agree."""

from __future__ import annotations

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
