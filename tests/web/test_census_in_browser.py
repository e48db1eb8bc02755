"""The census's last channel, the accessibility tree [issue 40]
(companion/hub/census.py CHANNELS): what a screen reader reads of a phone
is the same for every card wherever the look is — the night's one screen,
the day powers' one screen — and the held card is no live region: its text
is in the tree only while it is held, and nothing speaks it on its own
(TalkBack and VoiceOver read a live region aloud, through the speaker).

A Millers Hollow game with The Village's professions: a wolf's, a
villager's, the confessor's and a drifter's phones side by side, the TV.
"""

from __future__ import annotations

from typing import Any

import pytest
from browser_kit import caught_up, holding, hook, next_call, open_pages
from slowness import wait_ms

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal"]
ROLES = ["werewolf", "werewolf", "seer", "villager", "villager", "villager", "villager",
         "villager"]
PROFS = ["farmer", "drifter", "schoolteacher", "baker", "drifter", "confessor", "barber",
         "steward"]
WOLF, DRIFTER, CONFESSOR, VILLAGER = 0, 4, 5, 3


def _tree(page: Any, selector: str) -> str:
    """The accessibility tree of a part of the page, as a screen reader walks it."""
    return str(page.locator(selector).aria_snapshot())


def test_the_tree_is_the_same_for_every_card_and_the_card_speaks_only_when_held(
        hub_factory, new_context, shot):
    with hub_factory("census-tree") as hub:
        try:
            _play(hub, new_context, shot)
        finally:
            new_context.close_all()


def _play(hub: Any, new_context: Any, shot: Any) -> None:
    doc = {"ruleset": "millers-hollow", "players": NAMES, "seed": 5,
           "deal": dict(zip(NAMES, ROLES)), "professions": dict(zip(NAMES, PROFS)),
           "options": {"sheriff": False, "discussion_s": 60, "night_s": 0, "pack_s": 0}}
    seats = hub.api("POST", "/api/games", doc)["seats"]
    phones, _, _ = open_pages(hub, new_context, seats, (WOLF, VILLAGER, DRIFTER, CONFESSOR))
    wolf, villager = phones[WOLF], phones[VILLAGER]

    # the card: no live region anywhere on the page, and nothing of it in the tree
    for page in (wolf, villager):
        expect(hook(page, "card")).to_be_visible()
        assert page.locator("#card[aria-live], #card [aria-live]").count() == 0
        assert page.evaluate("() => !document.getElementById('card').closest('[aria-live]')")
        assert _tree(page, "#card") == _tree(villager, "#card")  # its back, on every phone
    # held: its text is in the tree, for the holder's screen reader to read on his ask
    with holding(wolf):
        expect(hook(wolf, "role")).to_have_text("Werewolf")
        assert "Werewolf" in _tree(wolf, "#card")
    expect(hook(wolf, "role")).to_be_empty()
    assert _tree(wolf, "#card") == _tree(villager, "#card")

    # the night: the wolves' call, the same tree on the wolf's and the villager's phone
    next_call(hub, "wolves")
    for page in (wolf, villager):
        caught_up(hub, page)
        expect(hook(page, "night-screen")).to_be_visible()
    assert _tree(wolf, "#night") == _tree(villager, "#night")
    assert "Attack" not in _tree(wolf, "body")  # whom the pack attacks: on the held card only
    shot(wolf, "tree-night-wolf")
    hub.api("POST", "/api/actions", {"do": "attack", "actor": "Ann", "target": "Hal"})
    hub.api("POST", "/api/actions", {"do": "attack", "actor": "Bob", "target": "Hal"})
    while hub.api("GET", "/api/gm")["pending"]["phase"] != "day":
        hub.api("POST", "/api/actions", {"do": "timeout"})
    next_call(hub, "")

    # the day's discussion: the confessor's and a drifter's phones, one tree
    confessor, drifter = phones[CONFESSOR], phones[DRIFTER]
    for page in (confessor, drifter, villager):
        expect(hook(page, "secret-day")).to_be_visible(timeout=wait_ms(15_000))
    assert _tree(confessor, "#day") == _tree(drifter, "#day") == _tree(villager, "#day")
    assert "confession" not in _tree(confessor, "body")
    # a pick is pressed, in the tree as on the screen (not by colour alone)
    hook(confessor, "name-2").click()
    expect(hook(confessor, "name-2")).to_have_attribute("aria-pressed", "true")
    shot(confessor, "tree-day-confessor")
