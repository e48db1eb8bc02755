"""The Pi's own speaker: ALSA's `aplay` (alsa-utils) [issues 20, 31].

`werewolf serve --speaker` plays each narrated line through `aplay` on the
machine's default ALSA output (hardware/install.sh sets `--speaker` when
`aplay -l` lists an output that is not HDMI: a headphone jack, a USB
speaker, an I2S board). A failing `aplay` never stops a game (the table
screen still speaks), but it is never silent either: its first stderr line
goes to the hub's log once (`journalctl -u werewolf`), again only when the
reason changes or after a line played, and the last failure is kept in the
data folder (`speech/speaker-failure.txt`) for `werewolf doctor`, which also
plays a moment of silence through `aplay` itself.
"""

from __future__ import annotations

import array
import io
import shutil
import subprocess
import sys
import time
import wave
from collections.abc import Callable
from pathlib import Path

from .engines import wav_bytes

#: the hub's last aplay failure, in its speech folder (`narration.cache_folder`)
FAILURE_FILE = "speaker-failure.txt"
TIMEOUT_S = 120.0


def why_failed(done: subprocess.CompletedProcess[bytes]) -> str:
    """One line: aplay's exit status and the first line it wrote to stderr."""
    text = (done.stderr or b"").decode("utf-8", "replace")
    first = next((line.strip() for line in text.splitlines() if line.strip()), "")
    return f"aplay exited {done.returncode}" + (f": {first[:200]}" if first else "")


def play(binary: str, data: bytes, timeout: float = TIMEOUT_S) -> str | None:
    """Plays WAV bytes through `aplay -q -`: None, or one line saying why not."""
    try:
        done = subprocess.run([binary, "-q", "-"], input=data, check=False,
                              timeout=timeout, capture_output=True)
    except (OSError, subprocess.TimeoutExpired) as err:
        return f"aplay: {err}"
    return why_failed(done) if done.returncode != 0 else None


class Aplay:
    """Plays WAV bytes through `aplay -q -`; a failure is one line in the log."""

    def __init__(self, binary: str, record: Path | None = None,
                 log: Callable[[str], None] | None = None) -> None:
        self.binary, self.record = binary, record
        self.log = log or (lambda line: print(line, file=sys.stderr, flush=True))
        self.last: str | None = None  # the failure last logged (None: the last line played)
        self.failures = 0

    def __call__(self, data: bytes) -> None:
        why = play(self.binary, data)
        if why is not None:
            self._failed(why)
        elif self.last is not None:
            self.last = None
            if self.record is not None:
                self.record.unlink(missing_ok=True)

    def _failed(self, why: str) -> None:
        self.failures += 1
        if why == self.last:
            return  # said once: every line of a game would say it again
        self.last = why
        self.log(f"werewolf serve: speaker: {why} (the table screen still speaks)")
        if self.record is not None:
            try:
                self.record.parent.mkdir(parents=True, exist_ok=True)
                stamp = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime())
                self.record.write_text(f"{stamp} {why}\n", encoding="utf-8")
            except OSError:
                pass  # a full card: the log has it


def find(record: Path | None = None) -> Aplay | None:
    """The machine's `aplay`, or None when alsa-utils is not installed."""
    binary = shutil.which("aplay")
    return Aplay(binary, record) if binary else None


def silence(seconds: float = 0.1, rate: int = 16000) -> bytes:
    out = io.BytesIO()
    with wave.open(out, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(b"\0\0" * int(rate * seconds))
    return out.getvalue()


def doctor_lines(speech_folder: Path | None = None) -> list[str]:
    """`werewolf doctor`'s speaker lines: aplay plays a moment of silence on
    the default output (or the one line saying why not), then the hub's own
    last failure, if one is kept. Never a failure of doctor's exit status: a
    narrated game falls back to the table screen."""
    binary = shutil.which("aplay")
    if binary is None:
        return ["note  speaker: no aplay (apt install alsa-utils): serve --speaker stays silent"]
    why = play(binary, silence(), timeout=20)
    lines = [f"FAIL  speaker: {why} (serve --speaker is silent; the table screen still speaks)"
             if why else "ok    speaker: aplay plays on ALSA's default output"]
    record = speech_folder / FAILURE_FILE if speech_folder is not None else None
    if record is not None and record.exists():
        kept = record.read_text(encoding="utf-8", errors="replace").strip()
        lines.append(f"FAIL  speaker: the hub's last aplay failure: {kept}")
    return lines


def clipped(data: bytes, start: float, end: float | None) -> bytes:
    """A WAV from `start` to `end` seconds (None: its end; the whole: as it is)."""
    with wave.open(io.BytesIO(data), "rb") as w:
        rate, width, channels, total = (w.getframerate(), w.getsampwidth(), w.getnchannels(),
                                        w.getnframes())
        first = int(start * rate)
        last = total if end is None else min(total, int(round(end * rate)))
        if first <= 0 and last >= total:
            return data
        w.setpos(min(first, total))
        frames = w.readframes(max(0, last - first))
    return wav_bytes(frames, rate, channels, width)


def scaled(data: bytes, volume: float) -> bytes:
    """A 16-bit WAV at `volume` (0-1)."""
    if volume >= 0.999:
        return data
    with wave.open(io.BytesIO(data), "rb") as w:
        rate, frames = w.getframerate(), w.readframes(w.getnframes())
    samples = array.array("h", frames)
    samples = array.array("h", (int(s * volume) for s in samples))
    return wav_bytes(samples.tobytes(), rate)
