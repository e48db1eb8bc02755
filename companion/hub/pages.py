"""The game master's tablet and the table screen (HTML; data from the API)."""

from __future__ import annotations

from flask import Blueprint, Response, make_response, redirect, render_template, request

from . import census
from .common import PRIVATE, gm_seat, is_gm
from .i18n import keep_language

bp = Blueprint("pages", __name__)


@bp.before_request
def language_choice() -> Response | None:
    """`?lang=ja` on the GM's pages or the table screen, as on a phone's page:
    the device keeps its language in the `lang` cookie, and the page reloads
    without it (the game's language otherwise; docs/play/languages.md)."""
    lang = request.args.get("lang")
    if lang is None:
        return None
    return keep_language(lang)


@bp.get("/")
def home() -> Response:
    return make_response(redirect("/table"))


@bp.get("/gm")
def gm() -> Response:
    """`/gm?token=T` (the terminal's URL) pairs this tablet: it sets the GM
    cookie to a session of its own and drops the token from the address bar."""
    token = request.args.get("token")
    if token is not None:
        response = make_response(redirect("/gm"))
        session = gm_seat().session_for(token)
        if session is not None:
            set_gm_cookie(response, session)
        return response
    if "lobby" not in request.args and is_gm() and census.closed():
        return make_response(redirect("/host"))  # a narrated game: the host's page [issue 20]
    return _gm_page("gm.html")


@bp.get("/gm/pair/<code>")
def pair(code: str) -> Response:
    """A pairing link [issue 17]: the display's, or one a paired tablet made.
    Good once, for 10 minutes: it pairs this tablet and is spent."""
    session = gm_seat().redeem(code)
    if session is None:
        page = render_template("taken.html", message="pairing link spent")
        response = make_response(page, 403)
    else:
        response = make_response(redirect("/gm"))
        set_gm_cookie(response, session)
    response.headers.update(PRIVATE)
    return response


def set_gm_cookie(response: Response, session: str) -> None:
    """The tablet's GM session: HttpOnly, same site only, a week."""
    response.set_cookie("gm", session, httponly=True, samesite="Strict", max_age=7 * 24 * 3600)


def _gm_page(template: str, **context: object) -> Response:
    """A page for the game master only (401 page otherwise; for a route the
    census keeps to the GM, it has checked already), never cached."""
    if not is_gm():
        page = render_template("taken.html", message="open the game master's URL with its token")
        return make_response(page, 401)
    response = make_response(render_template(template, **context))
    response.headers.update(PRIVATE)
    return response


@bp.get("/gm/sheet")
def gm_sheet() -> Response:
    """The printable sheet of every seat's name and link as a QR code [issue 6]:
    cut it into slips and hand them round. GM only, never cached. While a
    narrated game runs, a seat a phone opened has no code on it [issue 29]."""
    from flask import current_app

    from .common import table

    seats = census.shown_seats(table().seats())  # a narrated game's opened seats: no code
    base = str(current_app.config.get("BASE_URL") or request.host_url).rstrip("/")
    return _gm_page("gm_sheet.html", seats=seats, base=base)


@bp.get("/gm/table")
def virtual_table() -> Response:
    """The virtual table [issue 7]: the seat boxes (click = press) with their
    LEDs and the display's frame. GM only: its presses vote for any seat."""
    return _gm_page("gm_table.html")


@bp.get("/table")
def table_screen() -> Response:
    return make_response(render_template("table.html"))
