"""Every screen fits, in one language [issue 18, "Every screen fits" and "One
language per page"]: games of 8, 12 and 18 players in English, Japanese and
Traditional Chinese are walked screen by screen (the lobby, the seats, each
role's night, the votes, the verdict, the prompts, the end); at each screen
the phone of the seat concerned (360×640, 390×844), the GM's tablet
(1024×768, 1280×800) and the TV (1280×720, 1920×1080) check themselves
(screens_kit.LAYOUT_JS): no sideways scroll, no TV scroll, no text cut or
broken inside a word, no overlap, no TV text under 22 px at 1920×1080, a
long GM list scrolls in its panel with a hint; and no Latin word on a
Japanese or Chinese page (names aside), no CJK on an English one.

Sampling (the suite's budget): every game looks at every screen at the first
phone size, the first tablet size and the big TV; the three "diagonal" games
(8 en, 12 zh_Hant, 18 ja) look at every screen at every size. Screenshots go
to test-artifacts/screenshots/screens/ (env SCREENS_SHOTS=<folder>: there).

The widest names [issue 30] item 4: two more games (8 players in English,
The Village; 18 in Japanese, a card of each kind) whose every name has 40
characters (the most a name may have) of "W", of "龘", or of words and
spaces, look at every screen at every size, the held card too, and at the
GM's other pages: the printable sheet (on screen and printed), the host's
page, the virtual table, the history. Screenshots only of a screen with a
problem, unless SCREENS_SHOTS is set.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from browser_kit import close_card, hook
from conftest import SHOTS, running_hub
from hub.conftest import FakeClock
from screens_kit import PHONES, TABLETS, TV_MIN_FONT, TVS, problems, walk
from slowness import wait_ms

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

NAMES = {
    "en": ["Ann", "Bartholomew", "Cid", "Dee", "Evangeline", "Fay", "Gus", "Hal", "Ivy",
           "Jonathan", "Kim", "Lea", "Maximilian", "Ned", "Ola", "Pia", "Quentin", "Rosalind"],
    "ja": ["あおい", "いつき", "うみ", "えま", "おとはる", "かい", "きらり", "くう", "けいすけ",
           "こはく", "さくら", "しずく", "すばる", "せな", "そら", "たける", "ちはや", "つばさ"],
    "zh_Hant": ["王小明", "李美玲", "張偉", "陳怡君", "林志豪", "黃雅婷", "吳建宏", "劉淑芬",
                "蔡明哲", "楊佩珊", "許文彬", "鄭惠如", "謝家豪", "郭美華", "洪志明", "曾雅琪",
                "邱俊傑", "廖婉婷"],
}
#: (players, language, ruleset, every size)
GAMES = [
    (8, "en", "millers-hollow", True), (12, "zh_Hant", "bga", True),
    (18, "ja", "millers-hollow", True),
    (8, "ja", "jp-standard", False), (12, "en", "millers-hollow", False),
    (18, "zh_Hant", "bga", False), (8, "zh_Hant", "bga", False), (12, "ja", "jp-standard", False),
    (18, "en", "millers-hollow", False),
]
FRAMES = "() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))"
OUT = Path(os.environ.get("SCREENS_SHOTS") or SHOTS / "screens")


def _wait(page: Any, seq: int, game: int | None) -> None:
    """Until the page shows the view `seq` of `game` (stream.js marks it)."""
    page.wait_for_function(
        "([seq, game]) => document.body.dataset.seq === String(seq)"
        " && document.body.dataset.game === String(game)",
        arg=[seq, game], timeout=wait_ms(10_000))
    page.evaluate(FRAMES)


class Looker:
    """The pages of one game, and what they found."""

    def __init__(self, label: str, lang: str, names: list[str], every_size: bool,
                 shots: bool = True, min_font: dict[int, float] = TV_MIN_FONT) -> None:
        """`shots`: a screenshot of every screen at its first size (else only
        of a screen with a problem); `min_font`: the TV's smallest text."""
        self.label, self.lang, self.names, self.every = label, lang, names, every_size
        self.min_font = min_font
        self.found: list[str] = []
        self.shots = 0
        self.all_shots = shots

    def look(self, page: Any, kind: str, screen: str, sizes: list[tuple[int, int]],
             words: bool = True) -> None:
        """`words`: the language check too (not on a page of links, the sheet)."""
        few = sizes[-1:] if kind == "tv" else sizes[:1]  # the big TV: its 22 px
        for i, (w, h) in enumerate(sizes if self.every else few):
            page.set_viewport_size({"width": w, "height": h})
            page.evaluate(FRAMES)
            got = problems(page, tv=kind == "tv", lang=self.lang if words else None,
                           names=self.names, min_font=self.min_font)
            where = f"{self.label} {screen} {kind} {w}×{h}"
            self.found += [f"{where}: {p}" for p in got]
            if got or (self.every and self.all_shots and i == 0):
                OUT.mkdir(parents=True, exist_ok=True)
                name = re.sub(r"[^A-Za-z0-9_.-]+", "-", f"{self.label}-{screen}-{kind}-{w}x{h}")
                held = "held" in screen  # (a whole page's shot lets go of the card)
                page.screenshot(path=str(OUT / f"{name}.png"), full_page=kind != "tv" and not held)
                self.shots += 1


def _dealt(hub: Any, gm: Any, tv: Any, phone: Any, looker: Looker, names: list[str],
           setup: dict) -> tuple[list[str], Callable[[int], None]]:
    """The lobby filled on the tablet (looked at), then the game dealt as the
    lobby deals it: waiting for "start" [issue 28]. The seats' links, and a
    wait until the three pages show a seat's current view."""
    expect(hook(gm, "lobby")).to_be_visible()
    hook(gm, "ruleset").select_option(str(setup["ruleset"]))
    hook(gm, "language").select_option(str(setup["language"]))
    hook(gm, "names").fill("\n".join(names))
    expect(hook(gm, "deal-total")).not_to_have_text("")
    looker.look(gm, "gm", "lobby", TABLETS)
    looker.look(tv, "tv", "lobby", TVS)
    hub.table.create({**setup, "players": names, "wait_for_start": True})
    links = [s["url"] for s in hub.table.seats()]
    game = hub.table.game

    def synced(seat: int) -> None:
        _wait(gm, hub.table.gm_view()["seq"], game)
        _wait(tv, hub.table.public()["seq"], game)
        _wait(phone, hub.table.seat_view(seat)["seq"], game)

    return links, synced


@pytest.mark.parametrize(("players", "lang", "ruleset", "every"), GAMES,
                         ids=[f"{n}-{lang}-{r}" for n, lang, r, _ in GAMES])
def test_every_screen_fits_in_one_language(players: int, lang: str, ruleset: str, every: bool,
                                           tmp_path: Path, new_context: Any) -> None:
    clock = FakeClock()
    names = NAMES[lang][:players]
    looker = Looker(f"{players}-{lang}-{ruleset}", lang, names, every)
    with running_hub(tmp_path / "hub", clock=clock, tick_s=None) as hub:
        try:
            gm = new_context(hub, viewport={"width": 1024, "height": 768},
                             has_touch=True).new_page()
            gm.goto(f"{hub.base}/gm?token={hub.token}&lang={lang}")
            tv = new_context(hub, viewport={"width": 1920, "height": 1080}).new_page()
            tv.goto(f"{hub.base}/table?lang={lang}")
            phone_context = new_context(hub, viewport={"width": 360, "height": 640},
                                        has_touch=True, is_mobile=True)
            phone = phone_context.new_page()
            links, synced = _dealt(hub, gm, tv, phone, looker, names, {
                "ruleset": ruleset, "seed": players, "language": lang})

            # the seats: the GM's list and QR, a phone's card (held too), the TV
            phone.goto(hub.base + links[-1])
            hook(gm, "tab-dealing").click()  # (a game dealt elsewhere opens on its running view)
            expect(hook(gm, "dealing")).to_be_visible()
            synced(len(names) - 1)
            looker.look(gm, "gm", "seats", TABLETS)
            looker.look(tv, "tv", "seats", TVS)
            looker.look(phone, "phone", "seats", PHONES)
            hook(phone, "card").hover()
            phone.mouse.down()
            looker.look(phone, "phone", "card", PHONES)
            phone.mouse.up()
            close_card(phone)  # (a short press is a tap: the next one closes it)
            gm.set_viewport_size({"width": 1024, "height": 768})
            hook(gm, "start").click()
            expect(hook(gm, "running")).to_be_visible()
            hook(gm, "secrets").check()  # the log and the night's facts: in words too
            at = len(names) - 1
            for screen in walk(hub.table, clock, seed=players):
                if at != screen.seat:
                    phone.goto(hub.base + links[screen.seat])
                    at = screen.seat
                synced(screen.seat)
                looker.look(phone, "phone", screen.name, PHONES)
                looker.look(gm, "gm", screen.name, TABLETS)
                looker.look(tv, "tv", screen.name, TVS)
        finally:
            new_context.close_all()
    assert not looker.found, "\n".join(looker.found[:60]) + f"\n({len(looker.found)} in all)"


# --- the widest names [issue 30] item 4 -----------------------------------------

#: the widest names a table takes: 40 characters each (the most,
#: companion/table/player_names.MAX_NAME) of the widest Latin letter, of
#: words and spaces, and of a wide CJK character; each unlike the others (the
#: names' own check refuses look-alikes)
WIDE_W = ["W" * k + "M" + "W" * (39 - k) for k in range(0, 40, 7)]
WIDE_SPACED = [("WWWWWWW " * 5)[:38] + "M" + x for x in "ABCDEF"]
WIDE_CJK = ["龘" * k + "靐" + "龘" * (39 - k) for k in range(0, 40, 7)]
WIDEST = [n for three in zip(WIDE_W, WIDE_SPACED, WIDE_CJK) for n in three]
#: the games: names in every place a card puts them (the pack, the lovers,
#: the charmed, the burned buildings, the rumour, the hunter's shot ...)
WIDE_GAMES = {
    "8-en": {"ruleset": "bga", "language": "en", "options": {"professions": True},
             "deal": ["seer", "werewolf", "werewolf", "witch", "pyromaniac", "rumormonger",
                      "cupid", "villager"]},
    "18-ja": {"ruleset": "millers-hollow", "language": "ja", "center": ["villager", "werewolf"],
              "deal": ["werewolf", "villager", "seer", "witch", "hunter", "cupid",
                       "little-girl", "thief", "defender", "village-idiot", "elder",
                       "scapegoat", "piper", "white-werewolf", "werewolf", "werewolf",
                       "villager", "villager"]},
}
#: the printed sheet: an A4 page less its 10 mm margins, at 96 px an inch
PRINTED = (718, 1047)


def _held(phone: Any, looker: Looker, screen: str) -> None:
    """The phone's card held, looked at on the small phone."""
    hook(phone, "card").hover()
    phone.mouse.down()
    looker.look(phone, "phone", f"{screen}-held", PHONES[:1])
    phone.mouse.up()
    close_card(phone)  # (a short press is a tap: the next one closes it)


def _aside(looker: Looker, page: Any, hub: Any, lang: str, names: list[str]) -> None:
    """The GM's other pages: the printable sheet (on screen and printed), the
    host's page and (a table of seat boxes) the virtual table."""
    page.goto(f"{hub.base}/gm/sheet?lang={lang}")
    looker.look(page, "gm", "sheet", TABLETS, words=False)  # (its links: not words)
    page.emulate_media(media="print")
    looker.look(page, "gm", "sheet-printed", [PRINTED], words=False)
    page.emulate_media(media="screen")
    page.goto(f"{hub.base}/host?lang={lang}")
    expect(hook(page, "host-seats").locator("li")).to_have_count(len(names))
    looker.look(page, "gm", "host", TABLETS)
    if "hardware" in hub.app.extensions:
        page.goto(f"{hub.base}/gm/table?lang={lang}")
        expect(hook(page, "who-1")).to_have_text(names[0])
        looker.look(page, "gm", "virtual", TABLETS)
    page.close()


@pytest.mark.parametrize("label", list(WIDE_GAMES))
def test_the_widest_names_fit_every_screen(label: str, tmp_path: Path, new_context: Any) -> None:
    """[issue 30] item 4: forty "W", forty "龘" or forty characters of words
    and spaces, at 8 and 18 players: every page at every size shows the
    longest names allowed with no sideways scroll, no overlap and no cut but
    an ellipsis holding the whole name in its title (screens_kit.LAYOUT_JS)."""
    setup = WIDE_GAMES[label]
    lang = str(setup["language"])
    names = WIDEST[:len(setup["deal"])]
    assert all(len(n) == 40 for n in names)
    clock = FakeClock()
    # (18 names of 40 characters, a tie of many: the TV's floor may come down
    # to 22 px there, as table.js fit() says [issue 43])
    looker = Looker(f"wide-{label}", lang, names, True,
                    shots="SCREENS_SHOTS" in os.environ,  # (the suite's time: on a problem)
                    min_font={1920: 22})
    with running_hub(tmp_path / "hub", clock=clock, tick_s=None,
                     hardware=len(names) <= 12) as hub:  # (12 seat boxes)
        try:
            gm_context = new_context(hub, viewport={"width": 1024, "height": 768},
                                     has_touch=True)
            gm = gm_context.new_page()
            gm.goto(f"{hub.base}/gm?token={hub.token}&lang={lang}")
            tv = new_context(hub, viewport={"width": 1920, "height": 1080}).new_page()
            tv.goto(f"{hub.base}/table?lang={lang}")
            phone = new_context(hub, viewport={"width": 360, "height": 640},
                                has_touch=True, is_mobile=True).new_page()
            links, synced = _dealt(hub, gm, tv, phone, looker, names, {
                **setup, "seed": len(names), "deal": dict(zip(names, setup["deal"]))})

            at = len(names) - 1
            phone.goto(hub.base + links[at])
            hook(gm, "tab-dealing").click()
            expect(hook(gm, "dealing")).to_be_visible()
            synced(at)
            looker.look(gm, "gm", "seats", TABLETS)
            looker.look(tv, "tv", "seats", TVS)
            looker.look(phone, "phone", "seats", PHONES)
            _held(phone, looker, "seats")
            _aside(looker, gm_context.new_page(), hub, lang, names)
            gm.set_viewport_size({"width": 1024, "height": 768})
            hook(gm, "start").click()
            expect(hook(gm, "running")).to_be_visible()
            hook(gm, "secrets").check()
            for screen in walk(hub.table, clock, seed=len(names)):
                if at != screen.seat:
                    phone.goto(hub.base + links[screen.seat])
                    at = screen.seat
                synced(screen.seat)
                looker.look(phone, "phone", screen.name, PHONES)
                _held(phone, looker, screen.name)
                targets = phone.locator("#day [data-test^=target-]")
                if screen.name.startswith("vote-") and targets.count():  # the confirm bar
                    targets.last.click()
                    expect(hook(phone, "confirm-text")).to_be_visible()
                    looker.look(phone, "phone", f"{screen.name}-picked", PHONES)
                looker.look(gm, "gm", screen.name, TABLETS)
                looker.look(tv, "tv", screen.name, TVS)
            hook(gm, "tab-history").click()  # the game replayed, everyone's results
            expect(hook(gm, "history")).to_be_visible()
            gm.locator("#games li").first.click()
            expect(gm.locator("#replay-players li")).to_have_count(len(names))
            expect(gm.locator("#stats tbody tr")).to_have_count(len(names))
            looker.look(gm, "gm", "history", TABLETS, words=False)
        finally:
            new_context.close_all()
    assert not looker.found, "\n".join(looker.found[:80]) + f"\n({len(looker.found)} in all)"


#: the check's own cases [issue 30]: (what, the page's body, the problems it must find)
CHECK_CASES = [
    ("a name wider than its line, broken: shown whole", '<p style="width:200px;'
     f'overflow-wrap:anywhere">{WIDE_W[0]} is dead</p>', []),
    ("a name that fits its line, broken anyway", '<p style="width:120px;word-break:break-all">'
     'Vote for Bartholomew now</p>', ["broken"]),
    ("a word of the language wider than its line, broken", '<p style="width:60px;'
     'overflow-wrap:anywhere">Extraordinarily</p>', ["broken"]),
    ("a name on two lines ending in \u2026, whole in its title",
     f'<p class="name-tag lines2" style="width:160px" title="{WIDE_SPACED[0]}">'
     f'{WIDE_SPACED[0]}</p>', []),
    ("the same without its title", f'<p class="name-tag lines2" style="width:160px">'
     f'{WIDE_SPACED[0]}</p>', ["cut"]),
    ("a link on three lines", '<p style="width:120px;word-break:break-all">'
     'http://192.168.4.1:8000/p/Xq3vT0kq9wS2pZ8aB7cD1e</p>', []),
]


@pytest.mark.parametrize(("what", "body", "found"), CHECK_CASES, ids=[c[0] for c in CHECK_CASES])
def test_the_layout_check_takes_a_long_name_whole_or_cut_and_nothing_else(
        what: str, body: str, found: list[str], hub: Any, new_context: Any) -> None:
    """[issue 30] item 4: the layout check takes a player's name broken when
    it is wider than its line (it cannot be shown whole otherwise) and a
    name held to two lines ending in "…" with its whole text in its title;
    a name broken that would fit its line, a word of the language broken
    and a cut with no title are still found."""
    page = new_context(hub, viewport={"width": 390, "height": 844}).new_page()
    css = (Path(__file__).parents[2] / "web" / "static" / "hub.css").read_text(encoding="utf-8")
    page.set_content(f"<style>{css}</style>{body}")
    names = [WIDE_W[0], WIDE_SPACED[0], "Bartholomew"]
    got = sorted({p.split(":")[0] for p in problems(page, names=names)})
    assert got == found, (what, problems(page, names=names))
