"""The manual's option tables are the declaration's [issue 45]: docs/rules.md
§2 (each preset's values) and §3 (each option's values, meanings, rule and
seed) are what tools/option_table.py writes from companion/options."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from companion.options import OPTIONS

ROOT = Path(__file__).resolve().parents[2]


def _tool():  # type: ignore[no-untyped-def]
    path = ROOT / "tools" / "option_table.py"
    spec = importlib.util.spec_from_file_location("option_table", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_manuals_option_tables_are_the_declarations() -> None:
    """Editing a row (a preset's value, a meaning) without rerunning
    tools/option_table.py fails here."""
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    assert _tool().written(text) == text


def test_each_declared_option_has_its_rows_in_the_manual() -> None:
    """Every option is in both tables: §2 once, §3 once per value of a
    choice (else once)."""
    tool = _tool()
    presets = tool.presets_table()
    table = tool.options_table((ROOT / "docs" / "rules.md").read_text(encoding="utf-8"))
    for option in OPTIONS:
        assert presets.count(f"| `{option.name}` |") == 1, option.name
        assert table.count(f"| `{option.name}` |") == 1, option.name
    assert table.count("\n") == 1 + sum(len(o.choices) or 1 for o in OPTIONS)


def test_a_changed_row_shows_in_the_check(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The check sees a difference: a preset's value changed in a row is
    a changed manual."""
    tool = _tool()
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    row = OPTIONS[0]
    monkeypatch.setitem(row.defaults, "bga", not row.defaults["bga"])  # type: ignore[index]
    assert tool.written(text) != text
