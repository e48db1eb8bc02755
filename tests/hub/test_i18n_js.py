"""[issue 6] Languages: the text JavaScript shows comes from the page's own
translated `#i18n` block (docs/pages.md), never from a string table in JS.
[issue 45] The scripts are the msgids' one home: Babel's JavaScript
extraction reads their `t("…")`, `tn("…")` and `N_("…")` (babel.cfg), the
hub renders each page the translations of exactly its scripts' msgids
(web/templates/_head.html `scripts`), and no template lists them again.

A `t("...")` in a page's script whose message the page's block lacks, or
that has no Japanese or Chinese translation, would stay English on a
Japanese phone: these tests fail on it. The scripts are read here with a
plain pattern, not with Babel, so a call the extraction misses is caught."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from flask import render_template

from companion.words.catalogs import script_msgids

from .conftest import GM, GM_TOKEN, jp9

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "web" / "static"
TEMPLATES = ROOT / "web" / "templates"
SCRIPTS = sorted(STATIC.glob("*.js"))
SAME_IN_EVERY_LANGUAGE = {"×2"}
#: a message call with a string: t("…"), tn("…") (words.t, GM.t …), N_("…")
CALL = re.compile(r'\b(?:t|tn|N_)\(\s*"((?:[^"\\]|\\.)*)"')
STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
#: the pages, each by its address (the unlock page is rendered by name)
PAGES = ("gm", "player", "table", "host", "virtual", "unlock")


def _code(js: str) -> str:
    """A script without its // comments (they show calls as examples)."""
    return re.sub(r"(?m)(^|[^:\\])//.*$", r"\1", js)


def _literals(js: str) -> set[str]:
    """Every msgid a script writes as a string in a message call."""
    return {json.loads(f'"{m}"') for m in CALL.findall(_code(js))}


def _scripts_of(html: str) -> list[str]:
    return re.findall(r'<script src="/static/([\w.-]+\.js)"', html)


def _messages_used(html: str) -> set[str]:
    """The messages of every script the page loads (a page is several scripts)."""
    used: set[str] = set()
    for name in _scripts_of(html):
        used |= _literals((STATIC / name).read_text(encoding="utf-8"))
    return used


def _page(app, client, page: str, lang: str) -> str:  # type: ignore[no-untyped-def]
    seat_url = client.post("/api/games", json=jp9(), headers=GM).get_json()["seats"][0]["url"]
    client.set_cookie("gm", GM_TOKEN)
    client.set_cookie("lang", lang)
    if page == "unlock":  # a reissued seat's page [issue 40]
        with app.test_request_context("/", headers={"Cookie": f"lang={lang}"}):
            return render_template("unlock.html", token="t")
    url = {"gm": "/gm?lobby=1", "player": seat_url, "table": "/table", "host": "/host",
           "virtual": "/gm/table"}[page]
    r = client.get(url)
    assert r.status_code == 200, (page, r.status_code)
    return r.get_data(as_text=True)


def _block(html: str) -> dict[str, str]:
    return json.loads(re.search(r'id="i18n">(.*?)</script>', html, re.S).group(1))


def _problems(block: dict[str, str], used: set[str]) -> tuple[list[str], list[str]]:
    """(msgids the block lacks, msgids the block leaves in English)."""
    missing = sorted(m for m in used if m not in block)
    untranslated = sorted(m for m in used - SAME_IN_EVERY_LANGUAGE
                          if m in block and block[m] == m)
    return missing, untranslated


@pytest.mark.parametrize("lang", ["ja", "zh_Hant"])
@pytest.mark.parametrize("page", PAGES)
def test_every_message_a_script_shows_is_in_its_pages_translations(app, client, page, lang):
    html = _page(app, client, page, lang)
    used = _messages_used(html)
    assert used, f"no t(...) found in {page}'s scripts"
    missing, untranslated = _problems(_block(html), used)
    assert not missing, f"{page}'s scripts show messages its page does not provide: {missing}"
    assert not untranslated, f"{page}'s script messages left in English for {lang}: {untranslated}"


@pytest.mark.parametrize("page", PAGES)
def test_a_pages_block_is_exactly_its_scripts_messages(app, client, page):
    """[issue 45] the block holds the msgids of the scripts the page loads,
    no other (no template adds a list of its own), in English the msgids
    themselves."""
    html = _page(app, client, page, "en")
    block = _block(html)
    expected = {m for name in _scripts_of(html) for m in script_msgids(STATIC / name)}
    assert set(block) == expected
    assert all(text == msgid for msgid, text in block.items())


def test_the_check_fails_on_a_message_without_translation() -> None:
    """The check above can fail: a msgid the block lacks, and one it leaves
    in English, are both reported."""
    used = _literals('t("Confirm"); words.t("Nobody", {a: 1}); N_("A new message")')
    assert used == {"Confirm", "Nobody", "A new message"}
    block = {"Confirm": "決定", "Nobody": "Nobody"}
    assert _problems(block, used) == (["A new message"], ["Nobody"])


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: p.name)
def test_the_extraction_reads_every_message_a_script_writes(path: Path) -> None:
    """[issue 45] Babel's JavaScript extraction (what the catalogs and the
    pages' blocks hold) finds every msgid a script writes in a message call:
    a t() inside another t()'s arguments is not read by it (words.js)."""
    js = path.read_text(encoding="utf-8")
    lost = _literals(js) - set(script_msgids(path))
    assert not lost, f"{path.name}: the extraction misses {sorted(lost)}: call t() on its own"


def _first_arguments(js: str) -> list[str]:
    """The first argument of every t()/tn() call, as written."""
    out = []
    for m in re.finditer(r"\b(?<!function )(?:t|tn)\(", js):
        depth, i, start = 0, m.end(), m.end()
        while i < len(js):
            ch = js[i]
            if ch == '"':  # a string: skip it whole
                i = STRING.match(js, i).end() - 1
            elif ch in "([{":
                depth += 1
            elif ch in ")]}" and depth:
                depth -= 1
            elif ch in ",)" and not depth:
                break
            i += 1
        out.append(js[start:i].strip())
    return out


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: p.name)
def test_a_calls_message_is_one_string_or_a_marked_variable(path: Path) -> None:
    """[issue 45] words.js: the extraction takes a call's last string for its
    msgid, so `t(cond ? "a" : "b")` would put "b" (or a string of the
    condition) in the catalog and lose "a". A call's first argument is one
    string, or holds none (a msgid marked N_("…") where it is chosen)."""
    for arg in _first_arguments(_code(path.read_text(encoding="utf-8"))):
        if '"' in arg:
            assert STRING.fullmatch(arg), f"{path.name}: t({arg} …): mark each msgid with N_"


def test_the_argument_check_sees_a_condition() -> None:
    """The check above is not vacuous."""
    assert _first_arguments('x = t(a ? "A" : "B", {n: f(1, 2)}); tn("C", {}); t(key)') == [
        'a ? "A" : "B"', '"C"', "key"]


def test_no_template_lists_a_scripts_messages() -> None:
    """[issue 45] one home per msgid: the `#i18n` block is rendered by
    _head.html's `scripts` alone, from the page's scripts; no template writes a
    `messages` dict or a list of msgids for its JavaScript."""
    for template in sorted(TEMPLATES.glob("*.html")):
        html = template.read_text(encoding="utf-8")
        if template.name == "_head.html":
            assert 'id="i18n"' in html
            continue
        assert 'id="i18n"' not in html, template.name
        assert not re.search(r"set messages\b|js_messages", html), template.name
        assert "<script src=" not in html, f"{template.name}: list the scripts in scripts([...])"
