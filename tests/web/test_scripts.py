"""The pages' scripts, read as text (issue 15, item 7 and the design's
`web/static/` row, ../shared/DESIGN.md): one shared DOM helper, one script per
screen and none over 600 lines, no script that shuffles or deals (the hub deals
from the seed, contract C2), and no copy of the names in JavaScript (the pages
read them from the template's `#names`/`#words` JSON, contract C3)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from companion.hub import create_app
from companion.store import Store
from companion.table import Table

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "web" / "static"
TEMPLATES = ROOT / "web" / "templates"
SCRIPTS = sorted(STATIC.glob("*.js"))
MAX_LINES = 600

#: Where a script may draw a random number, and why. Nothing of the game is
#: random in a page: the deal and the shuffle are the hub's (contract C2).
RANDOM_ALLOWED = {
    # the table screen's masking noise at night: white noise made in the
    # browser (no audio file); it decides nothing and nobody reads it
    "table.js": 1,
}


def _code(path: Path) -> str:
    """A script without its // comments (a comment may name what it avoids)."""
    text = path.read_text(encoding="utf-8")
    return re.sub(r"(?m)(^|[^:\\])//.*$", r"\1", text)


def _definition(name: str) -> re.Pattern[str]:
    """How a script defines `name`: a function, a const/let/var, an object's method."""
    return re.compile(rf"\bfunction\s+{name}\s*\(|\b(?:const|let|var)\s+{name}\s*="
                      rf"|\b{name}\s*:\s*function\b")


def _definitions(name: str) -> list[str]:
    return [p.name for p in SCRIPTS for _ in _definition(name).finditer(_code(p))]


def test_the_scripts_are_found() -> None:
    names = {p.name for p in SCRIPTS}
    assert {"dom.js", "words.js", "gm.js", "player.js", "table.js"} <= names, names


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: p.name)
def test_no_script_is_over_600_lines(path: Path) -> None:
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_LINES, f"{path.name} has {lines} lines (at most {MAX_LINES}): split it"


@pytest.mark.parametrize("name", ["el", "stepText", "pageWords", "tallyRows", "nameTag", "tn",
                                  "tallyVoters", "renderEvent", "renderLost", "eventCardNodes",
                                  "eventMark", "eventCardWords"])
def test_each_shared_helper_is_defined_once(name: str) -> None:
    """el() and a name's tag (dom.js), stepText and tn (words.js), the
    tally's rows and voters (tally.js), the event card and the lost phone's
    vote (shared.js [issue 45]) are written once for every page; a page's own
    copy is how they drifted."""
    found = _definitions(name)
    assert len(found) == 1, f"{name} is defined {len(found)} times: {found}"


def test_the_definition_check_sees_a_copy() -> None:
    """The check above is not vacuous: each way of writing a copy counts."""
    for name, copy in (("el", "function el(tag) {}"), ("el", "const el = (t) => t;"),
                       ("stepText", "let stepText = null;"), ("el", "var el = 1;"),
                       ("stepText", "x = {stepText: function () {}}")):
        assert _definition(name).search(copy), copy
    assert not _definition("el").search("const cell = el(tag);")


def test_no_script_shuffles_or_draws_a_seed() -> None:
    """The hub deals (contract C2): no page draws a random number for the game."""
    for path in SCRIPTS:
        code = _code(path)
        randoms = len(re.findall(r"Math\.random\s*\(", code))
        assert randoms == RANDOM_ALLOWED.get(path.name, 0), (path.name, randoms)
        assert "getRandomValues" not in code, path.name
        assert not re.search(r"\bshuffle\b|\bdealCards\b|\brandomInt\b", code), path.name


def test_every_page_loads_the_shared_helper_before_its_scripts() -> None:
    """A template loads dom.js and words.js before any script that uses them,
    and every script it names exists (its list in `scripts([...])`,
    _head.html [issue 45])."""
    pages = []
    for template in sorted(TEMPLATES.glob("*.html")):
        html = template.read_text(encoding="utf-8")
        listed = re.search(r"\{\{ scripts\(\[(.*?)\]\) \}\}", html, re.S)
        srcs = re.findall(r'"([\w.-]+\.js)"', listed.group(1)) if listed else []
        if not srcs:
            continue
        pages.append(template.name)
        for src in srcs:
            assert (STATIC / src).is_file(), (template.name, src)
        assert srcs[:2] == ["dom.js", "words.js"], (template.name, srcs)
    assert {"gm.html", "player.html", "table.html", "host.html"} <= set(pages), pages


def _page_names(folder: Path) -> dict[str, dict[str, str]]:
    """The names the pages render in English (#names of the phone and the
    table screen, #words of the GM's tablet)."""
    app = create_app(Table(Store(folder / "g.sqlite3")), "gm-test-token")
    client = app.test_client()
    game = client.post("/api/games", json={"ruleset": "millers-hollow", "seed": 1,
                                           "players": list("ABCDEFGH")},
                       headers={"Authorization": "Bearer gm-test-token"}).get_json()
    client.set_cookie("gm", "gm-test-token")
    out: dict[str, dict[str, str]] = {}
    for url, block in ((game["seats"][0]["url"], "names"), ("/table", "names"), ("/gm", "words")):
        r = client.get(url)
        html = r.get_data(as_text=True)
        r.close()
        doc = json.loads(re.search(rf'id="{block}">(.*?)</script>', html, re.S).group(1))
        for kind in ("roles", "teams", "professions", "buildings"):
            out.setdefault(kind, {}).update(doc.get(kind) or {})
    return out


def test_no_script_has_a_copy_of_the_names(tmp_path: Path) -> None:
    """Role, side, profession and building names come from the template
    (contract C3); a script that writes one as a string (as player.js once
    titled results "Seer", "Witch" …) keeps a copy that drifts."""
    names = _page_names(tmp_path)
    assert names["roles"]["seer"] == "Seer", names["roles"]  # the check reads real names
    words = {w for table in names.values() for w in table.values() if len(w) > 2}
    for path in SCRIPTS:
        strings = set(re.findall(r'"((?:[^"\\]|\\.)*)"', _code(path)))
        copies = sorted(strings & words)
        assert not copies, f"{path.name} writes names the template gives: {copies}"


def test_no_page_works_out_when_the_event_card_shows() -> None:
    """[issue 45] the card's moment is the view's `event.moment`
    (companion/table/audiences.py), read by shared.js's renderEvent alone:
    no page script reads the card's `today` nor its own idea of the vote."""
    for path in SCRIPTS:
        code = _code(path)
        assert not re.search(r"\.today\b", code), path.name
        reads = len(re.findall(r"\.moment\b(?!\s*\()", code))  # not night.moment(v)
        assert reads == (1 if path.name == "shared.js" else 0), (path.name, reads)


def test_no_page_finds_the_cards_sentence_by_its_text() -> None:
    """[issue 45] which sentence of the line tells the event card is the
    view's `line_event` (the GM's `script.line_event`, words.announce
    `event_said`): no page searches its line for the card's text."""
    for path in SCRIPTS:
        code = _code(path)
        assert not re.search(r"\.includes\([^()]*\.text\)", code), path.name
    assert re.search(r"\.includes\([^()]*\.text\)", 'said = line.includes(w.text);')
    reads = {p.name for p in SCRIPTS if re.search(r"\.line_event\b", _code(p))}
    assert reads == {"table.js", "gm_game.js"}, reads
