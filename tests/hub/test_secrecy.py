"""Non-interference ([issue 5] Security; RULES.md §4 secrecy of the call):
two games that differ only in cards a seat may not know give that seat — and
the public table view — byte-identical views and stream messages at every
moment, timing included.

Each pair of games is played in lockstep on fake clocks: every half second the
clock moves and the table ticks; the roles act through their phones when
their step is called (a role absent from one game simply does not act). The
night calls last exactly their windows (RULES.md §4); tests/hub/
test_secrecy_time.py holds the same proof for whole nights, every role
acting at once, at the last second, never, or dead [issue 16].
"""

from __future__ import annotations

from .lockstep import Move, Spec, assert_same, lockstep, no_story_before_the_end

#: (call or "last-words", after seconds, role ("werewolf#2": its 2nd holder), action)
Plan = list[Move]


def _play(tmp_path, setup: dict, plan: Plan, observers: list[int],  # type: ignore[no-untyped-def]
          other: dict, other_plan: Plan, until) -> tuple[list, list]:
    """The two games in lockstep (tests/hub/lockstep.py): their frames."""
    a, b = lockstep(tmp_path, [Spec(setup, plan, observers, "a"),
                               Spec(other, other_plan, observers, "b")], until)
    no_story_before_the_end(a)
    return a, b


def _assert_same(a: list, b: list) -> None:
    assert_same(a, b)


def _mh(roles: list[str], **options: object) -> dict:
    players = list("ABCDEFGH")
    return {"ruleset": "millers-hollow", "players": players, "deal": dict(zip(players, roles)),
            "seed": 4, "options": {"first_night_attack": True, **options}}


def _at_discussion(table) -> bool:  # type: ignore[no-untyped-def]
    return table.pace.mode == "discussion"


def test_a_witch_who_acts_looks_like_a_witch_who_never_does(tmp_path):
    """RULES.md §4 (revised: the deck is public, [issue 16]): the witch's call
    takes the same time and shows the table and every villager the same
    thing whether the witch answers it or lets it time out."""
    deal = ["werewolf", "villager", "seer", "witch", "werewolf", "villager", "villager",
            "villager"]
    with_witch, without = _mh(deal), _mh(deal)
    seer: Plan = [("seer", 2.0, "seer", {"do": "inspect", "target": "A"})]
    witch: Plan = [("witch", 3.0, "witch", {"do": "potion", "heal": False, "poison": None})]
    # both wolves must agree (unanimous): each attacks F
    attack: Plan = [("wolves", 1.0 + k, f"werewolf#{k + 1}", {"do": "attack", "target": "F"})
                    for k in (0, 1)]
    observers = [1, 5, 6, 7]  # villagers, the victim among them
    a, b = _play(tmp_path, with_witch, seer + witch + attack, observers, without, seer + attack,
                 _at_discussion)
    _assert_same(a, b)
    assert '"alive": false, "can_vote": false, "name": "F"' in a[-1]["public"]  # F was killed


def test_who_holds_the_seer_card_is_invisible_to_the_others(tmp_path):
    """RULES.md §4, [004]: villagers, wolves and the madman see the same game
    whether Ann or Hal is the seer, and whichever one inspects."""
    players = list("ABCDEFGHI")

    def deal(seer: int) -> dict:
        roles = ["villager", "werewolf", "werewolf", "madman", "medium", "knight", "villager",
                 "villager", "villager"]
        roles[seer] = "seer"
        return {"ruleset": "jp-standard", "players": players,
                "deal": dict(zip(players, roles)), "seed": 9}

    # jp-standard's one window is the call "actions" (a plan for "seer" was never made
    # before the moves were checked: lockstep.py now says so) [issue 40]
    plan: Plan = [("actions", 3.0, "seer", {"do": "inspect", "target": "B"})]
    observers = [1, 2, 3, 4, 5, 6, 8]  # everyone but seats 0 and 7
    a, b = _play(tmp_path, deal(0), plan, observers, deal(7), plan,
                 _at_discussion)
    _assert_same(a, b)


def test_a_hunter_who_passes_looks_like_anybody_else_when_roles_are_hidden(tmp_path):
    """[issue 5], RULES.md §6: with reveal_on_death off every death gets the
    same last-words pause, so a dead hunter who passes is not told apart from
    a dead villager (the hunter sitting elsewhere)."""
    hunter = _mh(["werewolf", "villager", "seer", "villager", "hunter", "werewolf",
                  "villager", "villager"], reveal_on_death=False)
    # the same deck (public, RULES.md §4 revised): the hunter's card at G, alive
    villager = _mh(["werewolf", "villager", "seer", "villager", "villager", "werewolf",
                    "hunter", "villager"], reveal_on_death=False)
    plan: Plan = [
        ("wolves", 1.0, "werewolf#1", {"do": "attack", "target": "E"}),
        ("wolves", 2.0, "werewolf#2", {"do": "attack", "target": "E"}),
        ("last-words", 2.0, "hunter", {"do": "pass"}),
    ]
    observers = [1, 3, 7]
    a, b = _play(tmp_path, hunter, plan, observers, villager, plan[:2],
                 _at_discussion)
    _assert_same(a, b)
    assert '"alive": false, "can_vote": false, "name": "E"' in a[-1]["public"]  # E was killed
