"""The virtual table in a browser ([issue 7] How it is checked): eight seats
vote by clicking their simulated seat boxes (each click drives gpiozero's mock
button pin, through the seat boxes' queue, the table's one path and the
SQLite log), the LEDs and the display image update on the page."""

from __future__ import annotations

import time
from typing import Any

import pytest
from browser_kit import TABLET
from slowness import wait_ms

from companion.engine import pending
from companion.table.pacing import Settings

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

WAIT = wait_ms(15_000)
NAMES = list("ABCDEFGH")


def led(page: Any, n: int) -> Any:
    return page.locator(f"[data-test=led-{n}]")


def to_ballot(hub: Any) -> None:
    for _ in range(200):
        state = hub.table.state
        p = pending(state)
        if p["kind"] == "vote" and hub.table.pace.mode == "ballot":
            return
        if p["kind"] in ("night", "wolves", "prompt"):
            hub.api("POST", "/api/actions", {"do": "timeout"})
        elif hub.table.pace.mode == "discussion":
            hub.api("POST", "/api/timer", {"do": "skip"})  # the GM ends the discussion
        else:
            time.sleep(0.05)
    raise AssertionError(f"no ballot: {pending(hub.table.state)} {hub.table.pace}")


def test_eight_seats_vote_by_clicking_their_seat_boxes(hub_factory, new_context, shot):
    """[issue 7] virtual table: click = press; LEDs dark at night, blinking
    while the roll-call waits, solid once recorded, three quick blinks for a
    refused press; the display image follows the game."""
    settings = Settings(call_s=(3.0, 4.0), ballot_s=20, prompt_s=10, last_words_s=0.5,
                        verdict_s=1.5, rollcall_s=30.0)
    with hub_factory("virtual", settings=settings, hardware=True) as hub:
        roles = ["werewolf", "werewolf", "seer", "witch", "hunter", "villager", "villager",
                 "villager"]
        hub.api("POST", "/api/games", {
            "ruleset": "millers-hollow", "players": NAMES, "seed": 5,
            "deal": dict(zip(NAMES, roles)), "options": {"sheriff": False},
            "buttons": "roll-call"})
        page = new_context(hub, **TABLET).new_page()
        page.goto(f"{hub.base}/gm?token={hub.token}")
        page.goto(f"{hub.base}/gm/table")
        expect(page.locator("[data-test=press-12]")).to_be_visible(timeout=WAIT)
        for n in range(1, 9):
            expect(led(page, n)).to_have_attribute("data-led", "dark", timeout=WAIT)
        expect(page.locator("[data-test=who-1]")).to_have_text("A", timeout=WAIT)
        frame = int(page.locator("[data-test=display]").get_attribute("data-frame") or -1)
        assert frame >= 1
        shot(page, "virtual-night")

        to_ballot(hub)  # the wolves did not agree: nobody died; A is called first
        assert hub.table.pace.order[0] == 0
        for n in range(1, 9):
            expect(led(page, n)).to_have_attribute("data-led", "waiting", timeout=WAIT)
        gm = new_context(hub, **TABLET).new_page()  # the GM's tablet says it too
        gm.goto(f"{hub.base}/gm?token={hub.token}")
        expect(gm.locator("[data-test=line]")).to_contain_text("Vote for A?", timeout=WAIT)
        screen = new_context(hub, viewport={"width": 1920, "height": 1080}).new_page()
        screen.goto(f"{hub.base}/table")  # the table screen names the candidate too
        expect(screen.locator("[data-test=line]")).to_contain_text(
            "Vote for A? Press your button now (1 of 8)", timeout=WAIT)
        for n in range(1, 8):
            page.locator(f"[data-test=press-{n}]").click()
        for n in range(1, 8):
            expect(led(page, n)).to_have_attribute("data-led", "recorded", timeout=WAIT)
        expect(led(page, 8)).to_have_attribute("data-led", "waiting")
        shot(page, "virtual-rollcall")

        page.locator("[data-test=press-1]").click()  # a second vote in the round
        expect(led(page, 1)).to_have_attribute("data-led", "refused", timeout=WAIT)
        expect(led(page, 1)).to_have_attribute("data-led", "recorded", timeout=WAIT)
        assert hub.table.state.votes == {n: 0 for n in range(7)}

        before = int(page.locator("[data-test=display]").get_attribute("data-frame") or -1)
        page.locator("[data-test=press-8]").click()  # the last vote closes the ballot
        page.wait_for_function(
            "n => Number(document.querySelector('[data-test=display]').dataset.frame) > n",
            arg=before, timeout=WAIT)
        tally = hub.api("GET", "/api/gm")["last_tally"]
        assert tally["counts"] == {"0": 8}
        page.wait_for_function(  # a 128x64 frame, shown at 3x
            "() => { const i = document.querySelector('[data-test=display]');"
            " return i.complete && i.naturalWidth === 128 && i.naturalHeight === 64; }",
            timeout=WAIT)
        expect(led(page, 8)).to_have_attribute("data-led", "recorded", timeout=WAIT)
        for n in range(1, 9):  # then the night falls
            expect(led(page, n)).to_have_attribute("data-led", "dark", timeout=WAIT)
        shot(page, "virtual-after")
