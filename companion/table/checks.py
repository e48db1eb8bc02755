"""A request's form and the moment it was made for, checked before the
table changes anything: BadInput for a malformed one, Stale for one made on
a view (or an action count) the game has moved past [issue 17]. Functions
of `table.Table`'s commands, under its lock."""

from __future__ import annotations

from ..engine import State, pending, rebuild, undo
from .audiences import Audiences, step_id
from .errors import BadInput, NotNow, Stale


def check_gm_seq(state: State, seq: int | None) -> None:
    """The GM's action names the action count it was made at (`seq`): Stale
    if the game has moved on past the step it was made for."""
    if seq is not None:
        p = pending(state)
        opened = state.log[p["id"]]["a"] if p["id"] >= 0 else 0
        if seq < opened or seq > state.acts:
            raise Stale(f"the game has moved on since action {seq} "
                        f"(now {state.acts}, this step opened at {opened})")


def check_seat_seq(audiences: Audiences, state: State, seat: int, seq: int | None) -> None:
    """A phone's action names the view it was chosen on (`seq`): Stale once
    the engine's step moved on since that view was built."""
    if seq is None:
        return
    step = audiences.step_of(f"seat:{seat}", seq)
    if step is None or step != step_id(state):
        raise Stale("the game has moved on since that view: here is the new one")


def check_decoy(audiences: Audiences, state: State, seat: int, raw: object) -> None:
    """A decoy tap is `{"target": name or null, "seq": N}`: a name of this
    game, and a `seq` still of the open step (else Stale, as an action's)."""
    if not isinstance(raw, dict) or not set(raw) <= {"target", "seq"} or "target" not in raw:
        raise BadInput('send {"target": name or null, "seq": N}')
    seq, body = split_seq(raw)
    target = body["target"]
    if target is not None and (not isinstance(target, str) or target not in state.names):
        raise BadInput(f"unknown player {target!r}")
    check_seat_seq(audiences, state, seat, seq)


def undone(state: State, expect: object, to: int | None) -> State:
    """The game with its last action (or every one from the K-th, `to`) taken
    back. `expect` is the action count the GM confirmed against (his view's
    `seq`): if anything landed since (a phone's vote, a timeout) it is Stale,
    so an undo never takes back what he was not shown [issue 17]."""
    if type(expect) is not int:
        raise BadInput('an undo names the action count it expects: send {"expect": N}, '
                       "N the GM view's seq")
    if expect != state.acts:
        raise Stale(f"the game has moved on: {state.acts} actions now, not {expect}; "
                    "look at the log and confirm again")
    if to is None:
        if state.acts == 0:
            raise NotNow("nothing to undo")
        return undo(state)
    if type(to) is not int or not 1 <= to <= state.acts:
        raise BadInput(f"'to' is an action number 1–{state.acts}")
    return rebuild([e for e in state.log if e["a"] < to])


def split_seq(raw: object) -> tuple[int | None, dict]:
    if not isinstance(raw, dict):
        raise BadInput("an action is a JSON object")
    body = dict(raw)
    seq = body.pop("seq", None)
    if seq is not None and type(seq) is not int:
        raise BadInput("'seq' must be an integer (the view's seq)")
    return seq, body
