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
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest
from browser_kit import hook
from conftest import SHOTS, running_hub
from hub.conftest import FakeClock
from screens_kit import PHONES, TABLETS, TVS, problems, walk

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
        arg=[seq, game], timeout=10_000)
    page.evaluate(FRAMES)


class Looker:
    """The pages of one game, and what they found."""

    def __init__(self, label: str, lang: str, names: list[str], every_size: bool) -> None:
        self.label, self.lang, self.names, self.every = label, lang, names, every_size
        self.found: list[str] = []
        self.shots = 0

    def look(self, page: Any, kind: str, screen: str, sizes: list[tuple[int, int]]) -> None:
        few = sizes[-1:] if kind == "tv" else sizes[:1]  # the big TV: its 22 px
        for i, (w, h) in enumerate(sizes if self.every else few):
            page.set_viewport_size({"width": w, "height": h})
            page.evaluate(FRAMES)
            got = problems(page, tv=kind == "tv", lang=self.lang, names=self.names)
            where = f"{self.label} {screen} {kind} {w}×{h}"
            self.found += [f"{where}: {p}" for p in got]
            if got or (self.every and i == 0):
                OUT.mkdir(parents=True, exist_ok=True)
                name = re.sub(r"[^A-Za-z0-9_.-]+", "-", f"{self.label}-{screen}-{kind}-{w}x{h}")
                page.screenshot(path=str(OUT / f"{name}.png"), full_page=kind != "tv")
                self.shots += 1


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
            expect(hook(gm, "lobby")).to_be_visible()
            hook(gm, "ruleset").select_option(ruleset)
            hook(gm, "language").select_option(lang)
            hook(gm, "names").fill("\n".join(names))
            expect(hook(gm, "deal-total")).not_to_have_text("")
            looker.look(gm, "gm", "lobby", TABLETS)
            looker.look(tv, "tv", "lobby", TVS)
            hub.table.create({"ruleset": ruleset, "seed": players, "players": names,
                              "language": lang})
            hub.table.timer("pause")  # as the lobby's "deal" does: the night waits for "start"
            links = [s["url"] for s in hub.table.seats()]
            game = hub.table.game

            def synced(seat: int) -> None:
                _wait(gm, hub.table.gm_view()["seq"], game)
                _wait(tv, hub.table.public()["seq"], game)
                _wait(phone, hub.table.seat_view(seat)["seq"], game)

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
