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
companion.words), `page_language` and `js_messages`:

    <script type="application/json" id="i18n">{{ js_messages([
        _("Confirm"), _("Cancel")]) | tojson }}</script>

`js_messages(texts)` pairs each msgid with its translation. Best, pass the
msgids marked with `N_` (a template global that returns its argument, and a
keyword extraction knows), so each is found by tools/i18n.py and kept as
it is:

    {{ js_messages([N_("abstains"), N_("Confirm")]) | tojson }}

`_("...")` results work too (js_messages looks the translation up again to
know its msgid), but where two msgids share a translation ("abstains" and
"abstained" are both 棄権) the key may be the other msgid: use N_ there.
A text it does not know stays as it is, its own msgid.

The catalogs' workflow (extract → update → compile) is tools/i18n.py, with
companion.words.catalogs.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from flask import Flask, Response, current_app, make_response, redirect, request
from flask_babel import Babel, get_locale

from .. import words
from ..words import LANGUAGES, translations
from ..words.catalogs import CATALOGS

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


def js_messages(texts: list[str] | tuple[str, ...]) -> dict[str, str]:
    """{msgid: translation} for the page's language, for the JSON block a
    page's JavaScript reads. `texts` are msgids, or `_("msgid")` results in
    the page's language (the usual way, so extraction finds them)."""
    lang = page_language()
    reverse = _reverse(lang)
    catalog = translations(lang)
    out = {}
    for text in texts:
        msgid = reverse.get(text, text)
        out[msgid] = str(catalog.gettext(msgid))
    return out


_REVERSE: dict[str, dict[str, str]] = {}


def _reverse(lang: str) -> dict[str, str]:
    """translation → msgid for a language (context-free messages)."""
    if lang not in _REVERSE:
        catalog = getattr(translations(lang), "_catalog", {}) or {}
        _REVERSE[lang] = {str(v): str(k) for k, v in catalog.items()
                          if isinstance(k, str) and k and "\x04" not in k}
    return _REVERSE[lang]


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
        "js_messages": js_messages, "language_names": words.LANGUAGE_NAMES,
    }


def init_app(app: Flask) -> None:
    Babel(app, locale_selector=select_locale, default_translation_directories=str(CATALOGS))
    app.context_processor(_names_for_templates)
    app.jinja_env.globals["N_"] = _mark


def _mark(msgid: str) -> str:
    """`N_("...")` in a template: a msgid for extraction, left untranslated."""
    return msgid
