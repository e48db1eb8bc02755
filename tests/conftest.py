import os
import sys
from pathlib import Path

from hypothesis import settings

sys.path.insert(0, str(Path(__file__).parent))

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


def pytest_collection_modifyitems(items: list) -> None:
    """The browser tests first: each takes seconds to a minute, most of it
    waiting on a real clock, so with two workers (`pytest -n 2`, whose
    scheduler hands tests out in this order) the many short tests fill in
    around them instead of one worker finishing a long tail alone. The order
    is the only change: every test is as independent as before."""
    items.sort(key=lambda item: 0 if f"{os.sep}web{os.sep}" in str(item.path) else 1)
