"""Non-interference of the night's *look* [issue 28], in Chromium.

tests/hub/test_secrecy.py proves what a seat's view holds; this proves what
its phone looks like. At night every phone shows one screen whatever its
card: the same visible text (the timer aside), the same buttons and the same
element boxes, in every call of nights 1 and 2, before a tap and after one
(each phone taps what its card may do now — the seer a name, the thief ①, the
witch a poison, cupid his first lover —, every other phone a name), with
the card not held. A phone whose screen differs from the others' in
anything a glance could see fails the test, naming its card and the call.

Games: Millers Hollow with 18 players holding every card of the ruleset (the
thief's two centre cards besides), Board Game Arena with The Village
(professions, the pyromaniac, the rumormonger) with 8, and jp-standard's
one window with 9. Each hub runs on a fake clock: a call ends when the test
moves the clock to its deadline, so no countdown differs between phones.
"""

from __future__ import annotations

import time
from typing import Any

import pytest
from browser_kit import PHONE, hook
from slowness import wait_ms, wait_s

pytest.importorskip("playwright.sync_api")

#: Everything a glance can see on the page: each visible element's tag, hook
#: or id, its own text, and its box; the page's height. The timer is left out
#: (its countdown is the table's, the same on every phone but read at
#: slightly different moments), and the deal screen's own seat's name.
LOOK_JS = """() => {
  const out = [];
  for (const e of document.body.querySelectorAll("*")) {
    // (the deal's "Your seat: Ann": whose phone it is, no card [issue 44])
    if (e.closest("#timer, #my-name") || e.tagName === "SCRIPT" || !e.checkVisibility()) continue;
    const r = e.getBoundingClientRect();
    if (!r.width && !r.height) continue;
    const own = [...e.childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent.trim())
      .filter((s) => s).join(" ");
    const box = [r.x, r.y, r.width, r.height].map(Math.round);
    out.push([e.tagName, e.dataset.test || e.id || "", own, ...box].join("|"));
  }
  out.push("height|" + document.documentElement.scrollHeight);
  return out;
}"""

NAMES_18 = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kim", "Lee",
            "Max", "Ned", "Oz", "Pia", "Quin", "Rae"]
MH_18 = ["werewolf", "villager", "seer", "witch", "hunter", "cupid", "little-girl", "thief",
         "defender", "village-idiot", "elder", "scapegoat", "piper", "white-werewolf",
         "pyromaniac", "rumormonger", "werewolf", "villager"]
BGA_8 = ["seer", "werewolf", "werewolf", "witch", "pyromaniac", "rumormonger", "cupid",
         "villager"]
JP_9 = ["seer", "werewolf", "werewolf", "madman", "medium", "knight", "villager", "villager",
        "villager"]
WINDOW = 300  # every call's window: three-digit countdowns on every phone

GAMES = {
    "millers-hollow-18": {"ruleset": "millers-hollow", "players": NAMES_18,
                          "deal": dict(zip(NAMES_18, MH_18)), "center": ["villager", "werewolf"],
                          "options": {"sheriff": False}},
    "bga-village-8": {"ruleset": "bga", "players": NAMES_18[:8],
                      "deal": dict(zip(NAMES_18, BGA_8)),
                      "options": {"sheriff": False, "professions": True}},
    "jp-standard-9": {"ruleset": "jp-standard", "players": NAMES_18[:9],
                      "deal": dict(zip(NAMES_18, JP_9)), "options": {}},
}


class Clock:
    def __init__(self) -> None:
        self.t = 5_000.0

    def __call__(self) -> float:
        return self.t


def _settled(hub: Any, phones: dict[int, Any]) -> None:
    """Every phone shows its seat's current view (stream.js marks body[data-seq])."""
    for seat, page in phones.items():
        seq = str(hub.table.seat_view(seat)["seq"])
        page.wait_for_function("(s) => document.body.dataset.seq === s", arg=seq,
                               timeout=wait_ms(10_000))
    phones[next(iter(phones))].wait_for_timeout(60)


def _compare(hub: Any, phones: dict[int, Any], when: str) -> int:
    """The look of every living phone, against the first's; answers how many."""
    state = hub.table.state
    living = {s: p for s, p in phones.items() if state.alive[s]}
    looks = {s: p.evaluate(LOOK_JS) for s, p in living.items()}
    first = next(iter(looks))
    for seat, look in looks.items():
        if look != looks[first]:
            diff = next((a, b) for a, b in zip(looks[first] + [""], look + [""]) if a != b)
            raise AssertionError(
                f"{when}: the phone of {state.names[seat]} ({state.roles[seat]}) differs from "
                f"{state.names[first]}'s ({state.roles[first]}): {diff}")
    return len(looks)


def _card_in_reach(page: Any, when: str) -> None:
    """[issue 28] "Everything in reach": the card is on screen without scrolling."""
    box = page.evaluate("""() => { window.scrollTo(0, 0);
        const r = document.getElementById("card").getBoundingClientRect();
        return [r.top, r.bottom, window.innerHeight]; }""")
    assert 0 <= box[0] and box[1] <= box[2], f"{when}: the card is at {box[:2]} of {box[2]} px"


def _tap(hub: Any, seat: int, page: Any) -> None:
    """What this phone's card may do now (a name or a sign), then Confirm."""
    view = hub.table.seat_view(seat)
    main = next((c for c in view["actions"] if c["do"] != "pass"), None)
    if main is None:
        others = [p["seat"] for p in view["players"] if p["alive"] and p["seat"] != seat]
        hook(page, f"name-{others[0]}").click()
    elif main["do"] in ("swap", "spy"):
        hook(page, "mark-1").click()
    elif main["do"] == "potion":
        if main["targets"]:
            hook(page, f"name-{main['targets'][-1]}").click()
        else:
            hook(page, "night-pass").click()
    else:
        hook(page, f"name-{main['targets'][0]}").click()
    hook(page, "confirm").click()
    hook(page, "confirm").wait_for(state="hidden")
    assert not hook(page, "error").is_visible(), hook(page, "error").inner_text()


def _to_next_call(hub: Any, clock: Clock) -> None:
    pace = hub.table.pace
    if pace.deadline is not None:
        clock.t = max(clock.t, pace.deadline) + 0.01
    else:
        clock.t += 1
    deadline = time.monotonic() + wait_s(10)
    while time.monotonic() < deadline and hub.table.pace is pace:
        time.sleep(0.02)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_phone_looks_the_same_in_every_call(hub_factory, new_context, game):
    """[issue 28] "At arm's length every phone looks the same at night,
    whatever its card" (RULES.md §4: nothing public may reveal who acted at
    night; DESIGN.md: a seat's look is one shared shape at night)."""
    clock = Clock()
    setup = {**GAMES[game], "seed": 4, "wait_for_start": True}
    setup["options"] = {**setup["options"], "night_s": WINDOW, "pack_s": WINDOW,
                        "discussion_s": 5}
    with hub_factory(game, clock=clock, tick_s=0.03) as hub:
        seats = hub.api("POST", "/api/games", setup)["seats"]
        phones = {}
        for s in seats:
            page = new_context(hub, **PHONE).new_page()
            page.goto(hub.base + s["url"])
            phones[s["seat"]] = page
        _settled(hub, phones)
        _compare(hub, phones, "the deal")
        _card_in_reach(phones[0], "the deal")
        hub.api("POST", "/api/timer", {"do": "start"})
        compared: list[str] = []
        for _ in range(400):
            pace = hub.table.pace
            if pace.mode == "calls" and pace.night > 2 or hub.table.state.phase == "over":
                break
            call = pace.calls[pace.cursor] if pace.mode == "calls" and \
                pace.cursor < len(pace.calls) else None
            if call is None:
                _to_next_call(hub, clock)
                continue
            when = f"night {pace.night}, the {call} call"
            _settled(hub, phones)
            _compare(hub, phones, when + ", before a tap")
            _card_in_reach(phones[0], when)
            for seat, page in phones.items():
                if hub.table.state.alive[seat]:
                    _tap(hub, seat, page)
            _settled(hub, phones)
            _compare(hub, phones, when + ", after a tap")
            compared.append(when)
            _to_next_call(hub, clock)
        small = phones[0]  # the smallest phone of [issue 28]'s check, at night
        small.set_viewport_size({"width": 360, "height": 640})
        _card_in_reach(small, f"{len(seats)} players at 360×640")
        new_context.close_all()
    nights = {w.split(",")[0] for w in compared}
    assert nights == {"night 1", "night 2"}, compared
