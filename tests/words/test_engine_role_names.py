"""The engine's role and profession names are the pages' words [issue 9]
(moved from tests/engine/test_role_table.py in issue 15: the engine's tests
read nothing from web/; this one is about words, so it lives with them).

Assertions unchanged."""

from __future__ import annotations

from companion.engine import ROLES


def test_role_names_are_the_pages_words() -> None:
    """[issue 9] one source of truth for names: the ja and zh_Hant names in
    the role and profession tables are the pages' catalog translations (the
    seeds' words: 占い師, 先知 …), traditional characters for Chinese."""
    from pathlib import Path

    from babel.messages.pofile import read_po

    root = Path(__file__).resolve().parents[2] / "web" / "translations"
    catalogs = {}
    for lang in ("ja", "zh_Hant"):
        with (root / lang / "LC_MESSAGES" / "messages.po").open("rb") as po:
            catalogs[lang] = read_po(po)
    from companion.engine.professions import PROFESSIONS

    rows = [role.names for role in ROLES.values()]
    rows += [names for p in PROFESSIONS.values() for names in (p.names, p.building) if names]
    for en, ja, zh in rows:  # the cards, the professions and their buildings
        assert catalogs["ja"].get(en).string == ja, en
        assert catalogs["zh_Hant"].get(en).string == zh, en
