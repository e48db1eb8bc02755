"""Languages of the pages [issue 6]: English, Japanese, Traditional Chinese,
through Flask-Babel and the words' message catalogs (companion/words: the
languages, the catalogs and the names are defined there, once; no string
tables in code).

The page language is, in order: the `lang` cookie (the device's own choice),
the game's language, the browser's Accept-Language, English.

For templates (a context processor): `names_for` (companion.words.names:
`names_for(page_language)` is every table of names the pages' `#names` JSON
holds; web/templates/_names.html renders it), `role_names`, `side_names`,
`step_names`, `option_labels`, `option_helps`, `option_value_labels`,
`option_words` (each option's [label, help], in the declaration's order),
`power_lines`, `cause_names` (dicts id → text in the page's language, from
companion.words) and `page_language`; and (a Jinja global, for the
`scripts` macro of web/templates/_head.html) `script_messages`:

    {% from "_head.html" import page_head, scripts with context %}
    {{ scripts(["dom.js", "words.js", "player.js"]) }}

renders the page's `<script type="application/json" id="i18n">` block, then
its scripts in order. `script_messages(files)` is {msgid: translation in
the page's language} of exactly the msgids those scripts use: the scripts
are the msgids' one home (their `t("...")`, `tn("...")` and `N_("...")`,
read by Babel's JavaScript extraction, companion.words.catalogs
`script_msgids`, as tools/i18n.py reads them into the catalogs), so no
template lists a page's messages again [issue 45].

The catalogs' workflow (extract → update → compile) is tools/i18n.py, with
companion.words.catalogs.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from flask import Flask, Response, current_app, make_response, redirect, request
from flask_babel import Babel, get_locale

from .. import words
from ..words import LANGUAGES, translations
from ..words.catalogs import CATALOGS, script_msgids

LANG_COOKIE = "lang"  # a device's own choice of language, for every page


def keep_language(lang: str) -> Response:
    """`?lang=ja` on a page: the page reloaded without it (other query
    arguments kept), the device's choice kept in the `lang` cookie for every
    page (an unknown language keeps nothing)."""
    rest = urlencode([(k, v) for k, v in request.args.items(multi=True) if k != "lang"])
    response = make_response(redirect(request.path + (f"?{rest}" if rest else "")))
    if lang in LANGUAGES:
        response.set_cookie(LANG_COOKIE, lang, max_age=365 * 24 * 3600, samesite="Lax",
                            path="/")
    return response


def select_locale() -> str:
    chosen = request.cookies.get(LANG_COOKIE)
    if chosen in LANGUAGES:
        return chosen
    table = current_app.extensions.get("table")
    game_language = getattr(table, "language", None) if table is not None else None
    if game_language in LANGUAGES and getattr(table, "state", None) is not None:
        return str(game_language)
    best = request.accept_languages.best_match([*LANGUAGES, "zh"])
    return "zh_Hant" if best == "zh" else best or "en"


def page_language() -> str:
    """The current request's language, one of LANGUAGES."""
    locale = get_locale()
    if locale is None:
        return "en"
    text = str(locale)
    return text if text in LANGUAGES else "zh_Hant" if text.startswith("zh") else "en"


def script_messages(files: list[str] | tuple[str, ...]) -> dict[str, str]:
    """{msgid: translation} in the page's language of every msgid the page's
    scripts (`files`, names in the static folder) use, for the `#i18n` JSON
    block words.js reads (English: the msgids themselves)."""
    catalog = translations(page_language())
    static = Path(str(current_app.static_folder))
    return {msgid: str(catalog.gettext(msgid))
            for name in files for msgid in _msgids_of(static / name)}


def _msgids_of(path: Path) -> tuple[str, ...]:
    """A script's msgids, read again only when the file changed."""
    return _msgids_cached(path, path.stat().st_mtime_ns)


@cache
def _msgids_cached(path: Path, _mtime: int) -> tuple[str, ...]:
    return tuple(script_msgids(path))


def _names_for_templates() -> dict[str, Any]:
    lang = page_language()
    return {
        "page_language": lang, "names_for": words.names_for,
        "role_names": words.role_names(lang), "side_names": words.side_names(lang),
        "step_names": words.step_names(lang), "option_labels": words.option_labels(lang),
        "option_helps": words.option_helps(lang),
        "option_value_labels": words.option_value_labels(lang),
        "option_words": words.option_words(lang),
        "power_lines": words.power_lines(lang), "cause_names": words.cause_names(lang),
        "language_names": words.LANGUAGE_NAMES,
    }


def init_app(app: Flask) -> None:
    Babel(app, locale_selector=select_locale, default_translation_directories=str(CATALOGS))
    app.context_processor(_names_for_templates)
    app.jinja_env.globals["script_messages"] = script_messages
