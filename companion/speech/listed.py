"""Every unit a game may say, listed ahead [issue 42] (split from
companion/speech/lines.py, which says *what* is spoken; this lists *all* a
game may speak so that one background thread renders it before it is heard).

    game_lines(view_at_the_deal, "ja")   # each night's calls, random games of the
                                         # same deck, every name and count in place
    story_lines(told_story, names)       # the story's units, once the end is public
    fixed_lines("ja")                    # the pieces every game says
    name_pieces(names, "ja")             # a name with its さん, as a piece of its own
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
from ..words import public_line
from ..words.announce import (
    announcement_text,
    event_text,
    person,
    tally_said,
)
from ..words.catalogs import catalog_for
from .lines import (
    JP_DECKS,
    SAMPLE_NAMES,
    _masked,
    _sentences,
    _story_said,
    _unmasked,
    call_lines,
    dawn_coming,
    said_of,
    units,
)


def game_lines(view: dict, lang: str, games: int = 12) -> list[str]:
    """Every unit a game may say [issue 42], in the order it may need them,
    from its public view at the deal alone (the names, the ruleset, the
    options, the public deck): the deal's line and each night's calls; the
    table's lines of `games` random games of the same deck, options and
    names (seeded, so the list is the same every time), day by day; each
    such unit with every other name in it (and, where random games count
    differently, every count: a tally's), and the deck's deaths with their
    cards, its event cards, the speaking turns. What none of these reaches
    is rendered when first said, and said late (logged)."""
    names = [str(p.get("name")) for p in view.get("players") or [] if p.get("name")]
    if not names:
        return []
    ruleset = str(view.get("ruleset") or "millers-hollow")
    options = dict(view.get("options") or {})
    deck = view.get("deck") or {}
    counts = {str(c["role"]): int(c["count"]) for c in deck.get("cards") or []
              if c.get("role") and c.get("count")}
    if sum(counts.values()) < len(names):  # a secret deck: the recommended one
        counts = recommended_deal(ruleset, len(names), [])
    found: dict[str, tuple[int, int]] = {}  # unit -> (day, order): when a game may need it

    def keep(day: int, sentences: list[str]) -> None:
        for sentence in sentences:
            for u in units(sentence, names):
                if u not in found:
                    found[u] = (day, len(found))

    T = catalog_for(lang)
    keep(0, [str(T.gettext("Everyone, look at your card in secret and keep it hidden: the "
                           "night falls soon."))])
    nights = len(names) // 2 + 2
    calls = [c for c in NIGHT_STEPS if _called(c, counts, options)] + [TOGETHER]
    for night in range(1, nights + 1):
        for i, call in enumerate(calls):
            opening, closing = call_lines(call, night, ruleset, options, lang, i == 0, deck)
            again = call_lines(call, night, ruleset, options, lang, False, deck)[0]
            keep(night - 1, opening + closing + again)
        keep(night - 1, dawn_coming(lang))
    keep(1, _turns_said(view, names, lang))
    keep(1, _last_words_said(view, names, lang))
    keep(1, [event_text({"card": c}, lang) for c in options.get("events") or []])
    for g in range(games):
        try:
            played = _random_game(ruleset, lang, g, names, counts, options)
        except Exception:  # noqa: BLE001 - a deck random play cannot deal: the rest still helps
            continue
        for day, (sentences, _) in enumerate(played):
            keep(1 + day // 3, sentences)
    keep(1, _deaths_said(names, counts, lang, ruleset))
    keep(1, _tallies_said(names, lang))
    keep(2, _endings_said(names, lang, ruleset, counts))
    return _filled(found, names)


def _called(call: str, counts: dict[str, int], options: dict) -> bool:
    """Whether a night's call may be made in a game of this deck."""
    holders = [r for r, role in ROLES.items() if role.step == call]
    return not holders or any(r in counts for r in holders) or call == "wolves"


def _turns_said(view: dict, names: list[str], lang: str) -> list[str]:
    """The speaking turns' lines [issue 34] (discussion_turns, the
    candidates' defences), one seat speaking, another next: `_filled`
    puts every name in them."""
    out: list[str] = []
    base = {**view, "phase": "day", "n": 1, "announcements": [], "players": [
        {"name": n, "alive": True} for n in names]}
    options = view.get("options") or {}
    for of in [o for o, on in (("discussion", options.get("discussion_turns")),
                               ("defence", options.get("vote_mode") == "candidates")) if on]:
        turns = {"order": list(range(len(names))), "seat": 0, "next": 1, "of": of}
        pace = {"mode": "discussion", "turns": turns}
        out += _sentences(public_line({**base, "pace": pace}, lang))
        last = {**turns, "seat": len(names) - 1, "next": None}
        out += _sentences(public_line({**base, "pace": {**pace, "turns": last}}, lang))
    return out


def _last_words_said(view: dict, names: list[str], lang: str) -> list[str]:
    """A dead player's last words ("Ann, your last words."), the first
    player's (`_filled` names every player in it)."""
    base = {**view, "phase": "day", "n": 1, "announcements": [], "players": [
        {"name": n, "alive": True} for n in names]}
    return _sentences(public_line({**base, "pace": {"mode": "last-words", "seat": 0}}, lang))


def _deaths_said(names: list[str], counts: dict[str, int], lang: str,
                 ruleset: str) -> list[str]:
    """Each player's death by each public cause, with each card of the deck
    (`reveal_on_death`) and without."""
    out: list[str] = []
    for cause in ("execution", "hunter", "scapegoat", "barber", None):
        for role in [None, *counts]:
            entry = {"kind": "death", "name": names[0], "cause": cause, "role": role}
            out += [announcement_text(entry, names, lang, ruleset)]
    out.append(announcement_text({"kind": "no-execution"}, names, lang))
    for how in ("elected", "drawn", "none", "appointed", "default", "died", "idiot"):
        out.append(announcement_text({"kind": "sheriff", "how": how, "seat": 0}, names, lang))
    for dead in (names[:1], names[:2]):  # the pack's victim, and the witch's poison too
        dawn = {"kind": "dawn", "deaths": [{"name": n} for n in dead]}
        out.append(announcement_text(dawn, names, lang, ruleset))
    return out


def _endings_said(names: list[str], lang: str, ruleset: str,
                  counts: dict[str, int]) -> list[str]:
    """Each way a game of this deck may end, with one, two and three winners
    named (`_filled` names every player in them)."""
    out: list[str] = []
    players = [{"name": n, "alive": True} for n in names]
    for winner in ("village", "werewolves", "fox", "lovers", "piper", "white-werewolf", None):
        for k in (1, 2, 3):
            entry = {"kind": "over", "winner": winner, "winners": list(range(min(k, len(names))))}
            view = {"phase": "over", "pace": {"mode": "over"}, "ruleset": ruleset,
                    "players": players, "announcements": [entry]}
            out += [s.text for s in said_of(view, lang)]
    return out


def _tallies_said(names: list[str], lang: str) -> list[str]:
    """A tally as the narration says it (`tally_said`): a leader alone, with
    one and two runners-up, two or three tied, more tied; one and two votes
    (`_filled` puts every name and count in them)."""
    shapes = [{0: 2}, {0: 3}, {0: 1}, {0: 3, 1: 2}, {0: 4, 1: 1}, {0: 3, 1: 1, 2: 1},
              {0: 4, 1: 2, 2: 2}, {0: 2, 1: 2}, {0: 3, 1: 3}, {0: 1, 1: 1}, {0: 2, 1: 2, 2: 2},
              {0: 3, 1: 3, 2: 3}, {0: 1, 1: 1, 2: 1}, {0: 2, 1: 2, 2: 2, 3: 2},
              {0: 1, 1: 1, 2: 1, 3: 1}]
    out = []
    for counts in shapes:
        if len(counts) <= len(names):
            tally = {"kind": "tally", "step": "vote", "counts": {str(s): c for s, c in
                                                                 counts.items()}}
            out.append(tally_said(tally, names, lang))
    return out


def _filled(found: dict[str, tuple[int, int]], names: list[str]) -> list[str]:
    """The units found, each also with every other name in it (one name: each
    name; two: each pair) and, where the random games counted differently
    in it (a tally's count, a night's number), every count up to the
    players and two more; in the order a game may need them."""
    counted: dict[str, set[str]] = {}  # a unit with its number masked -> the numbers seen
    shapes: dict[str, tuple[str, list[str]]] = {}
    for u in found:
        masked, seen = _masked(u, names)
        shape = re.sub(r"[0-9]+", "#", masked)
        numbers = re.findall(r"[0-9]+", masked)
        shapes[u] = (masked, seen)
        if len(numbers) == 1:
            counted.setdefault(shape, set()).add(numbers[0])
    order = dict(found)
    for u, (masked, seen) in shapes.items():
        day, k = found[u]
        numbers = re.findall(r"[0-9]+", masked)
        shape = re.sub(r"[0-9]+", "#", masked)
        who = list(dict.fromkeys(seen))  # the names in it, each once
        forms = [masked]
        varies = len(numbers) == 1 and len(counted.get(shape, ())) > 1
        if varies and len(who) <= 1:  # a count: up to every voter, with the sheriff's ×2
            forms = [re.sub(r"[0-9]+", str(c), masked) for c in range(1, len(names) + 3)]
        elif varies and len(who) == 2:  # two tied: each at most half the votes, later
            forms = [re.sub(r"[0-9]+", str(c), masked) for c in range(1, len(names) // 2 + 2)]
            day += 1
        if len(who) == 1:
            casts = [[n] for n in names]
        elif len(who) == 2 and (not numbers or varies):
            casts = [[a, b] for a in names for b in names if a != b]
        else:
            casts = [who]
        for form in forms:
            for cast in casts:
                text = _unmasked(form, [cast[who.index(n)] for n in seen])
                if text not in order:
                    order[text] = (day, k)
    return sorted(order, key=lambda t: order[t])


def story_lines(told: dict, names: list[str]) -> list[str]:
    """Every unit the story of a finished game says [issue 35] (its pages'
    titles and lines, as `_story_said` says them), in order: rendered once
    the story is public, at the end [issue 42]."""
    out: dict[str, None] = {}
    for chapter in told.get("chapters") or []:
        page = {"title": chapter.get("title"), "lines": chapter.get("lines")}
        for sentence in _story_said(None, {"story": page}):
            for u in units(sentence, names):
                out[u] = None
    return list(out)


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
    """Every unit the hub may say in `lang` that names no player (`units`):
    each call of every ruleset on a first and a later night (with and
    without a first-night attack), and the day's lines and announcements of
    `games` random games per ruleset (seeded, so the list is the same every
    time): what `werewolf narrate` renders before any game. A game's units
    with names are rendered from its deal on (`game_lines`) [issue 42]."""
    out: dict[str, None] = {}
    T = catalog_for(lang)

    def keep(sentences: list[str], names: list[str]) -> None:
        for s in sentences:
            for u in units(s, names):
                if not _masked(u, names)[1]:
                    out[u] = None

    keep([str(T.gettext("Everyone, look at your card in secret and keep it hidden: the night "
                        "falls soon."))], [])

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


def _random_game(ruleset: str, lang: str, seed: int, names: list[str] | None = None,
                 counts: dict[str, int] | None = None,
                 options: dict | None = None) -> list[tuple[list[str], list[str]]]:
    """What the narrator says of one random game's days, mode by mode (the
    table screen's lines, `said_of`), without pacing: each engine step's
    modes as pacing opens them — a discussion only when it has a time, the
    verdict once the day's vote is over (as night comes). Sample names, a
    recommended deck and options of its own, unless given a game's [issue 42]."""
    players = len(names) if names else 8 + seed % 5 if ruleset != "jp-standard" else 7 + seed % 9
    rng = Random(seed)
    counts = counts or recommended_deal(ruleset, players, [])
    cards = [r for r, c in sorted(counts.items()) for _ in range(c)]
    rng.shuffle(cards)
    cards = cards[:players]  # a deck with centre cards: the seats' (the centre is never said)
    names = names or SAMPLE_NAMES[lang][:players] + [f"P{i}" for i in range(12, players)]
    if options is None:
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
            said.append(([s.text for s in said_of(view, lang)], names))

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
