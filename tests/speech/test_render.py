"""Every fixed line renders offline, in each language, to a valid WAV of a
plausible length [issue 20: "A test renders every fixed line in each language
offline ... and checks each file is valid audio of a plausible length"]."""

from __future__ import annotations

import io
import re
import wave
from pathlib import Path

import pytest
from slowness import wait_s

from companion.speech import Cache, fixed_lines
from companion.speech.engines import to_pinyin, wav_seconds
from companion.speech.lines import SAMPLE_NAMES

from .conftest import LANGS, need_engine


def plausible(lang: str, text: str) -> tuple[float, float]:
    """(shortest, longest) seconds a text may take: a spoken character takes
    0.03-0.5 s (a Japanese mora at 1.2x to a slow Chinese syllable)."""
    chars = len(re.sub(r"\W", "", text))
    if lang == "en":
        return 0.15 + 0.02 * chars, 1.5 + 0.2 * chars  # "5" says "five"
    return 0.15 + 0.03 * chars, 1.0 + 0.5 * chars


@pytest.mark.parametrize("lang", LANGS)
def test_every_fixed_line_renders_to_a_wav_of_plausible_length(lang: str,
                                                               speech_cache: Cache) -> None:
    need_engine(lang)
    texts = fixed_lines(lang) + SAMPLE_NAMES[lang]
    assert len(texts) > 60  # every call of every ruleset, the day's lines, the names
    for text in texts:
        data = speech_cache.get(lang, text)
        with wave.open(io.BytesIO(data), "rb") as w:  # a valid WAV: header and frames agree
            assert w.getsampwidth() == 2 and w.getnchannels() == 1
            assert w.getframerate() >= 16000
            assert len(w.readframes(w.getnframes())) == w.getnframes() * 2
        low, high = plausible(lang, text)
        assert low <= wav_seconds(data) <= high, (text, wav_seconds(data))
        assert speech_cache.ready(lang, text)
    # rendered once: the second ask reads the file
    path = speech_cache.path(lang, texts[0])
    assert path is not None and path.read_bytes() == speech_cache.get(lang, texts[0])


def test_traditional_chinese_is_read_with_numbered_tones() -> None:
    """[issue 20]: espeak-ng reads numbered pinyin with its tones; pypinyin
    converts Traditional characters offline."""
    pytest.importorskip("pypinyin")
    assert to_pinyin("天黑請閉眼。") == "tian1 hei1 qing3 bi4 yan3 ."
    assert to_pinyin("狼人請睜眼，Ann") == "lang2 ren2 qing3 zheng1 yan3 , Ann"


def test_a_new_voice_renders_afresh(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The cache's key holds the engine's name and voice: nothing stale is played."""

    class Fake:
        lang = "en"

        def __init__(self, name: str) -> None:
            self.name = name

        def render(self, text: str) -> bytes:
            from companion.speech.engines import wav_bytes
            return wav_bytes(b"\0\0" * (100 if self.name == "a" else 200), 16000)

    one = Cache(tmp_path, {"en": Fake("a")})
    two = Cache(tmp_path, {"en": Fake("b")})
    assert one.path("en", "x") != two.path("en", "x")
    assert len(one.get("en", "x")) != len(two.get("en", "x"))
    assert Cache(tmp_path, {"en": None}).path("en", "x") is None


def test_narrate_prints_one_json_object_last(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """[issue 20]: `werewolf narrate --lang en --out DIR` renders every fixed
    line and a sample of names to WAV files and prints
    {"lines", "seconds", "render_s", "engine": {lang: name}} last."""
    import json
    import subprocess
    import sys

    need_engine("en")
    proc = subprocess.run([sys.executable, "-m", "companion.cli", "narrate", "--lang", "en",
                           "--out", str(tmp_path)], capture_output=True, text=True,
                          timeout=wait_s(300))
    assert proc.returncode == 0, proc.stderr
    figures = json.loads(proc.stdout.strip().splitlines()[-1])
    assert figures["lines"] == len(list(tmp_path.rglob("*.wav"))) > 60
    assert figures["seconds"] > 60 and figures["render_s"] > 0
    assert figures["engine"]["en"].startswith("espeak-ng")


def test_doctor_names_each_speech_engine_or_what_to_install() -> None:
    """[issue 20]: a missing engine is one clear line in `werewolf doctor`."""
    from companion.speech.engines import find
    from companion.speech.narrate import status_lines

    lines = status_lines()
    assert len(lines) in (len(LANGS), len(LANGS) + 1)  # and the voices' command once [issue 42]
    for lang, line in zip(("en", "ja", "zh_Hant"), lines[:len(LANGS)], strict=True):
        engine, why = find(lang)
        assert f"speech {lang}: " in line
        assert (engine.name in line) if engine is not None else (why in line and "text" in line)


def test_narrate_without_a_language_renders_every_voice_here(tmp_path: Path) -> None:
    """[issue 42] item 4: the install is `sudo hardware/install-voices.sh &&
    werewolf narrate --data DIR`: without --lang, every language with a voice
    here is rendered, each one's figures under "langs"."""
    from unittest import mock

    from companion.speech import narrate
    from companion.speech.engines import wav_bytes

    class Tone:
        lang, name = "en", "tone"

        def render(self, text: str) -> bytes:
            return wav_bytes(b"\x00\x10" * (100 * len(text)), 16000)

    def only_english(lang: str) -> object:
        return Tone() if lang == "en" else None

    with mock.patch("companion.speech.narrate.engine_for", only_english), \
            mock.patch("companion.speech.cache.engine_for", only_english):
        got = narrate.run_all(tmp_path)
    assert set(got["langs"]) == {"en"} and got["engine"] == {"en": "tone"}
    assert got["lines"] == got["langs"]["en"]["lines"] > 50
