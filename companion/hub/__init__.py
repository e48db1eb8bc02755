"""The Flask hub: thin routes over one `Table` (companion.table).

    app = create_app(table, gm_token="...")

One blueprint per audience: `api` (the game master's JSON API and the public
view), `player` (each seat's private page, view, actions and stream) and
`pages` (the GM's tablet and the table screen). Every route parses the
request, calls one method of the table or of the history (past games),
and answers JSON; errors are JSON
`{"error": "..."}` with 400/401/403/404/409/413 (507 when the Pi's storage
is full, 503 when the game file went away), never a stack trace.
"""

from __future__ import annotations

import logging
from pathlib import Path

from flask import Flask, jsonify, request
from werkzeug.exceptions import HTTPException

from ..history import History
from ..store import StoreError
from ..table import StreamCaps, Table, TableError
from .pairing import GmSeat

MAX_BODY = 64 * 1024  # an action or a game setup is a few hundred bytes


def _web() -> Path:
    """The top-level web/ folder: installed as the package companion.web."""
    try:
        from importlib.resources import files

        return Path(str(files("companion.web")))
    except ModuleNotFoundError:  # the working tree without an install
        return Path(__file__).resolve().parents[2] / "web"


WEB = _web()

log = logging.getLogger("werewolf.hub")


def create_app(table: Table, gm_token: str | GmSeat, config: dict | None = None,
               history: History | None = None) -> Flask:
    """The hub over `table` (the live game) and `history` (past games and
    saved setups; by default over the table's own store). `gm_token`: the
    GM's token, or the `GmSeat` that keeps it and its paired tablets."""
    seat = gm_token if isinstance(gm_token, GmSeat) else GmSeat(gm_token, clock=table.clock)
    seat.on_unpair = lambda: table.close_listeners("gm")  # an unpaired tablet's stream ends
    app = Flask("companion.hub", template_folder=str(WEB / "templates"),
                static_folder=str(WEB / "static"), static_url_path="/static")
    app.config.update(MAX_CONTENT_LENGTH=MAX_BODY, GM_TOKEN=seat.token, HEARTBEAT_S=15.0,
                      STREAM_CAPS=StreamCaps(),
                      JSON_SORT_KEYS=False)
    app.config.update(config or {})
    app.extensions["table"] = table
    app.extensions["gm_seat"] = seat
    app.extensions["history"] = history if history is not None else History(table.store)
    app.json.ensure_ascii = False  # type: ignore[attr-defined]

    from . import api, census, guard, i18n, lost, manual, pages, player, speech
    from .front import MAX_URL, head_problem

    @app.before_request
    def _head_limits():  # type: ignore[no-untyped-def]
        """The front's limits (front.py) where there is no front (a WSGI
        server, the test client) [issue 41 item 5]: past them, nothing runs."""
        refused = head_problem(request.headers.items())
        if len(request.full_path) > MAX_URL:
            refused = (414, f"the URL is over {MAX_URL} bytes")
        if refused is not None:
            return jsonify(error=refused[1]), refused[0], {"Cache-Control": "no-store"}
        return None

    app.before_request(guard.own_pages_only)  # before any route: a refusal changes nothing
    # who may ask each route, and what it may answer: the secrecy census [issue 40]
    app.before_request(census.guard)
    app.after_request(census.private)
    i18n.init_app(app)
    app.register_blueprint(api.bp)
    app.register_blueprint(player.bp)
    app.register_blueprint(pages.bp)
    speech.init_app(app)  # narrated mode [issue 20]: its routes, and the host's guard
    lost.init_app(app)  # a lost phone: the table votes [issue 29]
    manual.init_app(app, app.config.get("MANUAL_DIR"))  # /help, the manual [issue 32]

    @app.errorhandler(TableError)
    def _table_error(err: TableError):  # type: ignore[no-untyped-def]
        return jsonify(error=str(err)), err.status

    @app.errorhandler(StoreError)
    def _store_error(err: StoreError):  # type: ignore[no-untyped-def]
        """A full disk (507) or a game file gone (503), named [issue 17]:
        nothing of the request was kept, so it can be retried."""
        log.error("storage: %s", err)
        return jsonify(error=str(err)), err.status

    @app.errorhandler(HTTPException)
    def _http_error(err: HTTPException):  # type: ignore[no-untyped-def]
        messages = {413: f"request body over {MAX_BODY} bytes", 404: "no such page",
                    405: "method not allowed here"}
        code = err.code or 400
        return jsonify(error=messages.get(code, err.description or err.name)), code

    @app.errorhandler(Exception)
    def _unexpected(err: Exception):  # type: ignore[no-untyped-def]
        log.exception("unexpected error")
        return jsonify(error="internal error (logged on the hub)"), 500

    @app.after_request
    def _headers(response):  # type: ignore[no-untyped-def]
        response.headers.setdefault("Referrer-Policy", "no-referrer")
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        return response

    return app
