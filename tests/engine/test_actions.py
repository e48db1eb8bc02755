"""The engine's edge: malformed Actions are refused before any rule is asked
[issue 2: bad input gets a clear error and changes nothing]."""

from __future__ import annotations

import pytest
from helpers import game

from companion.engine import Action, IllegalAction, act

ROLES8 = ["werewolf", "werewolf", "seer", "villager", "villager", "villager", "villager",
          "villager"]


@pytest.mark.parametrize("bad", [
    Action(2, "inspect", target=True),          # a bool is not a seat
    Action(2, "inspect", target=1.0),           # nor a float
    Action("Cid", "inspect", target=0),         # names belong to the replay layer
    Action(2, "inspect", target=None, targets=[0]),  # targets must be a tuple
    Action(None, "inspect", target=0),          # only timeout has no actor
    Action(2, "timeout"),                       # and timeout has none
    Action(2, "fly", target=0),                 # unknown action
])
def test_malformed_actions_are_refused_and_change_nothing(bad: Action) -> None:
    state = game("millers-hollow", ROLES8, options={"sheriff": False})
    log = list(state.log)
    with pytest.raises(IllegalAction):
        act(state, bad)
    assert state.log == log


def test_a_well_formed_action_still_passes() -> None:
    state = game("millers-hollow", ROLES8, options={"sheriff": False})
    events = act(state, Action(2, "inspect", target=0))
    assert events[0]["do"] == "inspect" and events[0]["result"] == "werewolf"
