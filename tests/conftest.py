import os
import random
import sys
from pathlib import Path

import pytest
from hypothesis import settings

sys.path.insert(0, str(Path(__file__).parent))

import slowness  # noqa: E402  (tests/ on the path first)
from helpers import FakeClock  # noqa: E402

from companion.store import Store  # noqa: E402
from companion.table import Table  # noqa: E402

# The suite starts `werewolf serve` a few hundred times, each on a fresh data
# folder (test_crash alone 57 times, killed mid-start): none builds the
# manual at start, as a Pi's hub does once after an install (a build is
# seconds of CPU beside the other worker); /help still builds it on its
# first ask, and tests/docs builds and serves it [issue 32].
os.environ["WEREWOLF_MANUAL_AT_START"] = "0"

# CI replays the same examples every run (a red run must mean a real change);
# locally each run explores new ones.
settings.register_profile("ci", derandomize=True)
if os.environ.get("CI"):
    settings.load_profile("ci")


def pytest_configure(config: pytest.Config) -> None:
    """The machine's slowness, measured once by the session's main process
    before its workers start; they inherit it (tests/slowness.py)."""
    slowness.hand_down(slowness.slowness())


def pytest_report_header(config: pytest.Config) -> str:
    return slowness.slowness().describe()


def pytest_collection_modifyitems(items: list) -> None:
    """The browser tests first: each takes seconds to a minute, most of it
    waiting on a real clock, so with two workers (`pytest -n 2`, whose
    scheduler hands tests out in this order) the many short tests fill in
    around them instead of one worker finishing a long tail alone. The order
    is the only change: every test is as independent as before."""
    items.sort(key=lambda item: 0 if f"{os.sep}web{os.sep}" in str(item.path) else 1)


# --- the table: tests/table and tests/hub both play on it ------------------------


@pytest.fixture
def clock() -> FakeClock:
    """Time as an input: `clock.t += 30` then `table.tick()`."""
    return FakeClock()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "games.sqlite3"


@pytest.fixture
def table(db_path: Path, clock: FakeClock) -> Table:
    """A Table over a real SQLite file in the test's folder, on the fake
    clock, with a seeded RNG for the night calls' lengths."""
    return Table(Store(db_path), clock=clock, rng=random.Random(7))
