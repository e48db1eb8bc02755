"""The GM's seat is paired, not printed [issue 17 item 2].

The long-lived GM token is shown only in the terminal (and kept in
`DIR/gm-token`, 0600); scripts send it as `Authorization: Bearer <token>`,
and `/gm?token=<token>` pairs a tablet from it. What the table's display
shows, where any player can photograph it, is a **pairing link**
`/gm/pair/<code>`: good for 10 minutes and for one tablet. Opening it sets
the tablet's `gm` cookie to a session of its own (a fresh 128-bit secret;
the hub keeps only its SHA-256, in `DIR/gm-sessions`, 0600, bound to the
token's own digest, so a paired tablet stays paired across a restart and a
new token ends every session). Once a tablet is paired the display
shows no more links: a second tablet is paired from the first ("pair
another tablet" makes a new link and its QR code). Rotating the token
(`werewolf serve --new-gm-token`, or the GM tablet's button) ends every
session and every link but the rotating tablet's own.

Clocks [issue 30 item 6]: a pairing link's 10 minutes run on the monotonic
clock (`clock`, `time.monotonic` unless given: the table's own), so the wall
clock set at boot or by NTP neither ends a fresh link (a +11 min step did)
nor lengthens an old one. Links live in memory only: a restart ends them,
and the display shows a new one. A paired tablet's session has no idle limit
and reads no clock: it ends with a rotation or when a 17th tablet unpairs
the oldest, so it survives a restart (the sessions file) whatever either
clock says.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
import threading
import time
from collections.abc import Callable
from pathlib import Path

#: how long a pairing link may wait for its tablet
PAIR_S = 600.0
#: tablets paired at once (each reload of the terminal's URL pairs one more)
MAX_SESSIONS = 16


def _digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def write_private(path: Path, text: str) -> None:
    """Write `text` to `path`, readable by its owner only, replacing it whole."""
    spare = path.with_name(path.name + ".new")
    fd = os.open(spare, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)
    os.chmod(spare, 0o600)
    os.replace(spare, path)


class GmSeat:
    """The GM token, the tablets it paired and the pairing links waiting."""

    def __init__(self, token: str, folder: Path | None = None,
                 clock: Callable[[], float] | None = None) -> None:
        """`folder`: where `gm-token` and `gm-sessions` are kept (None: in
        memory). `clock`: the pairing links' (None: time.monotonic)."""
        self.token = token
        self.folder = folder
        self.clock = clock if clock is not None else time.monotonic
        self._lock = threading.Lock()
        #: SHA-256 of each tablet's secret, oldest first (a dict as an ordered set)
        self._sessions: dict[str, None] = dict.fromkeys(self._load())
        self._codes: dict[str, float] = {}  # pairing code -> when it expires (self.clock)
        self._display: str | None = None  # the code the display shows now
        #: called with the new token after a rotation (the terminal prints it)
        self.on_rotate: Callable[[str], None] | None = None
        #: called with the number of paired tablets after each pairing
        self.on_pair: Callable[[int], None] | None = None
        #: called once tablets were unpaired (a rotation, or the oldest past
        #: MAX_SESSIONS): the hub ends the GM streams open, so an unpaired
        #: tablet is sent nothing more (the paired ones follow again)
        self.on_unpair: Callable[[], None] | None = None
        self._unpaired = False  # sessions dropped since on_unpair was last called

    # --- who is the GM --------------------------------------------------------

    def is_token(self, given: str | None) -> bool:
        return given is not None and hmac.compare_digest(given.encode(), self.token.encode())

    def is_session(self, given: str | None) -> bool:
        if not given:
            return False
        with self._lock:
            return _digest(given) in self._sessions

    @property
    def paired(self) -> int:
        """How many tablets hold a session (the GM sees it: one more than
        his own means someone else paired, and he rotates the token)."""
        with self._lock:
            return len(self._sessions)

    # --- pairing ----------------------------------------------------------------

    def new_code(self) -> tuple[str, float]:
        """A pairing code for one tablet, and when it expires (on `clock`)."""
        with self._lock:
            return self._new_code()

    def _new_code(self) -> tuple[str, float]:
        now = self.clock()
        self._codes = {c: t for c, t in self._codes.items() if t > now}
        code = secrets.token_urlsafe(16)
        self._codes[code] = now + PAIR_S
        return code, now + PAIR_S

    def redeem(self, code: str) -> str | None:
        """A new session for the tablet that opened pairing link `code`, if
        the link is still good (used once, then never again); else None."""
        with self._lock:
            expires = self._codes.pop(code, None)
            if expires is None or expires <= self.clock():
                return None
            if code == self._display:
                self._display = None
            session = self._new_session()
        self._told()
        return session

    def session_for(self, token: str) -> str | None:
        """A new session for a tablet that opened the terminal's `/gm?token=`."""
        if not self.is_token(token):
            return None
        with self._lock:
            session = self._new_session()
        self._told()
        return session

    def _told(self) -> None:
        if self.on_pair is not None:
            self.on_pair(self.paired)
        self._tell_unpaired()

    def _tell_unpaired(self) -> None:
        with self._lock:
            unpaired, self._unpaired = self._unpaired, False
        if unpaired and self.on_unpair is not None:
            self.on_unpair()

    def _new_session(self) -> str:
        secret = secrets.token_urlsafe(16)
        self._sessions[_digest(secret)] = None
        while len(self._sessions) > MAX_SESSIONS:  # the oldest tablet is unpaired
            del self._sessions[next(iter(self._sessions))]
            self._unpaired = True
        self._save()
        return secret

    def display_code(self) -> str | None:
        """The code the table's display shows: one standing link while no
        tablet is paired (a new one when it was used or expired), none after."""
        with self._lock:
            if self._sessions:
                return None
            now = self.clock()
            if self._display is None or self._codes.get(self._display, 0) <= now:
                self._display = self._new_code()[0]
            return self._display

    # --- rotation ---------------------------------------------------------------

    def rotate(self, keep: str | None = None) -> tuple[str, str | None]:
        """A new token; every session and pairing link ends but `keep`, the
        asking tablet's own session when it has one (its cookie and stream stay
        good: a new session would race its stream's reconnection, which then
        reloaded the page). Answers the token and a new session for an asking
        tablet that had none of its own (its cookie held the old token), else None."""
        with self._lock:
            kept = _digest(keep) if keep and _digest(keep) in self._sessions else None
            self.token = secrets.token_urlsafe(16)
            self._unpaired = True  # and the old token: its scripts' streams end too
            self._sessions = {kept: None} if kept else {}
            self._codes.clear()
            self._display = None
            if self.folder is not None:
                write_private(self.folder / "gm-token", self.token + "\n")
            if kept:
                self._save()
            session = None if kept else self._new_session()
            token = self.token
        if self.on_rotate is not None:
            self.on_rotate(token)
        self._tell_unpaired()
        return token, session

    # --- the sessions file ------------------------------------------------------

    def _load(self) -> list[str]:
        """The sessions paired under this token (none if the token changed)."""
        if self.folder is None:
            return []
        try:
            doc = json.loads((self.folder / "gm-sessions").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return []
        if not isinstance(doc, dict) or doc.get("token") != _digest(self.token):
            return []
        sessions = doc.get("sessions")
        return [s for s in sessions if isinstance(s, str)] if isinstance(sessions, list) else []

    def _save(self) -> None:
        if self.folder is not None:
            doc = {"token": _digest(self.token), "sessions": list(self._sessions)}
            write_private(self.folder / "gm-sessions", json.dumps(doc))
