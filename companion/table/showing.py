"""The table's read side: what it shows and to whom — each audience's view,
the seats' list, the game's language and button mode — and the streams
that follow them. `Table` (table.py: the lock, the commands, the commit) is
one; every read takes the same lock as a write, so nothing is shown that is
not committed."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable

from ..engine import State
from ..replay import result_of
from ..store import Store
from . import pacing
from .audiences import LOBBY, Audiences, Listener, Live, Sent, StreamCaps
from .errors import NotFound, NotNow
from .pace import STORY_LINE_S, STORY_PAGE_S, STORY_START_S, Pace, StoryClock
from .pacing import Settings
from .seats import Seats

__all__ = ["STORY_LINE_S", "STORY_PAGE_S", "STORY_START_S", "Showing"]

class Showing:
    """Views and listeners of one live game (mixed into `Table`)."""

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
    _rollcall_shown: int | None
    #: the story's page on the table screen at the end (pace.py) [issue 35]
    story_clock: StoryClock
    _story_told: tuple[tuple, list, dict] | None = None  # ((game, language, events), log, told)
    _voice_due: bool
    _advance_and_commit: Callable[..., None]  # Table's: the one path's commit

    @property
    def language(self) -> str:
        """The game's language (the pages default to it)."""
        return str(self.setup.get("language", "en"))

    @property
    def ended(self) -> bool:
        """The game's end is public: the table has told it (pacing reached
        the end). The engine's log may end sooner — the wolves' deciding
        attack ends the game at once, but the night's calls go on to their
        ends and the dawn tells it — and nothing of the end (the story, the
        cards, the host's keys) is told before this [issue 40]."""
        return self.state is not None and self.state.phase == "over" \
            and self.pace.mode == "over"

    @property
    def buttons(self) -> str:
        """How this game's votes are cast: phones | roll-call | lock-in [issue 7]."""
        return str(self.setup.get("buttons", "phones"))

    def seats_info(self) -> dict:
        """The game's id and its `seats` (404 before a game)."""
        with self.lock:
            self._need_game()
            return {"id": self.game, "seats": self.seats()}

    def seats(self) -> list[dict]:
        """Every seat's name, link and whether a phone holds it ([] before a game)."""
        with self.lock:
            return self.seating.info(self.state.names if self.state is not None else [])

    def _need_game(self) -> State:
        if self.state is None:
            raise NotFound("no game yet: create one with POST /api/games")
        return self.state

    # --- views ----------------------------------------------------------------

    def _live(self, rollcall: int | None | bool = False) -> Live:
        """The live game; `rollcall`: the roll-call index to show (False: the
        one last published)."""
        state = self._need_game()
        assert self.game is not None
        shown = self._rollcall_shown if rollcall is False else rollcall
        pins = tuple(p is not None for p in self.seating.pins) \
            if self.setup.get("narrated") else None
        return Live(self.game, state, self.pace, self.language, self.buttons,
                    shown, self.settings.rollcall_s, self.seats(), self.store.notice,
                    self._story_page(), pins, self.setup.get("readings") or None)

    def public(self) -> dict:
        """The table's view (the display, the table screen, the LEDs)."""
        with self.lock:
            if self.state is None:
                return dict(LOBBY)
            return self.audiences.view(self._live(), "public", self.clock())

    def seat_view(self, seat: int) -> Sent:
        with self.lock:
            return self.audiences.view(self._live(), f"seat:{seat}", self.clock())

    def gm_view(self) -> Sent:
        with self.lock:
            return self.audiences.view(self._live(), "gm", self.clock())

    def story(self, seat: int, lang: str | None = None) -> dict:
        """A seat's reading of the live game's story [issue 35]: once the
        game is over, or while the seat is dead with `ghosts` on (the one
        rule, engine.story.readable); 403 otherwise."""
        from ..engine.story import readable
        from ..words import LANGUAGES
        from ..words.story import told
        from .errors import BadInput, Denied

        with self.lock:
            state = self._need_game()
            if not readable(state, seat, self.ended):
                raise Denied("the story is for the dead with ghosts on, or after the game")
            lang = lang or self.language
            if lang not in LANGUAGES:
                raise BadInput(f"'lang' is one of {', '.join(LANGUAGES)}")
            return told(state, lang, self.game)

    def told_story(self, reader: str | None, lang: str | None = None) -> dict:
        """The live game's story for `reader` (None: its game master; "public":
        anyone, a narrated game's host included), once the table has told its
        end (`ended`) [issue 40]; 403 before."""
        from ..engine.story import readable
        from ..words import LANGUAGES
        from ..words.story import told
        from .errors import BadInput, Denied

        with self.lock:
            state = self._need_game()
            if not readable(state, reader, self.ended):
                raise Denied("the story is told once the game is over")
            lang = lang or self.language
            if lang not in LANGUAGES:
                raise BadInput(f"'lang' is one of {', '.join(LANGUAGES)}")
            return told(state, lang, self.game)

    # --- the story told on the table screen at the end [issue 35] ---------------

    def _told(self) -> dict:
        state = self._need_game()
        assert self.game is not None
        got = self._story_told
        key = (self.game, self.language, len(state.log))
        # the same log, as long: an undo rebuilds the state (a new log), so it tells anew
        if got is None or got[0] != key or got[1] is not state.log:
            from ..words.story import told

            got = self._story_told = (key, state.log,
                                      told(state, self.language, self.game)["told"])
        return got[2]

    def _page_lines(self) -> list[int]:
        """The story's pages, each as its number of lines (StoryClock.due)."""
        return [len(ch["lines"]) for ch in self._told()["chapters"]]

    def _story_page(self) -> dict | None:
        """The page the table screen tells now, for the public view: only
        once the game is over and the story has begun (else None)."""
        clock = self.story_clock
        if self.state is None or not self.ended or clock.page < 0 or clock.over is None:
            return None
        chapters = self._told()["chapters"]
        k = min(clock.page, len(chapters) - 1)
        ch = chapters[k]
        return {"page": k, "pages": len(chapters), "kind": ch["kind"], "title": ch["title"],
                "lines": [{key: ln[key] for key in ("text", "seats", "said") if key in ln}
                          for ln in ch["lines"]]}

    def story_step(self) -> dict:
        """A tap on the GM's tablet or the host page: the story's next page
        on the table screen [issue 35]; NotNow before the end."""
        with self.lock:
            state = self._need_game()
            if not self.ended:  # the table's end, not the log's [issue 40]
                raise NotNow("the story is told once the game is over")
            now = self.clock()
            clock = self.story_clock.seen(self.game, True, now)
            self.story_clock = clock.turned(len(self._page_lines()), now)
            self._voice_due = True
            self._advance_and_commit(now, start=len(state.log))
            return self.public()

    def result(self) -> dict:
        """The replay output object of the current game, with its id and timers."""
        with self.lock:
            state = self._need_game()
            out = result_of(state)
            out["id"], out["pace"] = self.game, {**self.pace.to_dict(), **pacing.public(self.pace)}
            return out

    # --- listeners --------------------------------------------------------------

    def listen(self, audience: str, token: str | None = None, address: str = "",
               caps: StreamCaps | None = None) -> tuple[Listener, str]:
        """Subscribe (within `caps`): the listener and the full view to send first."""
        with self.lock:
            if self.state is None:
                first = json.dumps(self.public())
            else:  # built before it listens: a stale view's new version is not sent it twice
                first = self.audiences.message(self._live(), audience, self.clock())
            return self.audiences.listen(audience, token, address, caps), first

    def unlisten(self, listener: Listener) -> None:
        with self.lock:
            self.audiences.unlisten(listener)

    def close_listeners(self, audience: str | None = None) -> None:
        """End every stream (the hub is stopping), or every stream of one
        `audience` (each page reads its view anew, if it still may)."""
        with self.lock:
            if audience is None:
                self.audiences.close_all()
            else:
                self.audiences.close_audience(audience)

    def listeners(self) -> int:
        with self.lock:
            return len(self.audiences.all())
