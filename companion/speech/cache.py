"""The rendered speech, kept on disk [issue 20]: each text is rendered once
per language and voice, into the data folder, so the hub never renders a
fixed line twice and a game's first call is ready before it is made.

    cache = Cache(data / "speech")
    cache.get("ja", "夜が来ました。")      # WAV bytes, rendered now if missing
    cache.ready("ja", text)              # already on disk?
    cache.known("ja", text)              # its length if on disk, else None: never renders
    cache.read("ja", text)               # its WAV if on disk, else NotRendered

The key is a hash of (language, the engine's name with its voice and speed,
the text): a new voice renders afresh, nothing stale is played. Files are
written whole (a temporary file renamed), so a reader never sees half a WAV
and two threads rendering the same text at once both end with a good file.
"""

from __future__ import annotations

import hashlib
import os
import threading
from pathlib import Path

from .engines import Engine, SpeechError, engine_for, wav_seconds


class NotRendered(SpeechError):
    """The text is not on disk yet (the background thread has not got to it)."""


class Cache:
    def __init__(self, folder: Path, engines: dict[str, Engine | None] | None = None) -> None:
        self.folder = Path(folder)
        self._engines = engines  # None: the engines found on this machine
        self._lock = threading.Lock()
        self._seconds: dict[str, float] = {}

    def engine(self, lang: str) -> Engine | None:
        if self._engines is not None:
            return self._engines.get(lang)
        return engine_for(lang)

    def path(self, lang: str, text: str) -> Path | None:
        """Where the text's WAV is (or would be); None without an engine."""
        engine = self.engine(lang)
        if engine is None:
            return None
        key = hashlib.sha256(f"{lang}\0{engine.name}\0{text}".encode()).hexdigest()[:32]
        return self.folder / lang / f"{key}.wav"

    def ready(self, lang: str, text: str) -> bool:
        path = self.path(lang, text)
        return path is not None and path.exists()

    def known(self, lang: str, text: str) -> float | None:
        """The text's spoken length if it is on disk (remembered), else None:
        never renders, so the table may ask under its lock [issue 42]."""
        path = self.path(lang, text)
        if path is None:
            return None
        key = str(path)
        with self._lock:
            if key in self._seconds:
                return self._seconds[key]
        try:
            got = wav_seconds(path.read_bytes())
        except FileNotFoundError:
            return None
        except Exception:  # noqa: BLE001 - not a WAV: not known (the audio would fail too)
            return None
        with self._lock:
            self._seconds[key] = got
        return got

    def read(self, lang: str, text: str) -> bytes:
        """The text's WAV from disk; NotRendered if it is not there (never renders)."""
        path = self.path(lang, text)
        if path is None:
            raise SpeechError(f"no speech engine for {lang!r}")
        try:
            return path.read_bytes()
        except FileNotFoundError:
            raise NotRendered(f"not rendered yet: {text[:40]!r}") from None

    def get(self, lang: str, text: str) -> bytes:
        """The text's WAV, rendered (and kept) if it is not on disk yet.
        SpeechError without an engine or when the engine fails."""
        path = self.path(lang, text)
        engine = self.engine(lang)
        if path is None or engine is None:
            raise SpeechError(f"no speech engine for {lang!r}")
        try:
            return path.read_bytes()
        except FileNotFoundError:
            pass
        data = engine.render(text)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f"{path.stem}.{os.getpid()}.{threading.get_ident()}.tmp")
        tmp.write_bytes(data)
        os.replace(tmp, path)
        with self._lock:
            self._seconds[str(path)] = wav_seconds(data)
        return data

    def seconds(self, lang: str, text: str) -> float:
        """The text's spoken length (renders it if needed), remembered."""
        path = self.path(lang, text)
        key = str(path)
        with self._lock:
            if key in self._seconds:
                return self._seconds[key]
        got = wav_seconds(self.get(lang, text))
        with self._lock:
            self._seconds[key] = got
        return got

    def size(self) -> int:
        """Bytes on disk."""
        return sum(p.stat().st_size for p in self.folder.rglob("*.wav"))
