"""The speech engines [issue 20]: one small interface, text and language in,
WAV bytes out, so that a better voice can be added later without touching
the rest.

    engine = engine_for("ja")        # None when no engine for it is installed
    wav = engine.render("夜が来ました。")

Every engine runs offline from packages a Raspberry Pi gets from Debian
(bookworm, aarch64 and armhf alike; see docs/play/narrated.md):
- Japanese: Open JTalk, Debian's `open-jtalk` with `open-jtalk-mecab-naist-jdic`
  and the voice `hts-voice-nitech-jp-atr503-m001` (contrib); or PyPI's
  `pyopenjtalk` family when it is importable and finds its dictionary without
  a download (not a dependency: `pyopenjtalk-plus` is 137 MB with onnxruntime
  and has no armv7l wheel);
- Mandarin (Traditional text): `pypinyin` turns the characters into numbered
  pinyin, which `espeak-ng -v cmn-latn-pinyin` reads with its tones
  (espeak-ng cannot read hanzi itself);
- English: `espeak-ng`.
Where an engine misreads the lines (Open JTalk's 3票 サンビョー, espeak-ng's
2票 er4), it is given the reading (JA_READINGS, ZH_COUNTED, ZH_READINGS; found
with Open JTalk's trace, `OpenJTalk.reading`, and espeak-ng's phonemes) [issue 29].
An engine is a subprocess per text; nothing is rendered in a request's hot
path (companion/speech/cache.py renders ahead).
"""

from __future__ import annotations

import io
import os
import re
import shutil
import subprocess
import tempfile
import wave
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from ..words import LANGUAGES

#: the languages the hub speaks: every language of the pages
SPOKEN = LANGUAGES
TIMEOUT_S = 60.0
JDIC_DIRS = ("/var/lib/mecab/dic/open-jtalk/naist-jdic", "/usr/share/open-jtalk/dic")
VOICE_GLOBS = ("/usr/share/hts-voice/*/*.htsvoice",)


class Engine(Protocol):
    """Text in one language → a WAV file's bytes (mono, 16-bit PCM)."""

    @property
    def lang(self) -> str: ...

    @property
    def name(self) -> str: ...  # engine, voice and speed: part of the cache's key

    def render(self, text: str) -> bytes: ...


class SpeechError(RuntimeError):
    """An engine failed on a text (its own message, shortened)."""


#: the engines run at a lower CPU priority than the hub [issue 42]: rendering a
#: game's lines ahead on a Pi's few cores must not slow a tap's answer
NICE = ["nice", "-n", "10"] if shutil.which("nice") else []


def _run(cmd: list[str], stdin: str | None = None) -> bytes:
    cmd = [*NICE, *cmd]
    try:
        done = subprocess.run(cmd, input=None if stdin is None else stdin.encode(),
                              capture_output=True, timeout=TIMEOUT_S, check=False)
    except (OSError, subprocess.TimeoutExpired) as err:
        raise SpeechError(f"{cmd[len(NICE)]}: {err}") from None
    if done.returncode != 0:
        raise SpeechError(f"{cmd[len(NICE)]}: exit {done.returncode}: "
                          f"{done.stderr.decode(errors='replace')[:200]}")
    return done.stdout


@dataclass(frozen=True)
class Espeak:
    """espeak-ng with one of its voices, the WAV on its standard output."""

    lang: str
    voice: str
    speed: int = 160  # words a minute (espeak's default 175 is quick for a table)
    binary: str = "espeak-ng"

    @property
    def name(self) -> str:
        return f"espeak-ng:{self.voice}:{self.speed}"

    def text_for(self, text: str) -> str:
        return text

    def render(self, text: str) -> bytes:
        raw = _run([self.binary, "-v", self.voice, "-s", str(self.speed), "--stdout",
                    self.text_for(text)])
        return normalised(raw)


class PinyinEspeak(Espeak):
    """Mandarin: the Traditional characters as numbered pinyin (pypinyin,
    offline), read by espeak-ng's pinyin voice with the right tones."""

    @property
    def name(self) -> str:
        return f"pypinyin+espeak-ng:{self.voice}:{self.speed}:{READINGS_VERSION}"

    def text_for(self, text: str) -> str:
        return to_pinyin(text)


#: part of the Japanese and Mandarin engines' names (the cache's key): a line
#: whose reading was corrected [issue 29] renders afresh
READINGS_VERSION = "r2"  # r2 [issue 42]: 白狼 ハクロー, no pause before a count
#: a counted 1 or 2 is 一 or 兩 ("兩票", liang3, not er4 as espeak-ng reads the
#: digit) [issue 29]; 12, 20 or 第2 stay as they are
ZH_COUNTED = re.compile(r"(?<![0-9第.])([12])(?![0-9.])(?=[票人名張次個位]|分鐘)")
#: where pypinyin's reading of the lines is wrong, the right one [issue 29]
#: (checked word by word): 樂師 the musician is yue4, 活著 zhe5, 成為 作為 wei2,
#: 處決 處死 chu3, 回應 ying4
ZH_READINGS = {"樂師": "yue4 shi1", "活著": "huo2 zhe5", "成為": "cheng2 wei2",
               "作為": "zuo4 wei2", "處決": "chu3 jue2", "處死": "chu3 si3",
               "回應": "hui2 ying4"}
#: 一 and 不 change tone before another syllable (yi4 ming2, yi2 piao4, bu2 bei4);
#: pypinyin does not, and espeak-ng reads the tones it is given
ZH_SANDHI = re.compile(r"(^|[^第0-9十])([一不])(?=[\u4e00-\u9fff])")


def _sandhi(text: str) -> str:
    from pypinyin import Style, lazy_pinyin

    def tone_of(after: str) -> str:
        return lazy_pinyin(after[:1], style=Style.TONE3, neutral_tone_with_five=True)[0][-1:]

    out, at = [], 0
    for m in ZH_SANDHI.finditer(text):
        tone = tone_of(text[m.end():])
        if m.group(2) == "一":
            said = "yi2" if tone == "4" else "yi4" if tone in "123" else "yi1"
        else:
            said = "bu2" if tone == "4" else "bu4"
        out += [text[at:m.start(2)], f" {said} "]
        at = m.end()
    return "".join(out) + text[at:]


def to_pinyin(text: str) -> str:
    """"天黑請閉眼。" → "tian1 hei1 qing3 bi4 yan3 ." (the neutral tone as 5);
    Latin names and digits pass through (espeak-ng reads them in Mandarin),
    a counted 1 or 2 is 一 or 兩, the words pypinyin misreads are given their
    reading (ZH_READINGS), 一 and 不 take their tone sandhi, Chinese
    punctuation becomes a pause."""
    from pypinyin import Style, lazy_pinyin

    text = ZH_COUNTED.sub(lambda m: "一" if m.group(1) == "1" else "兩", text)
    for word, said in ZH_READINGS.items():
        text = text.replace(word, f" {said} ")
    text = _sandhi(text)
    pauses = str.maketrans({"，": " , ", "、": " , ", "。": " . ", "：": " : ", "；": " ; ",
                            "！": " ! ", "？": " ? ", "「": " ", "」": " ", "（": " ", "）": " ",
                            "『": " ", "』": " ", "…": " . "})
    words = lazy_pinyin(text.translate(pauses), style=Style.TONE3,
                        neutral_tone_with_five=True, errors="default")
    return re.sub(r"\s+", " ", " ".join(words)).strip()


#: where Open JTalk (naist-jdic) misreads the lines, the reading it should say
#: [issue 29], checked with its trace (`OpenJTalk.reading`): 3票 is さんぴょう,
#: not サンビョー (13票, 23票 alike); 第1夜 is だいいちや, not ダイヒトヤ; the
#: scapegoat 嫌われ者 is きらわれもの, not キラワレシャ; 笛吹き is ふえふき, not
#: ウスイキ ("笛吹きの勝利"); [issue 42] the white werewolf 白狼 is はくろう, not
#: シロオーカミ; a space before a count ("あかりさん 3票") is no pause
JA_READINGS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"([0-9]*3)票"), r"\1ピョー"),
    (re.compile(r"第([0-9]+)夜"), r"第\1ヤ"),
    (re.compile("嫌われ者"), "キラワレモノ"),
    (re.compile("笛吹き"), "フエフキ"),
    (re.compile("白狼"), "ハクロー"),
    (re.compile(r"(?<=[^\x00-\x7f]) +(?=[0-9])"), ""),
)


def ja_text(text: str) -> str:
    """The text as a Japanese engine is given it: the readings it gets wrong
    written as it should say them, lines joined as sentences."""
    for pattern, reading in JA_READINGS:
        text = pattern.sub(reading, text)
    return text.replace("\n", "。")


@dataclass(frozen=True)
class OpenJTalk:
    """Debian's `open_jtalk` with the naist-jdic dictionary and an HTS voice."""

    dictionary: str
    voice: str
    lang: str = "ja"
    binary: str = "open_jtalk"
    speed: float = 1.2  # a call and its sleep line fit a 20 s window (tests/speech)
    rate: int = 24000  # the voices are 48 kHz: half the files, the same speech (a TV's speaker)

    @property
    def name(self) -> str:
        return (f"open_jtalk:{Path(self.voice).stem}:{self.speed}:{self.rate}:"
                f"{READINGS_VERSION}")

    def _cmd(self, out: str) -> list[str]:
        return [self.binary, "-x", self.dictionary, "-m", self.voice, "-r", str(self.speed),
                "-s", str(self.rate), "-p", str(self.rate // 200), "-ow", out]

    def render(self, text: str) -> bytes:
        with tempfile.TemporaryDirectory(prefix="werewolf-jtalk-") as tmp:
            out = os.path.join(tmp, "out.wav")
            _run(self._cmd(out), stdin=ja_text(text))
            return Path(out).read_bytes()

    def trace(self, text: str) -> str:
        """Open JTalk's trace of the text as it renders it (`-ot`): its text
        analysis (each word with its reading and accent) and its labels."""
        with tempfile.TemporaryDirectory(prefix="werewolf-jtalk-") as tmp:
            out = os.path.join(tmp, "trace.txt")
            _run([*self._cmd(os.devnull), "-ot", out], stdin=ja_text(text))
            return Path(out).read_text(encoding="utf-8", errors="replace")

    def reading(self, text: str) -> str:
        """What Open JTalk says for the text, in katakana (its trace's
        pronunciations, "、" for a pause): "3票" → "サンピョー"."""
        analysis = self.trace(text).split("[Text analysis result]")[-1]
        analysis = analysis.split("[Output label]")[0]
        fields = [line.split(",") for line in analysis.strip().splitlines()]
        return "".join(f[9] for f in fields if len(f) > 9)


@dataclass(frozen=True)
class PyOpenJTalk:
    """pyopenjtalk (or pyopenjtalk-plus, which bundles its dictionary and the
    Mei voice), in process."""

    lang: str = "ja"
    name: str = f"pyopenjtalk:{READINGS_VERSION}"

    def render(self, text: str) -> bytes:
        import pyopenjtalk  # type: ignore[import-not-found]

        samples, rate = pyopenjtalk.tts(ja_text(text))  # floats at 16-bit scale
        pcm = samples.clip(-32768, 32767).astype("<i2").tobytes()
        return wav_bytes(pcm, int(rate))


def wav_bytes(pcm: bytes, rate: int, channels: int = 1, width: int = 2) -> bytes:
    out = io.BytesIO()
    with wave.open(out, "wb") as w:
        w.setnchannels(channels)
        w.setsampwidth(width)
        w.setframerate(rate)
        w.writeframes(pcm)
    return out.getvalue()


def normalised(data: bytes) -> bytes:
    """The same WAV with its header's sizes filled in: espeak-ng's --stdout
    leaves them unset (it cannot seek a pipe)."""
    with wave.open(io.BytesIO(data), "rb") as w:
        params = (w.getnchannels(), w.getsampwidth(), w.getframerate())
        frames = w.readframes(2**31 - 1)
    return wav_bytes(frames, params[2], params[0], params[1])


def wav_seconds(data: bytes) -> float:
    """A WAV file's length in seconds (wave.Error for anything that is not one)."""
    with wave.open(io.BytesIO(data), "rb") as w:
        return w.getnframes() / float(w.getframerate())


def join_wavs(parts: Iterable[bytes], gap_s: float | Sequence[float] = 0.0) -> bytes:
    """One WAV of several (same engine: same format), `gap_s` of silence
    between them (one length, or the one after each part)."""
    pcm: list[bytes] = []
    params: tuple[int, int, int] | None = None
    gaps = list(gap_s) if isinstance(gap_s, Sequence) else None
    for i, data in enumerate(parts):
        gap = (gaps[i - 1] if gaps is not None and 0 < i <= len(gaps) else
               0.0 if gaps is not None else float(gap_s))  # type: ignore[arg-type]
        with wave.open(io.BytesIO(data), "rb") as w:
            here = (w.getnchannels(), w.getsampwidth(), w.getframerate())
            frames = w.readframes(w.getnframes())
        if params is None:
            params = here
        elif here != params:
            raise SpeechError(f"cannot join WAVs of {here} and {params}")
        if pcm and gap > 0:
            pcm.append(b"\0" * int(params[2] * gap) * params[0] * params[1])
        pcm.append(frames)
    channels, width, rate = params or (1, 2, 22050)
    return wav_bytes(b"".join(pcm), rate, channels, width)


# --- which engine, here -------------------------------------------------------------

#: the command that installs every voice [issue 29 item 5]:
#: hardware/install-voices.sh, which enables Debian's contrib where the Japanese
#: voice needs it (docs/play/narrated.md gives the packages by hand)
VOICES_SCRIPT = Path(__file__).resolve().parents[2] / "hardware" / "install-voices.sh"
VOICE_PACKAGES = "espeak-ng open-jtalk open-jtalk-mecab-naist-jdic hts-voice-nitech-jp-atr503-m001"


def install_command() -> str:
    """What to run to install the voices (`werewolf doctor` says it once
    [issue 42], the README): the script, by its path in this checkout, else
    as the hub's repository holds it."""
    if VOICES_SCRIPT.exists():
        return f"sudo {VOICES_SCRIPT}"
    return "sudo hardware/install-voices.sh (in the hub's git checkout)"


def _japanese() -> tuple[Engine | None, str]:
    if shutil.which("open_jtalk"):
        dic = next((d for d in JDIC_DIRS if Path(d, "sys.dic").exists()), None)
        voices = sorted(str(p) for g in VOICE_GLOBS for p in Path("/").glob(g.lstrip("/")))
        if dic is None:
            return None, "open_jtalk has no dictionary (open-jtalk-mecab-naist-jdic)"
        if voices:
            return OpenJTalk(dic, voices[0]), ""
        missing = "open_jtalk has no voice (hts-voice-nitech-jp-atr503-m001, in Debian's contrib)"
    else:
        missing = "no Japanese voice (Open JTalk)"
    try:  # pyopenjtalk with its dictionary already there (no download at run time)
        import pyopenjtalk

        if os.environ.get("OPEN_JTALK_DICT_DIR") or Path(
                str(getattr(pyopenjtalk, "OPEN_JTALK_DICT_DIR", b"") or b"", "utf-8")).exists():
            return PyOpenJTalk(), ""
    except Exception:  # noqa: BLE001 - not installed, or it would download
        pass
    return None, missing


def _espeak(lang: str) -> tuple[Engine | None, str]:
    binary = shutil.which("espeak-ng")
    if binary is None:
        return None, "no espeak-ng"
    if lang == "zh_Hant":
        try:
            import pypinyin  # noqa: F401
        except ImportError:
            return None, "no pypinyin: pip install pypinyin (or apt install python3-pypinyin)"
        return PinyinEspeak("zh_Hant", "cmn-latn-pinyin", speed=150), ""
    return Espeak("en", "en-gb", speed=160), ""


def find(lang: str) -> tuple[Engine | None, str]:
    """The best engine installed for `lang`, or None and what to install."""
    if lang not in SPOKEN:
        return None, f"no speech for language {lang!r}"
    return _japanese() if lang == "ja" else _espeak(lang)


_FOUND: dict[str, tuple[Engine | None, str]] = {}


def engine_for(lang: str) -> Engine | None:
    """`find`, once per process (the engines do not come and go)."""
    if lang not in _FOUND:
        _FOUND[lang] = find(lang)
    return _FOUND[lang][0]


def missing() -> dict[str, str]:
    """Each language without an engine, with the line that installs one
    (`werewolf doctor`)."""
    out = {}
    for lang in SPOKEN:
        engine, why = find(lang)
        if engine is None:
            out[lang] = why
    return out
