"""Per-seat views: what the hub may show on each phone (RULES.md §4 secrecy, §5)."""

from __future__ import annotations

from helpers import a, game

from companion.engine import view_for

ROLES8 = ["werewolf", "werewolf", "seer", "villager", "villager", "villager", "villager",
          "villager"]


def test_wolves_see_the_packs_picks_while_they_choose_rules_5_werewolf_000() -> None:
    """RULES.md §5 werewolf [000]: the wolves must agree, so each sees the pack's
    current picks during their step; nobody else does."""
    state = game("bga", ROLES8, [a("Cid", "pass"), a("Ann", "attack", "Hal")],
                 options={"sheriff": False})
    assert state.step == "wolves"
    assert view_for(state, 1)["pack_picks"] == {"0": 7}
    assert view_for(state, 0)["pack_picks"] == {"0": 7}
    for seat in range(2, 8):
        assert "pack_picks" not in view_for(state, seat)


def test_a_villagers_view_shows_only_his_own_card_rules_4_secrecy() -> None:
    """RULES.md §4: a villager's phone shows his card and no other living card."""
    state = game("bga", ROLES8, [a("Cid", "inspect", "Ann")], options={"sheriff": False})
    view = view_for(state, 4)
    assert view["role"] == "villager"
    assert [p["role"] for p in view["players"]] == [None] * 4 + ["villager"] + [None] * 3
    assert view["step"] == "night 1"  # he is not called: the night's step stays hidden
    assert view["actions"] == [] and view["results"] == []


def test_the_seers_result_reaches_only_her_phone_rules_5_seer_000() -> None:
    """RULES.md §5 seer [000][003]: she learns the card, dated, on her own view."""
    state = game("bga", ROLES8, [a("Cid", "inspect", "Ann")], options={"sheriff": False})
    seer = view_for(state, 2)
    assert seer["results"] == [{"kind": "inspect", "target": 0, "result": "werewolf",
                                "time": "night 1"}]
    assert seer["players"][0]["role"] == "werewolf"
    assert all(view_for(state, s)["results"] == [] for s in (3, 4, 5, 6, 7))
