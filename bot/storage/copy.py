"""Copying a SQLite database into an empty PostgreSQL one, row for row, ids kept (``python -m bot.migrate``)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.storage.base import StorageError
from bot.storage.postgres import PostgresStore, redacted
from bot.storage.sqlite import SqliteStore

TABLES = (
    "guild_settings",
    "sessions",
    "session_events",
    "session_checkpoints",
    "saved_rolls",
    "dice_boards",
    "secret_rolls",
    "pushable_rolls",
    "luck_dice",
    "luck_faces",
    "luck_turns",
    "luck_turn_totals",
    "luck_totals",
    "luck_streaks",
    "luck_wins",
    "luck_members",
    "luck_pending",
    "ratings",
    "luck_journal",
    "member_languages",
)
"""In the order they are copied (the log refers to its session). ``ratings_pending`` is not copied: a new database
holds its row (migration 12), which goes if the source's recompute has run."""
NUMBERED = ("sessions", "dice_boards", "secret_rolls", "pushable_rolls", "luck_journal")
"""Tables whose ids the database numbers."""
BATCH = 1_000
"""Rows held in memory at once: a table is streamed from SQLite to PostgreSQL, never read whole."""


@dataclass(frozen=True)
class Counts:
    """Rows per table, and sessions per status: what must match on both sides."""

    tables: dict[str, int]
    statuses: dict[str, int]

    def describe(self) -> str:
        """``3 guild_settings, 4 sessions, 65 session_events``."""
        return ", ".join(f"{n} {table}" for table, n in self.tables.items())


async def counts_sqlite(store: SqliteStore) -> Counts:
    """What the SQLite database holds."""
    tables = {t: int((await store.conn.execute_fetchall(f"SELECT COUNT(*) FROM {t}"))[0][0]) for t in TABLES}  # type: ignore[index]
    rows = await store.conn.execute_fetchall("SELECT status, COUNT(*) FROM sessions GROUP BY status")
    return Counts(tables, {str(r[0]): int(r[1]) for r in rows})


async def counts_postgres(store: PostgresStore) -> Counts:
    """What the PostgreSQL database holds."""
    tables = {t: int(await store.pool.fetchval(f"SELECT COUNT(*) FROM {t}")) for t in TABLES}
    rows = await store.pool.fetch("SELECT status, COUNT(*) FROM sessions GROUP BY status")
    return Counts(tables, {str(r[0]): int(r[1]) for r in rows})


async def copy_sqlite_to_postgres(source: SqliteStore, target: PostgresStore, batch: int = BATCH) -> Counts:
    """Copy every row of ``source`` into ``target`` (both open and migrated to the same schema) in one
    transaction, ``batch`` rows at a time, and return what was copied. Refuses a target that already holds
    anything."""
    present = await counts_postgres(target)
    if any(present.tables.values()):
        raise StorageError(
            f"DATABASE_URL {redacted(target.url)} already holds {present.describe()}; migrate into an empty database."
        )
    async with target.pool.acquire() as conn, conn.transaction():
        for table in TABLES:
            async with source.conn.execute(f"SELECT * FROM {table}") as cursor:
                columns = [d[0] for d in cursor.description]
                # SQLite keeps a boolean as 0 or 1; PostgreSQL's COPY wants a bool.
                flags = {
                    r["column_name"]
                    for r in await conn.fetch(
                        "SELECT column_name FROM information_schema.columns "
                        "WHERE table_name = $1 AND data_type = 'boolean'",
                        table,
                    )
                }
                while rows := await cursor.fetchmany(batch):
                    records = [
                        tuple(bool(v) if c in flags and v is not None else v for c, v in zip(columns, r, strict=True))
                        for r in rows
                    ]
                    await conn.copy_records_to_table(table, records=records, columns=columns)
        pending = await source.conn.execute_fetchall("SELECT id FROM ratings_pending")
        if not pending:  # the source's ratings are computed: the target's are those, not to be recomputed
            await conn.execute("DELETE FROM ratings_pending")
        # Ids were copied as they were: new rows must be numbered after them.
        for table in NUMBERED:
            await conn.execute(
                f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), COALESCE(MAX(id), 0) + 1, false) FROM {table}"
            )
    return await counts_sqlite(source)
