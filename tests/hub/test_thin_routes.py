"""Thin routes (issue 15): a route parses the request, calls one method of
the table or of the history, and answers. No route reads the store, and
none reads the live game's state past the table's lock.

Source: issue 15 ("no route touches the store; every read of the live state
takes the table's lock"), DESIGN.md (the hub knows nothing of SQL)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

HUB = Path(__file__).resolve().parents[2] / "companion" / "hub"
ROUTES = ["api.py", "common.py", "pages.py", "player.py", "speech.py"]
#: attributes of the table that are its live state, read only under its lock
LIVE = {"state", "pace", "tokens", "claims", "seating", "audiences", "store", "setup"}


def _attributes(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [(node.lineno, node.attr) for node in ast.walk(tree)
            if isinstance(node, ast.Attribute)]


@pytest.mark.parametrize("name", ROUTES)
def test_no_route_touches_the_store_or_the_live_state(name):
    found = [(line, attr) for line, attr in _attributes(HUB / name) if attr in LIVE]
    assert found == [], f"companion/hub/{name} reaches around the table: {found}"


def test_the_app_factory_only_hands_the_store_to_the_history():
    """create_app wires the history over the table's store (the one place
    the hub names it), and nothing else in it reads the table's state."""
    source = (HUB / "__init__.py").read_text(encoding="utf-8")
    found = [attr for _, attr in _attributes(HUB / "__init__.py") if attr in LIVE]
    assert found == ["store"] and "History(table.store)" in source
