"""The durable game log: one SQLite file (see `store.log.Store`)."""

from .faults import StoreError, StoreFull, StoreGone
from .log import SCHEMA_VERSION, GameRecord, Store

__all__ = ["SCHEMA_VERSION", "GameRecord", "Store", "StoreError", "StoreFull", "StoreGone"]
