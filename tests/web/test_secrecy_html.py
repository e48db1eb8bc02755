"""Non-interference, extended to the HTML ([issue 6], tests/hub/test_secrecy.py
for the views): what a seat's phone shows — the HTML of GET /p/<token> and the
DOM the page builds from its stream — and what the table screen shows are the
same in two games that differ only in cards that seat may not know.

Two jp-standard games, the seer at seat 0 in one and at seat 7 in the other,
watched from a villager's seat (4) and the table screen, each on a hub of its
own (a fresh store, so both are game 1) with a fake clock moved in lockstep
and the same seeded RNG for the night calls, and the browser's clock fixed at
the same instant, so countdowns read the same. Only the seat's token (in URLs)
and the hub's `now` are normalised; everything else must match byte for byte,
hidden elements and attributes included.
"""

from __future__ import annotations

import random
import re

import pytest
from browser_kit import holding
from slowness import wait_ms

expect = pytest.importorskip("playwright.sync_api").expect

NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy"]
SEER_AT_0 = ["seer", "knight", "werewolf", "werewolf", "villager", "madman", "medium",
             "villager", "villager"]
SEER_AT_7 = ["villager", "knight", "werewolf", "werewolf", "villager", "madman", "medium",
             "seer", "villager"]
SEATS_OF_SEER = {"seer-at-0": 0, "seer-at-7": 7}
OBSERVER = 4
T0 = 1_700_000_000.0  # the hub's fake clock and the browser's, in seconds


class Clock:
    def __init__(self) -> None:
        self.t = T0

    def __call__(self) -> float:
        return self.t


def _normalise(text: str, tokens: list[str]) -> str:
    for token in tokens:
        text = text.replace(token, "<token>")
    return re.sub(r'("now"\s*:\s*)[0-9.e+-]+', r"\1<now>", text)


def _settled(page, ready: str) -> str:  # type: ignore[no-untyped-def]
    """The page's whole DOM once `ready` is visible and nothing changes any more."""
    page.locator(ready).first.wait_for(state="visible", timeout=wait_ms(10_000))
    last = page.evaluate("document.documentElement.outerHTML")
    for _ in range(50):
        page.wait_for_timeout(100)
        now = page.evaluate("document.documentElement.outerHTML")
        if now == last:
            return str(now)
        last = now
    raise AssertionError("the page never settled")


def _observe(hub_factory, new_context, shot, label: str, cards: list[str]) -> dict:  # type: ignore[no-untyped-def]
    clock = Clock()
    seen: dict[str, str] = {}
    with hub_factory(label, clock=clock, rng=random.Random(5), tick_s=None) as hub:
        seats = hub.api("POST", "/api/games", {
            "ruleset": "jp-standard", "players": NAMES, "deal": dict(zip(NAMES, cards)),
            "options": {"night_s": 6, "discussion_s": 60}, "seed": 11})["seats"]
        tokens = [s["url"].rsplit("/", 1)[1] for s in seats]

        contexts = [new_context(hub, viewport={"width": 390, "height": 844}, has_touch=True,
                                is_mobile=True),
                    new_context(hub, viewport={"width": 1920, "height": 1080})]
        try:
            _watch(hub, clock, seats, tokens, contexts, shot, label, seen)
        finally:
            for context in contexts:  # before the hub stops: no stream left open
                context.close()
    return seen


def _watch(hub, clock, seats, tokens, contexts, shot, label, seen) -> None:  # type: ignore[no-untyped-def]
    phone, screen = (context.new_page() for context in contexts)
    for page in (phone, screen):
        page.clock.set_fixed_time(T0 + 0.5)  # Date.now() stands still; timers still run

    answer = phone.goto(hub.base + seats[OBSERVER]["url"])
    assert answer is not None and answer.status == 200
    seen["GET /p/<token>"] = _normalise(answer.text(), tokens)
    screen.goto(hub.base + "/table")

    # the stream's first view: the first night, the village sleeps
    seen["phone, night 1"] = _normalise(_settled(phone, "[data-test=night-screen]"), tokens)
    seen["phone text, night 1"] = _normalise(phone.locator("body").inner_text(), tokens)
    seen["table, night 1"] = _normalise(_settled(screen, "[data-test=phase]"), tokens)
    shot(phone, f"{label}-phone-night")

    # the card, held: a villager either way
    with holding(phone):
        role = phone.locator("[data-test=role]")
        role.wait_for(state="visible")
        seen["phone, card held"] = _normalise(_settled(phone, "[data-test=role]"), tokens)

    # the night goes on to the day's discussion; the seer inspects Bob 2 s into his call
    table = hub.table
    seer = SEATS_OF_SEER[label]
    inspected = False
    for _ in range(2000):
        clock.t += 0.5
        table.tick()
        pace = table.pace
        if (not inspected and pace.mode == "calls"  # jp-standard's one window [issue 16]
                and pace.calls[pace.cursor] in ("seer", "actions")
                and clock.t - pace.started >= 2.0):
            table.act_seat(seer, {"do": "inspect", "target": "Bob"})
            inspected = True
        if pace.mode == "discussion":
            break
    assert inspected
    assert table.pace.mode == "discussion", table.pace
    phone.locator("[data-test=night-screen]").wait_for(state="hidden")
    # the last view: the discussion's whole minute on both clocks (nothing moves after it)
    expect(phone.locator("[data-test=timer]")).to_have_text("60 s")
    expect(screen.locator("[data-test=timer]")).to_have_text("1:00")
    seen["phone, day 1"] = _normalise(_settled(phone, "body"), tokens)
    seen["phone text, day 1"] = _normalise(phone.locator("body").inner_text(), tokens)
    seen["table, day 1"] = _normalise(_settled(screen, "[data-test=phase]"), tokens)
    shot(phone, f"{label}-phone-day")


def test_a_villagers_phone_and_the_table_screen_do_not_tell_where_the_seer_sits(
        hub_factory, new_context, shot):
    one = _observe(hub_factory, new_context, shot, "seer-at-0", SEER_AT_0)
    other = _observe(hub_factory, new_context, shot, "seer-at-7", SEER_AT_7)
    assert list(one) == list(other)
    for moment in one:
        assert one[moment] == other[moment], f"{moment}: the pages differ"
    # and they did show something: the villager's own card and the day
    assert "Villager" in one["phone, card held"]
    assert one["phone, night 1"] != one["phone, day 1"]
