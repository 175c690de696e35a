"""``python -m bot.migrate``: copy the SQLite database (``DATABASE_PATH``) into PostgreSQL (``DATABASE_URL``).

Stop the bot first. The target must be empty (the migrations create its schema). After copying, the
row counts of both sides are compared and every session's log is replayed on the target, with the
game rules of the configured extensions, to the state stored there (but for ended games whose logs the
servers' ``keep_logs_days`` cleared). Tables are streamed a batch at a time, so memory stays flat however
big the database is. Any difference, or any problem on
the way, ends with one line and a non-zero exit; the target is then left as it was (one transaction)
or holds a copy that failed the check, to be dropped and tried again.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from collections.abc import Iterable
from pathlib import Path

from pydantic import ValidationError

from bot.__main__ import EXIT_SETUP, EXIT_UNEXPECTED
from bot.registry import Registry
from bot.settings import Settings, config_problem
from bot.storage import PostgresStore, SqliteStore, StorageError, is_postgres_url
from bot.storage.copy import copy_sqlite_to_postgres, counts_postgres
from bot.storage.queries import SessionTables
from bot.verify import check_session, game_rules


class MigrationFailed(Exception):
    """The copy does not match the source; ``str`` says where."""


async def verify_replays(store: SessionTables, registry: Registry, ids: Iterable[int]) -> int:
    """Replay the log of every started session of ``ids`` on ``store`` (``bot.verify``); the number replayed. Raises
    MigrationFailed at the first that doesn't lead to its stored state."""
    replayed = 0
    for session_id in ids:
        session = await store.session(session_id)
        assert session is not None
        checked = await check_session(store, registry, session)
        if checked.problem is not None:
            raise MigrationFailed(f"session {session_id}: {checked.problem}")
        replayed += checked.entries is not None
    return replayed


async def migrate(source_path: Path, target_url: str, registry: Registry) -> str:
    """Copy, compare counts, replay; the summary line."""
    if not await asyncio.to_thread(source_path.is_file):
        raise StorageError(f"DATABASE_PATH {source_path}: no such file to migrate from.")
    source, target = SqliteStore(source_path), PostgresStore(target_url)
    await source.open()
    try:
        await target.open()
        try:
            copied = await copy_sqlite_to_postgres(source, target)
            landed = await counts_postgres(target)
            if landed != copied:
                raise MigrationFailed(f"row counts differ: SQLite {copied}, PostgreSQL {landed}")
            ids = [int(r["id"]) for r in await target.pool.fetch("SELECT id FROM sessions ORDER BY id")]
            replayed = await verify_replays(target, registry, ids)
        finally:
            await target.close()
    finally:
        await source.close()
    return f"Copied {copied.describe()}; counts match; {replayed} game logs replay to their stored state."


def main(argv: list[str] | None = None) -> int:
    """Entry point: one line on success, one line on failure."""
    parser = argparse.ArgumentParser(prog="python -m bot.migrate", description=__doc__.splitlines()[0])
    parser.add_argument("--from", dest="source", type=Path, help="SQLite file (default: DATABASE_PATH)")
    parser.add_argument("--to", dest="target", help="postgresql://… (default: DATABASE_URL)")
    args = parser.parse_args(argv)
    # Errors only: discord.py warns about voice support when the bot object is made just to read its games.
    logging.basicConfig(level=logging.ERROR, format="%(levelname)s %(name)s: %(message)s")
    try:
        # The token is not needed to copy a database; the rest of the settings (extensions) are.
        settings = Settings(discord_token="unused")
    except ValidationError as exc:
        return _fail(config_problem(exc))
    source = args.source or settings.database_path
    target = args.target or settings.database_url
    if not target or not is_postgres_url(target):
        return _fail("Set DATABASE_URL (or --to) to the postgresql://… database to copy into.")
    try:
        summary = asyncio.run(_run(settings, source, target))
    except (StorageError, MigrationFailed) as exc:
        return _fail(f"Migration failed: {exc}")
    except Exception as exc:
        return _fail(f"Migration failed unexpectedly: {type(exc).__name__}: {exc}", EXIT_UNEXPECTED)
    print(summary)
    return 0


async def _run(settings: Settings, source: Path, target: str) -> str:
    return await migrate(source, target, await game_rules(settings))


def _fail(line: str, status: int = EXIT_SETUP) -> int:
    print(" ".join(line.split()), file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main())
