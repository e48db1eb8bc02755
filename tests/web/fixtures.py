"""Hand-made views for page tests that must not wait for a game to reach a
state: a page is opened on the real hub, and the browser answers the page's
own stream (and the few JSON reads it makes) with a view written here. The
view follows the hub's contracts (CONTRACTS.md C1: a tally's `ballots` and
`extra`), so the page is tested against the contract, not against what one
game happened to produce."""

from __future__ import annotations

import json
from typing import Any

NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve"]

#: One closed execution vote (contract C1): Ann is the sheriff (her ballot
#: weighs 2), the rumormonger's poster adds 2 votes on Cid, Dee and Eve abstain.
#: counts["2"] == 2 + 1 + 2 (Ann's, Bob's, the poster's); counts["3"] == 1.
TALLY: dict[str, Any] = {
    "step": "vote", "round": 1,
    "votes": {"0": 2, "1": 2, "2": 3, "3": None, "4": None},
    "counts": {"2": 5, "3": 1}, "top": 5, "tie": None, "poster": 2,
    "ballots": [{"voter": 0, "target": 2, "weight": 2}, {"voter": 1, "target": 2, "weight": 1},
                {"voter": 2, "target": 3, "weight": 1}, {"voter": 3, "target": None, "weight": 1},
                {"voter": 4, "target": None, "weight": 1}],
    "extra": [{"source": "poster", "target": 2, "votes": 2}],
}


def players(gm: bool = False) -> list[dict[str, Any]]:
    out = []
    for seat, name in enumerate(NAMES):
        p: dict[str, Any] = {"seat": seat, "name": name, "alive": True, "sheriff": seat == 0,
                             "role": None, "can_vote": True}
        if gm:
            p.update(role="villager", actions=[])
        out.append(p)
    return out


def public_view_after_the_vote() -> dict[str, Any]:
    """The table screen's view on day 1 after the tally (no death yet)."""
    return {"seq": 12, "game": 1, "ruleset": "millers-hollow", "phase": "day", "n": 1,
            "step": "day 1", "players": players(), "sheriff": 0, "deaths": [],
            "options": {"sheriff": True}, "pace": {"mode": "verdict", "paused": None,
                                                   "deadline": None},
            "line": "", "last_tally": TALLY,
            "announcements": [{"kind": "tally", "time": "day 1", **TALLY}]}


def gm_view(**fields: Any) -> dict[str, Any]:
    """A GM view of game 1 on day 1 (`fields` added or replaced)."""
    view: dict[str, Any] = {
        "seq": 12, "game": 1, "ruleset": "millers-hollow", "phase": "day", "n": 1,
        "step": "day 1", "players": players(gm=True), "sheriff": 0,
        "pace": {"mode": "verdict", "paused": None, "deadline": None},
        "pending": {"kind": "prompt", "step": "vote", "waiting": []}, "votes": {},
        "seats": [{"seat": s, "name": n, "url": f"/p/token{s}", "claimed": True}
                  for s, n in enumerate(NAMES)],
    }
    view.update(fields)
    return view


def serve_stream(page: Any, path: str, view: dict[str, Any]) -> None:
    """The page's event stream at `path` answers `view` (then ends; the page
    asks again after `retry`, and gets it again)."""
    body = "retry: 60000\ndata: " + json.dumps(view) + "\n\n"
    page.route(f"**{path}", lambda route: route.fulfill(
        status=200, headers={"Content-Type": "text/event-stream", "Cache-Control": "no-store"},
        body=body))


def serve_json(page: Any, path: str, doc: Any) -> None:
    page.route(f"**{path}", lambda route: route.fulfill(status=200, json=doc))
