"""[issue 15] item 10: no Python module in companion/ or firmware/ over 600
lines, no class over 400 — the two biggest files had grown to do four or five
jobs each, and that had already cost a bug. The import graph's shape (layers,
no cycle) is import-linter's, in pyproject.toml, run by `.ci/run`."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MODULES = sorted(p for d in ("companion", "firmware") for p in (ROOT / d).rglob("*.py"))


def _lines(path: Path) -> int:
    return len(path.read_text("utf-8").splitlines())


def test_the_tree_is_found() -> None:
    assert len(MODULES) > 40 and ROOT / "companion" / "table" / "table.py" in MODULES


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_module_over_600_lines_no_class_over_400(path: Path) -> None:
    assert _lines(path) <= 600, f"{path.name}: {_lines(path)} lines"
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.ClassDef):
            size = (node.end_lineno or node.lineno) - node.lineno + 1
            assert size <= 400, f"{path.name}: class {node.name} is {size} lines"


def test_the_check_finds_a_big_class(tmp_path: Path) -> None:
    """The check itself can fail: a 401-line class is caught."""
    big = tmp_path / "big.py"
    big.write_text("class Big:\n" + "    x = 1\n" * 400, "utf-8")
    with pytest.raises(AssertionError, match="class Big is 401 lines"):
        test_no_module_over_600_lines_no_class_over_400(big)
