"""`werewolf doctor`: check the table's hardware before a game, one line per check.

On a Pi: the pin factory, the I2C bus (the display and the expanders answer
at their addresses), the display (a test frame), the expanders, then each seat
in turn — "press seat 3's button" — whose LED lights when the press arrives.
Exit status 1 if any check fails.

Both paths render a real frame [issue 19]: the display's text needs pillow's
FreeType (a pillow built without it still imports, then fails in the display
thread) and GNU Unifont for Japanese and Chinese. On a Pi the pins are opened
with the library serve will use (pins.find_pin_factory, named with its
version); pins that do not open are a failure with the reason, never a
simulation. Which board this is comes first ("note  board: …"), found as
serve finds it: the device tree's model or /proc/cpuinfo's Raspberry Pi line
(pins.find_board) [issue 30 item 7].

On a laptop (gpiozero finds no pin library, or GPIOZERO_PIN_FACTORY=mock) it
says what it simulates — the seat boxes on gpiozero's MockFactory, the display
on luma's dummy device — checks the pin map and that every seat's devices can
be built on mock pins, and exits 0: nobody is there to press anything.

Everything hardware-facing is injected (`factory`, `open_bus`) so tests drive
the seat loop on a MockFactory and the expander path on a fake bus.
"""

from __future__ import annotations

import os
import platform
from collections.abc import Callable
from typing import Any

from .expander import IODIRA, IODIRB, OLATA, OLATB, Bus, Expanders
from .pinmap import ExpanderPin, PinMap, pin_name
from .pins import HardwareUnavailable, describe_board, find_board, find_pin_factory, pin_library

__all__ = ["IODIRA", "IODIRB", "OLATA", "OLATB", "Bus", "Expanders", "run", "check_seats",
           "check_frame", "find_pin_factory"]
#: the boot frame doctor draws: the access point's address, in Japanese
FRAME_URL = "http://192.168.4.1:8000/gm"
CJK = "人狼"

PRESS_TIMEOUT_S = 20.0
Out = Callable[[str], None]


def ok(text: str) -> str:
    return f"ok    {text}"


def fail(text: str) -> str:
    return f"FAIL  {text}"


def run(pinmap: PinMap, *, factory: Any = None, simulated: str | None = None,
        open_bus: Callable[[int], Bus] | None = None,
        press_timeout: float = PRESS_TIMEOUT_S, out: Out = print) -> int:
    """Every check in order; 0 if all pass, 1 if any fails."""
    failures = 0

    def report(line: str) -> None:
        nonlocal failures
        failures += line.startswith("FAIL")
        out(line)

    gpio_leds = sum(isinstance(s.led, int) for s in pinmap.seats)
    d = pinmap.display
    report(ok(f"pin map {pinmap.source}: {len(pinmap.seats)} seats, buttons on GPIO, "
              f"{gpio_leds} LEDs on GPIO and {len(pinmap.seats) - gpio_leds} on expanders "
              f"({len(pinmap.expanders)}), display {d.driver} at {d.i2c_address:#04x} "
              f"on I2C bus {d.i2c_bus}, LED brightness {pinmap.brightness:g}"))
    if factory is None:
        board = find_board()
        out(f"note  {describe_board(board)}")
        try:
            factory, simulated = find_pin_factory(board=lambda: board)
        except HardwareUnavailable as err:  # a Pi whose pins do not open
            report(fail(str(err)))
            report(check_frame())
            return 1
        except Exception as err:  # a named factory that does not load
            report(fail(f"pin factory {os.environ.get('GPIOZERO_PIN_FACTORY')!r}: {err}"))
            return 1
    if simulated:
        out(f"simulating: {simulated}: the seat boxes on gpiozero's MockFactory (mock "
            "pins), the display on luma's dummy device; no I2C bus or expander is probed "
            "and no button is waited for")
        report(_build_on(pinmap, factory))
        report(_dummy_display(pinmap))
        report(check_frame())
        return 1 if failures else 0

    report(ok(f"pin factory: {type(factory).__name__}, pin library {pin_library(factory)} "
              f"({platform.machine()})"))
    if type(factory).__name__ == "NativeFactory":
        out("note  gpiozero's native driver has no PWM: install lgpio for dimmed LEDs")
    if open_bus is None:
        from smbus2 import SMBus

        open_bus = SMBus
    try:
        bus = open_bus(d.i2c_bus)
    except OSError as err:
        report(fail(f"I2C bus {d.i2c_bus}: cannot open /dev/i2c-{d.i2c_bus}: {err.strerror} "
                    "(turn I2C on: raspi-config > Interface Options > I2C)"))
        bus = None
    expanders_ok = False
    if bus is not None:
        report(ok(f"I2C bus {d.i2c_bus}: open"))
        if _probe(bus, d.i2c_address):
            report(ok(f"display: something answers at {d.i2c_address:#04x}"))
            report(_real_display(pinmap))
        else:
            report(fail(f"display: nothing answers at {d.i2c_address:#04x} on I2C bus "
                        f"{d.i2c_bus} (wiring to GPIO2/3, 3V3, GND? address jumper?)"))
        expanders_ok = True
        for index, address in enumerate(pinmap.expanders):
            if _probe(bus, address):
                report(ok(f"expander mcp{index}: answers at {address:#04x}"))
            else:
                expanders_ok = False
                report(fail(f"expander mcp{index}: nothing answers at {address:#04x} "
                            "(A0-A2 jumpers, RESET to 3V3?)"))
    report(check_frame())
    expander = Expanders(bus, pinmap) if bus is not None and expanders_ok else None
    if expander is not None:
        expander.setup()
    try:
        check_seats(pinmap, factory, expander=expander, timeout=press_timeout, out=report)
    finally:
        if expander is not None:
            expander.all_off()
        if bus is not None:
            bus.close()
    return 1 if failures else 0


def _build_on(pinmap: PinMap, factory: Any) -> str:
    """Build every seat's button and (GPIO) LED, then close them again."""
    from gpiozero import PWMLED, Button

    devices: list[Any] = []
    try:
        for seat in pinmap.seats:
            devices.append(Button(seat.button, pin_factory=factory))
            if isinstance(seat.led, int):
                devices.append(PWMLED(seat.led, pin_factory=factory))
    except Exception as err:
        return fail(f"seat boxes: seat {seat.number}: {err}")
    finally:
        for device in devices:
            device.close()
    on_gpio = sum(isinstance(s.led, int) for s in pinmap.seats)
    return ok(f"seat boxes: {len(pinmap.seats)} buttons and {on_gpio} GPIO LEDs set up "
              "on mock pins")


def _dummy_display(pinmap: PinMap) -> str:
    from luma.core.device import dummy
    from luma.core.render import canvas

    device = dummy(width=128, height=64, mode="1")
    with canvas(device) as draw:
        draw.text((0, 0), "werewolf doctor", fill="white")
    if device.image is None or device.image.size != (128, 64):
        return fail("display: luma's dummy device kept no 128x64 frame")
    return ok(f"display: luma dummy device, 128x64 (stands in for the {pinmap.display.driver})")


def _real_display(pinmap: PinMap) -> str:
    d = pinmap.display
    try:
        from luma.core.interface.serial import i2c
        from luma.core.render import canvas
        from luma.oled import device as oled

        driver = getattr(oled, d.driver)
        device = driver(i2c(port=d.i2c_bus, address=d.i2c_address), width=128, height=64)
        with canvas(device) as draw:
            draw.rectangle(device.bounding_box, outline="white")
            draw.text((4, 4), "werewolf doctor", fill="white")
    except Exception as err:  # luma's own errors, an OSError from the bus
        return fail(f"display: {d.driver} at {d.i2c_address:#04x}: {err}")
    return ok(f"display: {d.driver} shows a test frame (a box and 'werewolf doctor')")


def check_frame() -> str:
    """Draw the display's boot frame in Japanese, and the CJK glyphs alone,
    as the display thread will: FreeType and Unifont or a failure naming the
    package that is missing."""
    from PIL import ImageFont, features

    from . import display

    if not features.check("freetype2"):
        return fail("display frame: this pillow has no FreeType (_imagingft): the display "
                    "cannot draw its text; use the OS's python3-pil (hardware/install.sh)")
    path = display.unifont_path()
    if path is None:
        return fail("display frame: GNU Unifont not found (sudo apt install fonts-unifont): "
                    "no Japanese or Chinese on the display")
    try:
        frame = display.render_boot(FRAME_URL, lang="ja")
        glyphs = _draw(ImageFont.truetype(path, display.ROW), CJK)
    except Exception as err:  # ImportError: _imagingft, OSError: an unreadable font
        return fail(f"display frame: {type(err).__name__}: {err}")
    lit = sum(frame.histogram()[1:])
    if frame.size != display.SIZE or not lit or not glyphs:
        return fail(f"display frame: drew nothing ({frame.size}, {lit} pixels lit, "
                    f"{glyphs} in {CJK!r})")
    return ok(f"display frame: {frame.size[0]}x{frame.size[1]} boot frame in Japanese "
              f"({lit} pixels lit), {CJK} drawn with FreeType "
              f"{features.version('freetype2')} and {os.path.basename(path)}")


def _draw(font: Any, text: str) -> int:
    from PIL import Image, ImageDraw

    image = Image.new("1", (16 * len(text), 16))
    ImageDraw.Draw(image).text((0, 0), text, font=font, fill=1)
    return sum(image.histogram()[1:])


def _probe(bus: Bus, address: int) -> bool:
    try:
        bus.write_quick(address)
    except OSError:
        return False
    return True


def check_seats(pinmap: PinMap, factory: Any, *, expander: Expanders | None = None,
                timeout: float = PRESS_TIMEOUT_S, out: Out = print) -> int:
    """Each seat in turn: ask for a press, wait for it (up to `timeout`), light
    the seat's LED. Lit LEDs stay lit until every seat is done, so the table
    sees which boxes answered. Returns the number of seats that failed."""
    from gpiozero import PWMLED, Button

    failed = 0
    devices: list[Any] = []
    try:
        for seat in pinmap.seats:
            where = f"seat {seat.number}"
            try:
                button = Button(seat.button, pin_factory=factory)
                devices.append(button)
                led = None
                if isinstance(seat.led, int):
                    led = PWMLED(seat.led, pin_factory=factory)
                    devices.append(led)
            except Exception as err:  # a pin gpiozero refuses, a pin in use elsewhere
                out(fail(f"{where}: {err}"))
                failed += 1
                continue
            if button.is_pressed:
                out(fail(f"{where}: button GPIO{seat.button} reads pressed before anyone "
                         "presses it (a short to GND, or a wrong pin?)"))
                failed += 1
                continue
            out(f"..    press {where}'s button (GPIO{seat.button}); waiting {timeout:g} s")
            if not button.wait_for_press(timeout):
                out(fail(f"{where}: no press on GPIO{seat.button} within {timeout:g} s "
                         "(button wired from the pin to GND? the right pin in the map?)"))
                failed += 1
                continue
            if led is not None:
                led.value = pinmap.brightness
            elif expander is not None and isinstance(seat.led, ExpanderPin):
                try:
                    expander.set(seat.led, True)
                except OSError as err:
                    out(fail(f"{where}: button GPIO{seat.button} pressed, but LED "
                             f"{seat.led} could not be lit: {err.strerror}"))
                    failed += 1
                    continue
            else:
                out(fail(f"{where}: button GPIO{seat.button} pressed, but LED "
                         f"{pin_name(seat.led)} is on an expander that did not answer"))
                failed += 1
                continue
            out(ok(f"{where}: button GPIO{seat.button} pressed; LED {pin_name(seat.led)} "
                   "lit (is it the LED of this seat's box?)"))
    finally:
        for device in devices:
            device.close()
    return failed
