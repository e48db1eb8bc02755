"""New Moon's event cards as data: one row per card (RULES.md §10).

A row says what the card *is* and what it changes, as data the common rules
read (like roles.py for the cards): the calls it adds to the next night,
whether the wolves attack that night, whether today's vote has a discussion,
how many execution votes the day holds, how much the sheriff's ballot
weighs, whether ballots are shown as they are cast. What a card *does*
beyond that (the wolves' ally's call and result) is its hooks in
new_moon.py. Text-only events (a group's own cards, RULES.md §10) change no
rule: they are rows with the defaults, and their title and text. Which
card applies now is kernel.today / kernel.tonight (this module reads no
state, so the fold may use it).

The option `events` lists the game's cards: an id of EVENTS, or a text-only
event {"title": {lang: str}, "text": {lang: str}}, whose id is `text-N` (N:
its place among the text-only events, from 1). `deck(opts, seed)` shuffles
them with the game's seed into the face-down deck; the top card is turned
at each dawn (new_moon.turn).
"""

from __future__ import annotations

from dataclasses import dataclass
from random import Random

from . import characters
from .errors import SetupError


@dataclass(frozen=True, slots=True)
class EventCard:
    id: str
    source: str  # "[003]": New Moon's own card; "house": this project's; "text": a group's
    calls: tuple[str, ...] = ()  # the next night's calls, before every other (RULES.md §4)
    attack: bool = True  # the wolves attack the next night
    discussion: bool = True  # today's votes are preceded by the discussion
    executions: int = 1  # execution votes today, one after the other
    sheriff_weight: int = 2  # the sheriff's ballot in today's execution votes [000][002][003]
    open_ballots: bool = False  # today's execution ballots are shown, named, as cast


EVENTS: dict[str, EventCard] = {
    c.id: c
    for c in (
        # [003]: the first dead names a non-wolf, who is shown the wolves and sides with them
        EventCard("wolves-ally", "[003]", calls=("first-dead", "ally")),
        EventCard("quiet-night", "house", attack=False),
        EventCard("two-executions", "house", executions=2),
        EventCard("one-voice", "house", sheriff_weight=1),
        EventCard("open-ballots", "house", open_ballots=True),
        EventCard("no-discussion", "house", discussion=False),
    )
}
#: a text-only event: changes no rule (the GM applies it by hand)
TEXT = EventCard("text", "text")
#: the night steps the event cards add (new_moon.STEPS are the engine's own)
CALLS: tuple[str, ...] = tuple(c for card in EVENTS.values() for c in card.calls)
#: the words' LANGUAGES (the engine may not import the words; a test keeps them in step)
LANGS = frozenset({"en", "ja", "zh_Hant"})
MAX_TITLE, MAX_TEXT = 40, 240


# --- the option ------------------------------------------------------------------

def check(value: object) -> list:
    """The option `events`, checked (SetupError says what is wrong): a list
    of distinct event ids and text-only events."""
    if not isinstance(value, list):
        raise SetupError(f"option 'events' takes a list of event ids, not {value!r}")
    seen: set[str] = set()
    for item in value:
        if isinstance(item, dict):
            _check_text(item, len([i for i in value[:value.index(item)] if isinstance(i, dict)]))
            continue
        if not isinstance(item, str) or item not in EVENTS:
            raise SetupError(f"unknown event {item!r} (known: {', '.join(EVENTS)}, or a "
                             "text-only event {'title': {...}, 'text': {...}})")
        if item in seen:
            raise SetupError(f"event {item!r} is listed twice: the deck has one card of each")
        seen.add(item)
    return value


def _check_text(item: dict, k: int) -> None:
    where = f"text-only event {k + 1}"
    if set(item) != {"title", "text"}:
        raise SetupError(f"{where} has a 'title' and a 'text', each by language, nothing else")
    title, text = item["title"], item["text"]
    if not isinstance(title, dict) or not isinstance(text, dict) or not title:
        raise SetupError(f"{where}: 'title' and 'text' map a language to its words")
    if set(title) != set(text):
        raise SetupError(f"{where}: the title and the text are given in the same languages")
    for lang in title:
        if lang not in LANGS:
            known = ", ".join(sorted(LANGS))
            raise SetupError(f"{where}: unknown language {lang!r} (known: {known})")
        _check_words(f"{where}'s {lang} title", title[lang], MAX_TITLE)
        _check_words(f"{where}'s {lang} text", text[lang], MAX_TEXT)


def _check_words(where: str, words: object, most: int) -> None:
    if not isinstance(words, str) or not words.strip():
        raise SetupError(f"{where} is empty")
    said = characters.refusal(words, allowed="\n")  # the one rule, as a name's
    if said is not None:
        raise SetupError(f"{where} {said}")
    if characters.blank(words):  # only marks: nothing drawn
        raise SetupError(f"{where} is empty: nothing in it is drawn")
    if len(words) > most:
        raise SetupError(f"{where} has {len(words)} characters: at most {most}")
    piled = characters.stacked(words)
    if piled is not None:
        raise SetupError(f"{where} has more than {characters.MAX_MARKS} combining marks on one "
                         f"letter (its character {piled[0] + 1}): type it again without them")


def texts(opts: dict) -> dict[str, dict]:
    """The text-only events of the option, by id (`text-1`, `text-2`, ...)."""
    out: dict[str, dict] = {}
    for item in opts.get("events") or ():
        if isinstance(item, dict):
            out[f"text-{len(out) + 1}"] = item
    return out


def deck(opts: dict, seed: int) -> tuple[str, ...]:
    """The event cards shuffled with the game's seed (their own draw, so no
    other chance changes): the top card first. Empty without events."""
    ids = [i for i in opts.get("events") or () if isinstance(i, str)] + list(texts(opts))
    if not ids:
        return ()
    Random(f"{seed}:events").shuffle(ids)
    return tuple(ids)


def card(card_id: str | None) -> EventCard | None:
    """The row of a card id (a text-only event's: TEXT)."""
    if card_id is None:
        return None
    return EVENTS.get(card_id, TEXT)
