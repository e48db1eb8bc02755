"""Players' names as the table shows them [issue 17 item 8]: one form per
name, readable, and no two that a player could mistake for each other.

A name is NFKC-normalised (full-width "Ａｎｎ" is "Ann", a half-width "ｶ" is
"カ"), trimmed, its inner runs of spaces made one, and refused when it
holds an invisible or direction-changing character ("A\\u200bnn",
"\\u202eevil.exe" showing as "exe.live"), is empty, or is over 40 characters
(a 300-character name made a phone page 2,984 px wide). Two names are
refused together when they are the same after that, or look alike across
scripts or cases (Latin "Ann" and Cyrillic "Аnn", "Bob" and "B0b"): the
`confusables` package (Unicode's confusables table, TR39) decides that, not
a table of our own. Japanese, Chinese and accented names pass.
"""

from __future__ import annotations

import re
import unicodedata

import confusables

from .errors import BadInput

MAX_NAME = 40

#: categories no name needs: controls, format characters (zero-width spaces
#: and joiners, bidi embeddings, overrides and isolates, the BOM), private
#: use, surrogates, unassigned code points, line and paragraph separators
REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"})
#: invisible characters outside those categories (Unicode's
#: Default_Ignorable_Code_Point letters and marks, the blank braille cell)
INVISIBLE = frozenset("\u034f\u115f\u1160\u17b4\u17b5\u180b\u180c\u180d\u180e\u180f"
                      "\u2800\u3164\uffa0") | frozenset(chr(c) for c in range(0xFE00, 0xFE10))

_SPACES = re.compile(r"\s+")


def clean_name(raw: str) -> str:
    """The name as the table keeps it, or BadInput naming what is wrong."""
    name = _SPACES.sub(" ", unicodedata.normalize("NFKC", raw)).strip()
    if not name:
        raise BadInput(f"player name {raw!r} is empty")
    for ch in name:
        if ch in INVISIBLE or unicodedata.category(ch) in REFUSED_CATEGORIES:
            what = unicodedata.name(ch, f"U+{ord(ch):04X}")
            raise BadInput(f"player name {raw!r} holds an invisible or direction-changing "
                           f"character (U+{ord(ch):04X} {what}): type it again without it")
    if len(name) > MAX_NAME:
        raise BadInput(f"player name {name[:20]!r}… has {len(name)} characters: "
                       f"at most {MAX_NAME}")
    return name


def clean_names(raw: list[str]) -> list[str]:
    """Every player's name cleaned, none the same as or a look-alike of another."""
    names = [clean_name(n) for n in raw]
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            if a == b:
                raise BadInput(f"two players are called {a!r} (after tidying spaces and "
                               "character forms): give one another name")
            if confusables.is_confusable(a, b):
                raise BadInput(f"player names {a!r} and {b!r} look alike{_why(a, b)}: "
                               "tell them apart (an initial, a nickname)")
    return names


def _why(a: str, b: str) -> str:
    """The first character of `b` (or `a`) not in the other, named, when it is
    not plain ASCII: the Cyrillic "А" that looks Latin."""
    for x, y in ((b, a), (a, b)):
        for ch in x:
            if ch not in y and not ch.isascii():
                return f" ({ch!r} is {unicodedata.name(ch, f'U+{ord(ch):04X}')})"
    return ""
