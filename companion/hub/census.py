"""The secrecy census [issue 40]: every channel by which the hub tells
anything, and who may read it — in one place, applied here, walked by the
tests.

Every route of the hub is in `ROUTES`, by its Flask endpoint, with **who may
ask** (`Who`: anyone, the holder of a seat, the game master's token) and
**what its answer may hold** (`Shows`). `guard` runs before every route and
applies both: a route that is not in the census answers 403 before it runs
(fail closed), and tests/hub/test_census.py fails on it first, so a new
route cannot be added without saying who may read it. The other channels —
the streams' pushes, the speech the Pi's speaker plays, the small display,
the seat boxes' LEDs, the table screen's story, each page's accessibility
tree — are in `CHANNELS`, each with the view it is made from and the test
that holds it to its audience.

The audiences a request can be:

- ``anyone``: no credential (the TV, a guest, a phone's other pages);
- ``seat:N``: the phone that holds seat N (its link and its device cookie);
- ``gm``: the game master's token, in a game he runs: he sees everything;
- ``host``: the same token while a *narrated* game runs: its holder is a
  player, so he reads what anyone reads, plus the table's controls (the
  clock, the volume, a lost phone's vote, the seats no phone has opened).

What an answer may hold (`Shows`), from the least to the most:

- NOTHING: no fact of any game (a page's shell, a static file, the manual);
- SETUP: the hub's own settings (rulesets, saved setups, paired tablets);
- PUBLIC: what the table is shown (the public view and what it says);
- OWN: the seat's own view (`engine.view_for`): its card, its results;
- STORY: the story of a game (`engine.story.readable` decides, with the
  reader `story_reader` gives: the GM's in his game, anyone's once its end
  is public);
- LINKS: the seats' links and their QR codes (a link opens a card): the
  GM's; the host's for a seat no phone opened (`shown_seats`);
- RECORD: a game's record (every card): the GM's; never the current game's
  while a narrated game runs (its lists leave the game out: `playing`);
- SECRETS: the live game's every card, or an act for any seat: the GM's
  only, closed to the host while a narrated game runs.

A new route: add its endpoint to `ROUTES` first, with the narrowest `Who`
and the `Shows` of what it answers; the census test then fetches it as
every audience in the non-interference games (docs/how/security.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from flask import Response, current_app, g, make_response, render_template, request

from ..speech.narration import narrated
from ..table import NotFound
from .common import Forbidden, Unauthorized, gm_token_of_request, is_gm, table


class Who(StrEnum):
    """Who may ask."""

    ANYONE = "anyone"
    SEAT = "seat"  # the phone holding the seat of the route's `token`
    GM = "gm"  # the game master's token (the host's, in a narrated game)


class Shows(StrEnum):
    """What an answer may hold (see the module's docstring)."""

    NOTHING = "nothing"
    SETUP = "setup"
    PUBLIC = "public"
    OWN = "own"
    STORY = "story"
    LINKS = "links"
    RECORD = "record"
    SECRETS = "secrets"


@dataclass(frozen=True)
class Channel:
    who: Who
    shows: Shows
    what: str
    #: its answers may be kept by a cache (static files, the manual, the
    #: speech's audio); every other answer, errors included, is no-store
    cached: bool = False
    #: an HTML page: a refusal is the notice page (taken.html), not JSON
    page: bool = False


A, S, G = Who.ANYONE, Who.SEAT, Who.GM

#: every route, by endpoint: who may ask, what it may answer
ROUTES: dict[str, Channel] = {
    # the table screen, the phones' other pages, the manual
    "pages.home": Channel(A, Shows.NOTHING, "/ → the table screen"),
    "pages.table_screen": Channel(A, Shows.NOTHING, "the TV's page (its data: the public view)"),
    "static": Channel(A, Shows.NOTHING, "scripts, styles, icons", cached=True),
    "manual.help_entry": Channel(A, Shows.NOTHING, "the manual, in the page's language"),
    "manual.help_file": Channel(A, Shows.NOTHING, "the manual's files", cached=True),
    "api.public": Channel(A, Shows.PUBLIC, "the table's view"),
    "api.public_stream": Channel(A, Shows.PUBLIC, "the table's view, as it changes"),
    "speech.timeline": Channel(A, Shows.PUBLIC, "what the narrator says, and when"),
    "speech.audio": Channel(A, Shows.PUBLIC, "one spoken line as WAV", cached=True),
    "speech.heard": Channel(A, Shows.NOTHING, "a table screen began or ended a spoken line: "
                                              "the voice waits for a screen behind, a few "
                                              "seconds a stage at most (public pacing)"),
    "lost.new_code": Channel(A, Shows.PUBLIC, "a reissued seat's new link, once: it opens "
                                              "nothing without the seat's PIN"),
    "api.game_story": Channel(A, Shows.STORY, "a game's story"),
    # a seat's phone
    "player.page": Channel(A, Shows.NOTHING, "a seat's page shell: the first phone claims the "
                                             "seat; a locked seat asks its PIN"),
    "player.unlock": Channel(A, Shows.NOTHING, "a locked seat's PIN, from its player's new "
                                               "phone"),
    "player.state": Channel(S, Shows.OWN, "the seat's view"),
    "player.seat_stream": Channel(S, Shows.OWN, "the seat's view, as it changes"),
    "player.story": Channel(S, Shows.STORY, "the story, for this seat"),
    "player.action": Channel(S, Shows.OWN, "the seat's action, answered with its view"),
    "player.suspect": Channel(S, Shows.OWN, "a decoy tap, answered with the seat's view"),
    "player.pass_turn": Channel(S, Shows.OWN, "the speaker passes"),
    "player.ready": Channel(S, Shows.OWN, "night 1's Ready"),
    "player.lost": Channel(S, Shows.PUBLIC, "the seat's answer to a lost phone's vote"),
    "player.pin": Channel(S, Shows.OWN, "the seat's PIN, set once"),
    # the game master's tablet (the host's, in a narrated game)
    "pages.gm": Channel(A, Shows.NOTHING, "the GM's tablet (pairs ?token=; /host while a "
                                          "narrated game runs)"),
    "pages.pair": Channel(A, Shows.NOTHING, "a pairing link: pairs this tablet once"),
    "speech.host": Channel(G, Shows.PUBLIC, "the host's page", page=True),
    "speech.host_timer": Channel(G, Shows.PUBLIC, "the clock, answered with the public view"),
    "speech.volume": Channel(G, Shows.SETUP, "the narrator's volume"),
    "api.create_game": Channel(G, Shows.SETUP, "deal a new game"),
    "api.rulesets": Channel(G, Shows.SETUP, "the lobby's rulesets"),
    "api.roles": Channel(G, Shows.SETUP, "a recommended deal"),
    "api.setups": Channel(G, Shows.SETUP, "saved setups"),
    "api.save_setup": Channel(G, Shows.SETUP, "save a setup"),
    "api.delete_setup": Channel(G, Shows.SETUP, "forget a saved setup"),
    "api.pair_tablet": Channel(G, Shows.SETUP, "a pairing link for another tablet"),
    "api.tablets": Channel(G, Shows.SETUP, "how many tablets are paired"),
    "api.rotate_token": Channel(G, Shows.SETUP, "a new GM token"),
    "api.story_step": Channel(G, Shows.PUBLIC, "the story's next page, at the end"),
    "api.hardware": Channel(G, Shows.PUBLIC, "the seat boxes' LEDs and the display's frames"),
    "api.display_png": Channel(G, Shows.PUBLIC, "the display's frame"),
    "lost.ask": Channel(G, Shows.PUBLIC, "a narrated game: 'this phone is lost'"),
    "lost.cancel": Channel(G, Shows.PUBLIC, "withdraw that request"),
    "api.seats": Channel(G, Shows.LINKS, "the seats' links"),
    "api.seat_qr": Channel(G, Shows.LINKS, "a seat's link as a QR code"),
    "pages.gm_sheet": Channel(G, Shows.LINKS, "the printable sheet of the seats' links", page=True),
    "api.games": Channel(G, Shows.RECORD, "every game kept"),
    "api.game": Channel(G, Shows.RECORD, "a game's record"),
    "api.game_view": Channel(G, Shows.RECORD, "a game's GM view at any action"),
    "api.stats": Channel(G, Shows.RECORD, "per-player statistics"),
    "api.season": Channel(G, Shows.RECORD, "a season's results"),
    "api.season_csv": Channel(G, Shows.RECORD, "a season's results as CSV"),
    "api.state": Channel(G, Shows.SECRETS, "the live game's replay output"),
    "api.gm_view": Channel(G, Shows.SECRETS, "the GM's view"),
    "api.gm_stream": Channel(G, Shows.SECRETS, "the GM's view, as it changes"),
    "api.actions": Channel(G, Shows.SECRETS, "an action for any seat"),
    "api.undo": Channel(G, Shows.SECRETS, "take actions back"),
    "api.timer": Channel(G, Shows.SECRETS, "the clock, answered with the GM's view"),
    "api.reissue": Channel(G, Shows.SECRETS, "a seat's new link (it opens the card)"),
    "api.release": Channel(G, Shows.SECRETS, "free a seat for another phone"),
    "api.press": Channel(G, Shows.SECRETS, "a simulated seat box's press (any seat's vote)"),
    "pages.virtual_table": Channel(G, Shows.SECRETS, "the virtual table: presses for any "
                                                     "seat", page=True),
}

#: the channels that are not a route's answer: what each is made of, who
#: sees it, and the test that holds it to that
CHANNELS: dict[str, tuple[str, str, str]] = {
    "streams": ("each stream's pushes: its route's audience and view", "as its route",
                "tests/hub/test_census.py (every push, every tick)"),
    "display": ("firmware.display.render(public view)", "anyone at the table",
                "tests/hub/test_census.py (the frame's lines)"),
    "leds": ("firmware.bridge.lights(public view)", "anyone at the table",
             "tests/hub/test_census.py"),
    "speech": ("speech.narration: the public views the table tells it (became_public), "
               "said as one timeline: its WAVs, the Pi's speaker",
               "anyone at the table", "tests/hub/test_census.py (the timeline)"),
    "story page": ("the public view's `story`, once the end is public", "anyone",
                   "tests/hub/test_census.py"),
    "qr": ("a seat's link as SVG (api.seat_qr, the sheet, lost.new_code)",
           "as its route", "tests/hub/test_census.py"),
    "accessibility tree": ("each page's DOM as a screen reader reads it: the phone's "
                           "card only while open (held or tapped), in no live region; its "
                           "one status region says the screen's own words, the same on every "
                           "phone [issue 43]", "the page's",
                           "tests/web/test_census_in_browser.py, "
                           "tests/web/test_a11y_in_browser.py"),
}

#: the audiences a channel of `who` serves
AUDIENCES = {A: ("anyone", "seat", "gm", "host"), S: ("seat",), G: ("gm", "host")}


def closed() -> bool:
    """A narrated game runs and its end is not public yet: nobody's page
    sees its secrets, the token holder's (the host's) included (the
    census's word [issue 45], not the narration's)."""
    tbl = table()
    with tbl.lock:  # the end told to the table, not the log's [issue 40]
        return narrated(tbl) and tbl.state is not None and not tbl.ended


def narrating() -> bool:
    """The table's game is narrated (over or not): its token holder is a player."""
    tbl = table()
    with tbl.lock:
        return narrated(tbl)


def guard() -> Response | None:
    """`before_request`: the census's word on this request, before the route
    runs (a refusal changes nothing)."""
    endpoint = request.endpoint
    if endpoint is None or request.routing_exception is not None:
        return None  # no route: 404 or 405, nothing runs
    channel = ROUTES.get(endpoint)
    if channel is None:
        raise Forbidden(f"{endpoint} is not in the secrecy census (companion/hub/census.py)")
    try:
        _check(endpoint, channel)
    except (Unauthorized, Forbidden) as err:
        if not channel.page:
            raise
        message = "open the game master's URL with its token" if err.status == 401 else str(err)
        return make_response(render_template("taken.html", message=message), err.status)
    return None


def _check(endpoint: str, channel: Channel) -> None:
    if channel.who is Who.GM:
        if not gm_token_of_request():
            raise Unauthorized("the game master's token is needed (open the GM URL)")
        if not is_gm():
            raise Forbidden("wrong game master token")
    elif channel.who is Who.SEAT:
        g.census_seat = _seat_of_request()
    if channel.shows is Shows.SECRETS and closed():
        raise Forbidden("the hub narrates this game: nobody sees its secrets, the host neither")
    if channel.shows is Shows.RECORD and closed() and \
            (request.view_args or {}).get("game") == table().game:
        raise Forbidden("the hub narrates this game: its record is read once it is over")
    if endpoint == "api.seat_qr" and closed() and not _host_may_see(
            (request.view_args or {}).get("seat")):
        raise Forbidden("a phone has opened this seat: while the hub narrates, its code is "
                        "never shown again (a lost phone: the table votes, on the host page)")


def private(response: Response) -> Response:
    """`after_request`: every answer of a route the census does not mark
    `cached` is no-store — its errors too."""
    channel = ROUTES.get(request.endpoint or "")
    if channel is None or not channel.cached:
        response.headers["Cache-Control"] = "no-store"
    return response


DEVICE_COOKIE = "device"
TAKEN = "this seat is already open on another phone — ask the game master"


def _seat_of_request() -> int:
    """The seat of the route's link, if this device holds it (else 403)."""
    token = (request.view_args or {}).get("token", "")
    seat, holder = table().holder(str(token))
    device = request.cookies.get(DEVICE_COOKIE)
    if not device or holder != device:
        raise Forbidden(TAKEN if holder else "open your seat's link first")
    return seat


def seat() -> int:
    """The seat this request's phone holds (a `Who.SEAT` route's)."""
    got = g.get("census_seat")
    if got is None:  # pragma: no cover - the guard sets it for every seat route
        raise NotFound("no seat")
    return int(got)


def _host_may_see(seat: object) -> bool:
    return isinstance(seat, int) and current_app.extensions["lost_phones"].host_may_see(seat)


def shown_seats(seats: list[dict]) -> list[dict]:
    """The seats' links as this request may see them: while a narrated game
    runs, the link of a seat a phone opened, or one the table's vote
    reissued, is null (the host's)."""
    if not closed():
        return seats
    by_vote = current_app.extensions["lost_phones"].by_vote()
    return [s if not s["claimed"] and s["seat"] not in by_vote else {**s, "url": None}
            for s in seats]


def playing() -> int | None:
    """The game a history list must leave out for this request: the current
    one while a narrated game runs (its winner is not public before its end)."""
    return table().game if closed() else None


def story_reader(game: int) -> str | None:
    """Who reads game `game`'s story (engine.story.readable's `seat`): None
    (the game master: always) for his own games, "public" for anyone else
    and for a narrated game's host."""
    if not is_gm():
        return "public"
    if game == table().game and narrating():
        return "public"  # its token holder is a player
    return None
