"""Each seat's private page, view, actions and stream, reached by its link.

The first device to open a link claims the seat (an HttpOnly cookie set by
that first GET, so it works over plain HTTP and without JavaScript); another
device sees "already open on another phone" until the GM releases the seat.
"""

from __future__ import annotations

import secrets

from flask import (
    Blueprint,
    Response,
    jsonify,
    make_response,
    render_template,
    request,
)

from ..table import BadInput
from ..words import LANGUAGES
from .census import DEVICE_COOKIE, TAKEN
from .census import seat as _seat_of_request
from .common import PRIVATE, answer, body, lost_phones, stream, table
from .i18n import keep_language

bp = Blueprint("player", __name__, url_prefix="/p")

__all__ = ["DEVICE_COOKIE", "bp"]


@bp.after_request
def _no_store(response: Response) -> Response:
    """Every answer of a seat's link is private, its errors too."""
    response.headers.update(PRIVATE)
    return response


def _seat(token: str) -> int:
    """The seat of this link: the census's guard checked that this device
    holds it (`census.seat`; 403 before the route otherwise) [issue 40]."""
    return _seat_of_request()


def _private(response: Response) -> Response:
    response.headers.update(PRIVATE)
    return response


@bp.app_context_processor
def _page_language() -> dict:
    """`page_lang`: the page's language as an HTML lang attribute ("zh-Hant"),
    so phones pick Japanese or Chinese glyphs for the same characters."""
    from flask_babel import get_locale

    locale = get_locale()
    return {"page_lang": str(locale).replace("_", "-") if locale else "en"}


@bp.get("/<token>")
def page(token: str) -> Response:
    """The seat's phone page [issue 6]. `?lang=ja` keeps the player's language
    in the `lang` cookie and reloads the page without it."""
    tbl = table()
    seat = tbl.seat_of(token)
    device = request.cookies.get(DEVICE_COOKIE) or secrets.token_urlsafe(16)
    if tbl.pins.locked(seat):  # a reissued seat: its PIN opens it on this phone [issue 40]
        response = make_response(render_template("unlock.html", token=token))
        response.set_cookie(DEVICE_COOKIE, device, max_age=30 * 24 * 3600, httponly=True,
                            samesite="Strict", path="/p")
        return _private(response)
    if not tbl.claim(seat, device):
        return _private(make_response(render_template("taken.html", message=TAKEN), 403))
    lang = request.args.get("lang")
    if lang is not None:
        response = keep_language(lang)
    else:
        response = make_response(render_template("player.html", token=token,
                                                 languages=LANGUAGES))
    response.set_cookie(DEVICE_COOKIE, device, max_age=30 * 24 * 3600, httponly=True,
                        samesite="Strict", path="/p")
    return _private(response)


@bp.get("/<token>/state")
def state(token: str) -> Response:
    return _private(answer(table().seat_view(_seat(token))))


@bp.get("/<token>/story")
def story(token: str) -> Response:
    """The story for this seat [issue 35]: once the game is over, or while
    it is dead with the `ghosts` option (Table.story; 403 otherwise); told
    in `?lang=` (default the game's language)."""
    return _private(jsonify(table().story(_seat(token), request.args.get("lang"))))


@bp.post("/<token>/action")
def action(token: str) -> Response:
    seat = _seat(token)
    return _private(answer(table().act_seat(seat, body())))


@bp.get("/<token>/stream")
def seat_stream(token: str) -> Response:
    seat = _seat(token)
    return stream(f"seat:{seat}", token)


@bp.post("/<token>/suspect")
def suspect(token: str) -> Response:
    """The decoy tap of the night [issue 6, issue 28]: every living phone has
    the same night screen, and a tap that means nothing for its card is
    posted here as a real one is to /action. It stores nothing and changes
    no view (Table.suspect); it answers like a real action, with the seat's
    (unchanged) view, and refuses what a real action would refuse for its
    form: an unknown name, a stale `seq`."""
    return _private(answer(table().suspect(_seat(token), body())))


@bp.post("/<token>/pass")
def pass_turn(token: str) -> Response:
    """The speaker passes: his speaking turn ends now [issue 34] (409 when
    it is not his turn)."""
    return _private(answer(table().pass_turn(_seat(token))))


@bp.post("/<token>/ready")
def ready(token: str) -> Response:
    """This phone is ready: night 1's window ends once every living phone
    is and no night action is awaited [issue 34] (`ready_ends_night`; 409
    when no such window is open)."""
    return _private(answer(table().ready(_seat(token))))


@bp.post("/<token>/lost")
def lost(token: str) -> Response:
    """This phone's answer to the table's vote on a lost phone [issue 29]:
    `{"yes": true | false}` (companion/table/lost_phone.py: the living but
    the lost seat vote; 403 the dead and the lost seat, 409 no vote open)."""
    return _private(jsonify(lost_phones().answer(_seat(token), body())))


@bp.post("/<token>/pin")
def pin(token: str) -> Response:
    """The seat's PIN, `{"pin": "1234"}` (4–8 digits), chosen on its
    player's first phone in a narrated game, once [issue 40]: a lost phone's
    new link opens only with it. Answers the seat's view."""
    return _private(answer(table().pins.set_pin(_seat(token), body())))


@bp.post("/<token>/unlock")
def unlock(token: str) -> Response:
    """A locked seat's PIN from its player's new phone [issue 40]: right,
    this device holds the seat (its cookie, set when the page was opened);
    wrong, 403 (after 5, the link opens no more: the table votes again)."""
    device = request.cookies.get(DEVICE_COOKIE)
    if not device:
        raise BadInput("open the seat's link on this phone first")
    seat = table().pins.unlock(token, body(), device)
    return _private(jsonify(seat=seat))
