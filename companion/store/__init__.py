"""The durable game log: one SQLite file (see `store.log.Store`)."""

from .faults import StoreBusy, StoreError, StoreFull, StoreGone, StoreReadOnly
from .log import SCHEMA_VERSION, GameRecord, Store, notices, storage_report

__all__ = ["SCHEMA_VERSION", "GameRecord", "Store", "StoreBusy", "StoreError", "StoreFull",
           "StoreGone",
           "StoreReadOnly", "notices", "storage_report"]
