"""Pacing: what the hub does with time, in one place, as pure functions.

The engine moves as fast as actions arrive; the table does not. The hub
  - *calls* every step of the night's public calling order (RULES.md §4: the
    deck's cards, alive, dead or in the centre), each for **exactly its
    window** (`night_s` for a role, `pack_s` for the werewolves; jp-standard's
    one window `night_s`), whatever its holder does: an early answer does not
    end the call and an unanswered call times out at its end, so a night's
    length depends on public facts only (the deck, the night, the options);
  - holds the day's *discussion* (`discussion_s`, and `extra_discussion_s`
    before a runoff) before it accepts ballots;
  - gives every death the same *last words* pause when roles are hidden on
    death, so a hunter who passes looks like anybody else;
  - holds the day's *verdict* (the tally and the execution) on the table for
    a moment before the night is called, as a moderator announces it;
  - gives ballots and prompts a deadline, after which the engine's `timeout`
    applies its defaults.
The game master's one "Next" (`timer(..., "skip")`) ends whatever is open at
once. A game dealt with `wait_for_start` waits in the mode *deal* (every
phone opens its card; nothing is accepted, nothing is called) until the
game master's "start" [issue 28].

`Pace` is a plain record. Its times are on the table's monotonic clock while
the hub runs, and are saved as *time left* (`to_record`) with every commit, so
a restart resumes each deadline with the time it had left, whatever the wall
clock says (`from_record`, `resumed`). Every function here takes the engine's
state, a pace record and `now` and answers a new record (the one given is
never changed): no clock is read, no thread, no I/O. `advance` says what is
open and until when; the table applies the engine's `timeout` when it
answers True, and asks again.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..engine import (
    ROLES,
    State,
    attack_tonight,
    night_calls,
    pending,
    rebuild,
)
from ..options import NIGHT_S, PACK_S, REVEAL_ON_DEATH
from .nightlog import dawn_index, last_night, night_index
from .pace import CLOCK_FIELDS, LEGACY_MAX_S, Pace
from .ready import all_ready, said_ready
from .turns import turn_seconds, turns_for, turns_view

__all__ = ["CLOCK_FIELDS", "LEGACY_MAX_S", "Pace", "Rules", "Settings"]

#: what the GM's Next ends (everything but the lobby, the deal and the game's end)
SKIPPABLE = frozenset({"calls", "discussion", "ballot", "prompt", "last-words", "verdict"})
#: every refusal before the game master's "start" [issue 28]
NOT_STARTED = ("the game has not started yet: the game master starts it once every phone "
               "has its card")
#: The Village's day powers are the discussion's (RULES.md §8) [issue 40]
DAY_POWERS_SAID = "day powers are used during the discussion, before the vote"
#: a phone's Ready is its last word for the window (RULES.md §4 Decision r5) [issue 40]
SAID_READY = "you said you are ready: the night goes on without your choice"
#: a narrated game's window opens once the voice has said what opens it [issue 29]
NARRATOR_SPEAKING = "wait: the narrator is still speaking"
#: The Village's day powers (RULES.md §8): usable while the hub holds the discussion.
DAY_POWERS = frozenset({"confess", "shave", "silence", "restore", "assign"})
NIGHT_KINDS = ("night", "wolves")
PACK_CALLS = ("wolves", "actions")  # the calls in which the pack picks (state.TOGETHER)
@dataclass(frozen=True)
class Settings:
    """Hub timings in seconds (the game's own timers are its options)."""

    #: the night's windows (a role's, the pack's) instead of the game's night_s
    #: and pack_s: for tests and demonstrations; None: the game's options
    call_s: tuple[float, float] | None = None
    ballot_s: float = 90.0  # a vote's ballots, once the discussion is over
    prompt_s: float = 60.0  # hunter's shot, sheriff's successor, scapegoat's choice
    last_words_s: float = 30.0  # each death's pause when roles are hidden
    verdict_s: float = 10.0  # the day's result, shown before night falls
    restart_grace_s: float = 15.0  # added to every deadline after a restart
    rollcall_s: float = 5.0  # roll-call voting: each candidate's window for presses
    #: narrated games: how fast the voice speaks (a line lasts its rendered
    #: length / voice_rate; the table screen plays it that fast): tests [issue 29]
    voice_rate: float = 1.0
    #: narrated games: a new step's first words start this long after it
    #: (time for the table screen to fetch them) [issue 29]
    voice_lead_s: float = 0.5


@dataclass(frozen=True)
class Rules:
    """What pacing needs besides the state, the record and the time: the
    hub's timings and how the game votes (roll-call orders its candidates)."""

    settings: Settings
    buttons: str = "phones"


# --- what is open now ------------------------------------------------------------

def may_act(pace: Pace, seat: int) -> bool:
    """Whether pacing lets this seat act now (the engine decides the rest)."""
    if pace.mode == "deal":
        return False
    if pace.mode == "calls":
        return pace.live
    if pace.mode in ("ballot", "prompt"):
        return True
    return pace.mode == "last-words" and pace.seat == seat


def day_power(pace: Pace, do: str) -> bool:
    """The Village's day powers are used during the discussion (RULES.md §8
    Decision: the engine's window is the first vote before any ballot);
    ballots stay held until the vote opens."""
    return pace.mode == "discussion" and do in DAY_POWERS


def why_waiting(pace: Pace) -> str:
    """A seat's refusal while pacing holds the table, in its words."""
    mode = pace.mode
    if mode == "deal":
        return NOT_STARTED
    if mode == "calls":
        return "not your turn: wait to be called"
    if mode == "discussion":
        return "voting opens when the discussion is over"
    if mode == "last-words":
        return "wait: last words"
    if mode == "verdict":
        return "wait: the day's result is being announced"
    return "the game is not waiting for you now"


def speaking(pace: Pace, now: float) -> bool:
    """A narrated game's voice is still saying what opens the stage: its
    window is not open yet (`voiced`) [issue 29]."""
    return pace.opens is not None and now < pace.opens


def seat_refusal(pace: Pace, seat: int, do: str, buttons: str,
                 waited_for: Callable[[], bool], now: float | None = None) -> str | None:
    """Why a seat's phone may not do `do` now, whatever the engine says (None:
    it may, if the engine agrees). `waited_for`: whether the engine has any
    action for the seat (asked last; its own message would name the step).
    `now`: a narrated game's window opens once the voice is done (None: no
    such check)."""
    if do == "timeout":
        return "only the game master or the clock ends a step"
    if not may_act(pace, seat) and not day_power(pace, do):
        return why_waiting(pace)
    if do in DAY_POWERS and not day_power(pace, do):  # the discussion's, on every phone's
        return DAY_POWERS_SAID  # one screen (RULES.md §8) [issue 40]
    if said_ready(pace, seat):
        return SAID_READY
    if now is not None and speaking(pace, now):
        return NARRATOR_SPEAKING
    if not waited_for():
        return "the game is not waiting for you now"
    if do == "vote" and buttons == "roll-call":
        return "in this game you vote with your seat's button, when the display names your choice"
    return None


def public(pace: Pace) -> dict:
    """The pace as every audience sees it. No "time left": it would change
    the view at every tick; clients count down to `deadline` using the
    message's `now` (the hub's monotonic clock). A night call's deadline is
    public too: every call lasts exactly its window (RULES.md §4), so it
    tells nothing but the deck and the GM's Next."""
    out: dict = {"mode": pace.mode, "paused": pace.paused, "stage": pace.stage}
    if pace.mode == "calls":
        out["call"] = pace.calls[pace.cursor] if pace.cursor < len(pace.calls) else None
        out["night"] = pace.night
    out["deadline"] = pace.deadline if pace.paused is None else None
    if pace.opens is not None:
        out["opens"] = pace.opens
    if pace.mode == "last-words":
        out["seat"] = pace.seat
    if pace.mode == "discussion" and pace.turns and pace.turn < len(pace.turns):
        out["turns"] = turns_view(pace)
    return out


def pack_call(state: State, pace: Pace, seat: int) -> dict | None:
    """What a wolf's phone knows of the pack's call (the werewolves', or
    jp-standard's one window) while it lasts, whatever step the engine has
    reached (RULES.md §4): {"attack": True, "picks": the pack's picks}, or
    {"attack": False} on a night without an attack (the pack only meets: his
    card says so [issue 28]). None: not a wolf in the pack's call."""
    if pace.mode != "calls" or pace.cursor >= len(pace.calls) or not ROLES[
            state.roles[seat]].wolf:
        return None
    if pace.calls[pace.cursor] not in PACK_CALLS or state.n != pace.night:
        return None
    if not attack_tonight(state):  # night 1 without it, or a quiet-night card (§10)
        return {"attack": False}
    return {"attack": True, "picks": {str(w): t for w, t in state.picks.items()}}


def rollcall_view(pace: Pace, index: int | None, window: float) -> dict | None:
    """Roll-call: the candidate `index` (the one called at the last commit, so
    every audience of one publish names the same one), which of how many,
    and when the window ends (None when paused) [issue 7]."""
    if index is None or pace.mode != "ballot" or index >= len(pace.order):
        return None
    ends = None
    if pace.paused is None and pace.deadline is not None:
        ends = pace.deadline - (len(pace.order) - 1 - index) * window
    return {"candidate": pace.order[index], "index": index, "of": len(pace.order),
            "ends": ends}


# --- moving on -------------------------------------------------------------------

def advance(state: State, pace: Pace, now: float, rules: Rules) -> tuple[Pace, bool]:
    """Move the pace on as far as `now` allows. The second value True: the
    engine's current step has run out of time, apply its `timeout` (then ask
    again)."""
    pc = pace.copy()
    was = _opened(pc)
    timeout = _advance(state, pc, now, rules)
    if _opened(pc) != was:
        pc.stage, pc.opens = pc.stage + 1, None
    return pc, timeout


def _opened(pc: Pace) -> tuple:
    """What is open, as far as the GM's clock buttons are concerned: a new
    value is a new stage (`Pace.stage`)."""
    return (pc.mode, pc.night, pc.cursor, pc.step_id, pc.seat, pc.verdict_night,
            pc.turn if pc.turns else None, pc.turns_of)


def clear_way(state: State, pace: Pace, now: float, rules: Rules) -> Pace:
    """End whatever pacing stands before the engine's current step (a GM
    action is never held, nor is an undo); pacing already at that step is
    left alone."""
    pc = pace.copy()
    if pc.mode == "deal":
        return pc  # the deal waits for "start" (the table refuses the action)
    was = _opened(pc)
    _clear_way(state, pc, now, rules)
    if _opened(pc) != was:
        pc.stage, pc.opens = pc.stage + 1, None
    return pc


def _clear_way(state: State, pc: Pace, now: float, rules: Rules) -> None:
    p = pending(state)
    if (pc.mode == "calls" and pc.live and pc.night == state.n
            and pc.cursor < len(pc.calls) and pc.calls[pc.cursor] == p["step"]):
        return  # (an undo to the same step of an earlier night is not "already there")
    if pc.mode in ("ballot", "prompt", "over") and pc.step_id == p["id"]:
        return
    pc.words, pc.seat, pc.hold, pc.paused = [], None, None, None
    pc.deaths_seen = len(state.deaths)
    pc.verdict_night = last_night(state)
    if p["kind"] in NIGHT_KINDS:
        pc.nights_called = state.n - 1
        _start_calls(state, pc, state.n, now, rules, at=p["step"])
        pc.live = True
        return
    pc.nights_called = last_night(state)
    pc.step_id, pc.started = p["id"], now
    if p["kind"] == "over":
        pc.mode, pc.deadline = "over", None
    elif p["kind"] == "prompt":
        pc.mode, pc.deadline = "prompt", now + rules.settings.prompt_s
    else:
        _open_ballot(state, pc, p, now, rules)


def timer(pace: Pace, do: str, seconds: float, now: float) -> Pace:
    """The game master's clock: start | pause | resume | extend (by `seconds`)
    | skip (the one "Next": end whatever is open at once, always — a call,
    the night's window, the discussion, a ballot's or a prompt's wait, last
    words, the verdict; a live call's step then times out). "start" (or
    "resume") ends the deal's wait; "start" at any other time changes
    nothing. ValueError for any other `do`."""
    pc = pace.copy()
    if pc.mode == "deal":
        if do in ("start", "resume"):
            pc.mode, pc.paused, pc.deadline = "lobby", None, None  # advance calls night 1
        elif do not in ("pause", "extend", "skip"):
            raise ValueError("timer 'do' is one of start, pause, resume, extend, skip")
        return pc
    if do == "start":
        return pc
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
    elif do == "skip":
        if pc.mode in SKIPPABLE:
            pc.paused, pc.deadline = None, now
    else:
        raise ValueError("timer 'do' is one of start, pause, resume, extend, skip")
    if pc.mode == "discussion" and pc.deadline is not None and pc.paused is None:
        pc.talk_until = pc.deadline  # a vote the barber reopens keeps the GM's timing
    return pc


def resumed(pace: Pace, now: float, settings: Settings) -> Pace:
    """After a restart: every running deadline gets a moment more than the
    time it had left at the last commit (`from_record`), so the table has
    time to find its phones again; one already passed gets that moment."""
    pc = pace.copy()
    if pc.deadline is not None and pc.paused is None:
        pc.deadline = max(pc.deadline, now) + settings.restart_grace_s
    return pc


def dealt(state: State, wait_for_start: bool) -> Pace:
    """A new game's pace: waiting in the deal for the GM's "start" (no seat
    is shown the night yet, the thief's centre cards included), or not."""
    if not wait_for_start:
        return Pace()
    return Pace(mode="deal", since=night_index(state, 1) + 1)


def news_cut(pace: Pace, log_length: int) -> int | None:
    """How much of the log a seat's private news is read from (None: all of
    it). During the night's calls, up to where the current call opened: what
    a phone learns at night (a result, the lovers, the charmed, the pack) it
    learns when the call that caused it ends, never while its neighbour may
    still be choosing; in the deal, up to the night's start [issue 28]. Never
    past the table's `hold` (the dawn the calls have not reached)."""
    if pace.mode not in ("calls", "deal") or pace.since is None:
        return None
    cut = pace.since if pace.hold is None else min(pace.since, pace.hold)
    return cut if cut < log_length else None


def pick(pace: Pace, seat: int, target: int) -> Pace:
    """Lock-in voting: the seat's pick, kept until its button locks it [issue 7]."""
    pc = pace.copy()
    pc.picks[str(seat)] = target
    return pc


# --- the moves, on the record being made -------------------------------------------

def _advance(state: State, pc: Pace, now: float, rules: Rules) -> bool:
    st = rules.settings
    for _ in range(1000):
        p = pending(state)
        mode = pc.mode
        if mode == "deal":
            return False  # nothing moves before the GM's "start"
        if mode == "calls":
            if pc.cursor >= len(pc.calls):
                pc.nights_called, pc.hold, pc.live = pc.night, None, False
                _next(state, pc, now, rules)
                continue
            call = pc.calls[pc.cursor]
            live = (state.phase == "night" and state.n == pc.night
                    and p["kind"] in NIGHT_KINDS and p["step"] == call)
            pc.live = live  # an early answer does not end the call (RULES.md §4)
            if pc.hold is None:  # a dawn prompt keeps the phase "night": ask the log
                dawn = dawn_index(state, pc.night)
                pc.hold = dawn if dawn < len(state.log) else None
            if pc.paused is None and pc.deadline is not None \
                    and pc.deadline > now and all_ready(state, pc):
                pc.deadline = now  # everyone is ready: the window ends (RULES.md §4 [004])
            if not _due(pc, now):
                return False
            if pc.live:
                return True  # the call's window is over: its step times out
            _next_call(state, pc, now, rules)
            continue
        if mode == "last-words":
            if pc.seat is None:
                if not pc.words:
                    pc.mode, pc.hold = "", None
                    _next(state, pc, now, rules)
                    continue
                pc.seat = pc.words.pop(0)
                pc.started, pc.deadline = now, now + st.last_words_s
            if not _due(pc, now):
                return False
            if p["kind"] == "prompt" and p["actor"] == pc.seat:
                return True  # his time is up: the prompt's default
            pc.seat = None
            continue
        if mode == "verdict":
            if not _due(pc, now):
                return False
            pc.mode, pc.hold = "", None
            _next(state, pc, now, rules)
            continue
        if mode in ("discussion", "ballot", "prompt", "over"):
            if p["id"] != pc.step_id:
                _next(state, pc, now, rules)
                continue
            if not _due(pc, now):
                return False
            if mode == "discussion":
                if not _next_turn(state, pc, now):
                    _open_ballot(state, pc, p, now, rules)
                continue
            return True
        _next(state, pc, now, rules)  # lobby, or a pace that ended
    raise RuntimeError("pacing did not settle")  # pragma: no cover


def _due(pc: Pace, now: float) -> bool:
    """The open phase's deadline has come (never while the GM has paused)."""
    return pc.paused is None and pc.deadline is not None and now >= pc.deadline


def _next(state: State, pc: Pace, now: float, rules: Rules) -> None:
    """Choose the next pacing phase from where the engine is."""
    p = pending(state)
    pc.paused, pc.live, pc.seat, pc.started = None, False, None, now
    pc.order, pc.picks = [], {}
    talking = (pc.turns, pc.turn, pc.turns_of)  # the barber's reopened vote keeps them
    pc.turns, pc.turn, pc.turns_of = [], 0, ""
    owed = state.deaths[pc.deaths_seen:]
    if REVEAL_ON_DEATH.of(state.opts):
        pc.deaths_seen, owed = len(state.deaths), []
    day_deaths = []
    for d in owed:
        if not d[2].startswith("day"):
            break
        day_deaths.append(d)
    newest = last_night(state)
    if day_deaths:
        return _last_words(state, pc, day_deaths)
    if newest > pc.nights_called > 0 and pc.verdict_night < newest:
        # the day's vote is over: its result stays on the table before night falls
        pc.verdict_night = newest
        pc.mode, pc.deadline = "verdict", now + rules.settings.verdict_s
        pc.hold = night_index(state, newest)
        return None
    if newest > pc.nights_called:
        return _start_calls(state, pc, newest, now, rules)
    if owed:
        return _last_words(state, pc, owed)
    pc.step_id, pc.hold = p["id"], None
    kind = p["kind"]
    if kind == "over":
        pc.mode, pc.deadline = "over", None
    elif kind == "prompt":
        pc.mode, pc.deadline = "prompt", now + rules.settings.prompt_s
    elif kind in NIGHT_KINDS:  # an undo back into a night, or a GM skip
        _start_calls(state, pc, state.n, now, rules, at=p["step"])
    elif kind == "election" and p["candidates"] is not None and len(p["candidates"]) < 2:
        # one candidate (the Village's last farmer): nothing to talk over [issue 44]
        _open_ballot(state, pc, p, now, rules)
    else:
        seconds = state.opts.get(p["timer"] or "", 0) or 0
        order, of = turns_for(p)
        if seconds and p["kind"] == "vote" and pc.talk_day == state.n \
                and state.phase == "day" and pc.talk_until > now:
            # the barber's day power reopened the vote (RULES.md §8): the
            # discussion goes on where it was, it does not start again
            pc.mode, pc.deadline = "discussion", pc.talk_until
            pc.turns, pc.turn, pc.turns_of = talking
        elif order and turn_seconds(state.opts):  # speaking turns [issue 34]
            pc.mode, pc.turns, pc.turn, pc.turns_of = "discussion", order, 0, of
            pc.deadline = pc.talk_until = now + turn_seconds(state.opts)
            pc.talk_day = state.n if p["kind"] == "vote" else pc.talk_day
        elif seconds:
            pc.mode, pc.deadline = "discussion", now + seconds
            if p["kind"] == "vote" and state.phase == "day":
                pc.talk_day, pc.talk_until = state.n, now + seconds
        else:
            _open_ballot(state, pc, p, now, rules)


def _open_ballot(state: State, pc: Pace, p: dict, now: float, rules: Rules) -> None:
    """Ballots open: for `ballot_s`, or by roll-call, one window per
    candidate, back to back [issue 7]."""
    pc.mode, pc.started, pc.picks = "ballot", now, {}
    pc.turns, pc.turn, pc.turns_of = [], 0, ""
    pc.order = _rollcall_order(state, p) if rules.buttons == "roll-call" else []
    if pc.order:
        pc.deadline = now + len(pc.order) * rules.settings.rollcall_s
    else:
        pc.deadline = now + rules.settings.ballot_s


def _rollcall_order(state: State, p: dict) -> list[int]:
    """The candidates in calling order: clockwise, from the left of the
    last night's victim ([003]'s show of hands; RULES.md §1: the left
    neighbour is the next seat clockwise); from the first seat when no
    one has died at night yet."""
    pool = p["candidates"] if p["candidates"] is not None else [
        i for i in range(state.size) if state.alive[i]]
    victim = next((seat for seat, _, time in reversed(state.deaths)
                   if time.startswith("night")), -1)
    return sorted(pool, key=lambda c: (c - victim - 1) % state.size)


def _last_words(state: State, pc: Pace, deaths: list[tuple[int, str, str]]) -> None:
    pc.mode, pc.seat, pc.deadline = "last-words", None, None
    pc.words = [seat for seat, _, _ in deaths]
    pc.deaths_seen += len(deaths)
    last = deaths[-1][0]
    index = max(i for i, e in enumerate(state.log) if e["e"] == "died" and e["seat"] == last)
    pc.hold = index + 1  # the table sees the deaths, nothing that followed them


def _start_calls(state: State, pc: Pace, night: int, now: float, rules: Rules,
                 at: str | None = None) -> None:
    if state.phase == "night" and state.n == night:
        calls = night_calls(state)
    else:  # the engine already ran past this night: ask the state at its start
        calls = night_calls(rebuild(state.log[:night_index(state, night) + 1]))
    pc.mode, pc.night, pc.calls, pc.hold = "calls", night, calls, None
    pc.cursor = calls.index(at) if at in calls else 0
    pc.live = False
    _open_call(state, pc, now, rules)


def _next_call(state: State, pc: Pace, now: float, rules: Rules) -> None:
    """The next call starts where the last one ended (back to back: the
    night's length is the sum of its windows), or now if the hub fell behind."""
    end = pc.deadline
    pc.cursor += 1
    pc.live = False
    _open_call(state, pc, end if end is not None and now - end < 1.0 else now, rules)


def _next_turn(state: State, pc: Pace, now: float) -> bool:
    """The next living speaker's turn starts now, `turn_s` long [issue 34];
    False when the turns are over (or there were none): the vote opens."""
    for i in range(pc.turn + 1, len(pc.turns)):
        if state.alive[pc.turns[i]]:
            pc.turn, pc.started = i, now
            pc.deadline = pc.talk_until = now + turn_seconds(state.opts)
            return True
    return False


def _open_call(state: State, pc: Pace, start: float, rules: Rules) -> None:
    pc.started, pc.since, pc.ready = start, len(state.log), []
    if pc.cursor < len(pc.calls):
        window = call_window(state.opts, pc.calls[pc.cursor], rules.settings)
        pc.deadline = None if window is None else start + window
    else:
        pc.deadline = start


def call_window(opts: dict, call: str, settings: Settings) -> float | None:
    """How long a night call lasts (RULES.md §4): `pack_s` for the
    werewolves, `night_s` for any other call (jp-standard's one window
    included); None (0 s): until the GM's Next."""
    pack = call == "wolves"
    if settings.call_s is not None:
        return settings.call_s[1 if pack else 0]
    seconds = (PACK_S if pack else NIGHT_S).of(opts)
    return float(seconds) if seconds else None
