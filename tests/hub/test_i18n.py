"""The pages' languages [issue 6] "Languages" (docs/pages.md, RULES.md §9):
the templates get the names and the JavaScript strings in the page's
language, and each page's `#names` JSON is the words' table of names.
The catalogs themselves (complete, compiled, the sources' words) are
tested without Flask in tests/words/test_catalogs.py.
"""

from __future__ import annotations

import json
import re

import pytest
from flask import render_template_string

from companion.hub.i18n import script_messages
from companion.words import names_for

from .conftest import GM, GM_TOKEN, jp9


def test_templates_get_names_and_script_messages(app, client) -> None:  # type: ignore[no-untyped-def]
    """docs/pages.md: the templates have the names in the page's language
    (`role_names`, `side_names`, `step_names`, `option_labels`, ...), and
    `script_messages(files)` [issue 45] for the `<script type="application/json"
    id="i18n">` block: keyed by msgid, the msgids the scripts use (two msgids
    with one translation, "abstains" and "abstained" both 棄権, stay apart)."""
    page = ('{{ role_names["seer"] }}|{{ side_names["fox"] }}|{{ step_names["wolves"] }}|'
            '{{ option_labels["sheriff"] }}|{{ power_lines["seer"] }}|{{ page_language }}|'
            '{{ script_messages(["gm_game.js", "table.js"]) | tojson }}')
    for lang, expect in (("ja", "占い師|妖狐陣営|人狼|保安官|"),
                         ("zh_Hant", "先知|妖狐陣營|狼人|村長|"),
                         ("en", "Seer|Fox|Werewolves|Sheriff|")):
        with app.test_request_context("/", headers={"Cookie": f"lang={lang}"}):
            out = render_template_string(page)
        assert out.startswith(expect), out
        assert f"|{lang}|" in out
        marked = {"ja": "棄権", "zh_Hant": "棄權"}
        messages = json.loads(out.rsplit("|", 1)[1])
        assert messages["abstains"] == marked.get(lang, "abstains")  # gm_game.js
        assert messages["abstained"] == marked.get(lang, "abstained")  # table.js
        with app.test_request_context("/", headers={"Cookie": f"lang={lang}"}):
            messages = script_messages(["gm_act.js"])
        assert messages["Confirm"] == {"ja": "決定", "zh_Hant": "確認", "en": "Confirm"}[lang]
        assert "abstains" not in messages  # only the given scripts' msgids


#: the tables each page's names JSON takes from web/templates/_names.html
PAGE_NAMES = {
    "player": ("names", ("roles", "teams", "causes", "wins", "steps", "professions",
                         "buildings", "prof_powers", "prof_states")),
    "table": ("names", ("roles", "teams", "causes", "wins", "steps", "buildings")),
    "gm": ("words", ("roles", "teams", "causes", "steps", "professions", "buildings",
                     "prof_states", "wins")),
}


@pytest.mark.parametrize("lang", ["en", "ja", "zh_Hant"])
@pytest.mark.parametrize("page", list(PAGE_NAMES))
def test_each_pages_names_are_the_words_table(client, page: str, lang: str) -> None:
    """[issue 15] one table of names: the names a page's script reads (its
    `#names` JSON, words.js `pageWords`) are companion.words' `names_for(lang)`,
    rendered by _names.html, never a copy of their own."""
    seat_url = client.post("/api/games", json=jp9(), headers=GM).get_json()["seats"][0]["url"]
    client.set_cookie("gm", GM_TOKEN)
    client.set_cookie("lang", lang)
    url = {"gm": "/gm", "player": seat_url, "table": "/table"}[page]
    html = client.get(url).get_data(as_text=True)
    block, keys = PAGE_NAMES[page]
    shown = json.loads(re.search(rf'id="{block}">(.*?)</script>', html, re.S).group(1))
    for key in keys:
        assert shown[key] == names_for(lang)[key], (page, key)
