"""Speaking turns [issue 34]: the day's discussion as timed turns
(`discussion_turns`, RULES.md §6 [003] variant) and the candidates'
defences (`vote_mode=candidates`). Who speaks, in which order, is the
engine's (`pending(state)["turns"]`: `discussion_order`, or the candidates in
seat order), from public facts only; pacing.py runs them: each turn
`turn_s` seconds, a stage of its own (the GM's or the host's Next skips it,
the speaker's phone may pass).

    turns_for(pending(state))   # (seats in speaking order, "discussion" | "defence")
"""

from __future__ import annotations

from ..options import TURN_S
from .pace import Pace

#: what a turn is for: the day's discussion, a candidate's defence
DISCUSSION, DEFENCE = "discussion", "defence"
def turn_seconds(opts: dict) -> int:
    """A turn's length: the option `turn_s` (RULES.md §2; its row's 45 s where
    a game's options do not name it)."""
    value = TURN_S.of(opts)
    return value if isinstance(value, int) and not isinstance(value, bool) else TURN_S.absent


def turns_for(p: dict) -> tuple[list[int], str]:
    """The turns the table runs before the step `p` (the engine's
    `pending`) takes ballots: the candidates' defences, or the day's
    discussion; ([], "") for a free discussion (or none)."""
    turns = p.get("turns")
    if not turns:
        return [], ""
    return list(turns), DEFENCE if p.get("defence") else DISCUSSION


def turns_view(pace: Pace) -> dict:
    """Whose turn it is and who is next [issue 34] (RULES.md §6
    `discussion_turns`, `vote_mode=candidates`): `of` ("discussion" |
    "defence"), the whole `order`, the `index` of the `seat` speaking, the
    `next` seat (None: the last turn). Public facts only: the order is a
    function of who is alive, the night's public deaths, the sheriff and the
    candidates (companion/table/turns.py)."""
    i = pace.turn
    return {"of": pace.turns_of, "order": list(pace.turns), "index": i,
            "seat": pace.turns[i], "next": pace.turns[i + 1] if i + 1 < len(pace.turns) else None}


def pass_turn(pace: Pace, seat: int, now: float) -> Pace:
    """The speaker's phone passes [issue 34]: his turn ends now (the next
    one starts at the table's next step). ValueError when `seat` is not the
    one speaking."""
    if pace.mode != "discussion" or not pace.turns or pace.turn >= len(pace.turns) \
            or pace.turns[pace.turn] != seat:
        raise ValueError("it is not your turn to speak")
    pc = pace.copy()
    pc.paused, pc.deadline = None, now
    return pc
