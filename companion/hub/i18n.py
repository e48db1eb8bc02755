"""Languages of the pages [issue 6]: English, Japanese, Traditional Chinese,
through Flask-Babel message catalogs in web/translations (no string tables in
code).

The page language is, in order: the `lang` cookie (the device's own choice),
the game's language, the browser's Accept-Language, English.

For templates (a context processor): `role_names`, `side_names`,
`step_names`, `option_labels`, `option_helps`, `option_value_labels`,
`power_lines`, `cause_names` (dicts id → text in the page's language, from
companion.script), `page_language` and `js_messages`:

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

The catalogs' workflow (extract → update → compile) is tools/i18n.py; the
functions below are shared by it and by tests/hub/test_i18n.py.
"""

from __future__ import annotations

import io
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from flask import Flask, Response, current_app, make_response, redirect, request
from flask_babel import Babel, get_locale

LANGUAGES = ("en", "ja", "zh_Hant")
PROJECT = "werewolf-companion"
#: a fixed date in the catalogs' headers, so reruns change nothing
CATALOG_DATE = datetime(2026, 1, 1, tzinfo=UTC)


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
    best = request.accept_languages.best_match(["en", "ja", "zh_Hant", "zh"])
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
    from ..script import translations

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
        from ..script import translations

        catalog = getattr(translations(lang), "_catalog", {}) or {}
        _REVERSE[lang] = {str(v): str(k) for k, v in catalog.items()
                          if isinstance(k, str) and k and "\x04" not in k}
    return _REVERSE[lang]


def _names_for_templates() -> dict[str, Any]:
    from .. import script

    lang = page_language()
    return {
        "page_language": lang,
        "role_names": script.role_names(lang), "side_names": script.side_names(lang),
        "step_names": script.step_names(lang), "option_labels": script.option_labels(lang),
        "option_helps": script.option_helps(lang),
        "option_value_labels": script.option_value_labels(lang),
        "power_lines": script.power_lines(lang), "cause_names": script.cause_names(lang),
        "js_messages": js_messages,
    }


def init_app(app: Flask) -> None:
    from . import WEB

    Babel(app, locale_selector=select_locale,
          default_translation_directories=str(WEB / "translations"))
    app.context_processor(_names_for_templates)
    app.jinja_env.globals["N_"] = _mark


def _mark(msgid: str) -> str:
    """`N_("...")` in a template: a msgid for extraction, left untranslated."""
    return msgid


# --- catalogs: extraction and compilation (tools/i18n.py, tests) ------------------

def repo_root() -> Path:
    """The working tree (babel.cfg, companion/, web/)."""
    return Path(__file__).resolve().parents[2]


def translations_dir() -> Path:
    return repo_root() / "web" / "translations"


def extract_messages(root: Path | None = None) -> Any:
    """Every message of the code and the templates (babel.cfg), as a
    babel Catalog (the template, messages.pot)."""
    from babel.messages.catalog import Catalog
    from babel.messages.extract import extract_from_dir
    from babel.messages.frontend import parse_mapping_cfg

    root = root or repo_root()
    with open(root / "babel.cfg", encoding="utf-8") as f:
        method_map, options_map = parse_mapping_cfg(f)
    catalog = Catalog(project=PROJECT, creation_date=CATALOG_DATE, fuzzy=False,
                      charset="utf-8")
    for _file, _line, message, comments, context in extract_from_dir(
            str(root), method_map, options_map):
        catalog.add(message, None, [], auto_comments=comments, context=context)
    return catalog


def read_catalog(lang: str, root: Path | None = None) -> Any:
    from babel.messages.pofile import read_po

    path = (root or repo_root()) / "web" / "translations" / lang / "LC_MESSAGES" / "messages.po"
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
