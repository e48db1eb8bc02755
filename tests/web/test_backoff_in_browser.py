"""A phone told 429 backs off [issue 30] item 3: "a phone page that backs
off: on a 429 wait and retry, never hammer; say nothing alarming to the
player unless it persists". In Chromium, the hub's answers for one seat's
state, stream or tap are replaced by 429s (Playwright's routing, as the hub
answers a seat past its rate: Retry-After: 1); the page's own clock times
what it asks (fetch and EventSource wrapped before its scripts run), and
anything it shows the player (the ⟳ of `offline`, an error, a note) is
recorded with its time. The page-side code is stream.js's `patientFetch`
and `refused` (the stream), and player.js's `post`."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest
from browser_kit import PHONE, caught_up, hook
from slowness import wait_ms, wait_s

expect = pytest.importorskip("playwright.sync_api").expect

NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal"]
ROLES = ["werewolf", "werewolf", "seer", "witch", "hunter", "villager", "villager", "villager"]
VILLAGER = 5
TOO_MANY = '{"error": "too many requests from this device: wait a moment, then retry"}'

#: before the page's scripts: what it asks (url, method, ms on its clock),
#: and what it tells the player (what, text, ms)
WATCH = """
window.__asked = [];
window.__told = [];
const plainFetch = window.fetch;
window.fetch = function (url, init) {
  window.__asked.push([String(url), (init && init.method) || "GET", performance.now()]);
  return plainFetch.apply(this, arguments);
};
const PlainSource = window.EventSource;
window.EventSource = class extends PlainSource {
  constructor(url, options) {
    super(url, options);
    window.__asked.push([String(url), "STREAM", performance.now()]);
  }
};
document.addEventListener("DOMContentLoaded", () => {
  const told = () => {
    for (const id of ["error", "unsent"]) {
      const e = document.getElementById(id);
      if (e && !e.hidden && e.textContent) {
        window.__told.push([id, e.textContent, performance.now()]);
      }
    }
    if (document.getElementById("app").classList.contains("offline")) {
      window.__told.push(["offline", "", performance.now()]);
    }
  };
  new MutationObserver(told).observe(document.body,
    {attributes: true, subtree: true, childList: true, characterData: true});
});
"""


def _game(hub: Any) -> list[dict]:
    return hub.api("POST", "/api/games", {  # type: ignore[no-any-return]
        "ruleset": "millers-hollow", "players": NAMES, "seed": 3,
        "deal": dict(zip(NAMES, ROLES)), "options": {"night_s": 300, "pack_s": 300}})["seats"]


def _refusing(times: int) -> Callable[[Any], None]:
    """A route's handler: 429 (as the hub answers a seat past its rate) the
    first `times` times, then the hub's own answer."""
    left = [times]

    def answer(route: Any) -> None:
        if left[0] > 0:
            left[0] -= 1
            route.fulfill(status=429, headers={"Retry-After": "1"},
                          content_type="application/json", body=TOO_MANY)
        else:
            route.fallback()

    return answer


def _phone(hub: Any, new_context: Any, url: str, routes: dict[str, int]) -> Any:
    """A phone whose asks for each path ending of `routes` are answered 429
    that many times, then by the hub."""
    context = new_context(hub, **PHONE)
    context.add_init_script(WATCH)
    token = url.rsplit("/", 1)[1]
    for ending, times in routes.items():
        context.route(f"**/p/{token}/{ending}", _refusing(times))
    page = context.new_page()
    page.goto(hub.base + url)
    return page


def _asked(page: Any, ending: str) -> list[float]:
    """When (ms, the page's clock) the page asked for its `ending`."""
    return [at for url, _, at in page.evaluate("window.__asked") if url.endswith(ending)]


def _gaps(times: list[float]) -> list[float]:
    return [b - a for a, b in zip(times, times[1:])]


def test_a_state_told_429_is_asked_again_later_and_later_saying_nothing(
        hub_factory: Any, new_context: Any) -> None:
    """Woken (the `online` event), the phone reads its state: two 429s, then
    the hub's answer. It asks again after the Retry-After (1 s), then after
    twice that, never sooner; it shows the state and told the player nothing."""
    with hub_factory("state") as hub:
        seats = _game(hub)
        page = _phone(hub, new_context, seats[VILLAGER]["url"], {"state": 2})
        caught_up(hub, page)
        assert _asked(page, "/state") == []  # the stream brought the view
        page.evaluate("window.dispatchEvent(new Event('online'))")
        page.wait_for_function("window.__asked.filter((a) => a[0].endsWith('/state')).length >= 3",
                               timeout=wait_ms(15_000))
        page.wait_for_timeout(300)
        gaps = _gaps(_asked(page, "/state"))
        assert len(gaps) == 2 and gaps[0] >= 950 and gaps[1] >= 1950, gaps
        assert page.evaluate("window.__told") == []
        expect(page.locator("#app")).not_to_have_class("offline")
        new_context.close_all()


def test_a_stream_told_429_is_opened_again_after_a_pause_that_doubles(
        hub_factory: Any, new_context: Any) -> None:
    """The page's stream is answered 429 twice (EventSource gives up on a
    429: the browser would not retry): the page opens it again after 1 s,
    then after 2 s, says nothing meanwhile, and then follows the game."""
    with hub_factory("stream") as hub:
        seats = _game(hub)
        page = _phone(hub, new_context, seats[VILLAGER]["url"], {"stream": 2})
        page.wait_for_function(
            "window.__asked.filter((a) => a[0].endsWith('/stream')).length >= 3",
            timeout=wait_ms(15_000))
        gaps = _gaps(_asked(page, "/stream"))
        assert len(gaps) == 2 and gaps[0] >= 950 and gaps[1] >= 1950, gaps
        hub.api("POST", "/api/timer", {"do": "pause"})  # the stream follows again
        expect(hook(page, "timer")).to_have_text("paused")
        assert page.evaluate("window.__told") == []
        new_context.close_all()


def _tap_at_night(hub: Any, page: Any) -> None:
    deadline = time.monotonic() + wait_s(10)
    while hub.api("GET", "/api/gm")["pace"]["mode"] != "calls" and time.monotonic() < deadline:
        time.sleep(0.05)
    caught_up(hub, page)
    hook(page, "name-0").click()
    hook(page, "confirm").click()


def test_a_tap_told_429_is_sent_again_and_lands_saying_nothing(
        hub_factory: Any, new_context: Any) -> None:
    """A tap at night (the villager's: the decoy, POST /suspect) is answered
    429 once: the phone sends it again after the Retry-After, the same
    body, and it lands; the player is told nothing but that it was noted."""
    with hub_factory("tap") as hub:
        seats = _game(hub)
        page = _phone(hub, new_context, seats[VILLAGER]["url"], {"suspect": 1})
        _tap_at_night(hub, page)
        expect(hook(page, "confirm")).to_be_hidden(timeout=wait_ms(10_000))
        expect(hook(page, "night-status")).not_to_contain_text("Not taken")
        posts = [(url, at) for url, method, at in page.evaluate("window.__asked")
                 if method == "POST"]
        assert [url.rsplit("/", 1)[1] for url, _ in posts] == ["suspect", "suspect"], posts
        assert posts[1][1] - posts[0][1] >= 950, posts
        assert page.evaluate("window.__told") == []
        new_context.close_all()


def test_a_tap_told_429_for_long_says_so_only_then(hub_factory: Any, new_context: Any) -> None:
    """Four 429s for one tap: the phone asks at 1, 2 and 4 s intervals, and
    only once it has waited PATIENT_MS (6 s) says that the hub asks it to
    wait (no error: the choice is still on its way)."""
    with hub_factory("long") as hub:
        seats = _game(hub)
        page = _phone(hub, new_context, seats[VILLAGER]["url"], {"suspect": 4})
        _tap_at_night(hub, page)
        expect(hook(page, "unsent")).to_contain_text("asks this phone to wait",
                                                     timeout=wait_ms(15_000))
        posts = [at for _, method, at in page.evaluate("window.__asked") if method == "POST"]
        gaps = _gaps(posts)
        assert len(gaps) == 3 and gaps[0] >= 950 and gaps[1] >= 1950 and gaps[2] >= 3950, gaps
        told = page.evaluate("window.__told")
        assert told and all(what == "unsent" for what, _, _ in told), told
        assert told[0][2] - posts[0] >= 6000, (told[0], posts)
        new_context.close_all()
