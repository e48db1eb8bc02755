"""What the table is doing now, said once (companion/table/pace.py
`Pace.moment`) and placed on the engine's view (`Moment.place`) [issue 45]:
the deal, a night's calls, last words, the discussion (or the candidates'
defences, RULES.md §6 `vote_mode=candidates` [issue 34]) and the verdict hide
the engine's open vote and name the table's own step; a ballot or a prompt
shows the engine's step as it is."""

from __future__ import annotations

import pytest

from companion.table.pace import Moment, Pace


def _view() -> dict:
    """An engine view's fields that the moment may change (and one it never does)."""
    return {"phase": "day", "n": 2, "step": "day 2 vote", "vote": {"kind": "vote"},
            "players": []}


@pytest.mark.parametrize(("pace", "phase", "n", "step"), [
    (Pace(mode="deal"), "day", 2, "deal"),
    (Pace(mode="calls", night=3), "night", 3, "night 3"),
    (Pace(mode="last-words"), "day", 2, "last words"),
    (Pace(mode="discussion"), "day", 2, "day 2 discussion"),
    (Pace(mode="discussion", turns=[1, 2], turns_of="defence"), "day", 2, "day 2 defence"),
    (Pace(mode="verdict"), "day", 2, "day 2 verdict"),
])
def test_a_held_table_names_its_own_step_and_hides_the_vote(pace: Pace, phase: str, n: int,
                                                            step: str) -> None:
    """[issue 45] (pacing.py's modes, [issue 28] deal, [issue 34] turns)."""
    view = pace.moment(2).place(_view())
    assert (view["phase"], view["n"], view["step"]) == (phase, n, step)
    assert "vote" not in view and view["players"] == []
    assert list(view) == [k for k in _view() if k != "vote"]  # the keys keep their order


@pytest.mark.parametrize("mode", ["ballot", "prompt", "over", "lobby"])
def test_ballots_and_prompts_show_the_engines_step(mode: str) -> None:
    """[issue 45] while the table takes ballots (or waits on a prompt, or is
    over) the view is the engine's, untouched."""
    assert Pace(mode=mode).moment(2) == Moment()
    assert Pace(mode=mode).moment(2).place(_view()) == _view()
