"""What the layout and language tests share [issue 18, "Every screen fits",
"One language per page"]: the check a page runs on itself (`LAYOUT_JS`), the
sizes of each device, and a game walked screen by screen through the table's
own methods (no page drives it), so each screen can be looked at on every
page at every size.

The check, in the page (`page.evaluate(LAYOUT_JS, opts)`, layout_check.js) —
one line per problem:
- "sideways": the page scrolls horizontally;
- "tv-scroll": the TV page scrolls vertically (it is read from 3 m, nobody scrolls it);
- "cut": a text box clips its text (its content wider or taller than the box
  while it clips), a text sticks out of the window or of a clipping
  ancestor, or a select's chosen option is wider than the select; a text
  cut on purpose is not: a box that ends it in "…" (`text-overflow:
  ellipsis`, on its last line if `-webkit-line-clamp` holds it to a few
  [issue 30]) and holds its whole text in its `title` (a long name on the GM
  tablet [issue 28]), a select that ends its option in "…" (its open list
  shows it whole);
- "broken": a Latin word laid out on two lines (broken inside the word),
  unless it is a player's name wider than its line (forty "W": it can only
  break, or end in "…") or a link [issue 30];
- "overlap": two texts overlap, or (TV) a fixed button covers a text;
- "small": a TV text under `min_font` px;
- "no-hint": a list that scrolls inside its panel shows no hint that it does
  (an element `.scroll-hint` visible in the panel, see web/static/dom.js);
- "latin" / "cjk": game text in the wrong script (ja/zh_Hant: a Latin word
  that is not a player's name; en: any CJK character).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.engine import legal_actions
from companion.engine.actions import sample_uniform

PHONES = [(360, 640), (390, 844)]
TABLETS = [(1024, 768), (1280, 800)]
TVS = [(1280, 720), (1920, 1080)]
#: the TV's smallest text, px at 1920×1080 and at 1280×720 [issue 43]: read
#: from 4 m on a 55″ set (22 px at 1920×1080 before [issue 18])
TV_MIN_FONT = {1920: 40, 1280: 27}

#: Latin tokens a Japanese or Chinese page may show: not words of a language
LATIN_OK = {"Wi-Fi", "QR", "GM", "OK"}

#: the check, run in the page: tests/web/layout_check.js
LAYOUT_JS = (Path(__file__).with_name("layout_check.js")).read_text(encoding="utf-8")


def problems(page: Any, *, tv: bool = False, lang: str | None = None,
             names: list[str] = (),  # type: ignore[assignment]
             min_font: dict[int, float] = TV_MIN_FONT) -> list[str]:
    """The page's layout (and, with `lang`, language) problems as it is now
    (`min_font`: the TV's smallest text by the window's width)."""
    size = page.viewport_size or {}
    return list(page.evaluate(LAYOUT_JS, {
        "tv": tv, "minFont": min_font.get(size.get("width", 0), 0) if tv else 0,
        "lang": lang, "names": sorted(names, key=len, reverse=True), "latinOk": sorted(LATIN_OK)}))


# --- a game, screen by screen ---------------------------------------------------


@dataclass
class Screen:
    """One screen of a game: its name, and the seat whose phone shows it (the
    one acting, else one alive)."""

    name: str
    seat: int


def _replay(table: Any, action: Any) -> dict:
    """An engine action in the replay format (names for seats), for `act_gm`."""
    names = table.state.names
    doc = action.to_dict()
    for key in ("actor", "target", "poison"):
        if isinstance(doc.get(key), int):
            doc[key] = names[doc[key]]
    if "targets" in doc:
        doc["targets"] = [names[s] for s in doc["targets"]]
    return doc


def _name(table: Any, acted: set[tuple[int, int]]) -> tuple[str, int | None]:
    """The screen the game shows now, and the seat acting on it (if any)."""
    pc = table.pace
    gm = table.gm_view()
    if table.public()["phase"] == "over":  # (the GM knows it first: pacing holds last words)
        return "end", None
    mode = pc.mode
    step = gm["pending"]["id"]
    acting = [s for s in range(table.state.size) if table.seat_view(s)["actions"]
              and (s, step) not in acted]
    seat = acting[0] if acting else None
    if mode == "calls":
        return f"night-{gm['pace'].get('call') or 'dawn'}", seat
    if mode == "ballot":
        return f"vote-{gm['pending'].get('step', '')}", seat
    if mode == "prompt":
        return f"prompt-{gm['pending'].get('step', '')}", seat
    return mode or "day", seat


def walk(table: Any, clock: Any, seed: int, limit: int = 4000) -> Iterator[Screen]:
    """Play the table's game to its end with random legal actions (each phone
    acting when pacing lets it, time passing otherwise), yielding each screen
    the first time it shows. The caller looks at the pages between yields."""
    rng = random.Random(seed)
    shown: set[str] = set()
    acted: set[tuple[int, int]] = set()  # (seat, engine step): each seat acts once a step
    for _ in range(limit):
        if table.pace.mode == "deal":  # the game waits for "start the game" [issue 28]
            table.timer("start")
        elif table.pace.paused is not None:  # a pause before it (a script's own)
            table.timer("resume")
        name, seat = _name(table, acted)
        if name not in shown:
            shown.add(name)
            alive = [s for s in range(table.state.size) if table.state.alive[s]]
            yield Screen(name, seat if seat is not None else (alive or [0])[0])
        if name == "end":
            return
        step = table.gm_view()["pending"]["id"]
        if seat is not None and (seat, step) not in acted:
            acted.add((seat, step))
            choices = legal_actions(table.state, seat)
            if choices:
                action = sample_uniform(choices, seat, rng)
                if action.do == "vote" and rng.random() < 0.3:
                    pass  # let some ballots time out: the late-ballot rule shows too
                else:
                    table.act_gm(_replay(table, action))
                    continue
        deadline = table.pace.deadline  # time passes: to the next deadline
        clock.advance(max(0.5, deadline - clock() + 0.01) if deadline else 1)
        table.tick()
    raise AssertionError("the game did not end")
