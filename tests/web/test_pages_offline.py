"""[issue 6]: the pages are served whole by the hub — no CDN, no web fonts from
elsewhere: opening each page (GM tablet, a phone, the table screen) asks no
host but the hub for anything (checked by the autouse fixture of conftest)."""

from __future__ import annotations


def _settle(page) -> None:  # type: ignore[no-untyped-def]
    page.wait_for_load_state("load")
    page.evaluate("document.fonts.ready.then(() => true)")


def test_every_page_loads_from_the_hub_alone(hub, new_context, shot, requests_seen):
    # before any game: the table screen and the GM's lobby
    screen = new_context(hub, **{"viewport": {"width": 1920, "height": 1080}}).new_page()
    answer = screen.goto(hub.base + "/table")
    assert answer is not None and answer.status == 200
    _settle(screen)
    shot(screen, "table-lobby")

    tablet = new_context(hub, viewport={"width": 1280, "height": 800}).new_page()
    answer = tablet.goto(f"{hub.base}/gm?token={hub.token}")  # sets the cookie, drops the token
    assert answer is not None and answer.status == 200
    assert tablet.url == hub.base + "/gm"
    _settle(tablet)
    shot(tablet, "gm-lobby")

    # a game, and one seat's phone
    names = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal"]
    seats = hub.api("POST", "/api/games", {"ruleset": "millers-hollow", "players": names,
                                          "seed": 1})["seats"]
    phone = new_context(hub, viewport={"width": 390, "height": 844}, has_touch=True,
                        is_mobile=True).new_page()
    answer = phone.goto(hub.base + seats[0]["url"])
    assert answer is not None and answer.status == 200
    _settle(phone)
    shot(phone, "phone")
    _settle(screen)
    shot(screen, "table-game")
    _settle(tablet)
    shot(tablet, "gm-game")

    asked = [url for _, url in requests_seen.seen]
    assert any(url.endswith("/stream") for url in asked), asked  # the pages did run
    assert all(hub.origin in url for url in asked if url.startswith("http")), asked


def test_a_request_to_another_host_is_stopped_and_seen(hub, new_context, requests_seen):
    """The check above can fail: a page's request to another host (here, a
    fetch the test makes it send) is aborted before it leaves, and recorded
    for the autouse check; the hub's own are not routed at all."""
    page = new_context(hub, viewport={"width": 390, "height": 844}).new_page()
    page.goto(hub.base + "/table")
    why: list[str] = []
    page.on("requestfailed", lambda r: why.append(str(r.failure)))
    failed = page.evaluate("""() => fetch("http://example.invalid/x").then(() => "answered",
                                                                          () => "refused")""")
    assert failed == "refused"
    page.wait_for_timeout(50)
    assert why == ["net::ERR_FAILED"], why  # aborted by the route (a lookup would say NAME)
    assert requests_seen.foreign() == ["http://example.invalid/x"]
    assert page.evaluate("fetch('/api/public').then((r) => r.status)") == 200
    with requests_seen.lock:  # seen: this test's own, not a page's
        requests_seen.seen.clear()
