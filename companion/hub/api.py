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


# --- the game master's tablet [issue 6] ---------------------------------------------

SETUP_NAME_MAX = 60


#: Roles and options the lobby does not offer (none: The Village's cards and
#: its `professions` option are shown by the pages, RULES.md §8 [issue 9]).
NOT_IN_LOBBY: frozenset[str] = frozenset()


@bp.get("/rulesets")
@gm_only
def rulesets() -> Response:
    """Every ruleset for the lobby [issue 6]: its player range (recommended
    deals), the roles it deals, how many cards of each
    a game may hold ("copies", null: any number) and each option's preset value
    and the values it takes (null: a number of seconds ≥ 0)."""
    from ..engine import OPTION_VALUES, ROLES, RULESETS

    out = {}
    for name, preset in RULESETS.items():
        roles = [r for r in ROLES if r in preset["roles"] and r not in NOT_IN_LOBBY]
        out[name] = {
            "players": list(preset["players"]),
            "roles": roles,
            "copies": {r: ROLES[r].copies for r in roles},
            "options": {k: {"default": v, "values": _values(OPTION_VALUES[k])}
                        for k, v in preset["options"].items() if k not in NOT_IN_LOBBY},
        }
    return jsonify(out)


def _values(allowed: tuple | None) -> list | None:
    return list(allowed) if allowed is not None else None


@bp.get("/roles")
@gm_only
def roles() -> Response:
    """The recommended deal `{role: count}` for `players` players of `ruleset`,
    each `add` replacing a villager (as `werewolf roles`) [issue 6]. 400 with
    the engine's message for a count or a role it does not take."""
    from flask import request

    from ..engine import EngineError, recommended_deal
    from ..table.session import BadInput

    name = request.args.get("ruleset", "")
    raw = request.args.get("players", "")
    if not raw.isdigit() or len(raw) > 3:
        raise BadInput("'players' is a number of players")
    try:
        return jsonify(recommended_deal(name, int(raw), request.args.getlist("add")))
    except EngineError as err:
        raise BadInput(str(err)) from None


@bp.get("/seats/<int:seat>/qr.svg")
@gm_only
def seat_qr(seat: int) -> Response:
    """Seat n's link as an SVG QR code [issue 6]: the hub's LAN address
    (`BASE_URL`, set by `werewolf serve`; else the address the tablet used)
    and the seat's path. Private like the link itself: no-store."""
    import qrcode
    import qrcode.image.svg
    from flask import current_app, request

    info = table().seats_info() if table().state is not None else {"seats": []}
    seats_ = info["seats"]
    if not 0 <= seat < len(seats_):
        from ..table.session import NotFound

        raise NotFound(f"no seat {seat}")
    base = str(current_app.config.get("BASE_URL") or request.host_url).rstrip("/")
    image = qrcode.make(base + seats_[seat]["url"], border=2,
                        image_factory=qrcode.image.svg.SvgPathImage)
    svg = image.to_string(encoding="unicode")
    return Response(svg, mimetype="image/svg+xml", headers={"Cache-Control": "no-store"})


@bp.get("/setups")
@gm_only
def setups() -> Response:
    """Saved setups, most recent first: `{"setups": [{"name", "setup", "saved"}]}` [issue 6]."""
    return jsonify(setups=table().store.setups())


@bp.post("/setups")
@gm_only
def save_setup() -> tuple[Response, int]:
    """Save `{"name", "setup"}`: a name (1–60 characters) and a body that
    `POST /api/games` would accept; the same name replaces it [issue 6]."""
    from ..engine import EngineError
    from ..replay import setup_game
    from ..table.session import BUTTONS, LANGUAGES, SETUP_FIELDS, BadInput

    doc = body()
    if not isinstance(doc, dict) or set(doc) != {"name", "setup"}:
        raise BadInput('send {"name": "...", "setup": {the POST /api/games body}}')
    name, setup = doc["name"], doc["setup"]
    if not isinstance(name, str) or not name.strip() or len(name) > SETUP_NAME_MAX:
        raise BadInput(f"a setup's name is 1–{SETUP_NAME_MAX} characters")
    if not isinstance(setup, dict):
        raise BadInput("'setup' is the POST /api/games body (an object)")
    unknown = sorted(set(setup) - {*SETUP_FIELDS, "language", "buttons"})
    if unknown:
        raise BadInput(f"unknown setup field(s): {', '.join(unknown)}")
    if setup.get("language", "en") not in LANGUAGES:
        raise BadInput(f"'language' is one of {', '.join(LANGUAGES)}")
    if setup.get("buttons", "phones") not in BUTTONS:
        raise BadInput(f"'buttons' is one of {', '.join(BUTTONS)}")
    try:
        setup_game({k: v for k, v in setup.items() if k not in ("language", "buttons")})
    except EngineError as err:
        raise BadInput(str(err)) from None
    table().store.save_setup(name.strip(), setup)
    return jsonify(setups=table().store.setups()), 201


@bp.delete("/setups/<path:name>")
@gm_only
def delete_setup(name: str) -> Response:
    """Forget a saved setup (404 if there is none of that name) [issue 6]."""
    from ..table.session import NotFound

    if not table().store.delete_setup(name):
        raise NotFound(f"no setup named {name!r}")
    return jsonify(setups=table().store.setups())


def _record(game: int):  # type: ignore[no-untyped-def]
    from ..table.session import NotFound

    rec = table().store.load(game) if game < 2**63 else None
    if rec is None or not rec.events:
        raise NotFound(f"no game {game}")
    return rec


@bp.get("/games/<int:game>/view")
@gm_only
def game_view(game: int) -> Response:
    """The GM view of game `game` after its first K actions (`?at=K`, 0 to
    the number it holds; without it, all of them), rebuilt from its log, for
    stepping through a game in the history [issue 6]. Adds `at`, `total` (the
    actions the game holds), `action` (the K-th action's event, seats as
    numbers; null at 0), `announcements`, `log` (the events so far, private
    ones included), `game` and `created`."""
    from flask import request

    from ..engine import announcements, rebuild, view_for
    from ..table.session import BadInput

    rec = _record(game)
    total = max(int(e.get("a", 0)) for e in rec.events)
    raw = request.args.get("at")
    if raw is None:
        at = total
    elif raw.isdigit() and len(raw) <= 9 and int(raw) <= total:
        at = int(raw)
    else:
        raise BadInput(f"'at' is an action number 0–{total}")
    state = rebuild([e for e in rec.events if e["a"] < at + 1])
    view = view_for(state, None)
    action = next((e for e in state.log if e["e"] == "act" and e["a"] == at), None)
    view.update(at=at, total=total, action=action, announcements=announcements(state),
                log=state.log, game=rec.id, created=rec.created)
    return jsonify(view)


@bp.get("/stats")
@gm_only
def stats() -> Response:
    """Per player name across the finished games [issue 6]:
    `{name: {"played", "won", "roles": {role: [played, won]}, "sides": {side:
    [played, won]}}}`. The role is the card held at the end (a thief may have
    swapped); the side is that card's team, or "lovers" for a mixed pair of
    lovers. Each game is rebuilt from its stored log."""
    from ..engine import ROLES, rebuild
    from ..engine.rules import mixed_lovers

    store: Store = table().store
    out: dict[str, dict] = {}
    for summary in reversed(store.games()):  # oldest first: names appear in play order
        if summary["winner"] is None:
            continue
        rec = store.load(summary["id"])
        if rec is None or not rec.events:
            continue
        state = rebuild(rec.events)
        if state.winner is None:
            continue
        mixed = state.lovers if mixed_lovers(state) else ()
        for seat, name in enumerate(state.names):
            role = state.roles[seat]
            side = "lovers" if mixed and seat in mixed else ROLES[role].team
            won = int(seat in state.winners)
            entry = out.setdefault(name, {"played": 0, "won": 0, "roles": {}, "sides": {}})
            entry["played"] += 1
            entry["won"] += won
            for key, value in (("roles", role), ("sides", side)):
                tally = entry[key].setdefault(value, [0, 0])
                tally[0] += 1
                tally[1] += won
    return jsonify(out)


# --- the table's hardware [issue 7] -------------------------------------------------

def _hardware():  # the TableHardware `werewolf serve` runs, or 404
    from flask import current_app

    from ..table.session import NotFound

    hw = current_app.extensions.get("hardware")
    if hw is None:
        raise NotFound("this hub runs no seat boxes or display")
    return hw


@bp.get("/hardware")
@gm_only
def hardware() -> Response:
    """The seat boxes' LEDs and the display's frame count (the virtual table)."""
    hw = _hardware()
    return jsonify(simulated=hw.simulated, leds=hw.leds(), frames=hw.display.frames,
                   display_simulated=hw.display_simulated, describe=hw.describe())


@bp.post("/hardware/press")
@gm_only
def press() -> Response:
    """Press a simulated seat box's button: {"seat": n} (1-based, as on the map)."""
    from ..table.session import BadInput, NotNow

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
@gm_only
def display_png() -> Response:
    """The frame on the display now (before a game it holds the GM's QR code)."""
    from ..table.session import NotFound

    png = _hardware().display.png_bytes()
    if png is None:
        raise NotFound("the display has shown nothing yet")
    return Response(png, mimetype="image/png")
