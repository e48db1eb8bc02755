"""What the browser tests share: the windows they open pages in, and how
they find a page's parts (the `data-test` hooks of docs/pages.md)."""

from __future__ import annotations

from typing import Any

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
