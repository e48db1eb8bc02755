"""The example games in docs/examples/ (the README's first command plays one)
replay cleanly to a finished game [issue 2: README commands work]."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.replay import run_replay

EXAMPLES = sorted((Path(__file__).parents[2] / "docs" / "examples").glob("*.json"))


def test_examples_exist() -> None:
    assert any(p.name == "millers-hollow-village-wins.json" for p in EXAMPLES)


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_example_plays_to_the_end(path: Path) -> None:
    out, status = run_replay(json.loads(path.read_text(encoding="utf-8")))
    assert status == 0, out.get("error")
    assert out["winner"] == "village"
    assert out["step"] == "over"
