"""The server deals (issue 15, contract C2): `deal_cards(cards, n_players,
seed)` shuffles a box of role counts to the seats from the seed.

Sources: contract C2 in the lead's notes (the thief's card always goes to a
player, the two centre cards are never the thief; the same seed deals the
same hands); the engine's setup rules (a dealt thief needs exactly two
centre cards, there is one thief card)."""

from __future__ import annotations

from collections import Counter

import pytest

from companion.engine import SetupError
from companion.engine.dealing import deal_cards

BOX = {"werewolf": 2, "seer": 1, "witch": 1, "villager": 4}
THIEF_BOX = {"werewolf": 2, "seer": 1, "thief": 1, "villager": 6}  # 8 players + 2


def test_the_same_seed_deals_the_same_hands_and_other_seeds_others():
    assert deal_cards(BOX, 8, 7) == deal_cards(dict(reversed(BOX.items())), 8, 7)
    deals = {tuple(deal_cards(BOX, 8, seed)[0]) for seed in range(40)}
    assert len(deals) > 30  # a shuffle, not a fixed order


@pytest.mark.parametrize("seed", range(60))
def test_the_box_is_dealt_whole_and_the_thief_goes_to_a_player(seed):
    deal, center = deal_cards(THIEF_BOX, 8, seed)
    assert len(deal) == 8 and len(center) == 2
    assert "thief" in deal and "thief" not in center
    assert Counter(deal) + Counter(center) == Counter(THIEF_BOX)


def test_without_a_thief_there_is_no_centre():
    deal, center = deal_cards(BOX, 8, 1)
    assert center == [] and Counter(deal) == Counter(BOX)


@pytest.mark.parametrize(("cards", "players", "message"), [
    (BOX, 9, "the box holds 8 cards: 9 players need 9 (one each)"),
    (THIEF_BOX, 9, "the box holds 10 cards: 9 players need 11 (one each and the "
                   "thief's 2 centre cards)"),
    ({**BOX, "villager": 3, "thief": 1}, 8, "the box holds 8 cards: 8 players need 10"),
    ({**BOX, "thief": 2}, 8, "there is only one thief card"),
    ({**BOX, "seer": -1}, 8, "'cards': 'seer' needs a whole number of cards, not -1"),
    ({**BOX, "seer": 1.5}, 8, "'cards': 'seer' needs a whole number"),
    ({**BOX, "seer": True}, 8, "'cards': 'seer' needs a whole number"),
    (["seer"], 8, "'cards' must map each role id"),
])
def test_counts_that_do_not_fit_the_table_are_refused(cards, players, message):
    with pytest.raises(SetupError) as err:
        deal_cards(cards, players, 0)
    assert str(err.value).startswith(message)
