"""Everyone at the table plays [issue 43]: a blind player with a screen
reader, a deaf player, low vision, colour blindness.

- The accessibility tree of a whole night and vote on a villager's and a
  wolf's phone, side by side: identical at every step (the calls, a tap, a
  Confirm, the vote, the tally); the card's text is absent until the card is
  opened, by a tap as a screen reader's double-tap sends it; it closes on the
  next tap or by itself; each change a player must act on is said politely
  (`role=status`) in the same words on every phone, never with the card; a
  pick is pressed (`aria-pressed`); Confirm follows the names.
- The phone fits 320 px wide at 200 % text (the browser's default font size
  doubled, as a phone's "largest text" does) with no sideways scroll.
"""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from a11y import axe
from browser_kit import caught_up, hook, next_call, open_pages
from slowness import wait_ms, wait_s

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal"]
ROLES = ["werewolf", "werewolf", "seer", "villager", "villager", "villager", "villager",
         "witch"]
WOLF, VILLAGER, SEER = 0, 3, 2
WAIT = wait_ms(15_000)


def _tree(page: Any) -> str:
    """The phone's whole page as a screen reader reads it; its own seat's
    "(you)" (public: whose phone it is) taken out."""
    tree = re.sub(r" \(you\)", "", str(page.locator("main").aria_snapshot()))
    # the countdown, as each phone last ticked it (a second apart on a busy machine)
    return re.sub(r"\b\d+ s\b", "N s", tree)


def _same(wolf: Any, villager: Any, step: str) -> str:
    tree = _tree(wolf)
    assert tree == _tree(villager), f"{step}: the trees differ\n{tree}\n---\n{_tree(villager)}"
    for word in ("Werewolf", "Attack", "pack"):  # (the dead's cards are public: Gus's)
        assert word not in tree, f"{step}: {word!r} in the tree\n{tree}"
    return tree


def _said(page: Any) -> str:
    return str(hook(page, "say").text_content())


def test_a_wolfs_and_a_villagers_trees_are_one_through_a_night_and_a_vote(
        hub_factory, new_context, shot):
    with hub_factory("a11y-tree") as hub:
        try:
            _night_and_vote(hub, new_context, shot)
        finally:
            new_context.close_all()


def _night_and_vote(hub: Any, new_context: Any, shot: Any) -> None:
    doc = {"ruleset": "millers-hollow", "players": NAMES, "seed": 5,
           "deal": dict(zip(NAMES, ROLES)),
           "options": {"sheriff": False, "discussion_s": 0, "night_s": 0, "pack_s": 0,
                       "secret_deck": True}}  # (the deck names the cards in play)
    seats = hub.api("POST", "/api/games", doc)["seats"]
    phones, tv, _ = open_pages(hub, new_context, seats, (WOLF, VILLAGER))
    wolf, villager = phones[WOLF], phones[VILLAGER]
    for page in (wolf, villager):
        caught_up(hub, page)
        expect(hook(page, "night-screen")).to_be_visible()
    # the card: its back, the same on both; nothing of it in the tree
    _same(wolf, villager, "night 1, the card closed")
    card = hook(wolf, "card")
    expect(card).to_have_attribute("aria-expanded", "false")
    # a tap (what TalkBack's and VoiceOver's double-tap sends) opens it ...
    card.click()
    expect(hook(wolf, "role")).to_have_text("Werewolf")
    expect(card).to_have_attribute("aria-expanded", "true")
    assert "Werewolf" in str(card.aria_snapshot())
    assert wolf.locator("[aria-live] #card, #card[aria-live], #card [aria-live], "
                        "[role=status] #card, #card [role=status]").count() == 0
    assert "Werewolf" not in _said(wolf)  # no live region speaks it
    wolf.wait_for_timeout(wait_ms(400))
    expect(hook(wolf, "role")).to_have_text("Werewolf")  # a tap: it stays open
    axe(wolf, "en phone card opened by a tap")
    shot(wolf, "card-tapped")
    card.click()  # ... and the next tap closes it
    expect(hook(wolf, "role")).to_be_empty()
    expect(card).to_have_attribute("aria-expanded", "false")
    _same(wolf, villager, "night 1, the card closed again")
    # a keyboard's Enter (a switch, a Bluetooth keyboard) taps it too
    card.focus()
    wolf.keyboard.press("Enter")
    expect(hook(wolf, "role")).to_have_text("Werewolf")
    wolf.keyboard.press("Enter")
    expect(hook(wolf, "role")).to_be_empty()

    # the night, call by call: the same tree and the same words said
    for call in ("seer", "wolves"):
        next_call(hub, call)
        if call == "seer":  # 200 % text on a 320 px phone, at night too
            got = wide_at_200_percent(villager)
            assert got["width"] <= NARROW["width"] and got["lang"] <= 0, got
        for page in (wolf, villager):
            caught_up(hub, page)
        tree = _same(wolf, villager, f"night 1, the {call}' call")
        said = _said(wolf)
        assert said == _said(villager) and said.startswith("Night 1"), said
        # the order a screen reader swipes: the names, then Confirm
        hook(wolf, "name-6").click()
        hook(villager, "name-6").click()
        expect(hook(wolf, "name-6")).to_have_attribute("aria-pressed", "true")
        tree = _same(wolf, villager, f"the {call}' call, Gus picked")
        assert tree.index("Gus") < tree.index('button "Confirm"'), tree
        assert tree.index('button "Confirm"') < tree.index('link "Help"') if "Help" in tree \
            else True
        for page in (wolf, villager):
            hook(page, "confirm").click()
            expect(hook(page, "confirm")).to_be_hidden()
            expect(hook(page, "say")).to_have_text("Noted: you may change it until the call ends.")
        _same(wolf, villager, f"the {call}' call, confirmed")
        if call == "wolves":
            axe(villager, "en phone night, confirmed")
            shot(villager, "night-confirmed")
    hub.api("POST", "/api/actions", {"do": "attack", "actor": "Bob", "target": "Gus"})
    next_call(hub, "")  # the witch's call and dawn
    # the day: Gus is dead; the vote opens on both phones
    for page in (wolf, villager):
        expect(hook(page, "choice-vote")).to_be_visible(timeout=WAIT)
        caught_up(hub, page)
    _same(wolf, villager, "day 1, the vote")
    assert _said(wolf) == _said(villager)
    assert "Your vote" in _said(wolf), _said(wolf)
    for page in (wolf, villager):
        pick = hook(page, "choice-vote").locator("[data-test=target-4]")
        pick.click()
        expect(pick).to_have_attribute("aria-pressed", "true")
    tree = _same(wolf, villager, "day 1, Eve picked")
    assert tree.index("Eve") < tree.index('button "Confirm"'), tree
    shot(villager, "vote-picked")
    for page in (wolf, villager):
        hook(page, "confirm").click()
        expect(hook(page, "confirm")).to_be_hidden()
        expect(hook(page, "say")).to_have_text("✓ Vote for: Eve")
    _same(wolf, villager, "day 1, voted")
    axe(villager, "en phone voted")
    for name in NAMES:  # the others vote: the tally closes the vote
        if name not in ("Ann", "Dee", "Gus"):
            hub.api("POST", "/api/actions", {"do": "vote", "actor": name, "target": "Eve"})
    for page in (wolf, villager):
        expect(page.locator("#news")).to_contain_text("Votes", timeout=WAIT)
        caught_up(hub, page)
    _same(wolf, villager, "day 1, the tally")
    # 200 % text on a 320 px phone: no sideways scroll, the language menu in the window
    got = wide_at_200_percent(villager)
    assert got["width"] <= NARROW["width"] and got["lang"] <= 0, got

    # a card opened by a tap closes by itself (8 s), as the back of the card says
    villager.clock.install()
    hook(villager, "card").click()
    expect(hook(villager, "role")).to_have_text("Villager")
    villager.clock.run_for(7_000)
    expect(hook(villager, "role")).to_have_text("Villager")
    villager.clock.run_for(1_500)
    expect(hook(villager, "role")).to_be_empty()


#: 200 % text: the browser's default font size doubled (Chrome's "font size",
#: a phone's largest text), at the narrowest phone the pages support
NARROW = {"width": 320, "height": 568}


def wide_at_200_percent(page: Any) -> dict[str, float]:
    """The page at 320×568 with every rem doubled: its width, and how far the
    language menu's right edge is past the window (then back as it was)."""
    size = page.viewport_size
    cdp = page.context.new_cdp_session(page)
    page.set_viewport_size(NARROW)
    cdp.send("Page.setFontSizes", {"fontSizes": {"standard": 32, "fixed": 26}})
    try:
        page.wait_for_function(
            "() => getComputedStyle(document.documentElement).fontSize === '32px'")
        page.evaluate(
            "() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
        return dict(page.evaluate("""() => ({
            width: document.documentElement.scrollWidth,
            lang: document.getElementById('lang').getBoundingClientRect().right - innerWidth})"""))
    finally:
        cdp.send("Page.setFontSizes", {"fontSizes": {"standard": 16, "fixed": 13}})
        page.set_viewport_size(size)
        cdp.detach()


# --- the keyboard on the tablet, the tree on a phone, to the end -----------------

EIGHT = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal"]


def _tab_to(page: Any, selector: str, most: int = 120) -> None:
    """Tab (only the keyboard) until `selector` has the focus."""
    for _ in range(most):
        if page.evaluate("(s) => !!document.activeElement && document.activeElement.matches(s)",
                         selector):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {selector}")


def _until(cond: Any, what: str, timeout: float = 15.0) -> None:
    end = time.monotonic() + wait_s(timeout)
    while not cond():
        assert time.monotonic() < end, f"timed out waiting for {what}"
        time.sleep(0.05)


def _call(hub: Any) -> str | None:
    pace = hub.table.pace
    return pace.calls[pace.cursor] if pace.mode == "calls" and pace.cursor < len(pace.calls) \
        else None


#: the stage the tablet shows (gm_state.js's state; a stage moves no seq)
SHOWN = "(s) => !!GM.S.gm && !!GM.S.gm.pace && GM.S.gm.pace.stage === s"


def _gm_next(hub: Any, gm: Any) -> None:
    """The GM's Next by the keyboard: Enter on it, held down until the
    tablet shows what comes next, when the key repeats (a second keydown,
    `repeat`): one press, one stage."""
    stage = hub.table.pace.stage
    gm.wait_for_function(SHOWN, arg=stage)
    expect(hook(gm, "skip")).not_to_have_attribute("aria-disabled", "true")
    _tab_to(gm, "[data-test=skip]")
    gm.keyboard.down("Enter")
    _until(lambda: hub.table.pace.stage != stage, "the stage after Next", 5)
    gm.wait_for_function(SHOWN, arg=hub.table.pace.stage)
    gm.keyboard.down("Enter")  # the key's repeat, on what the tablet shows now
    gm.keyboard.up("Enter")
    gm.wait_for_timeout(wait_ms(300))
    assert hub.table.pace.stage == stage + 1, "one Enter held down: one stage, no more"


def test_the_keyboard_on_the_tablet_and_the_tree_on_a_phone_play_to_the_end(
        hub_factory, new_context, shot):
    """[issue 43] "How it is checked": the GM plays with the keyboard only
    (Tab, Enter, Space, typing) from the lobby to the end; one phone plays
    by the accessibility tree only (Playwright's get_by_role, as TalkBack
    finds a button by its name); the others by the GM's API (the test's
    hand). The GM's Next held down (a key's repeat) ends one stage, and a
    Next pressed just after a new call showed ends nothing."""
    from companion.table.pacing import Settings

    calls = Settings(call_s=(30.0, 30.0), ballot_s=20, prompt_s=10, last_words_s=0.5,
                     verdict_s=1.5)
    with hub_factory("a11y-keys", settings=calls) as hub:
        try:
            _keys_and_tree(hub, new_context, shot)
        finally:
            new_context.close_all()


def _keys_and_tree(hub: Any, new_context: Any, shot: Any) -> None:
    from browser_kit import PHONE, TABLET

    gm = new_context(hub, **TABLET).new_page()
    gm.goto(f"{hub.base}/gm?token={hub.token}")
    expect(hook(gm, "lobby")).to_be_visible()
    _tab_to(gm, "[data-test=names]")
    gm.keyboard.type("\n".join(EIGHT))
    expect(hook(gm, "count-seer")).to_have_text("1", timeout=WAIT)  # the suggested deal
    _tab_to(gm, "[data-test=opt-sheriff]")
    gm.keyboard.press("Space")  # no sheriff: the game in two days
    expect(hook(gm, "opt-sheriff")).not_to_be_checked()
    _tab_to(gm, "[data-test=create]")
    gm.keyboard.press("Enter")
    expect(hook(gm, "dealing")).to_be_visible(timeout=WAIT)
    roles = [p["role"] for p in hub.api("GET", "/api/gm")["players"]]  # the oracle
    seer = roles.index("seer")
    wolves = [s for s, r in enumerate(roles) if r == "werewolf"]
    villagers = [s for s, r in enumerate(roles) if r == "villager"]
    phone = new_context(hub, **PHONE).new_page()
    phone.goto(hub.base + hub.table.seats()[seer]["url"])
    expect(phone.get_by_role("heading", name="Look at your card")).to_be_visible()
    _tab_to(gm, "[data-test=start]")
    gm.keyboard.press("Enter")
    expect(hook(gm, "running")).to_be_visible()

    def tree_tap(name: str) -> None:
        """On the seer's phone, by role and name only: a name, then Confirm."""
        caught_up(hub, phone)
        phone.get_by_role("button", name=name, exact=True).click()
        expect(phone.get_by_role("button", name=name, exact=True)).to_have_attribute(
            "aria-pressed", "true")
        phone.get_by_role("button", name="Confirm").click()
        expect(phone.get_by_role("status").filter(has_text="Noted")
               .or_(phone.get_by_role("status").filter(has_text="✓"))).to_have_count(1)

    def card_says(text: str) -> None:
        phone.get_by_role("button", name="Tap or hold to see your card").click()
        expect(phone.get_by_role("button", expanded=True)).to_contain_text(text)
        phone.get_by_role("button", expanded=True).click()
        expect(phone.get_by_role("button", name="Tap or hold to see your card")).to_be_visible()

    for night, (looked, victim) in enumerate([(wolves[0], villagers[0]),
                                              (wolves[1], villagers[1])], start=1):
        _until(lambda: _call(hub) == "seer", "the seer's call")
        card_says("Seer")
        tree_tap(EIGHT[looked])
        _gm_next(hub, gm)  # the seer's call ends: the wolves' call, no more
        assert _call(hub) == "wolves"
        if night == 1:
            card_says(EIGHT[looked])  # the seer's result, on the card
        for wolf in wolves:
            if hub.table.state.alive[wolf]:
                hub.api("POST", "/api/actions", {"do": "attack", "actor": EIGHT[wolf],
                                                 "target": EIGHT[victim]})
        if night == 1:
            # another tablet's Next ends the wolves' call; this GM's Next, made
            # as the next stage shows (meant for the wolves' call), ends nothing
            hub.api("POST", "/api/timer", {"do": "skip"})
            stage = hub.table.pace.stage
            gm.wait_for_function(SHOWN, arg=stage)
            hook(gm, "skip").dispatch_event("click")
            shot(gm, "next-locked")
            gm.wait_for_timeout(wait_ms(300))
            assert hub.table.pace.stage == stage, "a Next made as the stage began ended it"
        else:
            _gm_next(hub, gm)
        next_call(hub, "")
        # the day: the discussion, ended by the GM's Next; then the vote
        _until(lambda: hub.table.pace.mode == "discussion", "the day's discussion")
        _gm_next(hub, gm)
        _until(lambda: hub.table.pace.mode == "ballot", "the vote")
        expect(phone.get_by_role("status")).to_contain_text("Your vote", timeout=WAIT)
        tree_tap(EIGHT[looked])
        for seat, name in enumerate(EIGHT):
            if seat != seer and hub.table.seat_view(seat)["actions"]:
                hub.api("POST", "/api/actions", {"do": "vote", "actor": name,
                                                 "target": EIGHT[looked]})
    expect(phone.get_by_role("heading", name="You won!")).to_be_visible(timeout=WAIT)
    expect(hook(gm, "winner")).to_be_visible(timeout=WAIT)
    shot(gm, "keyboard-end")
    shot(phone, "tree-end")
