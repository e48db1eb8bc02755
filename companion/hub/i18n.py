"""Languages of the pages: English, Japanese, Traditional Chinese, through
Flask-Babel message catalogs in web/translations (no string tables in code).

The page language is, in order: the `lang` cookie (a player's own choice),
the game's language, the browser's Accept-Language, English.
"""

from __future__ import annotations

from flask import Flask, current_app, request
from flask_babel import Babel

LANGUAGES = ("en", "ja", "zh_Hant")


def select_locale() -> str:
    chosen = request.cookies.get("lang")
    if chosen in LANGUAGES:
        return chosen
    table = current_app.extensions.get("table")
    game_language = getattr(table, "language", None) if table is not None else None
    if game_language in LANGUAGES and getattr(table, "state", None) is not None:
        return str(game_language)
    best = request.accept_languages.best_match(["en", "ja", "zh_Hant", "zh"])
    return "zh_Hant" if best == "zh" else best or "en"


def init_app(app: Flask) -> None:
    from . import WEB

    Babel(app, locale_selector=select_locale,
          default_translation_directories=str(WEB / "translations"))
