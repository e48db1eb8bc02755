"""Narrated mode's routes [issue 20]: the narration's timeline and audio for
the table screen, the host's tablet and its volume, and the guard that keeps
a narrated game's secrets from every page, the host's included.

    GET  /api/speech?after=N          anyone: the utterances after N (text, ready, url), volume
    GET  /api/speech/<game>/<n>.wav   anyone: utterance n as audio/wav (404 unknown, 503 no voice)
    POST /api/speech/volume           GM/host: {"volume": 0..1}
    POST /api/host/timer              GM/host: start | pause | resume | extend | skip, answered
                                      with the public view
    GET  /host                        GM/host: the host's page (no secrets)

While a narrated game runs, the GM token opens no secret: the GM view, its
stream, the replay state, actions for a seat, undo, the virtual table's
presses and the current game's record answer 403, and /gm opens the host
page; POST /api/timer too (it answers with the GM's view): the host's clock
is POST /api/host/timer. A new game stays the host's.

The host holds no key to a secret [issue 29]: a seat's link shows its card,
so while a narrated game runs releasing or reissuing a seat is 403 too, and
the host is shown the link (and QR code) of a seat no phone has opened only
(`shown_seats`: GET /api/seats and the printed sheet give an opened seat's
link as null; its QR is 403). Once a phone opened its seat, that code is
never shown again; a seat reissued by the table's vote on a lost phone
(lost.py) is shown once on the table screen, never to the host.
"""

from __future__ import annotations

from pathlib import Path

from flask import (
    Blueprint,
    Flask,
    Response,
    current_app,
    jsonify,
    make_response,
    redirect,
    render_template,
    request,
)

from ..speech import Cache, SpeechError
from ..speech.speaker import FAILURE_FILE
from ..table import BadInput, NotFound
from ..table.narrated import Narration, aplay, cache_folder
from .common import PRIVATE, Forbidden, body, clock_press, gm_only, is_gm, lost_phones, table

bp = Blueprint("speech", __name__)

#: what a narrated game's host may not open while it runs: every card, an
#: action for any seat, an undo, a press for any seat, the current game's
#: record, and a seat moved to another phone (its link shows its card) [issue 29]
SECRET_ENDPOINTS = frozenset({"api.state", "api.gm_view", "api.gm_stream", "api.actions",
                              "api.undo", "api.press", "pages.virtual_table",
                              "api.reissue", "api.release",
                              "api.timer"})  # it answers the GM's view: /api/host/timer instead
#: a seat's QR code: the host's while no phone has opened the seat [issue 29]
SEAT_CODE = "api.seat_qr"
GAME_ENDPOINTS = frozenset({"api.game", "api.game_view"})


def init_app(app: Flask) -> None:
    """The narration over the app's table (rendered speech in the data
    folder; the Pi's speaker when `SPEAKER` is set), and its routes."""
    tbl = app.extensions["table"]
    folder = app.config.get("SPEECH_DIR") or cache_folder(tbl)
    speaker = aplay(Path(folder) / FAILURE_FILE) if app.config.get("SPEAKER") else None
    app.extensions["narration"] = Narration(tbl, Cache(folder), speaker)
    app.register_blueprint(bp)


def narration() -> Narration:
    return current_app.extensions["narration"]  # type: ignore[no-any-return]


@bp.before_app_request
def host_sees_no_secrets() -> Response | None:
    endpoint = request.endpoint or ""
    watched = (endpoint in SECRET_ENDPOINTS or endpoint in GAME_ENDPOINTS
               or endpoint in ("pages.gm", SEAT_CODE))
    if not watched or not narration().secrets_closed():
        return None
    if endpoint == "pages.gm":
        if "token" in request.args or "lobby" in request.args:
            return None  # the token's cookie; a new game from the host page
        return make_response(redirect("/host"))
    if endpoint in GAME_ENDPOINTS and (request.view_args or {}).get("game") != \
            narration().current_game():
        return None  # a past game's record
    if endpoint == SEAT_CODE:
        seat = (request.view_args or {}).get("seat")
        if isinstance(seat, int) and lost_phones().host_may_see(seat):
            return None  # no phone has opened it yet
        raise Forbidden("a phone has opened this seat: while the hub narrates, its code is "
                        "never shown again (a lost phone: the table votes, on the host page)")
    raise Forbidden("the hub narrates this game: nobody sees its secrets, the host neither")


def shown_seats(seats: list[dict]) -> list[dict]:
    """The seats as the host may see them: while a narrated game runs, the
    link of a seat a phone opened, or one the table's vote reissued, is null."""
    if not narration().secrets_closed():
        return seats
    by_vote = lost_phones().by_vote()
    return [s if not s["claimed"] and s["seat"] not in by_vote else {**s, "url": None}
            for s in seats]


@bp.after_app_request
def follow_a_new_game(response: Response) -> Response:
    """A game was dealt: the narration follows it if it is narrated."""
    if request.endpoint == "api.create_game" and response.status_code < 400:
        narration().sync()
    return response


@bp.get("/api/speech")
def timeline() -> Response:
    after = request.args.get("after", "-1")
    try:
        n = int(after)
    except ValueError:
        raise BadInput("'after' is an utterance number") from None
    response = jsonify(narration().timeline(n))
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/api/speech/<int:game>/<int:n>.wav")
def audio(game: int, n: int) -> Response:
    said = narration().utterance(game, n)
    if said is None:
        raise NotFound(f"no utterance {n} in game {game}")
    try:
        data = narration().audio(said)
    except SpeechError as err:
        return make_response(jsonify(error=f"no voice: {err}"), 503)
    response = Response(data, mimetype="audio/wav")
    response.headers["Cache-Control"] = "private, max-age=3600"  # the same n says the same
    return response


@bp.post("/api/speech/volume")
@gm_only
def volume() -> Response:
    doc = body()
    value = doc.get("volume") if isinstance(doc, dict) else None
    if not isinstance(value, int | float) or isinstance(value, bool) or not 0 <= value <= 1:
        raise BadInput('send {"volume": V}, V from 0 to 1')
    narration().set_volume(float(value))
    return jsonify(narration().timeline(10**9))


@bp.post("/api/host/timer")
@gm_only
def host_timer() -> Response:
    """The host's clock, as POST /api/timer (`common.clock_press`),
    answered with the public view (no card)."""
    table().timer(*clock_press(body()))
    response = jsonify(table().public())
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/host")
def host() -> Response:
    """The host's tablet in a narrated game: the table's public view, the
    clock's controls, the seats' links, the volume. GM token only."""
    if not is_gm():
        page = render_template("taken.html", message="open the game master's URL with its token")
        return make_response(page, 401)
    response = make_response(render_template("host.html"))
    response.headers.update(PRIVATE)
    return response
