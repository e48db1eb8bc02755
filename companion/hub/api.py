"""The game master's JSON API, and the public table view.

Scripted-game names, action objects and outputs are those of `werewolf replay`
(docs/replay.md), so a script can be played against a live hub.
"""

from __future__ import annotations

from flask import Blueprint, Response, jsonify

from ..replay import result_of
from ..store import Store
from .common import body, gm_only, stream, table

bp = Blueprint("api", __name__, url_prefix="/api")


@bp.after_request
def _no_store(response: Response) -> Response:
    """The GM's answers hold every card: no cache keeps them."""
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.post("/games")
@gm_only
def create_game() -> tuple[Response, int]:
    return jsonify(table().create(body())), 201


@bp.get("/games")
@gm_only
def games() -> Response:
    return jsonify(games=table().store.games())


@bp.get("/games/<int:game>")
@gm_only
def game(game: int) -> Response:
    from ..engine import rebuild
    from ..table.session import NotFound

    store: Store = table().store
    if game >= 2**63:  # past SQLite's integers: no such game (not an OverflowError)
        raise NotFound(f"no game {game}")
    rec = store.load(game)
    if rec is None:
        raise NotFound(f"no game {game}")
    out = result_of(rebuild(rec.events)) if rec.events else {}
    out.update(id=rec.id, created=rec.created, setup=rec.setup, pace=rec.pace)
    return jsonify(out)


@bp.get("/state")
@gm_only
def state() -> Response:
    return jsonify(table().result())


@bp.get("/gm")
@gm_only
def gm_view() -> Response:
    return jsonify(table().gm_view())


@bp.post("/actions")
@gm_only
def actions() -> Response:
    return jsonify(table().act_gm(body()))


@bp.post("/undo")
@gm_only
def undo() -> Response:
    doc = body(default={})
    from ..table.session import BadInput

    if not isinstance(doc, dict) or set(doc) - {"to"}:
        raise BadInput('undo takes no body, {} or {"to": K}')
    return jsonify(table().undo(doc.get("to")))


@bp.post("/timer")
@gm_only
def timer() -> Response:
    doc = body()
    from ..table.session import BadInput

    if not isinstance(doc, dict) or not isinstance(doc.get("do"), str):
        raise BadInput('send {"do": "pause" | "resume" | "extend" | "skip", "seconds": N}')
    seconds = doc.get("seconds", 0)
    if type(seconds) not in (int, float) or not 0 <= seconds <= 3600:
        raise BadInput("'seconds' is a number from 0 to 3600")
    return jsonify(table().timer(doc["do"], float(seconds)))


@bp.get("/seats")
@gm_only
def seats() -> Response:
    from ..table.session import NotFound

    if table().state is None:  # seats_info() needs a game
        raise NotFound("no game yet: create one with POST /api/games")
    return jsonify(table().seats_info())


@bp.post("/seats/<int:seat>/reissue")
@gm_only
def reissue(seat: int) -> Response:
    return jsonify(table().reissue(seat))


@bp.post("/seats/<int:seat>/release")
@gm_only
def release(seat: int) -> Response:
    return jsonify(table().release(seat))


@bp.get("/stream")
@gm_only
def gm_stream() -> Response:
    return stream("gm")


@bp.get("/public")
def public() -> Response:
    return jsonify(table().public())


@bp.get("/public/stream")
def public_stream() -> Response:
    return stream("public")
