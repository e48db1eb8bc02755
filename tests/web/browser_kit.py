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
