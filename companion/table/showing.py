"""The table's read side: what it shows and to whom — each audience's view,
the seats' list, the game's language and button mode, the story — and the
streams that follow them. `Table` (table.py: the lock, the commands, the
commit) holds one (`Table.showing`) and answers its reads through it
(held.py); every read takes the table's lock, as a write does,
so nothing is shown that is not committed."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from typing import Protocol

from ..engine import State
from ..engine.story import readable
from ..replay import result_of
from ..store import Store
from ..words import LANGUAGES
from ..words.story import told
from . import pacing
from .audiences import LOBBY, Audiences, Listener, Live, Sent, StreamCaps
from .errors import BadInput, Denied, NotFound
from .pace import Pace, StoryClock
from .pacing import Settings
from .seats import Seats

__all__ = ["Showing"]


class Game(Protocol):
    """What the read side reads of its table (`table.Table`), under its lock."""

    lock: threading.RLock
    clock: Callable[[], float]
    settings: Settings
    game: int | None
    setup: dict
    state: State | None
    pace: Pace
    seating: Seats
    audiences: Audiences
    store: Store
    story_clock: StoryClock  # the story's page at the end (pace.py) [issue 35]


class Showing:
    """Views and listeners of one live game (held by its `Table`)."""

    def __init__(self, table: Game) -> None:
        self.table = table
        self.rollcall_shown: int | None = None  # the roll-call index last published
        #: the story's words as last told: ((game, language, events), log, told)
        self._story_told: tuple[tuple, list, dict] | None = None

    @property
    def language(self) -> str:
        """The game's language (the pages default to it)."""
        return str(self.table.setup.get("language", "en"))

    @property
    def ended(self) -> bool:
        """The game's end is public: the table has told it (pacing reached
        the end). The engine's log may end sooner — the wolves' deciding
        attack ends the game at once, but the night's calls go on to their
        ends and the dawn tells it — and nothing of the end (the story, the
        cards, the host's keys) is told before this [issue 40]."""
        state = self.table.state
        return state is not None and state.phase == "over" and self.table.pace.mode == "over"

    @property
    def buttons(self) -> str:
        """How this game's votes are cast: phones | roll-call | lock-in [issue 7]."""
        return str(self.table.setup.get("buttons", "phones"))

    def seats_info(self) -> dict:
        """The game's id and its `seats` (404 before a game)."""
        with self.table.lock:
            self.need_game()
            return {"id": self.table.game, "seats": self.seats()}

    def seats(self) -> list[dict]:
        """Every seat's name, link and whether a phone holds it ([] before a game)."""
        with self.table.lock:
            state = self.table.state
            return self.table.seating.info(state.names if state is not None else [])

    def seat_of(self, token: str) -> int:
        """The seat a private link opens (404 for a stale or unknown link)."""
        return self.holder(token)[0]

    def holder(self, token: str) -> tuple[int, str | None]:
        """The seat a private link opens and the device that holds it (None:
        no phone yet); 404 for a stale or unknown link. Under the seats' own
        lock, not the table's (see table/seats.py): a commit under way does
        not hold up a phone's link check."""
        return self.table.seating.holder(token)

    def need_game(self) -> State:
        """The live game's state (404 before a game)."""
        if self.table.state is None:
            raise NotFound("no game yet: create one with POST /api/games")
        return self.table.state

    # --- views ----------------------------------------------------------------

    def live(self, rollcall: int | None | bool = False) -> Live:
        """The live game; `rollcall`: the roll-call index to show (False: the
        one last published)."""
        t = self.table
        state = self.need_game()
        assert t.game is not None
        shown = self.rollcall_shown if rollcall is False else rollcall
        pins = tuple(p is not None for p in t.seating.pins) if t.setup.get("narrated") else None
        return Live(t.game, state, t.pace, self.language, self.buttons,
                    shown, t.settings.rollcall_s, self.seats(), t.store.notice,
                    self._story_page(), pins, t.setup.get("readings") or None)

    def public(self) -> dict:
        """The table's view (the display, the table screen, the LEDs)."""
        with self.table.lock:
            if self.table.state is None:
                return dict(LOBBY)
            return self.table.audiences.view(self.live(), "public", self.table.clock())

    def seat_view(self, seat: int) -> Sent:
        with self.table.lock:
            return self.table.audiences.view(self.live(), f"seat:{seat}", self.table.clock())

    def gm_view(self) -> Sent:
        with self.table.lock:
            return self.table.audiences.view(self.live(), "gm", self.table.clock())

    def publish(self) -> None:
        """Every followed audience is sent its view if it changed (a commit's)."""
        self.table.audiences.publish(self.live(), self.table.clock())

    def story(self, seat: int, lang: str | None = None) -> dict:
        """A seat's reading of the live game's story [issue 35]: once the
        game is over, or while the seat is dead with `ghosts` on (the one
        rule, engine.story.readable); 403 otherwise."""
        return self._read_story(seat, lang, "the story is for the dead with ghosts on, "
                                "or after the game")

    def told_story(self, reader: str | None, lang: str | None = None) -> dict:
        """The live game's story for `reader` (None: its game master; "public":
        anyone, a narrated game's host included), once the table has told its
        end (`ended`) [issue 40]; 403 before."""
        return self._read_story(reader, lang, "the story is told once the game is over")

    def _read_story(self, reader: int | str | None, lang: str | None, refused: str) -> dict:
        with self.table.lock:
            state = self.need_game()
            if not readable(state, reader, self.ended):
                raise Denied(refused)
            lang = lang or self.language
            if lang not in LANGUAGES:
                raise BadInput(f"'lang' is one of {', '.join(LANGUAGES)}")
            return told(state, lang, self.table.game)

    # --- the story told on the table screen at the end [issue 35] ---------------

    def _told(self) -> dict:
        state = self.need_game()
        game = self.table.game
        assert game is not None
        got = self._story_told
        key = (game, self.language, len(state.log))
        # the same log, as long: an undo rebuilds the state (a new log), so it tells anew
        if got is None or got[0] != key or got[1] is not state.log:
            got = self._story_told = (key, state.log, told(state, self.language, game)["told"])
        return got[2]

    def page_lines(self) -> list[int]:
        """The story's pages, each as its number of lines (StoryClock.due)."""
        return [len(ch["lines"]) for ch in self._told()["chapters"]]

    def _story_page(self) -> dict | None:
        """The page the table screen tells now, for the public view: only
        once the game is over and the story has begun (else None)."""
        clock = self.table.story_clock
        if self.table.state is None or not self.ended or clock.page < 0 or clock.over is None:
            return None
        chapters = self._told()["chapters"]
        k = min(clock.page, len(chapters) - 1)
        ch = chapters[k]
        return {"page": k, "pages": len(chapters), "kind": ch["kind"], "title": ch["title"],
                "lines": [{key: ln[key] for key in ("text", "seats", "said") if key in ln}
                          for ln in ch["lines"]]}

    def result(self) -> dict:
        """The replay output object of the current game, with its id and timers."""
        with self.table.lock:
            state, pace = self.need_game(), self.table.pace
            out = result_of(state)
            out["id"], out["pace"] = self.table.game, {**pace.to_dict(), **pacing.public(pace)}
            return out

    # --- listeners --------------------------------------------------------------

    def listen(self, audience: str, token: str | None = None, address: str = "",
               caps: StreamCaps | None = None) -> tuple[Listener, str]:
        """Subscribe (within `caps`): the listener and the full view to send first."""
        with self.table.lock:
            audiences = self.table.audiences
            if self.table.state is None:
                first = json.dumps(self.public())
            else:  # built before it listens: a stale view's new version is not sent it twice
                first = audiences.message(self.live(), audience, self.table.clock())
            return audiences.listen(audience, token, address, caps), first

    def unlisten(self, listener: Listener) -> None:
        with self.table.lock:
            self.table.audiences.unlisten(listener)

    def close_listeners(self, audience: str | None = None) -> None:
        """End every stream (the hub is stopping), or every stream of one
        `audience` (each page reads its view anew, if it still may)."""
        with self.table.lock:
            if audience is None:
                self.table.audiences.close_all()
            else:
                self.table.audiences.close_audience(audience)

    def listeners(self) -> int:
        with self.table.lock:
            return len(self.table.audiences.all())
