"""The moderator's lines [issue 6] (RULES.md §9): what the game master reads
aloud at each step, and what the table screen shows, in the game's language.

    gm_line(gm_view, "ja", announcements)   # the line for the GM's tablet
    public_line(public_view, "zh_Hant")      # the same, from the public view only

Pure functions over the views the table already builds: no Flask request, no
state. Every sentence is a gettext message (extracted by `tools/i18n.py` into
companion/words/translations) and follows the sources' own wording in
Japanese: [002] the Millers Hollow moderator sheet (the night's calls,
"夜が来て、村は眠りにつきます…"), [004] the Japanese standard game's GM templates
("恐ろしい夜がやってきました…", the dawn, the vote, the execution and the winners);
in Chinese, [003]'s wording ("天黑請閉眼", "先知請睜眼") in Traditional characters.

A line may hold several sentences, one per line ("\\n"): at the first call of
a night the GM reads the day's outcome, the night-falls line, then the call's
wake line, its follow-ups (cupid's lovers, the piper's charmed) and its sleep
line. Nothing here reads a secret that the table may not hear: the GM's line
names the called role (every role of the ruleset is called, RULES.md §4), the
dead (as announced) and the winners, never a living player's card. What the
table is told (the announcements) is companion/words/announce.py.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..engine import ROLES
from ..options import DISCUSSION_S, EXTRA_DISCUSSION_S, PROFESSIONS, READY_ENDS_NIGHT, TURN_S
from .announce import Part, announced_parts, recent_entries
from .catalogs import catalog_for
from .names import step_name, step_names
from .speaker import join_names, minutes, person

# --- the night ------------------------------------------------------------------

def _night_falls(T: Any, ruleset: str | None, night: int) -> str:
    if ruleset == "jp-standard":  # [004]
        return str(T.gettext("A terrible night has come. Everyone, go to sleep."))
    if night <= 1:  # [002], the first night
        return str(T.gettext("Night falls and the village goes to sleep. Everyone, close your "
                             "eyes."))
    return str(T.gettext("Night has come. The survivors go to sleep."))  # [002] ⑩


def _together(view: dict, night: int) -> list[str]:
    """The calls inside jp-standard's one night window (RULES.md §4 [004]):
    the seer's, the knight's (on a night with an attack) and the pack's,
    each only if its card is in the deck (every one with `secret_deck`)."""
    deck = view.get("deck")
    cards = None if not deck else {c.get("role") for c in deck.get("cards") or []}
    attack = night > 1 or bool((view.get("options") or {}).get("first_night_attack"))
    calls = [c for c, when in (("seer", True), ("knight", attack)) if when and (
        cards is None or c in cards)]
    return calls + ["wolves"]


def _wake(T: Any, lang: str, call: str, view: dict, night: int) -> str:
    """The call's wake line ([002]; the knight's after [004]); jp-standard's
    one window wakes its roles together, each with his own line, and says
    they act on their phones until its time is up."""
    if call == "actions":
        woken = [_wake(T, lang, c, view, night) for c in _together(view, night)]
        if night == 1 and READY_ENDS_NIGHT.of(view.get("options") or {}):
            return "\n".join([*woken, str(T.gettext(  # [004] l.86-87 [issue 34]
                "Everyone act on your phone now, then tap Ready: the night ends once everyone "
                "is ready, or when its time is up."))])
        return "\n".join([*woken, str(T.gettext(
            "Everyone act on your phone now: the night ends when its time is up."))])
    if call == "wolves" and night == 1 and not (view.get("options") or {}).get(
            "first_night_attack", True):
        return str(T.gettext("Werewolves, wake up and recognise each other. There is no attack "
                             "tonight."))
    lines = {
        "thief": T.gettext("Thief, wake up. Look at the two centre cards: you may take one of "
                           "them, and must if both are werewolves."),
        "cupid": T.gettext("Cupid, wake up and point at the two players who will be lovers."),
        "defender": T.gettext("Defender, wake up and choose one player to protect from the "
                              "werewolves' attack tonight."),
        "seer": T.gettext("Seer, wake up and choose the player whose true identity you want "
                          "to see."),
        "knight": T.gettext("Knight, wake up and choose one player to guard from the "
                            "werewolves tonight (not yourself)."),
        "wolves": T.gettext("Werewolves, wake up, recognise each other and choose a new "
                            "victim."),
        "white-werewolf": T.gettext("White werewolf, wake up. You may devour one werewolf."),
        "witch": T.gettext("Witch, wake up. I show you the werewolves' victim. Will you use "
                           "your healing potion or your poison?"),
        "piper": T.gettext("Piper, wake up and charm two players with your bewitching music."),
        "pyromaniac": T.gettext("Pyromaniac, wake up. You may burn one player's building "
                                "tonight, once a game."),
        "rumormonger": T.gettext("Rumormonger, wake up and choose the player your poster "
                                 "accuses."),
    }
    if call in lines:
        return str(lines[call])
    return str(T.gettext("{role}, wake up.")).format(role=step_name(call, lang))


def _after(T: Any, lang: str, call: str, view: dict | None = None, night: int = 1) -> list[str]:
    """The sleep line, and the calls [002] makes right after (lovers, charmed)."""
    if call == "actions":  # the one window's roles, each back to sleep
        return [s for c in _together(view or {}, night) for s in _after(T, lang, c)]
    sleep = {
        "thief": T.gettext("The thief goes back to sleep."),
        "cupid": T.gettext("Cupid goes back to sleep."),
        "defender": T.gettext("The defender goes back to sleep."),
        "seer": T.gettext("The seer goes back to sleep."),
        "knight": T.gettext("The knight goes back to sleep."),
        "wolves": T.gettext("The werewolves go back to sleep."),
        "white-werewolf": T.gettext("The white werewolf goes back to sleep."),
        "witch": T.gettext("The witch goes back to sleep."),
        "piper": T.gettext("The piper goes back to sleep."),
        "pyromaniac": T.gettext("The pyromaniac goes back to sleep."),
        "rumormonger": T.gettext("The rumormonger goes back to sleep."),
    }
    out = [str(sleep[call]) if call in sleep else
           str(T.gettext("{role} goes back to sleep.")).format(role=step_name(call, lang))]
    if call == "cupid":
        out += [T.gettext("Lovers, wake up and recognise each other."),
                T.gettext("The lovers go back to sleep.")]
    elif call == "piper":
        out += [T.gettext("All the charmed players, open your eyes and recognise each other."),
                T.gettext("The charmed players go back to sleep.")]
    return [str(s) for s in out]


def _unanswerable(view: dict, call: str) -> bool:
    """The GM's view says nobody can answer this call: its card lies in the
    centre, its holder is dead or lost his power (RULES.md §4: the call is
    read all the same, for its whole window)."""
    if call in ("wolves", "actions"):
        return False  # the pack lives as long as the game goes on
    lost = bool(view.get("powers_lost"))
    for p in view.get("players") or []:
        role = ROLES.get(str(p.get("role")))
        if role is not None and role.step == call and p.get("alive") and not (
                lost and role.village_power):
            return False
    return True


# --- the day --------------------------------------------------------------------

def _vote_of(view: dict, anns: list[dict], gm: bool) -> tuple[str, int, list[int] | None]:
    """(kind "election" | "vote", round, candidates) of the vote being held or
    discussed: the GM's engine step, or what the public view and the
    announcements show."""
    p = view.get("pending") or {}
    if gm and p.get("kind") in ("vote", "runoff", "election"):
        return ("election" if p["kind"] == "election" else "vote", int(p.get("round") or 1),
                p.get("candidates"))
    vote = view.get("vote")
    if vote:
        return str(vote.get("kind")), int(vote.get("round") or 1), vote.get("candidates")
    n = view.get("n")
    today = [a for a in anns if a.get("time") == f"day {n}"]
    if today and today[-1].get("kind") == "tally" and today[-1].get("tie"):
        last = today[-1]
        return str(last.get("step")), int(last.get("round") or 1) + 1, list(last["tie"])
    elected = any(a.get("kind") == "sheriff" for a in anns)
    if (view.get("options") or {}).get("sheriff") and n == 1 and not elected:
        return "election", 1, None
    return "vote", 1, None


class _At:
    """The moment a line is said of: the view, what the table has been told,
    the language, the players' names, and whether the GM's tablet asks."""

    def __init__(self, view: dict, anns: list[dict], lang: str, gm: bool) -> None:
        self.view, self.anns, self.lang, self.gm = view, anns, lang, gm
        self.T: Any = catalog_for(lang)
        self.pace: dict = view.get("pace") or {}
        self.mode: str = self.pace.get("mode") or ""
        self.names = [str(p.get("name", "?")) for p in view.get("players") or []]
        self.opts: dict = view.get("options") or {}
        self.ruleset = view.get("ruleset")
        self.n = view.get("n")

    def told(self, entries: list[dict], wolves: bool | None = None) -> list[Part]:
        """The announcements `entries` as the GM reads them."""
        return announced_parts(self.T, self.lang, entries, self.names, self.ruleset, wolves)

    def today(self, kind: str | None = None) -> list[dict]:
        """Today's announcements (of `kind`)."""
        return [a for a in self.anns if a.get("time") == f"day {self.n}"
                and (kind is None or a.get("kind") == kind)]

    def since_dawn(self) -> list[dict]:
        """The announcements from today's dawn on ([] before it)."""
        dawn = [i for i, a in enumerate(self.anns) if a.get("kind") == "dawn"
                and a.get("n") == self.n]
        return self.anns[dawn[-1]:] if dawn else []

    def seated(self, seat: object) -> bool:
        return isinstance(seat, int) and 0 <= seat < len(self.names)

    def name(self, seat: object) -> str:
        """The seat's name, "" for no seat of this game."""
        return self.names[seat] if isinstance(seat, int) and self.seated(seat) else ""


def _vote_lines(at: _At, mode: str) -> list[Part]:
    """The vote being discussed or held: what the table learnt first, then
    the call (its candidates named, its time said)."""
    kind, round_, candidates = _vote_of(at.view, at.anns, at.gm)
    timer = int((DISCUSSION_S if round_ == 1 else EXTRA_DISCUSSION_S).of(at.opts) or 0)
    if not timer:  # no discussion (pacing opens the ballot at once): never "for 0 seconds"
        mode = "ballot"  # [issue 29]
    out = _vote_news(at, kind, round_, mode) if mode == "discussion" or not timer else []
    call = _discussion_call(at, kind, round_) if mode == "discussion" else \
        _ballot_call(at, kind, round_)
    who = join_names(at.T, [at.names[s] for s in candidates or [] if 0 <= s < len(at.names)])
    call[-1] = str(call[-1]).format(names=who, time=minutes(at.T, timer))
    return out + _said(*call)


def _vote_news(at: _At, kind: str, round_: int, mode: str) -> list[Part]:
    """What the table learns before a vote: the tally it runs off (its
    counts only when voting now), today's sheriff, or the dawn."""
    wolves = _wolves_alive(at.view)
    if round_ > 1:  # the line names the tied: the tally's counts only when voting now
        recent = recent_entries(at.anns)
        return at.told(recent if mode == "ballot" else recent[1:], wolves)
    sheriff = at.today("sheriff")
    if kind == "vote" and sheriff:
        return at.told(sheriff[-1:], wolves)
    return at.told(at.since_dawn(), wolves)


def _discussion_call(at: _At, kind: str, round_: int) -> list[str]:
    T, village = at.T, PROFESSIONS.of(at.opts) or (at.view.get("village") or {}).get(
        "professions")
    if kind == "election" and at.n == 2 and village:
        return [T.gettext("Today the farmers stand for sheriff: only a farmer may be "
                          "elected. Discuss for {time}, then vote.")]  # RULES.md §8
    if kind == "election":
        return [T.gettext("Before the vote, the village elects a sheriff, whose vote counts "
                          "double. Discuss for {time}, then vote.") if round_ == 1
                else T.gettext("The sheriff vote is tied between {names}. Discuss for {time}, "
                               "then vote again.")]
    if round_ > 1:
        return [T.gettext("The vote is tied between {names}. Discuss for {time} more, then "
                          "vote again.")]
    out = []  # [004]
    if PROFESSIONS.of(at.opts) or at.view.get("village", {}).get("professions"):
        out.append(T.gettext("Before the first ballot, the confessor, the barber, the "
                             "schoolteacher, the bonesetter and the steward may use their day "
                             "powers."))  # RULES.md §8 Decision
    return out + [T.gettext("Now discuss for {time} and choose one person you suspect of "
                            "being a werewolf, to execute.")]


def _ballot_call(at: _At, kind: str, round_: int) -> list[str]:
    T = at.T
    if kind == "election":
        return [T.gettext("Vote for the sheriff: everyone, point at one player now.")
                if round_ == 1 else T.gettext("Vote again for the sheriff, among {names}.")]
    if round_ == 1:  # [004]
        return [T.gettext("Everyone, end the discussion; no more talking from now on. We now "
                          "vote on whom to execute today.")]
    if (at.view.get("vote") or {}).get("nominees") and not _tied_before(at.anns, at.n):
        # vote_mode=candidates [003] (RULES.md §6) [issue 34]
        return [T.gettext("Everyone but the candidates votes now, for one of {names}.")]
    return [T.gettext("Runoff: vote again, for one of {names}.")]


def _turn_lines(at: _At) -> list[Part]:
    """Speaking turns [issue 34] (RULES.md §6): what the table learnt first
    (the dawn, or the first round's tally), how the turns go, then whose turn
    it is and who is next. The first two stay the same all through the
    turns, so a narrated game says them once and then only each new turn."""
    T, turns = at.T, at.pace["turns"]
    time = minutes(T, int(TURN_S.of(at.opts) or TURN_S.absent))
    order = [s for s in turns.get("order") or [] if at.seated(s)]
    seat = turns.get("seat")
    if not isinstance(seat, int) or not at.seated(seat):
        return [_title(at.view, "discussion", at.lang)]
    if turns.get("of") == "defence":
        out = at.told(at.today("tally")[-1:])
        # the round's tally named the candidates ("The candidates are …", announce.py)
        out += _said(str(T.gettext("Each candidate defends himself in turn, {time} each; then "
                                   "only the others vote.")).format(time=time))
        line = T.gettext("{name}, your defence.")
    else:
        sheriff = at.today("sheriff")
        out = at.told(sheriff[-1:]) if sheriff else at.told(at.since_dawn())
        out += _said(str(T.gettext("Everyone speaks in turn, {time} each, starting with {name}; "
                                   "the others keep silent.")).format(
            time=time, name=person(T, at.names[order[0]] if order else at.names[seat])))
        line = T.gettext("{name}, your turn to speak.")
    nxt = at.name(turns.get("next"))
    return out + _said(str(line).format(name=person(T, at.names[seat])),
                       str(T.gettext("Next: {name}")).format(name=person(T, nxt)) if nxt
                       else str(T.gettext("Then the vote.")))


def _tied_before(anns: list[dict], n: object) -> bool:
    """Today's last closed vote was tied (the open one is its runoff)."""
    today = [a for a in anns if a.get("kind") == "tally" and a.get("time") == f"day {n}"]
    return bool(today and today[-1].get("tie"))


def _wolves_alive(view: dict) -> bool | None:
    players = view.get("players") or []
    if not players or any(p.get("role") is None for p in players):
        return None
    return any(p.get("alive") and p["role"] in ROLES and ROLES[p["role"]].wolf
               for p in players)


def _prompt_lines(T: Any, view: dict, anns: list[dict], names: list[str], gm: bool,
                  lang: str) -> list[Part]:
    p = view.get("pending") or {}
    if gm:
        step, actor = p.get("step"), p.get("actor")
        who = names[actor] if isinstance(actor, int) and 0 <= actor < len(names) else None
    else:
        step = str(view.get("step") or "").split(" ")[-1]
        who = _public_actor(view, anns, step)
    out = announced_parts(T, lang, recent_entries(anns), names, view.get("ruleset"), None)
    if step == "hunter":  # [002][003]
        text = T.gettext("{name} is the hunter: point at one living player, who dies at "
                         "once.") if who else \
            T.gettext("The hunter points at one living player, who dies at once.")
    elif step == "appoint":
        text = T.gettext("{name}, the sheriff, names a successor before leaving.") if who else \
            T.gettext("The sheriff names a successor before leaving.")
    elif step == "allow":
        text = T.gettext("{name}, the scapegoat, chooses who may vote tomorrow.") if who else \
            T.gettext("The scapegoat chooses who may vote tomorrow.")
    elif step == "pardon":  # RULES.md §8: the lord (the GM's tablet only names him)
        text = T.gettext("{name} is condemned. If the lord wishes, he may pardon this "
                         "execution, once a game.")
        cond = (view.get("village") or {}).get("condemned")
        who = names[cond] if isinstance(cond, int) and 0 <= cond < len(names) else "?"
    elif step == "execution":  # the table: nothing tells whether a lord is deciding
        text = T.gettext("The execution is about to take place.")
    else:
        text = T.gettext("Waiting for {name}.") if who else T.gettext("Waiting for a choice.")
    return out + _said(str(text).format(name=person(T, who or "")))


def _public_actor(view: dict, anns: list[dict], step: str) -> str | None:
    """Who the prompt is for, from what the table knows."""
    deaths = [a for a in anns if a.get("kind") == "death"] + [
        d for a in anns if a.get("kind") == "dawn" for d in a.get("deaths") or []]
    if step == "hunter":
        shown = [a for a in deaths if a.get("role") == "hunter"]
        return str(shown[-1]["name"]) if shown else None
    if step == "allow":
        goats = [a for a in deaths if a.get("cause") == "scapegoat"]
        return str(goats[-1]["name"]) if goats else None
    if step == "appoint":
        seat = view.get("sheriff")
        players = view.get("players") or []
        if isinstance(seat, int) and 0 <= seat < len(players):
            return str(players[seat]["name"])
    return None


# --- the lines ------------------------------------------------------------------

def _said(*texts: str) -> list[Part]:
    """Sentences of the line itself (a call, a prompt, the vote's call...)."""
    return [Part(str(t)) for t in texts]


def _lines(view: dict, anns: list[dict], lang: str, gm: bool) -> list[Part]:
    at = _At(view, anns, lang, gm)
    if view.get("phase") == "lobby" or at.mode == "lobby" or not at.names:
        return _said(at.T.gettext("Deal the cards: each player looks at his own card in secret "
                                  "and keeps it hidden.") if gm else
                     at.T.gettext("Waiting for the game master to start a game."))
    if at.mode == "discussion" and at.pace.get("turns"):
        return _turn_lines(at)
    said = _MODES.get(at.mode)
    if said is not None:
        return said(at)
    if view.get("phase") == "over":
        return _over_lines(at)
    return [_title(view, at.mode, lang)]


def _deal_lines(at: _At) -> list[Part]:  # the game waits for "start" [issue 28]
    T = at.T
    if not at.gm:
        return _said(T.gettext("Everyone, look at your card in secret and keep it hidden: the "
                               "night falls soon."))
    return _said(T.gettext("Deal the cards: each player looks at his own card in secret and "
                           "keeps it hidden."),
                 T.gettext("Press Start the game once every phone has opened its card."))


def _call_lines(at: _At) -> list[Part]:
    T, pace = at.T, at.pace
    night = int(pace.get("night") or at.n or 1)
    call = pace.get("call")
    out: list[Part] = []
    if at.gm and not pace.get("cursor"):
        if night > 1:  # the day's outcome, then night falls ([004])
            day = [a for a in at.anns if a.get("time") == f"day {night - 1}"]
            out += at.told(recent_entries(day)) if day else []
        out += _said(_night_falls(T, at.ruleset, night))
    elif not at.gm:
        out += _said(str(T.gettext("Night {n}")).format(n=night))
    if call is None:
        return out + _said(T.gettext("Dawn is coming."))  # [004]
    if at.gm and _unanswerable(at.view, str(call)):
        out += _said(T.gettext("(Read this even though nobody may answer.)"))
    out += _said(_wake(T, at.lang, str(call), at.view, night))
    if at.gm:  # a part of its own: said as the call ends (companion/speech call_lines)
        out += [Part(s, "sleep") for s in _after(T, at.lang, str(call), at.view, night)]
    return out


def _last_words(at: _At) -> list[Part]:
    # the GM may know the game is over: not said before the words
    out = at.told(recent_entries([a for a in at.anns if a.get("kind") != "over"]))
    seat = at.pace.get("seat")
    if at.seated(seat):
        return out + _said(str(at.T.gettext("{name}, your last words.")).format(
            name=person(at.T, at.name(seat))))
    return out + _said(at.T.gettext("Last words."))


def _verdict(at: _At) -> list[Part]:  # the day's result, announced before night falls ([004])
    tallies = [a for a in at.anns if a.get("kind") == "tally"]
    day = [a for a in at.anns if tallies and a.get("time") == tallies[-1].get("time")
           and a.get("kind") != "over"]
    return at.told(recent_entries(day)) or [_title(at.view, at.mode, at.lang)]


def _over_lines(at: _At) -> list[Part]:
    over = [a for a in at.anns if a.get("kind") == "over"]
    if not over and at.view.get("winner") is not None:
        over = [{"kind": "over", "winner": at.view["winner"],
                 "winners": at.view.get("winners") or []}]
    recent = recent_entries([a for a in at.anns if a.get("kind") != "over"])
    return at.told(recent + over[-1:], _wolves_alive(at.view))


#: each mode of the pace and the lines said in it
_MODES: dict[str, Callable[[_At], list[Part]]] = {
    "deal": _deal_lines, "calls": _call_lines,
    "discussion": lambda at: _vote_lines(at, "discussion"),
    "ballot": lambda at: _vote_lines(at, "ballot"),
    "prompt": lambda at: _prompt_lines(at.T, at.view, at.anns, at.names, at.gm, at.lang),
    "last-words": _last_words, "verdict": _verdict, "over": _over_lines,
}


def _title(view: dict, mode: str, lang: str) -> Part:
    """The step as a title, in words: the public view's step is a label ("day
    1 vote"), its last word the step; never a raw id on the screen or in the
    narration [issue 29]: a part of its own ("title"), never said."""
    titles = step_names(lang)
    step = str(view.get("step") or "").split(" ")[-1]
    return Part(titles.get(step) or titles.get(mode) or titles["prompt"], "title")


def gm_line(view: dict, lang: str, announcements: list[dict] | None = None) -> str:
    """The line the GM reads aloud now, from the GM view (`Table.gm_view`:
    "pace", "pending", "players", "deaths", "options", "ruleset"), with what
    the table has been told: `announcements` (`engine.announcements(state)`),
    else the view's own "announcements" (the table's GM view carries them),
    else none: the engine is the one that tells a dawn, never rebuilt here.
    Sentences are separated by newlines."""
    return "\n".join(p.text for p in gm_parts(view, lang, announcements))


def gm_parts(view: dict, lang: str, announcements: list[dict] | None = None) -> list[Part]:
    """The GM's line as its parts (`Part`; at a call, its sleep line and
    follow-ups are "sleep"): `gm_line` is their join [issue 45]."""
    anns = (announcements if announcements is not None
            else list(view.get("announcements") or []))
    return _lines(view, anns, lang, gm=True)


def public_line(view: dict, lang: str) -> str:
    """The table screen's line, from the public view alone (`Table.public`:
    "pace", "announcements", "players", "phase", "n", "step", "vote"...). At
    night it names only the step being called, as the GM says it aloud.
    The join of `line_parts`."""
    return "\n".join(p.text for p in line_parts(view, lang))


def line_parts(view: dict, lang: str) -> list[Part]:
    """The table screen's line as its parts, each with where it comes from
    (`Part`: an announcement and its entry, the winners, a bare title, the
    line's own sentences): what the narration says of it, by part
    [issue 45]. A part's text may hold several sentences, one per line."""
    return _lines(view, list(view.get("announcements") or []), lang, gm=False)
