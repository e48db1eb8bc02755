"""Which texts the hub speaks [issue 20], from the words (companion/words)
and the **public** view alone.

    spoken(previous_public_view, public_view, "ja")   # the sentences to say now
    clips(sentence, names)                            # the sentence in cacheable pieces
    units(line, names)                                # a line as its rendered units

What is spoken is what a game master reads aloud: at night each call's wake
line (companion.words.gm_line, as the GM's tablet shows it), at the next
call its sleep line and the follow-ups (lovers, charmed), the night-falls
line at a night's first call; by day the table screen's line
(companion.words.public_line: the dawn and every announcement, the vote, the
prompts, last words, the verdict, the winners). Everything is derived from
the public view, which the engine proves non-interfering (tests/hub
test_secrecy.py): a call is worded by its card alone, the same whether the
holder is alive, dead, absent or in the centre, so two games that differ in
hidden cards speak the same words at the same moments.

What is said is the table screen's line said well [issue 29, "say less"],
part by part (`companion.words.line_parts`: each sentence of the line with
where it comes from, an announcement and its entry, the winners, a bare
title, the line's own), never by matching its text [issue 45]: a tally
names the top candidates only ("Hana 4 votes, Bob 2.",
`companion.words.announce.tally_said`), where the screen keeps every
count; a "Winners: …" of more than three names is left to the screen (the
side's win was just said); a bare title ("Vote") is never said; an
announcement's sentences are news (`Said`). Numbers are
read right by the engines (companion/speech/engines.py: 3票 is さんぴょう,
2票 is 兩票).

A line is rendered whole [issue 42]: sentence by sentence with the players'
names inside (`units`; a sentence naming two players or more cut at its
commas, each clause whole), each name said as its reading when the table
gave one (`said_form`). Until issue 42 a name was a clip of its own between
the fixed pieces around it (`clips`, kept for `werewolf bench narration`'s
before and after): a tally took 5.5 s as pieces against 3.6 s whole. So
that nothing is rendered while the table waits, every unit a game may say
is listed from its deal on (companion/speech/listed.py, `game_lines`: the calls of each night, the
table's lines of random games of the same deck, options and names, and
each such line with every other name — and count — in it) and rendered by
one background thread in the order a game needs them; the story's at the
end (`story_lines`).
"""

from __future__ import annotations

import re
from typing import NamedTuple

from ..engine import (
    ROLES,
)
from ..words import gm_parts, line_parts, public_line
from ..words.announce import Part, tally_said, winners_named

#: sample names per language, for `werewolf narrate` and the fixed pieces' search
SAMPLE_NAMES = {
    "en": ["Ann", "Bob", "Cleo", "Dan", "Eve", "Finn", "Gus", "Hana", "Ivo", "Jo", "Kim",
           "Lea"],
    "ja": ["あかり", "ゆうと", "さくら", "はると", "みお", "そうた", "ひな", "れん", "ゆい",
           "たくみ", "めい", "こうき"],
    "zh_Hant": ["小明", "阿華", "美玲", "志強", "淑芬", "家豪", "怡君", "俊傑", "雅婷", "建宏",
                "佩珊", "冠宇"],
}


#: a line's spoken length per character of its text, for a line heard before
#: it is rendered (said late, `estimate_s`) [issue 42]: measured on the voices
#: of engines.py (2026-12-08, 14 fixed lines a language: ja 0.156, zh_Hant
#: 0.319, en 0.069 s a character), rounded up
SECONDS_PER_CHAR = {"ja": 0.16, "zh_Hant": 0.32, "en": 0.07}


def estimate_s(lang: str, text: str) -> float:
    """How long `text` will take to say, from its letters alone (a public
    fact): the schedule of a line not rendered yet, until it is."""
    return round(len(text) * SECONDS_PER_CHAR.get(lang, 0.1), 3)


#: what follows a name in one phrase with it: the Japanese honorific ("{name}さん",
#: companion.words.announce.person), never said apart from the name [issue 29]
HONORIFICS = ("さん",)
#: a "Winners: …" naming more players than this is left to the screen [issue 29]
WINNERS_SAID = 3

#: the night roles a jp-standard deck may hold, as its public deck lists them
JP_DECKS = tuple({"cards": [{"role": r} for r in roles]} for roles in (
    ("seer", "werewolf"), ("seer", "knight", "werewolf"), ("knight", "werewolf"), ("werewolf",)))


def call_lines(call: str, night: int, ruleset: str | None, options: dict, lang: str,
               first: bool, deck: dict | None = None) -> tuple[list[str], list[str]]:
    """(what is said as the call opens, what is said as it ends): the
    night-falls line on the night's `first` call, the wake line; the sleep
    line and its follow-ups. From public facts alone: the call's card, the
    night, the ruleset, the options and the public deck (jp-standard's one
    window names the deck's night roles). The GM's tablet also notes when
    nobody can answer a call (its view knows the holder is dead or absent):
    that note is never spoken — the call is worded as if its holder lived,
    the same in every case (RULES.md §4)."""
    holder = next((r for r, role in ROLES.items() if role.step == call), None)
    players = [{"name": "-", "role": holder, "alive": True}]
    pace = {"mode": "calls", "call": call, "night": night, "cursor": 0 if first else 1}
    view: dict = {"pace": pace, "players": players, "ruleset": ruleset, "options": options,
                  "n": night, "deck": deck}
    parts = gm_parts(view, lang, [])  # the wake line, then the sleep line's parts [issue 45]
    return ([s for p in parts if p.of != "sleep" for s in _sentences(p.text)],
            [s for p in parts if p.of == "sleep" for s in _sentences(p.text)])


def dawn_coming(lang: str) -> list[str]:
    """"Dawn is coming." ([004]): the table screen's line once the calls are over."""
    view = {"pace": {"mode": "calls", "call": None, "night": 1}, "players": [{"name": "-"}],
            "n": 1}
    return _sentences(public_line(view, lang))[-1:]


def _sentences(line: str) -> list[str]:
    return [s.strip() for s in line.split("\n") if s.strip()]


def beat(view: dict | None) -> tuple:
    """What the table is doing, as far as speech is concerned: a new beat is
    something to say."""
    if not view:
        return ("none",)
    pace = view.get("pace") or {}
    if pace.get("mode") == "calls":
        return ("calls", pace.get("night"), pace.get("call"))
    return ("day", view.get("game"), view.get("line") or "")


class Said(NamedTuple):
    """A sentence to say, and whether it tells what happened [issue 42] —
    the dawn, a death, a tally, the verdict, the end, the story: a table
    screen that was behind plays it still (a call or a prompt it missed is
    replaced by the next). Known from where the sentence comes from (an
    announcement, the story), never from its text [issue 45]."""

    text: str
    news: bool = False


def spoken(before: dict | None, view: dict, lang: str) -> list[str]:
    """The sentences to say now that the public view went from `before` to
    `view` (each a public view as the table screen gets it, with its "line")."""
    return [s.text for s in heard(before, view, lang)]


def heard(before: dict | None, view: dict, lang: str) -> list[Said]:
    """`spoken`, each sentence with whether it is news (`Said`)."""
    told = _story_said(before, view)  # the story's new page at the end [issue 35]
    if told:
        return [Said(s, True) for s in told]
    old, new = beat(before), beat(view)
    if old == new or view.get("phase") == "lobby":
        return []
    out: list[Said] = []
    ruleset, options = view.get("ruleset"), view.get("options") or {}
    if before is not None and old[0] == "calls" and old[2] is not None \
            and before.get("game") == view.get("game"):
        out += [Said(s) for s in call_lines(str(old[2]), int(old[1] or 1), ruleset, options,
                                            lang, False, before.get("deck"))[1]]
    if new[0] == "calls":
        night, call = int(new[1] or 1), new[2]
        first = old[0] != "calls" or old[1] != new[1]
        if call is None:
            return out + [Said(s) for s in dawn_coming(lang)]
        return out + [Said(s) for s in call_lines(str(call), night, ruleset, options, lang,
                                                  first, view.get("deck"))[0]]
    shown = set(_sentences(before.get("line") or "")) if before and old[0] == "day" else set()
    return out + said_of(view, lang, shown)


def _story_said(before: dict | None, view: dict) -> list[str]:
    """A page of the story the table screen turned to [issue 35]: its title
    and its lines, as the screen shows them (public once the game is over)."""
    page = view.get("story")
    if not page or (before and (before.get("story") or {}).get("page") == page.get("page")
                    and before.get("game") == view.get("game")):
        return []
    return [str(page.get("title") or ""), *(str(ln.get("said") or ln.get("text") or "")
                                            for ln in page.get("lines") or [])]


def said_of(view: dict, lang: str, shown: set[str] | None = None) -> list[Said]:
    """The table screen's line as the narration says it [issue 29, "say
    less"], part by part (`companion.words.line_parts`), each by where it
    comes from [issue 45]: a tally's top candidates only (`tally_said`), no
    "Winners: …" of more than WINNERS_SAID names, no bare title; an
    announcement's sentences are news. The sentences the screen already
    showed (`shown`, its last line's) are not said again. From the public
    view alone: its players' names and announcements."""
    names = [str(p.get("name", "?")) for p in view.get("players") or []]
    out: list[Said] = []
    for part in line_parts(view, lang):
        for sentence in _sentences(part.text):
            said = _part_said(part, sentence, names, lang)
            if said and sentence not in (shown or ()):
                out.append(Said(said, part.of in ("announcement", "winners")))
    return out


def _part_said(part: Part, sentence: str, names: list[str], lang: str) -> str:
    """What is said of one sentence of a part of the line ("" for nothing)."""
    entry = part.entry or {}
    if part.of == "title":
        return ""
    if part.of == "winners" and len(winners_named(entry, names)) > WINNERS_SAID:
        return ""
    if part.of == "announcement" and entry.get("kind") == "tally" and entry.get("counts"):
        return tally_said(entry, names, lang)
    return sentence


def _cut(sentence: str, names: list[str]) -> list[tuple[str, bool]]:
    """The sentence's pieces, each with whether it is a name (with its
    honorific, if one follows it)."""
    found = sorted({n for n in names if n and n in sentence}, key=len, reverse=True)
    if not found:
        return [(sentence, False)] if re.search(r"\w", sentence) else []
    honorific = "|".join(re.escape(h) for h in HONORIFICS)
    alternatives = "|".join(_whole(n) for n in found)
    pieces = re.split(f"((?:{alternatives})(?:{honorific})?)", sentence)
    # re.split puts the names at the odd places; a lone "。" says nothing
    return [(p, i % 2 == 1) for i, p in enumerate(pieces) if re.search(r"\w", p)]


#: letters of the scripts that write words apart: a name is not cut out of a
#: longer word there ("Eve" in "Everyone"); Japanese and Chinese run on
_LATIN = "A-Za-z0-9\u00c0-\u024f"


def _whole(name: str) -> str:
    """The name as a pattern that matches it as a whole word in Latin text."""
    out = re.escape(name)
    if re.match(f"[{_LATIN}]", name):
        out = f"(?<![{_LATIN}])" + out
    if re.search(f"[{_LATIN}]$", name):
        out += f"(?![{_LATIN}])"
    return out


def clips(sentence: str, names: list[str]) -> list[str]:
    """The sentence cut around the players' names (longest first, so "Ann"
    inside "Anna" is not cut): ["By the vote, ", "Ann", " is executed."]; a
    name and its honorific are one piece, one phrase when spoken
    (["あかりさん", "が処刑されました。"], [issue 29])."""
    return [p for p, _ in _cut(sentence, names)]


#: where a spoken line is cut into sentences [issue 42]: after a full stop
#: (Japanese and Chinese run on: after 。！？; elsewhere before a space)
_SENTENCE_END = re.compile(r"(?<=[。！？])|(?<=[.!?])\s+")
#: where a sentence naming two players or more is cut: after its commas
_CLAUSE_END = re.compile(r"(?<=[、，])|(?<=,)\s+")


def _masked(text: str, names: list[str]) -> tuple[str, list[str]]:
    """The text with each name (longest first, a whole word in Latin text)
    as a mark no cut or count sees ("\x00" and a private-use character
    for its place, "\x01"); the names in order."""
    found = sorted({n for n in names if n and n in text}, key=len, reverse=True)
    if not found:
        return text, []
    seen: list[str] = []

    def mark(m: re.Match[str]) -> str:
        seen.append(m.group(0))
        return f"\x00{chr(_MARK + len(seen) - 1)}\x01"

    return re.sub("|".join(_whole(n) for n in found), mark, text), seen


def _unmasked(text: str, seen: list[str]) -> str:
    return _MARKS.sub(lambda m: seen[ord(m.group(1)) - _MARK], text)


_MARK = 0xE000  # the private-use area: in no name (player_names.py) nor line
_MARKS = re.compile("\x00([\ue000-\uf8ff])\x01")


def units(line: str, names: list[str]) -> list[str]:
    """A spoken line as it is rendered [issue 42]: its sentences, each whole
    with the names inside ("By the vote, Ann is executed." is one), so the
    voice says a name in its sentence's flow; a sentence naming two players
    or more is cut after its commas ("Hana 4 votes," "Bob 2."), each clause
    whole, so that what a game may say stays a few hundred units to render
    ahead (names × counts, not names² × counts²)."""
    masked, seen = _masked(line, names)
    out: list[str] = []
    for sentence in _SENTENCE_END.split(masked):
        if len({seen[ord(i) - _MARK] for i in _MARKS.findall(sentence)}) > 1:
            out += _CLAUSE_END.split(sentence)
        else:
            out.append(sentence)
    return [t for t in (_unmasked(u, seen).strip() for u in out) if re.search(r"\w", t)]


def said_form(unit: str, readings: dict[str, str] | None) -> str:
    """The unit as the engine is given it: each name with a reading said as
    its reading ("陽菜さん" → "はるなさん") [issue 42]; the text shown stays the
    name. The cache's key is this form."""
    if not readings:
        return unit
    masked, seen = _masked(unit, list(readings))
    return _unmasked(masked, [readings.get(n, n) for n in seen])


#: a unit's clause ends with a comma: the next follows after a short breath
CLAUSE_GAP_S = 0.12
#: between two sentences of one line
SENTENCE_GAP_S = 0.3


def gap_after(unit: str) -> float:
    """The silence after a unit of a line, before the next."""
    return CLAUSE_GAP_S if unit.rstrip()[-1:] in ",、，" else SENTENCE_GAP_S
