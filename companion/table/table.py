"""`Table`: the one live game, and the one path every input takes.

    input ─► Table (lock, seq check, pacing) ─► engine.act ─► Store (commit) ─► audiences

A phone's tap, a seat box's press, the GM's tablet and a timer running out all
call `Table.act_*` or `Table.tick`. One lock serialises the engine (which is
not thread-safe), the commit and the views built from it; nothing is published
until the events are committed. Time is an input: `clock` is injected, and
tests drive `tick(now)` with a fake clock instead of sleeping. When pacing
says (`pacing.advance`), the table applies the engine's timeout.

The clock is monotonic (`time.monotonic`): a Pi has no real-time clock and
its wall clock jumps at boot or when a phone sets it, which must neither end
nor stretch anything. The store keeps the pace's deadlines as time left
(`Pace.to_record`), so a restart resumes them whatever either clock says;
`wall` is read only to open a record saved before that [issue 16].

Phones that vote at the same moment are committed together: each request
queues its action, and whichever holds the lock applies every queued action
in order, commits them in one transaction (one fsync) and publishes once;
each phone is answered after that commit.
"""

from __future__ import annotations

import random
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import replace

from ..engine import Action, IllegalAction, State, act, legal_actions, rebuild
from ..replay import parse_action
from ..store import Store
from . import pacing, voicing
from .audiences import Audiences, Sent
from .batch import Queue, Ticket, run
from .checks import check_gm_seq, check_seat_seq, split_seq, undone
from .errors import BadInput, NotFound, NotNow, TableError
from .held import held, held_value
from .pace import StoryClock
from .pacing import Pace, Settings
from .pins import Pins
from .presses import lockin_pick, vote_presses
from .seats import Seats
from .setup import parse_setup
from .showing import Showing
from .taps import Taps
from .timing import commit, settle
from .voicing import Heard, Voice


class Table:
    """The one live game: its commands and commit (here), its reads
    (`showing`: showing.py)."""

    def __init__(self, store: Store, clock: Callable[[], float] = time.monotonic,
                 rng: random.Random | None = None, settings: Settings | None = None,
                 wall: Callable[[], float] = time.time) -> None:
        self.store = store
        self.clock = clock
        self.wall = wall
        self.rng = rng or random.SystemRandom()
        self.settings = settings or Settings()
        self.lock = threading.RLock()
        self.game: int | None = None
        self.setup: dict = {}
        self.state: State | None = None
        self.seating = Seats(store)
        self.pace = Pace()
        self.story_clock = StoryClock()  # the story's page at the end [issue 35]
        self.store_pace: dict = {}  # the pace as last committed
        self._saved_at = 0.0  # when the pace was last written (the clock's time)
        self.changed = threading.Condition(self.lock)
        #: raises ValueError (one clear message) when the seat boxes cannot
        #: seat this many players; None: no seat boxes wired [issue 7]
        self.seat_check: Callable[[int], None] | None = None
        #: called with each new public view right after its commit, under the
        #: lock, before the other views are built (the seat boxes' LEDs)
        self.public_hooks: list[Callable[[dict], None]] = []
        self.audiences = Audiences(self.public_hooks)
        self.showing = Showing(self)  # every view, stream and read of the game
        self.taps = Taps(self)  # the GM's clock, a speaker's pass, a phone's Ready
        #: narrated games [issue 29]: hears each public view before it is
        #: committed and says when it will be done saying it; pacing opens the
        #: stage's window only then (`voicing.voiced`), so the voice never
        #: trails the clock. None: nobody speaks
        self.voice: Voice | None = None
        self._voice_due = False  # the voice hears the next commit even if nothing moved
        #: the seats' PINs in a narrated game (pins.py) [issue 40]
        self.pins = Pins(self)
        self._queue = Queue()  # phones' actions waiting for the lock (group commit)
        self._unpublished = False  # a commit's publish waits for the ballots queued behind it

    # --- the read side: the table's Showing (showing.py) ------------------------

    language = held_value("showing", Showing.language)
    ended = held_value("showing", Showing.ended)
    buttons = held_value("showing", Showing.buttons)
    seats_info = held("showing", Showing.seats_info)
    seats = held("showing", Showing.seats)
    _need_game = held("showing", Showing.need_game)
    public = held("showing", Showing.public)
    seat_view = held("showing", Showing.seat_view)
    gm_view = held("showing", Showing.gm_view)
    story = held("showing", Showing.story)
    told_story = held("showing", Showing.told_story)
    result = held("showing", Showing.result)
    listen = held("showing", Showing.listen)
    unlisten = held("showing", Showing.unlisten)
    close_listeners = held("showing", Showing.close_listeners)
    listeners = held("showing", Showing.listeners)
    seat_of = held("showing", Showing.seat_of)
    holder = held("showing", Showing.holder)

    # --- taps on the table's time: the table's Taps (taps.py) --------------------

    suspect = held("taps", Taps.suspect)
    pass_turn = held("taps", Taps.pass_turn)
    ready = held("taps", Taps.ready)
    timer = held("taps", Taps.timer)

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
        self.seating.load(rec.id, rec.tokens, rec.claims, rec.pins)
        now = self.clock()
        self.pace = Pace.from_record(rec.pace, now, self.wall()) if rec.pace else Pace()
        if restarted:  # the table was waiting when the power went: a moment more
            self.pace = pacing.resumed(self.pace, now, self.settings)
        self.audiences.reset(self.store.boot(game) if restarted else 0)
        self.store_pace = self.pace.to_dict()
        self._advance_and_commit(now, start=len(self.state.log))

    def create(self, doc: object) -> dict:
        """Deal a new game from its setup (POST /api/games; `table.setup`)."""
        parsed = parse_setup(doc, lambda: self.rng.randrange(2**31), self.seat_check)
        state = parsed.state
        tokens = [secrets.token_urlsafe(16) for _ in state.names]  # 128 bits each
        with self.lock:
            pace = pacing.dealt(state, parsed.wait_for_start)
            game = self.store.create_game(parsed.record, state.log, tokens, pace.to_record(0))
            self._voice_due = True  # a narrated game's voice hears its deal [issue 45]
            self._load(game, restarted=False)
            return self.seats_info()

    def _rules(self) -> pacing.Rules:
        return pacing.Rules(self.settings, self.buttons)

    # --- the one path ---------------------------------------------------------

    def act_gm(self, raw: object) -> Sent:
        """An action of the replay format from the game master, for any seat."""
        with self.lock:
            state = self._need_game()
            seq, body = split_seq(raw)
            try:
                action = parse_action(state, body)
            except IllegalAction as err:
                raise BadInput(str(err)) from None
            if self.pace.mode == "deal":  # not even the GM's, before "start" [issue 28]
                raise NotNow(pacing.NOT_STARTED)
            check_gm_seq(state, seq)
            now = self.clock()
            saved = self.pace
            self.pace = pacing.clear_way(state, saved, now, self._rules())  # a GM is never held...
            start = len(state.log)
            try:
                self._apply(action)
                self._advance_and_commit(now, start)
            except TableError:
                self.pace = saved  # ...but a refused action changes nothing
                raise
            return self.gm_view()

    def act_seat(self, seat: int, raw: object) -> Sent:
        """An action from a seat's phone (no `actor`: the seat is the actor).
        Phones acting at once share one commit (see the module's docstring)."""
        return self._answer(self._queue.join(seat, raw))

    def _answer(self, ticket: Ticket) -> Sent:
        """A queued phone action's answer, once it holds the lock: run the
        queue if nobody has yet; publish if it is the burst's last."""
        seat = ticket.seat
        with self.lock:
            if not ticket.done:
                self._act_queued()
            if self._unpublished and not self._queue.waiting():  # the burst's last commit
                self._publish()
            if ticket.error is not None:
                raise ticket.error
            return self.seat_view(seat)

    def _act_queued(self) -> None:
        """Apply every queued phone action in order (each seeing the ones
        before it, as if they came one by one), then commit them together."""
        batch = self._queue.take()
        try:
            state = self._need_game()
        except TableError as err:
            for ticket in batch:
                ticket.done, ticket.error = True, err
            return
        start, now = len(state.log), self.clock()
        # ballots queued behind these by the time they are stored: one publish for all
        run(batch, lambda ticket: self._seat_action(ticket.seat, ticket.raw, now),
            lambda: self._advance_and_commit(now, start, phones=True))

    def _seat_action(self, seat: int, raw: object, now: float) -> None:
        state = self._need_game()
        seq, body = split_seq(raw)
        if "actor" in body:
            raise BadInput("a phone's action has no 'actor': it acts for its own seat")
        body["actor"] = state.names[seat]
        try:
            action = parse_action(state, body)
        except IllegalAction as err:
            raise BadInput(str(err)) from None
        check_seat_seq(self.audiences, state, seat, seq)
        refusal = pacing.seat_refusal(self.pace, seat, action.do, self.buttons,
                                      lambda: bool(legal_actions(state, seat)), now)
        if refusal is not None:
            raise NotNow(refusal)
        if action.do == "vote" and self.buttons == "lock-in":
            self.pace = lockin_pick(state, self.pace, seat, action)
        else:
            self._apply(action)
        self._settle(now)

    def act_presses(self, presses: list[tuple[int, float]]) -> list[str]:
        """Seat-box presses [issue 7]: (seat, when) pairs, `when` on the
        table's clock. Each becomes a vote by the game's button mode, and all
        that land are committed in one transaction before anything is
        published. Answers one outcome per press, in order: "recorded" (the
        vote is in the log, or was already locked) or a reason it was refused
        (nothing changed for it)."""
        with self.lock:
            state = self.state
            if state is None:
                return ["no game" for _ in presses]
            start = len(state.log)
            out, applied = vote_presses(state, self.pace, self.buttons, presses,
                                        self.settings.rollcall_s)
            if applied:  # one transaction for the batch; a failure loses no acknowledged vote
                self._advance_and_commit(self.clock(), start)
            return out

    def _apply(self, action: Action) -> None:
        state = self._need_game()
        try:
            act(state, action, expect=state.acts)
        except IllegalAction as err:
            raise NotNow(str(err)) from None

    def tick(self, now: float | None = None) -> None:
        """Let time pass: advance pacing, apply timeouts whose deadline passed."""
        with self.lock:
            if self.state is None:
                return
            now = self.clock() if now is None else now
            self._retimed(now)
            self._advance_and_commit(now, start=len(self.state.log), quiet=True)
            self.story_clock, turned = self.story_clock.tick(self.game, self.ended, now,
                                                             self.showing.page_lines)
            if turned:  # the story's next page at the end [issue 35]
                self._voice_due = True
                self._advance_and_commit(now, start=len(self.state.log))

    def story_step(self) -> dict:
        """A tap on the GM's tablet or the host page: the story's next page
        on the table screen [issue 35]; NotNow before the end."""
        with self.lock:
            state = self._need_game()
            if not self.ended:  # the table's end, not the log's [issue 40]
                raise NotNow("the story is told once the game is over")
            now = self.clock()
            clock = self.story_clock.seen(self.game, True, now)
            self.story_clock = clock.turned(len(self.showing.page_lines()), now)
            self._voice_due = True
            self._advance_and_commit(now, start=len(state.log))
            return self.public()

    def _settle(self, now: float) -> None:
        self.pace = settle(self._need_game(), self.pace, now, self._rules())

    def _advance_and_commit(self, now: float, start: int, quiet: bool = False,
                            phones: bool = False) -> None:
        """Advance pacing (applying timeouts), commit new events and the pace in
        one transaction, then publish. Before the commit nothing is told.
        `quiet` (the clock's tick): publish only if something moved — new
        events, the pace, or the roll-call's candidate — so an idle table does
        not rebuild every view four times a second. `phones` (a batch of
        phones' actions): if more were queued while it was stored, the
        publish is left to the last of them (`act_seat`); until then a view
        asked for is built anew."""
        state = self._need_game()
        assert self.game is not None
        before = self.store_pace
        self._settle(now)
        pace = self.pace.to_dict()
        new = state.log[start:]
        rollcall = self.pace.rollcall(now, self.settings.rollcall_s)
        moved = rollcall != self.showing.rollcall_shown  # the roll-call's candidate
        heard = None
        if self.voice is not None and (new or pace != before or moved or self._voice_due):
            self._voice_due = False
            heard = self._hear(now, rollcall, before.get("stage"))
            pace = self.pace.to_dict()
        try:  # the pace as time left [issue 16]
            self._saved_at = commit(self.store, self.game, start, state, self.pace,
                                    pace != before, now, self._saved_at)
        except Exception:
            # not durable, so it did not happen: back to what the store holds
            self.state = rebuild(state.log[:start])
            self.pace = Pace.from_dict(before)
            raise
        self.store_pace = pace
        if heard is not None:
            heard.keep()
        if quiet and not new and pace == before and not moved:
            return
        self.showing.rollcall_shown = rollcall
        if phones and self._queue.waiting():
            self._unpublished = True
            self.audiences.outdated()
            return
        self._publish()

    def hear_again(self) -> None:
        """The voice hears the table as it is now (a voice set after the game
        was loaded: a resumed narrated game says where it is)."""
        with self.lock:
            if self.state is not None and self.voice is not None:
                self._voice_due = True
                self._advance_and_commit(self.clock(), start=len(self.state.log))

    def revoice(self) -> None:
        """The voice's lines moved (a line rendered late, the table screen
        behind) [issue 42]: the stage waits for them, committed and published
        at once. Called from the voice's own thread or a screen's request."""
        with self.lock:
            if self.state is not None and self.voice is not None and self._retimed(self.clock()):
                self._advance_and_commit(self.clock(), start=len(self.state.log))

    def _retimed(self, now: float) -> bool:
        """Apply the voice's moved lines to the pace (`voicing.retimed`)."""
        story = self.story_clock
        got = voicing.retimed(self.voice, self.pace, story.voice, now)
        if got is not None:
            self.pace, self.story_clock = got[0], replace(story, voice=got[1])
        return got is not None

    def _hear(self, now: float, rollcall: int | None, stage: object) -> Heard | None:
        """A narrated game: the voice hears the public view this commit will
        publish; the stage it opens waits for its words (`voicing.heard`)."""
        if self.voice is None or not self.voice.listening():
            return None
        view = self.audiences.build(self.showing.live(rollcall), "public")
        got, self.pace, voice = voicing.heard(self.voice, view, self.pace,
                                              self.story_clock.voice, stage, now)
        self.story_clock = replace(self.story_clock, voice=voice)
        return got

    def _publish(self) -> None:
        self._unpublished = False
        self.showing.publish()
        self.changed.notify_all()

    # --- the game master's controls -------------------------------------------

    def undo(self, expect: object, to: int | None = None) -> Sent:
        """Take back the last action, or (to=K) every action from the K-th on,
        if `expect` is still the action count (`undone`) [issue 17]. The
        store is truncated first: a failed truncate leaves memory as the file."""
        with self.lock:
            new = undone(self._need_game(), expect, to)
            assert self.game is not None
            now = self.clock()
            pace = pacing.clear_way(new, self.pace, now, self._rules())
            self.store.truncate(self.game, len(new.log), pace.to_record(now))  # durable first
            self.state, self.pace, self.store_pace = new, pace, pace.to_dict()
            self.audiences.forget_held()
            self._advance_and_commit(now, start=len(new.log))
            return self.gm_view()

    def reissue(self, seat: int) -> dict:
        """A new link for a seat: the old one, and its streams, end."""
        return self._reseat(seat, lambda: self.audiences.close_token(self.seating.reissue(seat)))

    def release(self, seat: int) -> dict:
        """Free a seat for another phone (the GM's)."""
        return self._reseat(seat, lambda: self.seating.release(seat))

    def _reseat(self, seat: int, change: Callable[[], object]) -> dict:
        with self.lock:
            self._need_game()
            self.seating.check(seat)
            change()
            self._publish()
            return self.seats_info()

    # --- seats and devices ----------------------------------------------------

    def claim(self, seat: int, device: str) -> bool:
        """The first device to open a seat keeps it; others are refused, and
        so is any device while the seat is locked (`locked`)."""
        with self.lock:
            if self.seating.locked(seat):
                return False
            if self.seating.claim(seat, device):
                self._publish()
            return self.seating.claims[seat] == device
