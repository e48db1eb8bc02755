"""Seat-box presses as votes [issue 7]: which vote a press makes, or why it
makes none, and the lock-in pick a phone makes for its box to lock. Pure:
the table applies the vote and commits."""

from __future__ import annotations

from ..engine import Action, IllegalAction, State, act, legal_actions, pending
from . import pacing
from .errors import NotNow
from .pacing import NARRATOR_SPEAKING, Pace

VOTE_KINDS = ("vote", "runoff", "election")


def lockin_pick(state: State, pace: Pace, seat: int, action: Action) -> Pace:
    """Lock-in voting: a phone's vote is the seat's pick, kept (durably,
    with the pace) until its button locks it [issue 7]; NotNow if the seat's
    vote is locked already or the pick is not a ballot it may cast."""
    if seat in state.votes:
        raise NotNow("your vote is locked")
    if not any(c.allows(action) for c in legal_actions(state, seat)):
        raise NotNow("you cannot vote for that player now")
    assert action.target is not None  # a vote names one player
    return pacing.pick(pace, seat, action.target)


def press_vote(state: State, pace: Pace, buttons: str, seat: object, when: float,
               opened: int, window: float) -> tuple[int | None, str]:
    """(the target a press at `when` votes for, "") or (None, why it votes for
    nobody). "recorded": a lock-in vote that is already locked. `opened` is
    the engine step that was open when the batch of presses began."""
    if type(seat) is not int or not 0 <= seat < state.size:
        return None, "no such seat in this game"
    if buttons == "phones":
        return None, "this game votes on the phones"
    p = pending(state)
    if (p["id"] != opened or pace.mode != "ballot" or p["id"] != pace.step_id
            or p["kind"] not in VOTE_KINDS):
        return None, "no vote is open"
    if pace.paused is not None:
        return None, "the vote is paused"
    if pace.opens is not None and when < pace.opens:
        return None, NARRATOR_SPEAKING
    if buttons == "roll-call":
        if seat in state.votes:
            return None, "one vote per round"
        index = pace.rollcall(when, window)
        if index is None:
            return None, "no candidate is being called"
        return pace.order[index], ""
    if seat in state.votes:
        return None, "recorded"
    target = pace.picks.get(str(seat))
    if target is None:
        return None, "pick on your phone first"
    return target, ""


def vote_presses(state: State, pace: Pace, buttons: str, presses: list[tuple[int, float]],
                 window: float) -> tuple[list[str], bool]:
    """Apply each press's vote to the engine (not committed): one outcome per
    press, in order ("recorded", or why it was refused: nothing changed for
    it), and whether any vote landed."""
    out: list[str] = []
    applied = False
    opened = pending(state)["id"]
    for seat, when in presses:
        target, reason = press_vote(state, pace, buttons, seat, when, opened, window)
        if not reason:
            try:
                act(state, Action(seat, "vote", target=target), expect=state.acts)
            except IllegalAction as err:
                reason = str(err)
        applied = applied or reason == ""
        out.append(reason or "recorded")
    return out, applied
