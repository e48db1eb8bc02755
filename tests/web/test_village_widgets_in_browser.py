"""The Village's phone widgets in the browser (RULES.md §8 [000], [issue 9]):
a short Millers Hollow game with professions in which, on the players'
phones, the rumormonger posts an accusation at night (the table screen shows
the poster by day), the baker's result (seed 5: his first dawn finds Ann, a
werewolf; his second finds nobody, and says so) opens full screen and hides on
a tap, the bonesetter restores the
confessor's used power (`power-<id>`), the steward gives the dead barber's
empty shop to the drifter (`building-<id>` then the drifter), whose card then
shows it, and the lord pardons the condemned from his phone (nobody dies; the
table screen says the pardon, not "No execution.").
Every other step is driven by the GM's API (the test's oracle and driver,
never the pages' way in)."""

from __future__ import annotations

import time
from typing import Any

import pytest
from browser_kit import (
    caught_up,
    held_card,
    held_profession_shows,
    hook,
    next_call,
    night_tap,
    night_to_day,
    open_pages,
)
from slowness import wait_ms, wait_s

from companion.table.pacing import Settings

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal"]
ROLES = ["werewolf", "werewolf", "rumormonger", "seer", "villager", "villager", "villager",
         "villager"]
PROFS = ["farmer", "drifter", "steward", "baker", "confessor", "bonesetter", "lord", "barber"]
WOLF, DRIFTER, RUMOR, BAKER, CONFESSOR, BONESETTER, LORD, BARBER = range(8)
SEED = 5  # the baker's rolls: night 1 finds Ann, night 2 nobody (his phone says which)


def test_the_village_widgets_on_phones(hub_factory, new_context):
    """RULES.md §8 [000] rumormonger, baker, bonesetter, steward and lord, each
    used from its own phone [issue 9] — by day on the one screen every living
phone shows [issue 40]; see the module's docstring."""
    # the day's verdict stays on the table screen long enough to be read
    # (no night windows: night_s and pack_s 0, the GM's Next ends each call [issue 16])
    settings = Settings(ballot_s=20, prompt_s=10, last_words_s=0.5, verdict_s=4)
    with hub_factory("village-widgets", settings=settings) as hub:
        try:
            _play(hub, new_context)
        finally:
            new_context.close_all()  # before this hub stops


def _play(hub: Any, new_context: Any) -> None:
    doc = {"ruleset": "millers-hollow", "players": NAMES, "seed": SEED,
           "deal": dict(zip(NAMES, ROLES)), "professions": dict(zip(NAMES, PROFS)),
           "options": {"sheriff": False, "discussion_s": 120, "night_s": 0, "pack_s": 0}}
    seats = hub.api("POST", "/api/games", doc)["seats"]
    phones, screen, gm = open_pages(hub, new_context, seats,
                                    (DRIFTER, RUMOR, BAKER, BONESETTER, LORD))

    # night 1: the rumormonger posts an accusation against Ann from his phone
    # (RULES.md §8 rumormonger [000]); the wolves kill Hal, the barber, through
    # the GM's API (his shop is left empty); the seer's step times out
    def still_night() -> None:  # the table screen does not tell the rumour yet
        assert "rumour" not in hook(screen, "village").inner_text()

    night_to_day(hub, phones[RUMOR], "rumormonger", "post", WOLF, after=still_night,
                 api={"wolves": [{"do": "attack", "actor": wolf, "target": "Hal"}
                                 for wolf in ("Ann", "Bob")]})
    assert hub.api("GET", "/api/gm")["pending"]["phase"] == "day"
    # by day the table screen shows the poster, in public
    expect(hook(screen, "village")).to_contain_text("A rumour accuses Ann.",
                                                    timeout=wait_ms(15_000))

    # the baker's dawn (RULES.md §8 baker [000]): the seed's roll found Ann;
    # his result is on his held card only: nothing on the open page says a
    # result is there ("Baker" would name him, issue 18 item 4; a list of
    # results would too, [issue 28])
    baker = phones[BAKER]
    caught_up(hub, baker)
    expect(baker.locator("body")).not_to_contain_text("Baker")
    held = held_card(baker)
    assert "Baker" in held and "The bakery found a werewolf: Ann." in held, held
    expect(hook(baker, "results")).to_be_hidden()

    # the bonesetter (RULES.md §8 bonesetter [000]): the confessor uses her
    # once-only power (GM's API), the bonesetter makes it usable again
    assert hub.api("GET", "/api/gm")["pace"]["mode"] == "discussion"
    # (her phone's action, the one path: a GM's action would end the discussion)
    hub.table.act_seat(CONFESSOR, {"do": "confess", "target": "Cid"})
    hook(gm, "secrets").check()
    expect(hook(gm, f"prof-{CONFESSOR}")).to_contain_text("Confessor · Church (used)")
    bones = phones[BONESETTER]  # the day powers' one screen [issue 40]: ① is the church
    expect(hook(bones, "secret-day")).to_be_visible(timeout=wait_ms(10_000))
    assert "① Church" in held_card(bones)
    night_tap(bones, mark=1)
    expect(hook(gm, f"prof-{CONFESSOR}")).to_contain_text("Confessor · Church (usable)")
    expect(hook(gm, f"prof-{BONESETTER}")).to_contain_text("Bonesetter · Shack (used)")
    assert hub.api("GET", "/api/gm")["village"]["powers"][CONFESSOR] == "usable"

    # the steward (RULES.md §8 steward [000]): the dead barber's shop to Bob, the drifter
    steward = phones[RUMOR]
    expect(hook(steward, "secret-day")).to_be_visible(timeout=wait_ms(10_000))
    assert "① Barbershop" in held_card(steward)
    night_tap(steward, seat=DRIFTER, mark=1)
    expect(hook(gm, f"prof-{DRIFTER}")).to_contain_text("Barber · Barbershop")
    held_profession_shows(phones[DRIFTER], "Barber", "Barbershop")

    # the vote (GM's API): the village condemns Ann; the lord (RULES.md §8
    # lord [000]) gets the pardon prompt on his phone and pardons: nobody dies
    # (the GM's actions above already ended the discussion; Next would now end
    # the ballot's wait too, [issue 16], so it is pressed only in a discussion)
    if hub.api("GET", "/api/gm")["pace"]["mode"] == "discussion":
        hub.api("POST", "/api/timer", {"do": "skip"})
    deadline = time.monotonic() + wait_s(10)
    while hub.api("GET", "/api/gm")["pace"]["mode"] != "ballot":
        assert time.monotonic() < deadline, "the vote never opened"
        time.sleep(0.1)
    for name in NAMES[:7]:
        hub.api("POST", "/api/actions",
                {"do": "vote", "actor": name, "target": "Dee" if name == "Ann" else "Ann"})
    assert hub.api("GET", "/api/gm")["pending"]["step"] == "pardon"
    lord = phones[LORD]  # every living phone shows the execution's one screen [issue 40]
    expect(hook(lord, "secret-day")).to_be_visible(timeout=wait_ms(10_000))
    expect(hook(phones[DRIFTER], "secret-day")).to_be_visible()
    assert phones[DRIFTER].locator("#day").inner_html() == lord.locator("#day").inner_html()
    assert "① Pardon" in held_card(lord)
    night_tap(lord, mark=1)
    gmv = hub.api("GET", "/api/gm")
    assert gmv["pending"]["step"] != "pardon"
    assert [p["alive"] for p in gmv["players"]] == [True] * 7 + [False]
    # the table screen: the pardon, and no execution (Hal's death at dawn only)
    deaths = hook(screen, "deaths")
    expect(deaths).to_contain_text("The lord pardons Ann: nobody is executed today.",
                                   timeout=wait_ms(10_000))
    expect(deaths).not_to_contain_text("Ann is dead")
    expect(deaths).not_to_contain_text("No execution.")  # the pardon line says it
    expect(deaths).to_contain_text("Hal is dead")

    # night 2 (GM's API, every step timed out): the baker's roll finds nobody,
    # and his phone says so (RULES.md §8 baker [000]: a chance each night)
    deadline = time.monotonic() + wait_s(20)
    while hub.api("GET", "/api/gm")["pending"]["phase"] != "day":
        assert time.monotonic() < deadline, "night 2 never ended"
        if hub.api("GET", "/api/gm")["pace"]["mode"] == "calls":
            hub.api("POST", "/api/actions", {"do": "timeout"})
        else:
            time.sleep(0.1)
    next_call(hub, "")  # the night's last calls, ended by the GM's Next: dawn [issue 28]
    caught_up(hub, baker)
    held = held_card(baker)
    assert "Night 2 · Baker — The bakery found no werewolf." in held, held
