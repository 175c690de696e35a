"""SQLite storage (WAL) with numbered migrations applied at startup."""

from __future__ import annotations

import logging
from pathlib import Path

import aiosqlite

log = logging.getLogger(__name__)

# Each migration is a list of statements applied in one transaction; its number is its position
# (1-based), stored in SQLite's user_version. Never edit a released migration: add a new one.
MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (
        """CREATE TABLE guild_settings (
            guild_id INTEGER PRIMARY KEY,
            data TEXT NOT NULL DEFAULT '{}'
        )""",
    ),
)


class Database:
    """One aiosqlite connection, opened in WAL mode and migrated to the latest schema."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._conn: aiosqlite.Connection | None = None

    @property
    def conn(self) -> aiosqlite.Connection:
        if self._conn is None:
            raise RuntimeError("database is not open")
        return self._conn

    async def open(self) -> None:
        """Open the file (creating its folder), switch to WAL, apply pending migrations."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._conn = await aiosqlite.connect(self.path, isolation_level=None)
        self._conn.row_factory = aiosqlite.Row
        await self._conn.execute("PRAGMA journal_mode=WAL")
        await self._conn.execute("PRAGMA synchronous=NORMAL")
        await self._conn.execute("PRAGMA foreign_keys=ON")
        await self._conn.execute("PRAGMA busy_timeout=5000")
        await self._migrate()

    async def _migrate(self) -> None:
        async with self.conn.execute("PRAGMA user_version") as cur:
            row = await cur.fetchone()
        current = row[0] if row else 0
        for number, sql in enumerate(MIGRATIONS[current:], start=current + 1):
            await self.conn.execute("BEGIN IMMEDIATE")
            try:
                for statement in sql:
                    await self.conn.execute(statement)
                await self.conn.execute(f"PRAGMA user_version = {number}")
                await self.conn.execute("COMMIT")
            except BaseException:
                await self.conn.execute("ROLLBACK")
                raise
            log.info("Applied migration %d", number)

    async def close(self) -> None:
        """Close the connection if open."""
        if self._conn is not None:
            await self._conn.close()
            self._conn = None
