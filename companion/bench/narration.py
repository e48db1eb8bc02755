"""`werewolf bench narration` [issue 42]: a narrated game played as a table
plays it, on a real hub, from an empty voice cache, and what its voice cost.

It starts the hub in this process (the app, its server on a free 127.0.0.1
port, the table's clock ticking every 0.25 s, as `werewolf serve` runs
them), with the table's lock timed and the voices counted, deals a narrated
game and plays it on the real clock to its end and the story's first page:

- the phones act as theirs do (`Table.act_seat`, `ready`, `pass_turn`: the
  one call each of their routes makes), 1–3 s after a window opens; the
  pack takes a villager each night, the witch heals on night 1 and poisons
  on night 2, the knight guards the pack's next victim from night 2 (a
  peaceful dawn), day 1's vote is tied (a runoff), then the village votes
  out a wolf a day; the speaker passes his turn after 2 s;
- the host presses Start `start_after_s` after the deal (a table taking its
  cards), as the host page does;
- one table screen, an HTTP client that plays as web/static/narration.js
  does: it polls GET /api/speech, fetches each line's WAV once `ready`, says
  the lines in turn (the news it missed, whole; a call a newer line replaced,
  skipped), and tells the hub (POST /api/speech/heard).

It prints one JSON object (`werewolf bench narration`, last line):

    lock_max_ms       the longest hold of the table's lock (its p99 and count beside)
    rendered_in_play  lines rendered while a request or the table waited (any render
                      not on the background thread, or under the table's lock): 0
    late_lines        lines heard before they were rendered (each said late, once
                      rendered; `late_max_s` the latest)
    render_s          from the deal until every line the game may say was on disk
                      (`rendered` lines; `render_busy_s` spent in the engines)
    tv_*              the screen: lines played, news caught up, calls skipped
                      (replaced), lines it missed (0), WAV requests and their statuses
    held_s            how long the hub waited for the screen, in all

The figures of a run depend on this machine and its load: a Pi-speed run is
this one under a CPU quota (tools/pi-speed.sh, docs/performance/narration.md).
"""

from __future__ import annotations

import http.client
import json
import os
import sys
import tempfile
import threading
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from random import Random
from typing import Any

from ..speech import Cache
from ..speech.ahead import GAME
from ..speech.engines import Engine, engine_for, find
from ..speech.lines import SAMPLE_NAMES
from ..words import LANGUAGES
from .clients import HOST, TOKEN, machine, percentile
from .phones import Phones

TICK_S = 0.25  # the table's clock, as `werewolf serve` ticks it
POLL_S = 0.25  # the screen's timeline poll (narration.js)
CATCH_UP_S = 45.0  # the screen still says news that ended this long ago (narration.js)
MAX_GAME_S = 3600.0

#: the issue's two games: a 9-player jp-standard in Japanese, a 10-player
#: BGA with speaking turns in Traditional Chinese (a witch: a heal, a poison)
GAMES: dict[str, dict[str, Any]] = {
    "ja": {"ruleset": "jp-standard", "language": "ja", "players": 9,
           "options": {"discussion_s": 40, "extra_discussion_s": 20, "night_s": 20,
                       "pack_s": 30}},
    "zh_Hant": {"ruleset": "bga", "language": "zh_Hant", "players": 10,
                "cards": {"werewolf": 2, "seer": 1, "witch": 1, "hunter": 1, "villager": 5},
                "options": {"discussion_turns": True, "turn_s": 12, "night_s": 20,
                            "pack_s": 30, "discussion_s": 40}},
}
QUICK = {"discussion_s": 12, "extra_discussion_s": 8, "turn_s": 6}


class TimedLock:
    """The table's RLock, each outermost hold timed (a Condition uses it too)."""

    def __init__(self) -> None:
        self._lock = threading.RLock()
        self._local = threading.local()
        self.holds: list[float] = []
        self.where = ""  # the code that held it longest (innermost first)

    def acquire(self, blocking: bool = True, timeout: float = -1) -> bool:
        got = self._lock.acquire(blocking, timeout)
        if got:
            depth = getattr(self._local, "depth", 0)
            if depth == 0:
                self._local.since = time.perf_counter()
            self._local.depth = depth + 1
        return got

    def release(self) -> None:
        self._local.depth -= 1
        if self._local.depth == 0:
            self._held(time.perf_counter() - self._local.since)
        self._lock.release()

    def _held(self, seconds: float) -> None:
        if not self.holds or seconds > max(self.holds):  # where the longest was held
            self.where = " < ".join(f"{f.name}:{f.lineno}" for f in reversed(
                traceback.extract_stack(limit=9)[:-3]))
        self.holds.append(seconds)

    __enter__ = acquire

    def __exit__(self, *exc: object) -> None:
        self.release()

    def _is_owned(self) -> bool:
        return bool(self._lock._is_owned())  # type: ignore[attr-defined]

    def _release_save(self) -> tuple:  # Condition.wait
        depth = self._local.depth
        self._held(time.perf_counter() - self._local.since)
        self._local.depth = 0
        return (self._lock._release_save(), depth)  # type: ignore[attr-defined]

    def _acquire_restore(self, saved: tuple) -> None:
        self._lock._acquire_restore(saved[0])  # type: ignore[attr-defined]
        self._local.depth, self._local.since = saved[1], time.perf_counter()


@dataclass
class Counted:
    """An engine whose renders are noted: on which thread, under the table's lock or not."""

    engine: Engine
    lock: TimedLock
    renders: list[tuple[str, bool, float]] = field(default_factory=list)

    @property
    def lang(self) -> str:
        return self.engine.lang

    @property
    def name(self) -> str:
        return self.engine.name

    def render(self, text: str) -> bytes:
        start = time.perf_counter()
        try:
            return self.engine.render(text)
        finally:
            self.renders.append((threading.current_thread().name, self.lock._is_owned(),
                                 time.perf_counter() - start))


class Screen(threading.Thread):
    """A table screen as web/static/narration.js plays, over HTTP."""

    def __init__(self, port: int, stop: threading.Event) -> None:
        super().__init__(name="bench-screen", daemon=True)
        self.port, self.stop = port, stop
        self.lines: dict[int, dict] = {}
        self.played: dict[int, float] = {}  # n -> when it began (the hub's clock)
        self.skipped: set[int] = set()
        self.caught_up = 0  # news begun after its moment was over
        self.wav: dict[int, int] = {}  # status -> count
        self.game: int | None = None
        self.offset = 0.0
        self.errors: list[str] = []

    def _ask(self, method: str, path: str, body: object = None) -> tuple[int, bytes]:
        conn = http.client.HTTPConnection(HOST, self.port, timeout=10)
        try:
            headers = {"Content-Type": "application/json"} if body is not None else {}
            conn.request(method, path, None if body is None else json.dumps(body), headers)
            r = conn.getresponse()
            return r.status, r.read()
        finally:
            conn.close()

    def _tell(self, n: int, what: str) -> None:
        self._ask("POST", "/api/speech/heard", {"game": self.game, "n": n, "what": what})

    def _poll(self) -> None:
        sent = time.monotonic()
        status, raw = self._ask("GET", "/api/speech?after=-1")
        if status != 200:
            return
        doc = json.loads(raw)
        self.offset = doc["now"] - (sent + time.monotonic()) / 2
        if doc["game"] != self.game:
            self.game, self.lines = doc["game"], {}
        for u in doc["said"]:
            self.lines[u["n"]] = u

    def now(self) -> float:
        return time.monotonic() + self.offset

    def _next(self) -> dict | None:
        now = self.now()
        due = sorted((u for n, u in self.lines.items() if not u["dropped"] and n not in
                      self.played and n not in self.skipped and u["at"] <= now + 0.02),
                     key=lambda u: u["n"])
        for i, u in enumerate(due):
            over = now >= u["at"] + u["dur"]
            keep = now - (u["at"] + u["dur"]) < CATCH_UP_S if u["news"] else \
                not over and i == len(due) - 1
            if not keep:
                self.skipped.add(u["n"])
                self._tell(u["n"], "skipped")
                continue
            return u if u["ready"] else None
        return None

    def run(self) -> None:
        last = 0.0
        while not self.stop.is_set():
            try:
                if time.monotonic() - last >= POLL_S:
                    self._poll()
                    last = time.monotonic()
                u = self._next()
                if u is None:
                    self.stop.wait(0.05)
                    continue
                status, data = self._ask("GET", u["url"])
                self.wav[status] = self.wav.get(status, 0) + 1
                if status != 200:
                    self.stop.wait(0.2)
                    continue
                begun = self.now()
                late = begun - u["at"]
                join = not u["news"] and late > 1.0
                self.played[u["n"]] = begun
                self.caught_up += bool(u["news"] and begun > u["at"] + u["dur"])
                self._tell(u["n"], "begun")
                length = (u["at"] + u["dur"] - begun) if join else u["dur"]
                end = time.monotonic() + max(0.0, length)
                while time.monotonic() < end and not self.stop.is_set():
                    if time.monotonic() - last >= POLL_S:
                        self._poll()
                        last = time.monotonic()
                    v = self.lines.get(u["n"], u)
                    if v["dropped"] or (v["cut"] and self.now() >= begun + v["dur"]):
                        break
                    self.stop.wait(0.05)
                else:
                    self._tell(u["n"], "ended")
            except Exception as err:  # noqa: BLE001 - noted, the screen goes on
                self.errors.append(repr(err))
                self.stop.wait(0.2)


def _seen(screen: object, live: list) -> dict:
    """A screen's own figures (the check in Chromium: its audio requests, the
    lines it began, its captions against the lines said)."""
    extra = dict(getattr(screen, "figures", dict)())
    captions = extra.pop("captions", None)
    if captions is not None:
        shown = set(captions)
        extra["uncaptioned"] = [u.text[:40] for u in live if u.text not in shown]
    return extra


def _happened(state: object) -> dict:
    """What the game held (the issue's checks: a heal, a poison, a runoff, the end)."""
    from ..engine import announcements

    anns = announcements(state) if state is not None else []  # type: ignore[arg-type]
    dawns = [a for a in anns if a.get("kind") == "dawn"]
    tallies = [a for a in anns if a.get("kind") == "tally" and a.get("step") != "election"]
    over = next((a for a in anns if a.get("kind") == "over"), {})
    return {"dawns": len(dawns), "peaceful_dawns": sum(not a.get("deaths") for a in dawns),
            "heals": sum(bool((a.get("potions") or {}).get("heal")) for a in dawns),
            "poisons": sum(bool((a.get("potions") or {}).get("poison")) for a in dawns),
            "ties": sum(bool(a.get("tie")) for a in tallies),
            "runoffs": sum(int(a.get("round") or 1) > 1 for a in tallies),
            "winner": over.get("winner")}


def _engines(lock: TimedLock) -> dict[str, Engine | None]:
    out: dict[str, Engine | None] = {}
    for lang in LANGUAGES:
        engine = engine_for(lang)
        out[lang] = Counted(engine, lock) if engine is not None else None
    return out


def run(lang: str = "ja", quick: bool = False, seed: int = 1, start_after_s: float = 60.0,
        data: Path | None = None, screen: Any = None, dealt_hook: Any = None) -> dict:
    """Play the bench's game in `lang` (GAMES) and measure it. `screen(port,
    stop)`: the table screen (a thread; default `Screen`, over HTTP; the
    check in Chromium gives its own); `dealt_hook()`: called once the game is
    dealt (the check moves the hub under a CPU quota then)."""
    if engine_for(lang) is None:
        raise RuntimeError(f"no voice for {lang}: {find(lang)[1]}")
    setup = _setup(lang, quick, seed)
    with tempfile.TemporaryDirectory(prefix="werewolf-bench-narration-") as tmp:
        hub = _Hub.start(Path(data) if data else Path(tmp), seed, screen)
        if dealt_hook is not None:
            dealt_hook()
        rendered_at = hub.deal(setup)
        time.sleep(start_after_s)
        hub.lock.holds.clear()  # from Start on: the game's play
        hub.lock.where = ""
        hub.table.timer("start")
        began = time.monotonic()
        hub.play(Phones(hub.table, Random(seed)), began)
        hub.stop()
        figures = {"lang": lang, "ruleset": setup["ruleset"], "players": len(setup["players"]),
                   "seed": seed, "quick": quick, "start_after_s": start_after_s,
                   **hub.figures(began, rendered_at)}
        figures["happened"] = _happened(hub.table.state)
        hub.table.store.close()
        return figures


def _setup(lang: str, quick: bool, seed: int) -> dict:
    """The bench's game in `lang` as the lobby sends it (`quick`: shorter talk)."""
    game = GAMES[lang]
    options = {**game["options"], **({k: v for k, v in QUICK.items() if k in game["options"]}
                                     if quick else {})}
    names = (SAMPLE_NAMES[lang] * 2)[:int(game["players"])]
    setup = {"ruleset": game["ruleset"], "players": names, "language": lang,
             "narrated": True, "wait_for_start": True, "seed": seed, "options": options}
    if "cards" in game:
        setup["cards"] = game["cards"]
    else:
        from ..engine import recommended_deal

        setup["cards"] = recommended_deal(str(game["ruleset"]), len(names))
    return setup


@dataclass
class _Hub:
    """The hub in this process (its app on a free port, the table's clock),
    its lock timed and its voices counted, and the table screen."""

    table: Any
    lock: TimedLock
    engines: dict[str, Engine | None]
    narration: Any
    server: Any
    screen: Any
    stopping: threading.Event
    threads: list[threading.Thread]
    dealt: float = 0.0

    @classmethod
    def start(cls, folder: Path, seed: int, screen: Any) -> _Hub:
        from ..hub import create_app
        from ..hub.server import HubServer
        from ..store import Store
        from ..table import Table

        table = Table(Store(folder / "games.sqlite3"), rng=Random(seed))
        lock = TimedLock()
        table.lock = lock  # type: ignore[assignment]
        table.changed = threading.Condition(lock)  # type: ignore[arg-type]
        engines = _engines(lock)
        app = create_app(table, TOKEN, {"SPEECH_DIR": folder / "speech",
                                         "SPEECH_ENGINES": engines})
        server = HubServer(app, HOST, 0)
        stopping = threading.Event()

        def tick() -> None:
            while not stopping.wait(TICK_S):
                table.tick()

        threads = [threading.Thread(target=server.run, name="bench-hub", daemon=True),
                   threading.Thread(target=tick, name="table-clock", daemon=True)]
        hub = cls(table, lock, engines, app.extensions["narration"], server,
                  (screen or Screen)(server.port, stopping), stopping, threads)
        for t in threads:
            t.start()
        hub.screen.start()
        return hub

    def deal(self, setup: dict) -> list[float]:
        """The game dealt, and its lines rendered ahead on a thread of their
        own: when they were all on disk (seconds from the deal), once done."""
        self.dealt = time.monotonic()
        self.table.create(setup)
        rendered_at: list[float] = []

        def plan_done() -> None:
            self.narration.ahead.drain(upto=GAME)
            rendered_at.append(time.monotonic() - self.dealt)

        threading.Thread(target=plan_done, name="bench-plan", daemon=True).start()
        return rendered_at

    def play(self, phones: Phones, began: float) -> None:
        """The game played on the real clock, to its end and the story's first page."""
        story_end = None
        while time.monotonic() - began < MAX_GAME_S:
            time.sleep(0.1)
            phones.step(self.table.clock())
            if self.table.ended and story_end is None:
                story_end = time.monotonic() + 40.0  # the winners, the story's first page
            if story_end is not None and time.monotonic() > story_end:
                break

    def stop(self) -> None:
        self.stopping.set()
        self.server.stop()
        self.narration.close()
        for t in self.threads:
            t.join(timeout=5)
        self.screen.join(timeout=5)

    def figures(self, began: float, rendered_at: list[float]) -> dict:
        """What the game's voice cost: the lock, the renders, the screen."""
        said = self.narration.said()
        holds = sorted(self.lock.holds)  # its holds until now (the screen's words are read after)
        renders = [r for e in self.engines.values() if isinstance(e, Counted) for r in e.renders]
        words = self.narration.screen_words()  # what the screen told the hub, line by line
        return {
            "game_s": round(time.monotonic() - began, 1), "over": bool(self.table.ended),
            "lines": len(said), "dropped": sum(u.dropped for u in said),
            **_lock_figures(self.lock, holds),
            "rendered_in_play": sum(r[0] != "narration-render" or r[1] for r in renders),
            "late_lines": sum(u.rendered_late for u in said),
            "late_max_s": round(max([u.late for u in said if u.rendered_late] or [0.0]), 2),
            "late_texts": [u.text[:40] for u in said if u.rendered_late][:8],
            "render_s": round(rendered_at[0], 1) if rendered_at else None,
            "rendered": self.narration.ahead.rendered,
            "render_busy_s": round(self.narration.ahead.render_s, 1),
            **_screen_figures(self.screen, [u for u in said if not u.dropped], words),
            "held_s": round(sum(u.held for u in said), 2),
            "machine": machine(), "load": os.getloadavg()[0],
        }


def _screen_figures(screen: Any, live: list, words: list) -> dict:
    """The screen's: the lines it played, skipped (replaced) and missed, from
    what it told the hub line by line (`words`), and its own figures."""
    begun = {n for n, what in words if what == "begun"}
    passed = {n for n, what in words if what == "ended"} - begun  # skipped (replaced)
    missed = [u.n for u in live if u.n not in begun and u.n not in passed]
    return {"tv_played": len(begun), "tv_caught_up": getattr(screen, "caught_up", None),
            "tv_skipped": len(passed), "tv_missed": len(missed),
            "tv_missed_texts": [u.text[:40] for u in live if u.n in missed][:8],
            "tv_wav": {str(k): v for k, v in sorted(screen.wav.items())},
            "tv_errors": screen.errors[:3], **_seen(screen, live)}


def _lock_figures(lock: TimedLock, holds: list[float]) -> dict:
    return {"lock_max_ms": round(1000 * holds[-1], 1) if holds else 0.0,
            "lock_p99_ms": round(1000 * percentile(holds, 99), 2) if holds else 0.0,
            "lock_holds": len(holds), "lock_max_where": lock.where,
            "lock_over_50ms": sum(h > 0.05 for h in holds)}


def main(quick: bool, lang: str | None = None) -> dict:
    """Each language given (default: Japanese) as `werewolf bench narration` runs it."""
    langs = [lang] if lang else ["ja"]
    runs = [run(one, quick=quick, start_after_s=20.0 if quick else 60.0) for one in langs]
    print(f"werewolf bench narration: {len(runs)} game(s)", file=sys.stderr)
    return runs[0] if len(runs) == 1 else {"runs": runs}


#: katakana that make no mora of their own (they soften the one before)
_SMALL = set("ャュョァィゥェォヮ")


def morae(reading: str) -> int:
    """A katakana reading's morae (Open JTalk's: ー, ッ and ン count, small
    kana do not, pauses and accent marks are none)."""
    return sum(1 for ch in reading if "\u30a1" <= ch <= "\u30fc" and ch not in _SMALL)


def voice(games: int = 2, lines: int = 30) -> dict:
    """`werewolf bench voice` [issue 42]: the same Japanese lines said as
    issue 29 said them — cut around the names (`clips`), a count after a
    space, 0.25 s between pieces — and as they are said now, whole
    (`units`): each line's morae (Open JTalk's own reading of the sentence)
    per second of speech, and the tally's length both ways."""
    import re
    import statistics

    from ..speech.engines import OpenJTalk, wav_seconds
    from ..speech.lines import clips, gap_after, units
    from ..speech.listed import _random_game

    engine = engine_for("ja")
    if not isinstance(engine, OpenJTalk):
        raise RuntimeError(f"no Open JTalk here: {find('ja')[1]}")
    with tempfile.TemporaryDirectory(prefix="werewolf-bench-voice-") as tmp:
        cache = Cache(Path(tmp), {"ja": engine})
        picked: dict[str, list[str]] = {}
        for g in range(games):
            for sentences, names in _random_game("jp-standard", "ja", g):
                for text in sentences:
                    if any(n in text for n in names) and text not in picked:
                        picked[text] = names
        chosen = list(picked.items())[:lines]
        rows: list[dict[str, Any]] = []
        for text, names in chosen:
            old = re.sub(r"(さん)([0-9])", r"\1 \2", text)  # issue 29's tally: "さん 4票"
            pieces = clips(old, names)
            parts = units(text, names)
            before = sum(wav_seconds(cache.get("ja", p)) for p in pieces) + 0.25 * (len(pieces) - 1)
            after = sum(wav_seconds(cache.get("ja", u)) for u in parts) + \
                sum(gap_after(u) for u in parts[:-1])
            count = morae(engine.reading(text))
            rows.append({"text": text, "morae": count, "pieces": len(pieces),
                         "units": len(parts), "before_s": round(before, 2),
                         "after_s": round(after, 2)})
    rate = {k: [r["morae"] / r[f"{k}_s"] for r in rows] for k in ("before", "after")}
    tally = next((r for r in rows if re.search("さん[0-9]+票", r["text"])), None)
    return {"lines": len(rows), "engine": engine.name,
            "morae_per_s_before": {"median": round(statistics.median(rate["before"]), 2),
                                   "min": round(min(rate["before"]), 2),
                                   "max": round(max(rate["before"]), 2)},
            "morae_per_s_after": {"median": round(statistics.median(rate["after"]), 2),
                                  "min": round(min(rate["after"]), 2),
                                  "max": round(max(rate["after"]), 2)},
            "seconds_before": round(sum(r["before_s"] for r in rows), 1),
            "seconds_after": round(sum(r["after_s"] for r in rows), 1),
            "tally": tally, "rows": rows, "machine": machine()}
