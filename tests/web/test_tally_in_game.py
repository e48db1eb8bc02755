"""The tally of a real game on the pages (issue 15 item 4, CONTRACTS.md C1):
the sheriff's ballot weighs 2 and the rumormonger's poster adds 2 votes
(RULES.md §8) — the engine logs both in the tally's `ballots` and `extra`, and
the GM's tablet and the table screen show them as logged.

The game is driven through the GM's API (the test's driver); the pages are
only read. Until the engine's tally carries `ballots` (the merge of issue
15's engine part) the test skips, saying so; the same rendering is checked on
hand-made views in test_tally_in_browser.py whatever the engine."""

from __future__ import annotations

import time
from typing import Any

import pytest
from browser_kit import RECORDER, SCREEN, TABLET, hook, shown_on
from slowness import wait_ms, wait_s

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

NAMES = list("ABCDEFGH")
ROLES = ["werewolf", "werewolf", "seer", "rumormonger", "villager", "villager", "villager",
         "villager"]
#: day 1's execution vote: C (the sheriff) and D, H vote E; the poster is on E
VOTES = {"A": "F", "B": "F", "C": "E", "D": "E", "E": "F", "F": "G", "G": "F", "H": "E"}


def _to_day(hub: Any, seconds: float = 20) -> None:
    """Night 1: the rumormonger posts on E, every other step times out (the
    wolves do not agree: nobody dies)."""
    deadline = time.monotonic() + wait_s(seconds)
    while time.monotonic() < deadline:
        view = hub.api("GET", "/api/gm")
        if view["phase"] == "day":
            return
        if any(c["do"] == "post" for c in view["players"][3]["actions"]):
            hub.api("POST", "/api/actions", {"actor": "D", "do": "post", "target": "E"})
        else:
            hub.api("POST", "/api/actions", {"do": "timeout"})
    raise AssertionError("night 1 did not end")


def _vote(hub: Any, step: str, votes: dict[str, str], seconds: float = 20) -> None:
    """Wait for `step`'s ballot (ending a discussion), then cast `votes`."""
    deadline = time.monotonic() + wait_s(seconds)
    while time.monotonic() < deadline:
        view = hub.api("GET", "/api/gm")
        if view.get("vote") and view["vote"]["kind"] == step:
            for voter, target in votes.items():
                hub.api("POST", "/api/actions", {"actor": voter, "do": "vote", "target": target})
            return
        if (view.get("pace") or {}).get("mode") == "discussion":
            hub.api("POST", "/api/timer", {"do": "skip"})
        time.sleep(0.05)
    raise AssertionError(f"no {step} ballot: {hub.api('GET', '/api/gm').get('pending')}")


def test_the_sheriffs_weight_and_the_posters_votes_show_as_the_engine_logged(
        hub_factory, new_context, shot):
    with hub_factory("tally") as hub:
        try:
            hub.api("POST", "/api/games", {
                "ruleset": "millers-hollow", "players": NAMES, "seed": 5,
                "deal": dict(zip(NAMES, ROLES)),
                "options": {"sheriff": True, "discussion_s": 0, "night_s": 0, "pack_s": 0}})
            gm = new_context(hub, **TABLET).new_page()
            gm.goto(f"{hub.base}/gm?token={hub.token}")
            screen_context = new_context(hub, **SCREEN)
            screen_context.add_init_script(RECORDER)
            screen = screen_context.new_page()
            screen.goto(hub.base + "/table")
            _to_day(hub)
            _vote(hub, "election", {n: "C" for n in NAMES})
            _vote(hub, "vote", VOTES)
            tally = hub.api("GET", "/api/gm")["last_tally"]
            if "ballots" not in tally:
                pytest.skip("this tree's engine logs no ballots yet (issue 15, contract C1)")
            assert tally["counts"] == {"4": 6, "5": 4, "6": 1}, tally  # the engine's counts
            hook(gm, "tab-running").click()
            rows = gm.locator("[data-test=tally] .tally-row")
            expect(rows.first).to_have_text("E6C ×2, D, H, rumour ×2", timeout=wait_ms(10_000))
            expect(rows.nth(1)).to_have_text("F4A, B, E, G")
            shot(gm, "gm-tally-of-a-game")
            shown_on(screen, "tally", "C ×2, D, H, rumour ×2")
        finally:
            new_context.close_all()  # before this hub stops
