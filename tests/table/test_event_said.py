"""Which sentence of a line tells the event card of the day, said by the
views [issue 45] (companion/words/announce.py `event_said`, set by
companion/table/audiences.py): the table screen's `line_event`, the GM's
`script.line_event`. The pages leave that sentence out while the card shows
(web/static/table.js, gm_game.js) instead of searching their line for the
card's text: the view names exactly the sentences that search found."""

from __future__ import annotations

import random

import pytest
from test_night_news import random_moment

from companion.table import Table
from companion.words import names_for

PLAYERS = [f"P{i}" for i in range(8)]
ROLES = ["werewolf", "werewolf", "seer", "witch", "hunter", "villager", "villager", "villager"]


def _found_by_text(line: str, text: str) -> set[int]:
    """The sentences the pages once found by the card's text."""
    return {i for i, s in enumerate(line.split("\n")) if text in s}


@pytest.mark.parametrize("lang", ["en", "zh_Hant"])
def test_the_view_says_which_sentence_tells_the_card(table: Table, clock, lang: str) -> None:  # type: ignore[no-untyped-def]
    table.create({"ruleset": "millers-hollow", "players": PLAYERS, "seed": 3, "language": lang,
                  "deal": dict(zip(PLAYERS, ROLES)),
                  "options": {"sheriff": False, "night_s": 4, "pack_s": 6, "discussion_s": 5,
                              "events": ["no-discussion", "two-executions", "one-voice",
                                         "open-ballots", "quiet-night"]}})
    texts = names_for(lang)["event_texts"]
    rng = random.Random(4)
    seen: dict[str, set] = {"public": set(), "gm": set()}
    for _ in range(3000):
        if table.state.phase == "over" or table.state.n > 3:
            break
        public, gm = table.public(), table.gm_view()
        for who, view, line, at in (("public", public, public["line"], public["line_event"]),
                                    ("gm", gm, gm["script"]["line"], gm["script"]["line_event"])):
            ev = view.get("event")
            if ev is None:
                assert at is None
                continue
            found = _found_by_text(line, texts[ev["card"]])
            assert found == ({at} if at is not None else set()), (who, line, at)
            seen[who].add(at is not None)
        random_moment(table, clock, rng)
    # the card's sentence was in the line, and a line without it was seen too
    assert seen == {"public": {True, False}, "gm": {True, False}}, seen
