"""Narrated mode's routes [issue 20]: thin ones [issue 45] over the narration
(companion/speech/narration.py): its timeline and audio for the table
screen, the host's tablet and its volume. Who may read what while a
narrated game runs is the secrecy census's (census.py), and the narration
hears a new deal from the table itself, not from these routes.

    GET  /api/speech?after=N          anyone: the utterances after N (text, ready, url), volume
    GET  /api/speech/<game>/<n>.wav   anyone: utterance n as audio/wav (404 unknown, 503 no
                                      voice or not rendered yet: `ready` in the timeline)
    POST /api/speech/heard            anyone: a table screen {"game", "n", "what": "begun" |
                                      "ended" | "skipped" | "off"}: a screen behind is waited
                                      for, a few seconds a stage at most [issue 42] (204)
    POST /api/speech/volume           GM/host: {"volume": 0..1}
    POST /api/host/timer              GM/host: start | pause | resume | extend | skip, answered
                                      with the public view
    GET  /host                        GM/host: the host's page (no secrets)

While a narrated game runs, the GM token opens no secret: what the host
may read is the secrecy census's (census.py: the GM view, its stream, the
replay state, actions for a seat, undo, the virtual table's presses, the
current game's record, a seat's link a phone opened answer 403; /gm opens
the host page; the host's clock is POST /api/host/timer). A new game stays
the host's.
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
    render_template,
    request,
)

from ..speech import Cache, NotRendered, SpeechError, speaker
from ..speech.narration import Narration, cache_folder
from ..table import BadInput, NotFound
from .common import PRIVATE, body, clock_press, table

bp = Blueprint("speech", __name__)


def init_app(app: Flask) -> None:
    """The narration over the app's table (rendered speech in the data
    folder; the Pi's speaker when `SPEAKER` is set), and its routes."""
    tbl = app.extensions["table"]
    folder = app.config.get("SPEECH_DIR") or cache_folder(tbl)
    out = speaker.find(Path(folder) / speaker.FAILURE_FILE) if app.config.get("SPEAKER") else None
    engines = app.config.get("SPEECH_ENGINES")  # None: this machine's (a bench's own, counted)
    app.extensions["narration"] = Narration(tbl, Cache(folder, engines), out)
    app.register_blueprint(bp)


def narration() -> Narration:
    return current_app.extensions["narration"]  # type: ignore[no-any-return]


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
    except NotRendered as err:  # never rendered in a request [issue 42]: asked again soon
        response = make_response(jsonify(error=str(err)), 503)
        response.headers["Retry-After"] = "1"
        return response
    except SpeechError as err:
        return make_response(jsonify(error=f"no voice: {err}"), 503)
    response = Response(data, mimetype="audio/wav")
    response.headers["Cache-Control"] = "private, max-age=3600"  # the same n says the same
    return response


#: what a table screen says of a line it plays [issue 42]
SCREEN_WORDS = ("begun", "ended", "skipped", "off")


@bp.post("/api/speech/heard")
def heard() -> Response:
    """A table screen began or ended playing a line, passed over one (a call
    a newer line replaced), or switched its voice off: the voice follows a
    screen that is behind (Narration.screen; its wait is capped, so a
    guest's word cannot hold the table). Answers 204, whatever it changed."""
    doc = body()
    game, n, what = (doc.get(k) for k in ("game", "n", "what")) if isinstance(doc, dict) \
        else (None, None, None)
    if type(game) is not int or type(n) is not int or what not in SCREEN_WORDS:
        raise BadInput('send {"game": G, "n": N, "what": "begun" | "ended" | "skipped" | "off"}')
    narration().heard_on_screen(game, n, str(what))
    response = make_response("", 204)
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.post("/api/speech/volume")
def volume() -> Response:
    doc = body()
    value = doc.get("volume") if isinstance(doc, dict) else None
    if not isinstance(value, int | float) or isinstance(value, bool) or not 0 <= value <= 1:
        raise BadInput('send {"volume": V}, V from 0 to 1')
    narration().set_volume(float(value))
    return jsonify(narration().timeline(10**9))


@bp.post("/api/host/timer")
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
    clock's controls, the seats' links, the volume. GM token only: the
    census lets no other request in (`speech.host`, census.py)."""
    response = make_response(render_template("host.html"))
    response.headers.update(PRIVATE)
    return response
