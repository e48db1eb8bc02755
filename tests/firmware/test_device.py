"""The display's device [issue 7]: luma's dummy device gets the rendered
frame, an unchanged frame is not sent again, the GM's QR code in the lobby,
and `Display.follow` on the table's public stream."""

from __future__ import annotations

import copy
import json
import queue
import threading
import time

import pytest
from companion.firmware import display
from companion.firmware.device import Display, open_device
from slowness import wait_s

from .conftest import frames, need_unifont

pytestmark = pytest.mark.usefixtures("fresh_fonts")


def test_the_dummy_device_receives_the_frame():
    """[issue 7] Display.show sends the rendered frame to luma's dummy device."""
    need_unifont(False)
    device = open_device(simulate=True)
    assert (device.width, device.height, device.mode) == (128, 64, "1")
    shown = Display(device)
    view = frames.verdict()
    assert shown.show(view) is True
    expected = display.render(view)
    assert device.image.convert("1").tobytes() == expected.tobytes()
    assert shown.last_image is not None and shown.last_image.tobytes() == expected.tobytes()
    png = shown.png_bytes()
    assert png is not None and png.startswith(b"\x89PNG")


def test_show_does_not_redraw_an_unchanged_frame():
    """[issue 7] The same frame twice reaches the device once; a new second does."""
    calls = []

    class Device:
        width, height = 128, 64

        def display(self, image):
            calls.append(image)

    shown = Display(Device())
    view = frames.discussion()
    assert shown.show(view) and not shown.show(copy.deepcopy(view))
    assert not shown.show({**view, "now": view["now"] + 0.3})  # same second left
    assert shown.show({**view, "now": view["now"] + 1.0})
    assert len(calls) == 2 and shown.frames == 2


def test_lobby_shows_the_gm_qr_code_when_the_display_knows_the_url():
    """[issue 7] In the lobby (and at boot) the display shows the GM's URL as
    a QR code; a scheme and host in uppercase keep it at version 3 (29
    modules, 2 px each, a lit quiet zone)."""
    need_unifont(False)
    shown = Display(open_device(simulate=True), url=frames.GM_URL)
    shown.show(frames.LOBBY)
    assert shown.last_image is not None
    assert shown.last_image.tobytes() == display.render_boot(frames.GM_URL).tobytes()
    matrix = display.qr_matrix(frames.GM_URL)
    assert len(matrix) == 29
    image = display.render_boot(frames.GM_URL)
    for y, row in enumerate(matrix):
        for x, dark in enumerate(row):
            assert image.getpixel((2 + 2 * x, 3 + 2 * y)) == (0 if dark else 255)


def test_follow_shows_the_public_stream_and_ends_when_it_closes():
    """[issue 7] follow() listens to the table's public stream in a daemon
    thread, shows each view and stops at the empty message."""
    need_unifont(False)

    class Listener:
        def __init__(self):
            self.queue: queue.Queue = queue.Queue()

    class FakeTable:
        def __init__(self):
            self.listener = Listener()
            self.unlistened = False

        def listen(self, audience):
            assert audience == "public"
            return self.listener, json.dumps(frames.discussion())

        def unlisten(self, listener):
            self.unlistened = True

    table = FakeTable()
    device = open_device(simulate=True)
    drawn_by = []
    send = device.display
    device.display = lambda image: (drawn_by.append(threading.current_thread()), send(image))
    shown = Display(device)
    thread = shown.follow(table)
    # the first view is drawn by follow() itself, before it returns: `werewolf
    # serve` says it is ready only once the display shows the boot frame
    assert drawn_by[:1] == [threading.current_thread()]
    assert shown.last_image.tobytes() == display.render(frames.discussion()).tobytes()
    assert thread.daemon
    table.listener.queue.put(json.dumps(frames.verdict()))
    deadline = time.monotonic() + wait_s(5)
    want = display.render(frames.verdict()).tobytes()
    while time.monotonic() < deadline:
        if shown.last_image is not None and shown.last_image.tobytes() == want:
            break
        time.sleep(0.02)
    assert shown.last_image is not None and shown.last_image.tobytes() == want
    table.listener.queue.put("")
    thread.join(wait_s(5))
    assert not thread.is_alive() and table.unlistened


def test_a_run_of_views_is_drawn_once_at_its_newest() -> None:
    """[issue 15] item 11: the display draws after an action's messages have
    gone out to the phones and the TV, not in their way: views that come
    within SETTLE_S of each other are drawn once, the newest; a lone view is
    drawn within the settle time; a closed stream ends the frames."""
    from companion.firmware.device import SETTLE_S, _timed

    messages: queue.Queue[str] = queue.Queue()
    views = _timed(messages, json.dumps({"n": 0}), threading.Event(), tick=5.0)
    assert next(views) == {"n": 0}
    for n in (1, 2, 3):
        messages.put(json.dumps({"n": n}))
    assert next(views) == {"n": 3}  # 1 and 2 are never drawn
    messages.put(json.dumps({"n": 4}))
    t0 = time.monotonic()
    assert next(views) == {"n": 4}
    assert time.monotonic() - t0 < SETTLE_S + 0.5
    messages.put(json.dumps({"n": 5}))
    messages.put("")  # the stream closed
    assert list(views) == []
