"""/help [issue 32]: the hub builds the manual from docs/ and serves it offline,
its Play pages in English, Japanese and Traditional Chinese, in the page's
language. The site is built once for the module, in a network namespace with
no network at all (`unshare -rn`: only a loopback) when the machine allows it."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from slowness import wait_s

from companion.hub import create_app
from companion.hub.manual import STAMP, Manual, sources, stamp
from companion.store import Store
from companion.table import Table

ROOT = Path(__file__).resolve().parents[2]
BUILD = ("import sys; from pathlib import Path; from companion.hub.manual import build, sources;"
         " build(sources(), Path(sys.argv[1]))")


def _text(client, path: str) -> tuple[int, str]:  # type: ignore[no-untyped-def]
    """A page's status and its text, whitespace runs as one space."""
    with client.get(path) as answer:
        return answer.status_code, re.sub(r"\s+", " ", answer.get_data(as_text=True))


def _offline() -> list[str]:
    """A command prefix with no network, if this machine lets us make one."""
    if shutil.which("unshare") and subprocess.run(["unshare", "-rn", "true"]).returncode == 0:
        return ["unshare", "-rn"]
    return []


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, bool]:
    out = tmp_path_factory.mktemp("manual") / "manual"
    prefix = _offline()
    subprocess.run([*prefix, sys.executable, "-c", BUILD, str(out)], cwd=ROOT, check=True)
    return out, bool(prefix)


@pytest.fixture
def client(site: tuple[Path, bool], tmp_path: Path):  # type: ignore[no-untyped-def]
    table = Table(Store(tmp_path / "games.sqlite3"))
    app = create_app(table, "t", config={"MANUAL_DIR": site[0], "TESTING": True})
    return app.test_client()


def test_the_site_was_built_with_no_network(site: tuple[Path, bool]) -> None:
    """[issue 32] "no internet at the table": the build needs none (a network
    namespace with a loopback only)."""
    if not site[1]:
        pytest.skip("no network namespace here (unshare -rn)")
    assert (site[0] / STAMP).read_text() == stamp(sources())


@pytest.mark.parametrize("header, where", [
    ({"Accept-Language": "ja,en;q=0.5"}, "/help/ja/"),
    ({"Accept-Language": "zh-TW,zh;q=0.9"}, "/help/zh-Hant/"),
    ({"Accept-Language": "fr"}, "/help/"),
    ({"Accept-Language": "en", "lang": "ja"}, "/help/ja/"),
])
def test_help_answers_in_the_pages_language(client, header: dict, where: str) -> None:  # type: ignore[no-untyped-def]
    """[issue 32] /help picks the language as every page does (companion/hub/i18n.py):
    the device's `lang` cookie, else the browser's Accept-Language."""
    if "lang" in header:
        client.set_cookie("lang", header.pop("lang"))
    answer = client.get("/help", headers=header)
    assert answer.status_code == 302 and answer.headers["Location"].endswith(where)


@pytest.mark.parametrize("prefix, words", [
    ("", ["Hold your card, in secret", "You survive the first wolf attack"]),
    ("ja/", ["長押しで、こっそり", "人狼の1回目の襲撃では死にません"]),
    ("zh-Hant/", ["按住看身份牌", "狼人第一次殺你時你不會死"]),
])
def test_the_play_pages_in_three_languages(client, prefix: str, words: list[str]) -> None:  # type: ignore[no-untyped-def]
    """[issue 32] the players' Play page (join, hold, vote, the roles) in en/ja/zh_Hant."""
    status, text = _text(client, f"/help/{prefix}play/players/")
    assert status == 200 and all(w in text for w in words), words
    assert "fonts.googleapis" not in text  # nothing fetched from elsewhere


def test_the_tablets_questions_are_answered(client) -> None:  # type: ignore[no-untyped-def]
    """[issue 32] pairing a second tablet and a narrated game, from /help."""
    status, text = _text(client, "/help/play/")
    assert status == 200 and "Pair another tablet" in text and "the hub narrates" in text
    for prefix, words in (("ja/", ("別のタブレットを接続", "ハブが読み上げる — 全員が参加")),
                          ("zh-Hant/", ("配對另一台平板", "由主機朗讀 — 所有人都參與"))):
        status, text = _text(client, f"/help/{prefix}play/")  # the tablet's own words
        assert status == 200 and all(w in text for w in words), prefix
    assert _text(client, "/help/play")[0] == 302  # a folder: its index
    assert _text(client, "/help/assets/nope.css")[0] == 404
    status, text = _text(client, "/help/search/search_index.json")
    assert status == 200 and "Elder" in text  # the search works offline, from the hub


def test_a_stale_site_is_rebuilt_not_served(tmp_path: Path) -> None:
    """[issue 32] a site whose stamp is not the sources' is "being prepared" (503)."""
    folder = tmp_path / "manual"
    folder.mkdir()
    (folder / STAMP).write_text("old")
    (folder / "index.html").write_text("old manual")
    manual = Manual(folder)
    assert not manual.ready()
    manual.start = lambda: None  # type: ignore[method-assign]  # no build in this test
    table = Table(Store(tmp_path / "games.sqlite3"))
    app = create_app(table, "t", config={"MANUAL_DIR": folder})
    app.extensions["manual"] = manual
    status, text = _text(app.test_client(), "/help/")
    assert status == 503 and "being prepared" in text


def test_help_is_linked_from_the_tablet_the_host_page_and_the_phones(client) -> None:  # type: ignore[no-untyped-def]
    """[issue 32] "linked from the GM tablet, the host page and the lobby" (the
    lobby is a tab of the GM's page), and from each player's phone."""
    with client.get("/gm?token=t", follow_redirects=True) as answer:
        assert 'href="/help"' in answer.get_data(as_text=True)
    for page in ("host.html", "player.html"):
        assert 'href="/help"' in (ROOT / "web/templates" / page).read_text(encoding="utf-8")


def test_the_manual_loads_nothing_from_outside(site: tuple[Path, bool]) -> None:
    """[issue 32] offline at the table: no page of the manual loads a script, a
    style sheet, a font or a picture from another host (Material's Google Fonts off)."""
    for page in site[0].rglob("*.html"):
        html = page.read_text(encoding="utf-8")
        # (a <link rel="canonical"> or "alternate" names the page; it loads nothing)
        html = re.sub(r'<link\b[^>]*\brel="(?:canonical|alternate)"[^>]*>', "", html)
        loads = re.findall(r'<(?:script|link|img)\b[^>]*\b(?:src|href)="((?:https?:)?//[^"]+)"',
                           html)
        assert not loads, (page, loads)


def test_the_sources_in_a_tree_and_in_a_wheel(tmp_path: Path) -> None:
    """[issue 32] the working tree's docs/, else the wheel's companion/manual/
    (found as a plain folder: the fresh-clone `pip install .` found a namespace
    package's MultiplexedPath there once, which MkDocs could not open)."""
    assert sources() == ROOT / "docs"
    wheel = tmp_path / "site-packages" / "companion"
    (wheel / "manual").mkdir(parents=True)
    (wheel / "manual" / "mkdocs.yml").write_text("site_name: x\n")
    found = sources(wheel / "hub" / "manual.py")
    assert found == wheel / "manual" and (found / "mkdocs.yml").is_file()


def test_a_failed_build_says_so_and_is_not_retried(tmp_path: Path) -> None:
    """[issue 32] a build that fails says so, and is not rebuilt per request;
    [issue 41 item 4] in one sentence with no path of the machine's (503,
    not stored: the terminal has the details)."""
    broken = tmp_path / "docs"
    broken.mkdir()
    (broken / "mkdocs.yml").write_text("site_name: broken\ntheme: {name: no-such-theme}\n")
    manual = Manual(tmp_path / "manual", src=broken)
    manual.start()
    assert not manual.wait(120) and manual.error
    manual.start()
    assert manual._thread is not None and not manual._thread.is_alive()  # not started again
    table = Table(Store(tmp_path / "games.sqlite3"))
    app = create_app(table, "t")
    app.extensions["manual"] = manual
    with app.test_client().get("/help/") as answer:
        text = answer.get_data(as_text=True)
        assert answer.status_code == 503 and answer.headers["Cache-Control"] == "no-store"
    assert text == "The manual could not be built on this hub: its terminal says why."
    assert str(tmp_path) not in text and "/" not in text


UP = "..%2f" * 16  # past the root from any folder the site is in


@pytest.mark.parametrize("path", [f"/help/{UP}etc", f"/help/{UP}etc/", f"/help/{UP}tmp",
                                  "/help/" + "../" * 16 + "etc", "/help/%2e%2e/" * 16 + "etc",
                                  f"/help/{UP}etc/passwd", f"/help/{UP}no-such-folder",
                                  "/help/no-such-folder", "/help/no-such-folder/"])
def test_any_path_outside_the_site_is_what_a_missing_page_is(client, path: str) -> None:  # type: ignore[no-untyped-def]
    """[issue 41 item 7] `/help/..%2f..%2f..%2fetc` answered 302 where a
    missing folder answered 404: it told which folders exist on the machine
    (no file outside the site was served). Now every path outside the site
    is the same 404 as a page the site does not have."""
    assert client.get(path).status_code == 404
    assert client.get("/help/play").status_code == 302  # a folder of the site: its index


def _tmpfs(where: Path, size: str) -> bool:
    """A small file system of `size` at `where` (as root; False where we cannot)."""
    import os

    where.mkdir()
    return os.geteuid() == 0 and subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)],
        capture_output=True, check=False).returncode == 0


def test_a_card_too_full_for_the_manual_keeps_its_room_for_the_games(tmp_path: Path) -> None:
    """[issue 41 item 4] On a nearly full 3 MB card the build filled it to
    2,912 of 3,072 KB, then failed, leaving the game log no room, and /help
    showed anyone the error with the machine's paths. Now the build does not
    start unless the card keeps the game log's reserve after it; /help says
    so in one sentence, without a path; nothing is written."""
    from companion.hub.manual import RESERVE, no_room

    card = tmp_path / "sd"
    if not _tmpfs(card, "3m"):
        pytest.skip("cannot mount a small tmpfs here (not root)")
    try:
        table = Table(Store(card / "games.sqlite3"))
        app = create_app(table, "t", config={"MANUAL_DIR": card / "manual", "TESTING": True})
        free = shutil.disk_usage(card).free
        with app.test_client().get("/help/") as answer:
            text = answer.get_data(as_text=True)
            assert answer.status_code == 503 and answer.headers["Cache-Control"] == "no-store"
        manual = app.extensions["manual"]
        manual.wait(60)
        with app.test_client().get("/help/") as answer:
            text = answer.get_data(as_text=True)
        assert text == no_room(RESERVE) and str(card) not in text
        assert "keeps 32 MB free for the games" in text
        assert shutil.disk_usage(card).free >= free - 64 * 1024  # no site, no half site
        assert not list(card.glob(".manual-*")) and not (card / "manual").exists()
        table.store.close()
    finally:
        subprocess.run(["umount", "-l", str(card)], check=False)


def test_a_build_that_nears_the_games_reserve_is_stopped_and_removed(tmp_path: Path) -> None:
    """[issue 41 item 4] A build is watched while it runs: a writer that fills
    the card (here a child that writes 256 KiB every 50 ms, 5 MB/s, about
    what mkdocs writes, on an 8 MiB tmpfs with a 4 MiB reserve) is killed as
    soon as the card has less than the reserve free (NoRoom), long before the
    card is full, and what it wrote goes with its folder."""
    from companion.hub.manual import NoRoom, run_watched

    card = tmp_path / "sd"
    if not _tmpfs(card, "8m"):
        pytest.skip("cannot mount a small tmpfs here (not root)")
    try:
        filler = ("import os, sys, time\n"
                  "for i in range(1000):\n"
                  "    open(os.path.join(sys.argv[1], str(i)), 'wb').write(b'x' * 262144)\n"
                  "    time.sleep(0.05)\n")
        work = card / ".manual-test"
        work.mkdir()
        with pytest.raises(NoRoom):
            run_watched([sys.executable, "-c", filler, str(work)], card, 4 * 1024 * 1024)
        left = shutil.disk_usage(card).free
        assert left >= 2 * 1024 * 1024, left  # stopped near the reserve, the card far from full
        shutil.rmtree(work)
        assert shutil.disk_usage(card).free > 7 * 1024 * 1024
    finally:
        subprocess.run(["umount", "-l", str(card)], check=False)


def test_a_relative_data_folder_builds_the_manual_in_it(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """[issue 41 item 4] With `--data d1` (relative) the manual was built into
    d1/d1/ and /help answered 500 until a restart. Now the manual's folder is
    absolute: the site is in d1/manual/, whatever the working folder."""
    monkeypatch.chdir(tmp_path)
    manual = Manual(Path("d1") / "manual")
    assert manual.folder == tmp_path / "d1" / "manual"
    manual.start()
    assert manual.wait(300), manual.error
    assert (tmp_path / "d1" / "manual" / "index.html").is_file()
    assert not (tmp_path / "d1" / "d1").exists()


def test_the_language_links_stay_in_the_manual(client) -> None:  # type: ignore[no-untyped-def]
    """[issue 44 item 7] /help's language switcher: every link it offers, on
    the front page and on a Play page, answers 200 under /help (they were
    /ja/ and /zh-Hant/, which answer 404)."""
    for page in ("/help/", "/help/play/players/", "/help/ja/play/players/"):
        status, html = _text(client, page)
        assert status == 200, page
        links = re.findall(r'hreflang="[\w-]+"[^>]*href="([^"]+)"|href="([^"]+)"[^>]*hreflang=',
                           html)
        found = [a or b for a, b in links]
        assert len(found) >= 3, (page, found)
        for link in found:
            target = link if link.startswith("/") else "/help/" + link.lstrip("./")
            assert target.startswith("/help/"), (page, link)
            with client.get(target) as got:
                assert got.status_code == 200, (page, link, target)


#: the pages axe looks at: each language's front page and players' page
AXE_PAGES = ["/help/", "/help/ja/", "/help/zh-Hant/", "/help/play/players/",
             "/help/ja/play/players/", "/help/zh-Hant/play/players/"]
#: run in a child process: a test process whose browser tests already run
#: Playwright's sync API (an asyncio loop) cannot start a second one
AXE_CHILD = r"""
import json, sys
from pathlib import Path
sys.path.insert(0, sys.argv[2])
from a11y import axe
from playwright.sync_api import sync_playwright
site, chromium, pages = Path(sys.argv[1]), sys.argv[3], json.loads(sys.argv[4])
def answer(route):
    path = route.request.url.split("://", 1)[1].split("/", 1)[1]
    rel = path.split("?")[0].removeprefix("help/")
    file = site / rel
    if file.is_dir() or rel == "" or rel.endswith("/"):
        file = file / "index.html"
    if not file.is_file():
        return route.fulfill(status=404, body="")
    kind = {".html": "text/html", ".css": "text/css", ".js": "text/javascript",
            ".svg": "image/svg+xml", ".png": "image/png"}.get(file.suffix, "text/plain")
    route.fulfill(status=200, body=file.read_bytes(), headers={"Content-Type": kind})
failed = []
with sync_playwright() as pw:
    browser = pw.chromium.launch(executable_path=chromium, args=["--no-sandbox", "--disable-gpu"])
    page = browser.new_page()
    page.route("**/*", answer)
    for where in pages:
        page.goto("http://hub.invalid" + where)
        lang = {"ja": "ja", "zh-Hant": "zh-Hant"}.get(where.split("/")[2], "en")
        got = page.evaluate("document.documentElement.lang")
        if got != lang:
            failed.append(f"{where}: lang {got!r}, not {lang!r}")
        try:
            axe(page, f"{lang} /help {where}")
        except AssertionError as err:
            failed.append(str(err))
    browser.close()
print("\n".join(failed))
sys.exit(1 if failed else 0)
"""


def test_the_manual_has_no_serious_wcag_violation(site: tuple[Path, bool]) -> None:
    """[issue 43]: axe-core's WCAG 2.1 A/AA rules on /help in each language
    (its front page and the players' page), in Chromium: no serious or
    critical violation (links told from the text by more than colour: they
    were 1.76:1 against it, not underlined), and `lang` the page's
    language. The built site's files as /help serves them."""
    import json
    import os

    pytest.importorskip("playwright.sync_api")
    chromium = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
    if not Path(chromium).exists():
        pytest.skip("no Chromium")
    done = subprocess.run([sys.executable, "-c", AXE_CHILD, str(site[0]),
                           str(ROOT / "tests" / "web"), chromium, json.dumps(AXE_PAGES)],
                          capture_output=True, text=True, timeout=wait_s(300))
    assert done.returncode == 0, done.stdout + done.stderr[-2000:]
