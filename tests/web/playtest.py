"""A whole game in the browser in each language, with a hub restart in the
middle of a vote and a phone offline for 20 s [issue 18, "How it is
checked"]. Not a test of the suite (it takes a minute or two a game): run it

    .venv/bin/python tests/web/playtest.py [--shots DIR] [--only en|ja|zh_Hant]

(8 players Millers Hollow in English, 9 jp-standard in Japanese, 12 BGA in
Traditional Chinese). Every seat has a phone, the GM a tablet, the table a
TV. The nights are played through the GM's API (the test's hand), the first
day's votes are tapped on the phones: one phone goes offline, taps its vote
(it says it is reconnecting), the hub is killed and started again on the
same data folder and port while the vote is open, the phone comes back 20 s
later: its old tap is refused as stale and the phone says plainly it was not
recorded; it taps again and is recorded. Every page follows the restarted
hub without a reload. Then the game is played to its end; screenshots of
every page at each step named below go to DIR. Exit status 1 on any problem.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from slowness import wait_ms

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]

from browser_kit import PHONE, SCREEN, TABLET, hook  # noqa: E402
from conftest import CHROMIUM_ARGS, chromium_path, running_hub  # noqa: E402
from hub.conftest import FakeClock  # noqa: E402
from screens_kit import problems, walk  # noqa: E402

GAMES = {
    "en": ("millers-hollow", ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal"]),
    "ja": ("jp-standard", ["あおい", "いつき", "うみ", "えま", "おと", "かい", "きら", "くう",
                           "けい"]),
    "zh_Hant": ("bga", ["王小明", "李美玲", "張偉", "陳怡君", "林志豪", "黃雅婷", "吳建宏",
                        "劉淑芬", "蔡明哲", "楊佩珊", "許文彬", "鄭惠如"]),
}


class Play:
    def __init__(self, browser: Any, lang: str, shots: Path) -> None:
        self.browser, self.lang, self.shots = browser, lang, shots
        self.ruleset, self.names = GAMES[lang]
        self.found: list[str] = []
        self.contexts: list[Any] = []

    def page(self, **options: Any) -> Any:
        context = self.browser.new_context(**options)
        context.set_default_timeout(wait_ms(15_000))
        self.contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda err: self.found.append(f"page error: {err}"))
        return page

    def shot(self, page: Any, name: str) -> None:
        page.screenshot(path=str(self.shots / f"play-{self.lang}-{name}.png"))

    def check(self, page: Any, where: str, tv: bool = False) -> None:
        self.found += [f"{where}: {p}" for p in problems(page, tv=tv, lang=self.lang,
                                                         names=self.names)]

    def synced(self, table: Any, gm: Any, tv: Any, phones: list[Any]) -> None:
        game = table.game
        marks = [(gm, table.gm_view()["seq"]), (tv, table.public()["seq"])]
        marks += [(p, table.seat_view(s)["seq"]) for s, p in enumerate(phones) if p is not None]
        for page, seq in marks:
            page.wait_for_function(
                "([seq, game]) => document.body.dataset.seq === String(seq)"
                " && document.body.dataset.game === String(game)", arg=[seq, game])

    def run(self) -> list[str]:
        clock = FakeClock()
        folder = Path(tempfile.mkdtemp()) / "hub"
        with running_hub(folder, clock=clock, tick_s=None) as hub:
            port = hub.server.port
            hub.table.create({"ruleset": self.ruleset, "seed": 11, "players": self.names,
                              "language": self.lang})
            gm = self.page(**TABLET)
            gm.goto(f"{hub.base}/gm?token={hub.token}")
            tv = self.page(**SCREEN)
            tv.goto(hub.base + "/table")
            links = [s["url"] for s in hub.table.seats()]
            phones = []
            for link in links:
                phone = self.page(**PHONE)
                phone.goto(hub.base + link)
                phones.append(phone)
            steps = walk(hub.table, clock, seed=11)
            for screen in steps:
                if screen.name == "vote-vote":
                    break
            self.synced(hub.table, gm, tv, phones)
            for page, name in ((gm, "gm-vote"), (tv, "tv-vote"),
                               (phones[screen.seat], "phone-vote")):
                self.shot(page, name)
            voters = [s for s in range(len(links)) if hub.table.seat_view(s)["actions"]]
            away, early = voters[0], voters[1:3]
            for seat in early:  # two ballots before the restart
                self.tap(phones[seat], hub.table.seat_view(seat))
            self.phones_offline(phones[away], True)
            self.tap(phones[away], hub.table.seat_view(away), wait=False)
            offline_since = time.monotonic()
            phones[away].wait_for_selector("[data-test=unsent]:not([hidden])")
            self.shot(phones[away], "phone-offline-tap")
            cast = dict(hub.table.state.votes)
        # the hub is gone mid-vote; it starts again on the same folder and port
        with running_hub(folder, clock=clock, tick_s=None, port=port) as hub:
            hub.table.resume()
            if dict(hub.table.state.votes) != cast:
                self.found.append(f"ballots lost over the restart: {cast} -> "
                                  f"{hub.table.state.votes}")
            others = [p for s, p in enumerate(phones) if s != away]
            self.synced(hub.table, gm, tv, [p if s != away else None for s, p in enumerate(phones)])
            self.shot(tv, "tv-after-restart")
            self.shot(gm, "gm-after-restart")
            time.sleep(max(0.0, 20 - (time.monotonic() - offline_since)))  # offline 20 s
            self.phones_offline(phones[away], False)
            phones[away].wait_for_selector("[data-test=unsent][hidden]", state="attached")
            error = hook(phones[away], "error")
            error.wait_for(state="visible")
            self.shot(phones[away], "phone-back-not-recorded")
            if "Not recorded" not in error.inner_text() and "未記錄" not in error.inner_text() \
                    and "記録されていません" not in error.inner_text():
                self.found.append(f"the stale tap was not said to be lost: {error.inner_text()!r}")
            self.tap(phones[away], hub.table.seat_view(away))
            if away not in hub.table.state.votes:
                self.found.append("the tap after coming back was not recorded")
            looked = [(gm, "gm"), (tv, "tv")]
            looked += [(p, f"phone {i}") for i, p in enumerate(others[:2])]
            for page, where in looked:
                self.check(page, f"after restart {where}", tv=page is tv)
            for screen in walk(hub.table, clock, seed=12):
                if screen.name == "end":
                    break
            self.synced(hub.table, gm, tv, phones)
            self.shot(tv, "tv-end")
            self.shot(gm, "gm-end")
            for seat, phone in enumerate(phones):
                self.check(phone, f"end phone {seat}")
                if seat < 2:
                    self.shot(phone, f"phone-end-{seat}")
                won = seat in hub.table.state.winners
                if not hook(phone, "outcome").count():
                    self.found.append(f"phone {seat} does not say whether it won")
                    self.shot(phone, f"phone-end-{seat}-no-outcome")
                    continue
                outcome = hook(phone, "outcome").inner_text()
                if won != (phone.locator("[data-test=outcome].won").count() == 1):
                    self.found.append(f"phone {seat} says {outcome!r}, won: {won}")
            self.check(tv, "end tv", tv=True)
            self.check(gm, "end gm")
            for context in self.contexts:
                context.close()
        return self.found

    def tap(self, phone: Any, view: dict, wait: bool = True) -> None:
        """The phone votes for the first candidate its view offers."""
        vote = next(c for c in view["actions"] if c["do"] == "vote")
        target = vote["targets"][0]
        box = hook(phone, "choice-vote")
        box.wait_for(state="visible")
        box.locator(f"[data-test=target-{target}]").click()
        hook(phone, "confirm").click()
        if wait:
            hook(phone, "confirm").wait_for(state="hidden")

    @staticmethod
    def phones_offline(phone: Any, offline: bool) -> None:
        phone.context.set_offline(offline)


def main() -> int:
    from playwright.sync_api import sync_playwright

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shots", type=Path, default=Path("test-artifacts/screenshots/playtest"))
    ap.add_argument("--only", choices=sorted(GAMES))
    args = ap.parse_args()
    args.shots.mkdir(parents=True, exist_ok=True)
    failed = False
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        for lang in [args.only] if args.only else list(GAMES):
            start = time.monotonic()
            found = Play(browser, lang, args.shots).run()
            print(f"{lang}: {len(found)} problem(s) in {time.monotonic() - start:.0f} s")
            for line in found[:40]:
                print("  " + line)
            failed = failed or bool(found)
        browser.close()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
