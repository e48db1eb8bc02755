"""Narrated mode [issue 20]: the hub speaks the game master's lines, so that
nobody has to give up playing to run the game.

    narration = Narration(table, Cache(data / "speech"))   # the table's voice
    narration.timeline(after=-1)    # what the table screen plays, and when
    narration.audio(u)              # an utterance as one WAV

Narration lives in this package alone [issue 45], with one way in and one
way out. In: the table tells it each public view before it is committed,
the deal's included (`became_public`, the `Voice` protocol of
companion/table/voicing.py). Out: one timeline of utterances, kept here,
which the TV (GET /api/speech, companion/hub/speech.py: thin routes), the
Pi's speaker (`_speak`) and `werewolf narrate --timeline`
(companion/speech/timeline.py, `said` and `steps`) all read.

The narration follows the **public** view only, and what it says is
`companion.speech.spoken(previous view, view)`. So it can say nothing the
table screen does not show, and two games that differ only in hidden cards
say the same words at the same moments (the public view is the
non-interference proof's subject, tests/hub/test_secrecy.py).

The voice and the clock are one [issue 29]: each line is scheduled on the
table's clock (`at`), back to back after what is still being said, for its
rendered length (`dur`, a public fact); the table then opens the stage's
window once the words are said (`voicing.voiced`). When a step ends, its
lines not yet begun are dropped and the one being said is cut, so nothing
is ever said late. Nothing is rendered under the table's lock, ever [issue
42]: one background thread (companion/speech/ahead.py) renders the lines
from the deal on, the most urgent first; a line heard before it is on disk
is scheduled for an estimate of its length and rendered at once, and when it
is ready it is said from then on, with what follows it, and the stage waits
as long (`retime`, `Table.revoice`, `voicing.revoiced`): said late (and
logged), never rendered while the table waits. A table screen fetches each
utterance's audio ahead and plays it at its moment (web/static/narration.js,
companion/hub/speech.py); the Pi's own speaker, when asked for (`werewolf
serve --speaker`), plays each at its moment from another thread. Without an
engine for the game's language the timeline still holds the text (the pages
show it), there is no audio and the clock does not wait.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ..table import Table
from .ahead import FIXED, GAME, NEXT, NOW, Ahead
from .cache import Cache, NotRendered
from .engines import join_wavs
from .lines import estimate_s, gap_after, heard, said_form, units
from .listed import fixed_lines, game_lines, story_lines
from .speaker import clipped, scaled

SENTENCE_GAP_S = 0.35  # silence between two lines
#: [issue 42] the table screen's word on each line (POST /api/speech/heard): a
#: line it began or ended later than its moment by more than this moves what
#: follows (and the stage waits as long)...
SCREEN_SLACK_S = 0.3
#: ...by this much at most for one stage (a guest's word cannot hold it longer)
SCREEN_HOLD_S = 8.0
#: a table screen is playing while its last word is this recent
SCREEN_ALIVE_S = 15.0
#: while it plays the stage's last line past its moment, the stage waits this
#: much more at each tick (up to SCREEN_HOLD_S)
SCREEN_STEP_S = 0.25
KEEP = 400  # utterances kept (a long game says a few hundred)


@dataclass
class Utterance:
    n: int  # its place in the game's timeline, from 0
    game: int
    lang: str
    text: str
    units: tuple[str, ...]  # how it is rendered: its sentences, names inside [issue 42]
    event: float  # the table's clock when what it says happened
    at: float  # when it is spoken (the table's clock) [issue 29]
    dur: float  # how long (its rendered pieces; 0: no voice here)
    stage: int  # the pace's stage it belongs to (Pace.stage)
    step: str  # what the table was doing: "night 2 seer", "day 1 vote", ...
    dropped: bool = False  # its stage ended before it could start: never played
    cut: bool = False  # its stage ended while it was said: it stops there
    #: [issue 42] its audio was not on disk when it was heard: `dur` is an
    #: estimate until the background thread has rendered it
    pending: bool = False
    rendered_late: bool = False  # it was pending when heard (said late if not rendered in time)
    late: float = 0.0  # how much later than first scheduled it is said (seconds)
    #: each unit as the engine is given it (a name with a reading said as it) [issue 42]
    said: tuple[str, ...] = ()
    #: it tells what happened (the dawn, a tally, the verdict, the end): a table
    #: screen that was behind still plays it, where it skips a call it missed
    news: bool = False
    held: float = 0.0  # how much later it is said because the table screen was behind

    def to_dict(self) -> dict:
        return {"n": self.n, "text": self.text, "event": round(self.event, 3),
                "at": round(self.at, 3),
                "dur": round(self.dur, 3), "step": self.step, "stage": self.stage,
                "dropped": self.dropped, "cut": self.cut, "ready": not self.pending,
                "news": self.news, "url": f"/api/speech/{self.game}/{self.n}.wav"}


def narrated(table: Table) -> bool:
    """The hub narrates the table's game (its setup's `narrated`): no game
    master sees its secrets. Under the table's lock (it reads the setup)."""
    return bool(table.setup.get("narrated"))


def cache_folder(table: Table) -> Path:
    """Where the rendered speech is kept: `speech/` in the data folder, beside the games."""
    return table.store.path.parent / "speech"


def step_of(view: dict) -> str:
    """What the table is doing, in public words: "night 2 seer", "night 2
    dawn", "day 1 vote", "last words"."""
    pace = view.get("pace") or {}
    if pace.get("mode") == "calls":
        return f"night {pace.get('night')} {pace.get('call') or 'dawn'}"
    if pace.get("mode") == "last-words":
        return f"last words {pace.get('seat')}"
    return str(view.get("step") or pace.get("mode") or "")


@dataclass
class _Heard:
    """What the voice will say of one public view (`Table.Heard`): kept once
    the view is committed."""

    narration: Narration
    view: dict
    said: list[Utterance]  # the new utterances
    stop: list[tuple[Utterance, float]]  # older ones: dropped (dur None) or cut to a length
    ends: float | None  # the voice is done then (None: nothing new said)
    now: float  # when it was heard

    def keep(self) -> None:
        self.narration._keep(self)


def line_length(cache: Cache, lang: str, parts: tuple[str, ...], forms: tuple[str, ...],
                rate: float, offline: bool) -> tuple[float, bool]:
    """(a line's length, whether it is pending): from its units on disk
    (`forms`, as said), with the silences between them (`parts`); an
    estimate from the text while one is not rendered yet. `offline` (the
    narrate command's own cache) renders them now."""
    if offline:
        for f in forms:
            cache.get(lang, f)
    known = [cache.known(lang, f) for f in forms]
    gaps = sum(gap_after(u) for u in parts[:-1])
    if all(k is not None for k in known):
        return (sum(k for k in known if k is not None) + gaps) / rate, False
    return (sum(estimate_s(lang, f) if k is None else k for f, k in zip(forms, known))
            + gaps) / rate, True


class Narration:
    def __init__(self, table: Table, cache: Cache,
                 speaker: Callable[[bytes], None] | None = None, keep: int = KEEP,
                 offline: bool = False) -> None:
        self.table = table
        #: a table on a fake clock that nobody waits for (`werewolf narrate
        #: --timeline`, tests of the timeline): each line is rendered when it
        #: is heard, as if everything had been rendered ahead, and nothing
        #: else is. Never a hub's: its table's lock is held then [issue 42]
        self.offline = offline
        self.keep = keep  # utterances kept
        self.cache = cache
        self.volume = 1.0  # the host page's volume, 0-1 (the TV and the Pi's speaker)
        self._lock = threading.Condition()
        self._said: list[Utterance] = []
        self._count = 0  # utterances said in this game (n of the next)
        self._game: int | None = None
        self._lang = "en"
        self._last: dict | None = None
        self._steps: list[tuple[float, str]] = []  # (when, step): each step the table began
        self._story = False  # the game's story was queued to render
        #: the table screens' word [issue 42]: (n, "begun" | "ended") heard, when a
        #: screen last spoke (None: none plays), the stage held and for how long
        self._screen: set[tuple[int, str]] = set()
        self._screen_at: float | None = None
        self._held: tuple[int, float] = (-1, 0.0)
        #: when the voice was to be done before a screen's word moved its lines
        self._moved: float | None = None
        #: the lines are rendered by one background thread, the most urgent first [issue 42]
        self.ahead = Ahead(cache, done=self._rendered)
        self._speaker = speaker
        self._played = 0
        table.voice = self
        self.sync()
        if speaker is not None:
            threading.Thread(target=self._speak, name="narration-speaker", daemon=True).start()

    # --- the table's voice (under the table's lock: cheap, never renders) ----------

    def sync(self) -> None:
        """Say what the table is doing now, if it is narrated and nothing was
        said yet (at start: a resumed game). Once this voice is the table's,
        the table tells it every public view itself, a new deal's included
        (`became_public`)."""
        with self.table.lock:
            if self.table.state is not None and narrated(self.table):
                with self._lock:
                    fresh = self._game != self.table.game
                if fresh:
                    self.table.hear_again()

    def listening(self) -> bool:
        return narrated(self.table)

    def became_public(self, view: dict, stage: int, now: float) -> _Heard | None:
        """The one way in [issue 45]: what to say now that the public view
        is `view` (about to be committed), and when: after what is being said (a stage that ended
        stops its words: those not yet begun are dropped, the one being said
        is cut), back to back, from a moment after now (Settings.voice_lead_s,
        time for the table screen to fetch them). Each line's length is its
        rendered WAV's, a public fact: the same words take the same time in
        every game. Nothing is rendered here [issue 42]: a line not on disk
        yet is `pending`, scheduled for an estimate of its length (from its
        text alone) until the background thread has rendered it (`retime`)."""
        game = view.get("game")
        lang = str(view.get("language") or "en")
        names = [str(p.get("name")) for p in view.get("players") or []]
        readings = view.get("readings") or None
        with self._lock:
            same = game == self._game
            last = self._last if same else None
            older = [u for u in self._said if not u.dropped] if same else []
        sentences = heard(last, view, lang)
        stop: list[tuple[Utterance, float]] = []
        free = now + self.table.settings.voice_lead_s
        step = step_of(view)
        for u in older:
            if u.step != step and (u.at >= now or u.pending):
                stop.append((u, -1.0))  # never begun: dropped
            elif u.step != step and u.at + u.dur > now:
                stop.append((u, now - u.at))  # being said: cut
            else:
                free = max(free, u.at + u.dur + SENTENCE_GAP_S)
        voice = self.cache.engine(lang) is not None
        said: list[Utterance] = []
        n = self._count if same else 0
        for text, news in sentences:
            parts = tuple(units(text, names))
            if not parts:
                continue
            forms = tuple(said_form(u, readings) for u in parts)
            rate = self.table.settings.voice_rate
            dur, pending = (line_length(self.cache, lang, parts, forms, rate, self.offline)
                            if voice else (0.0, False))
            said.append(Utterance(n + len(said), int(game or 0), lang, text, parts, now, free,
                                  dur, stage, step, pending=pending, rendered_late=pending,
                                  said=forms, news=news))
            free += dur + SENTENCE_GAP_S
        ends = said[-1].at + said[-1].dur if said and voice else None
        return _Heard(self, view, said, stop, ends, now)

    def _keep(self, heard: _Heard) -> None:
        view = heard.view
        game = view.get("game")
        lang = str(view.get("language") or "en")
        with self._lock:
            if game != self._game:  # a new game: a new timeline, its lines rendered ahead
                self._game, self._said, self._played, self._count = game, [], 0, 0
                self._steps = []
                self._lang = lang
                self._story = False
                self._screen, self._screen_at, self._held = set(), None, (-1, 0.0)
                self._moved = None
                self.ahead.forget(GAME)  # the last game's lines still queued: not needed now
                self._prepare(lang, view)
            if not self._story and self.table.ended:  # the story is public: its lines [issue 35]
                self._story = True
                self._tell(lang, view)
            self._last = view
            step = step_of(view)
            if not self._steps or self._steps[-1][1] != step:
                self._steps.append((heard.now, step))
                del self._steps[:-self.keep]
            for u, length in heard.stop:
                if length < 0:
                    u.dropped = True
                else:
                    u.dur, u.cut = length, True
            self._said += heard.said
            self._count += len(heard.said)
            for u in heard.said:
                if u.pending:
                    print(f"werewolf serve: speech: not rendered in time, said late: "
                          f"{u.text[:60]!r}", file=sys.stderr, flush=True)
                    for form in u.said:
                        self.ahead.want(lang, form, NOW)
            if len(self._said) > self.keep:
                self._said = self._said[-self.keep:]
            self._lock.notify_all()

    def _prepare(self, lang: str, view: dict) -> None:
        """A new game: every unit it may say, from its public view at the
        deal (names inside, as their readings), rendered from now on in the
        order it may need them; then the language's fixed lines."""
        if self.offline:
            return
        readings = view.get("readings") or None

        def lines() -> list[tuple[str, str]]:
            return [(lang, said_form(u, readings)) for u in game_lines(view, lang)]

        self.ahead.plan(GAME, lines)
        self.ahead.plan(FIXED, lambda: [(lang, line) for line in fixed_lines(lang)])

    def _tell(self, lang: str, view: dict) -> None:
        """The game's end is public: its story's units, before its first page."""
        if self.offline:
            return
        names = [str(p.get("name")) for p in view.get("players") or []]
        readings = view.get("readings") or None

        def lines() -> list[tuple[str, str]]:
            try:
                told = self.table.told_story("public")["told"]  # its words, page by page
            except Exception:  # noqa: BLE001 - undone since, or a new game: nothing to tell
                return []
            return [(lang, said_form(u, readings)) for u in story_lines(told, names)]

        self.ahead.plan(NEXT, lines)

    def _rendered(self, lang: str, said: str) -> None:
        """The background thread put `said` on disk: a line waiting for it is
        said from now on, and the stage waits for it (`Table.revoice`)."""
        with self._lock:
            waiting = any(u.pending for u in self._said)
        if waiting:
            self.table.revoice()

    def retime(self, now: float) -> tuple[float, float] | None:
        """Move the voice's lines later where they must be [issue 42]: a line
        rendered late is said from now on (a moment later: the table screen
        fetches it); while a table screen plays the last line past its
        moment, it lasts a moment more (`SCREEN_STEP_S`, up to SCREEN_HOLD_S a
        stage); each line after the one before. (When the voice was to be
        done, when it is done now), or None if nothing moved. Under the
        table's lock (`Table.revoice`, `Table.tick`)."""
        lead = self.table.settings.voice_lead_s
        with self._lock:
            live = [u for u in self._said if not u.dropped]
            if not live:
                return None
            # a screen's word moved the lines already (`screen`): from when they ended then
            was = self._moved if self._moved is not None else max(u.at + u.dur for u in live)
            moved, self._moved = self._moved is not None, None
            last = max(live, key=lambda u: u.at + u.dur)
            if self._screen_behind(last, now):
                self._hold(last, now + SCREEN_STEP_S - (last.at + last.dur), live[-1].stage)
            elif not moved and not any(u.pending for u in live):
                return None
            free = None
            for u in live:
                start = u.at
                if u.pending:
                    dur, pending = line_length(self.cache, u.lang, u.units, u.said,
                                               self.table.settings.voice_rate, self.offline)
                    if not pending:
                        u.dur, u.pending = dur, False
                        start = max(start, now + lead)
                if free is not None and free > start + 1e-6:
                    start = free
                if start > u.at + 1e-6:
                    u.late += start - u.at
                    u.at = start
                free = u.at + u.dur + SENTENCE_GAP_S
            ends = max(u.at + u.dur for u in live)
            self._lock.notify_all()
        return (was, ends) if ends > was + 1e-6 else None

    def _screen_behind(self, last: Utterance, now: float) -> bool:
        """A table screen plays, and has not said it ended the voice's last
        line although its moment is over: the stage waits for it (capped)."""
        return (self._screen_at is not None and now - self._screen_at < SCREEN_ALIVE_S
                and not last.pending and last.at + last.dur <= now
                and (last.n, "ended") not in self._screen and now - last.at < 60.0)

    def _allowed(self, later: float, stage: int) -> float:
        """How much of `later` seconds the table's stage (its newest line's)
        may still be held for a screen (SCREEN_HOLD_S a stage), taken."""
        spent = self._held[1] if self._held[0] == stage else 0.0
        later = max(0.0, min(later, SCREEN_HOLD_S - spent))
        self._held = (stage, spent + later)
        return later

    def _hold(self, u: Utterance, later: float, stage: int) -> float:
        """`u` is said `later` seconds later, within what the stage may still
        be held; the seconds it moved."""
        later = self._allowed(later, stage)
        u.at += later
        u.held += later
        return later

    def screen(self, game: int, n: int, what: str) -> bool:
        """A table screen's word on line `n` [issue 42] (POST /api/speech/heard):
        it "began" or "ended" it now, "skipped" it (a newer line replaced
        it: not waited for), or its voice is "off". A line it began or ended
        later than its moment (it was behind: a slow fetch, a reload, news it
        caught up on) is said that much later, with what follows in its
        step, and the stage waits as long (`Table.revoice`); a line of a step
        that is over stays as it was said, and the lines of the step now are
        said once the screen is free. Within SCREEN_HOLD_S a stage: a
        guest's word cannot hold the table. Only the first word on each line
        counts. Whether the voice moved."""
        now = self.table.clock()
        with self._lock:
            if game != self._game:
                return False
            if what == "off":
                self._screen_at = None
                return False
            if what == "skipped":  # a call a newer line replaced: not waited for
                self._screen.add((n, "ended"))
                return False
            u = next((x for x in self._said if x.n == n), None)
            if u is None or u.dropped or u.pending or (n, what) in self._screen:
                return False
            self._screen.add((n, what))
            self._screen_at = now
            late = now - (u.at if what == "begun" else u.at + u.dur)
            if late <= SCREEN_SLACK_S:
                return False
            live = [x for x in self._said if not x.dropped]
            before = max(x.at + x.dur for x in live)
            step, stage = live[-1].step, live[-1].stage
            if u.step == step:  # this step's line: said from when the screen said it
                if self._hold(u, late, stage) <= 0:
                    return False
                free = u.at + u.dur + SENTENCE_GAP_S
                after = [x for x in live if x.n > u.n]
            else:  # a step that is over: this step's lines once the screen is free
                free = now + (u.dur if what == "begun" else 0.0) + SENTENCE_GAP_S
                after = [x for x in live if x.n > u.n and x.step == step and x.at > now]
                if not after or free <= after[0].at:
                    return False
                free = after[0].at + self._allowed(free - after[0].at, stage)
            for x in after:
                if free > x.at + 1e-6:
                    x.held += free - x.at
                    x.at = free
                free = x.at + x.dur + SENTENCE_GAP_S
            if self._moved is None:
                self._moved = before
            self._lock.notify_all()
        return True

    def close(self) -> None:
        """The hub stops: nothing more is rendered."""
        self.ahead.close()

    # --- what the pages ask -----------------------------------------------------------

    def is_narrated(self) -> bool:
        with self.table.lock:
            return narrated(self.table)

    def current_game(self) -> int | None:
        with self.table.lock:
            return self.table.game

    def screen_words(self) -> list[tuple[int, str]]:
        """What the table screens said of the current game's lines: (n,
        "begun" | "ended"), a line a screen passed over counted "ended"
        without "begun" (`werewolf bench narration`)."""
        with self._lock:
            return sorted(self._screen)

    def heard_on_screen(self, game: int, n: int, what: str) -> None:
        """`screen`, and the stage waits for the lines it moved."""
        if self.screen(game, n, what):
            self.table.revoice()

    def timeline(self, after: int = -1) -> dict:
        """The current game's utterances after `after`, and those still to be
        said or being said (a later word may have dropped or cut them), with
        whether each one's audio is ready; the hub's clock and the volume."""
        now = self.table.clock()
        with self._lock:
            said = [u.to_dict() for u in self._said
                    if u.n > after or u.at + u.dur > now - 1.0 or u.pending]
            game, lang = self._game, self._lang
        return {"game": game, "narrated": self.is_narrated(), "volume": self.volume,
                "lang": lang, "now": round(now, 3), "rate": self.table.settings.voice_rate,
                "audio": self.cache.engine(lang) is not None, "said": said}

    def steps(self) -> list[tuple[float, str]]:
        """When each step of the current game began, as the voice heard it
        (`step_of`): a line of a step is said before the next one begins."""
        with self._lock:
            return list(self._steps)

    def said(self) -> list[Utterance]:
        """The current game's utterances (the last `keep`), in order."""
        with self._lock:
            return list(self._said)

    def utterance(self, game: int, n: int) -> Utterance | None:
        with self._lock:
            return next((u for u in self._said if u.game == game and u.n == n), None)

    def audio(self, u: Utterance) -> bytes:
        """The utterance as one WAV, from the files on disk: NotRendered while
        it is pending (never rendered in a request [issue 42])."""
        if u.pending:
            raise NotRendered(f"not rendered yet: {u.text[:40]!r}")
        return join_wavs([self.cache.read(u.lang, f) for f in u.said],
                         [gap_after(x) for x in u.units[:-1]])

    def set_volume(self, volume: float) -> None:
        with self._lock:
            self.volume = max(0.0, min(1.0, volume))
            self._lock.notify_all()

    # --- the Pi's own speaker -----------------------------------------------------------

    def _speak(self) -> None:
        """Each utterance at its moment on the table's clock (joined late: from
        where it is now; dropped: never; cut: up to its cut; pending: once it
        is rendered, at its new moment)."""
        assert self._speaker is not None
        while True:
            with self._lock:
                u = self._unplayed()
                while u is None or u.pending or u.at > self.table.clock():
                    wait = 1.0 if u is None or u.pending else min(0.2, u.at - self.table.clock())
                    self._lock.wait(max(0.01, wait))
                    u = self._unplayed()
                self._played = u.n + 1
                volume = self.volume
                late = self.table.clock() - u.at
            if late >= u.dur:
                continue  # its moment is over
            try:
                data = clipped(self.audio(u), max(0.0, late), u.dur if u.cut else None)
                self._speaker(scaled(data, volume))
            except Exception as err:  # noqa: BLE001 - a speaker's failure never stops the game
                print(f"werewolf serve: speaker: {err}", file=sys.stderr, flush=True)

    def _unplayed(self) -> Utterance | None:
        return next((u for u in self._said if u.n >= self._played and not u.dropped), None)

