"""The tally is rendered, never computed (issue 15 item 4, CONTRACTS.md C1):
the table screen and the GM's tablet show a closed vote from its `ballots`
(a voter's weight: the sheriff's ×2), its `extra` votes (the rumormonger's
poster) and its `counts`, and an open vote on the tablet without any count.

The views are hand-made (fixtures.py) and fed to the real pages through their
own event stream, so the pages are checked against the contract whatever the
engine of this tree logs. The same pages in whole games on the merged hub:
test_game_in_browser.py, test_village_in_browser.py."""

from __future__ import annotations

from typing import Any

import pytest
from browser_kit import SCREEN, TABLET, hook
from fixtures import TALLY, gm_view, public_view_after_the_vote, serve_json, serve_stream

from companion.words.announce import news_text

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect


def _rows(page: Any, row: str, cells: str) -> list[list[str]]:
    return page.locator(f"[data-test=tally] {row}").evaluate_all(
        f"(rows) => rows.map((r) => [...r.querySelectorAll('{cells}')].map((c) => c.textContent))")


@pytest.mark.parametrize(("lang", "rumour", "abstained"),
                         [("en", "rumour", "abstained"), ("ja", "告発ポスター", "棄権")])
def test_the_table_screen_shows_the_ballots_weights_and_extra_votes(
        hub, new_context, shot, lang, rumour, abstained):
    page = new_context(hub, **SCREEN).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    view = public_view_after_the_vote()
    serve_stream(page, "/api/public/stream", view)
    serve_json(page, "/api/public", view)
    page.goto(f"{hub.base}/table?lang={lang}")
    tally = hook(page, "tally")
    expect(tally).to_be_visible()
    expect(tally.locator("tr.lead th")).to_have_text("Cid")
    assert _rows(page, "tr", "th, td") == [
        # the counts as given; Ann's ballot's weight, the poster's 2 votes
        ["Cid", "5", f"Ann ×2, Bob, {rumour} ×2"],
        ["Dee", "1", "Cid"],
        [abstained, "", "Dee, Eve"],
    ]
    shot(page, f"table-tally-{lang}")
    assert not errors, errors


def test_the_table_screen_takes_the_weight_from_the_ballot_not_the_badge(hub, new_context):
    """No sheriff anywhere in the view, and a ballot of weight 2: the screen
    shows ×2 (it does not look for the badge to guess the weight)."""
    page = new_context(hub, **SCREEN).new_page()
    view = public_view_after_the_vote()
    for p in view["players"]:
        p["sheriff"] = False
    view["sheriff"] = None
    view["options"] = {"sheriff": False}
    serve_stream(page, "/api/public/stream", view)
    serve_json(page, "/api/public", view)
    page.goto(hub.base + "/table")
    expect(hook(page, "tally").locator("tr.lead td.who")).to_have_text("Ann ×2, Bob, rumour ×2")


def _gm(hub: Any, new_context: Any, view: dict) -> tuple[Any, list[str]]:
    """The GM's tablet on `view` (its game's record: the tally's announcement)."""
    page = new_context(hub, **TABLET).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    serve_stream(page, "/api/stream", view)
    names = [p["name"] for p in view["players"]]
    said = [{"kind": "tally", "time": "day 1", **TALLY}]  # the record's words: the hub's [issue 45]
    serve_json(page, "/api/games/1/view", {"log": [], "announcements": said,
                                           "news": [news_text(a, names, "en") for a in said]})
    serve_json(page, "/api/games/1", {"id": 1, "setup": {"ruleset": "millers-hollow",
                                                          "players": names}})
    page.goto(f"{hub.base}/gm?token={hub.token}")
    expect(hook(page, "running")).to_be_visible()
    return page, errors


def test_the_gm_tablet_shows_the_closed_tally_as_made(hub, new_context, shot):
    page, errors = _gm(hub, new_context, gm_view(last_tally=TALLY))
    tally = hook(page, "tally")
    expect(tally).to_contain_text("Ann ×2")
    assert _rows(page, ".tally-row", ":scope > span") == [
        ["Cid", "5", "Ann ×2, Bob, rumour ×2"],
        ["Dee", "1", "Cid"],
        ["abstains", "", "Dee, Eve"],
    ]
    # the announcement's one line: the counts, as given
    expect(hook(page, "announcements")).to_contain_text("Cid: 5, Dee: 1")
    shot(page, "gm-tally")
    assert not errors, errors


def test_the_gm_tablet_counts_nothing_while_the_vote_is_open(hub, new_context):
    """An open vote: who voted for whom so far, and no number (the sheriff's
    weight and the poster's votes come with the tally when it closes)."""
    view = gm_view(vote={"kind": "vote", "round": 1, "candidates": None, "voted": [0, 1, 2],
                         "waiting": [3, 4]},
                   votes={"0": 2, "1": 2, "2": None},
                   pending={"kind": "prompt", "step": "vote", "waiting": [3, 4]})
    page, errors = _gm(hub, new_context, view)
    tally = hook(page, "tally")
    expect(tally).to_contain_text("Waiting for: Dee, Eve")
    assert _rows(page, ".tally-row", ":scope > span") == [["Cid", "", "Ann, Bob"],
                                                          ["abstains", "", "Cid"]]
    assert not errors, errors
