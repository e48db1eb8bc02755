"""The public announcements [issue 6] (RULES.md §9): what the table is
told, folded from the log, one small handler per kind of event.

    announcements(state)          # [{"kind", "time", ...}], in order
    shared_announcements(state)   # the same, read-only, folded again only when needed

The entries are data (seats, names, causes); what each says in words is
companion/words/announce.py's (`ANNOUNCED`).
"""

from __future__ import annotations

from collections.abc import Callable

from ..options import ANNOUNCE_POTIONS, REVEAL_ON_DEATH
from . import event_cards
from .kernel import PUBLIC_CAUSES
from .state import State

#: the events `announcements` reads; a log that grew by others only is
#: announced as it was (an "act" is read for these powers only)
_ANNOUNCED = frozenset({"night", "day", "resolve", "died", "step", "tally", "burned",
                        "revealed", "sheriff", "over", "event"})
_ANNOUNCED_ACTS = frozenset({"post", "silence", "pardon"})


def shared_announcements(state: State) -> list[dict]:
    """`announcements`, read-only: the same list until an event it reads is
    logged (State.memo_ann), so the hub, which asks after every action, folds
    the whole log again only then, and tells it unchanged by identity."""
    log = state.log
    seen, got = state.memo_ann
    if got is None or seen > len(log) or any(
            e["e"] in _ANNOUNCED or (e["e"] == "act" and e["do"] in _ANNOUNCED_ACTS)
            for e in log[seen:]):
        got = announcements(state)
    state.memo_ann = (len(log), got)
    return got


def announcements(state: State) -> list[dict]:
    """The public announcements so far, in order (for the display and the table
    page), folded from the log. Each is JSON-ready with "kind" and "time"
    ("night 1", "day 2"); the list's order is their order. They carry no action
    count: the number of actions behind a dawn would tell how many night
    actions were taken.

    - "dawn": {"n", "deaths"}: one per dawn; "deaths" are the night's deaths
      of undisclosed cause in seat order, each {"seat", "name", "role", "cause"}
      ("role" only with `reveal_on_death`, "cause" only if public, else None);
      [] is a peaceful morning. With `announce_potions` [000] (RULES.md §5
      witch), a dawn after a night the witch used a potion also carries
      "potions": {"heal": bool, "poison": bool} (that she used it, never on whom).
    - "death": {"seat", "name", "role", "cause"}: any other death (execution,
      hunter's shot, scapegoat, heartbreak after them, day deaths), in order.
    - "tally": {"step", "round", "votes", "counts", "top", "tie", "ballots",
      "extra"}: a closed vote; "ballots" and "extra" say how "counts" were made
      (each ballot's weight: the sheriff's 2; the rumormonger's two posted votes);
      `vote_mode=candidates`' first round adds "nominees", the candidates it
      named (RULES.md §6; it is never a tie).
    - "revealed": {"seat", "name", "role": "village-idiot"}: an idiot voted out.
    - "sheriff": {"seat", "how"}: elected, drawn, none, appointed, default, died.
    - "no-execution": a vote closed and nobody is executed.
    - "event": {"card", "n", "source"} (+ "title", "text" for a text-only
      event): New Moon's event card turned at day n's dawn (RULES.md §10).
    - "over": {"winner", "winners", "reveal"}: "reveal" is every card by seat.

    The Village (RULES.md §8): a dawn also carries "burned" (the buildings
    that burned that night, each {"seat", "name", "building"}) and "poster"
    (the seat accused by the night's poster), when there are any; and
    - "silence": {"seat", "name", "targets"}: the schoolteacher silences;
    - "pardon": {"seat", "name", "condemned"}: the lord cancels an execution.

    It reveals exactly what `public_view` does, no more: nothing is announced
    during the night's secret steps (RULES.md §4), deaths are grouped and
    ordered as in `public_view(state)["deaths"]` (RULES.md §6)."""
    crier = _Crier(state)
    for i, e in enumerate(state.log):
        told = _HEARD.get(e["e"])
        if told is not None:
            told(crier, i, e)
    crier.flush()
    return crier.out


def _tally_fields(log: list[dict], index: int, sheriff: int | None = -1) -> dict:
    """The public fields of the "tally" event at `log[index]`: "step",
    "round", "votes", "counts", "top", "tie", and how the counts were made,
    "ballots" and "extra" (CONTRACTS C1). Games logged before the event
    carried those two get them derived from its "votes", the sheriff then
    (`sheriff`; -1: found in the log) and its "poster", as the engine counted
    them (votes._tally)."""
    e = log[index]
    out = {k: e[k] for k in ("step", "round", "votes", "counts", "top")}
    out["tie"] = e.get("tie")
    if "nominees" in e:  # vote_mode=candidates' first round (RULES.md §6)
        out["nominees"] = e["nominees"]
    if "ballots" in e:
        out["ballots"], out["extra"] = e["ballots"], e["extra"]
        return out
    if sheriff == -1:
        sheriff = next((log[j]["seat"] for j in range(index - 1, -1, -1)
                        if log[j]["e"] == "sheriff"), None)
    double = sheriff if e["step"] == "vote" else None
    out["ballots"] = [{"voter": int(k), "target": t, "weight": 2 if int(k) == double else 1}
                      for k, t in sorted(e["votes"].items(), key=lambda kv: int(kv[0]))]
    poster = e.get("poster")
    out["extra"] = [] if poster is None else [{"source": "poster", "target": poster, "votes": 2}]
    return out


def _building_at(state: State, index: int, seat: int) -> str:
    """The building that burned at log[index]: the one recorded in state.burned."""
    k = sum(1 for e in state.log[:index] if e["e"] == "burned")
    return state.burned[k][1] if k < len(state.burned) else state.prof[seat]


class _Crier:
    """One fold of the log into announcements: the night's deaths wait for
    their dawn, the fires, poster and potions for theirs."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.reveal = REVEAL_ON_DEATH.of(state.opts)
        self.potions = ANNOUNCE_POTIONS.of(state.opts)  # told at dawn [000] (§5 witch)
        self.out: list[dict] = []
        self.time = ""
        self.batch: list[dict] = []  # night deaths of undisclosed cause, not yet announced
        self.dawn: dict | None = None  # the dawn whose deaths are being gathered
        self.fires: list[dict] = []  # The Village: tonight's burned buildings
        self.poster: int | None = None  # and tonight's accusation
        self.condemned: int | None = None
        self.sheriff: int | None = None  # for the ballots' weights of tallies logged without
        self.used: dict[str, bool] = {}  # tonight's potions, for the dawn

    def say(self, entry: dict) -> None:
        """An announcement now: what waited for a dawn is told first."""
        self.flush()
        self.out.append(entry)

    def flush(self) -> None:
        self.batch.sort(key=lambda d: d["seat"])
        if self.dawn is not None:
            self.dawn["deaths"] = [{k: d[k] for k in ("seat", "name", "role", "cause")}
                                   for d in self.batch]
            self.out.append(self.dawn)
        else:
            self.out.extend(self.batch)
        self.dawn, self.batch = None, []

    def death(self, e: dict) -> dict:
        s, seat, cause = self.state, e["seat"], e["cause"]
        return {"kind": "death", "time": e["time"], "seat": seat, "name": s.names[seat],
                "role": s.roles[seat] if self.reveal else None,
                "cause": cause if cause in PUBLIC_CAUSES else None}

    def period(self, i: int, e: dict) -> None:
        self.flush()
        self.time = f"{e['e']} {e['n']}"
        if e["e"] == "night":
            self.fires, self.poster, self.used = [], None, {}

    def resolve(self, i: int, e: dict) -> None:
        log = self.state.log
        if e["then"] == "day":
            self.flush()
            dawn = {"kind": "dawn", "time": self.time, "n": int(self.time.split()[1]),
                    "deaths": []}
            if self.used:
                dawn["potions"] = {"heal": self.used.get("heal", False),
                                   "poison": self.used.get("poison", False)}
            if self.fires:
                dawn["burned"] = self.fires
            if self.poster is not None:
                dawn["poster"] = self.poster
            self.dawn = dawn
        elif i + 1 == len(log) or log[i + 1]["e"] not in ("died", "revealed"):
            self.say({"kind": "no-execution", "time": self.time})

    def died(self, i: int, e: dict) -> None:
        entry = self.death(e)
        if e["cause"] not in PUBLIC_CAUSES and e["time"].startswith("night"):
            self.batch.append(entry)
        else:
            self.say(entry)

    def step(self, i: int, e: dict) -> None:
        self.flush()
        self.condemned = e.get("condemned", self.condemned)  # the lord's pardon prompt

    def tally(self, i: int, e: dict) -> None:
        self.say({"kind": "tally", "time": self.time,
                  **_tally_fields(self.state.log, i, self.sheriff)})

    def burned(self, i: int, e: dict) -> None:
        seat = e["seat"]
        self.fires.append({"seat": seat, "name": self.state.names[seat],
                           "building": _building_at(self.state, i, seat)})

    def act(self, i: int, e: dict) -> None:
        do = e["do"]
        if do == "post":
            self.poster = e["target"]
        elif do == "potion" and self.potions:
            if e["heal"]:
                self.used["heal"] = True
            if e["poison"] is not None:
                self.used["poison"] = True
        elif do in ("silence", "pardon"):
            seat = e["actor"]
            entry = {"kind": do, "time": self.time, "seat": seat, "name": self.state.names[seat]}
            if do == "silence":
                entry["targets"] = list(e["targets"])
            else:
                entry["condemned"] = self.condemned
            self.say(entry)

    def event(self, i: int, e: dict) -> None:
        self.flush()
        entry = {"kind": "event", "time": self.time, "card": e["card"], "n": e["n"],
                 "source": event_cards.card(e["card"]).source}  # type: ignore[union-attr]
        text = event_cards.texts(self.state.opts).get(e["card"])
        if text is not None:
            entry["title"], entry["text"] = dict(text["title"]), dict(text["text"])
        self.out.append(entry)

    def revealed(self, i: int, e: dict) -> None:
        self.say({"kind": "revealed", "time": self.time, "seat": e["seat"],
                  "name": self.state.names[e["seat"]], "role": "village-idiot"})

    def sheriff_(self, i: int, e: dict) -> None:
        self.flush()
        self.sheriff = e["seat"]
        self.out.append({"kind": "sheriff", "time": self.time, "seat": e["seat"],
                         "how": e["how"]})

    def over(self, i: int, e: dict) -> None:
        self.say({"kind": "over", "time": self.time, "winner": e["winner"],
                  "winners": list(e["winners"]), "reveal": list(self.state.roles)})


#: each event kind `announcements` reads, and what it does to the fold
_HEARD: dict[str, Callable[[_Crier, int, dict], None]] = {
    "night": _Crier.period, "day": _Crier.period, "resolve": _Crier.resolve,
    "died": _Crier.died, "step": _Crier.step, "tally": _Crier.tally, "burned": _Crier.burned,
    "act": _Crier.act, "event": _Crier.event, "revealed": _Crier.revealed,
    "sheriff": _Crier.sheriff_, "over": _Crier.over,
}
