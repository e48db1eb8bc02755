"""Which pins the table drives, and whether it may pretend [issue 19].

gpiozero picks the pin library: lgpio where it works (every Pi, the Pi 5 too),
else RPi.GPIO (Raspberry Pi OS's rpi-lgpio shim or the original), pigpio, its
own native driver. Where none loads and the machine is not a Pi (a laptop),
the table runs on gpiozero's MockFactory and says so: that is the virtual
table. On a Raspberry Pi the same failure is an error with the reason in one
line — "GPIO: permission denied on
/dev/gpiochip0 — add pi to the gpio group" — because a table that quietly
simulates its pins starts with dead buttons. `werewolf serve --simulate` (or
GPIOZERO_PIN_FACTORY=mock) asks for the virtual table on a Pi as well.

A Pi is a Pi whatever says so [issue 30 item 7]: the device tree's model
(`/proc/device-tree/model`, or the file it links to,
`/sys/firmware/devicetree/base/model`), or the kernel's `Model : Raspberry
Pi …` line in /proc/cpuinfo. A container that masks /sys/firmware leaves
/proc/device-tree dangling, and its pins failing were a quiet simulation.

The model and cpuinfo paths, the gpiochip path and gpiozero's loader are
parameters so tests run the Pi path on any machine.
"""

from __future__ import annotations

import getpass
import importlib.util
import os
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

#: where the device tree names the board: its /proc link, then the file itself
MODELS = (Path("/proc/device-tree/model"), Path("/sys/firmware/devicetree/base/model"))
#: the kernel's CPU description: a Pi's kernel adds "Model : Raspberry Pi …"
CPUINFO = Path("/proc/cpuinfo")
GPIOCHIP = Path("/dev/gpiochip0")
NO_PINS = ("no Raspberry Pi pins here (lgpio, RPi.GPIO, pigpio and gpiozero's native driver "
           "all declined)")

#: gpiozero's factory class -> the library it drives the pins with
LIBRARIES = {"LGPIOFactory": "lgpio", "RPiGPIOFactory": "RPi.GPIO",
             "PiGPIOFactory": "pigpio", "NativeFactory": "gpiozero's native driver",
             "MockFactory": "gpiozero's mock pins"}


class HardwareUnavailable(RuntimeError):
    """A Pi whose pins, display or expanders cannot be opened; the message is
    the one line `werewolf serve` prints before exiting 2."""


@dataclass(frozen=True)
class Board:
    """A Raspberry Pi, as one of the files says."""

    model: str  # "Raspberry Pi 4 Model B Rev 1.4"
    source: Path  # the file that said so


def pi_model(path: Path) -> str | None:
    """The board's name if the device tree's model file `path` says Raspberry
    Pi, else None (absent, a dangling link, another board)."""
    try:
        model = path.read_bytes().decode("utf-8", "replace").strip("\x00\n ")
    except OSError:
        return None
    return model if model.startswith("Raspberry Pi") else None


def cpuinfo_model(path: Path) -> str | None:
    """The board's name if the `Model` line of cpuinfo file `path` says
    Raspberry Pi, else None (an x86 laptop's `model : 142` is a CPU's)."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    for line in text.splitlines():
        key, colon, value = line.partition(":")
        if colon and key.strip() == "Model" and value.strip().startswith("Raspberry Pi"):
            return value.strip()
    return None


def find_board(models: Sequence[Path] | None = None,
               cpuinfo: Path | None = None) -> Board | None:
    """The Raspberry Pi this is, from the first of the device tree's model
    files (MODELS) and cpuinfo (CPUINFO) that says so; None on any other
    machine. The defaults are looked up at call time (tests replace them)."""
    for path in MODELS if models is None else models:
        if (model := pi_model(path)) is not None:
            return Board(model, path)
    path = CPUINFO if cpuinfo is None else cpuinfo
    if (model := cpuinfo_model(path)) is not None:
        return Board(model, path)
    return None


def describe_board(board: Board | None) -> str:
    """What `werewolf doctor` says of the board: which file said Pi, or that none did."""
    if board is not None:
        return f"board: {board.model} (so says {board.source})"
    said = ", ".join(str(p) for p in (*MODELS, CPUINFO))
    return f"board: not a Raspberry Pi (none of {said} says so)"


Loader = Callable[[], tuple[Any, list[str]]]


def gpiozero_choice() -> tuple[Any, list[str]]:
    """gpiozero's own choice of factory (None if none loads) and the reasons it
    gave for each library it fell back from."""
    from gpiozero import Device
    from gpiozero.exc import BadPinFactory

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            Device.ensure_pin_factory()
            factory = Device.pin_factory
        except BadPinFactory:
            if os.environ.get("GPIOZERO_PIN_FACTORY"):
                raise
            factory = None
    return factory, [str(w.message) for w in caught if "Falling back" in str(w.message)]


def mock_factory() -> Any:
    from gpiozero.pins.mock import MockFactory, MockPWMPin

    return MockFactory(pin_class=MockPWMPin)


def find_pin_factory(*, simulate: bool = False, board: Callable[[], Board | None] | None = None,
                     load: Loader | None = None) -> tuple[Any, str | None]:
    """The pin factory, and why we simulate (None on real pins).

    GPIOZERO_PIN_FACTORY is honoured; a factory named there that fails is an
    error (whoever set it expected real pins). On a Pi no library loading is
    HardwareUnavailable, naming why; elsewhere it is the simulation. `board`
    and `load` default to find_board and gpiozero_choice, looked up at call
    time (tests replace them)."""
    if simulate:
        return mock_factory(), "--simulate"
    named = os.environ.get("GPIOZERO_PIN_FACTORY")
    if named and named.lower() == "mock":
        return mock_factory(), "GPIOZERO_PIN_FACTORY=mock"
    factory, fallbacks = (load or gpiozero_choice)()
    if factory is None:
        pi = (board or find_board)()
        if pi is not None:
            raise HardwareUnavailable(why_no_pins(pi.model, fallbacks))
        return mock_factory(), NO_PINS
    if type(factory).__name__ == "MockFactory":
        return factory, "gpiozero's mock pin factory"
    return factory, None


def importable() -> list[str]:
    """The pin libraries Python can import here (RPi: RPi.GPIO or rpi-lgpio)."""
    return [m for m in ("lgpio", "RPi") if importlib.util.find_spec(m) is not None]


def why_no_pins(board: str, fallbacks: list[str], gpiochip: Path = GPIOCHIP, *,
                access: Callable[[Path], bool] | None = None) -> str:
    """One line: why a Pi's pins did not open, and what to do. `access`: may
    this process read and write a path (os.access; tests replace it, as root
    may open anything)."""
    user = getpass.getuser()
    found = importable()
    can = access or (lambda path: os.access(path, os.R_OK | os.W_OK))
    if not found:
        return (f"GPIO: no pin library on this {board} (lgpio or RPi.GPIO): run "
                "hardware/install.sh, or sudo apt install python3-lgpio and a venv made "
                "with --system-site-packages")
    if gpiochip.exists() and not can(gpiochip):
        return (f"GPIO: permission denied on {gpiochip} — add {user} to the gpio group "
                f"(sudo usermod -aG gpio {user}, then log in again)")
    folder = os.environ.get("LG_WD") or os.getcwd()
    if "lgpio" in found and not can(Path(folder)):
        return (f"GPIO: lgpio cannot write its notification files in {folder} — start "
                "from a writable folder or set LG_WD (hardware/werewolf.service does)")
    said = "; ".join(f.removeprefix("Falling back from ") for f in fallbacks) or "no reason given"
    return f"GPIO: no pin library opened the pins on this {board}: {said}"


def pin_library(factory: Any) -> str:
    """The library behind a factory, with its version: what `werewolf doctor`
    names (rpi-lgpio, Raspberry Pi OS's RPi.GPIO on lgpio, is told apart)."""
    kind = type(factory).__name__
    name = LIBRARIES.get(kind, kind)
    if name == "RPi.GPIO" and _version("rpi-lgpio"):
        return f"RPi.GPIO {_version('rpi-lgpio')} (rpi-lgpio: RPi.GPIO's calls on lgpio)"
    version = _version(name) if name in ("lgpio", "RPi.GPIO", "pigpio") else None
    return f"{name} {version}" if version else name


def _version(dist: str) -> str | None:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return None
