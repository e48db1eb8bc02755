"""The announcements [issue 6] (RULES.md §9): what the table is told, as the
game master says it, in the game's language.

    announcement_text(entry, names, "ja")   # one `engine.announcements()` entry
    announced(T, "ja", entries, names, ruleset, wolves_alive)   # several, with openers

Every sentence is a gettext message (extracted into the catalogs,
companion/words/translations) and follows [004]'s GM templates in Japanese
(the dawn, the vote, the execution and the winners) and [003]'s wording in
Traditional Chinese. An entry names the dead as announced, and their cards
only where the entry has them (`reveal_on_death`); nothing here reads a
secret. Which causes of death the table hears is the engine's rule
(`companion.engine.PUBLIC_CAUSES`): its entries carry no other, and the
dawns are told only from them, never rebuilt from a view.

The sentence helpers (`person`, `join_names`, `minutes`) are shared with the
moderator's lines (companion/words/lines.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from .catalogs import catalog_for
from .names import (
    EVENT_TEXTS,
    EVENTS,
    WINS,
    building_names,
    cause_name,
    role_name,
    screen_word,
    translate,
)
from .speaker import Speaker, join_names, person

# --- sentences ------------------------------------------------------------------

def _leaves(T: Any, names: list[str]) -> str:
    return str(T.gettext("{names} leave the game and may not take part in the discussion "
                         "any more.") if len(names) > 1 else
               T.gettext("{names} leaves the game and may not take part in the discussion "
                         "any more.")).format(names=join_names(T, names))


def _was(T: Any, lang: str, name: str, role: str) -> str:
    return str(T.gettext("{name} was the {role}.")).format(name=person(T, name),
                                                           role=role_name(role, lang))


def _sentences(lang: str, parts: list[str]) -> str:
    """Sentences side by side: no space between Japanese or Chinese ones."""
    return ("" if lang in ("ja", "zh_Hant") else " ").join(p for p in parts if p)


def announcement_text(a: dict, names: list[str], lang: str,
                      ruleset: str | None = None) -> str:
    """One entry of `engine.announcements()` as the GM says it, [004]'s
    templates: the victims named, their cards only where the entry has them
    (`reveal_on_death`), "no attack last night" for a peaceful dawn. `names`
    are the players by seat (tallies and the sheriff name seats);
    `ruleset="jp-standard"` words a single night death as [004] does ("attacked
    by the werewolves"); elsewhere the cause is not said. Each kind's
    sentences are one function of `ANNOUNCED`."""
    say = ANNOUNCED.get(str(a.get("kind")))
    return say(Speaker(lang, names, ruleset), a) if say is not None else ""


def _dawn(w: Speaker, a: dict) -> str:
    T, deaths = w.T, a.get("deaths") or []
    if not deaths:  # a peaceful night may still have had a fire or a poster (§8)
        return w.sentences([str(T.gettext("Last night, there was no werewolf attack.")),
                            *_potions(T, a), *_village_dawn(w, a)])
    who = [d["name"] for d in deaths]
    if len(who) == 1 and w.ruleset == "jp-standard":
        text = T.gettext("Last night, the werewolves attacked {names}.")
    else:
        text = T.gettext("Last night's victims: {names}.") if len(who) > 1 else \
            T.gettext("Last night's victim: {names}.")
    out = [str(text).format(names=join_names(T, who)), _leaves(T, who)]
    out += [_was(T, w.lang, d["name"], d["role"]) for d in deaths if d.get("role")]
    return w.sentences(out + _potions(T, a) + _village_dawn(w, a))


def _silence(w: Speaker, a: dict) -> str:  # RULES.md §8: the schoolteacher names them aloud
    return str(w.T.gettext("The schoolteacher silences {names}: they may not vote today.")
               ).format(names=w.all(a.get("targets") or []))


def _pardon(w: Speaker, a: dict) -> str:
    return str(w.T.gettext("The lord pardons {name}: nobody is executed today.")
               ).format(name=w.who(a.get("condemned")))


def _death(w: Speaker, a: dict) -> str:
    T, name = w.T, a["name"]
    text = {
        "execution": T.gettext("By the vote, {name} is executed."),
        "scapegoat": T.gettext("The vote is tied: the scapegoat, {name}, is executed."),
        "hunter": T.gettext("The hunter shoots {name}."),
        "barber": T.gettext("The barber's razor slips: {name} dies."),
    }.get(str(a.get("cause")), T.gettext("{name} dies."))
    out = [str(text).format(name=person(T, name)), _leaves(T, [name])]
    if a.get("role"):
        out.append(_was(T, w.lang, name, a["role"]))
    return w.sentences(out)


def _revealed(w: Speaker, a: dict) -> str:
    return str(w.T.gettext("{name} is the village idiot: spared, but may no longer vote.")
               ).format(name=person(w.T, a["name"]))


def _sheriff(w: Speaker, a: dict) -> str:
    T = w.T
    text = {
        "elected": T.gettext("{name} is elected sheriff."),
        "drawn": T.gettext("The sheriff vote is tied: {name} is drawn by lot as sheriff."),
        "none": T.gettext("Nobody is elected: there is no sheriff."),
        "appointed": T.gettext("{name} is the new sheriff."),
        "default": T.gettext("No successor was named: {name} becomes the sheriff."),
        "died": T.gettext("Nobody is left to succeed the sheriff: there is no sheriff any "
                          "more."),
        # RULES.md §6 [002] 「保安官が脱落：怠け者以外は後継者を指定する」 [issue 34]
        "idiot": T.gettext("The sheriff was the village idiot: he names no successor, and "
                           "the badge leaves the game with him."),
    }.get(str(a.get("how")), T.gettext("{name} is the sheriff."))
    return str(text).format(name=w.who(a.get("seat")))


def _tally(w: Speaker, a: dict) -> str:
    T, counts = w.T, a.get("counts") or {}
    if not counts:
        return str(T.gettext("Nobody voted."))
    ranked = sorted(counts.items(), key=lambda kv: (-kv[1], int(kv[0])))
    items = w.comma().join(str(T.gettext("{name}: {count}")).format(name=w.who(int(s)), count=c)
                           for s, c in ranked)
    text = T.gettext("Votes for the sheriff: {counts}.") if a.get("step") == "election" \
        else T.gettext("Votes: {counts}.")
    out = [str(text).format(counts=items)]
    if a.get("tie"):
        out.append(str(T.gettext("Tie between {names}.")).format(names=w.all(a["tie"])))
    if a.get("nominees"):  # vote_mode=candidates' first round (RULES.md §6 [003])
        out.append(str(T.gettext("The candidates are {names}.")).format(
            names=w.all(a["nominees"])))
    return w.sentences(out)


#: every kind of announcement (engine.announcements) and what the GM says of it
ANNOUNCED: dict[str, Callable[[Speaker, dict], str]] = {
    "dawn": _dawn, "silence": _silence, "pardon": _pardon, "death": _death,
    "no-execution": lambda w, a: str(w.T.gettext("By the vote, nobody is executed today.")),
    "revealed": _revealed, "sheriff": _sheriff, "tally": _tally,
    "over": lambda w, a: w.sentences(_over(w.T, a, w.names)),
    "event": lambda w, a: event_text(a, w.lang),  # New Moon's card of the day (RULES.md §10)
}


# --- the display's rows ----------------------------------------------------------

#: one short row of the small display: (sign, name, what is said of it), the
#: name apart so the display may cut it and keep the rest [issue 30]
Row = tuple[str, str, str]


def announcement_rows(a: dict, lang: str, name_of: Callable[[object], str]) -> list[Row]:
    """What the small display says of one announcement, one row each (a
    dawn: each death, or that nobody died); tallies are drawn apart, so
    they and the kinds the display does not show give no row. `names` are
    `name_of` names a seat."""
    rows = ROWS.get(str(a.get("kind")))
    return rows(a, lang, name_of) if rows is not None else []


def _death_row(d: dict, lang: str, name_of: Callable[[object], str]) -> Row:
    said = f" {role_name(d['role'], lang)}" if d.get("role") else ""
    return "†", str(d.get("name") or name_of(d.get("seat"))), said


def _sheriff_row(a: dict, lang: str, name_of: Callable[[object], str]) -> list[Row]:
    if a.get("seat") is None:
        return []
    return [("★", name_of(a["seat"]), f" {screen_word('sheriff', lang)}")]


#: every announcement the display shows, and its rows
ROWS: dict[str, Callable[[dict, str, Callable[[object], str]], list[Row]]] = {
    "dawn": lambda a, lang, name_of: [_death_row(d, lang, name_of) for d in a.get("deaths") or []]
    or [("", screen_word("peaceful", lang), "")],
    "death": lambda a, lang, name_of: [_death_row(a, lang, name_of)],
    "no-execution": lambda a, lang, name_of: [("", screen_word("no-execution", lang), "")],
    "revealed": lambda a, lang, name_of: [("", str(a.get("name")),
                                         f" {role_name('village-idiot', lang)}")],
    "sheriff": _sheriff_row,
}


# --- the GM's history ----------------------------------------------------------------

def news_text(a: dict, names: list[str], lang: str) -> str:
    """One announcement as the GM's tablet lists it, in one short line
    ("Dawn: Ann (Seer)", "Bob dies (hunter)", "Votes: Ann: 3, Bob: 1"):
    the hub sends these words with the game's record, the page composes
    none [issue 45]. A kind without a line of its own is its id."""
    news = NEWS.get(str(a.get("kind")))
    return news(Speaker(lang, names), a) if news is not None else str(a.get("kind"))


def _seat_named(w: Speaker, seat: object) -> str:
    """A seat's bare name on the GM's tablet ("Nobody" for none)."""
    if isinstance(seat, int) and 0 <= seat < len(w.names):
        return w.names[seat]
    return w._("Nobody") if seat is None else str(seat)


def _dawn_news(w: Speaker, a: dict) -> str:
    deaths = a.get("deaths") or []
    if not deaths:
        return w._("Dawn: nobody died.")
    return w._("Dawn: {names}", names=", ".join(
        str(d["name"]) + (f" ({w.role(d['role'])})" if d.get("role") else "") for d in deaths))


def _death_news(w: Speaker, a: dict) -> str:
    cause = a.get("cause")
    return w._("{name} dies ({cause})",
               name=str(a["name"]) + (f" · {w.role(a['role'])}" if a.get("role") else ""),
               cause=cause_name(cause, w.lang) if cause else "?")


def _tally_news(w: Speaker, a: dict) -> str:
    ranked = sorted((a.get("counts") or {}).items(), key=lambda kv: (-kv[1], int(kv[0])))
    counts = ", ".join(w._("{name}: {n}", name=_seat_named(w, int(s)), n=c) for s, c in ranked)
    return w._("Votes: {counts}", counts=counts or w._("Nobody"))


def _event_news(w: Speaker, a: dict) -> str:
    card = str(a.get("card") or "")
    if a.get("source") != "text":
        title = translate(EVENTS[card], w.lang) if card in EVENTS else card
    else:
        titles = a.get("title") or {}
        pick = w.lang if w.lang in titles else next(iter(titles), None)
        title = str(titles.get(pick) or "") if pick is not None else ""
    return w._("Event card: {name}.", name=title)  # [issue 33]


#: every announcement's line on the GM's tablet
NEWS: dict[str, Callable[[Speaker, dict], str]] = {
    "dawn": _dawn_news, "death": _death_news, "tally": _tally_news,
    "revealed": lambda w, a: w._("{name}, the village idiot, is spared", name=a["name"]),
    "sheriff": lambda w, a: w._("{name} is the sheriff", name=_seat_named(w, a.get("seat"))),
    "no-execution": lambda w, a: w._("No execution."),
    "over": lambda w, a: translate(WINS[a["winner"]], w.lang) if a.get("winner") in WINS
    else str(a.get("winner")),
    "event": _event_news,
}


def event_text(a: dict, lang: str) -> str:
    """The event card turned at dawn, as the table screen shows it and the
    narration says it (RULES.md §10): its name and text; a text-only card's
    own title and text (in `lang`, else the first language it was given in),
    and that the game master applies it."""
    T = catalog_for(lang)
    card = str(a.get("card") or "")
    if card in EVENTS:
        title, text = translate(EVENTS[card], lang), translate(EVENT_TEXTS[card], lang)
        return _sentences(lang, [str(T.gettext("Event card: {name}.")).format(name=title),
                                 text])
    titles, texts = a.get("title") or {}, a.get("text") or {}
    pick = lang if lang in titles else next(iter(titles), None)
    if pick is None:
        return ""
    return _sentences(lang, [str(T.gettext("Event card: {name}.")).format(name=titles[pick]),
                             str(texts.get(pick, "")),
                             str(T.gettext("The game master applies this card by hand."))])


def event_said(line: str, event: dict | None, lang: str) -> int | None:
    """Which sentence of a line (its newline-separated parts, as gm_line and
    public_line make it) tells the event card `event` (a view's: "card",
    "source", a text-only card's "title" and "text") — the one event_text
    words — or None: a page that shows the card leaves that sentence out
    (the view's `event.said`, never a search of the page's text) [issue 45]."""
    if not event:
        return None
    sentences = line.split("\n")
    told = event_text(event, lang)
    return sentences.index(told) if told and told in sentences else None


def tally_said(a: dict, names: list[str], lang: str) -> str:
    """A tally as the narration says it [issue 29, "say less"]: the top
    candidates only, with their counts ("Hana 4 votes, Bob 2."), where the
    table screen shows every count (`announcement_text`). At most three
    names: the leader and the runners-up (two at most), or the tied (three
    at most; more are counted, and the runoff's line names them). A group
    of equal counts is named whole or not at all."""
    counts = {int(s): int(c) for s, c in (a.get("counts") or {}).items()}
    if not counts:
        return announcement_text(a, names, lang)
    w = Speaker(lang, names)
    top = max(counts.values())
    tie = [int(s) for s in a.get("tie") or []] or [s for s, c in counts.items() if c == top]
    return _tie_said(w, counts, tie) if len(tie) > 1 else _lead_said(w, counts, tie[0], top)


def _tie_said(w: Speaker, counts: dict[int, int], tie: list[int]) -> str:
    """The tied, named (three at most) or counted, with their votes each."""
    T, count = w.T, max(counts.get(s, 0) for s in tie)
    if len(tie) > 3:
        text = T.gettext("Tie between {number} players, 1 vote each.") if count == 1 else \
            T.gettext("Tie between {number} players, {count} votes each.")
        return str(text).format(number=len(tie), count=count)
    text = T.gettext("Tie between {names}, 1 vote each.") if count == 1 else \
        T.gettext("Tie between {names}, {count} votes each.")
    return str(text).format(names=w.all(sorted(tie)), count=count)


def _lead_said(w: Speaker, counts: dict[int, int], leader: int, top: int) -> str:
    """The leader's count, then the runners-up's (two at most, or none)."""
    T = w.T
    first = T.gettext("{name} 1 vote") if top == 1 else T.gettext("{name} {count} votes")
    items = [str(first).format(name=w.who(leader), count=top)]
    rest = {s: c for s, c in counts.items() if s != leader}
    if rest:
        second = max(rest.values())
        runners = sorted(s for s, c in rest.items() if c == second)
        if len(runners) <= 2:
            items += [str(T.pgettext("tally said", "{name} {count}")).format(
                name=w.who(s), count=second) for s in runners]
    return str(T.pgettext("tally said", "{counts}.")).format(counts=w.comma().join(items))


def winners_named(a: dict, names: list[str]) -> list[str]:
    """The names an "over" entry's "Winners: …" sentence says."""
    return [names[s] for s in a.get("winners") or [] if 0 <= s < len(names)]


def winners_text(a: dict, names: list[str], lang: str) -> str:
    """The "Winners: …" sentence of an "over" entry ("" without winners)."""
    winners = winners_named(a, names)
    if not winners:
        return ""
    T = catalog_for(lang)
    return str(T.gettext("Winners: {names}.")).format(names=join_names(T, winners))


def _village_dawn(w: Speaker, a: dict) -> list[str]:
    """A dawn's fires and the night's posted accusation (RULES.md §8 [000])."""
    T, out = w.T, []
    for b in a.get("burned") or []:
        out.append(str(T.gettext("In the night, {name}'s {building} burned down.")).format(
            name=b.get("name", "?"), building=building_names(w.lang).get(b.get("building"),
                                                                         b.get("building"))))
    if a.get("poster") is not None:
        out.append(str(T.gettext("A poster on the village square accuses {name}.")).format(
            name=w.who(a["poster"])))
    return out


def _potions(T: Any, a: dict) -> list[str]:
    """With `announce_potions`, the potions the witch used that night (RULES.md
    §5 witch, [000] 「癒しの薬、毒薬使用時は翌朝公表される。」): that she used
    them, never on whom."""
    used = a.get("potions") or {}
    heal, poison = bool(used.get("heal")), bool(used.get("poison"))
    if heal and poison:
        return [str(T.gettext("The witch used her healing potion and her poison last night."))]
    if heal:
        return [str(T.gettext("The witch used her healing potion last night."))]
    if poison:
        return [str(T.gettext("The witch used her poison last night."))]
    return []


def _over(T: Any, a: dict, names: list[str], wolves_alive: bool | None = None) -> list[str]:
    winner = a.get("winner")
    if winner == "village":
        out = [T.gettext("All the werewolves have been eliminated. The village wins.")]
    elif winner == "werewolves":
        out = [T.gettext("The villagers have all been devoured by the werewolves… "
                         "The werewolves win.")]
    elif winner == "fox":
        out = [T.gettext("The werewolves' winning condition is met, but the fox has "
                         "survived. The fox wins.") if wolves_alive else
               T.gettext("The village's winning condition is met, but the fox has survived. "
                         "The fox wins.")]
    elif winner == "lovers":
        out = [T.gettext("Only the lovers are left alive. The lovers win.")]
    elif winner == "piper":
        out = [T.gettext("Every living player is charmed. The piper wins.")]
    elif winner == "white-werewolf":
        out = [T.gettext("Only the white werewolf is left. The white werewolf wins.")]
    else:
        out = [T.gettext("The game ends in a draw: nobody wins.")]
    winners = winners_named(a, names)
    if winners:
        out.append(str(T.gettext("Winners: {names}.")).format(names=join_names(T, winners)))
    return [str(s) for s in out]


def _dawn_opener(T: Any, ruleset: str | None, deaths: bool) -> str:
    if ruleset == "jp-standard":  # [004]
        return str(T.gettext("Everyone, a bright morning has come."))
    if deaths:  # [002] ⑦
        return str(T.gettext("Morning has come. Villagers, wake up and open your eyes, all "
                             "but these…"))
    return str(T.gettext("Morning has come. Villagers, wake up and open your eyes."))


class Part(NamedTuple):
    """One part of a moderator's line (companion/words/lines.py): its text
    (a sentence, or several on lines of their own) and where it comes from —
    `of` "line" (a call, a prompt, the vote's call...), "title" (the step as
    a bare title), "announcement" (`entry`'s sentence, or the morning line
    that opens a dawn), "winners" (an "over" entry's "Winners: …") or
    "sleep" (on the GM's line, a call's sleep line and follow-ups). The
    narration says each part by where it comes from, never by matching
    its text [issue 45]."""

    text: str
    of: str = "line"
    entry: dict | None = None


def announced_parts(T: Any, lang: str, anns: list[dict], names: list[str],
                    ruleset: str | None, wolves_alive: bool | None) -> list[Part]:
    """The entries' sentences in order, as the GM reads them, each a `Part`
    with its entry: a dawn opens with the morning line ([002], [004]'s for
    jp-standard), the end of the game with the winners (`wolves_alive`
    words the fox's win)."""
    out: list[Part] = []
    for a in anns:
        if a.get("kind") == "dawn":
            out.append(Part(_dawn_opener(T, ruleset, bool(a.get("deaths"))), "announcement", a))
        if a.get("kind") == "over":
            win, *winners = _over(T, a, names, wolves_alive)
            out += [Part(win, "announcement", a), *(Part(w, "winners", a) for w in winners)]
        else:
            out.append(Part(announcement_text(a, names, lang, ruleset), "announcement", a))
    return [p for p in out if p.text]


def announced(T: Any, lang: str, anns: list[dict], names: list[str],
              ruleset: str | None, wolves_alive: bool | None) -> list[str]:
    """The entries' sentences in order (`announced_parts`' texts)."""
    return [p.text for p in announced_parts(T, lang, anns, names, ruleset, wolves_alive)]


def recent_entries(anns: list[dict]) -> list[dict]:
    """What happened since the last decision: from the last dawn or tally on."""
    for i in range(len(anns) - 1, -1, -1):
        if anns[i].get("kind") in ("dawn", "tally"):
            return anns[i:]
    return anns[-1:]


