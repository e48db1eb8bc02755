"""The README's and the manual's pictures [issue 32], made, never drawn by hand:

    .venv/bin/python tools/make_images.py        # writes docs/images/*

Starts a real hub (`werewolf serve --port 0` on a fresh data folder, with its
simulated seat boxes and display), deals an 8-player Millers Hollow game
through the JSON API, starts it and lets the clock run into night 1, then
takes Chromium's screenshots (Playwright, Debian's /usr/bin/chromium as the
browser tests use it): the TV (`/table`, 1280×720), a player's phone
(`/p/<token>`, 390×844) and the GM tablet (`/gm`, 1024×768). The wiring
diagram and the seat box as it looks built are the pin map's own generator
(`python -m companion.firmware.pinmap --svg`, `--box-svg 3`), the box drawn
by Chromium into a PNG.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "images"
TOKEN = "make-images-token"
NAMES = ["Ann", "Bob", "Chloé", "Dan", "Eve", "Finn", "Gus", "Hana"]


def _post(base: str, path: str, body: dict) -> dict:
    request = urllib.request.Request(
        base + path, data=json.dumps(body).encode(), method="POST",
        headers={"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json",
                 "Origin": base})
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read() or b"{}")


def main() -> int:
    from playwright.sync_api import sync_playwright

    OUT.mkdir(parents=True, exist_ok=True)
    svg = subprocess.run([sys.executable, "-m", "companion.firmware.pinmap", "--svg",
                          str(ROOT / "hardware/pinmap.toml")], cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout
    (OUT / "wiring.svg").write_text(svg, encoding="utf-8")
    box_svg = subprocess.run([sys.executable, "-m", "companion.firmware.pinmap", "--box-svg",
                              "3", str(ROOT / "hardware/pinmap.toml")], cwd=ROOT, check=True,
                             capture_output=True, text=True).stdout
    with tempfile.TemporaryDirectory() as data:
        hub = subprocess.Popen(
            [sys.executable, "-m", "companion.cli", "serve", "--host", "127.0.0.1", "--port", "0",
             "--data", data, "--gm-token", TOKEN, "--simulate"],
            cwd=ROOT, stdout=subprocess.PIPE, text=True,
            env={**os.environ, "PYTHONPATH": str(ROOT)})
        try:
            assert hub.stdout is not None
            first = hub.stdout.readline()  # "Werewolf hub on http://127.0.0.1:PORT/ ..."
            base = first.split(" on ", 1)[1].split("/ ", 1)[0].rstrip("/")
            game = _post(base, "/api/games", {
                "ruleset": "millers-hollow", "players": NAMES, "seed": 7, "language": "en",
                "cards": {"werewolf": 2, "seer": 1, "witch": 1, "hunter": 1, "villager": 3},
                "wait_for_start": True})
            phone_url = base + game["seats"][2]["url"]
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path="/usr/bin/chromium")
                phone = browser.new_page(viewport={"width": 390, "height": 844})
                phone.goto(phone_url)
                _post(base, "/api/timer", {"do": "start"})
                time.sleep(2.0)  # night 1's first call opens
                tablet = browser.new_page(viewport={"width": 1024, "height": 768})
                tablet.goto(f"{base}/gm?token={TOKEN}")
                tv = browser.new_page(viewport={"width": 1280, "height": 720})
                tv.goto(base + "/table")
                box = browser.new_page(viewport={"width": 640, "height": 420})
                box.set_content(f'<body style="margin:0">{box_svg}</body>')
                time.sleep(2.0)  # the streams' first views
                phone.screenshot(path=str(OUT / "phone.png"))
                tablet.screenshot(path=str(OUT / "tablet.png"))
                tv.screenshot(path=str(OUT / "tv.png"))
                box.locator("svg").screenshot(path=str(OUT / "seat-box.png"))
                browser.close()
        finally:
            hub.terminate()
            hub.wait(timeout=10)
    for name in sorted(os.listdir(OUT)):
        print(OUT / name)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
