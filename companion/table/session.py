"""`Table`: the one live game, and the one path every input takes.

    input ─► Table (lock, seq check, pacing) ─► engine.act ─► Store (commit) ─► views ─► listeners

A phone's tap, a seat box's press, the GM's tablet and a timer running out all
call `Table.act` or `Table.tick`. One lock serialises the engine (which is not
thread-safe), the commit and the views built from it; nothing is published
until the events are committed. Time is an input: `clock` is injected, and
tests drive `tick(now)` with a fake clock instead of sleeping.

Views leave through three audiences: the game master (everything), each seat
(`engine.view_for`, gated by pacing) and the public (display, table screen).
A seat's or the public's `seq` is the version of *that audience's* view, not
the number of actions applied: counting every action would tell a villager
how many night actions were taken.
"""

from __future__ import annotations

import json
import queue
import random
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from ..engine import (
    Action,
    IllegalAction,
    State,
    act,
    announcements,
    legal_actions,
    night_calls,
    pending,
    public_view,
    rebuild,
    undo,
    view_for,
)
from ..engine.rules import fresh_memo
from ..replay import parse_action, result_of, setup_game
from ..store import Store
from ..words import LANGUAGES, gm_line, public_line
from .pacing import Pace, Settings

#: The Village's day powers (RULES.md §8): usable while the hub holds the discussion.
DAY_POWERS = frozenset({"confess", "shave", "silence", "restore", "assign"})
SETUP_FIELDS = ("ruleset", "options", "players", "deal", "center", "professions", "seed")
#: how a game's votes are cast [issue 7]: on the phones, or with the seat boxes'
#: buttons by roll-call (a press in a candidate's window) or lock-in (a pick
#: on the phone, locked by a press)
BUTTONS = ("phones", "roll-call", "lock-in")
VOTE_KINDS = ("vote", "runoff", "election")
NIGHT_KINDS = ("night", "wolves")
VERSION_BASE = 1_000_000  # seat/public versions restart at boot × this, so they only grow
#: private results a seat is shown when the engine enters its step, kept back
#: until the hub calls that step (the engine may run ahead of the calls)
EARLY_NOTES = {"victim": "witch", "centre": "thief"}


class TableError(Exception):
    status = 409


class Stale(TableError):
    """The sender's view is older than the current step (HTTP 409)."""


class Denied(TableError):
    status = 403


class NotFound(TableError):
    status = 404


class BadInput(TableError):
    status = 400


class NotNow(TableError):
    """Legal in form but not now: out of turn, held by pacing (HTTP 409)."""


@dataclass
class Listener:
    """One stream: it gets every new version of its audience's view."""

    audience: str  # "gm" | "public" | "seat:N"
    token: str | None = None  # a seat's link: a reissued link ends its streams
    queue: queue.Queue = field(default_factory=lambda: queue.Queue(maxsize=64))
    closed: bool = False

    def close(self) -> None:
        """End the stream (its seat link was reissued, or a new game began)."""
        self.closed = True
        self.push("")

    def push(self, message: str) -> None:
        try:
            self.queue.put_nowait(message)
        except queue.Full:  # a stuck client: it only needs the newest full view
            with self.queue.mutex:
                self.queue.queue.clear()
            self.queue.put_nowait(message)


@dataclass
class _Audience:
    version: int = 0
    body: str = ""  # the view without its seq, to tell whether it changed
    seq: int = 0  # the seq its messages carry
    steps: dict[int, int] = field(default_factory=dict)  # version -> engine step id


class Table:
    def __init__(self, store: Store, clock: Callable[[], float] = time.time,
                 rng: random.Random | None = None, settings: Settings | None = None) -> None:
        self.store = store
        self.clock = clock
        self.rng = rng or random.SystemRandom()
        self.settings = settings or Settings()
        self.lock = threading.RLock()
        self.game: int | None = None
        self.setup: dict = {}
        self.state: State | None = None
        self.tokens: list[str] = []
        self.claims: list[str | None] = []
        self.pace = Pace()
        self.boot = 0
        self._audiences: dict[str, _Audience] = {}
        self._listeners: list[Listener] = []
        self._held: tuple[int, State] | None = None
        self.store_pace: dict = {}  # the pace as last committed
        self.changed = threading.Condition(self.lock)
        #: raises ValueError (one clear message) when the seat boxes cannot
        #: seat this many players; None: no seat boxes wired [issue 7]
        self.seat_check: Callable[[int], None] | None = None
        #: called with each new public view right after its commit, under the
        #: lock, before the other views are built (the seat boxes' LEDs)
        self.public_hooks: list[Callable[[dict], None]] = []
        self._rollcall_shown: int | None = None  # the roll-call index last published
        self._ann: tuple[State, int, list[dict]] | None = None

    # --- games ----------------------------------------------------------------

    def resume(self) -> None:
        """Load the newest game from the store, as it was (after a restart)."""
        with self.lock:
            game = self.store.latest()
            if game is not None:
                self._load(game, restarted=True)

    def _load(self, game: int, restarted: bool) -> None:
        rec = self.store.load(game)
        if rec is None:
            raise NotFound(f"no game {game}")
        self.game, self.setup = rec.id, rec.setup
        self.state = rebuild(rec.events)
        self.tokens, self.claims = rec.tokens, rec.claims
        self.pace = Pace.from_dict(rec.pace) if rec.pace else Pace()
        self.boot = self.store.boot(game) if restarted else 0
        now = self.clock()
        if restarted and self.pace.deadline is not None and self.pace.paused is None:
            # the table was waiting when the power went: give it a moment back
            self.pace.deadline = max(self.pace.deadline, now + self.settings.restart_grace_s)
        self._audiences = {}
        self._held = None
        for listener in self._listeners:
            if listener.token is not None:
                listener.close()
        self.store_pace = self.pace.to_dict()
        self._advance_and_commit(now, start=len(self.state.log))

    def create(self, doc: object) -> dict:
        """Deal a new game from the replay format's setup fields (POST /api/games)."""
        if not isinstance(doc, dict):
            raise BadInput("a game is a JSON object of the replay format's setup fields")
        if "actions" in doc:
            raise BadInput("a new game takes no 'actions': send them to /api/actions")
        from ..engine import EngineError

        language = doc.get("language", "en")
        if language not in LANGUAGES:
            raise BadInput(f"'language' is one of {', '.join(LANGUAGES)}, not {language!r}")
        buttons = doc.get("buttons", "phones")
        if buttons not in BUTTONS:
            raise BadInput(f"'buttons' is one of {', '.join(BUTTONS)}, not {buttons!r}")
        engine_doc = {k: v for k, v in doc.items() if k not in ("language", "buttons")}
        try:
            state = setup_game(engine_doc)
        except EngineError as err:
            raise BadInput(str(err)) from None
        if buttons != "phones" and self.seat_check is not None:
            try:
                self.seat_check(state.size)
            except ValueError as err:
                raise BadInput(f"{err}; or vote on the phones") from None
        setup = {k: doc[k] for k in (*SETUP_FIELDS, "language", "buttons") if k in doc}
        tokens = [secrets.token_urlsafe(16) for _ in state.names]  # 128 bits each
        with self.lock:
            game = self.store.create_game(setup, state.log, tokens, Pace().to_dict())
            self._load(game, restarted=False)
            return self.seats_info()

    @property
    def language(self) -> str:
        """The game's language (the pages default to it)."""
        return str(self.setup.get("language", "en"))

    @property
    def buttons(self) -> str:
        """How this game's votes are cast: phones | roll-call | lock-in [issue 7]."""
        return str(self.setup.get("buttons", "phones"))

    def seats_info(self) -> dict:
        assert self.state is not None
        return {"id": self.game, "seats": [
            {"seat": i, "name": n, "url": f"/p/{t}", "claimed": self.claims[i] is not None}
            for i, (n, t) in enumerate(zip(self.state.names, self.tokens))]}

    def _need_game(self) -> State:
        if self.state is None:
            raise NotFound("no game yet: create one with POST /api/games")
        return self.state

    # --- the one path ---------------------------------------------------------

    def act_gm(self, raw: object) -> dict:
        """An action of the replay format from the game master, for any seat."""
        with self.lock:
            state = self._need_game()
            seq, body = _split_seq(raw)
            try:
                action = parse_action(state, body)
            except IllegalAction as err:
                raise BadInput(str(err)) from None
            if seq is not None:
                p = pending(state)
                opened = state.log[p["id"]]["a"] if p["id"] >= 0 else 0
                if seq < opened or seq > state.acts:
                    raise Stale(f"the game has moved on since action {seq} "
                                f"(now {state.acts}, this step opened at {opened})")
            now = self.clock()
            saved = self.pace.to_dict()
            self._clear_way(now)  # a GM action is never held by pacing...
            try:
                self._apply(action, now)
            except TableError:
                self.pace = Pace.from_dict(saved)  # ...but a refused one changes nothing
                raise
            return self.gm_view()

    def act_seat(self, seat: int, raw: object) -> dict:
        """An action from a seat's phone (no `actor`: the seat is the actor)."""
        with self.lock:
            state = self._need_game()
            seq, body = _split_seq(raw)
            if "actor" in body:
                raise BadInput("a phone's action has no 'actor': it acts for its own seat")
            body["actor"] = state.names[seat]
            try:
                action = parse_action(state, body)
            except IllegalAction as err:
                raise BadInput(str(err)) from None
            self._check_seat_seq(seat, seq)
            self._seat_gate(seat, action)
            if action.do == "vote" and self.buttons == "roll-call":
                raise NotNow("in this game you vote with your seat's button, "
                             "when the display names your choice")
            if action.do == "vote" and self.buttons == "lock-in":
                self._pick(seat, action)
            else:
                self._apply(action, self.clock())
            return self.seat_view(seat)

    def _pick(self, seat: int, action: Action) -> None:
        """Lock-in voting: a phone's vote is the seat's pick, kept (durably,
        with the pace) until its button locks it [issue 7]."""
        state, pc = self.state, self.pace
        assert state is not None
        if seat in state.votes:
            raise NotNow("your vote is locked")
        if not any(c.allows(action) for c in legal_actions(state, seat)):
            raise NotNow("you cannot vote for that player now")
        assert action.target is not None  # a vote names one player
        pc.picks[str(seat)] = action.target
        self._advance_and_commit(self.clock(), start=len(state.log))

    def act_presses(self, presses: list[tuple[int, float]]) -> list[str]:
        """Seat-box presses [issue 7]: (seat, when) pairs, `when` on the
        table's clock. Each becomes a vote by the game's button mode, and all
        that land are committed in one transaction before anything is
        published. Answers one outcome per press, in order: "recorded" (the
        vote is in the log, or was already locked) or a reason it was refused
        (nothing changed for it)."""
        with self.lock:
            out: list[str] = []
            state = self.state
            if state is None:
                return ["no game" for _ in presses]
            start, applied = len(state.log), False
            opened = pending(state)["id"]
            for seat, when in presses:
                reason = self._press(seat, when, opened)
                applied = applied or reason == ""
                out.append(reason or "recorded")
            if applied:  # one transaction for the batch; a failure loses no acknowledged vote
                self._advance_and_commit(self.clock(), start)
            return out

    def _press(self, seat: int, when: float, opened: int) -> str:
        """Apply one press to the engine (not committed); "" if a vote landed,
        "recorded" if it was already locked, else why it was refused."""
        state, pc = self.state, self.pace
        assert state is not None
        if type(seat) is not int or not 0 <= seat < state.size:
            return "no such seat in this game"
        if self.buttons == "phones":
            return "this game votes on the phones"
        p = pending(state)
        if (p["id"] != opened or pc.mode != "ballot" or p["id"] != pc.step_id
                or p["kind"] not in VOTE_KINDS):
            return "no vote is open"
        if pc.paused is not None:
            return "the vote is paused"
        if self.buttons == "roll-call":
            if seat in state.votes:
                return "one vote per round"
            index = pc.rollcall(when, self.settings.rollcall_s)
            if index is None:
                return "no candidate is being called"
            target: int | None = pc.order[index]
        else:
            if seat in state.votes:
                return "recorded"
            target = pc.picks.get(str(seat))
            if target is None:
                return "pick on your phone first"
        try:
            act(state, Action(seat, "vote", target=target), expect=state.acts)
        except IllegalAction as err:
            return str(err)
        return ""

    def _seat_gate(self, seat: int, action: Action) -> None:
        """What a seat may not do, whatever the engine says."""
        assert self.state is not None
        if action.do == "timeout":
            raise NotNow("only the game master or the clock ends a step")
        if not self.may_act(seat) and not self._day_power(action.do):
            raise NotNow(self._why_waiting())
        if not legal_actions(self.state, seat):
            # the engine's own message would name the step that is open
            raise NotNow("the game is not waiting for you now")

    def _check_seat_seq(self, seat: int, seq: int | None) -> None:
        if seq is None:
            return
        aud = self._audiences.get(f"seat:{seat}")
        step = aud.steps.get(seq) if aud else None
        assert self.state is not None
        if step is None or step != self._step_id(self.state):
            raise Stale("the game has moved on since that view: here is the new one")

    def _apply(self, action: Action, now: float) -> None:
        state = self.state
        assert state is not None
        start = len(state.log)
        try:
            act(state, action, expect=state.acts)
        except IllegalAction as err:
            raise NotNow(str(err)) from None
        self._advance_and_commit(now, start)

    def tick(self, now: float | None = None) -> None:
        """Let time pass: advance pacing, apply timeouts whose deadline passed."""
        with self.lock:
            if self.state is None:
                return
            self._advance_and_commit(self.clock() if now is None else now,
                                     start=len(self.state.log), quiet=True)

    def _advance_and_commit(self, now: float, start: int, quiet: bool = False) -> None:
        """Advance pacing (applying timeouts), commit new events and the pace in
        one transaction, then publish. Before the commit nothing is told.
        `quiet` (the clock's tick): publish only if something moved — new
        events, the pace, or the roll-call's candidate — so an idle table does
        not rebuild every view four times a second."""
        state = self.state
        assert state is not None and self.game is not None
        before = self.store_pace
        for _ in range(10_000):
            if not self._advance(now):
                break
            act(state, Action(None, "timeout"), expect=state.acts)
        pace = self.pace.to_dict()
        new = state.log[start:]
        try:
            if new:
                self.store.append(self.game, start, new, pace, state.winner)
            elif pace != before:
                self.store.save_pace(self.game, pace)
        except Exception:
            # not durable, so it did not happen: back to what the store holds
            self.state = rebuild(state.log[:start])
            self.pace = Pace.from_dict(before)
            raise
        self.store_pace = pace
        rollcall = self.pace.rollcall(now, self.settings.rollcall_s)
        if quiet and not new and pace == before and rollcall == self._rollcall_shown:
            return
        self._rollcall_shown = rollcall
        self._publish()

    # --- pacing ---------------------------------------------------------------

    def _advance(self, now: float) -> bool:
        """Move the pace on as far as `now` allows. True: apply a timeout."""
        state, pc, st = self.state, self.pace, self.settings
        assert state is not None
        for _ in range(1000):
            p = pending(state)
            mode = pc.mode
            frozen = pc.paused is not None
            if mode == "calls":
                if pc.cursor >= len(pc.calls):
                    pc.nights_called, pc.hold, pc.live = pc.night, None, False
                    self._next(now)
                    continue
                call = pc.calls[pc.cursor]
                live = (state.phase == "night" and state.n == pc.night
                        and p["kind"] in NIGHT_KINDS and p["step"] == call)
                if live and not pc.live:
                    pc.live = True
                    night_s = state.opts.get("night_s") or 0
                    pc.deadline = max(pc.min_end, pc.started + night_s) if night_s else None
                elif pc.live and not live:
                    pc.live = False
                    pc.deadline = max(now, pc.min_end)
                if pc.hold is None:  # a dawn prompt keeps the phase "night": ask the log
                    dawn = self._dawn_index(pc.night)
                    pc.hold = dawn if dawn < len(state.log) else None
                if frozen or pc.deadline is None or now < pc.deadline:
                    return False
                if pc.live:
                    return True
                self._next_call(now)
                continue
            if mode == "last-words":
                if pc.seat is None:
                    if not pc.words:
                        pc.mode, pc.hold = "", None
                        self._next(now)
                        continue
                    pc.seat = pc.words.pop(0)
                    pc.started, pc.deadline = now, now + st.last_words_s
                if frozen or pc.deadline is None or now < pc.deadline:
                    return False
                if p["kind"] == "prompt" and p["actor"] == pc.seat:
                    return True  # his time is up: the prompt's default
                pc.seat = None
                continue
            if mode == "verdict":
                if frozen or pc.deadline is None or now < pc.deadline:
                    return False
                pc.mode, pc.hold = "", None
                self._next(now)
                continue
            if mode in ("discussion", "ballot", "prompt", "over"):
                if p["id"] != pc.step_id:
                    self._next(now)
                    continue
                if frozen or pc.deadline is None or now < pc.deadline:
                    return False
                if mode == "discussion":
                    self._open_ballot(p, now)
                    continue
                return True
            self._next(now)  # lobby, or a pace that ended
        raise RuntimeError("pacing did not settle")  # pragma: no cover

    def _next(self, now: float) -> None:
        """Choose the next pacing phase from where the engine is."""
        state, pc = self.state, self.pace
        assert state is not None
        p = pending(state)
        pc.paused, pc.live, pc.seat, pc.started = None, False, None, now
        pc.order, pc.picks = [], {}
        owed = state.deaths[pc.deaths_seen:]
        if state.opts["reveal_on_death"]:
            pc.deaths_seen, owed = len(state.deaths), []
        day_deaths = []
        for d in owed:
            if not d[2].startswith("day"):
                break
            day_deaths.append(d)
        last_night = self._last_night()
        if day_deaths:
            return self._last_words(day_deaths)
        if last_night > pc.nights_called > 0 and pc.verdict_night < last_night:
            # the day's vote is over: its result stays on the table before night falls
            pc.verdict_night = last_night
            pc.mode, pc.deadline = "verdict", now + self.settings.verdict_s
            pc.hold = self._night_index(last_night)
            return None
        if last_night > pc.nights_called:
            return self._start_calls(last_night, now)
        if owed:
            return self._last_words(owed)
        pc.step_id, pc.hold = p["id"], None
        kind = p["kind"]
        if kind == "over":
            pc.mode, pc.deadline = "over", None
        elif kind == "prompt":
            pc.mode, pc.deadline = "prompt", now + self.settings.prompt_s
        elif kind in NIGHT_KINDS:  # an undo back into a night, or a GM skip
            self._start_calls(state.n, now, at=p["step"])
        else:
            seconds = state.opts.get(p["timer"] or "", 0) or 0
            if seconds and p["kind"] == "vote" and pc.talk_day == state.n \
                    and state.phase == "day" and pc.talk_until > now:
                # the barber's day power reopened the vote (RULES.md §8): the
                # discussion goes on where it was, it does not start again
                pc.mode, pc.deadline = "discussion", pc.talk_until
            elif seconds:
                pc.mode, pc.deadline = "discussion", now + seconds
                if p["kind"] == "vote" and state.phase == "day":
                    pc.talk_day, pc.talk_until = state.n, now + seconds
            else:
                self._open_ballot(p, now)

    def _open_ballot(self, p: dict, now: float) -> None:
        """Ballots open: for `ballot_s`, or by roll-call, one window per
        candidate, back to back [issue 7]."""
        pc = self.pace
        pc.mode, pc.started, pc.picks = "ballot", now, {}
        pc.order = self._rollcall_order(p) if self.buttons == "roll-call" else []
        if pc.order:
            pc.deadline = now + len(pc.order) * self.settings.rollcall_s
        else:
            pc.deadline = now + self.settings.ballot_s

    def _rollcall_order(self, p: dict) -> list[int]:
        """The candidates in calling order: clockwise, from the left of the
        last night's victim ([003]'s show of hands; RULES.md §1: the left
        neighbour is the next seat clockwise); from the first seat when no
        one has died at night yet."""
        state = self.state
        assert state is not None
        pool = p["candidates"] if p["candidates"] is not None else [
            i for i in range(state.size) if state.alive[i]]
        victim = next((seat for seat, _, time in reversed(state.deaths)
                       if time.startswith("night")), -1)
        return sorted(pool, key=lambda c: (c - victim - 1) % state.size)

    def _last_words(self, deaths: list[tuple[int, str, str]]) -> None:
        state, pc = self.state, self.pace
        assert state is not None
        pc.mode, pc.seat, pc.deadline = "last-words", None, None
        pc.words = [seat for seat, _, _ in deaths]
        pc.deaths_seen += len(deaths)
        last = deaths[-1][0]
        index = max(i for i, e in enumerate(state.log) if e["e"] == "died" and e["seat"] == last)
        pc.hold = index + 1  # the table sees the deaths, nothing that followed them

    def _start_calls(self, night: int, now: float, at: str | None = None) -> None:
        state, pc = self.state, self.pace
        assert state is not None
        if state.phase == "night" and state.n == night:
            calls = night_calls(state)
        else:  # the engine already ran past this night: ask the state at its start
            calls = night_calls(rebuild(state.log[:self._night_index(night) + 1]))
        pc.mode, pc.night, pc.calls, pc.hold = "calls", night, calls, None
        pc.cursor = calls.index(at) if at in calls else 0
        pc.live = False
        pc.started = now
        pc.min_end = pc.deadline = now + (0.0 if at else self._call_time())

    def _next_call(self, now: float) -> None:
        pc = self.pace
        pc.cursor += 1
        pc.live, pc.started = False, now
        pc.min_end = pc.deadline = now + self._call_time()

    def _call_time(self) -> float:
        lo, hi = self.settings.call_s
        return self.rng.uniform(lo, hi)

    def _last_night(self) -> int:
        assert self.state is not None
        for e in reversed(self.state.log):
            if e["e"] == "night":
                return int(e["n"])
        return 0

    def _night_index(self, night: int) -> int:
        """Where night `night` begins in the log."""
        assert self.state is not None
        return max(i for i, e in enumerate(self.state.log) if e["e"] == "night" and e["n"] == night)

    def _dawn_index(self, night: int) -> int:
        """Where night `night`'s dawn starts in the log: the public sees nothing after."""
        assert self.state is not None
        log = self.state.log
        for i in range(self._night_index(night), len(log)):
            if log[i]["e"] == "resolve" or log[i]["e"] == "over":
                return i
        return len(log)

    def _clear_way(self, now: float) -> None:
        """End whatever pacing stands before the engine's current step (a GM
        action is never held); pacing already at that step is left alone."""
        state, pc = self.state, self.pace
        assert state is not None
        p = pending(state)
        if (pc.mode == "calls" and pc.live and pc.night == state.n
                and pc.cursor < len(pc.calls) and pc.calls[pc.cursor] == p["step"]):
            return  # (an undo to the same step of an earlier night is not "already there")
        if pc.mode in ("ballot", "prompt", "over") and pc.step_id == p["id"]:
            return
        pc.words, pc.seat, pc.hold, pc.paused = [], None, None, None
        pc.deaths_seen = len(state.deaths)
        pc.verdict_night = self._last_night()
        if p["kind"] in NIGHT_KINDS:
            pc.nights_called = state.n - 1
            self._start_calls(state.n, now, at=p["step"])
            pc.live = True
            night_s = state.opts.get("night_s") or 0
            pc.deadline = now + night_s if night_s else None
            return
        pc.nights_called = self._last_night()
        pc.step_id, pc.started = p["id"], now
        if p["kind"] == "over":
            pc.mode, pc.deadline = "over", None
        elif p["kind"] == "prompt":
            pc.mode, pc.deadline = "prompt", now + self.settings.prompt_s
        else:
            self._open_ballot(p, now)

    def _day_power(self, do: str) -> bool:
        """The Village's day powers are used during the discussion (RULES.md §8
        Decision: the engine's window is the first vote before any ballot);
        ballots stay held until the vote opens."""
        return self.pace.mode == "discussion" and do in DAY_POWERS

    def may_act(self, seat: int) -> bool:
        """Whether pacing lets this seat act now (the engine decides the rest)."""
        pc = self.pace
        if pc.mode == "calls":
            return pc.live
        if pc.mode in ("ballot", "prompt"):
            return True
        return pc.mode == "last-words" and pc.seat == seat

    def _why_waiting(self) -> str:
        mode = self.pace.mode
        if mode == "calls":
            return "not your turn: wait to be called"
        if mode == "discussion":
            return "voting opens when the discussion is over"
        if mode == "last-words":
            return "wait: last words"
        if mode == "verdict":
            return "wait: the day's result is being announced"
        return "the game is not waiting for you now"

    # --- the game master's controls -------------------------------------------

    def timer(self, do: str, seconds: float = 0) -> dict:
        """pause | resume | extend (by `seconds`) | skip (end the current pause or call)."""
        with self.lock:
            self._need_game()
            pc, now = self.pace, self.clock()
            if do == "pause":
                if pc.paused is None and pc.deadline is not None:
                    pc.paused = max(0.0, pc.deadline - now)
            elif do == "resume":
                if pc.paused is not None:
                    pc.deadline, pc.paused = now + pc.paused, None
            elif do == "extend":
                if pc.paused is not None:
                    pc.paused += seconds
                elif pc.deadline is not None:
                    pc.deadline += seconds
                    pc.min_end = max(pc.min_end, pc.deadline) if pc.mode == "calls" else pc.min_end
            elif do == "skip":
                if pc.mode in ("calls", "discussion", "last-words", "verdict"):
                    pc.paused = None
                    pc.deadline = now if not pc.live else pc.deadline
                    pc.min_end = now
            else:
                raise BadInput("timer 'do' is one of pause, resume, extend, skip")
            if pc.mode == "discussion" and pc.deadline is not None and pc.paused is None:
                pc.talk_until = pc.deadline  # a vote the barber reopens keeps the GM's timing
            self._advance_and_commit(now, start=len(self.state.log) if self.state else 0)
            return self.gm_view()

    def undo(self, to: int | None = None) -> dict:
        """Take back the last action, or (to=K) every action from the K-th on."""
        with self.lock:
            state = self._need_game()
            if to is None:
                if state.acts == 0:
                    raise NotNow("nothing to undo")
                new = undo(state)
            else:
                if type(to) is not int or not 1 <= to <= state.acts:
                    raise BadInput(f"'to' is an action number 1–{state.acts}")
                new = rebuild([e for e in state.log if e["a"] < to])
            assert self.game is not None
            self.state, self._held = new, None
            now = self.clock()
            self._clear_way(now)
            self.store.truncate(self.game, len(new.log), self.pace.to_dict())
            self.store_pace = self.pace.to_dict()
            self._advance_and_commit(now, start=len(new.log))
            return self.gm_view()

    def reissue(self, seat: int) -> dict:
        with self.lock:
            self._check_seat(seat)
            assert self.game is not None
            token = secrets.token_urlsafe(16)
            self.store.set_token(self.game, seat, token)
            for listener in self._listeners:
                if listener.token == self.tokens[seat]:
                    listener.close()
            self.tokens[seat], self.claims[seat] = token, None
            self._publish()
            return self.seats_info()

    def release(self, seat: int) -> dict:
        with self.lock:
            self._check_seat(seat)
            assert self.game is not None
            self.store.set_claim(self.game, seat, None)
            self.claims[seat] = None
            self._publish()
            return self.seats_info()

    def _check_seat(self, seat: object) -> int:
        state = self._need_game()
        if type(seat) is not int or not 0 <= seat < state.size:
            raise NotFound(f"no seat {seat!r}")
        return seat

    # --- seats and devices ----------------------------------------------------

    def seat_of(self, token: str) -> int:
        """The seat a private link opens (404 for a stale or unknown link)."""
        with self.lock:
            if self.state is not None and token in self.tokens:
                return self.tokens.index(token)
        raise NotFound("this link is not a seat of the current game")

    def claim(self, seat: int, device: str) -> bool:
        """The first device to open a seat keeps it; others are refused."""
        with self.lock:
            if self.claims[seat] is None:
                assert self.game is not None
                self.store.set_claim(self.game, seat, device)
                self.claims[seat] = device
                self._publish()
            return self.claims[seat] == device

    # --- views ----------------------------------------------------------------

    def _view_state(self) -> State:
        """The state the table (and every seat not acting now) is shown."""
        state, hold = self.state, self.pace.hold
        assert state is not None
        if hold is None or hold >= len(state.log):
            return state
        if self._held is None or self._held[0] != hold or len(self._held[1].log) != hold:
            self._held = (hold, rebuild(state.log[:hold]))
        return self._held[1]

    def _announcements(self, state: State) -> list[dict]:
        """`engine.announcements`, folded once per state and log length (the
        table and the GM share it when nothing is held); read-only."""
        got = self._ann  # holds the state itself: a log only grows in place
        if got is None or got[0] is not state or got[1] != len(state.log):
            got = self._ann = (state, len(state.log), announcements(state))
        return got[2]

    def _pace_view(self) -> dict:
        """The pace as every audience sees it. No "time left": it would change
        the view at every tick; clients count down to `deadline` using the
        message's `now` (the hub's clock, which a Pi without a network may
        have wrong)."""
        pc = self.pace
        out: dict = {"mode": pc.mode, "paused": pc.paused}
        if pc.mode == "calls":
            out["call"] = pc.calls[pc.cursor] if pc.cursor < len(pc.calls) else None
            out["night"] = pc.night
        else:  # a night call's length would tell whether anyone acted
            out["deadline"] = pc.deadline if pc.paused is None else None
        if pc.mode == "last-words":
            out["seat"] = pc.seat
        return out

    def _rollcall_view(self) -> dict | None:
        """Roll-call: the candidate called at the last commit (so every
        audience of one publish names the same one; the clock's tick
        publishes when the window changes), which of how many, and when the
        window ends (None when paused) [issue 7]."""
        pc, w, index = self.pace, self.settings.rollcall_s, self._rollcall_shown
        if index is None or pc.mode != "ballot" or index >= len(pc.order):
            return None
        ends = None
        if pc.paused is None and pc.deadline is not None:
            ends = pc.deadline - (len(pc.order) - 1 - index) * w
        return {"candidate": pc.order[index], "index": index, "of": len(pc.order),
                "ends": ends}

    def _overlay(self, view: dict) -> dict:
        """Pacing's word on a public or seat view: what the table is doing now."""
        pc = self.pace
        view["pace"] = self._pace_view()
        view["buttons"] = self.buttons
        rollcall = self._rollcall_view()
        if rollcall is not None:
            view["rollcall"] = rollcall
        if pc.mode in ("calls", "last-words", "discussion", "verdict"):
            view.pop("vote", None)
        if pc.mode == "calls":
            view["phase"], view["n"], view["step"] = "night", pc.night, f"night {pc.night}"
        elif pc.mode == "last-words":
            view["step"] = "last words"
        elif pc.mode == "discussion":
            view["step"] = f"day {view['n']} discussion"
        elif pc.mode == "verdict":
            view["step"] = f"day {view['n']} verdict"
        return view

    def public(self) -> dict:
        with self.lock:
            if self.state is None:
                return {"phase": "lobby", "game": None, "seq": 0, "players": [],
                        "language": "en"}
            return json.loads(self._audience_message("public"))

    def _public_now(self) -> dict:
        src = self._view_state()
        view = self._overlay(public_view(src))
        view["announcements"] = self._announcements(src)
        view["game"], view["language"] = self.game, self.language
        view["line"] = public_line(view, self.language)  # from the public view alone
        return view

    def seat_view(self, seat: int) -> dict:
        with self.lock:
            return json.loads(self._audience_message(f"seat:{seat}"))

    def _seat_now(self, seat: int) -> dict:
        state, pc = self.state, self.pace
        assert state is not None
        acting = self.may_act(seat)
        src = state if (acting or pc.hold is None) else self._view_state()
        view = view_for(src, seat)
        if not acting or src is not state:
            view["actions"] = [c for c in view["actions"]
                               if src is state and self._day_power(c["do"])]
        self._overlay(view)
        if pc.mode == "ballot" and self.buttons != "phones" and view["actions"]:
            if self.buttons == "roll-call" or seat in state.votes:  # by button, or locked
                view["actions"] = [c for c in view["actions"] if c.get("do") != "vote"]
            if self.buttons == "lock-in":
                view["lockin"] = {"pick": pc.picks.get(str(seat)),
                                  "locked": seat in state.votes}
        if pc.mode == "calls" and not view["actions"]:
            # the engine may be ahead of the calls: keep back what it showed early
            if not (pc.live and pc.calls[pc.cursor] == "wolves"):
                view.pop("pack_picks", None)
            later = set(pc.calls[pc.cursor + 1:])  # the current call's own notes show
            tonight = f"night {pc.night}"
            view["results"] = [r for r in view["results"] if not (
                r.get("time") == tonight and EARLY_NOTES.get(r["kind"]) in later)]
        view["game"], view["language"] = self.game, self.language
        return view

    def gm_view(self) -> dict:
        with self.lock:
            self._need_game()
            return json.loads(self._audience_message("gm"))

    def _gm_now(self) -> dict:
        state = self.state
        assert state is not None
        view = view_for(state, None)
        view["pace"] = {**self.pace.to_dict(), **self._pace_view()}
        view["pending"] = pending(state)
        view["game"], view["language"], view["buttons"] = self.game, self.language, self.buttons
        rollcall = self._rollcall_view()
        if rollcall is not None:
            view["rollcall"] = rollcall
        view["announcements"] = self._announcements(state)
        view["script"] = {"line": gm_line(view, self.language, view["announcements"])}
        view["seats"] = self.seats_info()["seats"]
        return view

    def result(self) -> dict:
        """The replay output object of the current game, with its id and timers."""
        with self.lock:
            state = self._need_game()
            out = result_of(state)
            out["id"], out["pace"] = self.game, self._gm_now()["pace"]
            return out

    def _build(self, audience: str) -> dict:
        if audience == "gm":
            return self._gm_now()
        if audience == "public":
            return self._public_now()
        return self._seat_now(int(audience.split(":")[1]))

    def _audience_message(self, audience: str) -> str:
        if audience not in self._audiences:
            self._refresh(audience)
        return self._message(self._audiences[audience])

    def _refresh(self, audience: str) -> dict | None:
        """Rebuild one audience's view; bump its version and return the view
        (without seq) if it changed, else None."""
        state = self.state
        assert state is not None
        view = self._build(audience)
        view.pop("seq", None)
        body = json.dumps(view, ensure_ascii=False, sort_keys=True)
        aud = self._audiences.get(audience)
        if aud is not None and aud.body == body:
            return None
        if aud is None:
            aud = self._audiences[audience] = _Audience(version=self.boot * VERSION_BASE)
        aud.version += 1
        aud.body = body
        aud.steps[aud.version] = self._step_id(state)
        if len(aud.steps) > 256:
            aud.steps.pop(next(iter(aud.steps)))
        aud.seq = state.acts if audience == "gm" else aud.version
        return view

    def _message(self, aud: _Audience) -> str:
        """The view as sent: its JSON object with `seq`, and `now`, the hub's
        clock when it was sent (to count down to deadlines)."""
        return f'{aud.body[:-1]}, "seq": {aud.seq}, "now": {self.clock():.3f}}}'

    @staticmethod
    def _step_id(state: State) -> int:
        memo = state.memo if state.memo_at == len(state.log) else fresh_memo(state)
        got = memo.get("step_id")
        if got is None:
            got = memo["step_id"] = pending(state)["id"]
        return int(got)

    def _publish(self) -> None:
        """After a commit: every audience whose view changed gets one message."""
        state = self.state
        assert state is not None
        # the public view first: the seat boxes' LEDs follow it (public_hooks)
        audiences = ["public", "gm"] + [f"seat:{i}" for i in range(state.size)]
        for audience in audiences:
            view = self._refresh(audience)
            if view is not None:
                if audience == "public":
                    for hook in self.public_hooks:
                        hook(view)
                message = self._message(self._audiences[audience])
                for listener in self._listeners:
                    if listener.audience == audience:
                        listener.push(message)
        self.changed.notify_all()

    # --- listeners --------------------------------------------------------------

    def listen(self, audience: str, token: str | None = None) -> tuple[Listener, str]:
        """Subscribe; returns the listener and the full current view to send first."""
        with self.lock:
            listener = Listener(audience, token)
            self._listeners.append(listener)
            if self.state is None:
                return listener, json.dumps(self.public())
            return listener, self._audience_message(audience)

    def unlisten(self, listener: Listener) -> None:
        with self.lock:
            if listener in self._listeners:
                self._listeners.remove(listener)

    def close_listeners(self) -> None:
        """End every stream (the hub is stopping)."""
        with self.lock:
            for listener in self._listeners:
                listener.close()

    def listeners(self) -> int:
        with self.lock:
            return len(self._listeners)


def _split_seq(raw: object) -> tuple[int | None, dict]:
    if not isinstance(raw, dict):
        raise BadInput("an action is a JSON object")
    body = dict(raw)
    seq = body.pop("seq", None)
    if seq is not None and type(seq) is not int:
        raise BadInput("'seq' must be an integer (the view's seq)")
    return seq, body
