"""[issue 6] Languages: the text JavaScript shows comes from the page's own
translated `#i18n` block (docs/pages.md), never from a string table in JS. A
`t("...")` in a page's script whose message the template does not provide
would stay English on a Japanese phone: this test fails on it."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from .conftest import GM, GM_TOKEN, jp9

STATIC = Path(__file__).resolve().parents[2] / "web" / "static"
SAME_IN_EVERY_LANGUAGE = {"×2"}


def _messages_used(html: str) -> set[str]:
    """The messages of every script the page loads (a page is several scripts)."""
    used: set[str] = set()
    for name in re.findall(r'<script src="/static/([\w.-]+\.js)"', html):
        js = (STATIC / name).read_text(encoding="utf-8")
        used |= set(re.findall(r'\bt\(\s*"((?:[^"\\]|\\.)*)"', js))
    return used


@pytest.mark.parametrize("lang", ["ja", "zh_Hant"])
@pytest.mark.parametrize("page", ["gm", "player", "table"])
def test_every_message_a_script_shows_is_in_its_pages_translations(client, page, lang):
    seat_url = client.post("/api/games", json=jp9(), headers=GM).get_json()["seats"][0]["url"]
    client.set_cookie("gm", GM_TOKEN)
    client.set_cookie("lang", lang)
    url = {"gm": "/gm", "player": seat_url, "table": "/table"}[page]
    html = client.get(url).get_data(as_text=True)
    block = json.loads(re.search(r'id="i18n">(.*?)</script>', html, re.S).group(1))
    used = _messages_used(html)
    assert used, f"no t(...) found in {page}'s scripts"
    missing = sorted(m for m in used if m not in block)
    untranslated = sorted(m for m in used - SAME_IN_EVERY_LANGUAGE
                          if m in block and block[m] == m)
    assert not missing, f"{page}'s scripts show messages its template does not provide: {missing}"
    assert not untranslated, f"{page}'s script messages left in English for {lang}: {untranslated}"
