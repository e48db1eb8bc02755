"""A name's reading on the phones [issue 42 item 3]: "the lobby takes an
optional reading, kana for Japanese, and the phone shows it" — beside the
name in the table's list, in the game's language."""

from __future__ import annotations

from typing import Any

import pytest
from browser_kit import PHONE, hook
from slowness import wait_ms

from companion.engine import recommended_deal

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

NAMES = ["陽菜", "ゆうと", "さくら", "はると", "みお", "そうた", "ひな", "れん", "ゆい"]


def test_the_phone_shows_a_names_reading(hub_factory: Any, new_context: Any) -> None:
    with hub_factory("readings") as hub:
        hub.api("POST", "/api/games", {"ruleset": "jp-standard", "players": NAMES,
                                       "language": "ja", "readings": {"陽菜": "はるな"},
                                       "cards": recommended_deal("jp-standard", 9)})
        link = hub.base + hub.api("GET", "/api/seats")["seats"][1]["url"]
        phone = new_context(hub, **PHONE).new_page()
        phone.goto(link)
        reading = hook(phone, "reading")
        expect(reading).to_have_count(1, timeout=wait_ms(10_000))
        expect(reading).to_have_text("(はるな)")
        assert reading.get_attribute("lang") == "ja"
        new_context.close_all()
