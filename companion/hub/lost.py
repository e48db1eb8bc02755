"""A phone lost in a narrated game, and the seats' codes the host may see
[issue 29]. The table decides on the TV, never the host alone
(companion/table/lost_phone.py holds the request and its rules):

    POST /api/seats/<n>/lost   GM/host: "this phone is lost": a public request, while a
                               narrated game runs (409 otherwise: a game master
                               reissues a seat himself)
    POST /api/lost/cancel      GM/host: withdraw it (or stop showing the new code)
    POST /p/<token>/lost       the seat's phone: {"yes": true | false} (player.py)
    GET  /api/lost/qr.svg      anyone, once: the reissued seat's new link as a QR code,
                               for the table screen (404 none now, 410 shown already)

The seats' codes the host may see while a narrated game runs are the
secrecy census's (census.py: `shown_seats`). A reissued seat opens only
with its PIN, which its player set on his first phone (player.py): a photo
of the TV, or the QR polled, shows no card [issue 40].
"""

from __future__ import annotations

from flask import Blueprint, Flask, Response, jsonify

from ..table import NotNow
from ..table.lost_phone import LostPhones
from .census import closed
from .common import lost_phones, qr_svg

bp = Blueprint("lost", __name__)


def init_app(app: Flask) -> None:
    app.extensions["lost_phones"] = LostPhones(app.extensions["table"])
    app.register_blueprint(bp)


@bp.post("/api/seats/<int:seat>/lost")
def ask(seat: int) -> Response:
    if not closed():
        raise NotNow("only a narrated game votes on a lost phone: a game master reissues "
                     "the seat himself (POST /api/seats/<n>/reissue)")
    return jsonify(lost_phones().ask(seat))


@bp.post("/api/lost/cancel")
def cancel() -> Response:
    return jsonify(lost_phones().cancel())


@bp.get("/api/lost/qr.svg")
def new_code() -> Response:
    """The new link's QR code, served once: the table screen's fetch."""
    return Response(qr_svg(lost_phones().code()), mimetype="image/svg+xml")
