"""The server deals (issue 15 item 5, CONTRACTS.md C2): the GM's lobby sends
how many cards of each role (`cards`, the thief's two centre cards included)
and a seed only when the GM typed one; it never sends a deal, centre cards or
a seed of its own. "Same again" sends the old game's `setup.cards` and no
seed, so the hub shuffles anew.

The browser holds the page's POSTs here (and answers them as the hub would),
so the page is checked against the contract whatever this tree's hub accepts;
whole games dealt this way on the merged hub: test_game_in_browser.py."""

from __future__ import annotations

import re
from typing import Any

import pytest
from a11y import axe
from browser_kit import TABLET, hook
from fixtures import gm_view, serve_json, serve_stream

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal"]


def _hold_posts(page: Any, path: str, answer: Any) -> list[dict]:
    """Every POST the page sends to `path`, answered with `answer`; other
    methods go on to the hub."""
    posted: list[dict] = []

    def handle(route: Any) -> None:
        if route.request.method != "POST":
            route.continue_()
            return
        posted.append(route.request.post_data_json)
        route.fulfill(status=200, json=answer)

    page.route(f"**{path}", handle)
    return posted


def _tablet(hub: Any, new_context: Any, view: dict, reads: dict[str, Any] | None = None,
            lang: str = "en") -> tuple[Any, list[dict], list[str]]:
    """The GM's tablet on `view`, its page in `lang`, its JSON `reads` answered
    as given; the POSTs of a new game held: (page, the new games' bodies,
    page errors)."""
    page = new_context(hub, **TABLET).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    serve_stream(page, "/api/stream", view)
    games = _hold_posts(page, "/api/games", {"id": 1, "seats": []})
    _hold_posts(page, "/api/timer", {})
    for path, doc in (reads or {}).items():
        serve_json(page, path, doc)
    page.goto(f"{hub.base}/gm?token={hub.token}&lang={lang}")
    return page, games, errors


def test_the_lobby_sends_the_cards_and_only_a_typed_seed(hub, new_context):
    page, games, errors = _tablet(hub, new_context, {"seq": 0, "game": None})
    setups = _hold_posts(page, "/api/setups", {"setups": []})
    expect(hook(page, "lobby")).to_be_visible()
    hook(page, "ruleset").select_option("millers-hollow")
    hook(page, "names").fill("\n".join(NAMES))
    for role, n in {"werewolf": 2, "seer": 1, "villager": 5}.items():  # the hub's suggestion
        expect(hook(page, f"count-{role}")).to_have_text(str(n))
    expect(hook(page, "create")).to_be_enabled()
    hook(page, "create").click()
    expect(hook(page, "dealing")).to_be_visible()
    # the night waits for the dealing screen's "Start the game": nothing is
    # taken before it [issue 28]
    assert games == [{"ruleset": "millers-hollow", "players": NAMES, "language": "en",
                      "cards": {"werewolf": 2, "seer": 1, "villager": 5},
                      "wait_for_start": True}]

    # a thief: 8 players' cards (his among them) and the 2 centre cards, 10 in
    # the box (his "+" brings the centre's villagers [issue 28]); a typed seed
    # goes as typed
    hook(page, "tab-lobby").click()
    hook(page, "plus-thief").click()
    hook(page, "seed").fill("42")
    expect(hook(page, "create")).to_be_enabled()
    hook(page, "create").click()
    expect(hook(page, "dealing")).to_be_visible()
    assert games[1] == {"ruleset": "millers-hollow", "players": NAMES, "language": "en",
                        "cards": {"werewolf": 2, "seer": 1, "villager": 6, "thief": 1},
                        "seed": 42, "wait_for_start": True}

    # a saved setup is the same body: counts, no deal
    hook(page, "tab-lobby").click()
    hook(page, "setup-name").fill("eight")
    hook(page, "save-setup").click()
    for _ in range(100):  # (the list said "No saved setups." before the save too)
        if setups:
            break
        page.wait_for_timeout(50)
    expect(hook(page, "setups")).to_contain_text("No saved setups.")
    saved = {k: v for k, v in games[1].items() if k != "wait_for_start"}  # the deal's own
    assert setups == [{"name": "eight", "setup": saved}]
    assert not errors, errors


def test_same_again_sends_the_old_games_cards_and_no_seed(hub, new_context):
    record = {"id": 1, "winner": "village", "setup": {
        "ruleset": "millers-hollow", "players": NAMES, "language": "ja",
        "options": {"sheriff": False}, "seed": 1234,
        "deal": dict(zip(NAMES, ["werewolf", "seer", "villager", "thief", "werewolf",
                                 "villager", "villager", "villager"])),
        "center": ["villager", "villager"],
        "cards": {"werewolf": 2, "seer": 1, "villager": 6, "thief": 1}}}
    view = gm_view(phase="over", winner="village", winners=[1, 2, 3, 5, 6, 7])
    page, games, errors = _tablet(hub, new_context, view, {
        "/api/games/1": record, "/api/games/1/view": {"log": [], "announcements": []}})
    expect(hook(page, "running")).to_be_visible()
    hook(page, "tab-lobby").click()
    expect(hook(page, "same-again")).to_be_visible()
    hook(page, "same-again").click()
    expect(hook(page, "dealing")).to_be_visible()
    assert games == [{"ruleset": "millers-hollow", "players": NAMES, "language": "ja",
                      "options": {"sheriff": False},
                      "cards": {"werewolf": 2, "seer": 1, "villager": 6, "thief": 1},
                      "wait_for_start": True}]
    assert not errors, errors


EIGHTEEN = [f"P{i}" for i in range(1, 19)]


def _deal_is(page: Any, ok: bool, **counts: int) -> None:
    """The lobby shows these counts, and its total is right (`ok`) or off."""
    for role, n in counts.items():
        expect(hook(page, f"count-{role}")).to_have_text(str(n))
    bad = re.compile(r"\bbad\b")
    if ok:
        expect(hook(page, "deal-total")).not_to_have_class(bad)
        expect(hook(page, "create")).to_be_enabled()
    else:
        expect(hook(page, "deal-total")).to_have_class(bad)
        expect(hook(page, "create")).to_be_disabled()


def test_plus_takes_a_villager_out_and_minus_puts_it_back(hub, new_context):
    """[issue 28] the lobby: "+" on a role takes one villager card out and "−"
    puts one back, so the count of cards stays the number needed (the
    players, plus the thief's centre cards: /api/rulesets' "centre"); the
    thief's "+" adds his two centre cards as villagers and his "−" takes them
    back out; the villagers' own +/− move one card, as before."""
    page, games, errors = _tablet(hub, new_context, {"seq": 0, "game": None})
    expect(hook(page, "lobby")).to_be_visible()
    hook(page, "ruleset").select_option("bga")
    hook(page, "names").fill("\n".join(EIGHTEEN))
    _deal_is(page, True, werewolf=4, seer=1, villager=13)  # the hub's suggestion
    hook(page, "plus-witch").click()
    _deal_is(page, True, witch=1, villager=12)
    hook(page, "plus-thief").click()  # his card for a villager's, and 2 centre cards
    _deal_is(page, True, thief=1, villager=13)
    expect(hook(page, "deal-total")).to_have_text("20 cards for 18 players and 2 centre cards")
    hook(page, "minus-thief").click()
    _deal_is(page, True, thief=0, villager=12)
    hook(page, "minus-witch").click()
    _deal_is(page, True, witch=0, villager=13)
    hook(page, "plus-villager").click()  # the villagers' own +/−: one card
    _deal_is(page, False, villager=14)
    hook(page, "minus-villager").click()
    _deal_is(page, True, villager=13)
    hook(page, "create").click()
    expect(hook(page, "dealing")).to_be_visible()
    assert games[0]["cards"] == {"werewolf": 4, "seer": 1, "villager": 13}
    assert not errors, errors


def test_plus_with_no_villager_left_still_adds(hub, new_context):
    """[issue 28] the lobby: when no villager is left to take out, "+" still
    adds the card and the total says the deal is off; its "−" makes it right."""
    page, games, errors = _tablet(hub, new_context, {"seq": 0, "game": None})
    expect(hook(page, "lobby")).to_be_visible()
    hook(page, "ruleset").select_option("millers-hollow")
    hook(page, "names").fill("\n".join(NAMES))
    _deal_is(page, True, werewolf=2, seer=1, villager=5)
    for role in ("witch", "hunter", "cupid", "little-girl", "defender"):
        hook(page, f"plus-{role}").click()
    _deal_is(page, True, villager=0, defender=1)
    hook(page, "plus-elder").click()
    _deal_is(page, False, elder=1, villager=0)
    expect(hook(page, "deal-total")).to_have_text("9 cards for 8 players")
    hook(page, "minus-elder").click()
    _deal_is(page, True, elder=0, villager=0)
    assert not errors, errors


def test_the_game_is_dealt_in_the_tablets_language(hub, new_context):
    """[issue 28] the lobby: the game's language is the tablet page's own (a
    tablet showing the page in Traditional Chinese deals a Chinese game),
    unless the GM chose one: a remembered lobby keeps his choice."""
    page, games, errors = _tablet(hub, new_context, {"seq": 0, "game": None}, lang="zh_Hant")
    expect(hook(page, "lobby")).to_be_visible()
    expect(hook(page, "language")).to_have_value("zh_Hant")
    hook(page, "names").fill("\n".join(NAMES))
    expect(hook(page, "create")).to_be_enabled()
    axe(page, "zh_Hant GM lobby")  # [issue 43]
    hook(page, "create").click()
    expect(hook(page, "dealing")).to_be_visible()
    axe(page, "zh_Hant GM seats")
    assert games[0]["language"] == "zh_Hant"
    # the lobby is remembered without a language: the page's own again
    page.goto(f"{hub.base}/gm?lang=ja")
    expect(hook(page, "names")).to_have_value("\n".join(NAMES))
    expect(hook(page, "language")).to_have_value("ja")
    # the GM's choice is kept, whatever the page's language
    hook(page, "language").select_option("en")
    page.goto(f"{hub.base}/gm?lang=zh_Hant")
    expect(hook(page, "names")).to_have_value("\n".join(NAMES))
    expect(hook(page, "language")).to_have_value("en")
    assert not errors, errors


def test_a_name_may_be_given_its_reading(hub, new_context):
    """[issue 42] "a table cannot say how a name is read (陽菜: ヒナ or
    ハルナ)": a line "name = reading" (or ＝, as a Japanese keyboard types
    it) sends the name and, apart, how the narrator says it; a line without
    one sends none, and the lobby shows the names back with their readings."""
    page, games, errors = _tablet(hub, new_context, {"seq": 0, "game": None})
    expect(hook(page, "lobby")).to_be_visible()
    hook(page, "ruleset").select_option("jp-standard")
    hook(page, "language").select_option("ja")
    names = ["陽菜 = はるな", "ゆうと", "さくら＝サクラ", "はると", "みお", "そうた", "ひな",
             "れん", "ゆい"]
    hook(page, "names").fill("\n".join(names))
    expect(hook(page, "count-werewolf")).to_have_text("2")
    hook(page, "create").click()
    expect(hook(page, "dealing")).to_be_visible()
    assert games[-1]["players"] == ["陽菜", "ゆうと", "さくら", "はると", "みお", "そうた", "ひな",
                                    "れん", "ゆい"]
    assert games[-1]["readings"] == {"陽菜": "はるな", "さくら": "サクラ"}
    hook(page, "tab-lobby").click()
    page.reload()  # the lobby remembered, readings with their names
    expect(hook(page, "names")).to_have_value(re.compile("^陽菜 = はるな\nゆうと\nさくら = サクラ"))
    assert not errors, errors
