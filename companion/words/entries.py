"""What each story entry says [issue 45]: one small function per kind of
`engine.story`'s entries, in one table (`STORY`), each writing the entry's
sentence in the game's language with the players' names.

    w = Speaker("ja", names)
    said(w, {"kind": "death", "seat": 2, "role": "seer", "cause": "execution", ...})

The story (companion/words/story.py) tells every entry through `said`; the
table's announcements are companion/words/announce.py's table (`ANNOUNCED`),
the same shape for the entries the table hears. Adding a kind of entry is
one function and one row here. Every sentence is a gettext message.
"""

from __future__ import annotations

from collections.abc import Callable

from .announce import _over
from .names import EVENTS, N_, cause_name, translate
from .speaker import Speaker

Say = Callable[[Speaker, dict], str]


def said(w: Speaker, e: dict) -> str:
    """The entry's sentence ("" for an entry that says nothing alone: the
    elder's wound, told by "spared")."""
    say = STORY.get(e["kind"])
    return say(w, e) if say is not None else ""


# --- the cast and the night -------------------------------------------------------

def _card(w: Speaker, e: dict) -> str:
    if "profession" in e:
        return w._("{name}: {role}, {profession}.", name=w.who(e.get("seat")),
                   role=w.role(e["role"]), profession=w.prof(e["profession"]))
    return w._("{name}: {role}.", name=w.who(e.get("seat")), role=w.role(e["role"]))


def _centre(w: Speaker, e: dict) -> str:
    return w._("In the centre: {cards}.", cards=w.roles(e["cards"]))


def _thief(w: Speaker, e: dict) -> str:
    name = w.who(e.get("seat"))
    if e["took"] is None:
        return w._("The thief, {name}, kept his card (the centre held {cards}): "
                   "he plays as a villager.", name=name, cards=w.roles(e["cards"]))
    text = w._("The thief, {name}, took the {role} from the centre (it held {cards}).",
               name=name, role=w.role(e["took"]), cards=w.roles(e["cards"]))
    return text + (w.sep() + w._("He had to: both were werewolves.") if e.get("forced") else "")


def _lovers(w: Speaker, e: dict) -> str:
    a, b = e["targets"]
    text = w._("Cupid, {name}, made {a} and {b} lovers.", name=w.who(e.get("seat")), a=w.who(a),
               b=w.who(b))
    if e.get("mixed"):
        text += w.sep() + w._("They are on different sides: they win only as the last two "
                              "alive.")
    return text


def _protect(w: Speaker, e: dict) -> str:
    if e["role"] == "knight":
        return w._("The knight, {name}, guarded {target}.", name=w.who(e.get("seat")),
                   target=w.who(e["target"]))
    return w._("The defender, {name}, protected {target}.", name=w.who(e.get("seat")),
               target=w.who(e["target"]))


def _inspect(w: Speaker, e: dict) -> str:
    return w._("The seer, {name}, looked at {target}: {result}.", name=w.who(e.get("seat")),
               target=w.who(e["target"]), result=w.read(e["result"]))


def _pick(w: Speaker, p: dict) -> str:
    if p.get("target") is None:
        return w._("{name} → nobody", name=w.who(p["seat"]))
    return w._("{name} → {target}", name=w.who(p["seat"]), target=w.who(p["target"]))


def _pack(w: Speaker, e: dict) -> str:
    picks = e.get("picks") or []
    if e.get("caught"):
        return w._("The werewolves caught the little girl, {name}: she is their victim.",
                   name=w.who(e.get("target")))
    if e.get("target") is not None:
        if len(e["wolves"]) == 1:
            return w._("The last werewolf, {name}, chose {target}.", name=w.who(e["wolves"][0]),
                       target=w.who(e["target"]))
        if e.get("rule") == "any-wolf":
            return w._("The werewolves ({wolves}) chose {target}.", wolves=w.all(e["wolves"]),
                       target=w.who(e["target"]))
        return w._("The werewolves ({wolves}) agreed on {target}.", wolves=w.all(e["wolves"]),
                   target=w.who(e["target"]))
    if not picks:
        return w._("The werewolves ({wolves}) chose nobody.", wolves=w.all(e["wolves"]))
    said_picks = w.comma().join(_pick(w, p) for p in picks)
    return w._("The werewolves did not agree ({picks}): nobody was attacked.", picks=said_picks)


def _spy(w: Speaker, e: dict) -> str:
    mode = w._("discreetly") if e["mode"] == "discreet" else w._("boldly")
    text = w._("The little girl, {name}, spied {mode}.", name=w.who(e.get("seat")), mode=mode)
    if e["outcome"] == "wolf":
        more = w._("She saw a werewolf: {wolf}.", wolf=w.who(e.get("wolf")))
    elif e["outcome"] == "caught":
        more = w._("The werewolves caught her.")
    else:
        more = w._("She saw nothing.")
    return text + w.sep() + more


def _devour(w: Speaker, e: dict) -> str:
    return w._("The white werewolf, {name}, devoured {target}.", name=w.who(e.get("seat")),
               target=w.who(e["target"]))


def _witch(w: Speaker, e: dict) -> str:
    name = w.who(e.get("seat"))
    parts = [w._("The witch, {name}, was shown {victim}.", name=name, victim=w.who(e["shown"]))
             if e.get("shown") is not None else
             w._("The witch, {name}, was shown no victim.", name=name)]
    if e["heal"]:
        parts.append(w._("She healed {victim}.", victim=w.who(e["shown"])))
    if e.get("poison") is not None:
        parts.append(w._("She poisoned {target}.", target=w.who(e["poison"])))
    if not e["heal"] and e.get("poison") is None:
        parts.append(w._("She used no potion."))
    return w.sep().join(parts)


def _charm(w: Speaker, e: dict) -> str:
    return w._("The piper, {name}, charmed {names}.", name=w.who(e.get("seat")),
               names=w.all(e["targets"]))


def _burn(w: Speaker, e: dict) -> str:
    return w._("The pyromaniac, {name}, set fire to {target}'s {building}.",
               name=w.who(e.get("seat")), target=w.who(e["target"]),
               building=w.building(e["building"]))


def _post(w: Speaker, e: dict) -> str:
    return w._("The rumormonger, {name}, posted an accusation against {target}.",
               name=w.who(e.get("seat")), target=w.who(e["target"]))


def _baker(w: Speaker, e: dict) -> str:
    if e.get("wolf") is None:
        return w._("The baker, {name}, learned nothing.", name=w.who(e.get("seat")))
    return w._("The baker, {name}, learned a werewolf: {wolf}.", name=w.who(e.get("seat")),
               wolf=w.who(e["wolf"]))


def _medium(w: Speaker, e: dict) -> str:
    return w._("The medium, {name}, learned that {target} was {result}.",
               name=w.who(e.get("seat")), target=w.who(e["target"]), result=w.read(e["result"]))


def _ally(w: Speaker, e: dict) -> str:
    name = w.who(e.get("seat"))
    if e.get("named") is None:
        return w._("The first dead, {name}, named nobody.", name=name)
    if e.get("ally"):
        return w._("The first dead, {name}, named {target}: the wolves' ally from now on.",
                   name=name, target=w.who(e["named"]))
    return w._("The first dead, {name}, named {target}: nothing happened.", name=name,
               target=w.who(e["named"]))


def _pass(w: Speaker, e: dict) -> str:
    seat = e.get("seat")
    if seat is None:
        return w._("Nobody answered the call of the {role}.", role=w.role(e["role"]))
    if e["role"] == "little-girl":
        return w._("The little girl, {name}, did not spy.", name=w.who(seat))
    if e.get("timeout"):  # the clock's, not a choice [issue 44 item 4]
        return w._("{name} ({role}) did not act in time.", role=w.role(e["role"]),
                   name=w.who(seat))
    return w._("{name} ({role}) did nothing.", role=w.role(e["role"]), name=w.who(seat))


#: why the pack's victim lived ("spared"), each its sentence
_SPARED = {
    "protected": N_("{name} was attacked, but was protected."),
    "healed": N_("{name} was attacked, but the witch's potion saved them."),
    "elder": N_("{name} was attacked, but the elder survives the first attack."),
    "fire": N_("{name} was attacked, but the fire turned the pack on its nearest werewolf."),
}
_SPARED_ELSE = N_("{name} was attacked, but did not die.")


def _spared(w: Speaker, e: dict) -> str:
    return w._(_SPARED.get(e["why"], _SPARED_ELSE),
               name=w.who(e.get("seat")))


# --- deaths and the day -------------------------------------------------------------

def _death(w: Speaker, e: dict) -> str:
    if e.get("tie_broken_by") == "sheriff":
        return w._("{name} ({role}): executed: the sheriff's vote broke the tie.",
                   name=w.who(e.get("seat")), role=w.role(e["role"]))
    return w._("{name} ({role}): {cause}.", name=w.who(e.get("seat")), role=w.role(e["role"]),
               cause=cause_name(e["cause"], w.lang))


def _shoot(w: Speaker, e: dict) -> str:
    if e.get("target") is None:
        return w._("The hunter, {name}, shot nobody.", name=w.who(e.get("seat")))
    return w._("The hunter, {name}, shot {target}.", name=w.who(e.get("seat")),
               target=w.who(e["target"]))


def _turns(w: Speaker, e: dict) -> str:
    if e.get("defence"):
        return w._("The candidates' defences, in turn: {names}.", names=w.all(e["order"]))
    return w._("Speaking turns, clockwise: {names}.", names=w.all(e["order"]))


def _event(w: Speaker, e: dict) -> str:
    title = e.get("title")  # a text-only event's own title, in this language or any
    if isinstance(title, dict) and title:
        name = str(title.get(w.lang) or next(iter(title.values())))
    else:
        name = translate(EVENTS[e["card"]], w.lang) if e["card"] in EVENTS else e["card"]
    return w._("Event card: {name}.", name=name)


def _drawn(w: Speaker, e: dict) -> str:
    return w._("Drawn by lot among {names}: {name}.", names=w.all(e["among"]),
               name=w.who(e.get("seat")))


def _no_execution(w: Speaker, e: dict) -> str:
    return w._("Nobody voted: nobody was executed today.") if e.get("ends_day") else \
        w._("Nobody was executed.")


def _revealed(w: Speaker, e: dict) -> str:
    return w._("{name} was the village idiot: spared, but may no longer vote.",
               name=w.who(e.get("seat")))


def _allow(w: Speaker, e: dict) -> str:
    targets = e.get("targets")
    who_votes = w._("everyone") if targets is None else w._("nobody") if not targets \
        else w.all(targets)
    return w._("The scapegoat, {name}, chose who votes next day: {names}.",
               name=w.who(e.get("seat")), names=who_votes)


def _confess(w: Speaker, e: dict) -> str:
    return w._("The confessor, {name}, saw {target}'s card: {result}.", name=w.who(e.get("seat")),
               target=w.who(e["target"]), result=w.read(e.get("result")))


def _shave(w: Speaker, e: dict) -> str:
    return w._("The barber, {name}, shaved {target}.", name=w.who(e.get("seat")),
               target=w.who(e["target"]))


def _silence(w: Speaker, e: dict) -> str:
    return w._("The schoolteacher, {name}, silenced {names}.", name=w.who(e.get("seat")),
               names=w.all(e["targets"]))


def _restore(w: Speaker, e: dict) -> str:
    return w._("The bonesetter, {name}, restored the {power}'s power.", name=w.who(e.get("seat")),
               power=w.prof(e["power"]))


def _assign(w: Speaker, e: dict) -> str:
    return w._("The steward, {name}, gave the {building} to {target}.", name=w.who(e.get("seat")),
               building=w.building(e["building"]), target=w.who(e["target"]))


def _pardon(w: Speaker, e: dict) -> str:
    return w._("The lord, {name}, pardoned {target}.", name=w.who(e.get("seat")),
               target=w.who(e.get("condemned")))


def _no_pardon(w: Speaker, e: dict) -> str:
    return w._("The lord, {name}, let the execution of {target} go ahead.",
               name=w.who(e.get("seat")), target=w.who(e.get("condemned")))


# --- the votes ------------------------------------------------------------------------

def head(w: Speaker, e: dict) -> str:
    """A tally's title: the election, the vote or its runoff."""
    if e["step"] == "election":
        return w._("Sheriff election") if e["round"] == 1 else \
            w._("Sheriff election, second round")
    if e.get("nominees") and e["round"] > 1:  # vote_mode=candidates (RULES.md §6)
        if e["round"] == 2:
            return w._("The vote among the candidates")
        return w._("Runoff {k}", k=e["round"] - 2)
    if e["round"] > 1:
        return w._("Runoff {k}", k=e["round"] - 1)
    return w._("Vote")


def _counted(w: Speaker, e: dict) -> str:
    counts = sorted(((int(s), c) for s, c in e["counts"].items()),
                    key=lambda kv: (-kv[1], kv[0]))
    return w.comma().join(w._("{name} {count}", name=w.who(s), count=c) for s, c in counts)


def tally_said(w: Speaker, e: dict) -> str:
    """A tally as the narration says it: the counts, not every ballot (as
    the table's voice says a tally, issue 29's "say less")."""
    if not e["counts"]:
        return w._("{vote}: nobody voted.", vote=head(w, e))
    text = w._("{vote}: {ballots}.", vote=head(w, e), ballots=_counted(w, e))
    if e.get("tie"):
        text += w.sep() + w._("Tie between {names}.", names=w.all(e["tie"]))
    return text


def _ballot(w: Speaker, b: dict) -> str:
    voter = w.who(b["voter"])
    if b.get("timeout") and b.get("target") is None:  # the clock's, not a choice
        return w._("{name} did not vote in time", name=voter)
    if b.get("timeout"):
        return w._("{name} did not vote in time: → {target}", name=voter, target=w.who(b["target"]))
    if b.get("target") is None:
        return w._("{name} abstained", name=voter)
    if b.get("weight", 1) > 1:
        return w._("{name} → {target} (×{weight}, the sheriff)", name=voter,
                   target=w.who(b["target"]), weight=b["weight"])
    return w._("{name} → {target}", name=voter, target=w.who(b["target"]))


def _tally(w: Speaker, e: dict) -> str:
    ballots = [_ballot(w, b) for b in e["ballots"]]
    ballots += [w._("the rumour → {target} (+{votes})", target=w.who(x["target"]),
                    votes=x["votes"]) for x in e.get("extra") or []]
    if not ballots:
        return w._("{vote}: nobody voted.", vote=head(w, e))
    parts = [w._("{vote}: {ballots}.", vote=head(w, e), ballots=w.comma().join(ballots))]
    if e["counts"]:
        parts.append(w._("Count: {counts}.", counts=_counted(w, e)))
    else:  # every ballot the clock's, none counted (RULES.md §6 Decision r5)
        parts.append(w._("No vote was counted."))
    if e.get("tie"):
        parts.append(w._("Tie between {names}.", names=w.all(e["tie"])))
    if e.get("nominees") and e["round"] == 1:  # vote_mode=candidates' first round
        parts.append(w._("Candidates: {names}.", names=w.all(e["nominees"])))
    return w.sep().join(parts)


#: how the badge passed, each its sentence ({name} the new sheriff, {by} the dying one)
_SHERIFF = {
    "elected": N_("{name} was elected sheriff."),
    "drawn": N_("{name} became sheriff by lot."),
    "none": N_("Nobody was elected: there is no sheriff."),
    "appointed": N_("The dying sheriff, {by}, passed the badge to {name}."),
    "default": N_("The dying sheriff, {by}, named nobody: the badge went to {name}."),
    # RULES.md §6 [002]: a revealed idiot names no successor
    "idiot": N_("The sheriff was the revealed village idiot: the badge left the game with him."),
}
_SHERIFF_ELSE = N_("Nobody was left to take the sheriff's badge.")


def _sheriff(w: Speaker, e: dict) -> str:
    return w._(_SHERIFF.get(e["how"], _SHERIFF_ELSE),
               name=w.who(e["seat"]), by=w.who(e.get("by")))


def _over_said(w: Speaker, e: dict) -> str:
    why = e.get("why")
    if why == "three-ties":
        parts = [w._("Three tied votes in a row at half power: the game is a draw.")]
    elif why == "parity":
        parts = [w._("The werewolves are as many as the others: the werewolves win.")]
    else:
        parts = _over(w.T, {"winner": e["winner"], "winners": []}, w.names, why == "fox-wolves")
    if e.get("winners"):
        parts.append(w._("Winners: {names}.", names=w.all(e["winners"])))
    ally = e.get("ally")
    if ally is not None:  # New Moon's wolves' ally (RULES.md §10) [issue 44]
        parts.append(w._("The wolves' ally, {name}, won with them.", name=w.who(ally))
                     if ally in (e.get("winners") or ()) else
                     w._("The wolves' ally, {name}, lost with them.", name=w.who(ally)))
    return w.sep().join(parts)


def _fixed(msgid: str) -> Say:
    """An entry whose sentence names nobody."""
    return lambda w, e: w._(msgid)


#: every kind of story entry and its sentence (engine/story.py makes the entries)
STORY: dict[str, Say] = {
    "card": _card, "centre": _centre, "thief": _thief, "lovers": _lovers,
    "protect": _protect, "inspect": _inspect, "pack": _pack,
    "no-attack": _fixed(N_("The werewolves did not attack tonight.")),
    "spy": _spy, "devour": _devour, "witch": _witch, "charm": _charm, "burn": _burn,
    "post": _post, "baker": _baker, "medium": _medium, "ally": _ally, "pass": _pass,
    "dawn": _fixed(N_("Dawn.")), "spared": _spared,
    "powers-lost": _fixed(N_("The village killed the elder: the villagers' powers are lost.")),
    "death": _death, "shoot": _shoot, "turns": _turns, "event": _event, "tally": _tally,
    "drawn": _drawn, "sheriff": _sheriff, "no-execution": _no_execution,
    "revealed": _revealed, "allow": _allow, "confess": _confess, "shave": _shave,
    "silence": _silence, "restore": _restore, "assign": _assign, "pardon": _pardon,
    "no-pardon": _no_pardon,
    "keeper-lost": lambda w, e: w._("The tavern keeper, {name}, lost her power.",
                                    name=w.who(e.get("seat"))),
    "over": _over_said,
}
