"""The GM's taps from opening the lobby to night 1 [issue 28, "the lobby":
"an 18-player deal with ten roles costs 10 taps, not 22"]: a fresh tablet
(nothing remembered) deals an 18-player Board Game Arena game with ten
special roles (the seer, the witch, the hunter, cupid, the little girl, the
thief, the defender, the elder, the village idiot, the scapegoat) beside
four werewolves, then starts it.

The GM's hands are a script that really taps the page (Playwright's `tap`
on a touch tablet): each tap, each select changed and the names pasted into
their box at once count one action each. The page counts what it received
too (every click, every select's change), and the two counts must agree, so
no action goes uncounted. The script is no cleverer than a GM: it reads the
counts the lobby shows and taps "+" or "−" on the first card that is not yet
right, the villagers last, until the deal is the one wanted.

Measured on the code before issue 28 (commit d35dc7f, the same script
against a clone of it): 20 actions (bga chosen, the names pasted, 16 taps on
the cards — nine "+" and seven "−" on the villagers —, deal, start). With
"+" taking a villager out: 13 (nine "+" on the cards)."""

from __future__ import annotations

import time
from typing import Any

import pytest
from browser_kit import TABLET, hook
from slowness import wait_s

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

#: before issue 28's "+" took a villager out (d35dc7f): see the module's text
BEFORE = 20
AFTER = 13

NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon", "Kim", "Lea",
         "Max", "Ned", "Ola", "Pia", "Quin", "Ros"]
SPECIAL = ["seer", "witch", "hunter", "cupid", "little-girl", "thief", "defender", "elder",
           "village-idiot", "scapegoat"]
#: 18 players and the thief's two centre cards: 20 cards
WANTED = {"werewolf": 4, **{role: 1 for role in SPECIAL}, "villager": 6}

#: the page's own count of what it received: every click and every select's change
COUNTER = """
window.__received = {click: 0, change: 0};
addEventListener("click", () => { window.__received.click += 1; }, true);
addEventListener("change", (e) => {
  if (e.target.tagName === "SELECT") window.__received.change += 1;
}, true);
"""


class Hands:
    """The GM's actions on the page, each counted once."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.done: list[str] = []

    def tap(self, name: str) -> None:
        hook(self.page, name).tap()
        self.done.append(f"tap {name}")

    def choose(self, name: str, value: str) -> None:
        hook(self.page, name).select_option(value)
        self.done.append(f"choose {name}={value}")

    def paste(self, name: str, text: str) -> None:
        hook(self.page, name).fill(text)  # the whole list at once, as a paste
        self.done.append(f"paste {name}")

    def received(self) -> int:
        got = self.page.evaluate("window.__received")
        return int(got["click"]) + int(got["change"])


def _count(page: Any, role: str) -> int:
    box = hook(page, f"count-{role}")
    return int(box.inner_text()) if box.count() else 0


def _deal(gm: Hands) -> None:
    """Tap "+" or "−" on the first card not yet right (the villagers last)
    until the lobby shows the deal wanted."""
    page = gm.page
    hooks = page.eval_on_selector_all("[data-test^=role-]", "(es) => es.map((e) => e.dataset.test)")
    roles = [r.removeprefix("role-") for r in hooks]
    order = [r for r in roles if r != "villager"] + ["villager"]
    for _ in range(60):
        wrong = [(r, WANTED.get(r, 0) - _count(page, r)) for r in order
                 if _count(page, r) != WANTED.get(r, 0)]
        if not wrong:
            return
        role, missing = wrong[0]
        before = _count(page, role)
        gm.tap(f"{'plus' if missing > 0 else 'minus'}-{role}")
        expect(hook(page, f"count-{role}")).not_to_have_text(str(before))
    raise AssertionError(f"the deal never came right: {gm.done}")


def _night_one(hub: Any, page: Any, seconds: float = 10) -> None:
    """Wait for night 1's calls. The wait yields to Playwright (not
    time.sleep): the test's contexts route every request through this
    process (conftest.new_context), so a page's request waits until the
    test calls into Playwright again."""
    deadline = time.monotonic() + wait_s(seconds)
    while time.monotonic() < deadline:
        view = hub.api("GET", "/api/gm")
        pace = view.get("pace") or {}
        if view.get("phase") == "night" and view.get("n") == 1 and pace.get("mode") == "calls" \
                and pace.get("paused") is None:
            return
        page.wait_for_timeout(50)
    raise AssertionError(f"night 1 did not begin: {hub.api('GET', '/api/gm').get('pace')}")


def test_an_18_player_deal_with_ten_roles_costs_few_taps(hub_factory, new_context):
    """[issue 28] the lobby: from opening it to night 1, an 18-player bga
    game with ten special roles takes AFTER actions (it took BEFORE)."""
    with hub_factory("taps") as hub:
        try:
            context = new_context(hub, **TABLET)
            context.add_init_script(COUNTER)
            page = context.new_page()
            page.goto(f"{hub.base}/gm?token={hub.token}&lang=en")
            gm = Hands(page)
            expect(hook(page, "lobby")).to_be_visible()
            expect(hook(page, "count-werewolf")).to_be_visible()  # /api/rulesets has come
            if hook(page, "ruleset").input_value() != "bga":
                gm.choose("ruleset", "bga")
            if hook(page, "language").input_value() != "en":
                gm.choose("language", "en")
            gm.paste("names", "\n".join(NAMES))
            expect(hook(page, "count-werewolf")).to_have_text("4")  # the suggested deal
            _deal(gm)
            expect(hook(page, "deal-total")).to_have_text(
                "20 cards for 18 players and 2 centre cards")
            gm.tap("create")
            expect(hook(page, "dealing")).to_be_visible()
            gm.tap("start")
            _night_one(hub, page)
            assert hub.api("GET", "/api/games/1")["setup"]["cards"] == WANTED
            pasted = sum(a.startswith("paste") for a in gm.done)
            assert gm.received() + pasted == len(gm.done), (gm.received(), gm.done)
            print(f"\nthe GM's actions, lobby to night 1: {len(gm.done)}: {gm.done}")
            assert len(gm.done) == AFTER, gm.done
        finally:
            new_context.close_all()
