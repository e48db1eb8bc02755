"""The small display [issue 7]: `render(public_view)` frames compared pixel for
pixel with tests/firmware/reference/*.png (tools/make_reference_frames.py),
the luma dummy device, redraws, secrecy and the Latin fallback."""

from __future__ import annotations

import copy
import importlib.util
import json
import logging
import os
import queue
import random
import sys
import threading
import time
from pathlib import Path

import pytest
from companion.firmware import display
from PIL import Image, ImageChops

ROOT = Path(__file__).resolve().parents[2]
REFERENCE = Path(__file__).parent / "reference"


def _load_tool():
    spec = importlib.util.spec_from_file_location(
        "make_reference_frames", ROOT / "tools" / "make_reference_frames.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


frames = _load_tool()


@pytest.fixture(autouse=True)
def fresh_fonts():
    display.reset_fonts()
    yield
    display.reset_fonts()


def need_unifont(cjk: bool) -> None:
    """Reference frames are drawn with Unifont: in CI a missing font fails."""
    if display.has_unifont():
        return
    if os.environ.get("CI"):
        pytest.fail("GNU Unifont is missing (apt-get install fonts-unifont)")
    pytest.skip("GNU Unifont is not installed" + (" (CJK frame)" if cjk else ""))


@pytest.mark.parametrize("name", list(frames.FRAMES))
def test_frame_matches_its_reference_png(name):
    """[issue 7] Each frame (boot QR, lobby, night calls en/ja, discussion with
    the timer and paused, runoff ballot with the tally and the sheriff's ×2,
    roll-call, verdict with the executed player's role, the winner en/ja/
    zh_Hant) equals its reference PNG pixel for pixel."""
    need_unifont(frames.FRAMES[name][1])
    image = frames.frame(name)
    assert image.mode == "1" and image.size == (128, 64)
    ref = Image.open(REFERENCE / f"{name}.png").convert("1")
    diff = ImageChops.difference(image.convert("L"), ref.convert("L")).getbbox()
    assert diff is None, f"{name}: frame differs from its reference in {diff} " \
                         "(tools/make_reference_frames.py --preview DIR, look, regenerate)"


def test_every_reference_png_has_a_frame():
    """[issue 7] No stale reference PNGs."""
    assert {p.stem for p in REFERENCE.glob("*.png")} == set(frames.FRAMES)


def test_timer_counts_down_to_the_deadline_from_the_views_now():
    """[issue 7] The timer is pace.deadline − now, m:ss, rounded up; none at night."""
    view = frames.discussion()
    assert display.time_left(view) == "4:33"
    view["now"] = frames.NOW + 272.4
    assert display.time_left(view) == "0:00"
    view["now"] = frames.NOW + 400
    assert display.time_left(view) == "0:00"
    assert display.time_left(frames.night("seer")) == ""


def test_tally_marks_the_sheriffs_double_vote():
    """[issue 7] The sheriff's vote counts two in an execution vote: marked ★ on
    the candidate he voted for and "★Cid×2→Ann"; never in the election."""
    view = frames.verdict()
    ranked, sheriff, target = display.tally_entries(view)
    assert ranked == [(0, 3), (1, 2), (4, 2)] and (sheriff, target) == (2, 0)
    election = copy.deepcopy(frames.discussion())
    assert display.tally_entries(election)[1:] == (None, None)


def test_the_dummy_device_receives_the_frame():
    """[issue 7] Display.show sends the rendered frame to luma's dummy device."""
    need_unifont(False)
    device = display.open_device(simulate=True)
    assert (device.width, device.height, device.mode) == (128, 64, "1")
    shown = display.Display(device)
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

    shown = display.Display(Device())
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
    shown = display.Display(display.open_device(simulate=True), url=frames.GM_URL)
    shown.show(frames.LOBBY)
    assert shown.last_image is not None
    assert shown.last_image.tobytes() == display.render_boot(frames.GM_URL).tobytes()
    matrix = display.qr_matrix(frames.GM_URL)
    assert len(matrix) == 29
    image = display.render_boot(frames.GM_URL)
    for y, row in enumerate(matrix):
        for x, dark in enumerate(row):
            assert image.getpixel((2 + 2 * x, 3 + 2 * y)) == (0 if dark else 255)


def test_a_night_frame_reads_only_the_public_view():
    """[issue 7] Two nights that differ only where the table sees no difference
    (the same call; the seats' secrets are not in the public view, and a
    view's extra keys are ignored) give the same frame; the call shows."""
    a = frames.night("seer")
    b = copy.deepcopy(a)
    b["now"] += 17.0  # the hub's clock moved on; the night has no timer
    b["seq"] = 99
    b["line"] = "Seer, wake up."
    assert display.render(a).tobytes() == display.render(b).tobytes()
    c = copy.deepcopy(a)
    c["pace"]["call"] = "wolves"
    assert display.render(a).tobytes() != display.render(c).tobytes()


def test_same_night_frame_whoever_holds_the_role(tmp_path):
    """[issue 7] On a real table: the display's frame at night 1 is the same
    whether the seer sits at seat 0 or 7 (only the public view is drawn)."""
    from companion.store import Store
    from companion.table import Table

    images = []
    for seer in (0, 7):
        roles = ["villager"] * 8
        roles[seer], roles[3], roles[4] = "seer", "werewolf", "werewolf"
        names = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus", "Hal"]
        store = Store(tmp_path / f"g{seer}.sqlite3")
        table = Table(store, clock=lambda: 1000.0, rng=random.Random(1))
        table.create({"ruleset": "millers-hollow", "players": names,
                      "deal": dict(zip(names, roles)), "seed": 1})
        view = table.public()
        assert view["phase"] == "night" and view["pace"]["mode"] == "calls"
        view["now"] = 1000.0
        images.append(display.render(view).tobytes())
        store.close()
    assert images[0] == images[1]


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
    device = display.open_device(simulate=True)
    drawn_by = []
    send = device.display
    device.display = lambda image: (drawn_by.append(threading.current_thread()), send(image))
    shown = display.Display(device)
    thread = shown.follow(table)
    # the first view is drawn by follow() itself, before it returns: `werewolf
    # serve` says it is ready only once the display shows the boot frame
    assert drawn_by[:1] == [threading.current_thread()]
    assert shown.last_image.tobytes() == display.render(frames.discussion()).tobytes()
    assert thread.daemon
    table.listener.queue.put(json.dumps(frames.verdict()))
    deadline = time.monotonic() + 5
    want = display.render(frames.verdict()).tobytes()
    while time.monotonic() < deadline:
        if shown.last_image is not None and shown.last_image.tobytes() == want:
            break
        time.sleep(0.02)
    assert shown.last_image is not None and shown.last_image.tobytes() == want
    table.listener.queue.put("")
    thread.join(5)
    assert not thread.is_alive() and table.unlistened


def test_latin_fallback_when_unifont_is_missing(monkeypatch, caplog):
    """[issue 7] Without Unifont: one warning in the log, pillow's default
    font, English names even for a Japanese game; frames still render."""
    monkeypatch.setattr(display, "FONT_PATHS", [str(ROOT / "no-such-font.otf")])
    display.reset_fonts()
    with caplog.at_level(logging.WARNING, logger=display.__name__):
        assert not display.has_unifont()
        image = display.render(frames.over("ja"))
        display.render(frames.night("wolves", "ja"))
        display.render_boot(frames.GM_URL, "ja")
    warnings = [r for r in caplog.records if "Unifont" in r.getMessage()]
    assert len(warnings) == 1
    assert image.mode == "1" and image.size == (128, 64) and image.getbbox() is not None
    assert display._lang(frames.over("ja"), None) == "en"
