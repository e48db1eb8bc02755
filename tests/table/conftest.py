"""The table's tests share the hub's fixtures: a fake clock, and a Table
over a real SQLite file (`db_path`) on that clock."""

from hub.conftest import FakeClock, clock, db_path, table

__all__ = ["FakeClock", "clock", "db_path", "table"]
