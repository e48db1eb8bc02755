"""When the event card of the day shows, said by the views [issue 45]
(companion/table/audiences.py `_event_moment`; RULES.md §10): "day" from
dawn on the day the card was turned, "vote" while that day's execution vote
is open, None at night (the night's calls included) and at the end. The
pages read it (web/static/shared.js `renderEvent`): the table screen shows
the card at "day", the phones and the GM at both."""

from __future__ import annotations

import random

from test_night_news import random_moment

from companion.engine import public_view
from companion.table import Table

PLAYERS = [f"P{i}" for i in range(8)]
ROLES = ["werewolf", "werewolf", "seer", "witch", "hunter", "villager", "villager", "villager"]


def _moment_rule(view: dict) -> str | None:
    """What `event.moment` must be, from the view's own public fields."""
    ev = view["event"]
    if not (ev["today"] and view["phase"] == "day" and view.get("step") != "deal"):
        return None
    vote = view.get("vote")
    return "vote" if vote is not None and vote.get("kind") == "vote" else "day"


def test_every_view_says_when_the_card_shows(table: Table, clock) -> None:  # type: ignore[no-untyped-def]
    table.create({"ruleset": "millers-hollow", "players": PLAYERS, "seed": 3,
                  "deal": dict(zip(PLAYERS, ROLES)),
                  "options": {"sheriff": False, "night_s": 4, "pack_s": 6, "discussion_s": 5,
                              "events": ["no-discussion", "two-executions", "one-voice",
                                         "open-ballots", "quiet-night"]}})
    rng = random.Random(4)
    seen: dict[str, set] = {"public": set(), "gm": set(), "seat": set()}
    for _ in range(4000):
        if table.state.phase == "over" or table.state.n > 4:
            break
        views = [("public", table.public()), ("gm", table.gm_view())] + [
            ("seat", table.seat_view(s)) for s in range(8)]
        for who, view in views:
            if "event" not in view:
                continue
            moment = view["event"]["moment"]
            assert moment == _moment_rule(view), (who, view["phase"], view.get("step"), moment)
            seen[who].add(moment)
            if who == "seat" and table.pace.mode in ("calls", "deal"):
                assert moment is None  # every phone the night's one screen
        random_moment(table, clock, rng)
    # the card seen at dawn, at the vote and away (the GM's view holds the
    # engine's vote all day: the discussion is the pace's, not the engine's)
    assert seen["public"] >= {"day", "vote", None}, seen
    assert seen["seat"] >= {"day", "vote", None}, seen
    assert seen["gm"] >= {"vote", None}, seen
    # the engine's view is the engine's: the pace's moment is added to a copy
    assert "moment" not in (public_view(table.state).get("event") or {})
