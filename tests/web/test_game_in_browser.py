"""Whole games played in the browser ([issue 6] How it is checked): the game
master sets up and deals on the tablet page, every player opens his seat's
link on a phone of his own, looks at his card, acts at night and votes by day
on it, and the table screen shows the tallies, the deaths, the winner and the
final reveal. Only the pages' `data-test` hooks (docs/pages.md) are used; the
GM's JSON API is read once, as the test's oracle, for who holds which card.
Each game has a hub of its own: on a hub that has a game, the GM page opens on
that game, and the way back to the lobby (the nav tabs) has no data-test hook.

(a) Millers Hollow, 8 players, in English; (b) jp-standard, 9 players, in
Japanese. In both the village wins in two days: the seer looks, the wolves
attack a plain villager, the witch passes, and the village executes one
werewolf a day.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from typing import Any

import pytest
from a11y import axe
from browser_kit import (
    PHONE,
    RECORDER,
    SCREEN,
    TABLET,
    caught_up,
    held_card,
    holding,
    hook,
    night_tap,
    shown_on,
)
from slowness import wait_ms

from companion.table.pacing import Settings

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

#: night windows the GM ends with Next once the called have acted [issue 16]
LONG_CALLS = Settings(call_s=(30.0, 30.0), ballot_s=20, prompt_s=10, last_words_s=0.5,
                      verdict_s=1.5)
WAIT = wait_ms(20_000)  # ms: a night call or a step (the hub's pacing is fast here)


@dataclass
class Game:
    hub: Any
    gm: Any
    screen: Any
    names: list[str]
    phones: list[Any] = field(default_factory=list)
    roles: list[str] = field(default_factory=list)
    alive: set[int] = field(default_factory=set)
    errors: list[str] = field(default_factory=list)
    shown: dict[int, str] = field(default_factory=dict)  # seat -> its card's role, as shown
    later: list[tuple[str, str]] = field(default_factory=list)  # the table screen must show
    lang: str = "en"
    checked: set[str] = field(default_factory=set)  # the page states axe looked at

    def axe(self, page: Any, state: str) -> None:
        """axe-core on `page`, the first time the game reaches `state` [issue 43]."""
        if state not in self.checked:
            self.checked.add(state)
            axe(page, f"{self.lang} {state}")

    def holders(self, role: str) -> list[int]:
        return [s for s, r in enumerate(self.roles) if r == role]

    def watch(self, page: Any, who: str) -> None:
        page.on("pageerror", lambda err: self.errors.append(f"{who}: {err}"))
        page.on("response", lambda r: r.status >= 500 and self.errors.append(
            f"{who}: {r.request.method} {r.url} answered {r.status}"))


def _set_up(game: Game, ruleset: str, language: str, options: dict[str, Any],
            add: dict[str, int], suggested: dict[str, int], shot: Any) -> None:
    """The lobby: ruleset, language, names, the suggested deal adjusted, options; create."""
    gm = game.gm
    # the tablet's own language choice (a `lang` cookie): the page then never
    # reloads itself into the game's language in the middle of the deal
    gm.context.add_cookies([{"name": "lang", "value": language, "url": game.hub.base}])
    gm.goto(f"{game.hub.base}/gm?token={game.hub.token}")
    expect(hook(gm, "lobby")).to_be_visible()
    hook(gm, "ruleset").select_option(ruleset)
    hook(gm, "language").select_option(language)
    hook(gm, "names").fill("\n".join(game.names))
    for role, n in suggested.items():  # the recommended deal has come
        expect(hook(gm, f"count-{role}")).to_have_text(str(n), timeout=WAIT)
    for role, n in add.items():
        for _ in range(abs(n)):
            hook(gm, f"{'plus' if n > 0 else 'minus'}-{role}").click()
        expect(hook(gm, f"count-{role}")).to_have_text(str(suggested.get(role, 0) + n))
    for name, value in options.items():
        box = hook(gm, f"opt-{name}")
        if isinstance(value, bool):
            box.set_checked(value)
        else:
            box.fill(str(value))
    expect(hook(gm, "create")).to_be_enabled()
    shot(gm, "gm-lobby")
    game.lang = language
    game.axe(gm, "GM lobby")
    hook(gm, "create").click()
    dealing = hook(gm, "dealing")
    try:
        expect(dealing).to_be_visible(timeout=wait_ms(3_000))
    except AssertionError:  # a game still running on this hub: "create" asks to confirm
        if hook(gm, "create").is_visible():  # (else the deal was only slow: a loaded machine)
            hook(gm, "create").click()
        expect(dealing).to_be_visible(timeout=WAIT)


def _deal(game: Game, new_context: Any, shot: Any) -> None:
    """The dealing view: each seat's link, opened on its own phone; then start."""
    gm = game.gm
    n = len(game.names)
    not_opened = hook(gm, "opened-0").inner_text()
    links = []
    for seat in range(n):
        href = hook(gm, f"seat-link-{seat}").get_attribute("href")
        assert href and re.fullmatch(r"/p/[A-Za-z0-9_-]{16,}", href), href
        links.append(href)
    expect(hook(gm, "seat-qr")).to_be_visible()
    shot(gm, "gm-dealing")
    game.axe(gm, "GM seats")
    state = game.hub.api("GET", "/api/gm")  # the oracle: who holds which card
    game.roles = [p["role"] for p in state["players"]]
    game.alive = set(range(n))
    for seat, href in enumerate(links):
        phone = new_context(game.hub, **PHONE).new_page()
        game.watch(phone, f"phone {seat}")
        answer = phone.goto(game.hub.base + href)
        assert answer is not None and answer.status == 200
        game.phones.append(phone)
    for seat in range(n):
        expect(hook(gm, f"opened-{seat}")).not_to_have_text(not_opened)
    expect(hook(game.phones[0], "deal-screen")).to_be_visible()
    game.axe(game.phones[0], "phone seats")
    hook(gm, "start").click()
    expect(hook(gm, "running")).to_be_visible()


def _reveal_cards(game: Game, shot: Any) -> dict[int, str]:
    """Each phone holds its card: the role shows while held and hides after."""
    shown = {}
    for seat, phone in enumerate(game.phones):
        role = hook(phone, "role")
        with holding(phone):  # (a hold: a shorter press is a tap, which keeps it open)
            expect(role).to_be_visible()
            expect(role).not_to_have_text("")
            expect(hook(phone, "power")).not_to_have_text("")
            shown[seat] = role.inner_text()
            if seat == 0:
                shot(phone, "phone-card")
                game.axe(phone, "phone card held")
        expect(role).to_be_hidden()
    # one name per role, and different roles show different names
    by_role: dict[str, set[str]] = {}
    for seat, text in shown.items():
        by_role.setdefault(game.roles[seat], set()).add(text)
    assert all(len(texts) == 1 for texts in by_role.values()), by_role
    assert len({next(iter(t)) for t in by_role.values()}) == len(by_role), by_role
    game.shown = shown
    return shown


def _act(game: Game, seat: int, do: str, target: int | None = None,
         button: str | None = None) -> None:
    """On seat's phone: wait for its `choice-<do>`, pick, confirm."""
    phone = game.phones[seat]
    box = hook(phone, f"choice-{do}")
    expect(box).to_be_visible(timeout=WAIT)
    if target is not None:
        box.locator(f"[data-test=target-{target}]").click()
    if button is not None:
        hook(phone, button).click()
    confirm = hook(phone, "confirm")
    expect(confirm).to_be_visible()
    expect(confirm).to_be_enabled()
    confirm.click()
    expect(confirm).to_be_hidden(timeout=WAIT)
    expect(hook(phone, "error")).to_be_hidden()


def _seer_result(game: Game, seer: int, seen: int) -> None:
    """The newest private result, on the held card [issue 28] (told when the
    seer's call ends): it names the wolf as a werewolf (the word on the
    wolf's own card); let go, the card hides it again."""
    phone = game.phones[seer]
    name, werewolf = re.escape(game.names[seen]), re.escape(game.shown[seen])
    caught_up(game.hub, phone)
    assert re.search(f"{name}.*{werewolf}|{werewolf}.*{name}", held_card(phone)), held_card(phone)
    expect(hook(phone, "results")).to_be_hidden()


def _next(game: Game) -> None:
    """The GM's Next: every call lasts its window (RULES.md §4 [issue 16]),
    so once its roles have acted the GM ends it, as at a real table."""
    game.hub.api("POST", "/api/timer", {"do": "skip"})


def _night(game: Game, seer_looks_at: int, victim: int | None, guard: int | None = None,
           shot: Any = None) -> None:
    """One night, in the calling order: seer, knight, wolves, witch, each on
    the night's one screen [issue 28]; the GM ends each call once its roles
    have acted (jp-standard: its one window, once all have acted). The
    seer's result shows on her held card when her call ends."""
    together = "knight" in game.roles  # jp-standard: one window [004]
    for seat in sorted(game.alive):  # every living phone shows the sleeping village
        expect(hook(game.phones[seat], "night-screen")).to_be_visible(timeout=WAIT)
    game.axe(game.phones[min(game.alive)], "phone night")
    game.axe(game.screen, "TV night")
    game.axe(game.gm, "GM night")
    seers = [seat for seat in game.holders("seer") if seat in game.alive]
    for seat in seers:
        _tap_when_called(game, seat, name=seer_looks_at)
    if not together:
        _next(game)
        for seat in seers:
            _seer_result(game, seat, seer_looks_at)
    for seat in game.holders("knight"):
        if seat in game.alive and guard is not None:
            _tap_when_called(game, seat, name=guard)
    if victim is not None:
        wolves = [s for s in game.holders("werewolf") if s in game.alive]
        for seat in wolves:
            _tap_when_called(game, seat, name=victim)
        if shot is not None:
            shot(game.phones[wolves[-1]], "phone-wolf-night")
    if not together:
        _next(game)
    for seat in game.holders("witch"):
        if seat in game.alive:
            _tap_when_called(game, seat, pass_=True)
    _next(game)
    if together:
        for seat in seers:
            _seer_result(game, seat, seer_looks_at)


def _tap_when_called(game: Game, seat: int, name: int | None = None, pass_: bool = False) -> None:
    """The seat's call is open (its own view has its choices): its phone
    taps on the night's one screen, and the engine took it."""
    hub = game.hub
    deadline = time.monotonic() + WAIT / 1000
    while not hub.table.seat_view(seat)["actions"]:
        assert time.monotonic() < deadline, f"seat {seat} was never called"
        time.sleep(0.05)
    before = hub.api("GET", "/api/gm")["seq"]
    caught_up(hub, game.phones[seat])
    night_tap(game.phones[seat], seat=name, pass_=pass_)
    assert hub.api("GET", "/api/gm")["seq"] > before, "the tap was not taken as an action"


def _day(game: Game, victim: int | None, executed: int, shot: Any, label: str) -> None:
    """Dawn shows the night's victim; every living phone votes; the tally and the
    execution show on the table screen."""
    screen = game.screen
    if victim is not None:
        game.alive.discard(victim)
        expect(hook(screen, "deaths")).to_contain_text(game.names[victim], timeout=WAIT)
        expect(hook(game.phones[victim], "dead")).to_be_visible(timeout=WAIT)
        game.axe(game.phones[victim], "phone dead")
    voters = sorted(game.alive)
    expect(hook(game.phones[voters[0]], "choice-vote")).to_be_visible(timeout=WAIT)
    game.axe(game.phones[voters[0]], "phone vote")
    game.axe(game.screen, "TV vote")
    game.axe(game.gm, "GM vote")
    for seat in voters:
        # the condemned votes for someone else (jp-standard: nobody votes for himself)
        target = executed if seat != executed else next(s for s in voters if s != executed)
        _act(game, seat, "vote", target)
    game.alive.discard(executed)
    game.later.append(("tally", game.names[executed]))
    game.later.append(("deaths", game.names[executed]))
    expect(hook(game.gm, "tally")).to_contain_text(game.names[executed], timeout=WAIT)
    shot(screen, f"table-{label}")
    game.axe(game.gm, "GM tally")


def _end(game: Game, shot: Any) -> None:
    """The village has won: the winner and every card on the table screen, the
    GM's tablet and the phones; every execution and its tally were shown on the
    table screen at some point.
    """
    screen, gm = game.screen, game.gm
    for page in (screen, gm):
        expect(hook(page, "winner")).to_be_visible(timeout=WAIT)
        reveal = hook(page, "reveal")
        expect(reveal).to_be_visible()
        for name in game.names:
            expect(reveal).to_contain_text(name)
    shot(screen, "table-over")
    shot(gm, "gm-over")
    game.axe(screen, "TV end")
    game.axe(gm, "GM end")
    game.axe(game.phones[min(game.alive)], "phone end")
    state = game.hub.api("GET", "/api/state")
    assert state["winner"] == "village", state
    for seat in game.alive:
        expect(hook(game.phones[seat], "night-screen")).to_be_hidden()
        expect(hook(game.phones[seat], "dead")).to_be_hidden()
    assert not game.errors, game.errors
    for name, text in game.later:
        shown_on(screen, name, text)


def _start(hub: Any, new_context: Any, names: list[str]) -> Game:
    gm = new_context(hub, **TABLET).new_page()
    screen_context = new_context(hub, **SCREEN)
    screen_context.add_init_script(RECORDER)
    screen = screen_context.new_page()
    game = Game(hub, gm, screen, names)
    game.watch(gm, "gm")
    game.watch(screen, "table")
    return game


def _plain_villagers(game: Game) -> list[int]:
    return game.holders("villager")


def test_millers_hollow_for_eight_played_on_phones(hub_factory, new_context, shot):
    with hub_factory("mh", settings=LONG_CALLS) as hub:
        try:
            _play_mh(hub, new_context, shot)
        finally:
            new_context.close_all()  # before this hub stops


def _play_mh(hub: Any, new_context: Any, shot: Any) -> None:
    names = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal"]
    game = _start(hub, new_context, names)
    _set_up(game, "millers-hollow", "en",
            {"sheriff": False, "discussion_s": 0, "night_s": 30},
            add={"witch": 1},  # her "+" takes a villager out [issue 28]
            suggested={"werewolf": 2, "seer": 1, "villager": 5}, shot=shot)
    _deal(game, new_context, shot)
    game.screen.goto(hub.base + "/table")
    shown = _reveal_cards(game, shot)
    assert shown[game.holders("werewolf")[0]] == "Werewolf"
    assert shown[game.holders("seer")[0]] == "Seer"
    assert shown[game.holders("witch")[0]] == "Witch"

    first, second = game.holders("werewolf")
    villagers = _plain_villagers(game)
    _night(game, seer_looks_at=first, victim=villagers[0], shot=shot)
    _day(game, villagers[0], executed=first, shot=shot, label="day-1")
    _night(game, seer_looks_at=second, victim=villagers[1])
    _day(game, villagers[1], executed=second, shot=shot, label="day-2")
    _end(game, shot)


def test_jp_standard_for_nine_in_japanese(hub_factory, new_context, shot):
    with hub_factory("jp", settings=LONG_CALLS) as hub:
        try:
            _play_jp(hub, new_context, shot)
        finally:
            new_context.close_all()  # before this hub stops


def _play_jp(hub: Any, new_context: Any, shot: Any) -> None:
    names = ["Aki", "Ben", "Chie", "Dai", "Emi", "Fumi", "Gen", "Hana", "Ito"]
    game = _start(hub, new_context, names)
    _set_up(game, "jp-standard", "ja",
            {"discussion_s": 0, "extra_discussion_s": 0, "night_s": 30},
            add={}, suggested={"werewolf": 2, "seer": 1, "medium": 1, "knight": 1,
                               "madman": 1, "villager": 3}, shot=shot)
    _deal(game, new_context, shot)
    game.screen.goto(hub.base + "/table")
    shown = _reveal_cards(game, shot)
    assert "人狼" in shown[game.holders("werewolf")[0]]
    assert "占い師" in shown[game.holders("seer")[0]]
    japanese = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
    for phone in game.phones:  # the village sleeps, in Japanese
        expect(hook(phone, "night-screen")).to_contain_text(japanese)

    first, second = game.holders("werewolf")
    villagers = _plain_villagers(game)
    knight = game.holders("knight")[0]
    # night 1: no attack in jp-standard; the seer looks
    _night(game, seer_looks_at=first, victim=None)
    _day(game, None, executed=first, shot=shot, label="day-1")
    guarded = next(s for s in sorted(game.alive) if s not in (knight, villagers[0], second))
    _night(game, seer_looks_at=second, victim=villagers[0], guard=guarded)
    _day(game, villagers[0], executed=second, shot=shot, label="day-2")
    _end(game, shot)
