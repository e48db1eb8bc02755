"""The table's hardware as `werewolf serve` runs it [issue 7]: the seat boxes,
the display and the bridge between them and the table, in one object.

On a Raspberry Pi these are real pins (gpiozero's own pin factory), the
expanders on the I2C bus and the OLED through luma.oled. Anywhere else the
same code runs on gpiozero's `MockFactory`, a simulated I2C bus and luma's
dummy display: the virtual table page (`/gm/table`) shows them, and its
clicks press the mock buttons, so the whole product can be tried with no
hardware. A Pi never simulates unless asked (`simulate`, serve's
--simulate) [issue 19]: real pins with no I2C bus for the display, or pins
that do not open, are HardwareUnavailable (pins.py).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, Generic

from .bridge import SeatBridge
from .device import Display, open_device
from .expander import Bus, SimulatedBus
from .pinmap import PinMap
from .pins import HardwareUnavailable
from .ports import L, TablePort
from .seats import SeatBoxes

log = logging.getLogger("werewolf.hardware")


class TableHardware(Generic[L]):
    """The seat boxes, the display and the bridge, on any table that answers
    `TablePort` (companion.table.Table in `werewolf serve`)."""

    def __init__(self, table: TablePort[L], pinmap: PinMap,
                 url: str | Callable[[], str | None] | None = None, *,
                 factory: Any = None, simulated: str | None = None,
                 bus: Bus | None = None, simulate: bool = False) -> None:
        """`factory`/`simulated`: the pin factory and why it is simulated
        (None: real pins); both found with pins.find_pin_factory() when not
        given (`simulate`: the virtual table even on a Pi; on a Pi whose pins
        do not open it raises HardwareUnavailable). `url`: what the display's
        QR code holds before a game (`werewolf serve`: a function giving the
        GM's pairing link, never the token) [issue 17]."""
        if factory is None:
            from .pins import find_pin_factory

            factory, simulated = find_pin_factory(simulate=simulate)
        self.pinmap = pinmap
        self.factory = factory
        self.simulated = simulated
        if bus is None and pinmap.expanders and simulated:
            bus = SimulatedBus(pinmap.expanders)
        d = pinmap.display
        try:
            self.boxes = SeatBoxes(pinmap, pin_factory=factory, bus=bus)
        except OSError as err:  # the bus, or an expander, not there
            where = ", ".join(f"{a:#04x}" for a in pinmap.expanders)
            raise HardwareUnavailable(
                f"expanders: {err.strerror or err} on I2C bus {d.i2c_bus} at {where} "
                "(wiring, address jumpers? werewolf doctor checks each)") from err
        try:
            try:
                device = open_device(d.driver, d.i2c_bus, d.i2c_address,
                                     simulate=simulated is not None)
            except OSError as err:  # nothing answers at the display's address
                raise HardwareUnavailable(
                    f"display: {d.driver} at {d.i2c_address:#04x} on I2C bus {d.i2c_bus}: "
                    f"{err.strerror or err} (wiring to GPIO2/3, 3V3, GND?)") from err
            self.display = Display(device, url=url)
            self.display_simulated = type(device).__name__ == "dummy"
            if self.display_simulated and simulated is None:
                raise HardwareUnavailable(
                    f"display: no I2C bus /dev/i2c-{d.i2c_bus} — turn I2C on "
                    "(sudo raspi-config nonint do_i2c 0), or serve --simulate")
            self.bridge = SeatBridge(table, self.boxes)
        except Exception:
            self.boxes.close()
            raise
        self.table = table

    def start(self) -> TableHardware[L]:
        self.bridge.start()
        self.display.follow(self.table)
        return self

    def describe(self) -> str:
        """One line for the terminal: what is real and what is simulated."""
        seats = f"{len(self.boxes)} seat boxes"
        pins = f"simulated ({self.simulated})" if self.simulated else "on GPIO"
        shown = "simulated (luma dummy)" if self.display_simulated else self.pinmap.display.driver
        return f"{seats} {pins}; display {shown}"

    def press(self, number: int) -> None:
        """Press and release seat box `number`'s button on simulated pins (the
        virtual table page); refused on real pins."""
        if not self.simulated:
            raise PermissionError("the seat boxes are real: press the button")
        box = self.boxes[number]
        pin = box.button.pin
        pin.drive_low()
        pin.drive_high()

    def leds(self) -> list[dict[str, int | str]]:
        """Every box's LED as the virtual table shows it."""
        out: list[dict[str, int | str]] = []
        for box in self.boxes:
            state = "dark" if box.is_dark else ("refused" if box.refusing else box.state)
            out.append({"seat": box.number, "led": state})
        return out

    def close(self) -> None:
        self.bridge.stop()
        self.display.stop()
        self.boxes.close()
