"""The GM's seat and undo in a real browser [issue 17 items 2, 3, 5]: the
tablet's own fetches pass the hub's JSON-and-Origin guard; "pair another
tablet" shows a QR code whose link pairs a second tablet once; an undo the
game moved past is refused (409) and the tablet asks again, showing what is
there now."""

from __future__ import annotations

from typing import Any

import pytest
from browser_kit import TABLET, hook
from slowness import wait_ms

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

WAIT = wait_ms(15_000)
SHOTS = "/work/notes/shots/guard"
NAMES = list("ABCDEFGH")
ROLES = ["werewolf", "werewolf", "seer", "witch", "hunter", "villager", "villager", "villager"]


def _game(hub: Any) -> None:
    hub.api("POST", "/api/games", {"ruleset": "millers-hollow", "players": NAMES, "seed": 5,
                                   "deal": dict(zip(NAMES, ROLES, strict=True)),
                                   "options": {"sheriff": False}})
    hub.api("POST", "/api/timer", {"do": "pause"})


def test_a_second_tablet_is_paired_from_the_first(hub_factory, new_context, shot):
    with hub_factory("pairing") as hub:
        first = new_context(hub, **TABLET).new_page()
        first.goto(f"{hub.base}/gm?token={hub.token}")
        hook(first, "pair-tablet").click()
        expect(hook(first, "pair-box")).to_be_visible(timeout=WAIT)
        expect(first.locator("[data-test=pair-qr] svg")).to_be_visible()
        url = hook(first, "pair-url").inner_text()
        assert "/gm/pair/" in url and hub.token not in url
        first.screenshot(path=f"{SHOTS}/pair-another-tablet.png")
        second = new_context(hub, **TABLET).new_page()
        second.goto(url)
        expect(hook(second, "lobby")).to_be_visible(timeout=WAIT)  # paired: the GM page
        first.locator("#pair-close").click()  # the first tablet sees one more paired
        expect(hook(first, "paired")).to_have_text("Paired tablets: 2", timeout=WAIT)
        third = new_context(hub, **TABLET).new_page()
        answer = third.goto(url)  # the same link again
        assert answer is not None and answer.status == 403


def test_a_tablet_unpaired_by_a_new_token_leaves_the_game(hub_factory, new_context, shot):
    """[issue 17 item 2] rotating the token ends every other tablet's session:
    its page, open on the game, is not left frozen (nor sent the GM's view)
    but says how to come back; the rotating tablet keeps following."""
    with hub_factory("rotate") as hub:
        _game(hub)
        hub.api("POST", "/api/actions", {"do": "timeout"})  # dealt: the game's screen
        first = new_context(hub, **TABLET).new_page()
        first.goto(f"{hub.base}/gm?token={hub.token}")
        hook(first, "pair-tablet").click()
        expect(hook(first, "pair-url")).to_contain_text("/gm/pair/", timeout=WAIT)
        url = hook(first, "pair-url").inner_text()
        first.locator("#pair-close").click()
        second = new_context(hub, **TABLET).new_page()
        second.goto(url)
        for page in (first, second):
            expect(hook(page, "running")).to_be_visible(timeout=WAIT)
        first.on("dialog", lambda dialog: dialog.accept())
        first.evaluate("window.notReloaded = true")
        hook(first, "rotate-token").click()
        expect(hook(first, "rotated")).to_be_visible(timeout=WAIT)
        expect(second.locator("main.notice")).to_contain_text(
            "Open the game master's URL with its token", timeout=WAIT)
        second.screenshot(path=f"{SHOTS}/unpaired-by-a-new-token.png")
        seq = hub.table.act_gm({"do": "timeout"})["seq"]
        first.wait_for_function("(seq) => document.body.dataset.seq === String(seq)",
                                arg=seq, timeout=WAIT)
        assert first.evaluate("window.notReloaded === true")  # its page was not reloaded


def test_an_undo_the_game_moved_past_is_asked_again(hub_factory, new_context, shot):
    with hub_factory("undo-race") as hub:
        _game(hub)
        hub.api("POST", "/api/actions", {"do": "timeout"})  # something to undo
        page = new_context(hub, **TABLET).new_page()
        page.goto(f"{hub.base}/gm?token={hub.token}")
        expect(hook(page, "running")).to_be_visible(timeout=WAIT)
        page.locator("#undo").click()
        expect(page.locator("#undo-box")).to_be_visible(timeout=WAIT)
        before = page.locator("#undo-text").inner_text()
        seq = hub.api("GET", "/api/gm")["seq"]
        hub.api("POST", "/api/actions", {"do": "timeout"})  # lands while the GM reads
        page.locator("#confirm-undo").click()
        expect(page.locator("#error")).to_contain_text("moved on", timeout=WAIT)
        expect(page.locator("#undo-box")).to_be_visible(timeout=WAIT)  # asked again
        expect(page.locator("#undo-text")).not_to_have_text(before, timeout=WAIT)
        page.screenshot(path=f"{SHOTS}/undo-asked-again.png")
        assert hub.api("GET", "/api/gm")["seq"] == seq + 1  # nothing was undone
        page.locator("#confirm-undo").click()  # confirmed against what is there now
        expect(page.locator("#undo-box")).to_be_hidden(timeout=WAIT)
        for _ in range(100):
            if hub.api("GET", "/api/gm")["seq"] == seq:
                break
            page.wait_for_timeout(50)
        assert hub.api("GET", "/api/gm")["seq"] == seq
