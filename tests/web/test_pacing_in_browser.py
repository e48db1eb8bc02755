"""A base game's night in the browser ([issue 16], RULES.md §4 revised): the
table screen and the phones show the deck before night 1; the night calls the
seer, the werewolves and the witch and nothing else (no Village call, no
thief, no cupid); the seer who answers at once waits on "done" while her
call runs its window; the GM's Next ends a live call at once and says the
table will see it end early."""

from __future__ import annotations

import shutil
import time
from pathlib import Path
from typing import Any

from browser_kit import caught_up, hook, night_tap, open_pages
from slowness import wait_ms, wait_s

from companion.table.pacing import Settings

NOTES = Path("/work/notes/shots/pace")
ROLE_S, PACK_S = 6.0, 8.0
SETTINGS = Settings(call_s=(ROLE_S, PACK_S), ballot_s=20, prompt_s=10, last_words_s=0.5,
                    verdict_s=1.5)
PLAYERS = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus", "Hal"]
DEAL = ["werewolf", "werewolf", "seer", "witch", "hunter", "villager", "villager", "villager"]
ABSENT = ("Thief", "Cupid", "Defender", "Piper", "Pyromaniac", "Rumormonger", "building",
          "Little girl", "White werewolf")


def _keep(path: Path) -> None:
    if NOTES.parent.exists():
        NOTES.mkdir(parents=True, exist_ok=True)
        shutil.copy(path, NOTES / path.name.split("--")[-1])


def _call(hub: Any) -> str | None:
    pace = hub.table.public().get("pace") or {}
    return pace.get("call") if pace.get("mode") == "calls" else None


def test_a_base_night_calls_the_deck_and_the_gms_next_ends_a_live_call(
        hub_factory: Any, new_context: Any, shot: Any) -> None:
    from playwright.sync_api import expect

    with hub_factory("pacing", settings=SETTINGS) as hub:
        seats = hub.api("POST", "/api/games", {
            "ruleset": "millers-hollow", "players": PLAYERS, "seed": 3,
            "deal": dict(zip(PLAYERS, DEAL)),
            "options": {"sheriff": False, "discussion_s": 60}})["seats"]
        hub.api("POST", "/api/timer", {"do": "pause"})  # held while the pages open
        phones, screen, gm = open_pages(hub, new_context, seats, (2, 5))
        seer, villager = phones[2], phones[5]
        # the deck is public: the table screen and every phone show it; the GM's lobby says so
        for page in (screen, seer, villager):
            deck = hook(page, "deck")
            expect(deck).to_be_visible() if page is screen else expect(deck).to_be_attached()
            for name in ("Werewolf", "Seer", "Witch", "Hunter", "Villager"):
                expect(deck).to_contain_text(name)
        expect(hook(gm, "deck-public")).to_have_count(1)
        calls: list[str] = []
        lines: set[str] = set()

        def watch() -> None:
            call = _call(hub)
            if call is not None and (not calls or calls[-1] != call):
                calls.append(call)
            lines.add(hook(screen, "line").inner_text())

        hook(gm, "tab-running").click()  # the GM's game view, with its Next
        hub.api("POST", "/api/timer", {"do": "resume"})
        # the seer answers at once: her phone says noted, her call goes on
        while not hub.table.seat_view(2)["actions"]:
            time.sleep(0.05)
        caught_up(hub, seer)
        night_tap(seer, seat=0)
        expect(hook(seer, "night-status")).to_have_text(
            "Noted: you may change it until the call ends.")
        watch()
        assert _call(hub) == "seer"
        _keep(shot(seer, "phone-seer-done"))
        _keep(shot(screen, "table-night-seer-call"))
        # the wolves' call is live (nobody answers): the GM's Next ends it at once
        while _call(hub) != "wolves":
            watch()
            time.sleep(0.1)
        watch()
        started = time.monotonic()
        skip = hook(gm, "skip")
        expect(skip).to_have_text("Next: the table will see this call end early")
        _keep(shot(gm, "gm-next-on-a-call"))
        skip.click()
        expect(hook(screen, "line")).to_contain_text("Witch, wake up", timeout=wait_ms(5_000))
        assert time.monotonic() - started < PACK_S - 2  # ended early, not at its window's end
        while _call(hub) is not None:
            watch()
            time.sleep(0.1)
        assert calls == ["seer", "wolves", "witch"], calls
        assert not any(word in line for line in lines for word in ABSENT), lines
        expect(hook(screen, "phase")).to_contain_text("Day 1", timeout=wait_ms(5_000))
        expect(skip).to_have_text("Next")
        _keep(shot(screen, "table-day-1"))


def test_two_tablets_pressing_next_together_end_one_call(
        hub_factory: Any, new_context: Any, shot: Any) -> None:
    """[issue 30 item 2]: two GM tablets press Next in the seer's call; the
    second press reaches the hub after the first has opened the wolves'
    call (its request held back until then). It names the seer's call's
    stage, so the hub refuses it (409) and the wolves' call runs on; that
    tablet says the clock moved on. Before, both were taken and the game went
    to day 1 with no attack."""
    from browser_kit import TABLET
    from playwright.sync_api import expect

    with hub_factory("two-nexts", settings=Settings(call_s=(30.0, 30.0))) as hub:
        hub.api("POST", "/api/games", {
            "ruleset": "millers-hollow", "players": PLAYERS, "seed": 3,
            "deal": dict(zip(PLAYERS, DEAL)), "options": {"sheriff": False}})
        tablets = []
        for _ in range(2):
            page = new_context(hub, **TABLET).new_page()
            page.goto(f"{hub.base}/gm?token={hub.token}")
            hook(page, "tab-running").click()
            tablets.append(page)
        first, second = tablets
        for page in tablets:
            expect(hook(page, "skip")).to_be_visible()
        assert _call(hub) == "seer"
        held: list[Any] = []
        second.route("**/api/timer", lambda route: held.append(route))
        hook(second, "skip").click()  # pressed on the seer's call; held on the way
        deadline = time.monotonic() + wait_s(5)
        while not held and time.monotonic() < deadline:
            second.wait_for_timeout(20)
        assert held, "the second tablet's press was never sent"
        sent = held[0].request.post_data_json
        assert sent["do"] == "skip" and sent["stage"] == hub.api("GET", "/api/gm")["pace"]["stage"]
        hook(first, "skip").click()
        first.wait_for_timeout(wait_ms(300))
        assert _call(hub) == "wolves"
        held[0].continue_()  # now it arrives: too late for the call it meant
        expect(second.locator("#error")).to_contain_text("moved on", timeout=wait_ms(5_000))
        assert _call(hub) == "wolves"
        shot(second, "gm-next-refused")
