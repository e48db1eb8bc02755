"""What lets a page follow the game without a reload [issue 18, "The TV and
the tablet follow the game"]: every view — the GM's, each seat's, the
public one — names its `game`, its `language` and its `boot` (how many hub
starts resumed the game), so web/static/stream.js can take a view of a
newer game or a restarted hub even when its seq is lower."""

from __future__ import annotations

from pathlib import Path

from companion.store import Store
from companion.table import Table

PLAYERS = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal"]


def _views(table: Table) -> list[dict]:
    return [table.public(), dict(table.gm_view()), dict(table.seat_view(0))]


def test_every_view_names_its_game_language_and_boot(tmp_path: Path) -> None:
    table = Table(Store(tmp_path / "g.sqlite3"))
    table.create({"ruleset": "millers-hollow", "seed": 1, "players": PLAYERS, "language": "ja"})
    for view in _views(table):
        assert view["game"] == 1 and view["language"] == "ja", view.get("game")
        assert view["boot"] == 0  # dealt by this hub
    table.store.close()


def test_a_restarted_hub_has_a_later_boot(tmp_path: Path) -> None:
    first = Table(Store(tmp_path / "g.sqlite3"))
    first.create({"ruleset": "millers-hollow", "seed": 1, "players": PLAYERS})
    before = first.public()
    first.store.close()
    again = Table(Store(tmp_path / "g.sqlite3"))
    again.resume()
    after = again.public()
    assert after["game"] == before["game"] and after["boot"] > before["boot"]
    again.create({"ruleset": "millers-hollow", "seed": 2, "players": PLAYERS})
    new = again.public()
    # the new game's seq is lower than the resumed one's: the game tells it apart
    assert new["game"] != after["game"] and new["seq"] < after["seq"]
    again.store.close()
