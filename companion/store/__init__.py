"""The durable game log: one SQLite file (see `store.log.Store`)."""

from .faults import StoreError, StoreFull, StoreGone, StoreReadOnly
from .log import SCHEMA_VERSION, GameRecord, Store, notices, storage_report

__all__ = ["SCHEMA_VERSION", "GameRecord", "Store", "StoreError", "StoreFull", "StoreGone",
           "StoreReadOnly", "notices", "storage_report"]
