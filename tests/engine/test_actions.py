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
    Action(2, "inspect", target=0, power="lord"),   # The Village: power only with restore
    Action(2, "restore"),                       # and restore needs one
    Action(2, "assign", target=3),              # assign needs a building
    Action(2, "vote", target=0, building="barber"),  # and only assign has one
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


def test_random_play_is_uniform_over_all_legal_actions_issue_2_bench() -> None:
    """[issue 2] benchmark: "every seat choosing uniformly among its legal
    actions" — the seer's pass is one chance in nine, not one in two."""
    from collections import Counter
    from random import Random

    from companion.engine import legal_actions
    from companion.engine.actions import sample_uniform

    state = game("millers-hollow", ROLES8, options={"sheriff": False})
    choices = legal_actions(state, 2)  # the seer: inspect one of 7 others, or pass
    assert sum(c.size for c in choices) == 8
    rng = Random(5)
    seen = Counter(sample_uniform(choices, 2, rng).target for _ in range(8000))
    for outcome in [None, 0, 1, 3, 4, 5, 6, 7]:
        assert abs(seen[outcome] / 8000 - 1 / 8) < 0.02, seen


def test_choice_size_counts_sets_and_potions() -> None:
    """Choice.size: subsets for `allow` (any number), pairs for `link`, and the
    witch's heal × (poison or none)."""
    from companion.engine import Choice

    assert Choice("allow", (1, 2, 3), (0, 3)).size == 8
    assert Choice("link", (0, 1, 2, 3), (2, 2)).size == 6
    assert Choice("potion", (1, 2), (0, 1), heal=True).size == 6
    assert Choice("pass").size == 1


def test_a_choice_says_when_its_answer_is_a_list_of_targets() -> None:
    """[issue 15] one place for each fact: whether an action names a set of
    players (cupid's lovers, the piper's charm, the scapegoat's voters, the
    barber's silence) is the engine's `MULTI`; its choices say so ("multi"),
    so the phone and the GM's tablet keep no list of their own."""
    from companion.engine import Choice
    from companion.engine.actions import MULTI

    assert MULTI == {"link", "charm", "allow", "silence"}
    for do in MULTI:
        assert Choice(do, (0, 1, 2), (2, 2)).to_dict()["multi"] is True
    for do in ("vote", "inspect", "attack", "shoot", "pass"):
        assert "multi" not in Choice(do, (0, 1, 2), (1, 1)).to_dict()


@pytest.mark.parametrize("action", [
    Action(4, "restore", power="confessor"),
    Action(5, "assign", target=7, building="barber"),
    Action(3, "silence", targets=(1, 2)),
])
def test_village_actions_round_trip_through_dicts(action: Action) -> None:
    """docs/replay.md (The Village's `power` and `building` fields): to_dict and
    from_dict are inverses."""
    assert Action.from_dict(action.to_dict()) == action


@pytest.mark.parametrize("raw", [
    {"actor": 4, "do": "restore", "power": 3},
    {"actor": 4, "do": "restore"},
    {"actor": 5, "do": "assign", "target": 7},
    {"actor": 5, "do": "shave", "target": 7, "power": "barber"},
])
def test_malformed_village_actions_are_refused_by_from_dict(raw: dict) -> None:
    """docs/replay.md: `power` (a profession id) only with `restore`, `building`
    only with `assign`, each a string."""
    with pytest.raises(IllegalAction):
        Action.from_dict(raw)
