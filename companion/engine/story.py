"""The story of a game [issue 35]: what happened, night by night and day by
day, every card and every ballot, built once from the log.

    story(state)                 # {"over", "chapters": [{"kind", "n", "entries"}]}
    story_for(state, seat)       # the story if `seat` may read it now, else None
    seats_of(entry)              # the seats an entry is about (a phone's own part)

`story` is a pure function of the log, beside `view_for`: it folds the log
into a fresh state event by event, so each entry names the cards as they
were at that moment (a thief's new card, a burned building). Entries are
JSON-ready dicts with a "kind" and seats; the words (companion/words/story.py)
say them in the game's language.

Who may read it is decided here and nowhere else (`story_for`): the game
master always; everyone once the game is over; before that only a dead
player, and only with the `ghosts` option (RULES.md §1: the dead stay
silent). A living seat and the table never read a word of it before the
end (tests/engine/test_story.py, tests/hub/test_story_secrecy.py).
"""

from __future__ import annotations

from collections.abc import Callable

from ..options import GHOSTS, TIE, WOLF_ATTACK, WOLVES_WIN
from .event_cards import texts
from .kernel import mixed_lovers, together_steps
from .roles import ROLES
from .state import TOGETHER, State, apply
from .steps import night_calls, pending

#: the card a night step calls, where a timeout there is told as a pass
STEP_ROLE_OF = {"cupid": "cupid", "defender": "defender", "seer": "seer", "knight": "knight",
                "white-werewolf": "white-werewolf", "witch": "witch", "piper": "piper",
                "pyromaniac": "pyromaniac", "rumormonger": "rumormonger"}
#: day powers (The Village, RULES.md §8) and prompts told as they were used
_DAY_ACTS = ("confess", "shave", "silence", "restore", "assign", "pardon")


def story_for(state: State, seat: int | None, shown: bool = True) -> dict | None:
    """The story, if `seat` may read it now (None: the game master, who
    always may); else None. Before the end only a dead player reads it, and
    only with the `ghosts` option; the table's public view never holds it
    (the table reads it through `readable(state, "public")`)."""
    if not readable(state, seat, shown):
        return None
    return story(state)


def readable(state: State, seat: int | None | str, shown: bool = True) -> bool:
    """Whether `seat` may read the story now: the GM (None) always; "public"
    (the table, anyone) and every seat once the game is over *and its end
    has been shown* (`shown`: the hub's table tells the end at the step's
    boundary — a deciding attack at night ends the log before the dawn is
    told [issue 40]); a dead seat before that with `ghosts` on."""
    if seat is None or (shown and state.phase == "over"):
        return True
    if not isinstance(seat, int) or not 0 <= seat < state.size:
        return False  # "public" (the table, anyone), or no seat of this game
    return GHOSTS.of(state.opts) and not state.alive[seat]


def story(state: State) -> dict:
    """The story of `state`'s log so far: a "cast" chapter (the deal), then
    one chapter per night and per day, in order, then the end. Cached for
    the log's length (a dead player's phone asks after every change)."""
    memo = state.memo_views
    got = memo.get("story")
    if got is not None and got[0] == len(state.log) and got[1] is state.log:
        return got[2]  # type: ignore[no-any-return]
    out = _Teller().tell(state.log)
    memo["story"] = (len(state.log), state.log, out)
    return out


def seats_of(entry: dict) -> list[int]:
    """Every seat an entry names (its actor, targets, voters, winners...),
    for a phone to mark its own part."""
    seats: set[int] = set()
    for key in ("seat", "target", "named", "shown", "poison", "wolf", "condemned", "by"):
        v = entry.get(key)
        if isinstance(v, int) and not isinstance(v, bool):
            seats.add(v)
    for key in ("targets", "wolves", "winners", "among", "tie", "order"):
        seats.update(v for v in entry.get(key) or () if isinstance(v, int))
    for b in entry.get("ballots") or ():
        seats.update((b["voter"], b["target"]) if b.get("target") is not None else (b["voter"],))
    for p in entry.get("picks") or ():
        seats.add(p["seat"])
        if p.get("target") is not None:
            seats.add(p["target"])
    for c in entry.get("cards") or ():
        if isinstance(c, dict):
            seats.add(c["seat"])
    return sorted(seats)


class _Teller:
    """One fold of the log into chapters (a fresh state beside it)."""

    def __init__(self) -> None:
        self.s = State()
        self.chapters: list[dict] = []
        self.entries: list[dict] = []
        self.picks: dict[int, int | None] = {}  # the pack's last picks, this night
        self.attacked = False  # the pack's step closed tonight (an "attack" event)
        self.target: int | None = None  # the pack's victim tonight
        self.shown: int | None = None  # the victim the witch was shown
        self.first_dead: int | None = None  # the first dead's call (wolves-ally)
        self.step = ""
        self.nobody: dict | None = None  # "no-execution", until a death says otherwise
        self.timed_out: set[int] = set()  # this vote's ballots its timeout cast [issue 44]

    def chapter(self, kind: str, n: int) -> None:
        if self.chapters and self.chapters[-1]["kind"] == "night":
            self.spared()
        self.entries = []
        self.chapters.append({"kind": kind, "n": n, "time": f"{kind} {n}",
                              "entries": self.entries, "called": []})

    def add(self, kind: str, **fields: object) -> None:
        self.entries.append({"kind": kind, **fields})

    def _sheriff_broke_tie(self, seat: int) -> bool:
        """An execution right after a tied day vote under
        `tie=scapegoat-sheriff-none` (RULES.md §6 [002]) is the sheriff's
        pick among the tied (the scapegoat's death has a cause of its own, a
        runoff or a draw an entry of its own)."""
        last = self.entries[-2] if len(self.entries) > 1 else {}
        return (last.get("kind") == "tally" and last.get("step") == "vote"
                and seat in (last.get("tie") or ())
                and TIE.of(self.s.opts) == "scapegoat-sheriff-none")

    def tell(self, log: list[dict]) -> dict:
        s = self.s
        for e in log:
            self.before(e)
            apply(s, e)
            self.after(e)
        for ch in self.chapters:
            if ch["kind"] != "night":
                del ch["called"]
        return {"over": s.phase == "over", "players": list(s.names),
                "ruleset": s.ruleset, "chapters": self.chapters}

    # --- before an event is folded: what the state was ------------------------

    def before(self, e: dict) -> None:
        if self.nobody is not None:  # the verdict's death or reveal follows at once
            if e["e"] in ("died", "revealed"):
                self.entries.remove(self.nobody)
            self.nobody = None
        if e["e"] != "act":
            return
        if e["do"] == "vote" and e.get("default") and isinstance(e.get("actor"), int):
            self.timed_out.add(e["actor"])  # the clock's ballot, not his choice [issue 44]
        told = _BEFORE.get(e["do"])
        if told is not None:
            told(self, e)

    def _swap(self, e: dict) -> None:  # the card he takes is the centre's before the swap
        s = self.s
        self.add("thief", seat=e.get("actor"), cards=list(s.center), took=s.center[e["card"]],
                 forced=bool(e.get("default")))

    def _burn(self, e: dict) -> None:
        self.add("burn", seat=e.get("actor"), target=e["target"],
                 building=self.s.prof[e["target"]])

    def _assign(self, e: dict) -> None:
        self.add("assign", seat=e.get("actor"), target=e["target"], building=e["building"])

    def _timeout(self, e: dict) -> None:
        """A step's clock ran out: what the step's holder let go by."""
        s = self.s
        if s.step == "first-dead":
            self.add("ally", seat=s.actor, named=None, ally=False)
        elif s.step == "witch":  # what she was shown, and no potion
            self.add("witch", seat=_alive_holder(s, "witch"), shown=self.shown, heal=False,
                     poison=None)
        elif s.phase == "night" and s.step in STEP_ROLE_OF:
            role = STEP_ROLE_OF[s.step]
            self.add("pass", seat=_alive_holder(s, role), role=role, timeout=True)
        elif s.step == "hunter":
            self.add("shoot", seat=s.actor, target=None)

    # --- after: what it did ----------------------------------------------------

    def after(self, e: dict) -> None:
        told = _AFTER.get(e["e"])
        if told is not None:
            told(self, e)

    def _setup(self, e: dict) -> None:
        s = self.s
        self.chapter("cast", 0)
        for i in range(s.size):
            entry: dict = {"seat": i, "role": s.dealt[i]}
            if s.village:
                entry["profession"] = s.dealt_prof[i]
            self.add("card", **entry)
        if s.center:
            self.add("centre", cards=list(s.center))

    def _night(self, e: dict) -> None:
        s = self.s
        self.chapter("night", e["n"])
        self.picks, self.attacked, self.target, self.shown = {}, False, None, None
        # the cards the table called tonight, as it called them (RULES.md §4: every
        # card of the deck, its holder alive or dead); jp-standard's one window by
        # the roles that act in it
        calls = night_calls(s)
        self.chapters[-1]["called"] = list(together_steps(s)) if calls == [TOGETHER] else calls

    def _step(self, e: dict) -> None:
        self.step = e["step"]
        if e["step"] == "first-dead":
            self.first_dead = e.get("actor")
        p = pending(self.s) if self.s.phase == "day" else {}
        if p.get("turns"):  # the speaking turns before it (RULES.md §6) [issue 44]
            self.add("turns", order=list(p["turns"]), defence=bool(p.get("defence")))

    def _card(self, e: dict) -> None:
        if self.step == "thief":
            self.add("thief", seat=e["seat"], cards=list(self.s.center), took=None, forced=False)

    def _shown(self, e: dict) -> None:
        self.shown = e["victim"]

    def _resolve(self, e: dict) -> None:
        if e["then"] == "day":
            self.dawn()
        elif e["then"] == "night" and self.s.phase == "day":
            self.nobody = {"kind": "no-execution", "ends_day": bool(e.get("ends_day"))}
            self.entries.append(self.nobody)

    def _died(self, e: dict) -> None:
        seat = e["seat"]
        self.add("death", seat=seat, role=self.s.roles[seat], cause=e["cause"], time=e["time"])
        if e["cause"] == "execution" and self._sheriff_broke_tie(seat):
            self.entries[-1]["tie_broken_by"] = "sheriff"
        elif e["cause"] == "barber" and any(x["kind"] == "shave" and x.get("seat") == seat
                                            for x in self.entries):
            self.entries[-1]["cause"] = "barber-himself"  # RULES.md §8: he shaved no wolf

    def _tally(self, e: dict) -> None:
        s = self.s
        ballots = _ballots(e, s)
        for b in ballots:
            if b["voter"] in self.timed_out:
                b["timeout"] = True
        self.timed_out = set()
        self.add("tally", step=e["step"], round=e["round"], counts=dict(e["counts"]),
                 ballots=ballots, extra=list(e.get("extra") or []),
                 tie=list(e.get("tie") or []), candidates=list(s.candidates or []),
                 nominees=list(e.get("nominees") or (s.nominees if e["round"] > 1
                                                     else None) or []))

    def _sheriff(self, e: dict) -> None:
        entry = {"seat": e["seat"], "how": e["how"]}
        if e["how"] in ("appointed", "default") and self.s.step == "appoint":
            entry["by"] = self.s.actor  # the dying sheriff
        self.add("sheriff", **entry)

    def _spent(self, e: dict) -> None:
        if e.get("power") == "lost":
            self.add("keeper-lost", seat=_holder_of(self.s, e["building"]))

    def _event(self, e: dict) -> None:
        typed = texts(self.s.opts).get(e["card"])  # a text-only event: its own title [issue 44]
        self.add("event", card=e["card"], **({"title": typed["title"]} if typed else {}))

    def _over(self, e: dict) -> None:
        s = self.s
        self.chapter("end", s.n)
        entry = {"winner": e["winner"], "winners": list(e["winners"]), "why": _why(s, e),
                 "cards": [{"seat": i, "role": r} for i, r in enumerate(s.roles)]}
        if s.ally is not None:  # New Moon's wolves' ally wins or loses with them [issue 44]
            entry["ally"] = s.ally
        self.add("over", **entry)

    def act(self, e: dict) -> None:
        s, do = self.s, e["do"]
        seat: int = e.get("actor", -1) if e.get("actor") is not None else -1
        if seat < 0:
            return  # a timeout: told in `before`, or by the events its defaults make
        if do == "link":
            self.add("lovers", seat=seat, targets=list(e["targets"]), mixed=mixed_lovers(s))
        elif do in ("protect", "guard"):
            self.add("protect", seat=seat, role=s.roles[seat], target=e["target"])
        elif do == "inspect":
            self.add("inspect", seat=seat, target=e["target"], result=e["result"])
        elif do == "attack":
            self.picks[seat] = e["target"]
        elif do == "spy":
            self.add("spy", seat=seat, mode=e["mode"], outcome=e["outcome"], wolf=e.get("wolf"))
        elif do == "devour":
            self.add("devour", seat=seat, target=e["target"])
        elif do == "potion":
            self.add("witch", seat=seat, shown=self.shown, heal=bool(e["heal"]),
                     poison=e["poison"])
        elif do == "charm":
            self.add("charm", seat=seat, targets=list(e["targets"]))
        elif do == "post":
            self.add("post", seat=seat, target=e["target"])
        elif do == "shoot":
            self.add("shoot", seat=seat, target=e["target"])
        elif do in _DAY_ACTS:
            fields = {k: e[k] for k in ("target", "targets", "result", "wolf", "power")
                      if k in e}
            if do == "pardon":
                fields["condemned"] = s.condemned
            if do != "assign":  # told before (the building it got)
                self.add(do, seat=seat, **fields)
        elif do == "name":
            pass  # told by the "ally" event that follows
        elif do == "pass":
            self._passed(seat)

    def _passed(self, seat: int) -> None:
        s, step = self.s, self.step
        role = s.roles[seat]
        if step in ("wolves", TOGETHER) and ROLES[role].wolf:
            self.picks[seat] = None
        elif step == "first-dead":
            self.add("ally", seat=seat, named=None, ally=False)
        elif step == "thief":
            pass  # told by the "card" event: he stays a villager
        elif step == "hunter":
            self.add("shoot", seat=seat, target=None)
        elif step == "witch":
            self.add("witch", seat=seat, shown=self.shown, heal=False, poison=None)
        elif step == "pardon":
            self.add("no-pardon", seat=seat, condemned=s.condemned)
        elif s.phase == "night":
            self.add("pass", seat=seat, role=role, timeout=False)

    def pack(self, e: dict) -> None:
        s = self.s
        self.attacked, self.target = True, e["target"]
        wolves = [i for i, r in enumerate(s.roles) if ROLES[r].wolf and s.alive[i]]
        picks = [{"seat": w, "target": self.picks.get(w)} for w in wolves if w in self.picks]
        chosen = [p["target"] for p in picks]
        agreed = bool(chosen) and len(chosen) == len(wolves) and len(set(chosen)) == 1 \
            and chosen[0] is not None
        self.add("pack", wolves=wolves, picks=picks, target=e["target"], caught=bool(e["caught"]),
                 agreed=agreed, rule=WOLF_ATTACK.of(s.opts))

    def dawn(self) -> None:
        s = self.s
        if not self.attacked and any(ROLES[r].wolf for r in s.roles):
            self.add("no-attack")
        self.add("dawn")

    def spared(self) -> None:
        """The night is told: if the pack's victim did not die, say why,
        after the dawn (the defender's or knight's guard, the witch's heal,
        the elder's spare life, the fire that took a wolf instead [000], or
        a card the wolves cannot kill: the fox [004], the tavern keeper [000])."""
        s, target = self.s, self.target
        if target is None or not self.attacked:
            return
        night = self.chapters[-1]
        if any(x["kind"] == "death" and x["seat"] == target for x in night["entries"]):
            return
        if s.protected == target:
            why = "protected"
        elif s.healed and self.shown == target:
            why = "healed"
        elif any(x["kind"] == "wounded" and x["seat"] == target for x in night["entries"]):
            why = "elder"
        elif s.burning == target:
            why = "fire"
        else:
            why = "immune"
        at = next((i + 1 for i, x in enumerate(night["entries"]) if x["kind"] == "dawn"),
                  len(night["entries"]))
        night["entries"].insert(at, {"kind": "spared", "seat": target, "why": why,
                                     "role": s.roles[target]})
        self.target = None


#: an act told before it is folded (the state it changes says what it was)
_BEFORE: dict[str, Callable[[_Teller, dict], None]] = {
    "swap": _Teller._swap, "burn": _Teller._burn, "assign": _Teller._assign,
    "timeout": _Teller._timeout,
}


def _copied(kind: str, *keys: str) -> Callable[[_Teller, dict], None]:
    """An event told as an entry of `kind` with the event's own `keys`."""
    return lambda t, e: t.add(kind, **{k: e[k] for k in keys})


#: each event kind, what it adds to the story once folded
_AFTER: dict[str, Callable[[_Teller, dict], None]] = {
    "setup": _Teller._setup, "night": _Teller._night,
    "day": lambda t, e: t.chapter("day", e["n"]),
    "step": _Teller._step, "act": _Teller.act, "card": _Teller._card, "shown": _Teller._shown,
    "attack": _Teller.pack, "resolve": _Teller._resolve, "died": _Teller._died,
    "revealed": _copied("revealed", "seat"), "wounded": _copied("wounded", "seat"),
    "powers-lost": _copied("powers-lost", "seat"), "tally": _Teller._tally,
    "drawn": lambda t, e: t.add("drawn", among=list(e["among"]), seat=e["seat"]),
    "sheriff": _Teller._sheriff,
    # the scapegoat's choice (None: everyone, his timeout)
    "allowed": lambda t, e: t.add("allow", seat=e["seat"], targets=e["voters"]),
    "medium": _copied("medium", "seat", "target", "result"),
    "baker": _copied("baker", "seat", "wolf"),
    "spent": _Teller._spent, "event": _Teller._event,
    "ally": lambda t, e: t.add("ally", seat=t.first_dead, named=e["named"],
                               ally=e["seat"] is not None),
    "over": _Teller._over,
}


def _alive_holder(s: State, role: str) -> int | None:
    """The living seat that holds `role`, if any."""
    return next((i for i, r in enumerate(s.roles) if r == role and s.alive[i]), None)


def _ballots(e: dict, s: State) -> list[dict]:
    if "ballots" in e:
        return [dict(b) for b in e["ballots"]]
    double = s.sheriff if e["step"] == "vote" else None
    return [{"voter": int(k), "target": t, "weight": 2 if int(k) == double else 1}
            for k, t in sorted(e["votes"].items(), key=lambda kv: int(kv[0]))]


def _holder_of(s: State, building: str) -> int | None:
    return next((i for i, p in enumerate(s.prof) if p == building), None)


def _why(s: State, e: dict) -> str:
    """Why the game ended (RULES.md §7): the rule that matched."""
    winner = e["winner"]
    if winner == "draw":
        return "three-ties" if e.get("why") == "three ties" else "nobody-alive"
    if winner == "village":
        return "no-wolves"
    if winner == "werewolves":
        return "parity" if WOLVES_WIN.of(s.opts) == "parity" else "all-dead"
    if winner == "fox":
        wolves = any(ROLES[s.roles[i]].wolf for i in s.up)
        return "fox-wolves" if wolves else "fox-village"
    return {"lovers": "lovers", "piper": "charmed", "white-werewolf": "alone"}.get(winner, winner)
