"""The pin map: which GPIO (or expander pin) each seat box's button and LED is
wired to, which display sits on the I2C bus, and how bright the LEDs are.

A TOML file, `hardware/pinmap.toml` by default (12 seats, all on GPIO) or
another with `--pinmap FILE` (`hardware/pinmap-18.toml`: 18 seats, buttons on
GPIO, LEDs partly on an MCP23017). It is checked before anything starts; every
problem is one `PinMapError` whose message names the file, the seat and the pin,
so `werewolf serve` and `werewolf doctor` can print one line and exit 2.

`python -m companion.firmware.pinmap --svg FILE` prints the wiring diagram
(`hardware/wiring.svg` is exactly that output, checked by a test);
`--box-svg SEAT FILE` draws one seat box as it looks built (the manual's
picture, `tools/make_images.py`).
"""

from __future__ import annotations

import math
import sys
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from html import escape
from pathlib import Path

GPIO_NUMBERS = range(0, 28)  # BCM GPIO 0-27 on the 40-pin header
RESERVED = {
    0: "the HAT ID EEPROM (ID_SD)",
    1: "the HAT ID EEPROM (ID_SC)",
    2: "I2C (SDA: the display and the expanders)",
    3: "I2C (SCL: the display and the expanders)",
}
DRIVERS = ("ssd1306", "sh1106", "ssd1309")
EXPANDER_PINS = range(0, 16)  # MCP23017: GPA0-7 are 0-7, GPB0-7 are 8-15
EXPANDER_ADDRESSES = range(0x20, 0x28)  # MCP23017: A2 A1 A0 pick 0x20-0x27
DEFAULT_BRIGHTNESS = 0.3

HERE = Path(__file__).resolve().parent
DEFAULT_PATH = HERE.parent / "hardware" / "pinmap.toml"  # in a source checkout


class PinMapError(ValueError):
    """One problem in a pin map, said in one line."""


Fail = Callable[[str], PinMapError]  # a message -> the error naming the file


@dataclass(frozen=True)
class ExpanderPin:
    """Pin `pin` (0-15) of expander `mcp<expander>`."""

    expander: int
    pin: int

    def __str__(self) -> str:
        return f"mcp{self.expander}:{self.pin}"


Pin = int | ExpanderPin  # a BCM GPIO number, or an expander's pin


def pin_name(pin: Pin) -> str:
    return f"GPIO{pin}" if isinstance(pin, int) else str(pin)


@dataclass(frozen=True)
class Seat:
    number: int  # 1-based, clockwise
    button: int  # BCM GPIO
    led: Pin


@dataclass(frozen=True)
class Display:
    driver: str = "ssd1306"
    i2c_address: int = 0x3C
    i2c_bus: int = 1


@dataclass(frozen=True)
class PinMap:
    seats: tuple[Seat, ...]
    display: Display = Display()
    brightness: float = DEFAULT_BRIGHTNESS
    expanders: tuple[int, ...] = ()  # I2C address of mcp0, mcp1, ...
    source: str = "<pin map>"


# -- reading and checking -------------------------------------------------------------

def load(path: str | Path) -> PinMap:
    """Read and check a pin map file; any problem is one `PinMapError`."""
    source = str(path)
    try:
        raw = Path(path).read_bytes()
    except OSError as err:
        raise PinMapError(f"cannot read pin map {source}: {err.strerror}") from None
    try:
        doc = tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise PinMapError(f"{source}: not UTF-8 text") from None
    except tomllib.TOMLDecodeError as err:
        raise PinMapError(f"{source}: not valid TOML: {_one_line(str(err))}") from None
    return parse(doc, source)


def default() -> PinMap:
    """The default map: `hardware/pinmap.toml` of the source tree, or (an
    installed copy without it) the same 12 seats built in."""
    if DEFAULT_PATH.exists():
        return load(DEFAULT_PATH)
    return builtin_default()


# The default 12-seat map, wholly on GPIO (hardware/pinmap.toml says the same;
# a test checks): each seat's two pins sit close together on the header; the
# buttons take GPIO 4-8 (pulled up at boot), the LEDs pins pulled down at boot,
# so no LED glows while the Pi boots.
DEFAULT_SEATS = ((4, 17), (14, 18), (15, 27), (22, 23), (24, 10), (25, 9),
                 (8, 11), (7, 12), (5, 13), (6, 19), (16, 20), (26, 21))


def builtin_default() -> PinMap:
    seats = tuple(Seat(n, b, led) for n, (b, led) in enumerate(DEFAULT_SEATS, 1))
    return PinMap(seats=seats, source="the built-in default map")


# hardware/pinmap-18.toml, built in (a test checks they agree): seats 1-6 as
# above, seats 7-12 keep their buttons and move their LEDs to mcp0:0-5, seats
# 13-18 take the freed GPIOs for buttons and mcp0:6-11 for LEDs.
EIGHTEEN_BUTTONS = (4, 14, 15, 22, 24, 25, 8, 7, 5, 6, 16, 26, 11, 12, 13, 19, 20, 21)


def builtin_18() -> PinMap:
    seats = tuple(Seat(n, b, DEFAULT_SEATS[n - 1][1] if n <= 6 else ExpanderPin(0, n - 7))
                  for n, b in enumerate(EIGHTEEN_BUTTONS, 1))
    return PinMap(seats=seats, display=Display(), brightness=0.3, expanders=(0x20,),
                  source="the built-in 18-seat map")


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def parse(doc: dict, source: str = "<pin map>") -> PinMap:
    """Check a parsed TOML document; the first problem is raised, naming the
    seat and the pin."""

    def fail(message: str) -> PinMapError:
        return PinMapError(f"{source}: {message}")

    for key in doc:
        if key not in ("seat", "display", "leds", "expanders"):
            raise fail(f"unknown key {key!r} (expected [[seat]], [display], [leds], "
                       "[expanders])")

    display = _display(doc.get("display", {}), fail)
    brightness = _brightness(doc.get("leds", {}), fail)
    expanders = _expanders(doc.get("expanders", {}), display, fail)

    seats_raw = doc.get("seat")
    if not isinstance(seats_raw, list) or not seats_raw:
        raise fail("no seats: add one [[seat]] table per seat, clockwise")
    used: dict[str, str] = {}  # pin name -> "seat 3's button"
    seats = []
    for number, table in enumerate(seats_raw, 1):
        if not isinstance(table, dict):
            raise fail(f"seat {number}: must be a [[seat]] table")
        for key in table:
            if key not in ("button", "led"):
                raise fail(f"seat {number}: unknown key {key!r} (a seat has button and led)")
        for role in ("button", "led"):
            if role not in table:
                raise fail(f"seat {number}: no {role} pin")
        button = _gpio(number, "button", table["button"], fail)
        led = _led(number, table["led"], len(expanders), fail)
        for role, pin in (("button", button), ("led", led)):
            name = pin_name(pin)
            if name in used:
                raise fail(f"seat {number}: {role} {name} is already {used[name]}")
            used[name] = f"seat {number}'s {role}"
        seats.append(Seat(number, button, led))
    return PinMap(seats=tuple(seats), display=display, brightness=brightness,
                  expanders=expanders, source=source)


def _gpio(seat: int, role: str, value: object, fail: Fail) -> int:
    if not _is_int(value):
        raise fail(f"seat {seat}: {role} {value!r} is not a BCM GPIO number (4-27)")
    assert isinstance(value, int)
    if value not in GPIO_NUMBERS:
        raise fail(f"seat {seat}: {role} {value} is not a BCM GPIO number (4-27)")
    if value in RESERVED:
        raise fail(f"seat {seat}: {role} GPIO{value} is reserved for {RESERVED[value]}")
    return value


def _led(seat: int, value: object, expanders: int, fail: Fail) -> Pin:
    if not isinstance(value, str):
        return _gpio(seat, "led", value, fail)
    name, sep, pin = value.partition(":")
    if not (sep and name.startswith("mcp") and name[3:].isdigit() and pin.isdigit()):
        raise fail(f"seat {seat}: led {value!r} is neither a BCM GPIO number nor "
                   "an expander pin like \"mcp0:3\"")
    index, number = int(name[3:]), int(pin)
    if index >= expanders:
        listed = f"mcp0-mcp{expanders - 1}" if expanders else "none"
        raise fail(f"seat {seat}: led {value!r} names expander mcp{index}, but [expanders] "
                   f"lists {listed}")
    if number not in EXPANDER_PINS:
        raise fail(f"seat {seat}: led {value!r}: an MCP23017 has pins 0-15")
    return ExpanderPin(index, number)


def _display(table: object, fail: Fail) -> Display:
    if not isinstance(table, dict):
        raise fail("[display] must be a table")
    for key in table:
        if key not in ("driver", "i2c_address", "i2c_bus"):
            raise fail(f"[display]: unknown key {key!r} (driver, i2c_address, i2c_bus)")
    driver = table.get("driver", "ssd1306")
    if driver not in DRIVERS:
        raise fail(f"[display]: driver {driver!r} is not one of {', '.join(DRIVERS)}")
    address = table.get("i2c_address", 0x3C)
    if not _is_int(address) or not 0x03 <= address <= 0x77:
        raise fail(f"[display]: i2c_address {address!r} is not a 7-bit I2C address "
                   "(0x03-0x77; the usual OLED is 0x3C)")
    bus = table.get("i2c_bus", 1)
    if not _is_int(bus) or bus < 0:
        raise fail(f"[display]: i2c_bus {bus!r} is not a bus number (1 is the header's)")
    return Display(driver=driver, i2c_address=address, i2c_bus=bus)


def _brightness(table: object, fail: Fail) -> float:
    if not isinstance(table, dict):
        raise fail("[leds] must be a table")
    for key in table:
        if key != "brightness":
            raise fail(f"[leds]: unknown key {key!r} (brightness)")
    value = table.get("brightness", DEFAULT_BRIGHTNESS)
    if not isinstance(value, int | float) or isinstance(value, bool) or not 0 < value <= 1:
        raise fail(f"[leds]: brightness {value!r} is not a number above 0 and at most 1")
    return float(value)


def _expanders(table: object, display: Display, fail: Fail) -> tuple[int, ...]:
    if not isinstance(table, dict):
        raise fail("[expanders] must be a table")
    for key in table:
        if key != "addresses":
            raise fail(f"[expanders]: unknown key {key!r} (addresses)")
    addresses = table.get("addresses", [])
    if not isinstance(addresses, list):
        raise fail("[expanders]: addresses must be a list, e.g. [0x20]")
    for index, address in enumerate(addresses):
        if not _is_int(address) or address not in EXPANDER_ADDRESSES:
            raise fail(f"[expanders]: mcp{index} address {address!r} is not an MCP23017 "
                       "address (0x20-0x27)")
        if address in addresses[:index]:
            raise fail(f"[expanders]: mcp{index} address {address:#04x} is already "
                       f"mcp{addresses.index(address)}'s")
        if address == display.i2c_address:
            raise fail(f"[expanders]: mcp{index} address {address:#04x} is the display's")
    return tuple(addresses)


def check_players(pinmap: PinMap, players: int) -> None:
    """A game needs a seat box for every player."""
    seats = len(pinmap.seats)
    if players > seats:
        one = players == seats + 1
        missing = f"seat {seats + 1} has" if one else f"seats {seats + 1}-{players} have"
        raise PinMapError(f"{pinmap.source}: {seats} seats, but the game has {players} "
                          f"players: {missing} no button box "
                          "(hardware/pinmap-18.toml wires 18)")


# -- the wiring diagram -----------------------------------------------------------

# The 40-pin header, physical pin 1..40: a BCM GPIO number or a power/ground label.
HEADER: tuple[int | str, ...] = (
    "3V3", "5V", 2, "5V", 3, "GND", 4, 14, "GND", 15, 17, 18, 27, "GND", 22, 23,
    "3V3", 24, 10, "GND", 9, 25, 11, 8, "GND", 7, 0, 1, 5, "GND", 6, 12, 13, "GND",
    19, 16, 26, 20, "GND", 21,
)


def svg(pinmap: PinMap) -> str:
    """The wiring diagram as plain SVG text: the seats around the table, each
    with its button and LED pins; the Pi's header with each used pin labelled;
    the display and the expanders on I2C (GPIO 2/3). Deterministic."""
    width, height = 1120, 880
    name = escape(Path(pinmap.source).name)  # the same diagram wherever the file sits
    out: list[str] = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">',
        f'<title>Werewolf table wiring: {name}</title>',
        f'<rect width="{width}" height="{height}" fill="#ffffff"/>',
        f'<text x="20" y="30" font-size="18" font-weight="bold">Werewolf table wiring '
        f'- {len(pinmap.seats)} seats ({name})</text>',
        '<text x="20" y="50">Each seat box: a momentary button from its GPIO to GND '
        '(internal pull-up), an LED from its pin through a resistor to GND. '
        'Pin numbers are BCM.</text>',
    ]
    # the table and its seats, clockwise from the top
    cx, cy, rx, ry = 330, 470, 275, 340
    out.append(f'<ellipse cx="{cx}" cy="{cy}" rx="{rx - 95}" ry="{ry - 80}" fill="#e8d9b5" '
               'stroke="#8a6d3b"/>')
    out.append(f'<text x="{cx}" y="{cy}" text-anchor="middle" font-size="16">table</text>')
    n = len(pinmap.seats)
    for seat in pinmap.seats:
        angle = 2 * math.pi * (seat.number - 1) / n - math.pi / 2
        x, y = cx + rx * math.cos(angle), cy + ry * math.sin(angle)
        out.append(f'<g id="seat-{seat.number}">')
        out.append(f'<rect x="{x - 45:.1f}" y="{y - 24:.1f}" width="90" height="48" rx="6" '
                   'fill="#f4f4f4" stroke="#333333"/>')
        out.append(f'<text x="{x:.1f}" y="{y - 8:.1f}" text-anchor="middle" '
                   f'font-weight="bold">Seat {seat.number}</text>')
        out.append(f'<text x="{x:.1f}" y="{y + 7:.1f}" text-anchor="middle">'
                   f'btn GPIO{seat.button}</text>')
        out.append(f'<text x="{x:.1f}" y="{y + 20:.1f}" text-anchor="middle">'
                   f'LED {pin_name(seat.led)}</text>')
        out.append('</g>')
    # the header: two columns, odd pins left, even pins right
    users: dict[str, list[str]] = {}
    for seat in pinmap.seats:
        users.setdefault(pin_name(seat.button), []).append(f"seat {seat.number} button")
        users.setdefault(pin_name(seat.led), []).append(f"seat {seat.number} LED")
    users.setdefault("GPIO2", []).append("I2C SDA")
    users.setdefault("GPIO3", []).append("I2C SCL")
    hx, hy, step = 800, 110, 15
    out.append(f'<text x="{hx + 15}" y="{hy - 22}" text-anchor="middle" font-size="14" '
               'font-weight="bold">Raspberry Pi 40-pin header</text>')
    out.append(f'<rect x="{hx - 12}" y="{hy - 12}" width="54" height="{20 * step + 9}" '
               'fill="#1f5f2f" stroke="#000000"/>')
    for index, what in enumerate(HEADER):
        physical = index + 1
        left = physical % 2 == 1
        px = hx + (0 if left else 30)
        py = hy + (index // 2) * step
        label = f"GPIO{what}" if isinstance(what, int) else what
        used = users.get(label, []) if isinstance(what, int) else []
        if isinstance(what, int) and what in RESERVED and not used:
            used = ["reserved"]
        fill = "#ffcc00" if used else ("#cccccc" if isinstance(what, int) else "#666666")
        out.append(f'<circle cx="{px}" cy="{py}" r="5" fill="{fill}" stroke="#000000"/>')
        text = f"{physical} {label}" + (f" - {', '.join(used)}" if used else "")
        if left:
            out.append(f'<text x="{px - 16}" y="{py + 4}" text-anchor="end" '
                       f'font-size="10">{escape(text)}</text>')
        else:
            out.append(f'<text x="{px + 16}" y="{py + 4}" font-size="10">'
                       f'{escape(text)}</text>')
    # the I2C devices: the display and the expanders, on GPIO 2/3
    bx, by = 690, hy + 20 * step + 40
    d = pinmap.display
    box = f'<rect x="{bx}" width="410" rx="4" stroke="#333333" '
    out.append(box + f'y="{by}" height="60" fill="#dde8ff"/>')
    out.append(f'<text x="{bx + 10}" y="{by + 18}" font-weight="bold">Display: '
               f'{escape(d.driver.upper())} 128x64 OLED at {d.i2c_address:#04x}, '
               f'I2C bus {d.i2c_bus}</text>')
    out.append(f'<text x="{bx + 10}" y="{by + 35}">SDA GPIO2 (pin 3), SCL GPIO3 (pin 5), '
               'VCC 3V3 (pin 1), GND (pin 9)</text>')
    out.append(f'<text x="{bx + 10}" y="{by + 51}" font-size="10">Expanders share SDA, '
               'SCL, 3V3 and GND.</text>')
    for index, address in enumerate(pinmap.expanders):
        leds = [(s.led.pin, s.number) for s in pinmap.seats
                if isinstance(s.led, ExpanderPin) and s.led.expander == index]
        lines = [", ".join(f"{pin}: seat {number}" for pin, number in leds[i:i + 6])
                 for i in range(0, len(leds), 6)] or ["no LEDs"]
        ey = by + 72 + index * 100
        out.append(box + f'y="{ey}" height="{40 + 14 * len(lines)}" fill="#ffe8dd"/>')
        out.append(f'<text x="{bx + 10}" y="{ey + 18}" font-weight="bold">Expander '
                   f'mcp{index}: MCP23017 at {address:#04x}</text>')
        out.append(f'<text x="{bx + 10}" y="{ey + 33}" font-size="10">RESET to 3V3; '
                   'LED pins 0-7 = GPA0-7, 8-15 = GPB0-7:</text>')
        for i, line in enumerate(lines):
            out.append(f'<text x="{bx + 10}" y="{ey + 47 + 14 * i}" font-size="10">'
                       f'{escape(line)}</text>')
    out.append(f'<text x="20" y="{height - 20}" font-size="10">Generated by '
               '"python -m companion.firmware.pinmap --svg" from the pin map; '
               'do not edit by hand.</text>')
    out.append('</svg>')
    return "\n".join(out) + "\n"


def box_svg(pinmap: PinMap, number: int) -> str:
    """One seat box as it looks built, drawn from the pin map [issue 32]: a
    black project box in three-quarter view, its 30 mm arcade button, its
    5 mm LED lit, its label (the seat, the button's and the LED's pins) and
    its cable to the Pi. Plain SVG, deterministic."""
    seat = next((s for s in pinmap.seats if s.number == number), None)
    if seat is None:
        raise PinMapError(f"{pinmap.source}: no seat {number}")
    label = f"SEAT {seat.number}"
    pins = f"button GPIO{seat.button} · LED {pin_name(seat.led)}"
    return "\n".join([
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<svg xmlns="http://www.w3.org/2000/svg" width="640" height="420" '
        'viewBox="0 0 640 420" font-family="sans-serif">',
        f"<title>Werewolf seat box {seat.number} ({escape(Path(pinmap.source).name)})</title>",
        "<defs>",
        '<linearGradient id="table" x1="0" y1="0" x2="0" y2="1">'
        '<stop offset="0" stop-color="#8a6a44"/><stop offset="1" stop-color="#5e4329"/>'
        "</linearGradient>",
        '<linearGradient id="top" x1="0" y1="0" x2="1" y2="1">'
        '<stop offset="0" stop-color="#3a3d42"/><stop offset="1" stop-color="#1d1f22"/>'
        "</linearGradient>",
        '<linearGradient id="front" x1="0" y1="0" x2="0" y2="1">'
        '<stop offset="0" stop-color="#202225"/><stop offset="1" stop-color="#0e0f10"/>'
        "</linearGradient>",
        '<radialGradient id="cap" cx="0.4" cy="0.35" r="0.7">'
        '<stop offset="0" stop-color="#ff8a80"/><stop offset="0.45" stop-color="#e0242a"/>'
        '<stop offset="1" stop-color="#8c0f14"/></radialGradient>',
        '<radialGradient id="bezel" cx="0.5" cy="0.4" r="0.6">'
        '<stop offset="0" stop-color="#ececec"/><stop offset="1" stop-color="#8d8d8d"/>'
        "</radialGradient>",
        '<radialGradient id="glow" cx="0.5" cy="0.5" r="0.5">'
        '<stop offset="0" stop-color="#b9ff9c" stop-opacity="0.9"/>'
        '<stop offset="1" stop-color="#4cff3a" stop-opacity="0"/></radialGradient>',
        '<radialGradient id="led" cx="0.4" cy="0.35" r="0.7">'
        '<stop offset="0" stop-color="#f4ffe8"/><stop offset="0.5" stop-color="#64f04a"/>'
        '<stop offset="1" stop-color="#1c8a12"/></radialGradient>',
        '<filter id="shadow" x="-20%" y="-20%" width="140%" height="160%">'
        '<feGaussianBlur stdDeviation="9"/></filter>',
        "</defs>",
        '<rect width="640" height="420" fill="url(#table)"/>',
        # the cable to the Pi, then the box's shadow, body (front, right side, top)
        '<path d="M520 250 C 580 260, 600 330, 640 350" stroke="#111" stroke-width="9" '
        'fill="none" stroke-linecap="round"/>',
        '<ellipse cx="330" cy="330" rx="230" ry="34" fill="#000" opacity="0.45" '
        'filter="url(#shadow)"/>',
        '<path d="M110 170 L470 170 L470 320 L110 320 Z" fill="url(#front)"/>',
        '<path d="M470 170 L540 120 L540 262 L470 320 Z" fill="#16181a"/>',
        '<path d="M110 170 L180 120 L540 120 L470 170 Z" fill="url(#top)"/>',
        '<path d="M110 170 L470 170 L540 120" stroke="#5b6068" stroke-width="1.5" '
        'fill="none"/>',
        # the arcade button on the top: its bezel, then the cap, then the shine
        '<ellipse cx="300" cy="146" rx="74" ry="25" fill="#0a0a0a"/>',
        '<ellipse cx="300" cy="140" rx="70" ry="23" fill="url(#bezel)"/>',
        '<path d="M242 138 L242 124 A58 19 0 0 1 358 124 L358 138 A58 19 0 0 1 242 138 Z" '
        'fill="#a8141a"/>',
        '<ellipse cx="300" cy="124" rx="58" ry="19" fill="url(#cap)"/>',
        '<ellipse cx="284" cy="118" rx="24" ry="6" fill="#fff" opacity="0.35"/>',
        # the LED, lit (night: dark; a vote: lit)
        '<ellipse cx="440" cy="145" rx="34" ry="16" fill="url(#glow)"/>',
        '<ellipse cx="440" cy="146" rx="11" ry="5" fill="#222"/>',
        '<ellipse cx="440" cy="142" rx="9" ry="6" fill="url(#led)"/>',
        # the label on the front
        '<rect x="150" y="205" width="280" height="76" rx="6" fill="#f2efe6" '
        'stroke="#c9c2ad"/>',
        f'<text x="290" y="242" text-anchor="middle" font-size="30" font-weight="bold" '
        f'fill="#222">{escape(label)}</text>',
        f'<text x="290" y="268" text-anchor="middle" font-size="15" fill="#444">'
        f"{escape(pins)}</text>",
        '<text x="20" y="405" font-size="11" fill="#e9dcc5">Drawn by "python -m '
        'companion.firmware.pinmap --box-svg SEAT FILE" from the pin map.</text>',
        "</svg>",
    ]) + "\n"


USAGE = ("usage: python -m companion.firmware.pinmap --svg FILE\n"
         "       python -m companion.firmware.pinmap --box-svg SEAT FILE")


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    box = len(args) == 3 and args[0] == "--box-svg" and args[1].isdigit()
    if not box and (len(args) != 2 or args[0] != "--svg"):
        print(USAGE, file=sys.stderr)
        return 2
    try:
        pinmap = load(args[-1])
        sys.stdout.write(box_svg(pinmap, int(args[1])) if box else svg(pinmap))
    except PinMapError as err:
        print(f"pinmap: {err}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
