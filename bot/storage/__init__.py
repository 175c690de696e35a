"""Storage: one interface (``Store``), SQLite as the embedded backend. All SQL lives in this package."""

from __future__ import annotations

from pathlib import Path

from bot.storage.base import Duplicate, StorageError, Store
from bot.storage.sqlite import SqliteStore


def open_store(database_path: Path) -> Store:
    """The store for the configured database (not yet opened)."""
    return SqliteStore(database_path)


__all__ = ["Duplicate", "SqliteStore", "StorageError", "Store", "open_store"]
