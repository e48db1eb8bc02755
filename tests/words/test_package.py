"""The words package stands alone [issue 15] (docs: DESIGN.md, "words knows
nothing of the hub, the table"): importing it loads nothing of the hub, the
table, the firmware or Flask, and the languages are defined once, there."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from companion.words import LANGUAGES

ROOT = Path(__file__).resolve().parents[2]
#: the three codes side by side, in a tuple or a list, in either quotes
THREE_CODES = re.compile(r"""[\[(]\s*(['"])en\1\s*,\s*(['"])ja\2\s*,\s*(['"])zh_Hant\3""")


def test_the_languages_are_english_japanese_and_traditional_chinese() -> None:
    """Contract C3, docs/pages.md: en, ja, zh_Hant, English first (the msgids)."""
    assert LANGUAGES == ("en", "ja", "zh_Hant")


def test_languages_are_defined_once() -> None:
    """[issue 15]: `LANGUAGES` is written in companion/words/catalogs.py only;
    the hub, the table, the display and the tools import it (no tuple or
    list of the three codes anywhere else in companion/, firmware/, tools/)."""
    found = []
    for folder in ("companion", "firmware", "tools"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            for line in path.read_text(encoding="utf-8").splitlines():
                if THREE_CODES.search(line) and not line.lstrip().startswith("#"):
                    found.append((str(path.relative_to(ROOT)), line))
    assert found == [("companion/words/catalogs.py", 'LANGUAGES = ("en", "ja", "zh_Hant")')], \
        found


def test_the_pattern_finds_a_copy() -> None:
    """The search above can fail: it sees the tuple and the list forms."""
    assert THREE_CODES.search('LANGUAGES = ("en", "ja", "zh_Hant")')
    assert THREE_CODES.search("langs = ['en', 'ja', 'zh_Hant']")
    assert not THREE_CODES.search('("en", "ja")')


def test_the_words_import_nothing_above_them() -> None:
    """[issue 15] no import loop through the words: a fresh interpreter that
    imports companion.words (and renders a line) has loaded no module of
    companion.hub, companion.table, companion.store, firmware or Flask."""
    code = ("import json, sys, companion.words as w; "
            "w.gm_line({'pace': {'mode': 'lobby'}, 'players': []}, 'ja'); "
            "w.names_for('zh_Hant'); "
            "print(json.dumps(sorted(sys.modules)))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, check=True)
    loaded = json.loads(out.stdout)
    above = [m for m in loaded if m.split(".")[0] in ("firmware", "flask", "flask_babel")
             or m.startswith(("companion.hub", "companion.table", "companion.store",
                              "companion.firmware", "companion.web"))]
    assert "companion.words" in loaded and "companion.engine" in loaded
    assert not above, above


def test_the_language_menus_come_from_the_one_definition() -> None:
    """[issue 15] the pages' language menus (the phone's, the GM lobby's) list
    LANGUAGES, each in its own words; no template writes the list again."""
    from pathlib import Path

    from companion.words import LANGUAGE_NAMES, LANGUAGES

    assert tuple(LANGUAGE_NAMES) == LANGUAGES
    assert LANGUAGE_NAMES["ja"] == "日本語" and LANGUAGE_NAMES["zh_Hant"] == "繁體中文"
    templates = Path(__file__).resolve().parents[2] / "web" / "templates"
    for page in templates.glob("*.html"):
        text = page.read_text("utf-8")
        assert "日本語" not in text and "繁體中文" not in text, page.name
