# mypy: disallow-any-expr, disallow-any-generics, disallow-untyped-defs
"""The seat boxes on the table [issue 7]: presses in, LEDs out.

    buttons ─► SeatBoxes queue ─► consumer thread ─► Table.act_presses ─► engine, one commit
    each new public view (Table.public_hooks) ─► lights(view) ─► each SeatBox's LED

- `lights(view)`: what every seat's LED shows, computed from the **public**
  view alone (its pace, who has voted, who may still vote, the game's button
  mode), so an LED can never say more than the table screen: dark at night,
  slow blink while a button vote waits for that seat, solid once its vote is
  in the log (in lock-in: locked, never for whom) and while that vote's
  result is announced (so the last to press sees it too), solid for the
  speaker while the discussion or the defence runs as turns [issue 34]
  (whatever the button mode), off otherwise.
- `SeatBridge(table, boxes)`: one consumer thread drains the presses (the
  gpiozero callbacks only timestamp and enqueue) and hands each batch to
  `Table.act_presses`, which commits the votes in one transaction before it
  publishes; a refused press gets three quick blinks. Every LED is set from
  `lights` by a hook the table calls with each new public view, right after
  the commit and before it builds the other audiences' views: an LED goes
  solid only once the vote is durable, and at once.

Seat boxes are numbered from 1 (the pin map's clockwise order); the game's
seats from 0: box n is seat n - 1.

The table is any `ports.PressTable` (the real `companion.table.Table` in
`werewolf serve`): this module imports nothing above it, and mypy checks the
press's whole way with no `Any` (tests/firmware/test_ports.py). The public
view is JSON: `lights` narrows every field it reads (`field`, `seats`).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Mapping

from .ports import PressTable, View
from .seats import Press, SeatBox, SeatBoxes

log = logging.getLogger("werewolf.seats")

BUTTON_MODES = ("roll-call", "lock-in")
#: pacing modes that follow a closed vote (the verdict, last words, a prompt)
AFTER_A_VOTE = ("verdict", "last-words", "prompt")


def field(view: Mapping[str, object], key: str) -> Mapping[str, object]:
    """`view[key]` if it is a JSON object, else {} (absent, null)."""
    value = view.get(key)
    return value if isinstance(value, dict) else {}


def seats(value: object) -> list[int]:
    """The seat numbers in a JSON list (anything else in it, or no list: left out)."""
    if not isinstance(value, list):
        return []
    return [s for s in value if isinstance(s, int) and not isinstance(s, bool)]


def lights(view: Mapping[str, object]) -> dict[int, str]:
    """Each seat's LED ("dark" | "off" | "waiting" | "recorded" | "speaking"), by game
    seat, from a public view (RULES.md §4: nothing public reveals a night
    action; [issue 7] LED language)."""
    players = seats([p.get("seat") for p in _objects(view.get("players"))])
    pace = field(view, "pace")
    mode = pace.get("mode")
    if mode == "calls" or view.get("phase") == "night":
        return {seat: "dark" for seat in players}
    out = {seat: "off" for seat in players}
    speaker = field(pace, "turns").get("seat") if mode == "discussion" else None
    if isinstance(speaker, int) and speaker in out:  # whose turn to speak [issue 34]
        out[speaker] = "speaking"
        return out
    if view.get("buttons") not in BUTTON_MODES:
        return out
    if mode in AFTER_A_VOTE:  # the last to press sees his LED lit too
        for seat in _voted_today(view):
            out[seat] = "recorded"
        return out
    vote = field(view, "vote")
    if mode != "ballot" or not vote:
        return out
    for seat in seats(vote.get("voted")):
        out[seat] = "recorded"
    if pace.get("paused") is None:  # a paused vote takes no presses: no invitation
        for seat in seats(vote.get("waiting")):
            out[seat] = "waiting"
    return out


def _objects(value: object) -> list[Mapping[str, object]]:
    """The JSON objects in a JSON list."""
    return [v for v in value if isinstance(v, dict)] if isinstance(value, list) else []


def _voted_today(view: Mapping[str, object]) -> list[int]:
    """Who voted in today's last closed vote (the public tally), if that vote
    is the latest news: its LEDs stay solid while the result is announced."""
    if view.get("phase") != "day":
        return []
    tally = next((a for a in reversed(_objects(view.get("announcements")))
                  if a.get("kind") == "tally"), None)
    if tally is None or tally.get("time") != f"day {view.get('n')}":
        return []
    return [int(seat) for seat, target in field(tally, "votes").items()
            if target is not None]


class SeatBridge:
    """Presses to the table, the table's public view to the LEDs [issue 7]."""

    def __init__(self, table: PressTable, boxes: SeatBoxes) -> None:
        self.table = table
        self.boxes = boxes
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.batches = 0

    def start(self) -> SeatBridge:
        with self.table.lock:
            self.table.public_hooks.append(self._hook)
            self._show(self.table.public())
        self._stop.clear()
        self._thread = threading.Thread(target=self._consume, name="seat-presses", daemon=True)
        self._thread.start()
        return self

    def stop(self, timeout: float = 2.0) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None
        with self.table.lock:
            if self._hook in self.table.public_hooks:
                self.table.public_hooks.remove(self._hook)

    # -- presses in ------------------------------------------------------------------

    def _consume(self) -> None:
        while not self._stop.is_set():
            batch = self.boxes.presses(timeout=0.1)
            if batch:
                self.handle(batch)

    def handle(self, batch: list[Press]) -> list[str]:
        """One batch of presses through the table; refusals blink."""
        # the moment of each press on the table's clock (roll-call windows)
        now_ns, now = time.monotonic_ns(), self.table.clock()
        presses = [(p.seat - 1, now - (now_ns - p.t_ns) / 1e9) for p in batch]
        try:
            outcomes = list(self.table.act_presses(presses))
        except Exception:  # not durable: nothing was recorded, say so to every seat
            log.exception("seat presses could not be saved")
            outcomes = ["not saved: press again"] * len(batch)
        self.batches += 1
        for press, outcome in zip(batch, outcomes):
            if outcome != "recorded" and press.seat in self.boxes.boxes:
                self.boxes[press.seat].refused()
        return outcomes

    # -- LEDs out --------------------------------------------------------------------

    def _hook(self, view: View) -> None:
        try:
            self._show(view)
        except Exception:  # the table has committed: an LED fault must not undo that
            log.exception("seat LEDs: could not show a view")

    def _show(self, view: View) -> None:
        states = lights(view)
        for box in self.boxes:
            state = states.get(box.number - 1, "off")
            dark = state == "dark"
            if box.is_dark != dark:
                box.dark(dark)
            target = "off" if dark else state
            if box.state != target:
                _say(box, target)


def _say(box: SeatBox, state: str) -> None:
    """The seat box's word for an LED state as `lights` names it."""
    if state == "waiting":
        box.waiting()
    elif state == "recorded":
        box.recorded()
    elif state == "speaking":
        box.speaking()
    else:
        box.off()
