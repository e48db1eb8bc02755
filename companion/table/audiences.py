"""The audiences: who is shown what, which version of it, and the streams.

Views leave through three audiences: the game master (everything), each seat
(`engine.view_for`, gated by pacing) and the public (display, table screen).
A seat's or the public's `seq` is the version of *that audience's* view, not
the number of actions applied: counting every action would tell a villager
how many night actions were taken.

After each commit the table publishes once: an audience with a stream (or,
for the public, a hook: the seat boxes' LEDs) has its view built once and
compared with the last one it was sent; only a changed view is encoded and
pushed. An audience nobody follows is only marked stale, and built when it
is asked for (a phone that polls, the answer to an action).
"""

from __future__ import annotations

import json
import queue
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ..engine import (
    State,
    fresh_memo,
    pending,
    rebuild,
    seat_actions,
    shared_announcements,
    shared_public_view,
    view_for,
)
from ..engine.story import readable
from ..options import VOTE_TIMEOUT
from ..words import event_said, gm_line, public_line
from . import pacing, ready
from .errors import TooManyStreams
from .pacing import Pace

VERSION_BASE = 1_000_000  # seat/public versions restart at boot × this, so they only grow
#: the public view before any game
LOBBY: dict = {"phase": "lobby", "game": None, "seq": 0, "players": [], "language": "en"}


@dataclass(frozen=True)
class StreamCaps:
    """How many streams may be open [issue 17]. A seat's link and the GM's
    token are secrets, so their streams are the table's own: when one more
    opens than `per_seat`, the oldest ends (a phone that dropped off the
    Wi-Fi without closing makes way for its reload). The public stream needs
    no secret: one address keeps at most `per_address` (its oldest ends), and
    past `public_total` in all a new one is refused, so no number of devices
    can take what the GM, the seats and the TV need."""

    per_seat: int = 4
    per_address: int = 4
    public_total: int = 64


@dataclass
class Listener:
    """One stream: it gets every new version of its audience's view."""

    audience: str  # "gm" | "public" | "seat:N"
    token: str | None = None  # a seat's link: a reissued link ends its streams
    address: str = ""  # the device's network address (for the caps on streams)
    queue: queue.Queue = field(default_factory=lambda: queue.Queue(maxsize=64))
    closed: bool = False
    #: why it ended, the event the page is sent: "closed" (read the view again
    #: and follow anew) or "replaced" (a newer stream of the same seat or
    #: device took its place: the page stops until it is looked at again)
    reason: str = "closed"
    #: called (from any thread) after each push: how the hub's event loop learns
    #: that this stream has a message, without a thread waiting on the queue
    wake: Callable[[], None] | None = None

    def close(self, reason: str = "closed") -> None:
        """End the stream (its seat link was reissued, a new game began, or
        `reason` "replaced": a newer one of the same seat or device)."""
        self.closed = True
        self.reason = reason
        self.push("")

    def push(self, message: str, wake: bool = True) -> None:
        """Queue a message; `wake` (else the caller calls `woken` later) tells
        the hub's event loop that it is there."""
        try:
            self.queue.put_nowait(message)
        except queue.Full:  # a stuck client: it only needs the newest full view
            with self.queue.mutex:
                self.queue.queue.clear()
            self.queue.put_nowait(message)
        if wake:
            self.woken()

    def woken(self) -> None:
        wake = self.wake
        if wake is not None:
            wake()


class Sent(dict):
    """A view as its audience is sent it: the object, and `text`, the exact
    JSON message (so the hub answers an action without encoding it again, and
    the object is made from the parts already built, never by parsing the
    text back). Read-only: its values are the table's cached parts."""

    text: str = ""


@dataclass(frozen=True)
class Live:
    """The live game at one moment, as every view reads it (the table makes
    one for each publish or request, under its lock)."""

    game: int
    state: State
    pace: Pace
    language: str
    buttons: str
    rollcall: int | None  # the roll-call candidate's index at the last commit
    window: float  # roll-call: each candidate's window (Settings.rollcall_s)
    seats: list[dict]  # the seats' names, links and claims (the GM's)
    storage: str | None = None  # what this start found in the game file (the GM's) [issue 30]
    story: dict | None = None  # the story's page the table tells at the end [issue 35]
    #: a narrated game: whether each seat's PIN is set (its phone asks for one
    #: before it shows the card) [issue 40]; None: no PIN is asked
    pins: tuple[bool, ...] | None = None
    #: how the narrator says each name (the setup's `readings`) [issue 42]: public
    readings: dict[str, str] | None = None


@dataclass
class _Audience:
    version: int = 0
    #: the view last built (without seq), and each of its top-level keys as
    #: '"key": <its JSON>': to tell what changed and encode only that
    values: dict[str, object] = field(default_factory=dict)
    texts: dict[str, str] = field(default_factory=dict)
    body: str = ""  # that view as one JSON object
    seq: int = 0  # the seq its messages carry
    steps: dict[int, int] = field(default_factory=dict)  # version -> engine step id


_dumps = json.JSONEncoder(ensure_ascii=False).encode
_KEYS: dict[str, str] = {}  # '"key": ' for every key seen, encoded once
_NONE = object()  # no such key in the last view


def _key(key: str) -> str:
    text = _KEYS[key] = f"{_dumps(key)}: "
    return text


class _EntryTexts:
    """The JSON of a list of players as the JSON of its entries, each encoded
    once while it lives: a seat shown other cards (a wolf, the seer...) has
    its own list, but all of its entries but those are the public ones that
    every view shares (read-only: an entry is replaced, never changed).
    `text(players)` equals `_dumps(players)`, byte for byte."""

    MAX = 4096  # entries remembered (each holds its entry, so its id stays its own)

    def __init__(self) -> None:
        self._texts: dict[int, tuple[dict, str]] = {}

    def text(self, players: list[dict]) -> str:
        texts, parts = self._texts, []
        for entry in players:
            got = texts.get(id(entry))
            if got is None or got[0] is not entry:
                if len(texts) >= self.MAX:
                    texts.clear()
                got = texts[id(entry)] = (entry, _dumps(entry))
            parts.append(got[1])
        return "[" + ", ".join(parts) + "]"


def step_id(state: State) -> int:
    """The engine's current step (pending id), remembered in the state's memo."""
    memo = state.memo if state.memo_at == len(state.log) else fresh_memo(state)
    got = memo.get("step_id")
    if got is None:
        got = memo["step_id"] = pending(state)["id"]
    return int(got)


class Audiences:
    """Every audience's view, version and streams for one table."""

    def __init__(self, hooks: list[Callable[[dict], None]]) -> None:
        #: called with each new public view right after its commit, before the
        #: other views are built (the table's `public_hooks`: the seat boxes' LEDs)
        self.hooks = hooks
        self.boot = 0
        self._audiences: dict[str, _Audience] = {}
        self._stale: set[str] = set()
        self._listeners: dict[str, list[Listener]] = {}
        #: states rebuilt from the log's first N events, by N: the table's
        #: `hold` and the seats' news cut (pacing.news_cut), at most two alive
        self._held: dict[int, State] = {}
        #: during one publish: the parts every view of it shares, encoded once
        #: (id of the value -> (value, its '"key": <JSON>')) and pacing's word
        self._texts: dict[int, tuple[object, str]] | None = None
        self._entries = _EntryTexts()  # the public and seat views' players, by entry
        self._pace: tuple[Pace, dict, dict | None] | None = None
        #: what the table shows beside the game, the same on the table screen and
        #: every phone: a lost phone's vote (lost_phone.py) [issue 29]; called with
        #: the seats alive as the table shows them; None: nothing beside it
        self.aside: Callable[[Sequence[bool]], dict | None] | None = None
        self._opened: tuple[list[dict], list[bool]] | None = None  # `opened`, by seats list

    def reset(self, boot: int) -> None:
        """A game was loaded: versions start again from `boot`; a seat's
        streams end (their links are of another game)."""
        self.boot = boot
        self._audiences, self._stale, self._held = {}, set(), {}
        for listener in self.all():
            if listener.token is not None:
                listener.close()

    def forget_held(self) -> None:
        """The log was rewritten (undo): a held state built from it is void."""
        self._held = {}

    # --- views ------------------------------------------------------------------

    def build(self, live: Live, audience: str) -> dict:
        """One audience's view. Every view names its game, its language and
        its `boot` (how many hub starts resumed this game; 0: dealt by this
        one; the same for every table that plays the same log): a page
        (web/static/stream.js) takes a view of a newer game or boot even when
        its seq is lower, and follows a change of language [issue 18]."""
        if audience == "gm":
            view = self._gm(live)
        elif audience == "public":
            view = self._public(live)
        else:
            view = self._seat(live, int(audience.split(":")[1]))
        view["boot"] = self.boot
        return view

    def _shown(self, live: Live) -> State:
        """The state the table (and every seat not acting now) is shown."""
        return self._upto(live.state, live.pace.hold)

    def _upto(self, state: State, cut: int | None) -> State:
        """The game as its log's first `cut` events made it (None, or past
        the end: as it is), rebuilt once while the cut stays."""
        if cut is None or cut >= len(state.log):
            return state
        held = self._held
        got = held.pop(cut, None)  # put back last: the least recently used goes first
        if got is None or len(got.log) != cut:
            got = rebuild(state.log[:cut])
            if len(held) >= 2:
                del held[next(iter(held))]
        held[cut] = got
        return got

    def _pacing(self, live: Live) -> tuple[dict, dict | None]:
        """`pacing.public` and the roll-call's view, made once per publish
        (every public and seat view of it holds the same two objects)."""
        got = self._pace
        if got is None or got[0] is not live.pace:
            pc = live.pace
            got = (pc, pacing.public(pc), pacing.rollcall_view(pc, live.rollcall, live.window))
            if self._texts is not None:  # publishing: keep it for the other views
                self._pace = got
        return got[1], got[2]

    def _overlay(self, live: Live, view: dict) -> dict:
        """Pacing's word on a public or seat view: its record, the roll-call,
        and what the table is doing now (`Pace.moment`: the one place that
        says which step, phase and vote a seat or the public is shown)."""
        view["pace"], rollcall = self._pacing(live)
        view["buttons"] = live.buttons
        if rollcall is not None:
            view["rollcall"] = rollcall
        live.pace.moment(view["n"]).place(view)
        _event_moment(view)
        return view

    def _public(self, live: Live) -> dict:
        src = self._shown(live)
        view = self._overlay(live, shared_public_view(src))
        view["announcements"] = shared_announcements(src)
        view["game"], view["language"] = live.game, live.language
        view["line"] = public_line(view, live.language)  # from the public view alone
        view["line_event"] = event_said(view["line"], view.get("event"), live.language)
        view["opened"] = self._opened_seats(live)
        if live.readings:
            view["readings"] = live.readings
        if live.story is not None:  # only once over and begun (Showing._story_page)
            view["story"] = live.story
        self._beside(view, src)
        return view

    def _opened_seats(self, live: Live) -> list[bool]:
        """Which seats a phone has opened (public: the table sees who holds
        a phone; the host page follows it live [issue 29])."""
        got = self._opened
        if got is None or got[0] is not live.seats:
            got = self._opened = (live.seats, [bool(s["claimed"]) for s in live.seats])
        return got[1]

    def _beside(self, view: dict, shown: State) -> None:
        """The request beside the game (a lost phone's vote), if any: the same
        object in every view of a publish, made from the living as `shown`."""
        part = self.aside(shown.alive) if self.aside is not None else None
        if part is not None:
            view["lost_phone"] = part

    def _seat(self, live: Live, seat: int) -> dict:
        state, pc, buttons = live.state, live.pace, live.buttons
        if pc.mode in ("calls", "deal"):
            return self._seat_at_night(live, seat)
        acting = pacing.may_act(pc, seat)
        # a dying player's last words: he sees the table as it is shown (the
        # game the deciding attack ended is told at its boundary, to him too),
        # and acts on the live step (the hunter's shot) [issue 40]
        words = pc.mode == "last-words"
        src = state if ((acting and not words) or pc.hold is None) else self._shown(live)
        view = view_for(src, seat, shared=True)
        if acting and words:
            view["actions"] = seat_actions(state, seat) if state.phase != "over" else []
        elif not acting or src is not state:
            view["actions"] = [c for c in view["actions"]
                               if src is state and pacing.day_power(pc, c["do"])]
        elif pc.mode == "ballot":  # day powers are the discussion's, on every phone's one
            # screen (RULES.md §8): never a ballot's extra box that only their holder has
            view["actions"] = [c for c in view["actions"] if c["do"] not in pacing.DAY_POWERS]
        self._overlay(live, view)
        view["reads_story"] = _reads_story(src, seat)
        if pc.mode == "ballot" and buttons != "phones" and view["actions"]:
            if buttons == "roll-call" or seat in state.votes:  # by button, or locked
                view["actions"] = [c for c in view["actions"] if c.get("do") != "vote"]
            if buttons == "lock-in":  # only a locked pick counts; "unlocked": what the
                # clock makes of one that is not (the vote's timeout) [issue 28]
                view["lockin"] = {"pick": pc.picks.get(str(seat)),
                                  "locked": seat in state.votes,
                                  "unlocked": VOTE_TIMEOUT.of(state.opts)}
        view["game"], view["language"] = live.game, live.language
        if live.readings:
            view["readings"] = live.readings
        if live.pins is not None:
            view["pin"] = live.pins[seat]
        self._beside(view, self._shown(live))
        return view

    def _seat_at_night(self, live: Live, seat: int) -> dict:
        """A seat's view during the deal and the night's calls: what it knew
        when the current call opened (pacing.news_cut: private news waits
        for the call's end [issue 28]), its choices if the call is its own,
        and, for a wolf, the pack's picks all through the pack's call."""
        state, pc = live.state, live.pace
        src = self._upto(state, pacing.news_cut(pc, len(state.log)))
        view = view_for(src, seat, shared=True)
        view["actions"] = seat_actions(state, seat) if pacing.may_act(pc, seat) else []
        pack = pacing.pack_call(state, pc, seat)  # the whole pack's call [issue 16]
        view.pop("pack_picks", None)
        if pack is not None and pack["attack"]:
            view["pack_picks"] = pack["picks"]
        elif pack is not None:
            view["no_attack"] = True  # said on his held card [issue 28]
        if ready.ready_window(state, pc) and ready.up_tonight(state, pc.night, seat):
            # every living phone the same button (RULES.md §4 [004]) [issue 34]
            view["ready"] = seat in pc.ready
        self._overlay(live, view)
        view["reads_story"] = _reads_story(src, seat)
        view["game"], view["language"] = live.game, live.language
        if live.readings:
            view["readings"] = live.readings
        if live.pins is not None:
            view["pin"] = live.pins[seat]
        self._beside(view, self._shown(live))
        return view

    def _gm(self, live: Live) -> dict:
        state = live.state
        view = view_for(state, None, shared=True)
        public, rollcall = self._pacing(live)
        view["pace"] = {**live.pace.to_dict(), **public}
        view["pending"] = pending(state)
        view["game"], view["language"], view["buttons"] = live.game, live.language, live.buttons
        if rollcall is not None:
            view["rollcall"] = rollcall
        view["announcements"] = shared_announcements(state)
        script = view["script"] = {"line": gm_line(view, live.language, view["announcements"])}
        script["line_event"] = event_said(script["line"], view.get("event"), live.language)
        _event_moment(view)
        view["seats"] = live.seats
        view["storage"] = live.storage
        return view

    # --- versions -----------------------------------------------------------------

    def _refresh(self, live: Live, audience: str) -> dict | None:
        """Rebuild one audience's view; bump its version and return the view
        (without seq) if it changed, else None. Only the parts (top-level
        keys) that changed since the audience's last view are encoded again:
        an action changes one or two of them ("vote", "pace")."""
        self._stale.discard(audience)
        view = self.build(live, audience)
        view.pop("seq", None)
        aud = self._audiences.get(audience)
        values = aud.values if aud is not None else {}
        new = [key for key, value in view.items()
               if (old := values.get(key, _NONE)) is not value and old != value]
        if not new and len(values) == len(view):  # same keys, none changed
            return None
        if aud is None:
            aud = self._audiences[audience] = _Audience(version=self.boot * VERSION_BASE)
        texts, shared = aud.texts, self._texts
        if texts.keys() - view.keys():  # a key went
            texts = {key: text for key, text in texts.items() if key in view}
        for key in new:
            value = view[key]
            got = shared.get(id(value)) if shared is not None else None
            if got is not None and got[0] is value:  # another view of this publish's part
                texts[key] = got[1]
                continue
            encoded = (self._entries.text(value)  # type: ignore[arg-type]
                       if key == "players" and audience != "gm" else _dumps(value))
            texts[key] = text = (_KEYS.get(key) or _key(key)) + encoded
            if shared is not None and isinstance(value, dict | list):
                shared[id(value)] = (value, text)  # holds the value: its id stays its own
        aud.version += 1
        aud.values, aud.texts = view, texts
        aud.body = "{" + ", ".join(texts.values()) + "}"
        aud.steps[aud.version] = step_id(live.state)
        if len(aud.steps) > 256:
            aud.steps.pop(next(iter(aud.steps)))
        aud.seq = live.state.acts if audience == "gm" else aud.version
        return view

    @staticmethod
    def _message(aud: _Audience, now: float) -> str:
        """The view as sent: its JSON object with `seq`, and `now`, the hub's
        clock when it was sent (to count down to deadlines)."""
        return f'{aud.body[:-1]}, "seq": {aud.seq}, "now": {now:.3f}}}'

    def message(self, live: Live, audience: str, now: float) -> str:
        """The audience's current view as a message (built if it is stale:
        a new version also goes to its streams and, the public's, its hooks,
        as a publish would have sent it)."""
        if audience not in self._audiences or audience in self._stale:
            woken: list[Listener] = []
            self._deliver(live, audience, now, woken)
            for listener in woken:
                listener.woken()
        return self._message(self._audiences[audience], now)

    def outdated(self) -> None:
        """A commit whose publish waits (`Table`: more phones' ballots are
        queued behind it): every view is built anew when next asked for."""
        self._stale.update(self._audiences)

    def view(self, live: Live, audience: str, now: float) -> Sent:
        text = self.message(live, audience, now)
        aud = self._audiences[audience]
        sent = Sent(aud.values)
        sent["seq"], sent["now"] = aud.seq, round(now, 3)
        sent.text = text
        return sent

    def step_of(self, audience: str, seq: int) -> int | None:
        """The engine step the audience's view version `seq` was built at."""
        aud = self._audiences.get(audience)
        return aud.steps.get(seq) if aud else None

    def publish(self, live: Live, now: float) -> None:
        """After a commit: every followed audience whose view changed gets one
        message; the others are built when asked for. The streams are woken
        once every message is queued: the hub's event loop then writes them
        in one go, instead of taking turns (and the GIL) with the building of
        the next view after each one."""
        woken: list[Listener] = []
        self._texts, self._pace = {}, None
        try:
            self._publish(live, now, woken)
        finally:
            self._texts, self._pace = None, None
        for listener in woken:
            listener.woken()

    def _publish(self, live: Live, now: float, woken: list[Listener]) -> None:
        # the public view first: the seat boxes' LEDs follow it (hooks)
        audiences = ["public", "gm"] + [f"seat:{i}" for i in range(live.state.size)]
        for audience in audiences:
            if not self._listeners.get(audience) and not (audience == "public" and self.hooks):
                if audience in self._audiences:
                    self._stale.add(audience)
                continue
            self._deliver(live, audience, now, woken)

    def _deliver(self, live: Live, audience: str, now: float, woken: list[Listener]) -> None:
        """Rebuild one audience's view; if it changed, its hooks (the
        public's) see it and its streams are sent it (woken by the caller)."""
        view = self._refresh(live, audience)
        if view is None:
            return
        if audience == "public":
            for hook in self.hooks:
                hook(view)
        listeners = self._listeners.get(audience)
        if listeners:
            message = self._message(self._audiences[audience], now)
            for listener in listeners:
                listener.push(message, wake=False)
            woken += listeners

    # --- listeners ------------------------------------------------------------------

    def listen(self, audience: str, token: str | None, address: str = "",
               caps: StreamCaps | None = None) -> Listener:
        """A new listener of `audience`; past `caps`, the oldest of the same
        seat or address ends, or (the public, in all) TooManyStreams."""
        group = self._listeners.setdefault(audience, [])
        if caps is not None:
            if audience != "public":
                crowd, most = group, caps.per_seat
            else:
                if len(group) >= caps.public_total:
                    raise TooManyStreams(
                        f"the table's public stream is full ({caps.public_total} open): "
                        "close a page, then retry")
                crowd, most = [lst for lst in group if lst.address == address], caps.per_address
            for old in crowd[:max(0, len(crowd) - most + 1)]:
                old.close("replaced")
                group.remove(old)
        listener = Listener(audience, token, address)
        group.append(listener)
        return listener

    def unlisten(self, listener: Listener) -> None:
        group = self._listeners.get(listener.audience, [])
        if listener in group:
            group.remove(listener)

    def all(self) -> list[Listener]:
        return [listener for group in self._listeners.values() for listener in group]

    def close_all(self) -> None:
        """End every stream (the hub is stopping)."""
        for listener in self.all():
            listener.close()

    def close_audience(self, audience: str) -> None:
        """End every stream of `audience` (the GM's, when a tablet is
        unpaired: it stops being sent the GM's view)."""
        for listener in self._listeners.get(audience, []):
            listener.close()

    def close_token(self, token: str) -> None:
        """A seat's link was reissued: its streams end."""
        for listener in self.all():
            if listener.token == token:
                listener.close()


def _event_moment(view: dict) -> None:
    """When the event card of the day shows (RULES.md §10) [issue 45], said
    once for every page (shared.js `renderEvent` reads it, no page works it
    out): `event.moment` is "day" from dawn on the day it was turned, "vote"
    while that day's execution vote is open (the phones and the GM keep the
    card; the table screen gives the ballots its room), None at night (the
    calls included), in the deal and at the end. Public: made of the view's
    own `event.today`, `phase` and `vote`."""
    ev = view.get("event")
    if ev is None:
        return
    moment = None
    if ev.get("today") and view.get("phase") == "day" and view.get("step") != "deal":
        vote = view.get("vote")
        moment = "vote" if vote is not None and vote.get("kind") == "vote" else "day"
    view["event"] = {**ev, "moment": moment}  # the engine's dict is shared: a copy


def _reads_story(shown: State, seat: int) -> str | None:
    """Whether the seat's phone may ask for the story now [issue 45], by the
    one rule (engine.story.readable) on the game its view shows (`shown`: a
    death the night has not told yet opens nothing): "end" once the game is
    over, "ghost" while the seat is dead with `ghosts` on, else None. The
    seat's own facts only; the hub still answers the story by the rule."""
    if not readable(shown, seat):
        return None
    return "end" if shown.phase == "over" else "ghost"
