"""The defects a play-test found [issue 18, "What was found"], each checked on
the real page: hand-made views (fixtures.py) where a game would take long to
reach the state, a live hub where the hub's answer matters (the offline tap).

- item 4: a card the seer was shown stays behind the hold, like his own;
- item 6: the phone's end screen says whether *you* won and why; the GM says
  who won as the TV does; the TV's line does not repeat its heading and keeps
  its line breaks; a death's prompt at dawn is titled as the day;
- item 7: in roll-call the phone names the candidate being counted;
- item 8: a tap while offline says "reconnecting" and is sent again with its
  seq once back (recorded), or plainly "not recorded" when the game moved on;
  the GM's tablet never shows a raw "Failed to fetch";
- item 9: no 404 (nor any console error) on the first load of the lobby.
"""

from __future__ import annotations

from typing import Any

import pytest
from browser_kit import PHONE, SCREEN, TABLET, holding, hook
from conftest import running_hub
from fixtures import gm_view, players, serve_json, serve_stream
from flask import request
from hub.conftest import FakeClock
from screens_kit import walk
from slowness import wait_ms

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

EIGHT = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal"]


def _seat_view(**fields: Any) -> dict[str, Any]:
    """Seat 0's view (Ann, the seer) of a game of five on day 1 (`fields` replace)."""
    view: dict[str, Any] = {
        "seq": 5, "game": 1, "boot": 0, "language": "en", "ruleset": "millers-hollow",
        "phase": "day", "n": 1, "step": "day 1", "players": players(), "sheriff": None,
        "deaths": [], "options": {"sheriff": False, "reveal_on_death": True},
        "pace": {"mode": "discussion", "paused": None, "deadline": None},
        "seat": 0, "name": "Ann", "role": "seer", "team": "village", "alive": True,
        "actions": [], "results": [{"kind": "inspect", "time": "night 1", "target": 1,
                                    "result": "werewolf"}], "knows": {},
    }
    view["players"][1]["role"] = "werewolf"  # what the seer saw, and only she
    view.update(fields)
    return view


def _phone_on(hub: Any, new_context: Any, view: dict[str, Any]) -> Any:
    """A phone on a real seat link whose stream and state answer `view`."""
    game = hub.api("POST", "/api/games", {"ruleset": "millers-hollow", "seed": 3,
                                          "players": EIGHT})
    url = game["seats"][0]["url"]
    phone = new_context(hub, **PHONE).new_page()
    serve_stream(phone, url + "/stream", view)
    serve_json(phone, url + "/state", view)
    phone.goto(hub.base + url)
    return phone


def test_a_card_the_seer_saw_stays_behind_the_hold(hub, new_context, shot):
    """Issue 18 item 4: "Ann Werewolf" was readable under "The table" at a
    glance. The table lists only what the table knows; the seen card shows
    while the card is held."""
    phone = _phone_on(hub, new_context, _seat_view())
    expect(phone.locator("#players")).to_contain_text("Bob")
    expect(phone.locator("#players")).not_to_contain_text("Werewolf")
    expect(hook(phone, "known-cards")).to_be_hidden()
    with holding(phone):
        expect(hook(phone, "known-cards")).to_have_text("Cards you know: Bob — Werewolf")
        shot(phone, "known-card-held")
    expect(hook(phone, "known-cards")).to_be_hidden()


def test_what_a_wolf_knows_and_a_seers_results_say_nothing_at_a_glance(hub, new_context, shot):
    """Issue 18 item 4: private results belong behind the same hold as the card.
    "Your pack: Bob" under "What you know" named a wolf to a neighbour's
    glance, and a result titled "Seer's look" named a seer. [issue 28]: the
    open page has neither (a list of results, however titled, was itself
    longer on a seer's phone): both are on the held card only."""
    view = _seat_view(role="werewolf", team="wolves", knows={"pack": [0, 1]})
    phone = _phone_on(hub, new_context, view)
    expect(phone.locator("#players")).to_contain_text("Bob")
    expect(phone.locator("body")).not_to_contain_text("Your pack")
    expect(phone.locator("body")).not_to_contain_text("Night 1")
    expect(hook(phone, "results")).to_be_hidden()
    with holding(phone):
        expect(hook(phone, "knows-held")).to_contain_text("Your pack: Bob")
        expect(hook(phone, "results")).to_contain_text("Night 1 · Seer — Bob's card: Werewolf.")
        shot(phone, "pack-held")
    expect(hook(phone, "knows-held")).to_have_text("")
    expect(hook(phone, "results")).to_be_hidden()


def test_a_public_card_stays_on_the_table(hub, new_context):
    """A dead player's card shown to all (reveal on death) stays in the list."""
    view = _seat_view()
    view["players"][2].update(alive=False, role="witch")
    phone = _phone_on(hub, new_context, view)
    expect(phone.locator("#players")).to_contain_text("Witch")
    expect(phone.locator("#players")).not_to_contain_text("Werewolf")


@pytest.mark.parametrize(("seat", "outcome"), [(1, "You won!"), (0, "You lost.")])
def test_the_end_screen_says_whether_you_won_and_why(hub, new_context, shot, seat, outcome):
    """Issue 18 item 6: "Game over" twice and never whether *you* won."""
    view = _seat_view(phase="over", step="over", winner="werewolves", winners=[1],
                      seat=seat, role="werewolf" if seat == 1 else "seer",
                      team="werewolves" if seat == 1 else "village")
    phone = _phone_on(hub, new_context, view)
    expect(hook(phone, "outcome")).to_have_text(outcome)
    expect(hook(phone, "why")).to_have_text(
        "You were the Werewolf: Werewolves." if seat == 1 else "You were the Seer: Village.")
    expect(phone.locator("#over")).to_contain_text("The werewolves win")
    assert phone.locator("#over").inner_text().count("Game over") == 0
    shot(phone, f"end-{seat}")


def test_the_phone_names_the_candidate_in_roll_call(hub, new_context):
    """Issue 18 item 7: only the display and the TV named the candidate."""
    ballot = {"mode": "ballot", "paused": None, "deadline": None}
    view = _seat_view(buttons="roll-call", pace=ballot,
                      step="day 1 vote", vote={"kind": "vote", "round": 1, "candidates": None,
                                               "voted": [], "waiting": [0, 1, 2, 3, 4]},
                      rollcall={"candidate": 3, "index": 2, "of": 5, "ends": None})
    phone = _phone_on(hub, new_context, view)
    expect(hook(phone, "rollcall-now")).to_have_text(
        "Vote for Dee? Press your button now (3 of 5)")


def test_the_gm_says_who_won_as_the_tv_does(hub, new_context):
    """Issue 18 item 6: the GM said "Village win" where the TV says "The village wins"."""
    page = new_context(hub, **TABLET).new_page()
    view = gm_view(phase="over", step="over", winner="village", winners=[1, 2, 3])
    serve_stream(page, "/api/stream", view)
    serve_json(page, "/api/games/1", {"log": [], "announcements": []})
    page.goto(f"{hub.base}/gm?token={hub.token}")
    hook(page, "tab-running").click()
    expect(hook(page, "winner")).to_have_text("The village wins")


def test_the_gm_tablet_says_what_the_start_found_in_the_game_file(hub, new_context, shot):
    """[issue 30 item 1]: what a start restored from the journal, or could not
    recover, is said on the GM's tablet as it is on the terminal."""
    page = new_context(hub, **TABLET).new_page()
    said = ("werewolf: game 3: event 6 could not be recovered; it resumes after event 5; "
            "the SD card may be failing")
    view = gm_view(phase="night", step="night 1", storage=said)
    serve_stream(page, "/api/stream", view)
    page.goto(f"{hub.base}/gm?token={hub.token}")
    notice = hook(page, "storage-notice")
    expect(notice).to_be_visible()
    expect(notice).to_contain_text("The game file was damaged: check the SD card.")
    expect(notice).to_contain_text("game 3: event 6 could not be recovered")
    shot(page, "gm-storage-notice")
    serve_stream(page, "/api/stream", gm_view(phase="night", step="night 1", seq=2))
    page.reload()
    expect(notice).to_be_hidden()


def test_the_tv_line_keeps_its_breaks_without_the_heading(hub, new_context):
    """Issue 18 item 6: "Night 1 Thief, wake up…" on one line under "Night 1"."""
    page = new_context(hub, **SCREEN).new_page()
    view = {"seq": 3, "game": 1, "boot": 0, "language": "en", "ruleset": "millers-hollow",
            "phase": "night", "n": 1, "step": "night 1", "players": players(), "sheriff": None,
            "deaths": [], "options": {}, "announcements": [],
            "pace": {"mode": "calls", "paused": None, "deadline": None},
            "line": "Night 1\nThief, wake up.\nLook at the two centre cards."}
    serve_stream(page, "/api/public/stream", view)
    serve_json(page, "/api/public", view)
    page.goto(f"{hub.base}/table?lang=en")
    expect(hook(page, "phase")).to_have_text("Night 1")
    lines = hook(page, "line").locator(".said")
    expect(lines).to_have_count(2)
    expect(lines.first).to_have_text("Thief, wake up.")
    # a death's prompt at dawn is said in the morning: "Day 2", not "Night 2"
    assert page.evaluate("pageWords('names').stepText('night 2 hunter')") == "Day 2 · the hunter"
    assert page.evaluate("pageWords('names').stepText('night 2')") == "Night 2"


def test_no_console_error_on_the_first_lobby_load(tmp_path, browser):
    """Issue 18 item 9: a 404 (the browser's /favicon.ico) on the first load.
    A plain context: one whose requests are routed (new_context) is never
    made to ask for a favicon."""
    with running_hub(tmp_path / "hub") as hub:
        errors: list[str] = []
        asked: list[str] = []  # every path the hub was asked for (the browser's own too)
        hub.app.before_request(lambda: asked.append(request.path) and None)
        for url, options in ((f"/gm?token={hub.token}", TABLET), ("/table", SCREEN)):
            context = browser.new_context(**options)
            page = context.new_page()
            page.on("console", lambda m: m.type == "error" and errors.append(m.text))
            page.goto(hub.base + url)
            page.wait_for_timeout(wait_ms(1500))
            context.close()
        assert "/static/gm.js" in asked  # the hook sees the page's requests
        assert "/favicon.ico" not in asked, asked
        assert not errors, errors


def _to_the_vote(hub: Any, clock: FakeClock) -> int:
    """Play on until a phone may vote; its seat."""
    for screen in walk(hub.table, clock, seed=5):
        if screen.name == "vote-vote":
            return screen.seat
    raise AssertionError("no vote")


def _tap_offline(hub, new_context, seat: int):  # type: ignore[no-untyped-def]
    """A phone opens `seat`'s link at the vote, loses the line, then taps
    the first target and confirms: its context, page and that target."""
    context = new_context(hub, **PHONE)
    phone = context.new_page()
    phone.goto(hub.base + hub.table.seats()[seat]["url"])
    box = hook(phone, "choice-vote")
    expect(box).to_be_visible()
    target = hub.table.seat_view(seat)["actions"][0]["targets"][0]
    context.set_offline(True)
    box.locator(f"[data-test=target-{target}]").click()
    hook(phone, "confirm").click()
    return context, phone, target


def test_a_tap_while_offline_is_sent_again_once_back(tmp_path, new_context, shot):
    """Issue 18 item 8: the vote tapped offline was lost with "Failed to
    fetch". Now the phone says it is reconnecting, and sends the same tap
    (its seq) when the line is back: recorded. A tap the game moved past
    while offline is refused (409) and the phone says it was not recorded."""
    clock = FakeClock()
    with running_hub(tmp_path / "hub", clock=clock, tick_s=None) as hub:
        hub.table.create({"ruleset": "millers-hollow", "seed": 5, "players": EIGHT,
                          "options": {"sheriff": False}})
        seat = _to_the_vote(hub, clock)
        context, phone, target = _tap_offline(hub, new_context, seat)
        expect(hook(phone, "unsent")).to_contain_text("Reconnecting")
        expect(hook(phone, "error")).to_be_hidden()
        shot(phone, "offline-tap")
        assert seat not in hub.table.state.votes
        context.set_offline(False)
        expect(hook(phone, "unsent")).to_be_hidden(timeout=wait_ms(10_000))
        assert hub.table.state.votes.get(seat) == target  # the same tap, recorded

        # a second phone taps offline, and the vote closes meanwhile: not recorded
        others = [s for s in hub.table.seat_view(seat)["vote"]["waiting"] if s != seat]
        other = others[0]
        context2, phone2, _ = _tap_offline(hub, new_context, other)
        expect(hook(phone2, "unsent")).to_be_visible()
        hub.table.act_gm({"do": "timeout"})  # the ballot ends while the phone is away
        context2.set_offline(False)
        expect(hook(phone2, "error")).to_contain_text("Not recorded", timeout=wait_ms(10_000))
        assert other not in hub.table.state.votes or hub.table.state.phase != "day"
        new_context.close_all()


@pytest.mark.parametrize("ruleset", ["millers-hollow", "bga"])
def test_a_lockin_pick_never_shows_as_a_vote_until_its_box_locks_it(tmp_path, new_context,
                                                                   shot, ruleset):
    """[issue 28] "A vote shows what counts": in lock-in mode a phone's pick
    that the seat's box has not locked showed a green "✓ Vote for: Hana", and
    counted as no vote at the timeout without a word. Now it shows no ✓ and
    says it is not counted, and what the time-out makes of it (RULES.md §1
    `vote_timeout`: an abstention in Millers Hollow, the right-hand
    neighbour on Board Game Arena); once the box is pressed, the phone says
    the vote is locked and counts, in the same commit that lights its LED
    (firmware/bridge.py `lights`: solid once the vote is in the log)."""
    clock = FakeClock()
    with running_hub(tmp_path / "hub", clock=clock, tick_s=None) as hub:
        hub.table.create({"ruleset": ruleset, "seed": 5, "players": EIGHT, "buttons": "lock-in",
                          "options": {"sheriff": False}})
        seat = _to_the_vote(hub, clock)
        phone = new_context(hub, **PHONE).new_page()
        phone.goto(hub.base + hub.table.seats()[seat]["url"])
        box = hook(phone, "choice-vote")
        target = hub.table.seat_view(seat)["actions"][0]["targets"][0]
        box.locator(f"[data-test=target-{target}]").click()
        hook(phone, "confirm").click()
        expect(hook(phone, "confirm")).to_be_hidden()
        note = hook(phone, "lockin")
        expect(note).to_contain_text(f"Your pick: {EIGHT[target]}. Not counted until you press")
        expect(note).to_contain_text("it counts as no vote" if ruleset == "millers-hollow"
                                     else "your vote goes to your right-hand neighbour")
        expect(phone.locator("body")).not_to_contain_text("✓")
        shot(phone, f"lockin-unlocked-{ruleset}")
        assert seat not in hub.table.state.votes
        assert hub.table.act_presses([(seat, clock())]) == ["recorded"]
        expect(note).to_have_text(f"Your vote for {EIGHT[target]} is locked: it counts.")
        assert hub.table.state.votes[seat] == target
        assert hub.table.public()["vote"]["voted"].count(seat) == 1  # what the LED reads
        new_context.close_all()


def test_the_gm_never_shows_failed_to_fetch(tmp_path, new_context):
    """Issue 18 item 3: the GM's offline message was a raw "Failed to fetch"."""
    with running_hub(tmp_path / "hub") as hub:
        hub.api("POST", "/api/games", {"ruleset": "millers-hollow", "seed": 3, "players": EIGHT})
        context = new_context(hub, **TABLET)
        page = context.new_page()
        page.goto(f"{hub.base}/gm?token={hub.token}")
        expect(hook(page, "running")).to_be_visible()
        context.set_offline(True)
        hook(page, "pause").click()
        error = page.locator("#error")
        expect(error).to_be_visible()
        expect(error).to_contain_text("No answer from the hub")
        expect(error).not_to_contain_text("Failed to fetch")
        context.set_offline(False)
        new_context.close_all()
