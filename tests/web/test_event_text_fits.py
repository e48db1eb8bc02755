"""An event card's text never overflows its card [issue 41 item 8], in
Chromium: a group's own (text-only) card whose text piled combining marks
on one letter overflowed the TV's and the tablet's cards and widened a
phone's page to 836 px; names refused them, the cards' text did not. Now
the text refuses what a name refuses (more than three marks on one letter:
the game is not dealt), and the worst text it accepts — 240 characters, no
space, three marks on every letter — stays inside the card on the TV, the
tablet and a phone (390 px), whose page does not widen."""

from __future__ import annotations

import time
from typing import Any

from browser_kit import SCREEN, hook, next_call, open_pages
from slowness import wait_s

from companion.table.pacing import Settings

SETTINGS = Settings(call_s=(1.0, 1.5), ballot_s=20, prompt_s=10, last_words_s=0.5,
                    verdict_s=1.5)
PLAYERS = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus", "Hal"]
DEAL = ["werewolf", "werewolf", "seer", "witch", "hunter", "villager", "villager", "villager"]
PILE = "Z" + "\u0301\u0316\u0350" * 79  # the card: 237 marks on one letter
WORST = ("W\u0301\u0316\u0350" * 60)  # 240 characters, no space, three marks a letter


def _game(text: str) -> dict:
    return {"ruleset": "millers-hollow", "players": PLAYERS, "seed": 2, "language": "en",
            "deal": dict(zip(PLAYERS, DEAL)),
            "options": {"sheriff": False, "discussion_s": 600, "night_s": 1, "pack_s": 1,
                        "events": [{"title": {"en": "Pile"}, "text": {"en": text}}]}}


def _post(hub: Any, path: str, doc: object) -> tuple[int, dict]:
    """The GM's POST, its status kept (a refusal is the answer wanted here)."""
    import json
    import urllib.error
    import urllib.request

    req = urllib.request.Request(hub.base + path, data=json.dumps(doc).encode(), method="POST",
                                 headers={"Authorization": f"Bearer {hub.token}",
                                          "Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=wait_s(10)) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read())


def _inside(page: Any, card: str, text: str) -> None:
    """The card's text is drawn inside the card, and scrolls nowhere."""
    box = hook(page, card).bounding_box()
    inner = hook(page, text).bounding_box()
    assert box is not None and inner is not None
    assert inner["x"] >= box["x"] - 1 and inner["x"] + inner["width"] <= box["x"] + box[
        "width"] + 1, (card, box, inner)
    assert hook(page, text).evaluate("(e) => e.scrollWidth <= e.clientWidth + 1"), card


def test_an_event_cards_text_never_overflows(hub_factory: Any, new_context: Any,
                                             shot: Any) -> None:
    from playwright.sync_api import expect

    with hub_factory("event-text", settings=SETTINGS) as hub:
        status, refused = _post(hub, "/api/games", _game(PILE))
        assert status == 400 and "combining marks on one letter" in refused["error"], refused
        seats = hub.api("POST", "/api/games", _game(WORST))["seats"]
        hub.api("POST", "/api/timer", {"do": "pause"})
        phones, screen, gm = open_pages(hub, new_context, seats, (5,))
        screen.close()
        screen = new_context(hub, **SCREEN).new_page()
        screen.goto(hub.base + "/table")
        hook(gm, "tab-running").click()
        hub.api("POST", "/api/timer", {"do": "resume"})
        deadline = time.monotonic() + wait_s(15)
        while hub.api("GET", "/api/gm")["pending"]["phase"] != "day":
            assert time.monotonic() < deadline
            hub.api("POST", "/api/actions", {"do": "timeout"})
        next_call(hub, "")
        phone = phones[5]
        for page in (screen, phone, gm):
            expect(hook(page, "event-card")).to_be_visible()
        _inside(screen, "event-card", "event-text")
        _inside(phone, "event-card", "event-text")
        width = phone.evaluate("() => document.documentElement.scrollWidth")
        assert width <= 390, f"the phone's page is {width} px wide"
        shot(phone, "phone-event-worst-text")
        shot(screen, "tv-event-worst-text")
