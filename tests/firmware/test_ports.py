"""The firmware's seam with the table is typed [issue 15 §8]: the real Table
answers the firmware's Protocols (firmware/ports.py) structurally, a table
missing one of their methods is refused, and mypy follows a press from the
button's callback through the bridge to `act_presses` and the public view
back to each LED with no `Any` on the way.

mypy runs once for every check here (one process, its cache kept in pytest's
cache folder): a few seconds cold, under one warm.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from slowness import wait_s

ROOT = Path(__file__).resolve().parents[2]

#: the firmware's modules on the press's path: no Any anywhere in them (their
#: first line sets mypy's disallow-any-expr, so plain `mypy` holds them to it too)
NO_ANY = ["firmware/ports.py", "firmware/bridge.py"]
#: the rest of the press's and the LED's way, and the display's device: --strict clean
#: (gpiozero and luma have no type hints: their objects are typed where they
#: enter, `seats.Switch`, `seats.Led`)
STRICT = ["firmware/seats.py", "firmware/hardware.py", "firmware/device.py",
          "firmware/expander.py"]
INLINE = "# mypy: disallow-any-expr, disallow-any-generics, disallow-untyped-defs"

SNIPPETS = {
    # serve.py's wiring, and the display's stream, on the real table
    "real_table": """
        from companion.table import Table
        from firmware.bridge import SeatBridge
        from firmware.device import Display
        from firmware.hardware import TableHardware
        from firmware.pinmap import PinMap
        from firmware.ports import PressTable
        from firmware.seats import SeatBoxes

        def presses(table: Table) -> PressTable:
            return table

        def wire(table: Table, pinmap: PinMap, boxes: SeatBoxes, shown: Display) -> None:
            TableHardware(table, pinmap, "http://hub/gm")
            SeatBridge(table, boxes)
            shown.follow(table)
        """,
    # a table that forgot act_presses, and one whose act_presses takes seats only
    "wrong_table": """
        import threading
        from collections.abc import Callable

        from firmware.bridge import SeatBridge
        from firmware.seats import SeatBoxes

        class NoPresses:
            def __init__(self) -> None:
                self.lock = threading.RLock()
                self.public_hooks: list[Callable[[dict[str, object]], None]] = []

            def clock(self) -> float:
                return 0.0

            def public(self) -> dict[str, object]:
                return {}

        class SeatsOnly(NoPresses):
            def act_presses(self, presses: list[int]) -> list[str]:
                return []

        def wire(boxes: SeatBoxes) -> None:
            SeatBridge(NoPresses(), boxes)
            SeatBridge(SeatsOnly(), boxes)
        """,
    # a press, hop by hop: the callback gpiozero calls, the queue, the bridge,
    # the table, the public view, the LED
    "press_path": """
        from firmware.bridge import SeatBridge, lights
        from firmware.seats import SeatBoxes

        def press_to_led(boxes: SeatBoxes, bridge: SeatBridge) -> None:
            reveal_type(boxes[1].button.when_pressed)
            reveal_type(boxes._callback(1))
            reveal_type(boxes.presses())
            reveal_type(bridge.handle(boxes.presses()))
            reveal_type(bridge.table.act_presses)
            reveal_type(bridge.table.public_hooks)
            reveal_type(bridge.table.public())
            reveal_type(lights(bridge.table.public()))
            reveal_type(boxes[1].led.on)
        """,
}


@pytest.fixture(scope="module")
def mypy(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> dict:
    """mypy --strict over the snippets (with no Any), NO_ANY and STRICT: each
    file's output lines."""
    folder = tmp_path_factory.mktemp("snippets")
    files = []
    for name, code in SNIPPETS.items():
        path = folder / f"{name}.py"
        path.write_text(INLINE + "\n" + textwrap.dedent(code), encoding="utf-8")
        files.append(str(path))
    kept = getattr(request.config, "cache", None)  # None under -p no:cacheprovider
    cache = kept.mkdir("mypy-ports") if kept is not None else folder
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict",
         "--follow-imports=silent", "--no-error-summary", "--show-error-codes",
         "--cache-dir", str(cache), *NO_ANY, *STRICT, *files],
        cwd=ROOT, capture_output=True, text=True, timeout=wait_s(300))
    assert done.returncode in (0, 1), done.stderr  # 2: mypy itself failed
    out: dict[str, list[str]] = {name: [] for name in [*SNIPPETS, *NO_ANY, *STRICT]}
    for line in done.stdout.splitlines():
        path = line.split(":", 1)[0]  # a cached result keeps the folder of its first run
        name = path if path in [*NO_ANY, *STRICT] else Path(path).stem
        out.setdefault(name, []).append(line)
    return out


def test_the_real_table_answers_the_firmwares_protocols(mypy):
    """[issue 15 §8] companion.table.Table satisfies PressTable and TablePort
    structurally: serve.py's TableHardware(table, ...), the bridge and the
    display's follow() type-check with the real table, and firmware imports
    nothing from companion.table to get there."""
    assert mypy["real_table"] == []
    for path in (ROOT / "firmware").glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imported = [node.module or "" for node in ast.walk(tree)
                    if isinstance(node, ast.ImportFrom)]
        imported += [a.name for node in ast.walk(tree) if isinstance(node, ast.Import)
                     for a in node.names]
        assert not [m for m in imported if m.startswith("companion.table")], path.name


def test_a_table_without_act_presses_is_refused(mypy):
    """[issue 15 §8] A wrong object handed to the bridge is a type error: one
    that lacks act_presses, one whose act_presses takes the wrong presses."""
    errors = [line for line in mypy["wrong_table"] if ": error:" in line]
    assert len(errors) == 2, mypy["wrong_table"]
    assert all('to "SeatBridge" has incompatible type' in e for e in errors)
    assert any(line.endswith("note:     act_presses") for line in mypy["wrong_table"])
    assert any("list[int]" in line for line in mypy["wrong_table"])


def test_a_press_is_typed_from_the_button_to_the_led(mypy):
    """[issue 15 §8] mypy follows a press with no Any: the callback gpiozero
    calls, the batch of Press, the bridge's outcomes, the table's
    act_presses and public view, the LED states and the LED; and the
    firmware's seam modules hold no Any expression at all."""
    revealed = [re.sub(r'^.*Revealed type is "(.*)"$', r"\1", line)
                for line in mypy["press_path"] if "Revealed type" in line]
    assert revealed == [
        "(def ()) | None",
        "def ()",
        "list[tuple[int, int, fallback=firmware.seats.Press]]",
        "list[str]",
        "def (presses: list[tuple[int, float]]) -> list[str]",
        "list[def (dict[str, object])]",
        "dict[str, object]",
        "dict[int, str]",
        "def ()",
    ], mypy["press_path"]
    assert not any("Any" in r for r in revealed)
    assert [line for line in mypy["press_path"] if ": error:" in line] == []
    for path in NO_ANY:
        assert mypy[path] == [], path
        first = (ROOT / path).read_text(encoding="utf-8").splitlines()[0]
        assert first == INLINE, path
    assert set(mypy) == {*SNIPPETS, *NO_ANY, *STRICT}, mypy  # no other file said anything


def test_the_seat_boxes_and_the_display_device_are_strictly_typed(mypy):
    """[issue 15 §8] seats, hardware, device and expander pass mypy --strict."""
    for path in STRICT:
        assert mypy[path] == [], path
