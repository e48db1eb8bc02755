"""A phone lost in a narrated game [issue 29]: the table decides, on the TV,
never the host alone.

    lost = LostPhones(table)      # its request joins the table's public and seat views
    lost.ask(seat)                # the host: "this phone is lost" -> a public request
    lost.answer(voter, True)      # a living seat's phone: yes (False: no)
    lost.code()                   # the seat's new link, once: the table screen's QR
    lost.check()                  # time passed: a request or a code whose time is up ends

Who votes: the living seats other than the lost one (its phone is lost; if
it is not, its player says so aloud), each from its own phone. A **strict
majority of them** — more than half of all of them, not of those who
answered — reissues the seat (`Table.reissue`: the old link and its streams
end). As soon as that majority cannot be reached any more (half of them or
more said no), or after `vote_s`, the request is cancelled. The living are
those the table screen shows alive (the public view's), so a vote at night
tells nothing of a death before dawn.

A reissued seat's new link is shown once: its QR is served once
(`code()`, the table screen's fetch; a second fetch is refused), until the
seat is opened or `show_s` pass. It opens only with the PIN its player
chose on his first phone (`Table.unlock`), so whoever scans it first, or
photographs the TV, learns nothing; a seat with no PIN is never reissued
by a vote [issue 40]. A seat reissued by a vote is never shown
to the host (`host_may_see`): if its code timed out unopened, the table
votes again. One request at a time.

The request is public: which seat, who has answered what, how many are
needed and until when; nothing of a card. It lives in memory only: a hub
restarted mid-vote has no request (the host asks again), and a seat
reissued by a vote is then shown like any seat never opened.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass, field

from .errors import BadInput, Denied, NotFound, NotNow, TableError
from .table import Table

VOTE_S = 90.0  # how long the living have to answer
SHOW_S = 120.0  # how long the new code waits for its phone


class Shown(TableError):
    """The new code was shown already (HTTP 410): it is never shown twice."""

    status = 410


@dataclass
class _Request:
    n: int  # which request of this hub
    game: int
    seat: int
    name: str
    until: float  # the vote's end; once reissued, the code's
    yes: set[int] = field(default_factory=set)
    no: set[int] = field(default_factory=set)
    reissued: bool = False
    served: bool = False  # the new code's QR was fetched (by the table screen)


class LostPhones:
    """The table's one lost-phone request, and the seats it reissued."""

    def __init__(self, table: Table, vote_s: float = VOTE_S, show_s: float = SHOW_S) -> None:
        self.table = table
        self.vote_s, self.show_s = vote_s, show_s
        self._req: _Request | None = None
        self._asked = 0  # requests made
        self._by_vote: dict[int, set[int]] = {}  # game -> seats reissued by a vote
        self._memo: tuple[tuple, dict] | None = None  # the view's part, while it is the same
        self._timer: threading.Timer | None = None
        table.audiences.aside = self.aside

    # --- what the views show (under the table's lock) -----------------------------

    def aside(self, alive: Sequence[bool]) -> dict | None:
        """The request as the table screen and every phone see it (None: none),
        given the seats alive as the table shows them."""
        req = self._req
        if req is None or req.game != self.table.game:
            return None
        if req.reissued:
            if self.table.seating.claims[req.seat] is not None:
                return None  # opened: done
            key: tuple = (req.n, "code", req.until)
        else:
            voters = _voters(req, alive)
            key = (req.n, "vote", req.until, tuple(voters), tuple(sorted(req.yes)),
                   tuple(sorted(req.no)))
        if self._memo is not None and self._memo[0] == key:
            return self._memo[1]  # the same object: its JSON is encoded once per publish
        part: dict = {"seat": req.seat, "name": req.name,
                      "status": "code" if req.reissued else "vote", "until": req.until}
        if not req.reissued:
            part.update(voters=list(key[3]), yes=list(key[4]), no=list(key[5]),
                        needed=len(key[3]) // 2 + 1)
        self._memo = (key, part)
        return part

    def host_may_see(self, seat: int) -> bool:
        """Whether the host may be shown seat `seat`'s link while a narrated
        game runs: only a seat no phone has opened and no vote reissued."""
        with self.table.lock:
            seating = self.table.seating
            return (0 <= seat < len(seating.claims) and seating.claims[seat] is None
                    and seat not in self._by_vote.get(self.table.game or -1, set()))

    def by_vote(self) -> set[int]:
        """The seats of the current game reissued by a vote."""
        with self.table.lock:
            return set(self._by_vote.get(self.table.game or -1, set()))

    # --- the host, the phones, the table screen --------------------------------------

    def ask(self, seat: object) -> dict:
        """"This phone is lost": a public request to reissue seat `seat`, for an
        opened seat (or one a vote reissued whose code went unused)."""
        table = self.table
        with table.lock:
            state = table.state
            if state is None:
                raise NotFound("no game yet")
            seat = table.seating.check(seat)
            self._expire()
            if table.ended:  # as the table was told: the log's end is not yet public
                raise NotNow("the game is over")
            if self._req is not None:
                raise NotNow(f"the table is already deciding about {self._req.name}'s phone")
            if table.seating.claims[seat] is None and seat not in self._by_vote.get(
                    table.game or -1, set()):
                raise NotNow(f"{state.names[seat]}'s seat was never opened: its own code "
                             "opens it")
            if table.seating.pins[seat] is None:  # its new code would open it for anyone
                raise NotNow(f"{state.names[seat]} never chose a PIN: the seat cannot be "
                             "moved to another phone safely")
            assert table.game is not None
            self._asked += 1
            self._req = _Request(self._asked, table.game, seat, state.names[seat],
                                 table.clock() + self.vote_s)
            outcome = self._decide()
            self._publish()
            return self._answer(outcome)

    def answer(self, voter: int, doc: object) -> dict:
        """A phone's answer, `{"yes": true | false}`: the last one counts."""
        if not isinstance(doc, dict) or type(doc.get("yes")) is not bool or set(doc) - {"yes"}:
            raise BadInput('send {"yes": true} or {"yes": false}')
        with self.table.lock:
            self._expire()
            req = self._req
            if req is None or req.reissued:
                raise NotNow("no lost phone is being voted on now")
            if voter == req.seat:
                raise Denied("the table votes on your seat: if your phone is not lost, say so")
            if not self._alive()[voter]:
                raise Denied("the dead do not vote")
            (req.yes if doc["yes"] else req.no).add(voter)
            (req.no if doc["yes"] else req.yes).discard(voter)
            outcome = self._decide()
            self._publish()
            return self._answer(outcome)

    def cancel(self) -> dict:
        """The host withdraws the request (or stops showing the new code)."""
        with self.table.lock:
            if self._req is None:
                raise NotNow("no lost phone request to withdraw")
            self._req = None
            self._publish()
            return self._answer("cancelled")

    def code(self) -> str:
        """The reissued seat's new link (its path), once: the table screen's
        fetch. NotFound when no code is to be shown now, Shown after the first."""
        with self.table.lock:
            self._expire()
            req = self._req
            if req is None or not req.reissued:
                raise NotFound("no new seat code to show now")
            if req.served:
                raise Shown("this code was shown already: it is never shown twice "
                            "(if nobody at the table scanned it, vote again)")
            req.served = True
            return str(self.table.seats()[req.seat]["url"])

    def check(self) -> None:
        """Time passed: end what is over, and say so to every page."""
        with self.table.lock:
            if self._expire():
                self._publish()

    # --- the rules ----------------------------------------------------------------------

    def _alive(self) -> list[bool]:
        return [bool(p["alive"]) for p in self.table.public().get("players") or []]

    def _decide(self) -> str:
        """"reissued", "cancelled" or "open", by the answers so far."""
        req = self._req
        assert req is not None
        voters = set(_voters(req, self._alive()))
        needed = len(voters) // 2 + 1
        if len(req.yes & voters) >= needed:
            req.reissued, req.until = True, self.table.clock() + self.show_s
            self._by_vote.setdefault(req.game, set()).add(req.seat)
            self._by_vote = {req.game: self._by_vote[req.game]}  # the current game's only
            self.table.reissue(req.seat)  # the old link and its streams end
            self._schedule()
            return "reissued"
        if len(voters) - len(req.no & voters) < needed:
            self._req = None
            return "cancelled"
        self._schedule()
        return "open"

    def _expire(self) -> bool:
        """Drop a request whose time is up, of another game, or whose new code
        was opened; True if one was dropped."""
        req, table = self._req, self.table
        if req is None:
            return False
        if (req.game != table.game or table.clock() >= req.until
                or (req.reissued and table.seating.claims[req.seat] is not None)):
            self._req = None
            return True
        return False

    def _answer(self, outcome: str) -> dict:
        return {"outcome": outcome, "lost_phone": self.aside(self._alive())}

    def _publish(self) -> None:
        if self.table.state is not None:
            self.table._publish()  # the table's own publish (we hold its lock)

    def _schedule(self) -> None:
        """A timer for the request's end (the table's clock is monotonic: its
        seconds are the timer's)."""
        req = self._req
        if self._timer is not None:
            self._timer.cancel()
        if req is None:
            return
        self._timer = threading.Timer(max(0.05, req.until - self.table.clock() + 0.05),
                                      self.check)
        self._timer.daemon = True
        self._timer.start()


def _voters(req: _Request, alive: Sequence[bool]) -> list[int]:
    """Who votes on the request: the living seats but the lost one."""
    return [s for s, a in enumerate(alive) if a and s != req.seat]
