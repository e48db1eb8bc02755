"""The story of a game in words [issue 35]: `engine.story`'s chapters, each
entry one sentence in the game's language with the players' names.

    told = story_text(engine_story, "ja")   # {"over", "chapters": [{"title", "lines"}]}
    print(story_plain(told))                # the same as text (werewolf story)

Every sentence is a gettext message (extracted into the catalogs like
every other word; a sentence the announcements also say is one msgid), so
the table screen, the phones, the GM's history, the narration and
`werewolf story` say the same sentences.
Each line keeps the seats it names (`engine.story.seats_of`), for a phone
to mark its own part.
"""

from __future__ import annotations

from typing import Any

from ..engine import State
from ..engine.story import seats_of, story
from .announce import _over, join_names, person
from .catalogs import catalog_for
from .names import EVENTS, _translated, cause_name, role_name, step_name, translate


def story_text(story: dict, lang: str) -> dict:
    """`story` (engine.story) told in `lang`: each chapter's title and its
    lines, each {"text", "seats", "kind"}; entries that say nothing alone
    (the elder's wound, told by "spared") are left out."""
    teller = _Words(lang, list(story.get("players") or []))
    chapters = []
    for ch in story.get("chapters") or []:
        lines: list[dict] = []
        called = ch.get("called")
        if called:
            lines.append({"kind": "called", "seats": [], "text": teller.called(called)})
        for entry in ch["entries"]:
            text = teller.entry(entry)
            if text:
                line = {"kind": entry["kind"], "seats": seats_of(entry), "text": text}
                if entry["kind"] == "tally":  # the voice says the counts, not every ballot
                    line["said"] = teller.tally_said(entry)
                lines.append(line)
        chapters.append({"kind": ch["kind"], "n": ch["n"], "time": ch["time"],
                         "title": teller.title(ch), "lines": lines})
    return {"over": bool(story.get("over")), "language": lang, "chapters": chapters}


def told(state: State, lang: str, game: int | None) -> dict:
    """A state's story as data and in words [issue 35]: {"game", "over",
    "players", "ruleset", "chapters" (engine.story's entries), "told"
    (`story_text`: each chapter's title and lines in `lang`)}. Whoever asks
    has been let read it (engine.story.readable)."""
    data = story(state)
    return {"game": game, **data, "told": {**story_text(data, lang), "words": story_words(lang)}}


def story_words(lang: str) -> dict[str, str]:
    """The pages' own words around the story (its heading, the ghost's
    reminder, the buttons), in `lang`."""
    _ = catalog_for(lang).gettext
    return {
        "heading": str(_("The story of the game")),
        "ghost": str(_("You are dead: you see every card as the game goes on. Say nothing, "
                       "show nothing, until the game is over.")),
        "next": str(_("Next page of the story")),
        "open": str(_("The story")),
        # a ghost's story is closed until he opens it, and closes itself:
        # a glance at his phone from the next seat shows no card [issue 35]
        "ghost_open": str(_("Read the story so far (keep your screen to yourself)")),
    }


def season_words(lang: str) -> dict[str, str]:
    """The GM's history's words for a season [issue 35], in `lang`."""
    _ = catalog_for(lang).gettext
    return {
        "title": str(_("The season")),
        "from": str(_("From")), "to": str(_("To")),
        "csv": str(_("Export as CSV")),
        "record": str(_("The table's record: {games} games.")),
    }


def story_plain(told: dict) -> str:
    """A told story as plain text: each chapter's title, then its lines."""
    out = []
    for ch in told["chapters"]:
        out.append(ch["title"])
        out.extend(f"  {line['text']}" for line in ch["lines"])
        out.append("")
    return "\n".join(out).rstrip() + "\n"


class _Words:
    def __init__(self, lang: str, names: list[str]) -> None:
        self.lang, self.names = lang, names
        self.T: Any = catalog_for(lang)

    def _(self, msgid: str, **fields: object) -> str:
        return str(self.T.gettext(msgid)).format(**fields)

    def who(self, seat: object) -> str:
        if isinstance(seat, int) and 0 <= seat < len(self.names):
            return person(self.T, self.names[seat])
        return person(self.T, "?")

    def all(self, seats: list) -> str:
        return join_names(self.T, [self.names[s] if 0 <= s < len(self.names) else "?"
                                   for s in seats])

    def role(self, role: object) -> str:
        return role_name(str(role), self.lang)

    def prof(self, prof: object) -> str:
        return _translated("professions", self.lang).get(str(prof), str(prof))

    def sep(self) -> str:
        return "" if self.lang in ("ja", "zh_Hant") else " "

    def title(self, ch: dict) -> str:
        _, kind, n = self._, ch["kind"], ch["n"]
        if kind == "cast":
            return _("The cards")
        if kind == "night":
            return _("Night {n}", n=n)
        if kind == "day":
            return _("Day {n}", n=n)
        return _("The end")

    def called(self, steps: list[str]) -> str:
        _, comma = self._, self.comma()
        steps_said = comma.join(step_name(s, self.lang) for s in steps)
        return _("Called: {steps}.", steps=steps_said)

    def read(self, result: object) -> str:
        """A seer's or medium's answer: a card, or wolf/human (seer_sees=team)."""
        _ = self._
        if result == "wolf":
            return _("a werewolf")
        if result == "human":
            return _("human")
        return self.role(result)

    def entry(self, e: dict) -> str:  # noqa: C901 - one sentence per kind
        _, who, kind = self._, self.who, e["kind"]
        seat = e.get("seat")
        if kind == "card":
            if "profession" in e:
                return _("{name}: {role}, {profession}.", name=who(seat), role=self.role(e["role"]),
                         profession=self.prof(e["profession"]))
            return _("{name}: {role}.", name=who(seat), role=self.role(e["role"]))
        if kind == "centre":
            return _("In the centre: {cards}.", cards=self.roles(e["cards"]))
        if kind == "thief":
            if e["took"] is None:
                return _("The thief, {name}, kept his card (the centre held {cards}): "
                         "he plays as a villager.", name=who(seat), cards=self.roles(e["cards"]))
            text = _("The thief, {name}, took the {role} from the centre (it held {cards}).",
                     name=who(seat), role=self.role(e["took"]), cards=self.roles(e["cards"]))
            return text + (self.sep() + _("He had to: both were werewolves.")
                           if e.get("forced") else "")
        if kind == "lovers":
            a, b = e["targets"]
            text = _("Cupid, {name}, made {a} and {b} lovers.", name=who(seat), a=who(a),
                     b=who(b))
            if e.get("mixed"):
                text += self.sep() + _("They are on different sides: they win only as the "
                                       "last two alive.")
            return text
        if kind == "protect":
            if e["role"] == "knight":
                return _("The knight, {name}, guarded {target}.", name=who(seat),
                         target=who(e["target"]))
            return _("The defender, {name}, protected {target}.", name=who(seat),
                     target=who(e["target"]))
        if kind == "inspect":
            return _("The seer, {name}, looked at {target}: {result}.", name=who(seat),
                     target=who(e["target"]), result=self.read(e["result"]))
        if kind == "pack":
            return self.pack(e)
        if kind == "no-attack":
            return _("The werewolves did not attack tonight.")
        if kind == "spy":
            mode = _("discreetly") if e["mode"] == "discreet" else _("boldly")
            text = _("The little girl, {name}, spied {mode}.", name=who(seat), mode=mode)
            if e["outcome"] == "wolf":
                more = _("She saw a werewolf: {wolf}.", wolf=who(e.get("wolf")))
            elif e["outcome"] == "caught":
                more = _("The werewolves caught her.")
            else:
                more = _("She saw nothing.")
            return text + self.sep() + more
        if kind == "devour":
            return _("The white werewolf, {name}, devoured {target}.", name=who(seat),
                     target=who(e["target"]))
        if kind == "witch":
            parts = [_("The witch, {name}, was shown {victim}.", name=who(seat),
                       victim=who(e["shown"])) if e.get("shown") is not None else
                     _("The witch, {name}, was shown no victim.", name=who(seat))]
            if e["heal"]:
                parts.append(_("She healed {victim}.", victim=who(e["shown"])))
            if e.get("poison") is not None:
                parts.append(_("She poisoned {target}.", target=who(e["poison"])))
            if not e["heal"] and e.get("poison") is None:
                parts.append(_("She used no potion."))
            return self.sep().join(parts)
        if kind == "charm":
            return _("The piper, {name}, charmed {names}.", name=who(seat),
                     names=self.all(e["targets"]))
        if kind == "burn":
            return _("The pyromaniac, {name}, set fire to {target}'s {building}.",
                     name=who(seat), target=who(e["target"]),
                     building=_translated("buildings", self.lang).get(e["building"],
                                                                      e["building"]))
        if kind == "post":
            return _("The rumormonger, {name}, posted an accusation against {target}.",
                     name=who(seat), target=who(e["target"]))
        if kind == "baker":
            if e.get("wolf") is None:
                return _("The baker, {name}, learned nothing.", name=who(seat))
            return _("The baker, {name}, learned a werewolf: {wolf}.", name=who(seat),
                     wolf=who(e["wolf"]))
        if kind == "medium":
            return _("The medium, {name}, learned that {target} was {result}.", name=who(seat),
                     target=who(e["target"]), result=self.read(e["result"]))
        if kind == "ally":
            if e.get("named") is None:
                return _("The first dead, {name}, named nobody.", name=who(seat))
            if e.get("ally"):
                return _("The first dead, {name}, named {target}: the wolves' ally from now "
                         "on.", name=who(seat), target=who(e["named"]))
            return _("The first dead, {name}, named {target}: nothing happened.",
                     name=who(seat), target=who(e["named"]))
        if kind == "pass":
            if seat is None:
                return _("Nobody answered the call of the {role}.", role=self.role(e["role"]))
            if e["role"] == "little-girl":
                return _("The little girl, {name}, did not spy.", name=who(seat))
            if e.get("timeout"):  # the clock's, not a choice [issue 44 item 4]
                return _("{name} ({role}) did not act in time.", role=self.role(e["role"]),
                         name=who(seat))
            return _("{name} ({role}) did nothing.", role=self.role(e["role"]), name=who(seat))
        if kind == "dawn":
            return _("Dawn.")
        if kind == "spared":
            why, name = e["why"], who(seat)
            if why == "protected":
                return _("{name} was attacked, but was protected.", name=name)
            if why == "healed":
                return _("{name} was attacked, but the witch's potion saved them.", name=name)
            if why == "elder":
                return _("{name} was attacked, but the elder survives the first attack.",
                         name=name)
            if why == "fire":
                return _("{name} was attacked, but the fire turned the pack on its nearest "
                         "werewolf.", name=name)
            return _("{name} was attacked, but did not die.", name=name)
        if kind == "powers-lost":
            return _("The village killed the elder: the villagers' powers are lost.")
        if kind == "death" and e.get("tie_broken_by") == "sheriff":
            return _("{name} ({role}): executed: the sheriff's vote broke the tie.",
                     name=who(seat), role=self.role(e["role"]))
        if kind == "death":
            return _("{name} ({role}): {cause}.", name=who(seat), role=self.role(e["role"]),
                     cause=cause_name(e["cause"], self.lang))
        if kind == "shoot":
            if e.get("target") is None:
                return _("The hunter, {name}, shot nobody.", name=who(seat))
            return _("The hunter, {name}, shot {target}.", name=who(seat),
                     target=who(e["target"]))
        if kind == "turns":
            if e.get("defence"):
                return _("The candidates' defences, in turn: {names}.", names=self.all(e["order"]))
            return _("Speaking turns, clockwise: {names}.", names=self.all(e["order"]))
        if kind == "event":
            title = e.get("title")  # a text-only event's own title, in this language or any
            if isinstance(title, dict) and title:
                name = str(title.get(self.lang) or next(iter(title.values())))
            else:
                name = translate(EVENTS[e["card"]], self.lang) if e["card"] in EVENTS \
                    else e["card"]
            return _("Event card: {name}.", name=name)
        if kind == "tally":
            return self.tally(e)
        if kind == "drawn":
            return _("Drawn by lot among {names}: {name}.", names=self.all(e["among"]),
                     name=who(seat))
        if kind == "sheriff":
            return self.sheriff(e)
        if kind == "no-execution":
            return _("Nobody voted: nobody was executed today.") if e.get("ends_day") else \
                _("Nobody was executed.")
        if kind == "revealed":
            return _("{name} was the village idiot: spared, but may no longer vote.",
                     name=who(seat))
        if kind == "allow":
            targets = e.get("targets")
            who_votes = _("everyone") if targets is None else _("nobody") if not targets \
                else self.all(targets)
            return _("The scapegoat, {name}, chose who votes next day: {names}.",
                     name=who(seat), names=who_votes)
        if kind == "confess":
            return _("The confessor, {name}, saw {target}'s card: {result}.", name=who(seat),
                     target=who(e["target"]), result=self.read(e.get("result")))
        if kind == "shave":
            return _("The barber, {name}, shaved {target}.", name=who(seat),
                     target=who(e["target"]))
        if kind == "silence":
            return _("The schoolteacher, {name}, silenced {names}.", name=who(seat),
                     names=self.all(e["targets"]))
        if kind == "restore":
            return _("The bonesetter, {name}, restored the {power}'s power.", name=who(seat),
                     power=self.prof(e["power"]))
        if kind == "assign":
            return _("The steward, {name}, gave the {building} to {target}.", name=who(seat),
                     building=_translated("buildings", self.lang).get(e["building"],
                                                                      e["building"]),
                     target=who(e["target"]))
        if kind == "pardon":
            return _("The lord, {name}, pardoned {target}.", name=who(seat),
                     target=who(e.get("condemned")))
        if kind == "no-pardon":
            return _("The lord, {name}, let the execution of {target} go ahead.",
                     name=who(seat), target=who(e.get("condemned")))
        if kind == "keeper-lost":
            return _("The tavern keeper, {name}, lost her power.", name=who(seat))
        if kind == "over":
            return self.over(e)
        return ""

    def roles(self, roles: list) -> str:
        return self.comma().join(self.role(r) for r in roles)

    def comma(self) -> str:
        return str(self.T.pgettext("list", ", "))

    def pick(self, p: dict) -> str:
        _ = self._
        if p.get("target") is None:
            return _("{name} → nobody", name=self.who(p["seat"]))
        return _("{name} → {target}", name=self.who(p["seat"]), target=self.who(p["target"]))

    def count(self, seat: int, count: int) -> str:
        _ = self._
        return _("{name} {count}", name=self.who(seat), count=count)

    def pack(self, e: dict) -> str:
        _, who = self._, self.who
        picks = e.get("picks") or []
        said = self.comma().join(self.pick(p) for p in picks)
        if e.get("caught"):
            return _("The werewolves caught the little girl, {name}: she is their victim.",
                     name=who(e.get("target")))
        if e.get("target") is not None:
            if len(e["wolves"]) == 1:
                return _("The last werewolf, {name}, chose {target}.", name=who(e["wolves"][0]),
                         target=who(e["target"]))
            if e.get("rule") == "any-wolf":
                return _("The werewolves ({wolves}) chose {target}.", wolves=self.all(
                    e["wolves"]), target=who(e["target"]))
            return _("The werewolves ({wolves}) agreed on {target}.", wolves=self.all(
                e["wolves"]), target=who(e["target"]))
        if not picks:
            return _("The werewolves ({wolves}) chose nobody.", wolves=self.all(e["wolves"]))
        return _("The werewolves did not agree ({picks}): nobody was attacked.", picks=said)

    def head(self, e: dict) -> str:
        """A tally's title: the election, the vote or its runoff."""
        _ = self._
        if e["step"] == "election":
            return _("Sheriff election") if e["round"] == 1 else _("Sheriff election, "
                                                                   "second round")
        if e.get("nominees") and e["round"] > 1:  # vote_mode=candidates (RULES.md §6)
            if e["round"] == 2:
                return _("The vote among the candidates")
            return _("Runoff {k}", k=e["round"] - 2)
        if e["round"] > 1:
            return _("Runoff {k}", k=e["round"] - 1)
        return _("Vote")

    def counted(self, e: dict) -> str:
        counts = sorted(((int(s), c) for s, c in e["counts"].items()),
                        key=lambda kv: (-kv[1], kv[0]))
        return self.comma().join(self.count(s, c) for s, c in counts)

    def tally_said(self, e: dict) -> str:
        """A tally as the narration says it: the counts, not every ballot
        (as the table's voice says a tally, issue 29's "say less")."""
        _ = self._
        if not e["counts"]:
            return _("{vote}: nobody voted.", vote=self.head(e))
        text = _("{vote}: {ballots}.", vote=self.head(e), ballots=self.counted(e))
        if e.get("tie"):
            text += self.sep() + _("Tie between {names}.", names=self.all(e["tie"]))
        return text

    def tally(self, e: dict) -> str:
        _, who, head = self._, self.who, self.head(e)
        ballots = []
        for b in e["ballots"]:
            if b.get("timeout") and b.get("target") is None:  # the clock's, not a choice
                ballots.append(_("{name} did not vote in time", name=who(b["voter"])))
            elif b.get("timeout"):
                ballots.append(_("{name} did not vote in time: → {target}", name=who(b["voter"]),
                                 target=who(b["target"])))
            elif b.get("target") is None:
                ballots.append(_("{name} abstained", name=who(b["voter"])))
            elif b.get("weight", 1) > 1:
                ballots.append(_("{name} → {target} (×{weight}, the sheriff)",
                                 name=who(b["voter"]), target=who(b["target"]),
                                 weight=b["weight"]))
            else:
                ballots.append(_("{name} → {target}", name=who(b["voter"]),
                                 target=who(b["target"])))
        for x in e.get("extra") or []:
            ballots.append(_("the rumour → {target} (+{votes})", target=who(x["target"]),
                             votes=x["votes"]))
        if not ballots:
            return _("{vote}: nobody voted.", vote=head)
        said = self.comma().join(ballots)
        text = _("{vote}: {ballots}.", vote=head, ballots=said)
        if e["counts"]:
            text += self.sep() + _("Count: {counts}.", counts=self.counted(e))
        else:  # every ballot the clock's, none counted (RULES.md §6 Decision r5)
            text += self.sep() + _("No vote was counted.")
        if e.get("tie"):
            text += self.sep() + _("Tie between {names}.", names=self.all(e["tie"]))
        if e.get("nominees") and e["round"] == 1:  # vote_mode=candidates' first round
            text += self.sep() + _("Candidates: {names}.", names=self.all(e["nominees"]))
        return text

    def sheriff(self, e: dict) -> str:
        _, who, how = self._, self.who, e["how"]
        if how == "elected":
            return _("{name} was elected sheriff.", name=who(e["seat"]))
        if how == "drawn":
            return _("{name} became sheriff by lot.", name=who(e["seat"]))
        if how == "none":
            return _("Nobody was elected: there is no sheriff.")
        if how == "appointed":
            return _("The dying sheriff, {by}, passed the badge to {name}.", by=who(e.get("by")),
                     name=who(e["seat"]))
        if how == "default":
            return _("The dying sheriff, {by}, named nobody: the badge went to {name}.",
                     by=who(e.get("by")), name=who(e["seat"]))
        if how == "idiot":  # RULES.md §6 [002]: a revealed idiot names no successor
            return _("The sheriff was the revealed village idiot: the badge left the game "
                     "with him.")
        return _("Nobody was left to take the sheriff's badge.")

    def over(self, e: dict) -> str:
        _, why = self._, e.get("why")
        if why == "three-ties":
            parts = [_("Three tied votes in a row at half power: the game is a draw.")]
        elif why == "parity":
            parts = [_("The werewolves are as many as the others: the werewolves win.")]
        else:
            a = {"winner": e["winner"], "winners": []}
            parts = _over(self.T, a, self.names, why == "fox-wolves")
        if e.get("winners"):
            parts.append(_("Winners: {names}.", names=self.all(e["winners"])))
        ally = e.get("ally")
        if ally is not None:  # New Moon's wolves' ally (RULES.md §10) [issue 44]
            parts.append(_("The wolves' ally, {name}, won with them.", name=self.who(ally))
                         if ally in (e.get("winners") or ()) else
                         _("The wolves' ally, {name}, lost with them.", name=self.who(ally)))
        return self.sep().join(parts)
