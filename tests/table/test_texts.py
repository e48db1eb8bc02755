"""A publish encodes a players list from its entries' JSON, each entry once
while it lives (`audiences._EntryTexts`): the text must be the list's own
JSON, byte for byte, after every action of random games, for the public
view and every seat's (wolves, the seer and lovers have lists of their own)
[issue 15 item 11]."""

from __future__ import annotations

from random import Random

from companion.engine import act, legal_actions, shared_public_view, view_for, waiting_for
from companion.engine.actions import sample_uniform
from companion.replay import setup_game
from companion.table.audiences import _dumps, _EntryTexts

ROLES = ["werewolf"] * 3 + ["seer", "witch", "hunter", "cupid", "little-girl"] + ["villager"] * 4


def test_a_players_text_is_its_lists_json_after_every_action() -> None:
    texts = _EntryTexts()  # one for the whole run, as the hub's audiences keep it
    checked, dead = 0, 0
    for seed in range(4):
        names = [f"P{i}" for i in range(len(ROLES))]
        cards = ROLES[:]
        Random(seed).shuffle(cards)
        state = setup_game({"ruleset": "millers-hollow", "players": names,
                            "deal": dict(zip(names, cards)), "seed": seed})
        rng = Random(seed)
        for _ in range(300):
            if state.phase == "over":
                break
            views = [shared_public_view(state)] + [view_for(state, s, shared=True)
                                                   for s in range(state.size)]
            for view in views:
                assert texts.text(view["players"]) == _dumps(view["players"])
                checked += 1
            seat = rng.choice(waiting_for(state))
            act(state, sample_uniform(legal_actions(state, seat), seat, rng))
        dead += state.alive.count(False)
    assert checked > 1000 and dead > 4  # many states, deaths and cards shown among them


def test_an_entry_replaced_by_an_equal_new_one_is_encoded_from_the_new_one() -> None:
    texts = _EntryTexts()
    entry = {"seat": 0, "name": "Ann", "alive": True}
    assert texts.text([entry]) == '[{"seat": 0, "name": "Ann", "alive": true}]'
    dead = {**entry, "alive": False}
    assert texts.text([dead, entry]) == _dumps([dead, entry])
    assert texts.text([]) == "[]"
