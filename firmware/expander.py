"""MCP23017 I2C expanders driving seat-box LEDs [issue 7]: 13-18 seats keep
their buttons on GPIO and light some LEDs through an expander (smbus2; a fake
bus in tests).

Outputs only, on/off only: the chip has no PWM, so an expander LED's
brightness is set by its resistor (docs/table/hardware.md). Registers are those
of IOCON.BANK = 0, the chip's power-on state. Every write goes through an
injectable `bus` (smbus2.SMBus on a Pi), so tests record the register writes.

- `MCP23017(bus, address)`: one chip: `set_outputs(mask)`, `set(pin, on)`,
  `all_off()`; it keeps the output latches (GPA and GPB) itself, under a
  lock, because several seat LEDs share one latch byte and blink from
  several threads.
- `Expanders(bus, pinmap)`: the pin map's chips (mcp0, mcp1 ...): `setup()`
  makes the seats' expander pins outputs (unused pins stay inputs),
  `set(ExpanderPin, on)`, `all_off()`, `led(ExpanderPin)`.
- `ExpanderLED`: one expander pin with the small interface of a gpiozero LED
  that `seats.SeatBox` uses: `on()`, `off()`, `is_lit`, `close()` (the seat
  boxes' shared blinker times its blinks).
"""

from __future__ import annotations

import logging
import threading
from typing import Protocol

from .pinmap import ExpanderPin, PinMap

log = logging.getLogger(__name__)

# MCP23017 registers with IOCON.BANK = 0 (its power-on state)
IODIRA, IODIRB, OLATA, OLATB = 0x00, 0x01, 0x14, 0x15


class Bus(Protocol):
    """The part of smbus2.SMBus used here (a fake one in tests)."""

    def write_quick(self, i2c_addr: int) -> None: ...
    def write_byte_data(self, i2c_addr: int, register: int, value: int) -> None: ...
    def close(self) -> None: ...


class MCP23017:
    """One chip at `address`: outputs and their latches (pins 0-7 are GPA0-7,
    8-15 GPB0-7)."""

    def __init__(self, bus: Bus, address: int) -> None:
        self.bus = bus
        self.address = address
        self.latch = 0  # the 16 output bits, GPB in the high byte
        self._lock = threading.Lock()

    def set_outputs(self, mask: int) -> None:
        """Pins whose bit is set in `mask` become outputs, switched off first
        (the latch is written before the direction, so no LED flashes); the
        others stay inputs (IODIR bit 1)."""
        inputs = ~mask & 0xFFFF
        with self._lock:
            self.latch = 0
            self.bus.write_byte_data(self.address, OLATA, 0)
            self.bus.write_byte_data(self.address, OLATB, 0)
            self.bus.write_byte_data(self.address, IODIRA, inputs & 0xFF)
            self.bus.write_byte_data(self.address, IODIRB, inputs >> 8)

    def set(self, pin: int, on: bool) -> None:
        """Switch one output pin; only the latch byte of its port is written."""
        if not 0 <= pin <= 15:
            raise ValueError(f"an MCP23017 has pins 0-15, not {pin}")
        bit = 1 << pin
        with self._lock:
            value = self.latch | bit if on else self.latch & ~bit
            if pin < 8:
                self.bus.write_byte_data(self.address, OLATA, value & 0xFF)
            else:
                self.bus.write_byte_data(self.address, OLATB, value >> 8)
            self.latch = value  # only once the chip has it

    def is_on(self, pin: int) -> bool:
        return bool(self.latch >> pin & 1)

    def all_off(self) -> None:
        """Both latches to 0 (every output pin low)."""
        with self._lock:
            self.latch = 0
            self.bus.write_byte_data(self.address, OLATA, 0)
            self.bus.write_byte_data(self.address, OLATB, 0)


class Expanders:
    """The pin map's expanders on one bus: mcp0 at `pinmap.expanders[0]` ..."""

    def __init__(self, bus: Bus, pinmap: PinMap) -> None:
        self.bus = bus
        self.pinmap = pinmap
        self.chips = [MCP23017(bus, address) for address in pinmap.expanders]

    def used(self, index: int) -> int:
        """The bit mask of mcp<index>'s pins that some seat's LED uses."""
        mask = 0
        for seat in self.pinmap.seats:
            if isinstance(seat.led, ExpanderPin) and seat.led.expander == index:
                mask |= 1 << seat.led.pin
        return mask

    def setup(self) -> None:
        """The seats' expander pins become outputs, off; unused pins stay inputs."""
        for index, chip in enumerate(self.chips):
            chip.set_outputs(self.used(index))

    def set(self, pin: ExpanderPin, on: bool) -> None:
        self.chips[pin.expander].set(pin.pin, on)

    def is_on(self, pin: ExpanderPin) -> bool:
        return self.chips[pin.expander].is_on(pin.pin)

    def all_off(self) -> None:
        """Every LED off; a chip that no longer answers is skipped (this runs
        while shutting down)."""
        for chip in self.chips:
            try:
                chip.all_off()
            except OSError:
                pass

    def led(self, pin: ExpanderPin) -> ExpanderLED:
        return ExpanderLED(self, pin)


class ExpanderLED:
    """An LED on an expander pin, with the part of gpiozero's LED interface
    that a seat box uses [issue 7]: on(), off(), close(). On/off only: no
    brightness; the seat boxes' blinker times its blinks."""

    def __init__(self, expanders: Expanders, pin: ExpanderPin) -> None:
        self.expanders = expanders
        self.pin = pin
        self._closed = False

    @property
    def is_lit(self) -> bool:
        return self.expanders.is_on(self.pin)

    @property
    def value(self) -> float:
        return 1.0 if self.is_lit else 0.0

    def on(self) -> None:
        self.expanders.set(self.pin, True)

    def off(self) -> None:
        self.expanders.set(self.pin, False)

    def close(self) -> None:
        """Switch off (quietly if the chip is gone)."""
        if self._closed:
            return
        self._closed = True
        try:
            self.expanders.set(self.pin, False)
        except OSError:
            pass


class SimulatedBus:
    """An I2C bus in memory where the given addresses answer: the expanders of
    a pin map on a laptop (`werewolf serve` without a Pi) [issue 7]."""

    def __init__(self, present: set[int] | tuple[int, ...]) -> None:
        self.present = set(present)
        self.registers: dict[tuple[int, int], int] = {}
        self._lock = threading.Lock()

    def write_quick(self, i2c_addr: int) -> None:
        if i2c_addr not in self.present:
            raise OSError(121, "Remote I/O error")

    def write_byte_data(self, i2c_addr: int, register: int, value: int) -> None:
        self.write_quick(i2c_addr)
        with self._lock:
            self.registers[(i2c_addr, register)] = value

    def close(self) -> None:
        pass
