"""`werewolf narrate [--lang ja|zh_Hant|en] [--data DIR | --out DIR]` [issue 20]: render
every fixed line the hub may say (every unit that names no player: a game's
lines with names are rendered from its deal on [issue 42]) to WAV files, and
print one JSON object last (without --lang: every language with a voice
here, each one's figures under "langs" [issue 42]):

    {"lines": N, "seconds": total spoken, "render_s": wall time, "engine": {lang: name},
     "bytes": size on disk, "out": DIR}

It fills the same cache the hub reads (the data folder's `speech/`) unless
`--out` names another folder, so running it once after an install makes the
hub's first game start with every call ready.
"""

from __future__ import annotations

import time
from pathlib import Path

from .cache import Cache
from .engines import SpeechError, engine_for, find
from .listed import fixed_lines


def status_lines() -> list[str]:
    """`werewolf doctor`'s speech lines: the engine of each language, or what
    it lacks (the hub then shows text only), and, when a voice is missing,
    the one command that installs them all, once [issue 42]."""
    from .engines import SPOKEN, install_command

    out = []
    for lang in SPOKEN:
        engine, why = find(lang)
        out.append(f"ok    speech {lang}: {engine.name}" if engine is not None else
                   f"FAIL  speech {lang}: {why}: narrated games show the text only")
    if any(line.startswith("FAIL") for line in out):
        out.append(f"      install the voices: {install_command()} && werewolf narrate "
                   "--data DIR (docs/play/narrated.md)")
    return out


def run_all(out: Path) -> dict:
    """`run` for every language with an engine here [issue 42] (`werewolf
    narrate --data DIR`, the install's second half): the figures summed, each
    language's under "langs". SpeechError when no language has one."""
    from .engines import SPOKEN

    langs = [lang for lang in SPOKEN if engine_for(lang) is not None]
    if not langs:
        raise SpeechError("no voice here: " + "; ".join(find(lang)[1] for lang in SPOKEN))
    each = {lang: run(lang, out) for lang in langs}
    return {"lines": sum(f["lines"] for f in each.values()),
            "seconds": round(sum(f["seconds"] for f in each.values()), 1),
            "render_s": round(sum(f["render_s"] for f in each.values()), 2),
            "engine": {lang: f["engine"][lang] for lang, f in each.items()},
            "bytes": Cache(out).size(), "out": str(out), "langs": each}


def run(lang: str, out: Path) -> dict:
    """Render `lang`'s fixed lines into `out`. SpeechError when the language
    has no engine here."""
    engine = engine_for(lang)
    if engine is None:
        raise SpeechError(find(lang)[1])
    cache = Cache(out)
    texts = fixed_lines(lang)
    start = time.perf_counter()
    seconds = 0.0
    for text in texts:
        seconds += cache.seconds(lang, text)
    return {"lines": len(texts), "seconds": round(seconds, 1),
            "render_s": round(time.perf_counter() - start, 2), "engine": {lang: engine.name},
            "bytes": cache.size(), "out": str(out)}
