"""Narrated mode [issue 20]: the hub speaks the game master's lines, so that
nobody has to give up playing to run the game.

    narration = Narration(table, Cache(data / "speech"))   # hooks itself to the table
    narration.timeline(after=-1)    # what the table screen plays, in order
    narration.audio(n)              # utterance n as one WAV

The narration follows the **public** view only: it is one of the table's
`public_hooks`, called with each new public view right after its commit, and
what it says is `companion.speech.spoken(previous view, view)`. So it can
say nothing the table screen does not show, and two games that differ only
in hidden cards say the same words at the same moments (the public view is
the non-interference proof's subject, tests/hub/test_secrecy.py).

Nothing is rendered in the hot path: the hook (under the table's lock) only
appends the sentences to the timeline and queues their pieces for one
background thread, which renders what the cache does not hold yet; the
fixed lines and the players' names are queued as soon as a game is dealt.
A table screen asks for an utterance's audio when its turn comes
(companion/hub/speech.py); the Pi's own speaker, when asked for
(`werewolf serve --speaker`), plays each in order from another thread.
Without an engine for the game's language the timeline still holds the
text (the pages show it) and there is no audio.
"""

from __future__ import annotations

import array
import queue
import shutil
import subprocess
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ..speech import Cache, SpeechError, clips, fixed_lines, spoken
from ..speech.engines import join_wavs, wav_bytes
from .table import Table

GAP_S = 0.25  # silence between the pieces of one sentence
KEEP = 400  # utterances kept (a long game says a few hundred)


@dataclass(frozen=True)
class Utterance:
    n: int  # its place in the game's timeline, from 0
    game: int
    lang: str
    text: str
    pieces: tuple[str, ...]
    at: float  # the table's clock when it was said

    def to_dict(self, ready: bool) -> dict:
        return {"n": self.n, "text": self.text, "at": round(self.at, 3), "ready": ready,
                "url": f"/api/speech/{self.game}/{self.n}.wav"}


def narrated(table: Table) -> bool:
    """The hub narrates the table's game (its setup's `narrated`): no game
    master sees its secrets. Under the table's lock (it reads the setup)."""
    return bool(table.setup.get("narrated"))


def cache_folder(table: Table) -> Path:
    """Where the rendered speech is kept: `speech/` in the data folder, beside the games."""
    return table.store.path.parent / "speech"


class Narration:
    def __init__(self, table: Table, cache: Cache,
                 speaker: Callable[[bytes], None] | None = None) -> None:
        self.table = table
        self.cache = cache
        self.volume = 1.0  # the host page's volume, 0-1 (the TV and the Pi's speaker)
        self._lock = threading.Condition()
        self._said: list[Utterance] = []
        self._game: int | None = None
        self._lang = "en"
        self._last: dict | None = None
        self._todo: queue.Queue[tuple[str, str]] = queue.Queue()
        self._worker: threading.Thread | None = None
        self._speaker = speaker
        self._played = 0
        self.sync()
        if speaker is not None:
            threading.Thread(target=self._speak, name="narration-speaker", daemon=True).start()

    # --- the hook (under the table's lock: cheap) ----------------------------------

    def sync(self) -> None:
        """Follow the public view only while the table's game is narrated: a
        public hook makes the table build the public view at every commit,
        which a game master's game need not pay for. Called when a game is
        dealt (companion/hub/speech.py) and at start (a resumed game)."""
        with self.table.lock:
            hooks = self.table.public_hooks
            if narrated(self.table) and self.hook not in hooks:
                hooks.append(self.hook)
                if self.table.state is not None:
                    self.hook(self.table.public())  # what it is saying now
            elif not narrated(self.table) and self.hook in hooks:
                hooks.remove(self.hook)

    def hook(self, view: dict) -> None:
        """A new public view was committed: say what changed."""
        if not narrated(self.table):
            return
        game = view.get("game")
        lang = str(view.get("language") or "en")
        names = [str(p.get("name")) for p in view.get("players") or []]
        with self._lock:
            if game != self._game:  # a new game: a new timeline, its names rendered ahead
                self._game, self._said, self._last, self._played = game, [], None, 0
                self._lang = lang
                self._prepare(lang, names)
            sentences = spoken(self._last, view, lang)
            self._last = view
            now = self.table.clock()
            for text in sentences:
                pieces = tuple(clips(text, names))
                if not pieces:
                    continue
                self._said.append(Utterance(len(self._said), int(game or 0), lang, text,
                                            pieces, now))
                for piece in pieces:
                    self._queue(lang, piece)
            if len(self._said) > KEEP:
                self._said = self._said[-KEEP:]
            self._lock.notify_all()

    def _prepare(self, lang: str, names: list[str]) -> None:
        for name in names:
            self._queue(lang, name)
        self._queue(lang, "")  # the fixed lines, after the names (see _render)

    def _queue(self, lang: str, text: str) -> None:
        if self.cache.engine(lang) is None:
            return  # text only
        self._todo.put((lang, text))
        if self._worker is None or not self._worker.is_alive():
            self._worker = threading.Thread(target=self._render, name="narration-render",
                                            daemon=True)
            self._worker.start()

    # --- rendering ahead (its own thread) ----------------------------------------------

    def _render(self) -> None:
        while True:
            try:
                lang, text = self._todo.get(timeout=5.0)
            except queue.Empty:
                return
            try:
                if text:
                    self.cache.get(lang, text)
                else:  # "" stands for every fixed line of the language
                    for line in fixed_lines(lang):
                        if not self._todo.empty():  # what a game says now comes first
                            self._todo.put((lang, ""))
                            break
                        self.cache.get(lang, line)
            except SpeechError as err:
                print(f"werewolf serve: speech: {err}", file=sys.stderr, flush=True)

    # --- what the pages ask -----------------------------------------------------------

    def secrets_closed(self) -> bool:
        """A narrated game is under way: nobody's page may see its secrets
        (the host's tablet included) until it is over."""
        with self.table.lock:
            state = self.table.state
            return narrated(self.table) and state is not None and state.phase != "over"

    def is_narrated(self) -> bool:
        with self.table.lock:
            return narrated(self.table)

    def current_game(self) -> int | None:
        with self.table.lock:
            return self.table.game

    def timeline(self, after: int = -1) -> dict:
        """The current game's utterances after `after`, with whether each one's
        audio is ready, and the volume."""
        with self._lock:
            said = [u for u in self._said if u.n > after]
            game, lang = self._game, self._lang
        return {"game": game, "narrated": self.is_narrated(), "volume": self.volume,
                "now": round(self.table.clock(), 3),
                "audio": self.cache.engine(lang) is not None,
                "said": [u.to_dict(all(self.cache.ready(u.lang, p) for p in u.pieces))
                         for u in said]}

    def utterance(self, game: int, n: int) -> Utterance | None:
        with self._lock:
            return next((u for u in self._said if u.game == game and u.n == n), None)

    def audio(self, u: Utterance) -> bytes:
        """The utterance as one WAV (its pieces from the cache, rendered now
        if the background thread has not got to them: only that request waits)."""
        return join_wavs([self.cache.get(u.lang, p) for p in u.pieces], GAP_S)

    def set_volume(self, volume: float) -> None:
        with self._lock:
            self.volume = max(0.0, min(1.0, volume))
            self._lock.notify_all()

    # --- the Pi's own speaker -----------------------------------------------------------

    def _speak(self) -> None:
        assert self._speaker is not None
        while True:
            with self._lock:
                u = self._unplayed()
                while u is None:
                    self._lock.wait()
                    u = self._unplayed()
                self._played = u.n + 1
                volume = self.volume
            try:
                self._speaker(scaled(self.audio(u), volume))
            except Exception as err:  # noqa: BLE001 - a speaker's failure never stops the game
                print(f"werewolf serve: speaker: {err}", file=sys.stderr, flush=True)


    def _unplayed(self) -> Utterance | None:
        return next((u for u in self._said if u.n >= self._played), None)


def scaled(data: bytes, volume: float) -> bytes:
    """A 16-bit WAV at `volume` (0-1)."""
    import io
    import wave

    if volume >= 0.999:
        return data
    with wave.open(io.BytesIO(data), "rb") as w:
        rate, frames = w.getframerate(), w.readframes(w.getnframes())
    samples = array.array("h", frames)
    samples = array.array("h", (int(s * volume) for s in samples))
    return wav_bytes(samples.tobytes(), rate)


def aplay() -> Callable[[bytes], None] | None:
    """The Pi's audio output through ALSA's `aplay` (alsa-utils), or None
    when this machine has none."""
    binary = shutil.which("aplay")
    if binary is None:
        return None

    def play(data: bytes) -> None:
        subprocess.run([binary, "-q", "-"], input=data, check=False, timeout=120,
                       capture_output=True)

    return play
