"""The host page and a lost phone in the browser [issue 29].

"The host page": its seat list follows the phones live (a seat flips to
"opened", its code gone, when its phone opens it: the public view's
`opened`), it offers only what can be done now (the deal: Start; a running
clock: Pause, +30 s, Next; a paused one: Resume; the end: nothing but "New
game"), and it says first to play from one's own phone.

"The host holds no key": a lost phone is the table's vote. The host taps
"This phone is lost"; the table screen asks, large; each living phone
answers; the majority reissues the seat and its new code is shown on the
table screen, once, until the seat's new phone opens it. Screenshots of the
host page (1024×768) and the TV (1920×1080) in English and Japanese.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from a11y import axe
from browser_kit import PHONE, SCREEN, hook
from screens_kit import problems
from slowness import wait_ms

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

ROOT = Path(__file__).resolve().parents[2]
HOST = {"viewport": {"width": 1024, "height": 768}, "has_touch": True}
BUTTONS = ("start", "pause", "resume", "extend", "next")


def _example() -> dict:
    return json.loads((ROOT / "docs/examples/millers-hollow-village-wins.json").read_text())


def _offered(page: Any) -> set[str]:
    return {b for b in BUTTONS if hook(page, f"host-{b}").is_visible()}


def _wait_offered(page: Any, want: set[str]) -> None:
    page.wait_for_function(
        "(want) => ['start','pause','resume','extend','next'].filter((b) => "
        "document.querySelector(`[data-test=host-${b}]`).checkVisibility()).join() === want",
        arg=",".join(b for b in BUTTONS if b in want), timeout=wait_ms(10_000))
    assert _offered(page) == want


def _new_problems(page: Any, before: list[str], **kw: Any) -> list[str]:
    """The layout problems (screens_kit) the page has now and had not before,
    but the texts the request's box covers on purpose (it is over the page)."""
    return [p for p in problems(page, **kw) if p not in before and not p.startswith("overlap")]


def test_the_host_page_follows_the_seats_and_offers_only_what_can_be_done(
        hub_factory: Any, new_context: Any, shot: Any) -> None:
    """[issue 29] the host page: a seat flips to "opened" live when its phone
    opens it (its QR code gone), and the buttons follow the state — deal:
    Start only; running: Pause, +30 s, Next; paused: Resume; over: none."""
    with hub_factory("host-page") as hub:
        doc = {k: v for k, v in _example().items() if k != "actions"}
        seats = hub.api("POST", "/api/games", {**doc, "narrated": True,
                                               "wait_for_start": True})["seats"]
        host = new_context(hub, **HOST).new_page()
        host.goto(f"{hub.base}/gm?token={hub.token}")
        expect(hook(host, "host")).to_be_visible()
        assert host.url.endswith("/host")
        expect(hook(host, "host-own-seat")).to_have_text(
            "Play from your own phone: scan your seat's code.")
        seat = hook(host, "host-seat-3")
        expect(hook(host, "host-seat-status-3")).to_have_text("not opened")
        expect(seat.locator("img")).to_have_count(1)
        _wait_offered(host, {"start"})  # the deal: Start only
        axe(host, "en host page (deal)")  # [issue 43]

        phone = new_context(hub, **PHONE).new_page()
        phone.goto(hub.base + seats[3]["url"])
        expect(hook(phone, "deal-screen")).to_be_visible()
        expect(hook(host, "host-seat-status-3")).to_have_text("opened")  # live, no reload
        expect(seat).to_have_attribute("data-opened", "1")
        expect(seat.locator("img")).to_have_count(0)  # its code is gone
        expect(hook(host, "host-seat-status-4")).to_have_text("not opened")
        status = host.evaluate("async () => (await fetch('/api/seats/3/qr.svg')).status")
        assert status == 403

        hook(host, "host-start").click()
        _wait_offered(host, {"pause", "extend", "next"})  # running
        hook(host, "host-pause").click()
        _wait_offered(host, {"resume"})  # paused
        hook(host, "host-resume").click()
        _wait_offered(host, {"pause", "extend", "next"})
        shot(host, "running")
        axe(host, "en host page (running)")

        for action in _example()["actions"]:  # the phones play it to the end
            hub.table.act_gm(action)
        assert hub.table.state.phase == "over"
        _wait_offered(host, set())  # over: nothing but "New game"
        expect(hook(host, "host-new")).to_be_visible()
        new_context.close_all()


PIN = "4071"  # every seat's, chosen on its first phone [issue 40]
NAMES = {"en": ["Ann", "Bob", "Cleo", "Dan", "Eve", "Finn", "Gus", "Hana"],
         "ja": ["あかり", "ひろし", "さくら", "だいき", "えみ", "ふみや", "ごう", "はな"]}


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_lost_phone_is_the_tables_vote_on_the_tv(
        hub_factory: Any, new_context: Any, shot: Any, lang: str) -> None:
    """[issue 29] the host's "This phone is lost" opens the table's vote: the
    TV asks, large; each living phone shows yes/no (the lost seat's does not
    vote); the majority reissues the seat, its old phone is let go, and its
    new code shows on the TV once, until the new phone opens it."""
    names = NAMES[lang]
    with hub_factory(f"lost-{lang}") as hub:
        seats = hub.api("POST", "/api/games", {
            "ruleset": "millers-hollow", "players": names, "narrated": True,
            "cards": {"werewolf": 2, "seer": 1, "villager": 5}, "language": lang,
            "wait_for_start": True})["seats"]
        lost_seat = 2
        phones = {}
        for seat in (0, lost_seat):  # two phones in the browser; the others in-process
            phones[seat] = new_context(hub, **PHONE).new_page()
            phones[seat].goto(hub.base + seats[seat]["url"])
            # a narrated game: the seat's PIN first, its card only then [issue 40]
            expect(hook(phones[seat], "pin-set")).to_be_visible()
            expect(hook(phones[seat], "card")).to_be_hidden()
            phones[seat].fill("#pin", PIN)
            hook(phones[seat], "pin-send").click()
            expect(hook(phones[seat], "pin-set")).to_be_hidden()
            expect(hook(phones[seat], "deal-screen")).to_be_visible()
            expect(hook(phones[seat], "card")).to_be_visible()
        for seat in range(len(names)):
            if seat not in phones:
                assert hub.table.claim(seat, f"phone-{seat}")
                hub.table.pins.set_pin(seat, {"pin": PIN})
        tv = new_context(hub, **SCREEN).new_page()
        tv.goto(f"{hub.base}/table?lang={lang}")
        host = new_context(hub, **HOST).new_page()
        host.goto(f"{hub.base}/gm?token={hub.token}")
        host.goto(f"{hub.base}/host?lang={lang}")
        hook(host, "host-start").click()
        _wait_offered(host, {"pause", "extend", "next"})

        ann = phones[0]
        kinds = ((host, "host-vote", False), (tv, "tv-vote", True), (ann, "phone-vote", False))
        before = {name: problems(page, tv=on_tv, lang=lang, names=names)
                  for page, name, on_tv in kinds}
        hook(host, f"host-lost-{lost_seat}").click()
        expect(hook(tv, "lost")).to_be_visible()
        expect(hook(host, "host-lost")).to_be_visible()
        expect(hook(host, "host-lost-1")).to_have_count(0)  # one request at a time
        expect(hook(ann, "lost-vote")).to_be_visible()
        expect(hook(phones[lost_seat], "lost-yes")).to_have_count(0)  # the lost seat votes not
        if lang == "en":
            expect(hook(tv, "lost")).to_contain_text(
                "Cleo's phone is lost: reissue Cleo's seat?")
            expect(hook(tv, "lost")).to_contain_text("Living players: confirm on your phones.")
        hook(ann, "lost-yes").click()
        expect(hook(tv, "lost-count")).to_contain_text("1")
        expect(hook(ann, "lost-mine")).to_be_visible()
        lost = hub.app.extensions["lost_phones"]
        lost.answer(5, {"yes": False})
        expect(hook(host, "host-lost")).to_contain_text("1")
        for page, name, on_tv in kinds:
            shot(page, name)
            found = _new_problems(page, before[name], tv=on_tv, lang=lang, names=names)
            assert not found, (name, found)

        for seat in (1, 3):
            lost.answer(seat, {"yes": True})
        assert lost.answer(4, {"yes": True})["outcome"] == "reissued"
        expect(hook(tv, "lost-code")).to_be_visible()  # the new code, once
        expect(hook(phones[lost_seat], "card")).to_have_count(0)  # the old phone let go
        status = host.evaluate("async () => (await fetch('/api/lost/qr.svg')).status")
        assert status == 410  # the TV had it: nobody else gets it
        shot(tv, "tv-code")
        shot(host, "host-code")
        found = _new_problems(tv, before["tv-vote"], tv=True, lang=lang, names=names)
        assert not found, found

        new = hub.table.seats()[lost_seat]["url"]
        # whoever scans the TV first is asked the PIN, never shown the card [issue 40]
        stranger = new_context(hub, **PHONE).new_page()
        stranger.goto(hub.base + new)
        stranger.fill("#pin", "1357")
        hook(stranger, "pin-send").click()
        expect(hook(stranger, "pin-error")).to_be_visible()
        expect(hook(stranger, "card")).to_have_count(0)
        shot(stranger, "unlock-wrong")
        again = new_context(hub, **PHONE).new_page()
        again.goto(hub.base + new)
        again.fill("#pin", PIN)
        hook(again, "pin-send").click()
        expect(hook(again, "card")).to_be_visible()
        expect(hook(tv, "lost")).to_be_hidden()  # opened: the code goes
        expect(hook(host, "host-lost")).to_be_hidden()
        expect(hook(host, f"host-seat-status-{lost_seat}")).to_have_text(
            "opened" if lang == "en" else "接続済み")
        new_context.close_all()
