"""The GM tablet at 18 players [issue 28, "the GM tablet at 18 players"]: at
1024×768 and 1280×800 every seat of an 18-player table is in the window, or
in a panel that scrolls by itself with a visible hint that there is more —
never reachable only by scrolling the whole page — at night (each call),
during the day's vote (its ballots in, a seat's vote being entered: every
target in sight too), and on the seats screen (its "start" in sight). Each
seat is a tap target of 44 px at least. Names run up to 40 characters; what
does not fit its box ends in "…" and the page's own layout check
(screens_kit.LAYOUT_JS: no cut, no overlap, no sideways scroll, a hint on
every list that scrolls) finds nothing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from browser_kit import hook
from conftest import running_hub
from hub.conftest import FakeClock
from screens_kit import TABLETS, problems, walk

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

#: 18 names, four of 40 characters (the most a name may have: table.player_names)
NAMES = ["Ann", "Maximilian Alexander von Hohenzollern Jr", "Cid", "Dee",
         "Evangeline Wilhelmina Featherstone Smith", "Fay", "Gus", "Hal", "Ivy",
         "Jonathan", "Kim", "Lea", "Maximilian", "Ned", "Ola",
         "Bartholomew Montgomery Smythe the Fourth", "Quentinaaaaaaaaaaaaaaa",
         "Rosalind Amberley Constance Worthington"]
CARDS = {"werewolf": 4, "seer": 1, "witch": 1, "hunter": 1, "cupid": 1, "little-girl": 1,
         "thief": 1, "defender": 1, "elder": 1, "village-idiot": 1, "scapegoat": 1,
         "villager": 6}
FRAMES = "() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))"

#: each item of `list` (a selector) in the window, or in a panel that scrolls
#: by itself, itself in the window, with a visible scroll hint in the window;
#: each item a 44 px target at least
IN_SIGHT = """([list, least]) => {
  scrollTo(0, 0);
  const out = [];
  const H = innerHeight;
  const seen = (e) => e.checkVisibility();
  const inWindow = (r) => r.top >= -1 && r.bottom <= H + 1;
  const items = [...document.querySelectorAll(list)].filter(seen);
  if (!items.length) out.push(`nothing shows ${list}`);
  for (const e of items) {
    const r = e.getBoundingClientRect();
    const name = `${list} "${(e.innerText || "").trim().split("\\n")[0].slice(0, 30)}"`;
    if (least && r.height < least) out.push(`${name} is a ${Math.round(r.height)} px target`);
    if (inWindow(r)) continue;
    let panel = e.parentElement;
    for (; panel && panel !== document.body; panel = panel.parentElement) {
      const cs = getComputedStyle(panel);
      if ((cs.overflowY === "auto" || cs.overflowY === "scroll")
          && panel.scrollHeight > panel.clientHeight + 1) break;
    }
    if (!panel || panel === document.body) {
      const at = `${Math.round(r.top)}..${Math.round(r.bottom)} of ${H}`;
      out.push(`${name} is below the window (${at}): only the page's scroll reaches it`);
      continue;
    }
    const hints = [...panel.parentElement.querySelectorAll(".scroll-hint")].filter(seen);
    if (!inWindow(panel.getBoundingClientRect())) {
      out.push(`${name}: its panel runs below the window`);
    } else if (!hints.some((h) => inWindow(h.getBoundingClientRect()))) {
      out.push(`${name}: its panel scrolls with no hint in sight`);
    }
  }
  return [...new Set(out)];
}"""


def _check(page: Any, screen: str, found: list[str], lists: dict[str, int]) -> None:
    """At both tablet sizes: the layout check, and each of `lists` (selector →
    the least height of an item, 0: any) in sight."""
    for w, h in TABLETS:
        page.set_viewport_size({"width": w, "height": h})
        page.evaluate(FRAMES)
        where = f"{screen} {w}×{h}"
        found += [f"{where}: {p}" for p in problems(page, lang="en", names=NAMES)]
        for selector, least in lists.items():
            found += [f"{where}: {p}" for p in page.evaluate(IN_SIGHT, [selector, least])]


def test_every_seat_of_18_is_in_sight_on_the_gm_tablet(tmp_path: Path, new_context: Any) -> None:
    """[issue 28] the GM tablet at 18 players: see the module's text."""
    clock = FakeClock()
    found: list[str] = []
    with running_hub(tmp_path / "hub", clock=clock, tick_s=None) as hub:
        try:
            gm = new_context(hub, viewport={"width": 1024, "height": 768},
                             has_touch=True).new_page()
            gm.goto(f"{hub.base}/gm?token={hub.token}&lang=en")
            expect(hook(gm, "lobby")).to_be_visible()
            hook(gm, "ruleset").select_option("bga")
            hook(gm, "names").fill("\n".join(NAMES))
            expect(hook(gm, "count-werewolf")).to_have_text("4")
            _check(gm, "lobby", found, {})
            hub.table.create({"ruleset": "bga", "seed": 11, "players": NAMES,
                              "language": "en", "cards": CARDS})
            hub.table.timer("pause")  # as the lobby's "deal" does: the night waits for "start"
            hook(gm, "tab-dealing").click()
            expect(hook(gm, "dealing")).to_be_visible()
            expect(gm.locator("#seat-list > li")).to_have_count(18)
            hook(gm, "next-seat").click()  # Maximilian Alexander…'s QR
            _check(gm, "seats", found, {"#seat-list > li": 44, "[data-test=start]": 0})
            gm.set_viewport_size({"width": 1024, "height": 768})
            hook(gm, "start").click()
            expect(hook(gm, "running")).to_be_visible()
            hook(gm, "secrets").check()  # the cards in the seats: the longest they get
            votes = 0
            for screen in walk(hub.table, clock, seed=28):
                if not screen.name.startswith(("night-", "vote-")):
                    continue
                gm.wait_for_function(
                    "(seq) => document.body.dataset.seq === String(seq)",
                    arg=hub.table.gm_view()["seq"])
                _check(gm, screen.name, found, {"#players > li": 44})
                if screen.name == "vote-vote" and not votes:  # ballots in, one entered by hand
                    state = hub.table.state
                    alive = [s for s in range(state.size) if state.alive[s]]
                    for voter in alive[:10]:
                        target = alive[(alive.index(voter) + 1) % len(alive)]
                        hub.table.act_gm({"actor": state.names[voter], "do": "vote",
                                          "target": state.names[target]})
                    votes = len(alive[:10])
                    gm.wait_for_function(
                        "(seq) => document.body.dataset.seq === String(seq)",
                        arg=hub.table.gm_view()["seq"])
                    hook(gm, f"player-{alive[-1]}").click()
                    expect(hook(gm, "choice-vote")).to_be_visible()
                    _check(gm, "vote-ballots", found,
                           {"#players > li": 44, "[data-test=choice-vote] .target": 44})
                    hook(gm, f"player-{alive[-1]}").click()  # (the walk goes on)
            assert votes, "the walk never reached a vote"
        finally:
            new_context.close_all()
    assert not found, "\n".join(found[:40]) + f"\n({len(found)} in all)"


def test_a_long_moderator_line_leaves_the_table_in_sight(tmp_path: Path, new_context: Any) -> None:
    """[issue 44 item 8] "a long moderator line pushes the players' list below
    the fold" at 1024×768: day 1 of a 12-player BGA game with The Village and
    the wolves' ally's card (its dawn, the card and the day powers: ten lines
    and more); the line scrolls in its own box with its hint, and the
    table's first row is in the window."""
    names = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon", "Kim", "Lea"]
    profs = ["farmer", "drifter", "schoolteacher", "confessor", "drifter", "lord", "baker",
             "barber", "steward", "tavern-keeper", "bonesetter", "drifter"]
    with running_hub(tmp_path / "hub") as hub:
        try:
            hub.api("POST", "/api/games", {
                "ruleset": "bga", "players": names, "seed": 5, "language": "en",
                "professions": dict(zip(names, profs)),
                "cards": {"werewolf": 3, "seer": 1, "witch": 1, "hunter": 1, "villager": 6},
                "options": {"sheriff": False, "discussion_s": 200, "night_s": 0, "pack_s": 0,
                            "events": ["wolves-ally"]}})
            gm = new_context(hub, viewport={"width": 1024, "height": 768}).new_page()
            gm.goto(f"{hub.base}/gm?token={hub.token}")
            for _ in range(12):
                if hub.api("GET", "/api/gm")["pending"]["phase"] == "day":
                    break
                hub.api("POST", "/api/actions", {"do": "timeout"})
            for _ in range(12):
                if hub.api("GET", "/api/gm")["pace"]["mode"] != "calls":
                    break
                hub.api("POST", "/api/timer", {"do": "skip"})
            expect(hook(gm, "line")).to_contain_text("wolves' ally")
            gm.evaluate(FRAMES)
            line = hook(gm, "line")
            assert line.evaluate("(e) => e.scrollHeight > e.clientHeight + 1")  # it scrolls
            expect(line.locator("xpath=following-sibling::p[1]")).to_have_text("▼ scroll for more")
            first = gm.locator("#players > li").first.bounding_box()
            assert first is not None and first["y"] + first["height"] <= 768, first
            assert not problems(gm, tv=False), problems(gm, tv=False)
        finally:
            new_context.close_all()
