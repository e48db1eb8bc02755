"""What the blueprints share: the table, JSON bodies, GM auth, event streams."""

from __future__ import annotations

import json
import queue
from collections.abc import Callable, Iterator
from functools import wraps
from typing import Any

from flask import Response, current_app, jsonify, request

from ..history import History
from ..table import BadInput, Listener, StreamCaps, Table, TableError
from ..table.lost_phone import LostPhones
from .front import ENVIRON_KEY, STREAM_HEADER
from .pairing import GmSeat

PRIVATE = {"Cache-Control": "no-store", "Referrer-Policy": "no-referrer"}


class Unauthorized(TableError):
    status = 401


class Forbidden(TableError):
    status = 403


def table() -> Table:
    return current_app.extensions["table"]  # type: ignore[no-any-return]


def history() -> History:
    """Past games and saved setups (never the store itself)."""
    return current_app.extensions["history"]  # type: ignore[no-any-return]


def lost_phones() -> LostPhones:
    """The table's lost-phone request [issue 29] (lost.py)."""
    return current_app.extensions["lost_phones"]  # type: ignore[no-any-return]


def qr_svg(path: str) -> str:
    """The hub's address (`BASE_URL`, set by `werewolf serve`; else the one
    this request used) and `path` as an SVG QR code."""
    import qrcode
    import qrcode.image.svg

    base = str(current_app.config.get("BASE_URL") or request.host_url).rstrip("/")
    image = qrcode.make(base + path, border=2, image_factory=qrcode.image.svg.SvgPathImage)
    return str(image.to_string(encoding="unicode"))


def answer(view: dict) -> Response:
    """A view as JSON: the exact message its audience was sent when the
    table kept it (`audiences.Sent`), else encoded here."""
    text = getattr(view, "text", "")
    if text:
        return Response(text, mimetype="application/json")
    return jsonify(view)


def body(default: object = None) -> Any:
    """The request's JSON body (capped by MAX_CONTENT_LENGTH): 400 when malformed."""
    raw = request.get_data(cache=False)
    if not raw.strip():
        if default is not None:
            return default
        raise BadInput("this request needs a JSON body")
    try:
        return json.loads(raw, parse_constant=_no_constant)
    except RecursionError:
        raise BadInput("malformed JSON: nested too deeply") from None
    except ValueError as err:  # JSONDecodeError, bad UTF-8, integers past the digit limit
        raise BadInput(f"malformed JSON: {str(err)[:120]}") from None


def clock_press(doc: object) -> tuple[str, float, int | None]:
    """A press of the game's clock (POST /api/timer, /api/host/timer):
    {"do": "start" | "pause" | "resume" | "extend" | "skip", "seconds": N,
    "stage": S} — `stage` the pace's stage the press was made on (the view's
    pace.stage): one made on another stage is refused [issue 30 item 2]."""
    if not isinstance(doc, dict) or not isinstance(doc.get("do"), str):
        raise BadInput('send {"do": "start" | "pause" | "resume" | "extend" | "skip", '
                       '"seconds": N, "stage": S}')
    seconds = doc.get("seconds", 0)
    if type(seconds) not in (int, float) or not 0 <= seconds <= 3600:
        raise BadInput("'seconds' is a number from 0 to 3600")
    stage = doc.get("stage")
    if stage is not None and type(stage) is not int:
        raise BadInput("'stage' is the view's pace.stage (an integer), or left out")
    return doc["do"], float(seconds), stage


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is not JSON")


def gm_token_of_request() -> str | None:
    auth = request.headers.get("Authorization", "")
    if auth.startswith("Bearer "):
        return auth[7:].strip()
    return request.cookies.get("gm")


def gm_seat() -> GmSeat:
    """The GM's token and paired tablets (pairing.py)."""
    return current_app.extensions["gm_seat"]  # type: ignore[no-any-return]


def is_gm() -> bool:
    """The bearer token, or a paired tablet's cookie (a cookie holding the
    token itself, as tablets paired before [issue 17] have, still counts
    until the token is rotated)."""
    seat = gm_seat()
    auth = request.headers.get("Authorization", "")
    if auth.startswith("Bearer "):
        return seat.is_token(auth[7:].strip())
    cookie = request.cookies.get("gm")
    return seat.is_session(cookie) or seat.is_token(cookie)


def gm_only(view: Callable) -> Callable:
    """`Authorization: Bearer <token>` or the cookie the GM URL sets."""

    @wraps(view)
    def wrapper(*args: object, **kwargs: object) -> object:
        if not gm_token_of_request():
            raise Unauthorized("the game master's token is needed (open the GM URL)")
        if not is_gm():
            raise Forbidden("wrong game master token")
        return view(*args, **kwargs)

    return wrapper


def stream(audience: str, token: str | None = None) -> Response:
    """Server-sent events: the full current view first, then one message per
    change, and a heartbeat comment so proxies and phones keep the line open.

    Under the hub's front (`front.py`, what `werewolf serve` runs) the
    listener is handed to its event loop and no thread waits on it; under a
    plain WSGI server (the Flask test client) a generator streams it."""
    caps: StreamCaps = current_app.config["STREAM_CAPS"]
    tbl = table()
    listener, first = tbl.listen(audience, token, request.remote_addr or "", caps)
    headers = {**PRIVATE, "X-Accel-Buffering": "no"}
    handoffs = request.environ.get(ENVIRON_KEY)
    if handoffs is not None:
        headers[STREAM_HEADER] = handoffs.add(listener, first, tbl.unlisten)
        return Response(b"", mimetype="text/event-stream", headers=headers)
    heartbeat = float(current_app.config["HEARTBEAT_S"])

    def events(listener: Listener = listener) -> Iterator[str]:
        try:
            yield "retry: 2000\n\n"
            yield f"data: {first}\n\n"
            while True:
                try:
                    message = listener.queue.get(timeout=heartbeat)
                except queue.Empty:
                    yield ": heartbeat\n\n"
                    continue
                if listener.closed:
                    yield f"event: {listener.reason}\ndata: {{}}\n\n"
                    return
                yield f"data: {message}\n\n"
        finally:
            tbl.unlisten(listener)

    return Response(events(), mimetype="text/event-stream", headers=headers)
