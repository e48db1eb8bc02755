"""Whose request is this: the table's own (the GM, a phone holding its seat)
or a guest's? Asked by the front for every request, before any thread runs
it, so that a flood of anonymous requests waits in the guests' own queue
and never in front of the GM's or a seat's [issue 17].

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
from .player import DEVICE_COOKIE

GM_COOKIE = "gm"


def trusted_requests(app: Flask) -> Callable[[dict[str, Any]], bool]:
    """A test of an ASGI scope: True for the GM's and seat holders' requests."""
    table = app.extensions["table"]

    def trusted(scope: dict[str, Any]) -> bool:
        headers = dict(scope.get("headers") or ())
        cookies: SimpleCookie = SimpleCookie()
        try:
            cookies.load(headers.get(b"cookie", b"").decode("latin-1"))
        except CookieError:
            return False
        auth = headers.get(b"authorization", b"").decode("latin-1")
        seat = app.extensions["gm_seat"]  # the token and the paired tablets (pairing.py)
        if auth.startswith("Bearer ") and seat.is_token(auth[7:].strip()):
            return True
        if GM_COOKIE in cookies:
            cookie = cookies[GM_COOKIE].value
            if seat.is_session(cookie) or seat.is_token(cookie):
                return True
        if DEVICE_COOKIE not in cookies:
            return False
        device = cookies[DEVICE_COOKIE].value
        path: str = scope.get("path", "")
        if not path.startswith("/p/"):
            return bool(table.seating.holds(device))  # a seated phone's files, its language
        try:
            _, holder = table.holder(path.split("/")[2])
        except TableError:
            return False
        return holder is not None and hmac.compare_digest(holder.encode(), device.encode())

    return trusted
