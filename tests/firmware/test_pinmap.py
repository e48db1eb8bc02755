"""The pin map ([issue 7] Seat boxes, `hardware/`): the default maps, every
validation error as one line naming the seat and the pin, the CLI's exit 2,
and the wiring SVG generated from the map."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from companion.firmware import pinmap
from companion.firmware.pinmap import ExpanderPin, PinMapError
from slowness import wait_s

ROOT = Path(__file__).resolve().parent.parent.parent
HARDWARE = ROOT / "hardware"
DISPLAY = '[display]\ndriver = "ssd1306"\ni2c_address = 0x3C\ni2c_bus = 1\n'


def seats(*pairs: tuple[object, object]) -> str:
    out = ""
    for button, led in pairs:
        led_text = f'"{led}"' if isinstance(led, str) else str(led)
        out += f"[[seat]]\nbutton = {button}\nled = {led_text}\n"
    return out


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "map.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_default_map_is_12_seats_wholly_on_gpio():
    """[issue 7]: the default map puts up to 12 seats wholly on GPIO (BCM 4-27,
    keeping 2/3 for I2C): every seat's button and LED are distinct GPIOs."""
    pm = pinmap.load(HARDWARE / "pinmap.toml")
    assert len(pm.seats) == 12
    pins = [p for s in pm.seats for p in (s.button, s.led)]
    assert all(isinstance(p, int) for p in pins)
    assert sorted(pins) == list(range(4, 28))  # all 24 free GPIOs, each once
    assert pm.display == pinmap.Display("ssd1306", 0x3C, 1)
    assert pm.brightness == 0.3
    assert pm.expanders == ()
    assert pm.seats[0].button == 4 and pm.seats[0].led == 17  # the example
    pinmap.check_players(pm, 12)


def test_default_map_file_and_builtin_twin_agree():
    """[issue 7]: an installed copy without hardware/ falls back to the same
    12 seats built in; `default()` reads the file in a source checkout."""
    pm = pinmap.load(HARDWARE / "pinmap.toml")
    builtin = pinmap.builtin_default()
    assert (pm.seats, pm.display, pm.brightness, pm.expanders) == (
        builtin.seats, builtin.display, builtin.brightness, builtin.expanders)
    assert pinmap.default().seats == pm.seats


def test_18_seat_map_file_and_builtin_twin_agree():
    """[issue 7]: `werewolf bench presses` uses the 18-seat map built in, so an
    installed copy measures the same wiring as hardware/pinmap-18.toml."""
    pm = pinmap.load(HARDWARE / "pinmap-18.toml")
    builtin = pinmap.builtin_18()
    assert (pm.seats, pm.display, pm.brightness, pm.expanders) == (
        builtin.seats, builtin.display, builtin.brightness, builtin.expanders)


def test_18_seat_map_keeps_buttons_on_gpio_and_leds_on_the_expander():
    """[issue 7]: 13-18 seats keep buttons on GPIO and drive LEDs through an
    MCP23017; seats 1-12 keep the 12-seat map's buttons, seats 1-6 its LEDs."""
    pm = pinmap.load(HARDWARE / "pinmap-18.toml")
    twelve = pinmap.load(HARDWARE / "pinmap.toml")
    assert len(pm.seats) == 18
    assert pm.expanders == (0x20,)
    assert all(isinstance(s.button, int) for s in pm.seats)
    assert [s.button for s in pm.seats[:12]] == [s.button for s in twelve.seats]
    assert pm.seats[:6] == twelve.seats[:6]
    assert [s.led for s in pm.seats[6:]] == [ExpanderPin(0, i) for i in range(12)]
    gpio = [s.button for s in pm.seats] + [s.led for s in pm.seats if isinstance(s.led, int)]
    assert sorted(gpio) == list(range(4, 28))
    pinmap.check_players(pm, 18)


@pytest.mark.parametrize("text, words", [
    pytest.param(DISPLAY + seats((4, 17), (5, 17)),
                 ["seat 2", "led GPIO17", "already seat 1's led"], id="led-used-twice"),
    pytest.param(DISPLAY + seats((4, 17), (17, 5)),
                 ["seat 2", "button GPIO17", "already seat 1's led"], id="button-is-an-led"),
    pytest.param(seats((4, 17), (2, 5)), ["seat 2", "button GPIO2", "reserved", "I2C"],
                 id="i2c-sda"),
    pytest.param(seats((4, 3)), ["seat 1", "led GPIO3", "reserved", "I2C"], id="i2c-scl"),
    pytest.param(seats((0, 17)), ["seat 1", "button GPIO0", "reserved", "EEPROM"],
                 id="id-eeprom-0"),
    pytest.param(seats((4, 1)), ["seat 1", "led GPIO1", "reserved", "EEPROM"],
                 id="id-eeprom-1"),
    pytest.param(seats((4, 17), (28, 5)), ["seat 2", "button 28", "not a BCM GPIO"],
                 id="not-a-gpio"),
    pytest.param(seats((-1, 17)), ["seat 1", "button -1", "not a BCM GPIO"], id="negative"),
    pytest.param(seats(("\"4\"", 17)), ["seat 1", "button '4'", "not a BCM GPIO"],
                 id="string-button"),
    pytest.param(seats((4, 4.5)), ["seat 1", "led 4.5", "not a BCM GPIO"], id="float-led"),
    pytest.param(seats((4, "mcp0:3")), ["seat 1", "'mcp0:3'", "mcp0", "[expanders]"],
                 id="no-expanders"),
    pytest.param("[expanders]\naddresses = [0x20]\n" + seats((4, "mcp1:3")),
                 ["seat 1", "'mcp1:3'", "expander mcp1", "mcp0-mcp0"], id="unknown-expander"),
    pytest.param("[expanders]\naddresses = [0x20]\n" + seats((4, "mcp0:16")),
                 ["seat 1", "'mcp0:16'", "pins 0-15"], id="expander-pin-16"),
    pytest.param("[expanders]\naddresses = [0x20]\n" + seats((4, "mcp0:3"), (5, "mcp0:3")),
                 ["seat 2", "led mcp0:3", "already seat 1's led"], id="expander-pin-twice"),
    pytest.param(seats((4, "gpio17")), ["seat 1", "'gpio17'", "expander pin like"],
                 id="bad-led-text"),
    pytest.param("[[seat]]\nbutton = 4\nled = 17\nbuzzer = 5\n",
                 ["seat 1", "unknown key 'buzzer'"], id="unknown-seat-key"),
    pytest.param(seats((4, 17)) + "[[seat]]\nled = 5\n", ["seat 2", "no button"],
                 id="missing-button"),
    pytest.param("[[seat]]\nbutton = 4\n", ["seat 1", "no led"], id="missing-led"),
    pytest.param("seats = 3\n" + seats((4, 17)), ["unknown key 'seats'"], id="unknown-top-key"),
    pytest.param("[display]\ndriver = \"ssd1305\"\n" + seats((4, 17)),
                 ["[display]", "driver 'ssd1305'", "ssd1306, sh1106, ssd1309"], id="driver"),
    pytest.param("[display]\nsize = 1\n" + seats((4, 17)), ["[display]", "unknown key 'size'"],
                 id="display-key"),
    pytest.param("[display]\ni2c_address = 0x80\n" + seats((4, 17)),
                 ["[display]", "i2c_address 128"], id="display-address"),
    pytest.param("[leds]\nbrightness = 1.5\n" + seats((4, 17)), ["[leds]", "brightness 1.5"],
                 id="brightness-high"),
    pytest.param("[leds]\nbrightness = 0\n" + seats((4, 17)), ["[leds]", "brightness 0"],
                 id="brightness-zero"),
    pytest.param("[leds]\nbrightness = \"dim\"\n" + seats((4, 17)),
                 ["[leds]", "brightness 'dim'"], id="brightness-text"),
    pytest.param("[expanders]\naddresses = [0x30]\n" + seats((4, 17)),
                 ["mcp0 address 48", "0x20-0x27"], id="expander-address"),
    pytest.param("[expanders]\naddresses = [0x20, 0x20]\n" + seats((4, 17)),
                 ["mcp1 address 0x20", "already mcp0's"], id="expander-address-twice"),
    pytest.param(DISPLAY, ["no seats"], id="no-seats"),
    pytest.param("[[seat]\nbutton = 4\n", ["not valid TOML"], id="bad-toml"),
])
def test_every_problem_is_one_line_naming_the_seat_and_the_pin(tmp_path, text, words):
    """[issue 7]: a pin used twice, a reserved pin (I2C 2/3, ID EEPROM 0/1), a
    number that is not a GPIO, a bad expander reference, unknown keys, a
    missing button or LED, a bad brightness or driver: each is one clear
    message naming the seat and the pin, raised as PinMapError."""
    path = write(tmp_path, text)
    with pytest.raises(PinMapError) as caught:
        pinmap.load(path)
    message = str(caught.value)
    assert isinstance(caught.value, ValueError)
    assert "\n" not in message
    assert message.startswith(f"{path}: ")
    for word in words:
        assert word in message


def test_an_unreadable_map_is_one_line(tmp_path):
    """[issue 7]: a missing file is a PinMapError too, not an OSError."""
    with pytest.raises(PinMapError, match="cannot read pin map .*nope.toml"):
        pinmap.load(tmp_path / "nope.toml")


def test_fewer_seats_than_players(tmp_path):
    """[issue 7]: fewer seats than the game's players is refused, naming the
    seats without a box."""
    pm = pinmap.load(write(tmp_path, seats((4, 17), (5, 18), (6, 19))))
    pinmap.check_players(pm, 3)
    with pytest.raises(PinMapError, match=r"3 seats, but the game has 5 players: seats 4-5"):
        pinmap.check_players(pm, 5)
    with pytest.raises(PinMapError, match=r"game has 4 players: seat 4 "):
        pinmap.check_players(pm, 4)


def _cli(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("GPIOZERO_PIN_FACTORY", None)
    return subprocess.run(
        [sys.executable, "-c", "import sys; from companion.cli import main; sys.exit(main())",
         *args], capture_output=True, text=True, env=env, timeout=wait_s(60))


@pytest.mark.parametrize("command", ["serve", "doctor"])
def test_a_bad_map_exits_2_with_one_line_before_anything_starts(tmp_path, command):
    """[issue 7]: `werewolf serve --pinmap bad.toml` and `werewolf doctor
    --pinmap bad.toml` exit 2 with one clear line and no traceback; serve
    has not touched its data folder."""
    bad = tmp_path / "bad.toml"
    bad.write_text(seats((4, 17), (5, 17)), encoding="utf-8")
    data = tmp_path / "data"
    extra = ["--host", "127.0.0.1", "--port", "0", "--data", str(data)]
    extra = extra if command == "serve" else []
    proc = _cli(command, "--pinmap", str(bad), *extra)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr == (f"werewolf {command}: {bad}: seat 2: led GPIO17 is already "
                           "seat 1's led\n")
    assert not data.exists()


def test_serve_starts_with_a_good_map(tmp_path):
    """[issue 7]: `werewolf serve --pinmap hardware/pinmap-18.toml` starts the
    hub as usual (the map is checked, then passed on)."""
    import signal
    import socket
    import urllib.request

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        [sys.executable, "-c", "import sys; from companion.cli import main; sys.exit(main())",
         "serve", "--host", "127.0.0.1", "--port", str(port), "--data", str(tmp_path),
         "--pinmap", str(HARDWARE / "pinmap-18.toml")],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    try:
        assert proc.stdout is not None
        first = proc.stdout.readline()
        assert first.startswith(f"Werewolf hub on http://127.0.0.1:{port}/"), first
        # answered once the server runs, after its SIGTERM handler is in place
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/public", timeout=wait_s(10)) as r:
            assert r.status == 200
    finally:
        proc.send_signal(signal.SIGTERM)
        status = proc.wait(timeout=wait_s(15))
        if proc.stdout is not None:
            proc.stdout.close()
    assert status == 0


def test_a_missing_map_exits_2_with_one_line(tmp_path):
    """[issue 7]: a map that cannot be read is one line too."""
    proc = _cli("doctor", "--pinmap", str(tmp_path / "nope.toml"))
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
    assert "cannot read pin map" in proc.stderr


def test_the_committed_wiring_svg_is_the_generated_one():
    """[issue 7] `hardware/`: the wiring diagram is generated from the pin map,
    so the two never disagree: hardware/wiring.svg is exactly the output of
    `python -m companion.firmware.pinmap --svg hardware/pinmap.toml`."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run(
        [sys.executable, "-m", "companion.firmware.pinmap", "--svg", "hardware/pinmap.toml"],
        capture_output=True, text=True, env=env, cwd=ROOT, timeout=wait_s(60))
    assert proc.returncode == 0, proc.stderr
    committed = (HARDWARE / "wiring.svg").read_text(encoding="utf-8")
    assert proc.stdout == committed, (
        "hardware/wiring.svg is stale: python -m companion.firmware.pinmap --svg "
        "hardware/pinmap.toml > hardware/wiring.svg")


def test_svg_names_every_seat_and_pin_and_is_deterministic():
    """[issue 7]: the diagram shows each seat with its button and LED pins, the
    header, the display on I2C 2/3 and the expanders; same map, same text."""
    import xml.etree.ElementTree as ET

    pm = pinmap.load(HARDWARE / "pinmap-18.toml")
    text = pinmap.svg(pm)
    assert text == pinmap.svg(pinmap.load(HARDWARE / "pinmap-18.toml"))
    ET.fromstring(text)  # well-formed XML
    for seat in pm.seats:
        assert f"Seat {seat.number}</text>" in text
        assert f"btn GPIO{seat.button}</text>" in text
        assert f"LED {pinmap.pin_name(seat.led)}</text>" in text
    assert "3 GPIO2 - I2C SDA" in text and "5 GPIO3 - I2C SCL" in text
    assert "SSD1306 128x64 OLED at 0x3c" in text
    assert "Expander mcp0: MCP23017 at 0x20" in text
    assert "11: seat 18" in text


def test_svg_cli_refuses_a_bad_map(tmp_path):
    """[issue 7]: the generator says what is wrong with the map, exit 2."""
    assert pinmap.main(["--svg", str(write(tmp_path, seats((2, 17))))]) == 2
    assert pinmap.main([]) == 2


def test_a_seat_box_is_drawn_from_the_pin_map(tmp_path, capsys):
    """[issue 32] the manual's seat box "made by the wiring generator": `--box-svg
    SEAT FILE` draws that seat's box with its own pins on its label (an
    expander's LED too), the same each time; an unknown seat is one line, exit 2."""
    import xml.etree.ElementTree as ET

    pm = pinmap.load(HARDWARE / "pinmap-18.toml")
    text = pinmap.box_svg(pm, 18)
    ET.fromstring(text)
    assert text == pinmap.box_svg(pinmap.load(HARDWARE / "pinmap-18.toml"), 18)
    seat = pm.seats[17]
    assert ">SEAT 18</text>" in text
    assert f"button GPIO{seat.button} · LED {pinmap.pin_name(seat.led)}</text>" in text
    assert pinmap.main(["--box-svg", "3", str(HARDWARE / "pinmap.toml")]) == 0
    assert ">SEAT 3</text>" in capsys.readouterr().out
    assert pinmap.main(["--box-svg", "13", str(HARDWARE / "pinmap.toml")]) == 2
    assert capsys.readouterr().err.count("\n") == 1
