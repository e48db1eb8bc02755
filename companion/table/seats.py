"""The seats of the live game: each seat's private link (token) and the
device that holds it. The first device to open a link keeps the seat until
the game master releases it or reissues the link. Every change is written
to the store at once; the table holds its lock around the changes.

A phone's every request first asks which seat its link opens (`holder`).
That read takes this object's own small lock, never the table's: the
table's lock is held through a commit's fsync and the publishing after it,
and phones voting at once must reach the group-commit queue while a commit
is under way, not wait behind it one by one (`werewolf bench hub`'s
burst_p99_ms)."""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
from collections.abc import Sequence

from ..store import Store
from .errors import NotFound

#: wrong PINs a reissued link takes before it opens no more (the table votes
#: again): 5 tries at a 4-digit PIN is a 1-in-2000 guess [issue 40]
MAX_TRIES = 5


class Seats:
    def __init__(self, store: Store) -> None:
        self.store = store
        self.game: int | None = None
        self.tokens: list[str] = []
        self.claims: list[str | None] = []
        #: each seat's PIN digest (narrated games: its player sets one on his
        #: first phone; a reissued link opens only with it) [issue 40]
        self.pins: list[str | None] = []
        self.tries: dict[int, int] = {}  # wrong PINs given for a seat since its last link
        self.lock = threading.Lock()  # the seats' own: held for a lookup or a change only
        self._info: tuple[tuple, list[dict]] | None = None  # info's last answer, by what it read

    def load(self, game: int, tokens: list[str], claims: list[str | None],
             pins: list[str | None] | None = None) -> None:
        with self.lock:
            self.game, self.tokens, self.claims = game, list(tokens), list(claims)
            self.pins = list(pins) if pins else [None] * len(tokens)
            self.tries = {}

    def check(self, seat: object) -> int:
        """The seat, if the game has it (else 404)."""
        if type(seat) is not int or not 0 <= seat < len(self.tokens):
            raise NotFound(f"no seat {seat!r}")
        return seat

    def info(self, names: Sequence[str]) -> list[dict]:
        """Every seat's name, link and whether a phone holds it: read-only, the
        same list until one of them changes (the GM's view of every publish
        holds it, and tells it unchanged by identity)."""
        key = (tuple(names), tuple(self.tokens), tuple(c is not None for c in self.claims))
        if self._info is None or self._info[0] != key:
            self._info = (key, [{"seat": i, "name": n, "url": f"/p/{t}", "claimed": claimed}
                                for i, (n, t, claimed) in enumerate(zip(*key))])
        return self._info[1]

    def holder(self, token: str) -> tuple[int, str | None]:
        """The seat a link opens and the device holding it (None: no phone yet)."""
        with self.lock:
            if self.game is None or token not in self.tokens:
                raise NotFound("this link is not a seat of the current game")
            seat = self.tokens.index(token)
            return seat, self.claims[seat]

    def holds(self, device: str) -> bool:
        """Whether `device` holds a seat of the current game."""
        with self.lock:
            return self.game is not None and device in self.claims

    def claim(self, seat: int, device: str) -> bool:
        """True if the seat was free and `device` now holds it."""
        if self.claims[seat] is not None or self.game is None:
            return False
        self.store.set_claim(self.game, seat, device)
        with self.lock:
            self.claims[seat] = device
        return True

    def reissue(self, seat: int) -> str:
        """A new link for the seat, free again (its PIN kept); answers the old token."""
        assert self.game is not None
        token = secrets.token_urlsafe(16)  # 128 bits
        self.store.set_token(self.game, seat, token)
        with self.lock:
            old, self.tokens[seat], self.claims[seat] = self.tokens[seat], token, None
            self.tries.pop(seat, None)
        return old

    # --- a seat's PIN [issue 40] ------------------------------------------------------

    def digest(self, seat: int, pin: str) -> str:
        assert self.game is not None
        return hashlib.sha256(f"werewolf-pin:{self.game}:{seat}:{pin}".encode()).hexdigest()

    def set_pin(self, seat: int, pin: str) -> None:
        """Keep seat `seat`'s PIN (durable before it is answered)."""
        assert self.game is not None
        digest = self.digest(seat, pin)
        self.store.set_pin(self.game, seat, digest)
        with self.lock:
            self.pins[seat] = digest

    def locked(self, seat: int) -> bool:
        """The seat has a PIN and no phone: only its PIN opens it."""
        return self.pins[seat] is not None and self.claims[seat] is None

    def try_pin(self, seat: int, pin: str) -> bool | None:
        """Whether `pin` is the seat's (None: too many wrong ones since its
        last link, `MAX_TRIES`: it opens no more)."""
        wrong = self.tries.get(seat, 0)
        if wrong >= MAX_TRIES:
            return None
        pinned = self.pins[seat]
        if pinned is not None and hmac.compare_digest(pinned, self.digest(seat, pin)):
            return True
        self.tries[seat] = wrong + 1
        return False

    def release(self, seat: int) -> None:
        assert self.game is not None
        self.store.set_claim(self.game, seat, None)
        with self.lock:
            self.claims[seat] = None
