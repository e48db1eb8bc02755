"""`Pace`: where the table is in time, as a plain record (pacing.py's
functions take one and answer a new one). Its times are on the table's
monotonic clock while the hub runs and are stored as *time left*
(`to_record`, `from_record`) [issue 16]. `StoryClock`: where the story told
on the table screen at the end is (its page and since when) [issue 35]: the
table asks it whether a page is due and turns it in its tick, nowhere else
[issue 45]."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

#: Pace's times on the table's clock (stored as seconds from the commit)
CLOCK_FIELDS = ("deadline", "started", "talk_until", "opens")
#: a pre-[issue 16] record's wall-clock deadline is trusted this far at most
LEGACY_MAX_S = 900.0


@dataclass(frozen=True)
class Moment:
    """What the table is doing now (`Pace.moment`) [issue 45], placed on the
    engine's view of a seat or the public (`place`): the step the table is at
    (None: the engine's own), the night it is calling (None: the engine's
    phase and day), and whether the engine's open vote is shown (only while
    the ballots are taken: not in the deal, the calls, last words, the
    discussion or the verdict)."""

    step: str | None = None
    night: int | None = None
    vote: bool = True

    def place(self, view: dict) -> dict:
        """`view` (an engine view) as the table shows it now."""
        if not self.vote:
            view.pop("vote", None)
        if self.night is not None:
            view["phase"], view["n"] = "night", self.night
        if self.step is not None:
            view["step"] = self.step
        return view


@dataclass
class Pace:
    """Where the table is in time. Modes:
    deal | lobby | calls | discussion | ballot | prompt | last-words | verdict | over.
    (deal: the game waits for the GM's "start"; lobby: it starts at once.)"""

    mode: str = "lobby"
    step_id: int = -1  # the engine step (pending id) this record was made for
    night: int = 0  # calls: the night being called
    calls: list[str] = field(default_factory=list)
    cursor: int = 0  # calls: index of the current call
    live: bool = False  # calls: the current call's step is open in the engine
    #: calls: the log's length when the current call opened; a seat is shown
    #: its private news up to there until the call ends [issue 28] (None: a
    #: record saved before it was kept)
    since: int | None = None
    started: float = 0.0
    deadline: float | None = None
    paused: float | None = None  # seconds left when paused
    hold: int | None = None  # public views are built from the log up to this index
    words: list[int] = field(default_factory=list)  # seats still owed last words
    seat: int | None = None  # last words: whose
    deaths_seen: int = 0  # deaths already given last words (or not owed any)
    nights_called: int = 0  # nights whose calls are over
    verdict_night: int = 0  # the night before which the day's verdict was shown
    order: list[int] = field(default_factory=list)  # roll-call: candidates, in calling order
    picks: dict[str, int] = field(default_factory=dict)  # lock-in: seat -> target picked
    talk_until: float = 0.0  # the day's discussion ends then, even if the vote reopens
    talk_day: int = 0  # the day that discussion is for (The Village's barber, RULES.md §8)
    #: how many times what is open changed (a call, a ballot, last words...):
    #: a GM's Next, pause or +30 s names the stage it was pressed on, and one
    #: pressed on another stage changes nothing [issue 30 item 2]. Public: it
    #: counts pacing's own steps, never the engine's events
    stage: int = 0
    #: narrated games [issue 29]: when the open stage's window opened, once
    #: the voice had said what opens it (None: as it began, or not narrated)
    opens: float | None = None
    #: speaking turns [issue 34]: the seats who speak, in order (the day's
    #: discussion with `discussion_turns`, the candidates' defences with
    #: `vote_mode=candidates`); [] for a free discussion
    turns: list[int] = field(default_factory=list)
    turn: int = 0  # the index in `turns` of the seat speaking now
    turns_of: str = ""  # "discussion" | "defence" (companion/table/turns.py)
    #: `ready_ends_night` [issue 34]: the seats whose phone tapped "ready" in
    #: the night's one window (never public: it would tell who is slow)
    ready: list[int] = field(default_factory=list)

    def rollcall(self, at: float, window: float) -> int | None:
        """Roll-call: the index in `order` of the candidate whose window holds
        the moment `at` (None before the first or after the last). The windows
        end back to back at the deadline, so pausing or extending the ballot
        moves them all."""
        n = len(self.order)
        if not n or self.mode != "ballot":
            return None
        left = self.paused if self.paused is not None else (
            None if self.deadline is None else self.deadline - at)
        if left is None or left <= 0 or left > n * window:
            return None
        return max(0, n - math.ceil(left / window))

    def to_dict(self) -> dict:
        """The record as JSON-ready data (its own copies of the lists); by
        hand, as `dataclasses.asdict` is ten times slower and this runs at
        every commit."""
        out = dict(self.__dict__)
        out["calls"], out["words"], out["order"] = list(self.calls), list(self.words), \
            list(self.order)
        out["turns"], out["ready"] = list(self.turns), list(self.ready)
        out["picks"] = dict(self.picks)
        return out

    @classmethod
    def from_dict(cls, d: dict) -> Pace:
        known = {k: v for k, v in d.items() if k in cls.__dataclass_fields__}
        return cls(**known)

    def to_record(self, now: float) -> dict:
        """The record as the store keeps it: its times as seconds from `now`
        (time left, or ago), so that it means the same after a restart on
        a monotonic clock that starts again anywhere [issue 16]."""
        out = self.to_dict()
        for key in CLOCK_FIELDS:
            if out[key] is not None:
                out[key] = out[key] - now
        out["clock"] = "left"
        return out

    @classmethod
    def from_record(cls, d: dict, now: float, wall: float) -> Pace:
        """A stored record on the clock reading `now`. A record saved before
        times were kept as time left holds wall-clock times: read once with
        the wall clock `wall`, its deadline no further off than LEGACY_MAX_S."""
        pc = cls.from_dict(d)
        if d.get("clock") == "left":
            for key in CLOCK_FIELDS:
                value = getattr(pc, key)
                if value is not None:
                    setattr(pc, key, value + now)
            return pc
        for key in CLOCK_FIELDS:
            value = getattr(pc, key)
            if value is not None:
                ago = min(max(value - wall, -LEGACY_MAX_S), LEGACY_MAX_S)
                setattr(pc, key, now + ago)
        return pc

    def copy(self) -> Pace:
        return Pace(**self.to_dict())

    def moment(self, day: int) -> Moment:
        """What the table is doing now, as every seat and the public are
        shown it [issue 45]: the one place that says so. `day`: the day of
        the game as that view shows it (the engine's `n`)."""
        mode = self.mode
        if mode == "deal":  # every phone opens its card; nothing is called yet
            return Moment("deal", vote=False)
        if mode == "calls":
            return Moment(f"night {self.night}", night=self.night, vote=False)
        if mode == "last-words":
            return Moment("last words", vote=False)
        if mode == "discussion":  # the candidates' defence in turns [issue 34]
            talk = "defence" if self.turns_of == "defence" else "discussion"
            return Moment(f"day {day} {talk}", vote=False)
        if mode == "verdict":
            return Moment(f"day {day} verdict", vote=False)
        return Moment()

    def remaining(self, now: float) -> float | None:
        if self.paused is not None:
            return self.paused
        if self.deadline is None:
            return None
        return max(0.0, self.deadline - now)


#: the story told on the table screen at the end [issue 35]: it begins this
#: long after the end (the winners are said first), and each page (a night,
#: a day) stays for a base time and a time per line, or until the voice
#: of a narrated game has said it, unless a tap turns it sooner
STORY_START_S = 8.0
STORY_PAGE_S = 6.0
STORY_LINE_S = 3.0


@dataclass(frozen=True)
class StoryClock:
    """The story's page on the table screen at the end [issue 35], on the
    table's clock (never stored: a restart tells it from its start). Its
    methods answer a new clock; `due` only asks [issue 45]."""

    #: (the game, when its end was first seen); None: no end seen
    over: tuple[int, float] | None = None
    page: int = -1  # the page shown (-1: not begun)
    at: float = 0.0  # since when
    voice: float = 0.0  # until when a narrated game's voice says it

    def seen(self, game: int | None, ended: bool, now: float) -> StoryClock:
        """The clock once the table has looked at its game: the story begins
        anew with each end first seen (an undo at the end, then the next end,
        begins it again)."""
        if not ended or game is None:
            return self if self.over is None else replace(self, over=None)
        if self.over is None or self.over[0] != game:
            return StoryClock((game, now), -1, now, 0.0)
        return self

    def due(self, now: float, lines: Callable[[], Sequence[int]]) -> bool:
        """Whether the clock turns the page at `now`: the story begins
        STORY_START_S after the end was seen, then each page stays its time
        (and its voice's); the last page stays. `lines`: each page's number
        of lines (asked once the story has begun)."""
        if self.over is None:
            return False
        if self.page < 0:
            return now >= self.over[1] + STORY_START_S
        pages = lines()
        if self.page >= len(pages) - 1:
            return False  # the end stays on the screen
        return now >= max(self.at + STORY_PAGE_S + STORY_LINE_S * pages[self.page], self.voice)

    def turned(self, pages: int, now: float) -> StoryClock:
        """The next page of `pages` from `now` (after the last, the first)."""
        return replace(self, page=(self.page + 1) % pages, at=now)

    def tick(self, game: int | None, ended: bool, now: float,
             lines: Callable[[], Sequence[int]]) -> tuple[StoryClock, bool]:
        """The clock at `now` (`seen`, then `turned` if `due`), and whether
        its page turned."""
        clock = self.seen(game, ended, now)
        if not clock.due(now, lines):
            return clock, False
        return clock.turned(len(lines()), now), True
