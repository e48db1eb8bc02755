"""Which texts the hub speaks [issue 20], from the words (companion/words)
and the **public** view alone.

    spoken(previous_public_view, public_view, "ja")   # the sentences to say now
    clips(sentence, names)                            # the sentence in cacheable pieces
    fixed_lines("ja")                                 # every fixed piece, to render ahead

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

What is said is the table screen's line said well [issue 29, "say less"]:
a tally names the top candidates only ("Hana 4 votes, Bob 2.",
`companion.words.announce.tally_said`), where the screen keeps every
count; a "Winners: …" of more than three names is left to the screen (the
side's win was just said); a bare title ("Vote") is never said. Numbers are
read right by the engines (companion/speech/engines.py: 3票 is さんぴょう,
2票 is 兩票).

A sentence is spoken as pieces (`clips`): the players' names apart from the
fixed text around them, so each piece is rendered once — the fixed pieces
ahead of any game (`fixed_lines`, `werewolf narrate`), the names when a game
is dealt (`name_pieces`: a Japanese name with its さん, one phrase) — and a
sentence is joined from files already on disk.
"""

from __future__ import annotations

import re
from random import Random

from ..engine import (
    ROLES,
    RULESETS,
    announcements,
    new_game,
    pending,
    public_view,
    recommended_deal,
)
from ..engine.play import play_random
from ..engine.roles import NIGHT_STEPS
from ..engine.steps import TOGETHER
from ..words import gm_line, public_line, step_names
from ..words.announce import announcement_text, person, tally_said, winners_named, winners_text
from ..words.catalogs import catalog_for

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
    said = _sentences(gm_line(view, lang, []))
    wake = _wake_only(call, night, ruleset, options, lang, deck)
    k = said.index(wake[-1]) + 1 if wake and wake[-1] in said else len(said)
    return said[:k], said[k:]


def _wake_only(call: str, night: int, ruleset: str | None, options: dict, lang: str,
               deck: dict | None) -> list[str]:
    """The call's wake line(s) alone, as the table screen shows them."""
    view = {"pace": {"mode": "calls", "call": call, "night": night},
            "players": [{"name": "-"}], "ruleset": ruleset, "options": options, "n": night,
            "deck": deck}
    return _sentences(public_line(view, lang))[1:]  # after "Night N"


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


def spoken(before: dict | None, view: dict, lang: str) -> list[str]:
    """The sentences to say now that the public view went from `before` to
    `view` (each a public view as the table screen gets it, with its "line")."""
    told = _story_said(before, view)  # the story's new page at the end [issue 35]
    if told:
        return told
    old, new = beat(before), beat(view)
    if old == new or view.get("phase") == "lobby":
        return []
    out: list[str] = []
    ruleset, options = view.get("ruleset"), view.get("options") or {}
    if before is not None and old[0] == "calls" and old[2] is not None \
            and before.get("game") == view.get("game"):
        out += call_lines(str(old[2]), int(old[1] or 1), ruleset, options, lang, False,
                          before.get("deck"))[1]
    if new[0] == "calls":
        night, call = int(new[1] or 1), new[2]
        first = old[0] != "calls" or old[1] != new[1]
        if call is None:
            return out + dawn_coming(lang)
        return out + call_lines(str(call), night, ruleset, options, lang, first,
                                view.get("deck"))[0]
    said = set(_sentences(before.get("line") or "")) if before and old[0] == "day" else set()
    new_lines = [s for s in _sentences(view.get("line") or "") if s not in said]
    return out + said_as(new_lines, view, lang)


def _story_said(before: dict | None, view: dict) -> list[str]:
    """A page of the story the table screen turned to [issue 35]: its title
    and its lines, as the screen shows them (public once the game is over)."""
    page = view.get("story")
    if not page or (before and (before.get("story") or {}).get("page") == page.get("page")
                    and before.get("game") == view.get("game")):
        return []
    return [str(page.get("title") or ""), *(str(ln.get("said") or ln.get("text") or "")
                                            for ln in page.get("lines") or [])]


def said_as(sentences: list[str], view: dict, lang: str) -> list[str]:
    """The table screen's sentences as the narration says them [issue 29,
    "say less"]: a tally's top candidates only (`tally_said`), no "Winners:
    …" of more than WINNERS_SAID names, no bare title. From the public view
    alone: its players' names and announcements."""
    if not sentences:
        return []
    names = [str(p.get("name", "?")) for p in view.get("players") or []]
    instead: dict[str, str] = {title: "" for title in step_names(lang).values()}
    for a in view.get("announcements") or []:
        if a.get("kind") == "tally" and a.get("counts"):
            instead[announcement_text(a, names, lang)] = tally_said(a, names, lang)
        elif a.get("kind") == "over" and len(winners_named(a, names)) > WINNERS_SAID:
            instead[winners_text(a, names, lang)] = ""
    return [t for t in (instead.get(s, s) for s in sentences) if t]


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


def name_pieces(names: list[str], lang: str) -> list[str]:
    """The pieces the players' names are said as: each name, and in Japanese
    each name with its さん (`clips` keeps them together): what to render
    when a game is dealt."""
    T = catalog_for(lang)
    out: dict[str, None] = {}
    for n in names:
        if n:
            out[n] = None
            out[person(T, n)] = None
    return list(out)


def fixed_lines(lang: str, games: int = 6) -> list[str]:
    """Every fixed piece the hub may say in `lang`: each call of every
    ruleset on a first and a later night (with and without a first-night
    attack), and the day's lines and announcements of `games` random games
    per ruleset (seeded, so the list is the same every time), cut around the
    players' names. What a random game does not reach (a rare count in a
    tally) is rendered when first said."""
    out: dict[str, None] = {}

    def keep(sentences: list[str], names: list[str]) -> None:
        for s in sentences:
            for piece, name in _cut(s, names):
                if not name:
                    out[piece] = None

    for ruleset in RULESETS:
        for attack in (True, False):
            options = {"first_night_attack": attack}
            for night in (1, 2):
                for i, call in enumerate(NIGHT_STEPS):
                    opening, closing = call_lines(call, night, ruleset, options, lang, i == 0)
                    keep(opening + closing, [])
                    keep(call_lines(call, night, ruleset, options, lang, False)[0], [])
                for deck in (None, *JP_DECKS):  # jp-standard's one window names its roles
                    opening, closing = call_lines(TOGETHER, night, ruleset, options, lang, True,
                                                  deck)
                    keep(opening + closing, [])
    keep(dawn_coming(lang), [])
    for ruleset in RULESETS:
        for g in range(games):
            for sentences, names in _random_game(ruleset, lang, g):
                keep(sentences, names)
    return list(out)


def _random_game(ruleset: str, lang: str, seed: int) -> list[tuple[list[str], list[str]]]:
    """What the narrator says of one random game's days, mode by mode (the
    table screen's lines, `said_as`), without pacing: each engine step's
    modes as pacing opens them — a discussion only when it has a time, the
    verdict once the day's vote is over (as night comes)."""
    players = 8 + seed % 5 if ruleset != "jp-standard" else 7 + seed % 9
    rng = Random(seed)
    counts = recommended_deal(ruleset, players, [])
    cards = [r for r, c in sorted(counts.items()) for _ in range(c)]
    rng.shuffle(cards)
    names = SAMPLE_NAMES[lang][:players] + [f"P{i}" for i in range(12, players)]
    options = {"reveal_on_death": bool(seed % 2), "sheriff": ruleset != "jp-standard"
               and seed % 3 != 2}
    state = new_game(ruleset, names, cards, options, seed=seed)
    said: list[tuple[list[str], list[str]]] = []
    last: dict = {"key": None, "voted": False, "actor": None}

    def say(state: object, modes: tuple[str, ...]) -> None:
        view = public_view(state)  # type: ignore[arg-type]
        view["announcements"] = announcements(state)  # type: ignore[arg-type]
        for mode in modes:
            view["pace"] = {"mode": mode, "seat": last["actor"]}
            said.append((said_as(_sentences(public_line(view, lang)), view, lang), names))

    def after(state: object, seat: int) -> None:
        p = pending(state)  # type: ignore[arg-type]
        last["actor"] = p.get("actor")
        key = (p["id"], p["kind"])
        if key == last["key"]:
            return
        last["key"] = key
        if p["kind"] in ("night", "wolves", "over"):
            if last["voted"]:  # the day's vote is over: its verdict, before night falls
                last["voted"] = False
                say(state, ("verdict",))
            if p["kind"] != "over":
                return
        timed = bool(p.get("timer") and state.opts.get(p["timer"]))  # type: ignore[attr-defined]
        modes = {"vote": ("discussion", "ballot") if timed else ("ballot",),
                 "runoff": ("discussion", "ballot") if timed else ("ballot",),
                 "election": ("discussion", "ballot") if timed else ("ballot",),
                 "prompt": ("prompt", "last-words"), "over": ("over",)}.get(p["kind"], ())
        last["voted"] = last["voted"] or p["kind"] in ("vote", "runoff")
        say(state, modes)

    play_random(state, rng, after=after)
    return said
