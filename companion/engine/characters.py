"""The one rule for characters a name or a typed text may not hold
[issue 45]: what draws nothing, changes the direction of what follows, or
piles up on one letter. Players' names (table/player_names.py), a replay
script's names (replay.py) and a text-only event card's title and text
(event_cards.py) refuse by it; it lives here, in the engine, the lowest
layer the three share (the engine may not import the table).

- `refused(ch)`: a control, format (zero-width spaces and joiners, bidi
  embeddings, overrides and isolates, the soft hyphen, the BOM), private-use,
  surrogate or unassigned code point, a line or paragraph separator, or one
  of the letters and marks drawn blank (INVISIBLE).
- `refusal(text)`: the words every refusal of one says (the first refused
  character, named).
- `stacked(text)`: more than MAX_MARKS combining marks on one letter.
- `blank(text)`: nothing drawn at all (only spaces, marks and refused
  characters).
"""

from __future__ import annotations

import unicodedata

#: categories no name or text needs: controls, format characters (zero-width
#: spaces and joiners, bidi embeddings, overrides and isolates, the BOM),
#: private use, surrogates, unassigned code points, line and paragraph separators
REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"})
#: invisible characters outside those categories (Unicode's
#: Default_Ignorable_Code_Point letters and marks, the blank braille cell,
#: the Hangul fillers)
INVISIBLE = frozenset("\u034f\u115f\u1160\u17b4\u17b5\u180b\u180c\u180d\u180e\u180f"
                      "\u2800\u3164\uffa0") | frozenset(chr(c) for c in range(0xFE00, 0xFE10))
#: the combining marks' categories (nonspacing and enclosing)
MARKS = frozenset({"Mn", "Me"})
#: combining marks one letter may carry [issue 41 item 8]: a script's own
#: spelling stacks at most three (Thai's vowel and tone, Tibetan's stacked
#: letters, Hebrew's points); a pile of them ("Zalgo" text) is one cluster a
#: page cannot break, drawn over the lines around it: an event card of 240
#: widened a phone's page to 836 px
MAX_MARKS = 3


def refused(ch: str) -> bool:
    """Whether one character is invisible or direction-changing (see above)."""
    return ch in INVISIBLE or unicodedata.category(ch) in REFUSED_CATEGORIES


def first_refused(text: str, allowed: str = "") -> str | None:
    """The first refused character of `text` not in `allowed` (an event's
    text keeps its line breaks), else None."""
    return next((ch for ch in text if ch not in allowed and refused(ch)), None)


def refusal(text: str, allowed: str = "") -> str | None:
    """What a message says of `text`'s first refused character ("holds an
    invisible or direction-changing character (U+200B ZERO WIDTH SPACE): type
    it again without it"), after the thing it names; None if it has none."""
    ch = first_refused(text, allowed)
    if ch is None:
        return None
    return (f"holds an invisible or direction-changing character ({named(ch)}): "
            "type it again without it")


def named(ch: str) -> str:
    """A character as a message names it: "U+200B ZERO WIDTH SPACE"."""
    return f"U+{ord(ch):04X} {unicodedata.name(ch, f'U+{ord(ch):04X}')}"


def stacked(text: str) -> tuple[int, int] | None:
    """(where, how many) of the first letter carrying more than MAX_MARKS
    combining marks, else None."""
    run = 0
    for i, ch in enumerate(text):
        run = run + 1 if unicodedata.category(ch) in MARKS else 0
        if run > MAX_MARKS:
            end = i
            while end < len(text) and unicodedata.category(text[end]) in MARKS:
                end += 1
            return i - run, end - (i - run) - 1
    return None


def blank(text: str) -> bool:
    """Whether `text` draws nothing: only spaces, combining marks and
    refused characters (the empty text too)."""
    return all(refused(ch) or ch.isspace() or unicodedata.category(ch) in MARKS
               for ch in text)
