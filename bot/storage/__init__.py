"""Storage: one interface (``Store``); SQLite as the embedded backend, PostgreSQL for several processes.
All SQL lives in this package."""

from __future__ import annotations

from pathlib import Path

from bot.storage.base import Duplicate, StorageError, Store
from bot.storage.postgres import PostgresStore
from bot.storage.sqlite import SqliteStore

POSTGRES_SCHEMES = ("postgresql", "postgres")


def is_postgres_url(url: str) -> bool:
    """Whether ``url`` names a PostgreSQL database (``postgresql://…`` or ``postgres://…``)."""
    return url.split("://", 1)[0].lower() in POSTGRES_SCHEMES and "://" in url


def open_store(
    database_path: Path, database_url: str | None = None, pool_size: int = 10, *, synchronous_commit: bool = False
) -> Store:
    """The store for the configured database (not yet opened): PostgreSQL if ``database_url`` is set, else
    the SQLite file at ``database_path``."""
    if database_url:
        return PostgresStore(database_url, pool_size, synchronous_commit=synchronous_commit)
    return SqliteStore(database_path)


__all__ = ["Duplicate", "PostgresStore", "SqliteStore", "StorageError", "Store", "is_postgres_url", "open_store"]
