"""Whose request is this: the GM's, a phone's holding its seat, or a guest's?
Asked by the front for every request, before any thread runs it, so that a
flood of anonymous requests waits in the guests' own queue and never in
front of the GM's or a seat's [issue 17], and a seated phone's requests are
counted per device, so that one phone cannot slow the table [issue 30].

A claim is checked, not believed: the GM's token (bearer or cookie) is
compared with the hub's, a seat's link and device cookie with the seat's
holder, any other path's device cookie with the seats' holders (the seats'
own small lock, never the table's). The routes check
them again, as they always do; this only picks the queue.
"""

from __future__ import annotations

import hmac
from collections.abc import Callable
from http.cookies import CookieError, SimpleCookie
from typing import Any

from flask import Flask

from ..table import TableError
from .census import DEVICE_COOKIE
from .front import GM, seated

GM_COOKIE = "gm"


def trusted_requests(app: Flask) -> Callable[[dict[str, Any]], str | None]:
    """Whose request an ASGI scope is: `front.GM` for the GM's, `front.seated(device)`
    for a seat holder's (its device's cookie, checked), None for a guest's."""
    table = app.extensions["table"]

    def whose(scope: dict[str, Any]) -> str | None:
        headers = dict(scope.get("headers") or ())
        cookies: SimpleCookie = SimpleCookie()
        try:
            cookies.load(headers.get(b"cookie", b"").decode("latin-1"))
        except CookieError:
            return None
        auth = headers.get(b"authorization", b"").decode("latin-1")
        seat = app.extensions["gm_seat"]  # the token and the paired tablets (pairing.py)
        if auth.startswith("Bearer ") and seat.is_token(auth[7:].strip()):
            return GM
        if GM_COOKIE in cookies:
            cookie = cookies[GM_COOKIE].value
            if seat.is_session(cookie) or seat.is_token(cookie):
                return GM
        if DEVICE_COOKIE not in cookies:
            return None
        device = cookies[DEVICE_COOKIE].value
        path: str = scope.get("path", "")
        if not path.startswith("/p/"):  # a seated phone's files, its language
            return seated(device) if table.seating.holds(device) else None
        try:
            _, holder = table.holder(path.split("/")[2])
        except TableError:
            return None
        if holder is None or not hmac.compare_digest(holder.encode(), device.encode()):
            return None
        return seated(device)

    return whose
