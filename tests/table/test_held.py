"""[issue 45] `Showing` is an object the table holds, not a class it is
made of, and the taps on its time are its `Taps`: the table answers each
read and tap through them (companion/table/held.py), so a caller still asks
the table, and every answer is the held object's."""

from __future__ import annotations

from hub.conftest import jp9

from companion.table import Table
from companion.table.showing import Showing
from companion.table.taps import Taps


def test_showing_and_taps_are_held_not_inherited(table: Table) -> None:
    """[issue 45] the table is not a Showing; it holds one, and one Taps."""
    assert not issubclass(Table, Showing) and not issubclass(Table, Taps)
    assert isinstance(table.showing, Showing) and table.showing.table is table
    assert isinstance(table.taps, Taps) and table.taps.table is table


def test_the_tables_reads_are_its_showings(table: Table) -> None:
    """[issue 45] `table.public()` and the others are the held Showing's
    (the same bound methods), and its properties its values."""
    table.create(jp9())
    assert table.public == table.showing.public and table.seat_view == table.showing.seat_view
    assert table.timer == table.taps.timer and table.pass_turn == table.taps.pass_turn
    assert table.public() == table.showing.public()
    assert (table.language, table.buttons, table.ended) == ("en", "phones", False)
    table.setup = {**table.setup, "language": "ja"}
    assert table.language == table.showing.language == "ja"
