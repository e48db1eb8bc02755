"""One place per role [issue 8]: the role table is data (team, the seer's
reading, night step, its place and nights, what the holder knows), the night
order is derived from it, and each rule a role bends is a hook under that
role's name in powers.py (docs/rules.md, "Where each rule lives")."""

from __future__ import annotations

import ast
import inspect
import re

from companion.engine import ROLES, new_game, powers, rules, state, steps, view_for, views
from companion.engine.roles import FIRST_NIGHT_ONLY, NIGHT_STEPS, STEP_NIGHTS


def test_night_order_is_the_documented_one() -> None:
    """docs/rules.md §5 / RULES.md §4: thief, cupid, defender, seer, pyromaniac,
    rumormonger (§4 Decision: after the seer, before the wolves), (knight),
    werewolves, white werewolf, witch, piper; derived from Role.night."""
    assert NIGHT_STEPS == ("thief", "cupid", "defender", "seer", "pyromaniac", "rumormonger",
                           "knight", "wolves", "white-werewolf", "witch", "piper")
    assert FIRST_NIGHT_ONLY == {"thief", "cupid"}
    assert STEP_NIGHTS["white-werewolf"] == "even"
    assert {s for s, when in STEP_NIGHTS.items() if when == "attack"} == {
        "defender", "knight", "wolves"}


def test_every_called_card_has_its_night_power_and_no_other_does() -> None:
    """Adding a night role is one row and one `night` hook: every card called by
    a step of its own has a night hook, and only those."""
    own_steps = {r.id for r in ROLES.values()
                 if r.night is not None and r.step == r.id}
    assert set(powers.NIGHT) == own_steps
    assert set(powers.POWERS) <= set(ROLES)
    # the wolves' step is the pack's (a wolf card) plus the cards with a `pack` hook
    assert set(powers.PACK) == {r.id for r in ROLES.values() if r.step == "wolves"
                                and not r.wolf}


def test_no_role_is_named_in_the_common_rules() -> None:
    """The review of issue 8 found the fox, the little girl and the elder tested
    by name in three or four places of rules.py and a rule inside the event fold.
    Now the common rules, the fold, the steps and the views name no card, except
    where setup checks the thief's centre cards and where a name is that of a
    prompt ("hunter"), a cause of death ("hunter", "scapegoat"), a team ("piper"),
    an event ("medium") or the card a "revealed" event shows ("village-idiot")."""
    names = set(ROLES) - {"werewolf", "villager"}
    allowed = {rules: {"thief", "hunter", "scapegoat", "piper"}, state: {"hunter", "medium"},
               steps: {"hunter"}, views: {"hunter", "medium", "village-idiot"}}
    for module, ok in allowed.items():
        found = set()
        for node in ast.walk(ast.parse(inspect.getsource(module))):
            if isinstance(node, ast.Constant) and node.value in names:
                found.add(node.value)
        assert found <= ok, (module.__name__, found - ok)


def test_each_role_hook_sits_in_its_role_s_section() -> None:
    """powers.py has one section per role ("# --- fox [004] ---"), and each
    role's hooks are defined in its own section."""
    source = inspect.getsource(powers)
    sections = re.split(r"\n# --- ([a-z -]+?) (?:\[[^\n]*)?-+\n", source)
    where = {}
    for title, body in zip(sections[1::2], sections[2::2]):
        for name in re.findall(r"^def (_\w+)\(", body, re.M):
            where[name] = title.strip()
    for role, power in powers.POWERS.items():
        for hook in ("night", "pack", "called", "skips", "acts", "acted", "timeout",
                     "nightfall", "spared", "dawn", "dies", "executed", "tie"):
            fn = getattr(power, hook)
            if fn is not None:
                assert where[fn.__name__] == role.replace("-", " ").replace(
                    "white werewolf", "white werewolf"), (role, hook, fn.__name__)


def test_what_a_card_knows_comes_from_its_row() -> None:
    """Role.knows: the pack sees the pack (the white werewolf passes for one
    [000]), the freemasons each other [004], the piper the charmed, the witch
    her potions."""
    assert ROLES["werewolf"].knows == ("pack",) and ROLES["white-werewolf"].knows == ("pack",)
    assert ROLES["freemason"].knows == ("freemasons",)
    deal = ["werewolf", "white-werewolf", "witch", "piper", "seer", "villager", "villager",
            "villager"]
    st = new_game("millers-hollow", [f"P{i}" for i in range(8)], deal)
    assert view_for(st, 0)["knows"]["pack"] == [0, 1]
    assert "pack" not in view_for(st, 4)["knows"]
    assert view_for(st, 2)["potions"] == {"heal": True, "poison": True}
    assert "potions" not in view_for(st, 3)
