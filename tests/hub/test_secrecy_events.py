"""Non-interference for New Moon's wolves' ally [issue 33] (RULES.md §10
Decisions, §4 secrecy of the call): the first dead's call and the ally's are
exact windows like every other call, called whatever happens in them; a game
where the first dead names a wolf and one where he names a villager look the
same — timing included — to the table and to every seat but the two named
(and the dead player who named). The proof's style is tests/hub/test_secrecy.py's.
"""

from __future__ import annotations

from .lockstep import Spec, assert_same, lockstep
from .test_secrecy import Plan, _mh


def _day2(table) -> bool:
    return table.pace.mode == "discussion" and table.state.n == 2


def test_a_wolf_named_by_the_first_dead_looks_like_a_villager_named(tmp_path):
    """RULES.md §10 Decision: "the named player being a wolf changes nothing,
    and nobody is told (the call lasts its window either way; the dead player
    learns nothing)": H (killed on night 1) names A (a wolf) or F (a villager)
    on night 2; B (the other wolf), C, D, E and G see the same, as does the table."""
    deal = ["werewolf", "werewolf", "seer", "villager", "villager", "villager", "villager",
            "villager"]
    options = {"sheriff": False, "events": ["wolves-ally"], "discussion_s": 5,
               "vote_timeout": "abstain"}
    game = _mh(deal, **options)
    kill: Plan = [("wolves", 1.0 + k, f"werewolf#{k + 1}", {"do": "attack", "target": "H"})
                  for k in (0, 1)]
    seer: Plan = [("seer", 2.0, "seer", {"do": "inspect", "target": "D"})]

    def named(target: str) -> Plan:
        return [("first-dead", 3.0, "villager#5", {"do": "name", "target": target})]

    observers = [1, 2, 3, 4, 6]
    a, b = lockstep(tmp_path, [Spec(game, kill + seer + named("A"), observers),
                               Spec(game, kill + seer + named("F"), [*observers, 5])], _day2)
    assert_same(a, b)  # (F's own view, observed in b only, is not compared)
    assert '"kind": "ally"' in b[-1]["seat:5"]  # F was named, and is the ally
    assert '"first-dead"' in "".join(f["public"] for f in a)  # the call was made, publicly
