"""Shared fixtures for the hardware tests: gpiozero's mock pins and a fake
I2C bus (STYLE.md: a fresh MockFactory per test, as gpiozero's own tests do)."""

from __future__ import annotations

import threading

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin


class FakeBus:
    """An I2C bus where only `present` addresses answer; every register write
    is recorded (under a lock: seat LEDs blink from several threads)."""

    def __init__(self, present: set[int] | None = None) -> None:
        self.present = {0x20, 0x21} if present is None else present
        self.writes: list[tuple[int, int, int]] = []
        self.lock = threading.Lock()
        self.closed = False

    def write_quick(self, i2c_addr: int) -> None:
        if i2c_addr not in self.present:
            raise OSError(121, "Remote I/O error")

    def write_byte_data(self, i2c_addr: int, register: int, value: int) -> None:
        if i2c_addr not in self.present:
            raise OSError(121, "Remote I/O error")
        with self.lock:
            self.writes.append((i2c_addr, register, value))

    def close(self) -> None:
        self.closed = True


@pytest.fixture
def factory():  # type: ignore[no-untyped-def]
    """A fresh mock pin factory with PWM-capable pins."""
    f = MockFactory(pin_class=MockPWMPin)
    yield f
    f.reset()
    f.close()
