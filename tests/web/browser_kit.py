"""What the browser tests share: the windows they open pages in, and how
they find a page's parts (the `data-test` hooks of docs/pages.md)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from slowness import wait_ms, wait_s

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
SCREEN = {"viewport": {"width": 1920, "height": 1080}}
TABLET = {"viewport": {"width": 1280, "height": 800}, "has_touch": True}


def hook(page: Any, name: str) -> Any:
    """The element(s) of `page` with `data-test=name`."""
    return page.locator(f"[data-test={name}]")


def open_pages(hub: Any, new_context: Any, seats: list[dict],
               phone_seats: tuple[int, ...]) -> tuple[dict[int, Any], Any, Any]:
    """Phones on the links of `phone_seats` (of the game's `seats`, as POST
    /api/games answers), the table screen and the GM's tablet: (phones by
    seat, screen, gm)."""
    phones = {}
    for seat in phone_seats:
        phone = new_context(hub, **PHONE).new_page()
        phone.goto(hub.base + seats[seat]["url"])
        phones[seat] = phone
    screen = new_context(hub).new_page()
    screen.goto(hub.base + "/table")
    gm = new_context(hub, **TABLET).new_page()
    gm.goto(f"{hub.base}/gm?token={hub.token}")
    return phones, screen, gm


def confirm(page: Any) -> None:
    """Tap the page's confirm button and wait until the action is taken (it hides)."""
    from playwright.sync_api import expect  # only the browser tests import this module

    hook(page, "confirm").click()
    expect(hook(page, "confirm")).to_be_hidden()


def night_tap(page: Any, seat: int | None = None, mark: int | None = None,
              pass_: bool = False) -> None:
    """On the night's one screen [issue 28] (by day the secret moments' too
    [issue 40]): tap a name (`seat`), a sign (① `mark=1`, ② `mark=2`...) or
    Pass, then Confirm; nothing refused it."""
    from playwright.sync_api import expect

    if seat is not None:
        hook(page, f"name-{seat}").click()
    if mark is not None:
        hook(page, f"mark-{mark}").click()
    if pass_:
        hook(page, "night-pass").click()
    confirm(page)
    # (a screen that went with its moment — the lord's pardon — has nothing refused)
    expect(hook(page, "night-status").filter(has_text="Not taken")).to_have_count(0)
    expect(hook(page, "error")).to_be_hidden()


def caught_up(hub: Any, page: Any) -> None:
    """Wait until a phone shows its seat's view as the table has it now (or a
    newer one): at night every phone's screen is the same from call to call,
    so only its view's version tells that it has the call [issue 28]."""
    token = page.url.split("?")[0].rstrip("/").rsplit("/", 1)[1]
    seq = hub.table.seat_view(hub.table.seat_of(token))["seq"]
    page.wait_for_function("(s) => +document.body.dataset.seq >= s", arg=seq,
                           timeout=wait_ms(10_000))


#: player_card.js HOLD_MS: a press shorter than this is a tap, which leaves
#: the card open until the next tap [issue 43]; a hold closes it when let go
HOLD_S = 0.3


@contextmanager
def holding(page: Any) -> Iterator[None]:
    """Hold the phone's card (at least HOLD_S: a hold, not a tap), then let go."""
    hook(page, "card").hover()
    page.mouse.down()
    began = time.monotonic()
    try:
        yield
    finally:
        rest = HOLD_S + 0.05 - (time.monotonic() - began)
        if rest > 0:
            page.wait_for_timeout(rest * 1000)
        page.mouse.up()


def close_card(page: Any) -> None:
    """A card left open by a tap (a short press [issue 43]) closes on the next tap."""
    if page.evaluate("() => document.getElementById('card').classList.contains('shown')"):
        hook(page, "card").click()


def held_card(page: Any) -> str:
    """Hold the phone's card: the whole text of its face (then let go)."""
    with holding(page):
        return str(hook(page, "card").inner_text())


def next_call(hub: Any, call: str) -> None:
    """The GM's Next until the table calls `call` (each night call lasts its
    whole window, RULES.md §4 [issue 16]: the calls before it, whose steps
    the GM's API has already ended, are ended by hand as a GM would)."""
    for _ in range(20):
        pace = hub.api("GET", "/api/gm")["pace"]
        if pace.get("mode") != "calls" or pace.get("call") == call:
            return
        hub.api("POST", "/api/timer", {"do": "skip"})


def night_to_day(hub: Any, page: Any, step: str, do: str, target: int,
                 after: Callable[[], None] | None = None,
                 api: dict[str, list[dict]] | None = None, seconds: float = 20) -> None:
    """Drive a night to the day: at `step`, `page` (a player's phone) names
    seat `target` in its `do` widget and confirms, then `after()` runs; at a
    step of `api`, its actions go through the GM's API; every other step
    times out (the GM's API: the test's driver, never the pages' way in)."""

    deadline = time.monotonic() + wait_s(seconds)
    acted = False
    while time.monotonic() < deadline:
        pending = hub.api("GET", "/api/gm")["pending"]
        if pending["phase"] == "day":
            break
        if pending["step"] == step and not acted:
            next_call(hub, step)  # the engine is there: the GM brings its call forward
            caught_up(hub, page)  # the phone shows the call (the same screen as before it)
            night_tap(page, seat=target)
            if after is not None:
                after()
            acted = True
            time.sleep(0.2)
            continue
        if api and pending["step"] in api:
            for action in api[pending["step"]]:
                hub.api("POST", "/api/actions", action)
            continue
        hub.api("POST", "/api/actions", {"do": "timeout"})
    assert acted, f"the {step} step never reached the phone"
    next_call(hub, "")  # the night's last calls, ended by the GM's Next


def held_profession_shows(page: Any, *texts: str) -> None:
    """Hold the phone's card (The Village): its profession part shows each of
    `texts`; let go: it hides again, like the role."""
    from playwright.sync_api import expect

    with holding(page):
        for text in texts:
            expect(hook(page, "profession")).to_contain_text(text)
    expect(hook(page, "profession")).to_be_hidden()


#: On the table screen: every text the `tally` and `deaths` hooks showed, as it
#: showed it (in Millers Hollow the night follows the execution at once, and the
#: table screen shows no tally at night, so the day's tally may show only briefly).
RECORDER = """
window.__shown = {tally: [], deaths: []};
new MutationObserver(() => {
  for (const name of Object.keys(window.__shown)) {
    const el = document.querySelector(`[data-test=${name}]`);
    if (!el || !el.checkVisibility()) continue;
    const text = el.innerText;
    const seen = window.__shown[name];
    if (text && seen[seen.length - 1] !== text) seen.push(text);
  }
}).observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
"""


def shown_on(page: Any, name: str, text: str, wait: int = 20_000) -> None:
    """Wait until the hook `name` has shown `text` (see RECORDER)."""
    try:
        page.wait_for_function(
            "([name, text]) => window.__shown[name].some((t) => t.includes(text))",
            arg=[name, text], timeout=wait_ms(wait))
    except Exception:
        seen = page.evaluate("window.__shown")
        raise AssertionError(f"the table screen's {name} never showed {text!r}: {seen}") from None
