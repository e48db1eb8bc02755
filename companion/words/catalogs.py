"""The languages and their message catalogs [issue 6] (RULES.md §9).

    LANGUAGES                      # en, ja, zh_Hant: the one definition
    translations("ja")             # the compiled catalog (babel Translations)
    CATALOGS                       # companion/words/translations/<lang>/LC_MESSAGES/

The catalogs live in this package (installed with it as package data), so
the words, the hub (Flask-Babel's directory), the display and the tools all
load the same files without importing one another. English is the msgids
themselves: its catalog is kept only so every language has one.

The workflow that writes them (extract → update → compile) is
tools/i18n.py; the functions it shares with the tests are at the bottom.
"""

from __future__ import annotations

import io
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import Any

#: the pages' and the moderator's languages; a game has one (docs/pages.md)
LANGUAGES = ("en", "ja", "zh_Hant")
#: each language in its own words (never translated), for the pages' language menus
LANGUAGE_NAMES = dict(zip(LANGUAGES, ("English", "日本語", "繁體中文"), strict=True))
#: where the compiled catalogs are, in the working tree and in an install
CATALOGS = Path(__file__).resolve().parent / "translations"
PROJECT = "werewolf-companion"
#: a fixed date in the catalogs' headers, so reruns change nothing
CATALOG_DATE = datetime(2026, 1, 1, tzinfo=UTC)
#: extraction keywords: babel's defaults, plus `P_(context, msgid)`, the
#: marker of a name with a context in companion/words/names.py
KEYWORDS_EXTRA = {"P_": ((1, "c"), 2)}
#: the pages' scripts' (web/static/*.js, babel.cfg's javascript section)
#: keywords: `t("msgid", {args})` and `tn(...)` (words.js `pageWords`), and
#: `N_("msgid")` for a msgid a script keeps in a variable (words.js's no-op)
#: [issue 45]. Only for the scripts: `t` names other things in Python.
JS_KEYWORDS = {"t": None, "tn": None, "N_": None}


@cache
def translations(lang: str) -> Any:
    """The compiled catalog of `lang` (babel.support.Translations); English
    (the msgids themselves) for an unknown language."""
    from babel.support import NullTranslations, Translations

    if lang not in LANGUAGES or lang == "en":
        return NullTranslations()
    return Translations.load(str(CATALOGS), [lang])


def catalog_for(lang: str) -> Any:
    """`translations(lang)`, English for a language the game does not speak."""
    return translations(lang if lang in LANGUAGES else "en")


# --- the workflow: extraction and compilation (tools/i18n.py, tests) ------------

def repo_root() -> Path:
    """The working tree (babel.cfg, companion/, web/templates): extraction
    reads the sources, so it runs from a checkout, never an install."""
    return Path(__file__).resolve().parents[2]


def translations_dir() -> Path:
    return CATALOGS


def extract_messages(root: Path | None = None) -> Any:
    """Every message of the code, the templates and the pages' scripts
    (babel.cfg), as a babel Catalog (the template, messages.pot). The
    scripts' section is read with JS_KEYWORDS, the others with babel's
    defaults and KEYWORDS_EXTRA."""
    from babel.messages.catalog import Catalog
    from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
    from babel.messages.frontend import parse_mapping_cfg

    root = root or repo_root()
    with open(root / "babel.cfg", encoding="utf-8") as f:
        method_map, options_map = parse_mapping_cfg(f)
    catalog = Catalog(project=PROJECT, creation_date=CATALOG_DATE, fuzzy=False,
                      charset="utf-8")
    keywords = {**DEFAULT_KEYWORDS, **KEYWORDS_EXTRA}
    for scripts in (False, True):
        methods = [(pattern, method) for pattern, method in method_map
                   if (method == "javascript") == scripts]
        for _file, _line, message, comments, context in extract_from_dir(
                str(root), methods, options_map, keywords=JS_KEYWORDS if scripts else keywords):
            catalog.add(message, None, [], auto_comments=comments, context=context)
    return catalog


def script_msgids(path: Path) -> list[str]:
    """The msgids one page script uses (its `t`, `tn` and `N_` calls, babel's
    JavaScript extraction as in extract_messages), in order, each once: what
    its page's `#i18n` block must translate [issue 45]."""
    from babel.messages.extract import extract_from_file

    found = extract_from_file("javascript", str(path), keywords=JS_KEYWORDS)
    return list(dict.fromkeys(str(message) for _line, message, _comments, _context in found))


def read_catalog(lang: str, directory: Path | None = None) -> Any:
    """The .po of `lang` in `directory` (default: CATALOGS)."""
    from babel.messages.pofile import read_po

    path = (directory or CATALOGS) / lang / "LC_MESSAGES" / "messages.po"
    with open(path, "rb") as f:
        return read_po(f, locale=lang)


def po_bytes(catalog: Any) -> bytes:
    from babel.messages.pofile import write_po

    buf = io.BytesIO()
    write_po(buf, catalog, no_location=True, sort_output=True, ignore_obsolete=True,
             width=100)
    return buf.getvalue()


def mo_bytes(catalog: Any) -> bytes:
    from babel.messages.mofile import write_mo

    buf = io.BytesIO()
    write_mo(buf, catalog, use_fuzzy=False)
    return buf.getvalue()


def untranslated(catalog: Any, template: Any | None = None) -> list[tuple[str | None, str]]:
    """(context, msgid) of every message of `template` (default: the catalog
    itself) without a usable translation in `catalog`: missing, empty or fuzzy."""
    out = []
    for msg in template if template is not None else catalog:
        if not msg.id:
            continue
        have = catalog.get(msg.id, context=msg.context)
        if have is None or not have.string or have.fuzzy:
            out.append((msg.context, msg.id if isinstance(msg.id, str) else msg.id[0]))
    return out
