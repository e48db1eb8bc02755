"""Speech tests share one cache per session: every fixed line of a language
is rendered once (Japanese takes ~25 s on the CI machine)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from companion.hub import create_app
from companion.speech import Cache, engine_for
from companion.speech.engines import find, wav_bytes
from companion.store import Store
from companion.table import Table

LANGS = ("ja", "zh_Hant", "en")
TOKEN = "host-token"  # the hub's GM token, which a narrated game's host holds
AUTH = {"Authorization": f"Bearer {TOKEN}"}
#: a narrated 8-player game of the voice's tests (test_voice_clock, test_screen_waits)
PLAYERS = ["Ann", "Bob", "Cleo", "Dan", "Eve", "Finn", "Gus", "Hana"]
ROLES = ["werewolf", "villager", "seer", "witch", "werewolf", "villager", "villager", "villager"]


class Tone:
    """A voice whose lines last 0.05 s a letter: lengths known to the test."""

    lang, name = "en", "tone"

    def render(self, text: str) -> bytes:
        return wav_bytes(b"\x00\x10" * (800 * len(text)), 16000)


class FakeClock:
    """The table's clock, moved by the test."""

    def __init__(self) -> None:
        self.t = 1_000_000.0

    def __call__(self) -> float:
        return self.t


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def app(tmp_path: Path, clock: FakeClock):  # type: ignore[no-untyped-def]
    """A hub on a fake clock, its speech rendered into the test's folder."""
    table = Table(Store(tmp_path / "games.sqlite3"), clock=clock, rng=random.Random(7))
    app = create_app(table, TOKEN, {"TESTING": True, "HEARTBEAT_S": 0.05,
                                    "SPEECH_DIR": tmp_path / "speech"})
    yield app
    app.extensions["narration"].close()  # its lines stop rendering [issue 42]


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
