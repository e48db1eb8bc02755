"""tools/pi-check.sh's and tools/pi-vm-probe.sh's report of what the install
chose [issue 31]: `pi-packages.py NAME...`, run with the venv's python, prints
one JSON object {name: version} of the named distributions installed, each the
copy the venv imports (its own before the system's it also sees)."""

from __future__ import annotations

import importlib.metadata as metadata
import json
import sys


def version(name: str) -> str | None:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return None


def main(names: list[str]) -> int:
    found = {name: version(name) for name in names}
    print(json.dumps({name: v for name, v in found.items() if v is not None}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
