"""How many files name each game option [issue 45]: `git grep -l` per
option name over companion/, firmware/ and web/, tests and translations
left out. Run from the repository's root:

    .venv/bin/python tools/option_files.py            # a table: option, files
    .venv/bin/python tools/option_files.py --files    # and which files
    .venv/bin/python tools/option_files.py --before=REV  # and the counts at REV

A word match: `tie`, `sheriff`, `election` and `professions` are also the
names of a step, a role or a card, so their counts hold those files too.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.options import OPTIONS  # noqa: E402

PATHS = ("companion", "firmware", "web")
LIST = ("events",)  # the list option (engine.rulesets.LIST_OPTIONS), not a row
EXCLUDE = (":(exclude)companion/words/translations", ":(exclude)tests")


def files_naming(name: str, rev: str = "") -> list[str]:
    """The tracked files whose text names `name` as a word, in any case
    (`WOLF_ATTACK.of(opts)` names `wolf_attack` too)."""
    at = [rev] if rev else []
    out = subprocess.run(["git", "grep", "-l", "-i", "-w", "-F", name, *at, "--", *PATHS,
                          *EXCLUDE], capture_output=True, text=True, check=False).stdout
    return [line.removeprefix(f"{rev}:") for line in out.split()]


def main(argv: list[str]) -> None:
    revs = [a.removeprefix("--before=") for a in argv if a.startswith("--before=")]
    if revs:
        print(f"{'option':24} {'before':>6} {'after':>6}")
    for option in (*(o.name for o in OPTIONS), *LIST):
        files = files_naming(option)
        before = f"{len(files_naming(option, revs[0])):6} " if revs else ""
        print(f"{option:24} {before}{len(files):6}")
        if "--files" in argv:
            for path in files:
                print(f"    {path}")


if __name__ == "__main__":
    main(sys.argv[1:])
