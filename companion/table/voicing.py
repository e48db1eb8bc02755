"""A narrated game's voice and the table's clock [issues 29, 42]: what the
table needs of its voice (`Voice`, `Heard`: companion/speech/narration.py is
one), and how the pace waits for the words — a stage opened by a line opens
its window once the line is said (`voiced`), and waits longer when the
voice says it is done later than it first said (`revoiced`: a line rendered
late, the table screen behind). Pure functions of the pace record, as
companion/table/pacing.py's: no clock is read, no thread, no I/O.
"""

from __future__ import annotations

from typing import Protocol

from .pace import Pace


class Heard(Protocol):
    """What a voice will say of a public view: it is done speaking at `ends`
    (the table's clock); `keep()` once the view is committed."""

    ends: float | None  # None: nothing new is said

    def keep(self) -> None: ...


class Voice(Protocol):
    """Narrated games' voice (companion/speech/narration.py) [issue 29]."""

    def listening(self) -> bool:
        """Whether the table's game is narrated (under the table's lock)."""
        ...

    def became_public(self, view: dict, stage: int, now: float) -> Heard | None:
        """The one way in [issue 45]: the public view `view` is about to be
        committed (the deal's included); what the voice would say of it
        (None: nothing). The voice learns nothing else of the game."""
        ...

    def retime(self, now: float) -> tuple[float, float] | None:
        """Its lines moved later [issue 42] (one said late because it was not
        rendered yet, or the table screen behind): (when it was to be done,
        when it is done now), or None if nothing moved."""
        ...


#: narrated games: the stages whose window is for acting or talking, opened
#: only once the voice has said what opens them [issue 29]
VOICED_WINDOWS = frozenset({"calls", "discussion", "ballot", "prompt", "last-words"})
#: narrated games: the verdict stays this long after its last word [issue 29]
VERDICT_AFTER_S = 2.0


def voiced(pace: Pace, ends: float, opened: bool) -> Pace:
    """Narrated games [issue 29]: the voice says what the table does now
    until `ends` (the hub's clock; from the lines' rendered lengths, public
    facts). A stage that `opened` with those words opens its window once they
    are said (a call, the discussion, a ballot, a prompt, last words: its
    whole window after the voice, `opens`); the verdict lasts until a moment
    after its last word; anything else said lasts at least as long as the
    voice, and what is said in a window (a day power's news) is heard before
    anyone acts again (`opens` moves to its end). Paused or untimed stages
    are left alone. The night's length still depends on public facts only:
    what is said is (companion/speech/lines.py)."""
    pc = pace.copy()
    if pc.deadline is None or pc.paused is not None or ends <= pc.started:
        return pc
    old = pc.deadline
    if opened and pc.mode in VOICED_WINDOWS:
        pc.deadline, pc.opens = max(old, ends + (old - pc.started)), ends
    elif opened and pc.mode == "verdict":
        pc.deadline = max(old, ends + VERDICT_AFTER_S)
    else:
        pc.deadline = max(old, ends)
        if pc.mode in VOICED_WINDOWS:  # said mid-stage (a day power's news): heard first
            pc.opens = max(pc.opens or ends, ends)
    if pc.mode == "discussion" and pc.talk_until == old:
        pc.talk_until = pc.deadline  # the barber's reopened vote keeps the day's timing
    return pc


def revoiced(pace: Pace, was: float, ends: float) -> Pace:
    """Narrated games [issue 42]: the voice will be done at `ends`, not at
    `was` as `voiced` was told (a line said late because it was not rendered
    yet, or the table screen behind), so the stage waits as long: a window
    that opened with those words opens at `ends` and keeps its whole length,
    the verdict lasts until a moment after them, anything else at least as
    long. Never sooner; paused or untimed stages are left alone."""
    pc = pace.copy()
    later = ends - was
    if later <= 0 or pc.deadline is None or pc.paused is not None:
        return pc
    old = pc.deadline
    if pc.opens is not None and abs(pc.opens - was) < 1e-6:
        pc.opens, pc.deadline = ends, old + later
    elif pc.mode == "verdict":
        pc.deadline = max(old, ends + VERDICT_AFTER_S)
    else:
        pc.deadline = max(old, ends)
        if pc.mode in VOICED_WINDOWS:
            pc.opens = max(pc.opens or ends, ends)
    if pc.mode == "discussion" and pc.talk_until == old:
        pc.talk_until = pc.deadline
    return pc


def retimed(voice: Voice | None, pace: Pace, story_voice: float,
            now: float) -> tuple[Pace, float] | None:
    """The voice's lines moved (`Voice.retime`): the pace that waits for
    them, and when the story's page may turn (it waits for its words [issue
    35]); None if nothing moved."""
    moved = voice.retime(now) if voice is not None else None
    if moved is None:
        return None
    was, ends = moved
    return revoiced(pace, was, ends), (ends if story_voice >= was - 1e-6 else story_voice)


def heard(voice: Voice, view: dict, pace: Pace, story_voice: float, stage: object,
          now: float) -> tuple[Heard | None, Pace, float]:
    """The voice hears the public `view` a commit will publish: what it will
    say, the pace waiting for it (a stage that opened with these words,
    `pace.stage` other than `stage`, opens once they are said) and when the
    story's page may turn."""
    got = voice.became_public(view, pace.stage, now)
    if got is not None and got.ends is not None:
        return got, voiced(pace, got.ends, pace.stage != stage), got.ends
    return got, pace, story_voice
