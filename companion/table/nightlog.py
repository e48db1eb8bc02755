"""Where each night stands in a game's log: the last night begun, where
night N begins, where its dawn starts (the public sees nothing after it
until it is announced). Read by the table's pacing."""

from __future__ import annotations

from ..engine import State


def last_night(state: State) -> int:
    for e in reversed(state.log):
        if e["e"] == "night":
            return int(e["n"])
    return 0


def night_index(state: State, night: int) -> int:
    """Where night `night` begins in the log."""
    return max(i for i, e in enumerate(state.log) if e["e"] == "night" and e["n"] == night)


def dawn_index(state: State, night: int) -> int:
    """Where night `night`'s dawn starts in the log: the public sees nothing after."""
    log = state.log
    for i in range(night_index(state, night), len(log)):
        if log[i]["e"] == "resolve" or log[i]["e"] == "over":
            return i
    return len(log)
