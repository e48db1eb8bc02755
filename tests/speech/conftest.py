"""Speech tests share one cache per session: every fixed line of a language
is rendered once (Japanese takes ~25 s on the CI machine)."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.speech import Cache, engine_for
from companion.speech.engines import find

LANGS = ("ja", "zh_Hant", "en")


def need_engine(lang: str) -> None:
    """Skip, saying what to install, when this machine has no engine for `lang`
    (.ci/run installs them all: an absent engine there is a red test elsewhere)."""
    engine, why = find(lang)
    if engine is None:
        pytest.skip(f"no speech engine for {lang}: {why}")


@pytest.fixture(scope="session")
def speech_cache(tmp_path_factory: pytest.TempPathFactory) -> Cache:
    return Cache(Path(tmp_path_factory.mktemp("speech")))


@pytest.fixture(scope="session")
def engines() -> dict:
    return {lang: engine_for(lang) for lang in LANGS}
