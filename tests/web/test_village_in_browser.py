"""The Village in the browser (RULES.md §8 [000], [issue 9]): a short
Millers Hollow game with professions. The pyromaniac burns a farm from his
phone at night; at dawn the table screen shows the burned building; during
the day's discussion the confessor hears a confession on her phone (before
the vote opens), on the day powers' screen every living phone shows alike
[issue 40], and sees the card full screen, and the GM enters the
schoolteacher's silence with the tablet's widgets (the table screen names the
silenced, a silenced phone says it cannot vote today); her phone shows her profession
with her card; the GM tablet, secrets shown, shows every seat's profession and
building. The other night steps are ended by the GM's API (the test's oracle
and driver, never the pages' way in)."""

from __future__ import annotations

from typing import Any

import pytest
from browser_kit import (
    caught_up,
    held_card,
    held_profession_shows,
    hook,
    night_tap,
    night_to_day,
    open_pages,
)
from slowness import wait_ms

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal"]
ROLES = ["werewolf", "werewolf", "seer", "witch", "pyromaniac", "villager", "villager", "villager"]
PROFS = ["farmer", "farmer", "schoolteacher", "baker", "drifter", "confessor", "barber", "steward"]
PYRO, CONFESSOR, BURNED, TEACHER = 4, 5, 0, 2


def test_a_village_game_on_phones_table_and_tablet(hub_factory, new_context):
    with hub_factory("village") as hub:
        try:
            _play(hub, new_context)
        finally:
            new_context.close_all()  # before this hub stops


def _play(hub: Any, new_context: Any) -> None:
    doc = {"ruleset": "millers-hollow", "players": NAMES, "seed": 5,
           "deal": dict(zip(NAMES, ROLES)), "professions": dict(zip(NAMES, PROFS)),
           "options": {"sheriff": False, "discussion_s": 8, "night_s": 0, "pack_s": 0}}
    seats = hub.api("POST", "/api/games", doc)["seats"]
    phones, screen, gm = open_pages(hub, new_context, seats, (PYRO, CONFESSOR))

    # the confessor's card shows her profession and building, held like the role
    phone = phones[CONFESSOR]
    held_profession_shows(phone, "Confessor", "Church")

    # night 1: the GM ends every step but the pyromaniac's, who burns a farm
    night_to_day(hub, phones[PYRO], "pyromaniac", "burn", BURNED)
    # the table screen: the burned farm, in public
    expect(hook(screen, "village")).to_contain_text("Burned: Ann's Farm", timeout=wait_ms(15_000))
    # the day's discussion: the confessor hears Cid (the seer) before the vote
    # on the day powers' one screen, the same on every living phone [issue 40]
    expect(hook(phone, "secret-day")).to_be_visible(timeout=wait_ms(15_000))
    assert hub.api("GET", "/api/gm")["pace"]["mode"] == "discussion"
    other = phones[PYRO]  # no day power: the same screen, the same words
    expect(hook(other, "secret-day")).to_be_visible()
    assert other.locator("#day").inner_html() == phone.locator("#day").inner_html()
    assert "Whose confession" not in phone.locator("body").inner_text()  # on the held card only
    night_tap(phone, seat=2)
    caught_up(hub, phone)  # her result: on the held card only [issue 28]
    assert "Cid's card: Seer." in held_card(phone)
    expect(hook(phone, "results")).to_be_hidden()
    # the GM tablet, secrets shown: every seat's profession and building
    hook(gm, "secrets").check()
    expect(hook(gm, f"prof-{CONFESSOR}")).to_contain_text("Confessor · Church (used)")
    expect(hook(gm, f"prof-{BURNED}")).to_contain_text("Drifter")
    expect(hook(gm, "prof-1")).to_contain_text("Farmer · Farm")
    # the GM enters the schoolteacher's day power with the tablet's widgets:
    # she silences Fay (the confessor) and Bob, and so herself [000]; the table screen names them
    # and Fay's phone says she cannot vote today
    gm.locator("[data-test=act-seat]").select_option(str(TEACHER))
    act = hook(gm, "gm-act")
    box = act.locator("[data-test=choice-silence]")
    expect(box).to_be_visible()
    box.locator(f"[data-test=target-{CONFESSOR}]").click()
    box.locator("[data-test=target-1]").click()
    act.locator("[data-test=confirm]").click()
    expect(hook(screen, "village")).to_contain_text("Silenced today (no vote): Bob, Cid, Fay",
                                                    timeout=wait_ms(10_000))
    expect(hook(phone, "silenced")).to_be_visible()
    # the table screen never shows a standing building's owner or a power's state
    text = screen.locator("body").inner_text()
    for word in ("Confessor", "Church", "usable", "used"):
        assert word not in text, word
