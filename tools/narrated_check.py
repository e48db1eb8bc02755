#!/usr/bin/env python3
"""The issue's check of a narrated game [issue 42], with the TV in Chromium.

    .venv/bin/python tools/narrated_check.py --lang ja [--quick] [--quota PERCENT]

`werewolf bench narration`'s game (companion/bench/narration.py: a real hub
in this process, the phones acting as theirs do, from an empty voice cache),
but the table screen is the real page, /table in Debian's Chromium
(Playwright, the tests' browser), its voice switched on with a tap: every
audio request it makes is recorded with its status, every line it begins
(web/static/narration.js's `spoken` list) and every caption it shows. With
`--quota`, the hub — this process and the engines it starts, not Chromium,
started first — runs under PERCENT of one core (a cgroup, as
tools/pi-speed.sh makes one; root), a Pi's speed near enough
(docs/performance/narration.md says how PERCENT is found).

Prints the bench's JSON object last, with the screen's own figures:
`chromium_wav` (statuses of the audio requests), `chromium_begun` (lines
begun on the page), `chromium_captions` (captions shown) and `uncaptioned`
(lines said, never shown as a caption).
"""

from __future__ import annotations

import argparse
import atexit
import json
import os
import sys
import threading
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion.bench import narration  # noqa: E402

CAPTIONS = """
window.__captions = [];
setInterval(() => {
  const c = document.getElementById("caption");
  const shown = c && !c.hidden ? c.textContent : "";
  const last = window.__captions[window.__captions.length - 1];
  if (shown && shown !== last) window.__captions.push(shown);
}, 50);
"""


class ChromiumScreen(threading.Thread):
    """The table screen: /table in Chromium, its voice on."""

    launched = threading.Event()

    def __init__(self, port: int, stop: threading.Event) -> None:
        super().__init__(name="bench-chromium", daemon=True)
        self.port, self.stop = port, stop
        self.wav: dict[int, int] = {}
        self.errors: list[str] = []
        self.begun: list[int] = []
        self.captions: list[str] = []

    def run(self) -> None:
        from playwright.sync_api import sync_playwright

        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(
                    executable_path=os.environ.get("CHROMIUM", "/usr/bin/chromium"),
                    args=["--no-sandbox", "--disable-gpu", "--no-first-run",
                          "--autoplay-policy=no-user-gesture-required"])
                ChromiumScreen.launched.set()
                page = browser.new_page(viewport={"width": 1920, "height": 1080})
                page.add_init_script(CAPTIONS)

                def seen(r: Any) -> None:
                    if "/api/speech/" in r.url and r.url.endswith(".wav"):
                        self.wav[r.status] = self.wav.get(r.status, 0) + 1

                page.on("response", seen)
                page.on("pageerror", lambda err: self.errors.append(str(err)))
                page.goto(f"http://{narration.HOST}:{self.port}/table")
                page.wait_for_selector("#voice:not([hidden])", timeout=60_000)
                page.click("#voice")
                while not self.stop.is_set():
                    page.wait_for_timeout(1000)
                    self._read(page)
                self._read(page)
                browser.close()
        except Exception as err:  # noqa: BLE001 - reported in the figures
            self.errors.append(repr(err))
            ChromiumScreen.launched.set()

    def _read(self, page: Any) -> None:
        self.begun = [int(n) for n in page.eval_on_selector_all(
            "[data-test=spoken] li", "els => els.map(e => e.dataset.n)")]
        self.captions = page.evaluate("window.__captions")

    def figures(self) -> dict:
        return {"chromium_wav": {str(k): v for k, v in sorted(self.wav.items())},
                "chromium_begun": len(self.begun), "chromium_captions": len(self.captions),
                "captions": self.captions}


def quota(percent: int) -> None:
    """Move this process (the hub; the engines it starts from now on follow
    it) into a cgroup of its own with PERCENT of one core."""
    period, group = 100_000, f"werewolf-check-{os.getpid()}"
    if Path("/sys/fs/cgroup/cgroup.controllers").exists():
        folder = Path("/sys/fs/cgroup") / group
        folder.mkdir()
        (folder / "cpu.max").write_text(f"{period * percent // 100} {period}")
    else:
        folder = Path("/sys/fs/cgroup/cpu") / group
        folder.mkdir()
        (folder / "cpu.cfs_period_us").write_text(str(period))
        (folder / "cpu.cfs_quota_us").write_text(str(period * percent // 100))
    (folder / "cgroup.procs").write_text(str(os.getpid()))

    def gone() -> None:  # back to the parent group, the group removed
        for pid in (folder / "cgroup.procs").read_text().split():
            try:
                (folder.parent / "cgroup.procs").write_text(pid)
            except OSError:
                pass
        try:
            folder.rmdir()
        except OSError:
            print(f"narrated_check: {folder} left behind", file=sys.stderr)

    atexit.register(gone)
    print(f"narrated_check: the hub under {folder} ({percent}% of one core)", file=sys.stderr)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lang", choices=sorted(narration.GAMES), default="ja")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--quota", type=int, metavar="PERCENT")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    def dealt() -> None:  # Chromium is up: the hub alone goes under the quota
        ChromiumScreen.launched.wait(120)
        if args.quota:
            quota(args.quota)

    got = narration.run(args.lang, quick=args.quick, seed=args.seed,
                        start_after_s=20.0 if args.quick else 60.0,
                        screen=ChromiumScreen, dealt_hook=dealt)
    got["quota_percent"] = args.quota
    print(json.dumps(got, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
