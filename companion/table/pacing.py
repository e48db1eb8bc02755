"""Pacing: what the hub does with time, in one place.

The engine moves as fast as actions arrive; the table does not. The hub
  - *calls* every step of the night's public calling order (RULES.md §4), each
    for a plausible random time, even when the engine skipped it (a dead or
    absent role), so that timing tells nobody who is alive or in the deal;
  - holds the day's *discussion* (`discussion_s`, and `extra_discussion_s`
    before a runoff) before it accepts ballots;
  - gives every death the same *last words* pause when roles are hidden on
    death, so a hunter who passes looks like anybody else;
  - holds the day's *verdict* (the tally and the execution) on the table for
    a moment before the night is called, as a moderator announces it;
  - gives ballots and prompts a deadline, after which the engine's `timeout`
    applies its defaults.

`Pace` is a plain record (saved with every commit, so deadlines survive a
restart); `Table` drives it.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field


@dataclass(frozen=True)
class Settings:
    """Hub timings in seconds (the game's own timers are its options)."""

    call_s: tuple[float, float] = (8.0, 20.0)  # a night call lasts a random time in this range
    ballot_s: float = 90.0  # a vote's ballots, once the discussion is over
    prompt_s: float = 60.0  # hunter's shot, sheriff's successor, scapegoat's choice
    last_words_s: float = 30.0  # each death's pause when roles are hidden
    verdict_s: float = 10.0  # the day's result, shown before night falls
    restart_grace_s: float = 15.0  # a deadline that passed while the hub was down
    rollcall_s: float = 5.0  # roll-call voting: each candidate's window for presses


@dataclass
class Pace:
    """Where the table is in time. Modes:
    lobby | calls | discussion | ballot | prompt | last-words | verdict | over."""

    mode: str = "lobby"
    step_id: int = -1  # the engine step (pending id) this record was made for
    night: int = 0  # calls: the night being called
    calls: list[str] = field(default_factory=list)
    cursor: int = 0  # calls: index of the current call
    live: bool = False  # calls: the current call's step is open in the engine
    min_end: float = 0.0  # calls: the current call lasts at least until then
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
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict) -> Pace:
        known = {k: v for k, v in d.items() if k in cls.__dataclass_fields__}
        return cls(**known)

    def remaining(self, now: float) -> float | None:
        if self.paused is not None:
            return self.paused
        if self.deadline is None:
            return None
        return max(0.0, self.deadline - now)
