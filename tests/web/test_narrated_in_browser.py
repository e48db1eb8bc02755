"""A narrated game in the browser [issue 20] "How it is checked": in a
narrated 8-player game, the table screen plays the night's calls and the
dawn's announcement in order (audio requests answered with audio), the host
page has no way to see a card, and the game runs from deal to end with no GM
action.

The host chooses "the hub narrates" in the lobby, creates the game and is
taken to the host page; he presses Start (the clock was held while phones
took their seats) and does nothing else. The players act as their phones do
(Table.act_seat, the path of POST /p/<token>/action): the wolves attack a
villager, the village executes a wolf each day, every other power passes.
The table screen's voice is switched on with one tap; it plays each
utterance's WAV at its moment (at 12x in these tests: Settings.voice_rate, the
hub's clock waiting as long as the faster voice speaks) [issue 29].
"""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from browser_kit import SCREEN, TABLET, hook
from slowness import factor, wait_ms, wait_s

from companion.speech import call_lines, narration
from companion.speech.engines import find
from companion.table import TableError

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

NAMES = ["Ann", "Bob", "Cleo", "Dan", "Eve", "Finn", "Gus", "Hana"]


@pytest.fixture(autouse=True)
def _screen_hold_scaled(monkeypatch: pytest.MonkeyPatch) -> None:
    """How long a stage waits for a table screen behind (8 s) and how long a
    silent screen counts as playing (15 s) are the hub's bounds for a Pi; here
    the screen is a Chromium on the same busy 2-core machine as the hub, and
    these tests ask that it says every line: the bounds times the machine's
    slowness, as every wait [issue 45] (tests/speech/test_screen_waits.py
    holds the bounds as written)."""
    monkeypatch.setattr(narration, "SCREEN_HOLD_S", narration.SCREEN_HOLD_S * factor())
    monkeypatch.setattr(narration, "SCREEN_ALIVE_S", narration.SCREEN_ALIVE_S * factor())


def _players(hub: Any, stop: threading.Event, errors: list[str],
             calls: list[str], pick: Any = None) -> None:
    """Every phone, in-process: act when the seat has something to do.
    `calls`: night 1's calls, as pacing makes them (the test's oracle);
    `pick`: the players' strategy (`_pick`)."""
    pick = pick or _pick
    table = hub.table
    while not stop.wait(0.1):
        with table.lock:
            if not calls and table.pace.mode == "calls" and table.pace.night == 1:
                calls.extend(table.pace.calls)
            state = table.state
            if state is None or state.phase == "over":
                continue
            seats = state.size
        for seat in range(seats):
            try:
                view = table.seat_view(seat)
            except TableError:
                continue
            for choice in view.get("actions") or []:
                with table.lock:
                    action = pick(table.state, seat, choice)
                if action is None:
                    continue
                try:
                    table.act_seat(seat, {**action, "seq": view["seq"]})
                except TableError:
                    pass  # moved on meanwhile
                except Exception as err:  # noqa: BLE001 - reported by the test
                    errors.append(repr(err))
                break


def _pick(state: Any, seat: int, choice: dict) -> dict | None:
    wolves = [i for i in range(state.size) if state.roles[i] == "werewolf" and state.alive[i]]
    others = [i for i in choice.get("targets") or [] if i not in wolves]
    if choice["do"] == "attack" and others:
        return {"do": "attack", "target": state.names[others[0]]}
    if choice["do"] == "vote":
        target = next((w for w in wolves if w in (choice.get("targets") or [])), None)
        if target is None:
            return {"do": "vote", "target": state.names[choice["targets"][0]]}
        return {"do": "vote", "target": state.names[target]}
    if choice["do"] == "pass":
        return {"do": "pass"}
    if choice["do"] == "appoint" and choice.get("targets"):  # the dying sheriff's successor
        return {"do": "appoint", "target": state.names[choice["targets"][0]]}
    return None


def test_a_narrated_game_speaks_on_the_table_screen_with_no_gm_action(
        hub_factory: Any, new_context: Any, shot: Any) -> None:
    if find("en")[0] is None:
        pytest.skip(f"no English voice: {find('en')[1]}")
    with hub_factory("narrated") as hub:  # the fast pacing of tests/web
        host = new_context(hub, **TABLET).new_page()
        posts: list[str] = []
        host.on("request", lambda r: r.method == "POST" and posts.append(r.url))
        host.goto(f"{hub.base}/gm?token={hub.token}")
        expect(hook(host, "lobby")).to_be_visible()
        hook(host, "names").fill("\n".join(NAMES))
        expect(hook(host, "count-werewolf")).to_have_text("2", timeout=wait_ms(20_000))
        hook(host, "narrated").select_option("1")
        hook(host, "opt-discussion_s").fill("2")
        hook(host, "opt-night_s").fill("2")
        hook(host, "opt-pack_s").fill("2")  # the pack's call too: a whole game in seconds
        hook(host, "create").click()
        expect(hook(host, "host")).to_be_visible(timeout=wait_ms(10_000))
        assert host.url.endswith("/host")
        assert hub.table.setup.get("narrated") is True

        screen_ctx = new_context(hub, **SCREEN)
        screen = screen_ctx.new_page()
        audio: list[tuple[str, int, str]] = []
        screen.on("response", lambda r: "/api/speech/" in r.url and r.url.endswith(".wav")
                  and audio.append((r.url, r.status, r.headers.get("content-type", ""))))
        screen.goto(f"{hub.base}/table")
        expect(hook(screen, "voice")).to_be_visible(timeout=wait_ms(10_000))
        hook(screen, "voice").click()

        # the host page has no way to see a card
        for url in ("/api/gm", "/api/state", "/api/games/1"):
            status = host.evaluate("async (u) => (await fetch(u)).status", url)
            assert status == 403, url
        for forbidden in ("secrets", "undo", "act-seat"):
            assert hook(host, forbidden).count() == 0
        shot(host, "host")

        stop, errors, calls = threading.Event(), [], []  # type: ignore[var-annotated]
        players = threading.Thread(target=_players, args=(hub, stop, errors, calls),
                                   daemon=True)
        players.start()
        try:
            hook(host, "host-start").click()
            deadline = time.monotonic() + wait_s(150)
            while time.monotonic() < deadline and not hub.table.ended:  # told [issue 40]
                time.sleep(0.2)
            assert hub.table.ended, hub.table.pace.mode
        finally:
            stop.set()
            players.join(timeout=wait_s(5))
        assert not errors, errors[:3]
        # everything the host sent: Start (resume), and the game's creation
        assert all(u.endswith(("/api/games", "/api/host/timer")) for u in posts), posts

        spoken = hook(screen, "spoken").locator("li")
        expect(spoken.filter(has_text="Morning has come")).to_have_count(2, timeout=wait_ms(90_000))
        texts = spoken.all_inner_texts()
        expect(hook(screen, "voice")).to_be_visible()
        expect(hook(screen, "voice")).to_have_attribute("aria-pressed", "true")
        shot(screen, "table-narrated")
        # the deal is said before Start (the screen, switched on after it, joins
        # at the line being said [issue 29]), night 1 from Start on [issue 28]
        if texts[0].startswith("Everyone, look at your card in secret"):
            texts = texts[1:]
        night = texts[0:texts.index(next(t for t in texts if t.startswith("Morning has come")))]
        assert night[0].startswith("Night falls")
        options = hub.table.state.opts
        said = [text for i, call in enumerate(calls) for text in
                call_lines(call, 1, "millers-hollow", options, "en", i == 0)[0] +
                call_lines(call, 1, "millers-hollow", options, "en", False)[1]]
        assert calls and night == said  # every call of the night, each in its turn
        assert night.index("The seer goes back to sleep.") > night.index(
            next(t for t in night if t.startswith("Seer, wake up")))
        dawn = texts[len(night):len(night) + 2]
        assert dawn[1].startswith("Last night's victim: ")  # the dawn's announcement
        ns = [int(li.get_attribute("data-n")) for li in spoken.all()]
        assert ns == sorted(ns)  # in order
        assert audio and all(s == 200 and t == "audio/wav" for _, s, t in audio), audio[:3]
        # the game is over: its secrets open (the final reveal) and "New game" leads to the lobby
        hook(host, "host-new").click()
        assert host.evaluate("async () => (await fetch('/api/gm')).status") == 200
        hook(host, "tab-lobby").click()
        expect(hook(host, "lobby")).to_be_visible()
        new_context.close_all()


def test_the_host_deals_a_new_game_in_the_middle_of_a_narrated_one(
        hub_factory: Any, new_context: Any) -> None:
    """[issue 20] the host "sets up the game": from the host page, "New game"
    opens the lobby although the GM's stream stays closed while the narrated
    game runs, and a game master's game dealt from it opens as usual."""
    with hub_factory("new-game") as hub:
        hub.api("POST", "/api/games", {"ruleset": "millers-hollow", "players": NAMES,
                                       "cards": {"werewolf": 2, "seer": 1, "villager": 5},
                                       "narrated": True})
        host = new_context(hub, **TABLET).new_page()
        host.goto(f"{hub.base}/gm?token={hub.token}")
        expect(hook(host, "host")).to_be_visible()
        hook(host, "host-new").click()
        expect(hook(host, "lobby")).to_be_visible()
        hook(host, "names").fill("\n".join(NAMES))
        expect(hook(host, "count-werewolf")).to_have_text("2", timeout=wait_ms(20_000))
        hook(host, "create").click()
        expect(hook(host, "dealing")).to_be_visible(timeout=wait_ms(10_000))
        assert not hub.table.setup.get("narrated")
        new_context.close_all()


#: the table screen notes when its heading and line change (its wall clock)
WATCH_SCREEN = """
window.__changes = [];
window.__gaps = [];  // the page's stalls over 300 ms (a failure's message says them)
let __last = performance.now();
setInterval(() => {
  const t = performance.now();
  if (t - __last > 300) window.__gaps.push([Date.now() / 1000, Math.round(t - __last)]);
  __last = t;
}, 50);
window.__captions = [];  // what the caption showed, in turn [issue 42]
setInterval(() => {
  const c = document.getElementById("caption");
  const shown = c && !c.hidden ? c.textContent : "";
  const last = window.__captions[window.__captions.length - 1];
  if (shown && shown !== last) window.__captions.push(shown);
}, 50);
addEventListener("DOMContentLoaded", () => {
  const text = (id) => document.getElementById(id).textContent;
  const note = () => window.__changes.push([Date.now() / 1000, text("phase") + " " + text("line")]);
  const seen = new MutationObserver(note);
  for (const id of ["phase", "line"]) {
    const what = {childList: true, subtree: true, characterData: true};
    seen.observe(document.getElementById(id), what);
  }
});
"""

HUNTER_GAME = ["werewolf", "werewolf", "seer", "hunter", "villager", "villager", "villager",
               "villager"]


def _hunter_pick(state: Any, seat: int, choice: dict) -> dict | None:
    """The pack takes a villager, the village executes the hunter on day 1
    (his prompt: he shoots a wolf), then every wolf in turn."""
    hunter = state.roles.index("hunter")
    wolves = [i for i in range(state.size) if state.roles[i] == "werewolf" and state.alive[i]]
    targets = choice.get("targets") or []
    if choice["do"] == "vote" and state.alive[hunter] and hunter in targets:
        return {"do": "vote", "target": state.names[hunter]}
    if choice["do"] == "shoot" and wolves:
        return {"do": "shoot", "target": state.names[wolves[0]]}
    if choice["do"] == "attack":
        prey = [i for i in targets if state.roles[i] == "villager"]
        return {"do": "attack", "target": state.names[prey[0]]} if prey else None
    return _pick(state, seat, choice)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_table_screen_says_each_line_in_time(hub_factory: Any, new_context: Any,
                                                 shot: Any, lang: str) -> None:
    """[issue 29] "How it is checked": a narrated game in Chromium, with an
    execution and the hunter's prompt (the hub's voice at 4x, so that the
    game takes a minute): the table screen begins every line within 1.5 s of
    the moment it announces (the screen's change), none goes on after its
    step has ended, the screen shows a line before it is heard, and nothing
    the hub said while the screen's voice was on is missing (night 1, day 1
    and its verdict, night 2's first call)."""
    from dataclasses import replace

    from conftest import FAST

    if find(lang)[0] is None:
        pytest.skip(f"no voice for {lang}: {find(lang)[1]}")
    names = NAMES if lang == "en" else ["あかり", "ゆうと", "さくら", "はると", "みお", "そうた",
                                         "ひな", "れん"]
    settings = replace(FAST, voice_rate=4, voice_lead_s=0.5)  # the hub's own lead
    with hub_factory(f"in-time-{lang}", settings=settings) as hub:
        hub.api("POST", "/api/games", {
            "ruleset": "millers-hollow", "players": names, "language": lang,
            "deal": dict(zip(names, HUNTER_GAME)), "narrated": True, "wait_for_start": True,
            "options": {"discussion_s": 2, "night_s": 2, "pack_s": 2, "sheriff": False,
                        "reveal_on_death": True, "first_night_attack": True}})
        narration = hub.app.extensions["narration"]
        ctx = new_context(hub, **SCREEN)
        ctx.add_init_script(WATCH_SCREEN)
        screen = ctx.new_page()
        audio: list[int] = []
        screen.on("response", lambda r: "/api/speech/" in r.url and r.url.endswith(".wav")
                  and audio.append(r.status))
        screen.goto(f"{hub.base}/table")
        expect(hook(screen, "voice")).to_be_visible(timeout=wait_ms(10_000))
        hook(screen, "voice").click()
        on = narration.table.clock()
        stop, errors = threading.Event(), []  # type: ignore[var-annotated]
        players = threading.Thread(target=_players, args=(hub, stop, errors, [], _hunter_pick),
                                   daemon=True)
        players.start()
        try:
            hub.api("POST", "/api/host/timer", {"do": "start"})
            deadline = time.monotonic() + wait_s(240)
            while time.monotonic() < deadline and not any(  # day 1 and its verdict said
                    step.startswith("night 2") for _, step in narration.steps()):
                time.sleep(0.2)
            assert hub.table.state.n == 2, hub.table.pace.mode
        finally:
            stop.set()
            players.join(timeout=wait_s(5))
        assert not errors, errors[:3]
        said = [u for u in narration.said() if not u.dropped and u.event > on]
        last = said[-1]
        time.sleep(max(0.0, last.at + last.dur - narration.table.clock()) + wait_s(1.0))
        shot(screen, f"table-in-time-{lang}")
        steps = narration.steps()
        assert any(step.endswith(" hunter") for _, step in steps), steps  # the hunter's prompt
        played = {int(li.get_attribute("data-n")): (float(li.get_attribute("data-begun")),
                                                     float(li.get_attribute("data-wall")))
                  for li in hook(screen, "spoken").locator("li").all()}
        changes = screen.evaluate("window.__changes")
        missing = [(u.n, u.text, round(u.at, 2), round(u.dur, 2), u.step) for u in said
                   if u.n not in played]
        assert not missing, (missing, screen.evaluate("window.__gaps"),
                             sorted((n, round(b, 2)) for n, (b, _) in played.items()))
        firsts = {}  # each change's first line: the others follow it back to back
        for u in said:
            firsts.setdefault(u.event, u)
        for u in said:
            begun, wall = played[u.n]
            assert begun - u.at <= 1.0, (u.text, begun - u.at)  # at its moment
            end = next((t for t, step in steps if t > u.event and step != u.step), None)
            assert end is None or begun + u.dur <= end + 0.3, (u.text, u.step)  # not after its step
            if firsts[u.event] is not u or u.rendered_late:
                continue  # a line heard before it was rendered is said late [issue 42]
            assert begun - u.event <= 1.5, (u.text, begun - u.event)  # heard in time
            shown = [t for t, text in changes if t <= wall + 0.3 and u.text.replace(" ", "")
                     in text.replace(" ", "")]
            if shown:  # the screen showed the line, and the voice followed within 1.5 s
                assert wall - max(shown) <= 1.5, (u.text, wall - max(shown))
        assert audio and all(s == 200 for s in audio)
        # [issue 42] item 5: every line said is shown as it is said (the night's
        # calls too), in the game's language, large enough to read across a room
        captions = screen.evaluate("window.__captions")
        unshown = [u.text for u in said if u.text not in captions]
        assert not unshown, (unshown, captions)
        assert any(u.step.startswith("night 1") and u.text in captions for u in said)
        box = hook(screen, "caption")
        assert box.get_attribute("lang") == lang
        size = float(box.evaluate("e => parseFloat(getComputedStyle(e).fontSize)"))
        assert size >= 48, size  # 1080p: about 4.5 % of the screen's height a line
        new_context.close_all()


LATE_GAME = ["werewolf", "werewolf", "seer", "villager", "villager", "villager", "villager",
             "villager"]


def test_a_late_table_screen_catches_up_on_the_news(hub_factory: Any, new_context: Any) -> None:
    """[issue 42] item 2 "a late TV skips lines instead of catching up": the
    table screen is switched on (or reloaded, or was frozen) 3 s after the
    dawn's news was said. It plays the news it missed, whole and in order —
    the morning line, then the victim — and tells the hub it began them
    (the hub's voice then waits for it); on main it joined only the line of
    now, so the dawn's result was never heard on that screen."""
    from dataclasses import replace

    from conftest import FAST
    from hub.conftest import FakeClock

    class Resumed(FakeClock):
        """A fake clock until `go()`, then the wall clock's pace from there."""

        since: float | None = None

        def __call__(self) -> float:
            return self.t if self.since is None else self.t + time.monotonic() - self.since

        def go(self) -> None:
            self.since = time.monotonic()

    if find("en")[0] is None:
        pytest.skip(f"no English voice: {find('en')[1]}")
    clock = Resumed()
    with hub_factory("late-tv", clock=clock, tick_s=None,
                     settings=replace(FAST, voice_rate=4)) as hub:
        hub.api("POST", "/api/games", {
            "ruleset": "millers-hollow", "players": NAMES, "deal": dict(zip(NAMES, LATE_GAME)),
            "narrated": True, "wait_for_start": True,
            "options": {"night_s": 5, "pack_s": 5, "discussion_s": 120, "sheriff": False,
                        "first_night_attack": True, "reveal_on_death": False}})
        narration = hub.app.extensions["narration"]
        ahead = getattr(narration, "ahead", None)
        if ahead is not None:  # the game's lines, rendered from the deal (before issue 42: heard)
            assert ahead.drain(timeout=wait_s(120), upto=2)  # ahead.GAME
        hub.api("POST", "/api/host/timer", {"do": "start"})
        table = hub.table
        victim = None
        while victim is None and clock.t < 1_000_000.0 + 600:
            clock.t += 0.25
            table.tick()
            if table.pace.mode == "calls" and table.pace.opens is not None \
                    and clock.t > table.pace.opens:
                for seat in (0, 1):
                    try:
                        table.act_seat(seat, {"do": "attack", "target": "Dan"})
                    except TableError:
                        pass
            victim = next((u for u in narration.said() if u.text.startswith("Last night")),
                          None)
        assert victim is not None, table.pace.mode
        morning = next(u for u in narration.said() if u.text.startswith("Morning has come"))
        clock.t = victim.at + victim.dur + 3.0  # the screen comes 3 s after the news was said
        table.tick()
        clock.go()  # the table's time runs again, with the hub's own ticks
        stop = threading.Event()
        ticking = threading.Thread(target=lambda: [table.tick() for _ in iter(
            lambda: stop.wait(0.05), True)], daemon=True)
        ticking.start()
        try:
            screen = new_context(hub, **SCREEN).new_page()
            screen.goto(f"{hub.base}/table")
            expect(hook(screen, "voice")).to_be_visible(timeout=wait_ms(10_000))
            hook(screen, "voice").click()
            spoken = hook(screen, "spoken").locator("li")
            expect(spoken.filter(has_text="Last night's victim")).to_have_count(
                1, timeout=wait_ms(15_000))
            played = [int(li.get_attribute("data-n")) for li in spoken.all()]
            assert played[:2] == [morning.n, victim.n], played  # the news it missed, in order
            deadline = time.monotonic() + wait_s(10)
            while time.monotonic() < deadline and (victim.n, "begun") not in \
                    getattr(narration, "_screen", set()):
                time.sleep(0.1)
            assert (victim.n, "begun") in narration._screen  # the hub heard it (and waits)
        finally:  # the hub's ticks end before the hub does, whatever failed
            stop.set()
            ticking.join(timeout=wait_s(5))
            new_context.close_all()
