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
        expect(hook(screen, "line")).to_contain_text("Witch, wake up", timeout=5_000)
        assert time.monotonic() - started < PACK_S - 2  # ended early, not at its window's end
        while _call(hub) is not None:
            watch()
            time.sleep(0.1)
        assert calls == ["seer", "wolves", "witch"], calls
        assert not any(word in line for line in lines for word in ABSENT), lines
        expect(hook(screen, "phase")).to_contain_text("Day 1", timeout=5_000)
        expect(skip).to_have_text("Next")
        _keep(shot(screen, "table-day-1"))
