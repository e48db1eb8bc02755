"""Rendering ahead [issue 42]: one background thread renders the texts a
game may say into the cache, the most urgent first, so that nothing is ever
rendered while the table (or a request) waits.

    ahead = Ahead(cache, done=lambda lang, said: ...)
    ahead.want("ja", "あかりさんが処刑されました。", NOW)   # needed at once
    ahead.plan(GAME, lambda: [("ja", text), ...])           # computed by the thread itself
    ahead.drain(timeout=60)                                  # tests: wait until idle

Priorities: NOW (a line heard before it was on disk: it is said late until
it is), NEXT (what the table may say next), GAME (everything else the game
may say), FIXED (every fixed line of the language, for games to come). A
text asked again at a better priority moves up. A plan (a function that
lists texts, such as every line of a game) runs on the thread too, in its
turn, so its own work never holds a request or the table's lock.

The engines are subprocesses (companion/speech/engines.py) run at a lower
CPU priority than the hub (`nice`), so that rendering a game's lines on a
Pi's few cores slows a tap's answer as little as it can.
"""

from __future__ import annotations

import heapq
import itertools
import sys
import threading
import time
from collections.abc import Callable, Iterable

from .cache import Cache
from .engines import SpeechError

NOW, NEXT, GAME, FIXED = 0, 1, 2, 3

Texts = Callable[[], Iterable[tuple[str, str]]]  # a plan: (lang, said) pairs

#: the thread ends after this long with nothing to do (a new want starts another)
IDLE_S = 5.0


class Ahead:
    def __init__(self, cache: Cache, done: Callable[[str, str], None] | None = None,
                 idle_s: float = IDLE_S) -> None:
        self.cache = cache
        self.done = done  # called on the thread after each text is on disk
        self.idle_s = idle_s
        self._cv = threading.Condition()
        self._heap: list[tuple[int, int, str, str, Texts | None]] = []
        self._best: dict[tuple[str, str], int] = {}  # queued texts: their best priority
        self._order = itertools.count()
        self._thread: threading.Thread | None = None
        self._working: int | None = None  # the priority of what the thread is doing
        self._closed = False
        #: what the thread did: texts rendered, found on disk, seconds spent rendering
        self.rendered = 0
        self.found = 0
        self.render_s = 0.0
        self.failed = 0

    def want(self, lang: str, said: str, priority: int) -> bool:
        """Render `said` (the text as the engine is given it) at `priority`;
        False when it is on disk already (its length is then known) or there
        is no engine for `lang` (nothing to wait for)."""
        if self.cache.engine(lang) is None or not said or self._closed:
            return False
        if self.cache.known(lang, said) is not None:
            return False
        key = (lang, said)
        with self._cv:
            best = self._best.get(key)
            if best is not None and best <= priority:
                return True
            self._best[key] = priority
            heapq.heappush(self._heap, (priority, next(self._order), lang, said, None))
            self._start()
        return True

    def plan(self, priority: int, texts: Texts) -> None:
        """Run `texts()` on the thread in its turn and render what it lists at `priority`."""
        with self._cv:
            if self._closed:
                return
            heapq.heappush(self._heap, (priority, next(self._order), "", "", texts))
            self._start()

    def forget(self, priority: int) -> None:
        """Drop what is queued at `priority` or less urgent (a new game's
        lines replace the last one's)."""
        with self._cv:
            self._heap = [e for e in self._heap if e[0] < priority]
            heapq.heapify(self._heap)
            self._best = {k: p for k, p in self._best.items() if p < priority}
            self._cv.notify_all()

    def close(self) -> None:
        """Nothing more: the queue is dropped and the thread ends (the hub stops)."""
        with self._cv:
            self._closed = True
        self.forget(NOW)

    def busy(self) -> bool:
        with self._cv:
            return bool(self._heap) or self._working is not None

    def drain(self, timeout: float | None = None, upto: int = FIXED) -> bool:
        """Wait until nothing of priority `upto` or more urgent is queued or
        being rendered (False: timed out)."""
        end = None if timeout is None else time.monotonic() + timeout
        with self._cv:
            while (self._heap and self._heap[0][0] <= upto) or \
                    (self._working is not None and self._working <= upto):
                left = None if end is None else end - time.monotonic()
                if left is not None and left <= 0:
                    return False
                self._cv.wait(left if left is not None else 1.0)
        return True

    def _start(self) -> None:  # under self._cv
        if self._thread is None or not self._thread.is_alive():
            self._thread = threading.Thread(target=self._run, name="narration-render",
                                            daemon=True)
            self._thread.start()
        self._cv.notify_all()

    def _run(self) -> None:
        while True:
            with self._cv:
                while not self._heap:
                    self._working = None
                    self._cv.notify_all()
                    if self._closed or (not self._cv.wait(self.idle_s) and not self._heap):
                        self._thread = None
                        return
                priority, _, lang, said, texts = heapq.heappop(self._heap)
                if texts is None:
                    if self._best.get((lang, said)) != priority:
                        continue  # asked again at a better priority: done (or to be) then
                    del self._best[(lang, said)]
                self._working = priority
            try:
                if texts is not None:
                    for lang_, said_ in texts():
                        self.want(lang_, said_, priority)
                else:
                    self._render(lang, said)
            except Exception as err:  # noqa: BLE001 - the thread goes on with the next
                self.failed += 1
                print(f"werewolf serve: speech: {err}", file=sys.stderr, flush=True)
            with self._cv:
                self._working = None
                self._cv.notify_all()

    def _render(self, lang: str, said: str) -> None:
        if self.cache.known(lang, said) is not None:
            self.found += 1
        else:
            start = time.perf_counter()
            try:
                self.cache.get(lang, said)
            except SpeechError as err:
                self.failed += 1
                print(f"werewolf serve: speech: {err}", file=sys.stderr, flush=True)
                return
            finally:
                self.render_s += time.perf_counter() - start
            self.rendered += 1
        if self.done is not None:
            self.done(lang, said)
