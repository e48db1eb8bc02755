"""Each seat's private page, view, actions and stream, reached by its link.

The first device to open a link claims the seat (an HttpOnly cookie set by
that first GET, so it works over plain HTTP and without JavaScript); another
device sees "already open on another phone" until the GM releases the seat.
"""

from __future__ import annotations

import secrets

from flask import Blueprint, Response, jsonify, make_response, render_template, request

from .common import PRIVATE, Forbidden, body, stream, table

bp = Blueprint("player", __name__, url_prefix="/p")

DEVICE_COOKIE = "device"
TAKEN = "this seat is already open on another phone — ask the game master"


@bp.after_request
def _no_store(response: Response) -> Response:
    """Every answer of a seat's link is private, its errors too."""
    response.headers.update(PRIVATE)
    return response


def _seat(token: str) -> int:
    """The seat of this link, if this device holds it (else 403)."""
    tbl = table()
    seat = tbl.seat_of(token)
    device = request.cookies.get(DEVICE_COOKIE)
    if not device or tbl.claims[seat] != device:
        raise Forbidden(TAKEN if tbl.claims[seat] else "open your seat's link first")
    return seat


def _private(response: Response) -> Response:
    response.headers.update(PRIVATE)
    return response


@bp.get("/<token>")
def page(token: str) -> Response:
    tbl = table()
    seat = tbl.seat_of(token)
    device = request.cookies.get(DEVICE_COOKIE) or secrets.token_urlsafe(16)
    if not tbl.claim(seat, device):
        return _private(make_response(render_template("taken.html", message=TAKEN), 403))
    response = make_response(render_template("player.html", token=token))
    response.set_cookie(DEVICE_COOKIE, device, max_age=30 * 24 * 3600, httponly=True,
                        samesite="Strict", path="/p")
    return _private(response)


@bp.get("/<token>/state")
def state(token: str) -> Response:
    return _private(jsonify(table().seat_view(_seat(token))))


@bp.post("/<token>/action")
def action(token: str) -> Response:
    seat = _seat(token)
    return _private(jsonify(table().act_seat(seat, body())))


@bp.get("/<token>/stream")
def seat_stream(token: str) -> Response:
    seat = _seat(token)
    return stream(f"seat:{seat}", token)
