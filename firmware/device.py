"""The display's device [issue 7]: the OLED (luma.oled) or luma's dummy, and
`Display`, which shows the table's public stream on it.

    display = Display(open_device(simulate=True), url=gm_url)
    display.follow(table)                  # a daemon thread on the table's public stream

The frames themselves are drawn by firmware/display.py (`render`, pure): this
module only opens the device, sends it a frame when the frame changed, and
follows the table through the `ports.PublicStream` Protocol.
"""

from __future__ import annotations

import io
import json
import logging
import os
import queue
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

from PIL import Image

from .display import SIZE, render, render_boot
from .pinmap import DRIVERS
from .ports import L, PublicStream, View

log = logging.getLogger(__name__)


def open_device(driver: str = "ssd1306", i2c_bus: int = 1, address: int = 0x3C,
                simulate: bool = False) -> Any:
    """The OLED through luma.oled, or luma's dummy device (128×64, mode "1")
    when simulating or when the I2C bus is not there."""
    from luma.core.device import dummy

    if driver not in DRIVERS:
        raise ValueError(f"display driver {driver!r} is not one of {', '.join(DRIVERS)}")
    if simulate or not os.path.exists(f"/dev/i2c-{i2c_bus}"):
        return dummy(width=SIZE[0], height=SIZE[1], mode="1")
    from luma.core.error import DeviceNotFoundError
    from luma.core.interface.serial import i2c
    from luma.oled import device as oled

    try:
        serial = i2c(port=i2c_bus, address=address)
    except DeviceNotFoundError:
        log.warning("no I2C bus %s: the display is simulated", i2c_bus)
        return dummy(width=SIZE[0], height=SIZE[1], mode="1")
    return getattr(oled, driver)(serial, width=SIZE[0], height=SIZE[1])


class Display:
    """A device showing the table's public view; redraws only changed frames."""

    def __init__(self, device: Any = None, url: str | Callable[[], str | None] | None = None,
                 lang: str | None = None) -> None:
        """`url`: what the lobby's QR code holds, or a function asked at each
        frame (the hub's pairing link while no GM tablet is paired, then
        None: no code) [issue 17]."""
        self.device = device if device is not None else open_device(simulate=True)
        self.url, self.lang = url, lang
        self.last_image: Image.Image | None = None
        self.frames = 0  # frames sent to the device
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def frame(self, view: View) -> Image.Image:
        size = (getattr(self.device, "width", SIZE[0]), getattr(self.device, "height", SIZE[1]))
        url = self.url() if callable(self.url) else self.url
        if url and (view.get("phase") == "lobby" or not view.get("players")):
            language = view.get("language")
            lang = self.lang or (language if isinstance(language, str) else None)
            return render_boot(url, lang, size)
        return render(view, self.lang, size)

    def show(self, view: View) -> bool:
        """Render the view; send it to the device only if the frame changed."""
        image = self.frame(view)
        with self._lock:
            if self.last_image is not None and image.tobytes() == self.last_image.tobytes():
                return False
            self.device.display(image)
            self.last_image = image
            self.frames += 1
            return True

    def png_bytes(self) -> bytes | None:
        """The frame on the display, as PNG (the virtual table page)."""
        with self._lock:
            image = self.last_image
        if image is None:
            return None
        buf = io.BytesIO()
        image.save(buf, format="PNG")
        return buf.getvalue()

    def follow(self, table: PublicStream[L]) -> threading.Thread:
        """Show the table's public stream in a daemon thread, re-rendering
        once a second for the countdown (the view's `now` moved on by the time
        since it arrived). The first frame (at start-up, the GM's QR code) is
        on the device before this returns, so the hub says it is ready only
        once the display shows something."""
        listener, first = table.listen("public")
        views = _timed(listener.queue, first, self._stop)
        self._stop.clear()
        self._show_safely(next(views))  # the first view, before the thread starts
        thread = threading.Thread(target=self._run, args=(table, listener, views),
                                  name="display", daemon=True)
        self._thread = thread
        thread.start()
        return thread

    def _run(self, table: PublicStream[L], listener: L, views: Iterator[View]) -> None:
        try:
            for view in views:
                self._show_safely(view)
        finally:
            table.unlisten(listener)

    def _show_safely(self, view: View) -> None:
        try:
            self.show(view)
        except Exception:  # a bad frame must not stop the display
            log.exception("display: could not show a view")

    def stop(self, timeout: float = 2.0) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)


#: how long the display waits for a newer view before drawing one: a frame
#: (1.7 ms of PIL here, 8-10x that on a Pi Zero) is drawn after the phones'
#: and the TV's messages of an action have gone out, not in their way, and a
#: run of changes (a burst of ballots) is drawn once, at its newest
SETTLE_S = 0.03


def _timed(messages: queue.Queue[str], first: str, stop: threading.Event,
           tick: float = 1.0, settle: float = SETTLE_S) -> Iterator[View]:
    """Each view as it comes (the newest of a run that came within `settle`
    seconds of each other), and the current one again every `tick` seconds
    with `now` advanced; ends at an empty message (the stream closed) or stop."""
    view: View = json.loads(first)
    got = time.monotonic()
    yield view
    while not stop.is_set():
        try:
            message = messages.get(timeout=tick)
        except queue.Empty:
            now = view.get("now")
            if isinstance(now, int | float):
                yield {**view, "now": now + time.monotonic() - got}
            else:
                yield view
            continue
        latest = time.monotonic() + 5 * settle  # never held back longer than that
        while message and time.monotonic() < latest:  # a newer view within `settle`
            try:
                newer = messages.get(timeout=settle)
            except queue.Empty:
                break
            if not newer:
                return
            message = newer
        if not message:
            return
        view, got = json.loads(message), time.monotonic()
        yield view
