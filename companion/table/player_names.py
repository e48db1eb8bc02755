"""Players' names as the table shows them [issue 17 item 8]: one form per
name, readable, and no two that a player could mistake for each other.

A name is NFKC-normalised (full-width "Ａｎｎ" is "Ann", a half-width "ｶ" is
"カ"), trimmed, its inner runs of spaces made one, and refused when it
holds an invisible or direction-changing character ("A\\u200bnn",
"\\u202eevil.exe" showing as "exe.live"), is empty, or is over 40 characters
(a 300-character name made a phone page 2,984 px wide), or piles more than
three combining marks on one letter [issue 41 item 8]. Two names are
refused together when they are the same after that, or look alike across
scripts or cases (Latin "Ann" and Cyrillic "Аnn", "Bob" and "B0b"): the
`confusables` package (Unicode's confusables table, TR39) decides that, not
a table of our own. Two names that differ only by combining marks NFC did not
merge into a letter are refused together too [issue 30 item 5]: "Ann" with
U+0320 under its n is "Ann" (see DIACRITICS). Japanese, Chinese, Korean and
accented names pass.
"""

from __future__ import annotations

import re
import unicodedata

import confusables

from ..engine import characters
from .errors import BadInput

MAX_NAME = 40

#: combining marks of no script of their own: the Combining Diacritical
#: Marks blocks (with their Extended and Supplement), the marks for symbols,
#: the half marks and kana's voicing marks. Names are kept NFKC, which
#: composes a mark with its letter wherever Unicode has the letter ("e" and
#: U+0308 are "ë", "か" and U+3099 are "が"); one still apart changes no
#: letter ("Ann" with U+0320 under its n shows as "Ann"), so names are
#: compared without them [issue 30 item 5]. A script's own signs (Thai,
#: Devanagari, Arabic vowels) are its spelling and count, as a letter does.
DIACRITICS = ((0x0300, 0x036F), (0x1AB0, 0x1AFF), (0x1DC0, 0x1DFF), (0x20D0, 0x20FF),
              (0xFE20, 0xFE2F), (0x3099, 0x309A))

_SPACES = re.compile(r"\s+")


def clean_name(raw: str) -> str:
    """The name as the table keeps it, or BadInput naming what is wrong."""
    name = _SPACES.sub(" ", unicodedata.normalize("NFKC", raw)).strip()
    if not name:
        raise BadInput(f"player name {raw!r} is empty")
    said = characters.refusal(name)
    if said is not None:
        raise BadInput(f"player name {raw!r} {said}")
    if len(name) > MAX_NAME:
        raise BadInput(f"player name {name[:20]!r}… has {len(name)} characters: "
                       f"at most {MAX_NAME}")
    piled = characters.stacked(name)
    if piled is not None:
        raise BadInput(f"player name {name!r} has {piled[1]} combining marks on one letter "
                       f"(its character {piled[0] + 1}): at most {characters.MAX_MARKS}")
    return name


def clean_names(raw: list[str]) -> list[str]:
    """Every player's name cleaned, none the same as or a look-alike of another."""
    names = [clean_name(n) for n in raw]
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            if a == b:
                raise BadInput(f"two players are called {a!r} (after tidying spaces and "
                               "character forms): give one another name")
            if (bare_a := bare(a)) == (bare_b := bare(b)) or confusables.is_confusable(
                    bare_a, bare_b):
                raise BadInput(f"player names {a!r} and {b!r} look alike{_why(a, b)}: "
                               "tell them apart (an initial, a nickname)")
    return names


def stray(ch: str) -> bool:
    """A combining mark of DIACRITICS (in a clean name: one NFKC did not merge)."""
    return unicodedata.category(ch) in characters.MARKS and any(
        lo <= ord(ch) <= hi for lo, hi in DIACRITICS)


def bare(name: str) -> str:
    """A clean name as it is compared: without its stray marks."""
    return "".join(ch for ch in name if not stray(ch))


def _why(a: str, b: str) -> str:
    """The first letter of `b` (or `a`) not in the other, named, when it is
    not plain ASCII: the Cyrillic "А" that looks Latin; else the stray mark
    that makes the only difference."""
    for x, y in ((bare(b), bare(a)), (bare(a), bare(b))):
        for ch in x:
            if ch not in y and not ch.isascii():
                return f" ({ch!r} is {unicodedata.name(ch, f'U+{ord(ch):04X}')})"
    for ch in b + a:
        if stray(ch):
            return (f" (U+{ord(ch):04X} {unicodedata.name(ch, 'a combining mark')} "
                    "changes no letter)")
    return ""


#: a Japanese reading is kana [issue 42]: hiragana, katakana, the long vowel
#: mark, the middle dot and spaces ("はるな", "ハルナ", "ジョン・スミス")
KANA = re.compile(r"[\u3041-\u3096\u309d-\u309f\u30a1-\u30fa\u30fc-\u30ff\u30fb ]+")


def clean_readings(raw: object, names: list[str], lang: str) -> dict[str, str]:
    """How the narrator says each name (setup `readings`, optional) [issue
    42]: {name: reading}, each name a player's, each reading cleaned as a
    name is (`clean_name`) and, in a Japanese game, in kana ("陽菜": "はるな"
    or "ひな"); an empty reading is no reading. BadInput naming what is wrong."""
    if raw is None:
        return {}
    if not isinstance(raw, dict) or not all(isinstance(v, str) for v in raw.values()):
        raise BadInput("'readings' is an object: each player's name and how the narrator "
                       "says it, e.g. {\"陽菜\": \"はるな\"}")
    out: dict[str, str] = {}
    for key, text in raw.items():
        name = clean_name(str(key))
        if name not in names:
            raise BadInput(f"'readings' names {name!r}, who is not a player")
        if not text.strip():
            continue
        try:
            reading = clean_name(text)
        except BadInput as err:
            raise BadInput(f"the reading of {name!r}: {err}") from None
        if lang == "ja" and not KANA.fullmatch(reading):
            raise BadInput(f"the reading of {name!r} is written in kana (ひらがな or カタカナ), "
                           f"not {reading!r}")
        out[name] = reading
    return out
