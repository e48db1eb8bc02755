"""Speaking turns, the candidates' vote and the night's "ready" in Chromium
[issue 34] "How it is checked": the pages a table sees at each new step.

- RULES.md §6 `discussion_turns` [003] (「輪流發言，玩家之間不得對話」): the
  table screen names the speaker and the next, the speaker's phone has
  "pass" and the next's says so; a pass moves the table screen on.
- §6 `vote_mode=candidates` [003]: in round 2 a candidate's phone has no
  ballot and says why, a voter's phone offers the two candidates only, the
  table screen lists the candidates with round 1's tally.
- §4 `ready_ends_night` [004 l.86–87]: every living phone the same Ready
  button in night 1's window (same box on a seer's and a villager's phone);
  once all have tapped and the seer has looked, the night ends at once.
- §6 [003] 「此後不得與其他玩家有任何交流」: the dead phone says so.
In Traditional Chinese (the game's and the phones' language); the GM's
hand (the API) plays what the test does not look at.
"""

from __future__ import annotations

import time
from typing import Any

import pytest
from a11y import axe
from browser_kit import PHONE, SCREEN, hook
from slowness import wait_ms, wait_s

from companion.engine import pending

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

WAIT = wait_ms(15_000)
ZH = ["王小明", "李美玲", "張偉", "陳怡君", "林志豪", "黃雅婷", "吳建宏", "劉淑芬"]
MH = ["werewolf", "werewolf", "seer", "witch", "hunter", "villager", "villager", "villager"]
JA = list("ABCDEFGHI")
JP = ["seer", "werewolf", "werewolf", "madman", "medium", "knight", "villager", "villager",
      "villager"]


def until(cond: Any, what: str, timeout: float = 15.0) -> None:
    end = time.monotonic() + wait_s(timeout)
    while time.monotonic() < end:
        if cond():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def phone(hub: Any, new_context: Any, url: str) -> Any:
    ctx = new_context(hub, **PHONE)
    ctx.add_cookies([{"name": "lang", "value": "zh_Hant", "url": hub.base}])
    page = ctx.new_page()
    page.goto(hub.base + url)
    return page


def skip_turns(hub: Any) -> None:
    while hub.table.pace.mode == "discussion":
        hub.api("POST", "/api/timer", {"do": "skip", "stage": hub.table.pace.stage})


def test_turns_and_the_candidates_vote_on_the_phones_and_the_table(hub_factory, new_context,
                                                                    shot):
    with hub_factory("turns") as hub:
        seats = hub.api("POST", "/api/games", {
            "ruleset": "millers-hollow", "players": ZH, "seed": 11, "language": "zh_Hant",
            "deal": dict(zip(ZH, MH)), "wait_for_start": True,
            "options": {"sheriff": False, "discussion_turns": True, "vote_mode": "candidates",
                        "turn_s": 30, "night_s": 0, "pack_s": 0}})["seats"]
        hub.api("POST", "/api/timer", {"do": "start"})
        until(lambda: pending(hub.table.state)["kind"] == "night", "the seer's call")
        hub.api("POST", "/api/timer", {"do": "skip"})
        until(lambda: pending(hub.table.state)["kind"] == "wolves", "the wolves' call")
        for wolf in ("王小明", "李美玲"):
            hub.api("POST", "/api/actions", {"do": "attack", "actor": wolf, "target": "黃雅婷"})
        for _ in range(40):  # the night's last calls, ended by the GM's Next
            if hub.table.pace.mode == "discussion":
                break
            if hub.table.pace.mode == "calls":
                hub.api("POST", "/api/timer", {"do": "skip", "stage": hub.table.pace.stage})
            time.sleep(0.05)
        order = hub.table.pace.turns
        assert order == [6, 7, 0, 1, 2, 3, 4]  # from the left of the victim (seat 5)
        speaker, after = (phone(hub, new_context, seats[s]["url"]) for s in order[:2])
        dead = phone(hub, new_context, seats[5]["url"])
        tv = new_context(hub, **SCREEN).new_page()
        tv.goto(hub.base + "/table")
        expect(hook(tv, "turn-speaker")).to_have_text(ZH[6], timeout=WAIT)
        expect(hook(tv, "turn-next")).to_contain_text(ZH[7])
        expect(hook(speaker, "pass-turn")).to_be_visible(timeout=WAIT)
        expect(hook(after, "next-turn")).to_be_visible(timeout=WAIT)
        expect(hook(after, "pass-turn")).to_have_count(0)
        # the dead stay silent: said once, in his language ([003])
        expect(hook(dead, "dead-rule")).to_have_text(
            "此後直到遊戲結束，不得以言語、手勢或眼神與其他玩家有任何交流。", timeout=WAIT)
        shot(tv, "turns-tv")
        shot(speaker, "turns-speaker")
        for page, state in ((tv, "TV turns"), (speaker, "phone turns (speaking)"),
                            (after, "phone turns (next)"), (dead, "phone dead")):
            axe(page, f"zh_Hant {state}")  # [issue 43]
        hook(speaker, "pass-turn").click()
        expect(hook(tv, "turn-speaker")).to_have_text(ZH[7], timeout=WAIT)
        expect(hook(after, "pass-turn")).to_be_visible(timeout=WAIT)
        expect(hook(speaker, "pass-turn")).to_have_count(0)
        skip_turns(hub)
        until(lambda: hub.table.pace.mode == "ballot", "round 1")
        for voter, target in {0: 3, 1: 3, 2: 4, 3: 4, 4: 3, 6: 4, 7: 2}.items():
            hub.api("POST", "/api/actions", {"do": "vote", "actor": ZH[voter],
                                             "target": ZH[target]})
        until(lambda: hub.table.pace.mode == "discussion", "the defence")
        assert hub.table.pace.turns == [3, 4] and hub.table.pace.turns_of == "defence"
        expect(hook(tv, "turn-speaker")).to_have_text(ZH[3], timeout=WAIT)
        skip_turns(hub)
        until(lambda: hub.table.pace.mode == "ballot", "round 2")
        candidate = phone(hub, new_context, seats[3]["url"])
        voter = speaker  # 吳建宏 (seat 6)
        expect(hook(candidate, "nominee")).to_be_visible(timeout=WAIT)
        expect(candidate.locator("[data-test^=target-]")).to_have_count(0)
        expect(voter.locator("[data-test^=target-]")).to_have_count(2, timeout=WAIT)
        expect(hook(tv, "nominees")).to_contain_text(ZH[3], timeout=WAIT)
        expect(hook(tv, "nominees")).to_contain_text(ZH[4])
        shot(tv, "candidates-tv")
        shot(candidate, "candidates-nominee")
        for page, state in ((tv, "TV candidates"), (candidate, "phone candidate"),
                            (voter, "phone candidates' vote")):
            axe(page, f"zh_Hant {state}")  # [issue 43]


def test_every_phone_has_the_same_ready_button_and_all_ready_ends_night_one(
        hub_factory, new_context, shot):
    with hub_factory("ready") as hub:
        seats = hub.api("POST", "/api/games", {
            "ruleset": "jp-standard", "players": JA, "seed": 4, "language": "zh_Hant",
            "deal": dict(zip(JA, JP)), "wait_for_start": True})["seats"]
        assert hub.table.state.opts["ready_ends_night"] is True  # jp-standard's default
        seer, villager = (phone(hub, new_context, seats[s]["url"]) for s in (0, 6))
        hub.api("POST", "/api/timer", {"do": "start"})
        for page in (seer, villager):
            expect(hook(page, "ready")).to_be_visible(timeout=WAIT)
            expect(hook(page, "ready")).to_be_enabled()
        axe(villager, "zh_Hant phone night (ready)")  # [issue 43]
        boxes = [hook(p, "ready").bounding_box() for p in (seer, villager)]
        assert boxes[0] == boxes[1]  # the same button in the same place
        assert hook(seer, "ready").inner_text() == hook(villager, "ready").inner_text()
        hook(villager, "ready").click()
        expect(hook(villager, "ready")).to_be_disabled(timeout=WAIT)
        shot(villager, "ready-tapped")
        for s in range(9):
            if s not in (0, 6):
                hub.table.ready(s)
        time.sleep(0.3)
        assert hub.table.pace.mode == "calls"  # the seer's phone is not ready yet
        # her Ready is her last word (RULES.md §4 Decision r5): she has not looked, and
        # the night ends on the taps alone, as if she had [issue 40]
        hook(seer, "ready").click()
        until(lambda: hub.table.pace.mode != "calls", "night 1's end", 5)
        expect(hook(villager, "ready")).to_be_hidden(timeout=WAIT)  # the day
