"""The game master's JSON API, and the public table view.

Scripted-game names, action objects and outputs are those of `werewolf replay`
(docs/replay.md), so a script can be played against a live hub.
"""

from __future__ import annotations

from flask import Blueprint, Response, jsonify, request

from ..table import BadInput, NotFound, NotNow
from . import census
from .common import answer, body, clock_press, gm_seat, history, qr_svg, stream, table
from .i18n import page_language

bp = Blueprint("api", __name__, url_prefix="/api")

# Who may ask each route, and what it may answer, is the secrecy census's
# (census.ROUTES, applied before every route; its answers are no-store) [issue 40].


@bp.post("/games")
def create_game() -> tuple[Response, int]:
    return jsonify(table().create(body())), 201


@bp.get("/games")
def games() -> Response:
    """Every game kept; while a narrated game runs, its winner is not told (census.playing)."""
    return jsonify(games=history().games(hide=census.playing()))


@bp.get("/games/<int:game>")
def game(game: int) -> Response:
    return jsonify(history().game(game))


@bp.get("/state")
def state() -> Response:
    return jsonify(table().result())


@bp.get("/gm")
def gm_view() -> Response:
    return answer(table().gm_view())


@bp.post("/actions")
def actions() -> Response:
    return answer(table().act_gm(body()))


@bp.post("/undo")
def undo() -> Response:
    """`{"expect": N}` takes back the last action, `{"expect": N, "to": K}`
    every action from the K-th on; N is the action count the GM confirmed
    against (his view's `seq`): 409 if anything landed since [issue 17]."""
    doc = body()
    if not isinstance(doc, dict) or "expect" not in doc or set(doc) - {"to", "expect"}:
        raise BadInput('an undo names the action count it expects: {"expect": N} '
                       'or {"expect": N, "to": K}, N the GM view\'s seq')
    return answer(table().undo(doc["expect"], doc.get("to")))


@bp.post("/timer")
def timer() -> Response:
    return answer(table().timer(*clock_press(body())))


@bp.get("/seats")
def seats() -> Response:
    """The seats' links; while a narrated game runs, an opened seat's link is
    null (census.shown_seats) [issue 29]."""
    info = table().seats_info()
    return jsonify({**info, "seats": census.shown_seats(info["seats"])})


@bp.post("/seats/<int:seat>/reissue")
def reissue(seat: int) -> Response:
    return jsonify(table().reissue(seat))


@bp.post("/seats/<int:seat>/release")
def release(seat: int) -> Response:
    return jsonify(table().release(seat))


@bp.get("/stream")
def gm_stream() -> Response:
    return stream("gm")


@bp.get("/public")
def public() -> Response:
    return jsonify(table().public())


@bp.get("/public/stream")
def public_stream() -> Response:
    return stream("public")


# --- the game master's tablet [issue 6] ---------------------------------------------

#: Roles and options the lobby does not offer (none: The Village's cards and
#: its `professions` option are shown by the pages, RULES.md §8 [issue 9]).
NOT_IN_LOBBY: frozenset[str] = frozenset()


@bp.get("/rulesets")
def rulesets() -> Response:
    """Every ruleset for the lobby [issue 6]: its player range (recommended
    deals), the roles it deals, how many cards of each
    a game may hold ("copies", null: any number), the cards a role adds to
    the centre beyond one per seat ("centre": the thief's two, the engine's
    deal), and each option that applies to its games (engine
    OPTION_CONCERNS [issue 28]: jp-standard has no witch's self-heal and no
    werewolves' call) with its preset value and the values it takes (null: a
    number of seconds ≥ 0). POST /api/games still takes every option.
    A ruleset with New Moon's event cards (RULES.md §10) has "events": each
    card's id and its source ("[003]": New Moon's, "house": a house event),
    the option `events`' choices beside text-only events [issue 33]."""
    from ..engine import OPTION_VALUES, ROLES, RULESETS
    from ..engine.dealing import CENTRE, THIEF
    from ..engine.event_cards import EVENTS
    from ..engine.rulesets import lobby_options

    out = {}
    for name, preset in RULESETS.items():
        roles = [r for r in ROLES if r in preset["roles"] and r not in NOT_IN_LOBBY]
        out[name] = {
            "players": list(preset["players"]),
            "roles": roles,
            "copies": {r: ROLES[r].copies for r in roles},
            "centre": {THIEF: CENTRE} if THIEF in roles else {},
            "options": {k: {"default": v, "values": _values(OPTION_VALUES[k])}
                        for k, v in lobby_options(name).items() if k not in NOT_IN_LOBBY},
        }
        if "new-moon" in preset.get("expansions", ()):
            out[name]["events"] = {k: c.source for k, c in EVENTS.items()}
    return jsonify(out)


def _values(allowed: tuple | None) -> list | None:
    return list(allowed) if allowed is not None else None


@bp.get("/roles")
def roles() -> Response:
    """The recommended deal `{role: count}` for `players` players of `ruleset`,
    each `add` replacing a villager (as `werewolf roles`) [issue 6]. 400 with
    the engine's message for a count or a role it does not take."""
    from ..engine import EngineError, recommended_deal

    name = request.args.get("ruleset", "")
    raw = request.args.get("players", "")
    if not raw.isdigit() or len(raw) > 3:
        raise BadInput("'players' is a number of players")
    try:
        return jsonify(recommended_deal(name, int(raw), request.args.getlist("add")))
    except EngineError as err:
        raise BadInput(str(err)) from None


@bp.get("/seats/<int:seat>/qr.svg")
def seat_qr(seat: int) -> Response:
    """Seat n's link as an SVG QR code [issue 6]: the hub's LAN address
    (`BASE_URL`, set by `werewolf serve`; else the address the tablet used)
    and the seat's path. Private like the link itself: no-store. While a
    narrated game runs, 403 for a seat a phone opened (speech.py) [issue 29]."""
    seats_ = table().seats()
    if not 0 <= seat < len(seats_):
        raise NotFound(f"no seat {seat}")
    return Response(qr_svg(seats_[seat]["url"]), mimetype="image/svg+xml",
                    headers={"Cache-Control": "no-store"})


@bp.get("/setups")
def setups() -> Response:
    """Saved setups, most recent first: `{"setups": [{"name", "setup", "saved"}]}` [issue 6]."""
    return jsonify(setups=history().setups())


@bp.post("/setups")
def save_setup() -> tuple[Response, int]:
    """Save `{"name", "setup"}`: a name (1–60 characters) and a body that
    `POST /api/games` would accept; the same name replaces it [issue 6]."""
    return jsonify(setups=history().save_setup(body())), 201


@bp.delete("/setups/<path:name>")
def delete_setup(name: str) -> Response:
    """Forget a saved setup (404 if there is none of that name) [issue 6]."""
    return jsonify(setups=history().delete_setup(name))


@bp.get("/games/<int:game>/view")
def game_view(game: int) -> Response:
    """The GM view of game `game` after its first K actions (`?at=K`; without
    it, all of them), for stepping through a game in the history [issue 6]
    (`History.view_at`); its `news` in the page's language."""
    return jsonify(history().view_at(game, request.args.get("at"), page_language()))


@bp.get("/games/<int:game>/story")
def game_story(game: int) -> Response:
    """The story of game `game` [issue 35] (`History.story`): the game
    master's always in a game he runs; anyone's — a narrated game's host
    too — once its end is public (403 before) [issue 40]; told in `?lang=`
    (default the game's language). The live game's end is the table's
    (`Table.ended`), never its log's alone."""
    reader, lang = census.story_reader(game), request.args.get("lang")
    if game == table().game:
        return jsonify(table().told_story(reader, lang))
    return jsonify(history().story(game, reader, lang))


@bp.post("/story/step")
def story_step() -> Response:
    """The story's next page on the table screen at the end [issue 35]
    (the GM's tablet and the host page): answers the public view; 409
    before the end."""
    return jsonify(table().story_step())


@bp.get("/season")
def season() -> Response:
    """A season [issue 35]: each player's results and the table's record
    over `?from=YYYY-MM-DD&to=YYYY-MM-DD` (`History.season`); `?lang=`
    adds the tablet's words for it."""
    args = request.args
    return jsonify(history().season(args.get("from"), args.get("to"), args.get("lang"),
                                    hide=census.playing()))


@bp.get("/season.csv")
def season_csv() -> Response:
    """The season as CSV, to download (`History.season_csv`)."""
    text = history().season_csv(request.args.get("from"), request.args.get("to"),
                                hide=census.playing())
    return Response(text, mimetype="text/csv", headers={
        "Content-Disposition": 'attachment; filename="werewolf-season.csv"'})


@bp.get("/stats")
def stats() -> Response:
    """Per player name across the finished games [issue 6] (`History.stats`)."""
    return jsonify(history().stats(hide=census.playing()))


# --- the GM's seat: pairing and rotation [issue 17] -----------------------------------

@bp.post("/gm/pair")
def pair_tablet() -> Response:
    """"Pair another tablet": a new pairing link (10 minutes, one tablet) and
    its QR code, for the paired tablet to show `{"url", "expires", "seconds", "svg"}`."""
    import qrcode
    import qrcode.image.svg
    from flask import current_app

    from .pairing import PAIR_S

    code, expires = gm_seat().new_code()
    base = str(current_app.config.get("BASE_URL") or request.host_url).rstrip("/")
    url = f"{base}/gm/pair/{code}"
    image = qrcode.make(url, border=2, image_factory=qrcode.image.svg.SvgPathImage)
    return jsonify(url=url, expires=expires, seconds=PAIR_S,
                   svg=image.to_string(encoding="unicode"))


@bp.get("/gm/tablets")
def tablets() -> Response:
    """`{"paired": n}`: the tablets holding a GM session. More than the GM's
    own means someone else paired (a photo of the display): rotate the token."""
    return jsonify(paired=gm_seat().paired)


@bp.post("/gm/rotate")
def rotate_token() -> Response:
    """A new GM token (printed in the hub's terminal): every other tablet's
    session and every pairing link end; this tablet stays paired."""
    from .pages import set_gm_cookie

    if request.headers.get("Authorization", "").startswith("Bearer "):
        gm_seat().rotate()  # a script: it reads the new token in the terminal
        return jsonify(rotated=True)
    _, session = gm_seat().rotate(keep=request.cookies.get("gm"))
    response = jsonify(rotated=True)
    if session is not None:  # the cookie held the old token itself: a session now
        set_gm_cookie(response, session)
    return response


# --- the table's hardware [issue 7] -------------------------------------------------

def _hardware():  # the TableHardware `werewolf serve` runs, or 404
    from flask import current_app

    hw = current_app.extensions.get("hardware")
    if hw is None:
        raise NotFound("this hub runs no seat boxes or display")
    return hw


@bp.get("/hardware")
def hardware() -> Response:
    """The seat boxes' LEDs and the display's frame count (the virtual table)."""
    hw = _hardware()
    return jsonify(simulated=hw.simulated, leds=hw.leds(), frames=hw.display.frames,
                   display_simulated=hw.display_simulated, describe=hw.describe())


@bp.post("/hardware/press")
def press() -> Response:
    """Press a simulated seat box's button: {"seat": n} (1-based, as on the map)."""
    hw = _hardware()
    doc = body()
    seat = doc.get("seat") if isinstance(doc, dict) else None
    if type(seat) is not int or seat not in hw.boxes.boxes:
        raise BadInput(f'send {{"seat": n}}, n a seat box 1-{len(hw.boxes)}')
    if not hw.simulated:
        raise NotNow("the seat boxes are real here: press the button on the table")
    hw.press(seat)
    return jsonify(pressed=seat)


@bp.get("/display.png")
def display_png() -> Response:
    """The frame on the display now (before a game it holds the GM's QR code)."""
    png = _hardware().display.png_bytes()
    if png is None:
        raise NotFound("the display has shown nothing yet")
    return Response(png, mimetype="image/png")
