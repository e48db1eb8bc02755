"""`werewolf narrate --lang ja|zh_Hant|en [--out DIR]` [issue 20]: render
every fixed line the hub may say (every unit that names no player: a game's
lines with names are rendered from its deal on [issue 42]) to WAV files, and
print one JSON object last:

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
from .lines import fixed_lines


def status_lines() -> list[str]:
    """`werewolf doctor`'s speech lines: the engine of each language, or one
    clear line saying what to install (the hub then shows text only)."""
    from .engines import SPOKEN

    out = []
    for lang in SPOKEN:
        engine, why = find(lang)
        out.append(f"ok    speech {lang}: {engine.name}" if engine is not None else
                   f"FAIL  speech {lang}: {why} (narrated games show the text only)")
    return out


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
