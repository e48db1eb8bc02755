"""[issue 19] "A Pi never fakes its pins silently": on a machine whose
/proc/device-tree/model says Raspberry Pi, pins (or the display, or the
expanders of the pin map) that cannot be opened are one line and exit 2 from
`werewolf serve`, unless --simulate asks for the virtual table; elsewhere the
table simulates and says so. The device-tree file and gpiozero's loader are
injected, so the Pi path runs here.

[issue 30 item 7] "A Pi is a Pi": /proc/device-tree/model,
/sys/firmware/devicetree/base/model or /proc/cpuinfo's "Model : Raspberry Pi
…" line, whichever says so (a container masking /sys/firmware leaves
/proc/device-tree dangling), makes pins that fail exit 2; a laptop, where
none does, simulates and exits 0. Every source is a file in tmp_path here."""

from __future__ import annotations

from pathlib import Path

import pytest
from companion.firmware import pinmap, pins
from companion.firmware.hardware import TableHardware
from gpiozero.pins.mock import MockFactory, MockPWMPin

from companion import serve
from companion.store import Store
from companion.table import Table

from .conftest import FakeBus

ROOT = Path(__file__).resolve().parent.parent.parent
PI4 = "Raspberry Pi 4 Model B Rev 1.4"
LGPIO_DENIED = "Falling back from lgpio: can not open gpiochip"
#: a Pi 4's /proc/cpuinfo (Raspberry Pi OS, 64-bit kernel), one core shown
PI_CPUINFO = f"""processor\t: 0
BogoMIPS\t: 108.00
Features\t: fp asimd evtstrm crc32 cpuid
CPU implementer\t: 0x41
CPU part\t: 0xd08

Revision\t: c03114
Serial\t\t: 100000002b7a6a3f
Model\t\t: {PI4}
"""
#: a laptop's: its "model" is the CPU's
LAPTOP_CPUINFO = """processor\t: 0
vendor_id\t: GenuineIntel
cpu family\t: 6
model\t\t: 142
model name\t: Intel(R) Core(TM) i7-8565U CPU @ 1.80GHz
"""


class Sources:
    """/proc/device-tree (a link to /sys/firmware/devicetree/base, as the
    kernel makes it) and /proc/cpuinfo, under `root`."""

    def __init__(self, root: Path) -> None:
        self.base = root / "sys" / "firmware" / "devicetree" / "base"
        (root / "proc").mkdir()
        (root / "proc" / "device-tree").symlink_to(self.base)  # dangling until base exists
        self.proc_model = root / "proc" / "device-tree" / "model"
        self.sys_model = self.base / "model"
        self.cpuinfo = root / "proc" / "cpuinfo"

    def say(self, where: str, model: str = PI4) -> Path:
        """Make one source say `model`: the device tree through /proc ("proc")
        or only at /sys's own path ("sys": the /proc link is gone), or cpuinfo."""
        if where == "cpuinfo":
            self.cpuinfo.write_text(PI_CPUINFO.replace(PI4, model))
            return self.cpuinfo
        self.base.mkdir(parents=True, exist_ok=True)
        self.sys_model.write_bytes(model.encode() + b"\x00")
        if where == "sys":
            self.proc_model.parent.unlink()
            return self.sys_model
        return self.proc_model


@pytest.fixture(autouse=True)
def sources(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Sources:
    """Where the board names itself, as files in tmp_path that do not exist
    yet (this machine's own never count, a Pi's included)."""
    where = Sources(tmp_path)
    monkeypatch.setattr(pins, "MODELS", (where.proc_model, where.sys_model))
    monkeypatch.setattr(pins, "CPUINFO", where.cpuinfo)
    return where


@pytest.fixture
def pi(sources: Sources) -> Path:
    """This machine, as a Pi 4: the device tree's model file (NUL-terminated,
    as the kernel writes it)."""
    return sources.say("proc")


def failing(*reasons: str):  # type: ignore[no-untyped-def]
    """gpiozero's loader when every pin library declines."""
    return lambda: (None, list(reasons))


def test_the_device_tree_says_whether_this_is_a_pi(tmp_path):
    """[issue 19]: the board is a Pi when /proc/device-tree/model says so."""
    model = tmp_path / "model"
    model.write_bytes(PI4.encode() + b"\x00")
    assert pins.pi_model(model) == PI4
    model.write_bytes(b"QEMU Virtual Machine\x00")
    assert pins.pi_model(model) is None
    assert pins.pi_model(tmp_path / "absent") is None


def test_a_laptop_without_pins_simulates_and_says_why(sources):
    """[issue 7][issue 19]: not a Pi and no library loads: the virtual table."""
    sources.cpuinfo.write_text(LAPTOP_CPUINFO)
    factory, why = pins.find_pin_factory(load=failing(LGPIO_DENIED))
    assert isinstance(factory, MockFactory)
    assert why == pins.NO_PINS


def test_a_pi_whose_pins_do_not_open_is_an_error_naming_the_gpio_group(pi, tmp_path,
                                                                       monkeypatch):
    """[issue 19] "GPIO: permission denied — add pi to the gpio group"."""
    monkeypatch.setattr(pins, "importable", lambda: ["lgpio"])
    chip = tmp_path / "gpiochip0"
    chip.touch()
    line = pins.why_no_pins(PI4, [LGPIO_DENIED], chip, access=lambda path: path != chip)
    user = pins.getpass.getuser()
    assert line == (f"GPIO: permission denied on {chip} — add {user} to the gpio group "
                    f"(sudo usermod -aG gpio {user}, then log in again)")
    with pytest.raises(pins.HardwareUnavailable, match=r"^GPIO: "):
        pins.find_pin_factory(load=failing(LGPIO_DENIED))


def test_a_pi_without_any_pin_library_says_how_to_install_one(pi, monkeypatch):
    """[issue 19]: no lgpio and no RPi.GPIO on a Pi: install them, not simulate."""
    monkeypatch.setattr(pins, "importable", lambda: [])
    with pytest.raises(pins.HardwareUnavailable) as caught:
        pins.find_pin_factory(load=failing("Falling back from lgpio: No module named 'lgpio'"))
    assert str(caught.value).startswith(f"GPIO: no pin library on this {PI4} (lgpio or "
                                        "RPi.GPIO): run hardware/install.sh")


def test_other_reasons_are_gpiozeros_own_in_one_line(pi, tmp_path, monkeypatch):
    """[issue 19]: otherwise the line carries every library's own reason."""
    monkeypatch.setattr(pins, "importable", lambda: ["lgpio", "RPi"])
    line = pins.why_no_pins(PI4, [LGPIO_DENIED, "Falling back from rpigpio: no /dev/mem"],
                            tmp_path / "absent", access=lambda path: True)
    assert line == (f"GPIO: no pin library opened the pins on this {PI4}: lgpio: can not "
                    "open gpiochip; rpigpio: no /dev/mem")
    assert "\n" not in line


def test_simulate_gives_the_virtual_table_even_on_a_pi(pi):
    """[issue 19]: `--simulate` asks for the virtual table: mock pins, said so."""
    factory, why = pins.find_pin_factory(simulate=True, load=failing(LGPIO_DENIED))
    assert isinstance(factory, MockFactory) and why == "--simulate"


def test_real_pins_on_a_pi_are_used(pi):
    """[issue 19]: a library that loads is real pins: nothing simulated."""
    real = object()
    assert pins.find_pin_factory(load=lambda: (real, [LGPIO_DENIED])) == (real, None)


class LGPIOFactory:  # named as gpiozero's: pin_library reads the class name
    pass


class RPiGPIOFactory:
    pass


def test_the_pin_library_is_named_with_its_version(monkeypatch):
    """[issue 19]: doctor names the library in use; Raspberry Pi OS's rpi-lgpio
    (RPi.GPIO's calls on lgpio) is told apart from the original RPi.GPIO."""
    versions = {"lgpio": "0.2.2.0", "RPi.GPIO": "0.7.1"}
    monkeypatch.setattr(pins, "_version", versions.get)
    assert pins.pin_library(LGPIOFactory()) == "lgpio 0.2.2.0"
    assert pins.pin_library(RPiGPIOFactory()) == "RPi.GPIO 0.7.1"
    versions["rpi-lgpio"] = "0.4"
    assert pins.pin_library(RPiGPIOFactory()) == ("RPi.GPIO 0.4 (rpi-lgpio: RPi.GPIO's calls "
                                                  "on lgpio)")


def test_serve_on_a_pi_whose_pins_fail_says_why_in_one_line_and_exits_2(pi, tmp_path,
                                                                        monkeypatch, capsys):
    """[issue 19]: `werewolf serve` on such a Pi: one line, exit 2, no table."""
    monkeypatch.setattr(pins, "gpiozero_choice", failing(LGPIO_DENIED))
    monkeypatch.setattr(pins, "importable", lambda: ["lgpio"])
    monkeypatch.setattr(pins, "GPIOCHIP", tmp_path / "absent")
    monkeypatch.chdir(tmp_path)
    pm = pinmap.load(ROOT / "hardware" / "pinmap.toml")
    status = serve.run("127.0.0.1", 0, tmp_path / "data", "token", pinmap=pm)
    err = capsys.readouterr().err
    assert status == 2
    assert err == (f"werewolf serve: GPIO: no pin library opened the pins on this {PI4}: "
                   "lgpio: can not open gpiochip\n")


@pytest.fixture
def table(tmp_path: Path):  # type: ignore[no-untyped-def]
    store = Store(tmp_path / "games.sqlite3")
    yield Table(store)
    store.close()


def test_simulate_builds_the_virtual_table_on_a_pi(pi, table, monkeypatch):
    """[issue 19]: serve --simulate on a Pi: the table runs on mock pins."""
    monkeypatch.setattr(pins, "gpiozero_choice", failing(LGPIO_DENIED))
    hw = TableHardware(table, pinmap.load(ROOT / "hardware" / "pinmap.toml"), simulate=True)
    try:
        assert hw.simulated == "--simulate" and hw.display_simulated
        assert hw.describe().startswith("12 seat boxes simulated (--simulate)")
    finally:
        hw.close()


def test_real_pins_without_an_i2c_bus_refuse_the_dummy_display(table, tmp_path, monkeypatch):
    """[issue 19]: real pins and no /dev/i2c-N: the display would be faked,
    so the table refuses, naming the fix."""
    factory = MockFactory(pin_class=MockPWMPin)
    pm = pinmap.load(ROOT / "hardware" / "pinmap.toml")
    monkeypatch.setattr("companion.firmware.display.os.path.exists", lambda path: False)
    try:
        with pytest.raises(pins.HardwareUnavailable, match=r"^display: no I2C bus /dev/i2c-1 "
                           r"— turn I2C on \(sudo raspi-config nonint do_i2c 0\)"):
            TableHardware(table, pm, factory=factory, simulated=None)
    finally:
        factory.reset()
        factory.close()


def test_real_pins_with_a_missing_expander_name_it(table):
    """[issue 19]: the 18-seat map's expander not answering on the bus is one line."""
    factory = MockFactory(pin_class=MockPWMPin)
    pm = pinmap.load(ROOT / "hardware" / "pinmap-18.toml")
    try:
        with pytest.raises(pins.HardwareUnavailable, match=r"^expanders: Remote I/O error on "
                           r"I2C bus 1 at 0x20 "):
            TableHardware(table, pm, factory=factory, simulated=None, bus=FakeBus(set()))
    finally:
        factory.reset()
        factory.close()


# --- [issue 30 item 7] a Pi is a Pi, whatever says so -----------------------------------

@pytest.mark.parametrize("where", ["proc", "sys", "cpuinfo"])
def test_each_source_alone_says_this_is_a_pi(sources, where):
    """[issue 30 item 7]: /proc/device-tree/model, /sys/firmware/devicetree/
    base/model or /proc/cpuinfo's Model line: any one of them is enough."""
    said = sources.say(where)
    assert pins.find_board() == pins.Board(PI4, said)


def test_a_dangling_device_tree_leaves_cpuinfo_to_say_it(sources):
    """[issue 30 item 7] the issue's case: a container masks /sys/firmware, so
    /proc/device-tree points nowhere; the Pi's cpuinfo still names it."""
    assert sources.proc_model.parent.is_symlink() and not sources.proc_model.parent.exists()
    assert pins.find_board() is None  # nothing says Pi yet
    sources.say("cpuinfo")
    assert pins.find_board() == pins.Board(PI4, sources.cpuinfo)


def test_a_laptop_or_another_board_is_not_a_pi(sources):
    """[issue 30 item 7]: an x86 laptop's cpuinfo ("model : 142" is its CPU's)
    and another board's device tree say no Pi."""
    sources.cpuinfo.write_text(LAPTOP_CPUINFO)
    assert pins.find_board() is None
    sources.say("proc", "Pine64 RockPro64 v2.1")
    assert pins.find_board() is None
    assert pins.cpuinfo_model(sources.cpuinfo) is None


def _serve(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> int:
    """`werewolf serve` in this process, pins failing, its server returning at
    once (stopped) instead of serving."""
    from companion.hub.server import HubServer

    monkeypatch.setattr(pins, "gpiozero_choice", failing(LGPIO_DENIED))
    monkeypatch.setattr(pins, "importable", lambda: ["lgpio"])
    monkeypatch.setattr(pins, "GPIOCHIP", tmp_path / "absent")
    monkeypatch.setattr(HubServer, "run", lambda self, on_signal=None: None)
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    monkeypatch.chdir(tmp_path)
    pm = pinmap.load(ROOT / "hardware" / "pinmap.toml")
    return serve.run("127.0.0.1", 0, tmp_path / "data", "token", pinmap=pm)


@pytest.mark.parametrize("where", ["proc", "sys", "cpuinfo", "dangling"])
def test_serve_on_a_pi_named_by_any_source_exits_2_in_one_line(sources, where, tmp_path,
                                                              monkeypatch, capsys):
    """[issue 30 item 7]: whichever source says Pi ("dangling": /proc/device-tree
    points nowhere, cpuinfo says Pi), pins that fail are one line on stderr
    and exit 2, never a quiet simulation."""
    sources.say("cpuinfo" if where == "dangling" else where)
    status = _serve(tmp_path, monkeypatch)
    out, err = capsys.readouterr()
    assert status == 2
    assert err == (f"werewolf serve: GPIO: no pin library opened the pins on this {PI4}: "
                   "lgpio: can not open gpiochip\n")
    assert "simulated" not in out


def test_serve_on_a_laptop_simulates_says_so_and_exits_0(sources, tmp_path, monkeypatch,
                                                        capsys):
    """[issue 30 item 7]: where nothing says Pi (no device tree, a laptop's
    cpuinfo) the same failure is the virtual table, said on stdout, exit 0."""
    sources.cpuinfo.write_text(LAPTOP_CPUINFO)
    status = _serve(tmp_path, monkeypatch)
    out, err = capsys.readouterr()
    assert status == 0 and err == ""
    assert f"Table: 12 seat boxes simulated ({pins.NO_PINS})" in out


def test_only_simulate_simulates_on_a_pi_named_by_cpuinfo(sources):
    """[issue 30 item 7]: "only --simulate simulates"."""
    sources.say("cpuinfo")
    with pytest.raises(pins.HardwareUnavailable):
        pins.find_pin_factory(load=failing(LGPIO_DENIED))
    factory, why = pins.find_pin_factory(simulate=True, load=failing(LGPIO_DENIED))
    assert isinstance(factory, MockFactory) and why == "--simulate"
