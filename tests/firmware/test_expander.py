"""The MCP23017 LED driver ([issue 7] Seat boxes: 13-18 seats drive LEDs
through MCP23017 I2C expanders, smbus2, a fake bus in tests): the register
writes it makes on a fake bus, and an expander LED's blinking."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from companion.firmware import expander, pinmap
from companion.firmware.expander import IODIRA, IODIRB, OLATA, OLATB
from companion.firmware.pinmap import ExpanderPin

from .conftest import FakeBus

ROOT = Path(__file__).resolve().parents[2]




def test_set_outputs_writes_latches_off_before_the_direction():
    """[issue 7]: pins become outputs already switched off (latch first, then
    IODIR), so no LED flashes; unused pins stay inputs (IODIR bit 1)."""
    bus = FakeBus()
    chip = expander.MCP23017(bus, 0x20)
    chip.set_outputs(0b0000_1111_1111_0011)
    assert bus.writes == [(0x20, OLATA, 0), (0x20, OLATB, 0),
                          (0x20, IODIRA, 0b0000_1100), (0x20, IODIRB, 0b1111_0000)]


def test_each_pin_writes_only_its_own_port_and_keeps_the_others():
    """[issue 7]: on/off per pin: pins 0-7 write GPA's latch, 8-15 GPB's, and
    the other pins' bits of that latch are kept."""
    bus = FakeBus()
    chip = expander.MCP23017(bus, 0x21)
    chip.set(0, True)
    chip.set(3, True)
    chip.set(9, True)
    chip.set(0, False)
    chip.set(15, True)
    assert bus.writes == [(0x21, OLATA, 0x01), (0x21, OLATA, 0x09), (0x21, OLATB, 0x02),
                          (0x21, OLATA, 0x08), (0x21, OLATB, 0x82)]
    assert chip.is_on(3) and chip.is_on(9) and not chip.is_on(0)
    chip.all_off()
    assert bus.writes[-2:] == [(0x21, OLATA, 0), (0x21, OLATB, 0)]
    assert not chip.is_on(3)
    with pytest.raises(ValueError):
        chip.set(16, True)


def test_a_failed_write_leaves_the_latch_as_the_chip_has_it():
    """[issue 7]: an expander that stops answering raises OSError and the
    driver does not believe the LED is lit."""
    bus = FakeBus(present=set())
    chip = expander.MCP23017(bus, 0x20)
    with pytest.raises(OSError):
        chip.set(2, True)
    assert not chip.is_on(2)


def test_expanders_of_the_18_seat_map():
    """[issue 7]: hardware/pinmap-18.toml puts seats 7-18's LEDs on mcp0 pins
    0-11: those are outputs, 12-15 stay inputs; a seat's pin lights its bit."""
    pm = pinmap.load(ROOT / "hardware" / "pinmap-18.toml")
    bus = FakeBus()
    chips = expander.Expanders(bus, pm)
    chips.setup()
    assert (0x20, IODIRA, 0x00) in bus.writes
    assert (0x20, IODIRB, 0xF0) in bus.writes
    chips.set(ExpanderPin(0, 11), True)
    assert bus.writes[-1] == (0x20, OLATB, 0x08)
    assert chips.is_on(ExpanderPin(0, 11))
    chips.all_off()
    assert bus.writes[-2:] == [(0x20, OLATA, 0), (0x20, OLATB, 0)]


def test_many_leds_switching_from_many_threads_share_one_latch_safely():
    """[issue 7]: eight LEDs of one port switched at once from eight threads:
    the latch ends with every bit set (no lost read-modify-write)."""
    bus = FakeBus()
    chips = expander.Expanders(bus, pinmap.PinMap(seats=(), expanders=(0x20,)))
    start = threading.Barrier(8)

    def light(pin: int) -> None:
        start.wait()
        for _ in range(50):
            chips.set(ExpanderPin(0, pin), False)
            chips.set(ExpanderPin(0, pin), True)

    threads = [threading.Thread(target=light, args=(pin,)) for pin in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert chips.chips[0].latch == 0xFF
    assert bus.writes[-1] == (0x20, OLATA, 0xFF)


def _pin_writes(bus: FakeBus, bit: int) -> list[bool]:
    """The successive states of GPA pin `bit` as written, repeats folded."""
    states: list[bool] = []
    for _, register, value in bus.writes:
        if register == OLATA:
            state = bool(value >> bit & 1)
            if not states or states[-1] != state:
                states.append(state)
    return states


def test_expander_led_switches_its_pin_and_ends_off():
    """[issue 7]: the expander LED's on() and off() write its latch bit;
    close() leaves it off."""
    bus = FakeBus()
    chips = expander.Expanders(bus, pinmap.PinMap(seats=(), expanders=(0x20,)))
    led = chips.led(ExpanderPin(0, 2))
    led.on()
    assert led.is_lit and led.value == 1.0
    led.off()
    led.on()
    assert _pin_writes(bus, 2) == [True, False, True]
    led.close()
    assert not led.is_lit
