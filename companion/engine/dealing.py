"""Dealing a box of cards to the seats, from a seed (contract C2).

The game master chooses how many of each card the box holds; the hub shuffles
them, so no page's script decides who gets what, and the same seed always
deals the same hands (a game can be dealt again, and replayed). With the
thief in the box (RULES.md, Millers Hollow's thief) two more cards than
players are dealt: the thief's card always goes to a player, and the two
centre cards are never the thief, as the engine requires.

Pure: no clock, no global RNG (the shuffle is `random.Random` seeded from the
seed, apart from the engine's own draws from the same seed).
"""

from __future__ import annotations

from collections.abc import Mapping
from random import Random

from .errors import SetupError

THIEF = "thief"
CENTRE = 2  # the thief's two centre cards


def deal_cards(cards: Mapping[str, int], n_players: int,
               seed: object) -> tuple[list[str], list[str]]:
    """(the card of each seat, the centre cards) for a box of `cards`
    ({role: count}) and `n_players` seats. SetupError when the counts are not
    whole numbers or do not add up to one card per player (plus the two
    centre cards with a thief)."""
    if not isinstance(cards, Mapping):
        raise SetupError("'cards' must map each role id to how many of its cards the box holds")
    box: list[str] = []
    for role, count in sorted(cards.items()):
        if not isinstance(role, str) or type(count) is not int or count < 0:
            raise SetupError(f"'cards': {role!r} needs a whole number of cards, not {count!r}")
        box += [role] * count
    thieves = box.count(THIEF)
    if thieves > 1:
        raise SetupError("there is only one thief card")
    want = n_players + (CENTRE if thieves else 0)
    if len(box) != want:
        extra = f" and the thief's {CENTRE} centre cards" if thieves else ""
        raise SetupError(f"the box holds {len(box)} cards: {n_players} players need "
                         f"{want} (one each{extra})")
    rng = Random(f"{seed}:cards")
    rest = [c for c in box if c != THIEF]
    rng.shuffle(rest)
    center = rest[:CENTRE] if thieves else []
    hand = rest[CENTRE:] + [THIEF] if thieves else rest
    rng.shuffle(hand)
    return hand, center
