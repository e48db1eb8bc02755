"""`werewolf doctor` ([issue 7] Without a Pi; `werewolf doctor` on a Pi checks
the pin factory, I2C bus, display, expanders and each seat): the laptop path
as a user runs it, and the seat-press loop and the I2C path on gpiozero's
MockFactory with a fake bus."""

from __future__ import annotations

import os
import platform
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from companion.firmware import doctor, pinmap
from gpiozero.pins.mock import MockFactory, MockPWMPin
from slowness import wait_s

from .conftest import FakeBus

ROOT = Path(__file__).resolve().parent.parent.parent
PROMPT = re.compile(r"\.\.    press seat (\d+)'s button \(GPIO(\d+)\)")


def _doctor(*args: str, **env: str) -> subprocess.CompletedProcess:
    full = {**os.environ, "PYTHONPATH": str(ROOT), **env}
    if "GPIOZERO_PIN_FACTORY" not in env:
        full.pop("GPIOZERO_PIN_FACTORY", None)
    return subprocess.run(
        [sys.executable, "-c", "import sys; from companion.cli import main; sys.exit(main())",
         "doctor", *args], capture_output=True, text=True, env=full, timeout=wait_s(60))


def _no_pin_library() -> bool:
    try:
        import lgpio  # type: ignore[import-not-found]  # noqa: F401
    except ImportError:
        return True
    return False


@pytest.mark.skipif(not _no_pin_library(), reason="a Pi: doctor would wait for presses")
def test_doctor_on_a_laptop_says_what_it_simulates_and_exits_0():
    """[issue 7]: on a laptop (gpiozero finds no pin library) `werewolf doctor`
    checks the pin map and says what it simulates: mock pins, a dummy display."""
    proc = _doctor()
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "Traceback" not in proc.stderr
    assert out.startswith("ok    pin map ")
    assert "12 seats" in out
    assert "simulating: no Raspberry Pi pins here" in out
    assert "MockFactory (mock pins)" in out and "luma's dummy device" in out
    assert "ok    seat boxes: 12 buttons and 12 GPIO LEDs set up on mock pins" in out
    assert "ok    display: luma dummy device, 128x64" in out
    assert "FAIL" not in out


def test_doctor_with_the_mock_factory_named_and_the_18_seat_map():
    """[issue 7]: GPIOZERO_PIN_FACTORY=mock is honoured: doctor simulates and
    says why; the 18-seat map's expander LEDs are counted."""
    proc = _doctor("--pinmap", str(ROOT / "hardware" / "pinmap-18.toml"),
                   GPIOZERO_PIN_FACTORY="mock")
    assert proc.returncode == 0, proc.stderr
    assert "simulating: GPIOZERO_PIN_FACTORY=mock" in proc.stdout
    assert "18 seats, buttons on GPIO, 6 LEDs on GPIO and 12 on expanders" in proc.stdout
    assert "ok    seat boxes: 18 buttons and 6 GPIO LEDs" in proc.stdout


def test_a_named_pin_factory_that_fails_is_a_failure_not_a_simulation():
    """[issue 7]: whoever sets GPIOZERO_PIN_FACTORY expects real pins: if it
    does not load, doctor fails (exit 1) with one line."""
    proc = _doctor(GPIOZERO_PIN_FACTORY="nosuchfactory")
    assert proc.returncode == 1
    assert "FAIL  pin factory 'nosuchfactory'" in proc.stdout
    assert "Traceback" not in proc.stderr


class Table:
    """The people at the table: press a seat's button when doctor asks
    (from another thread, as a person would), unless told to stay away."""

    def __init__(self, factory: MockFactory, absent: tuple[int, ...] = ()) -> None:
        self.factory = factory
        self.absent = absent
        self.lines: list[str] = []
        self.threads: list[threading.Thread] = []

    def out(self, line: str) -> None:
        self.lines.append(line)
        asked = PROMPT.match(line)
        if asked and int(asked[1]) not in self.absent:
            pin = self.factory.pin(int(asked[2]))

            def press() -> None:
                time.sleep(0.01)
                pin.drive_low()
                time.sleep(0.02)
                pin.drive_high()

            thread = threading.Thread(target=press)
            thread.start()
            self.threads.append(thread)

    def join(self) -> None:
        for thread in self.threads:
            thread.join(wait_s(5))



def _lit(factory: MockFactory, gpio: int) -> bool:
    return any(state.state == pytest.approx(0.3) for state in factory.pin(gpio).states)


def test_seat_loop_asks_each_seat_in_turn_and_lights_its_led(factory):
    """[issue 7] "press seat 3": each seat in clockwise order is asked for a
    press; when it arrives the seat's LED lights at the map's brightness."""
    pm = pinmap.load(ROOT / "hardware" / "pinmap.toml")
    table = Table(factory)
    failed = doctor.check_seats(pm, factory, timeout=wait_s(5), out=table.out)
    table.join()
    assert failed == 0
    asked = [int(m[1]) for m in map(PROMPT.match, table.lines) if m]
    assert asked == list(range(1, 13))
    assert table.lines[5].startswith("ok    seat 3: button GPIO15 pressed; LED GPIO27 lit")
    assert all(_lit(factory, seat.led) for seat in pm.seats if isinstance(seat.led, int))
    assert factory.pin(27).state == 0  # every device closed at the end


def test_a_seat_that_is_never_pressed_fails_and_its_led_stays_dark(factory):
    """[issue 7]: a seat that does not answer within the timeout is a failure
    naming the seat and its pin; the other seats are still checked."""
    pm = pinmap.load(ROOT / "hardware" / "pinmap.toml")
    table = Table(factory, absent=(2,))
    failed = doctor.check_seats(pm, factory, timeout=0.5, out=table.out)
    table.join()
    assert failed == 1
    fails = [line for line in table.lines if line.startswith("FAIL")]
    assert fails == ["FAIL  seat 2: no press on GPIO14 within 0.5 s (button wired from the "
                     "pin to GND? the right pin in the map?)"]
    assert not _lit(factory, 18)
    assert _lit(factory, 17) and _lit(factory, 27)


class ShortedPin(MockPWMPin):
    """A pin wired straight to GND: the pull-up cannot raise it."""

    def drive_high(self) -> None:
        self.drive_low()


def test_a_button_stuck_pressed_fails_without_waiting(factory):
    """[issue 7]: a button that reads pressed before anyone presses it (a short
    to GND, a wrong pin) is a failure, not a press."""
    pm = pinmap.load(ROOT / "hardware" / "pinmap.toml")
    factory.pin(4, pin_class=ShortedPin)  # seat 1's button, shorted to GND
    table = Table(factory)
    failed = doctor.check_seats(pm, factory, timeout=wait_s(5), out=table.out)
    table.join()
    assert failed == 1
    assert table.lines[0].startswith("FAIL  seat 1: button GPIO4 reads pressed before anyone")
    assert not _lit(factory, 17)




def test_pi_path_probes_the_bus_and_lights_expander_leds(factory):
    """[issue 7]: on real pins doctor reports the pin factory, the I2C bus, the
    display and the expanders, then each seat; an LED on an MCP23017 is lit
    through the bus. A display that does not answer fails: exit 1."""
    pm = pinmap.load(ROOT / "hardware" / "pinmap-18.toml")
    bus = FakeBus({0x20})  # the expander answers, the display does not
    table = Table(factory)
    status = doctor.run(pm, factory=factory, open_bus=lambda n: bus, press_timeout=wait_s(5),
                        out=table.out)
    table.join()
    assert status == 1
    assert table.lines[1] == ("ok    pin factory: MockFactory, pin library gpiozero's mock "
                              f"pins ({platform.machine()})")
    assert table.lines[2] == "ok    I2C bus 1: open"
    assert table.lines[3].startswith("FAIL  display: nothing answers at 0x3c on I2C bus 1")
    assert table.lines[4] == "ok    expander mcp0: answers at 0x20"
    assert [line for line in table.lines if line.startswith("FAIL")] == [table.lines[3]]
    assert any(line.startswith("ok    seat 18: button GPIO21 pressed; LED mcp0:11 lit")
               for line in table.lines)
    # seats 7-18 use mcp0 pins 0-11: those are outputs (IODIR bit 0), the rest inputs
    assert (0x20, doctor.IODIRA, 0x00) in bus.writes
    assert (0x20, doctor.IODIRB, 0xF0) in bus.writes
    latches = [(reg, value) for _, reg, value in bus.writes
               if reg in (doctor.OLATA, doctor.OLATB)]
    assert (doctor.OLATA, 0xFF) in latches  # seats 7-14 lit, one after another
    assert (doctor.OLATB, 0x0F) in latches  # seats 15-18
    assert latches[-2:] == [(doctor.OLATA, 0), (doctor.OLATB, 0)]  # dark again at the end
    assert bus.closed


def test_pi_path_without_an_i2c_bus_fails_the_expander_seats(factory):
    """[issue 7]: no /dev/i2c-1 (I2C not turned on) is one failure with the
    fix; the seats whose LED is on an expander fail, the others pass."""
    pm = pinmap.load(ROOT / "hardware" / "pinmap-18.toml")

    def no_bus(n: int) -> FakeBus:
        raise OSError(2, "No such file or directory")

    table = Table(factory)
    status = doctor.run(pm, factory=factory, open_bus=no_bus, press_timeout=wait_s(5),
                        out=table.out)
    table.join()
    assert status == 1
    fails = [line for line in table.lines if line.startswith("FAIL")]
    assert fails[0] == ("FAIL  I2C bus 1: cannot open /dev/i2c-1: No such file or directory "
                        "(turn I2C on: raspi-config > Interface Options > I2C)")
    assert len(fails) == 1 + 12  # seats 7-18 cannot light their LEDs
    assert any(line.startswith("ok    seat 6: button GPIO25 pressed; LED GPIO9 lit")
               for line in table.lines)


def test_doctor_draws_a_real_frame_with_freetype_and_unifont():
    """[issue 19] doctor "renders a real frame (FreeType and the CJK font
    present)": the boot frame in Japanese and 人狼 in Unifont."""
    line = doctor.check_frame()
    assert line.startswith("ok    display frame: 128x64 boot frame in Japanese ("), line
    assert "人狼 drawn with FreeType " in line and line.endswith("unifont.otf")


def test_a_pillow_without_freetype_fails_the_frame_check(monkeypatch):
    """[issue 19]: a pillow built without FreeType imports, then breaks the
    display thread (ImportError: _imagingft): doctor must fail, not say ok."""
    from companion.firmware import display
    from PIL import ImageFont
    from PIL._util import DeferredError

    monkeypatch.setitem(sys.modules, "PIL._imagingft", None)
    monkeypatch.setattr(ImageFont, "core",
                        DeferredError(ImportError("The _imagingft C module is not installed")))
    display.reset_fonts()
    try:
        line = doctor.check_frame()
    finally:
        display.reset_fonts()
    assert line == ("FAIL  display frame: this pillow has no FreeType (_imagingft): the "
                    "display cannot draw its text; use the OS's python3-pil "
                    "(hardware/install.sh)")


def test_no_unifont_fails_the_frame_check(monkeypatch):
    """[issue 19]: without GNU Unifont the display has no Japanese or Chinese."""
    from companion.firmware import display

    monkeypatch.setattr(display, "FONT_PATHS", [])
    assert doctor.check_frame() == ("FAIL  display frame: GNU Unifont not found (sudo apt "
                                    "install fonts-unifont): no Japanese or Chinese on the "
                                    "display")


def _sources(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str | None,
             model: str = "Raspberry Pi Zero W Rev 1.1") -> Path | None:
    """The board's sources as files in tmp_path; `where` ("proc", "sys",
    "cpuinfo", "dangling": /proc/device-tree points nowhere, cpuinfo says Pi;
    None: a laptop) says Pi. Answers the file that says so."""
    from companion.firmware import pins

    base = tmp_path / "sys" / "firmware" / "devicetree" / "base"
    (tmp_path / "proc").mkdir()
    (tmp_path / "proc" / "device-tree").symlink_to(base)
    models = (tmp_path / "proc" / "device-tree" / "model", base / "model")
    cpuinfo = tmp_path / "proc" / "cpuinfo"
    monkeypatch.setattr(pins, "MODELS", models)
    monkeypatch.setattr(pins, "CPUINFO", cpuinfo)
    cpuinfo.write_text("processor\t: 0\nmodel\t\t: 142\n")  # a laptop's
    if where in ("cpuinfo", "dangling"):
        cpuinfo.write_text(f"processor\t: 0\nRevision\t: 9000c1\nModel\t\t: {model}\n")
        return cpuinfo
    if where is None:
        return None
    base.mkdir(parents=True)
    models[1].write_bytes(model.encode() + b"\x00")
    if where == "sys":
        (tmp_path / "proc" / "device-tree").unlink()
        return models[1]
    return models[0]


@pytest.mark.parametrize("where", ["proc", "sys", "cpuinfo", "dangling"])
def test_doctor_on_a_pi_whose_pins_do_not_open_fails_with_the_reason(tmp_path, monkeypatch,
                                                                     where):
    """[issue 19]: doctor opens the pins as serve will: on a Pi that cannot,
    the reason is a failure (exit 1), not a simulation. [issue 30 item 7]:
    whichever file says Pi, doctor says which, as serve decides."""
    from companion.firmware import pins

    said = _sources(tmp_path, monkeypatch, where)
    monkeypatch.setattr(pins, "gpiozero_choice", lambda: (None, []))
    monkeypatch.setattr(pins, "importable", lambda: [])
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    lines: list[str] = []
    status = doctor.run(pinmap.load(ROOT / "hardware" / "pinmap.toml"), out=lines.append)
    assert status == 1
    assert lines[1] == f"note  board: Raspberry Pi Zero W Rev 1.1 (so says {said})"
    assert lines[2].startswith("FAIL  GPIO: no pin library on this Raspberry Pi Zero W Rev 1.1 "
                               "(lgpio or RPi.GPIO): run hardware/install.sh")
    assert not any(line.startswith("simulating") for line in lines)
    assert lines[3].startswith("ok    display frame: ")


def test_doctor_on_a_laptop_says_no_file_names_a_pi(tmp_path, monkeypatch):
    """[issue 30 item 7]: where nothing says Pi, doctor says so, naming where
    it looked, and simulates (exit 0)."""
    from companion.firmware import pins

    _sources(tmp_path, monkeypatch, None)
    monkeypatch.setattr(pins, "gpiozero_choice", lambda: (None, []))
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    lines: list[str] = []
    status = doctor.run(pinmap.load(ROOT / "hardware" / "pinmap.toml"), out=lines.append)
    assert status == 0
    where = ", ".join(str(p) for p in (*pins.MODELS, pins.CPUINFO))
    assert lines[1] == f"note  board: not a Raspberry Pi (none of {where} says so)"
    assert lines[2].startswith(f"simulating: {pins.NO_PINS}")
