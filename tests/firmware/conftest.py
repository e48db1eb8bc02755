"""Shared fixtures for the hardware tests: gpiozero's mock pins and a fake
I2C bus (STYLE.md: a fresh MockFactory per test, as gpiozero's own tests do);
the display's reference views (tools/make_reference_frames.py) and fonts."""

from __future__ import annotations

import importlib.util
import os
import sys
import threading
from pathlib import Path

import pytest
from companion.firmware import display
from gpiozero.pins.mock import MockFactory, MockPWMPin

ROOT = Path(__file__).resolve().parents[2]


def _load_tool():
    spec = importlib.util.spec_from_file_location(
        "make_reference_frames", ROOT / "tools" / "make_reference_frames.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


frames = _load_tool()


@pytest.fixture
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
