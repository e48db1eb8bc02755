"""The TV and the tablet follow the game without a reload [issue 18, items 1
and 2, "The TV and the tablet follow the game"]: a hub restarted on the same
data folder, then a new game, then a new language. Every view carries its
`game`, its `language` and the hub's `boot`; the page-side check is
web/static/stream.js's `newer` (one place)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from browser_kit import SCREEN, TABLET, hook
from conftest import running_hub
from slowness import wait_ms

expect = pytest.importorskip("playwright.sync_api").expect

NAMES_EN = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal"]
NAMES_JA = ["あおい", "いつき", "うみ", "えま", "おと", "かい", "きら", "くう"]


def _game(hub: Any, names: list[str], language: str, seed: int = 7) -> dict:
    return hub.api("POST", "/api/games", {"ruleset": "millers-hollow", "seed": seed,
                                          "players": names, "language": language})


def test_the_tv_follows_a_restarted_hub_and_its_new_game(tmp_path: Path, new_context: Any) -> None:
    """Issue 18 item 1: after a restart the resumed game's views are numbered
    from boot × 10⁶; a new game starts again from 1. The TV must show the new
    game, not drop its views as old."""
    folder = tmp_path / "hub"
    with running_hub(folder) as first:
        port = first.server.port
        _game(first, NAMES_EN, "en")
        tv = new_context(first, **SCREEN).new_page()
        tv.goto(first.base + "/table")
        expect(hook(tv, "phase")).to_have_text("Night 1")
    with running_hub(folder, port=port) as again:
        again.table.resume()
        expect(tv.locator("#players")).to_contain_text("Hal", timeout=wait_ms(15_000))
        assert again.api("GET", "/api/public")["seq"] > 1_000_000  # the resumed game's numbering
        _game(again, ["Ivy", "Jon", "Kim", "Lea", "Max", "Ned", "Ola", "Pia"], "en", seed=8)
        assert again.api("GET", "/api/public")["seq"] < 1_000_000  # a new game numbers anew
        expect(tv.locator("#players")).to_contain_text("Pia", timeout=wait_ms(10_000))
        new_context.close_all()


def test_the_tv_and_the_tablet_take_the_games_language(tmp_path: Path, new_context: Any) -> None:
    """Issue 18 item 2: a Japanese game after an English one: the TV's and the
    GM tablet's words turn Japanese without anyone reloading them (the page
    reloads itself, once, when a view's language is not its own)."""
    with running_hub(tmp_path / "hub") as hub:
        _game(hub, NAMES_EN, "en")
        tv = new_context(hub, **SCREEN).new_page()
        tv.goto(hub.base + "/table")
        gm = new_context(hub, **TABLET).new_page()
        gm.goto(f"{hub.base}/gm?token={hub.token}")
        expect(hook(tv, "phase")).to_have_text("Night 1")
        expect(gm.locator("[data-test=tab-lobby]")).to_have_text("Lobby")
        _game(hub, NAMES_JA, "ja", seed=9)
        expect(hook(tv, "phase")).to_have_text("第1夜", timeout=wait_ms(10_000))
        expect(tv.locator("#players")).to_contain_text("くう")
        expect(gm.locator("[data-test=tab-lobby]")).not_to_have_text("Lobby",
                                                                timeout=wait_ms(10_000))
        assert gm.evaluate("document.documentElement.lang") == "ja"
        _game(hub, NAMES_EN, "en", seed=10)  # and back
        expect(hook(tv, "phase")).to_have_text("Night 1", timeout=wait_ms(10_000))
        assert gm.wait_for_function("document.documentElement.lang === 'en'",
                                    timeout=wait_ms(10_000))
        new_context.close_all()


def test_a_phone_with_its_own_language_keeps_it(tmp_path: Path, new_context: Any) -> None:
    """The device's own choice (the `lang` cookie) wins over the game's: the
    page does not reload itself into the game's language."""
    with running_hub(tmp_path / "hub") as hub:
        _game(hub, NAMES_EN, "en")
        context = new_context(hub, **SCREEN)
        tv = context.new_page()
        tv.goto(hub.base + "/table?lang=zh_Hant")
        expect(hook(tv, "phase")).to_have_text("第1夜")  # zh_Hant's night title
        _game(hub, NAMES_JA, "ja", seed=9)
        expect(tv.locator("#players")).to_contain_text("くう", timeout=wait_ms(10_000))
        assert tv.evaluate("document.documentElement.lang") == "zh-Hant"
        new_context.close_all()
