"""``python -m bot.health``, the offline check of the database: silent and 0 when it reads, else one line."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

from bot.health import check
from bot.storage.migrations import SQLITE_MIGRATIONS
from bot.storage.postgres import PostgresStore
from bot.storage.sqlite import SqliteStore
from tests.bot_process import REPO
from tests.databases import postgres_database


def made_by_the_bot(path: Path) -> Path:
    """A database opened, migrated and closed by the bot's own store."""

    async def make() -> None:
        store = SqliteStore(path)
        await store.open()
        await store.close()

    asyncio.run(make())
    return path


def health(cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """Run the check as Docker would: a new process, the container's environment."""
    clean = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "DATABASE_PATH", "DATABASE_URL")}
    clean |= {"PYTHONPATH": str(REPO), "DISCORD_TOKEN": "t"} | env
    return subprocess.run(
        [sys.executable, "-m", "bot.health"], cwd=cwd, env=clean, capture_output=True, text=True, timeout=30
    )


def test_a_database_the_bot_made_is_healthy(tmp_path: Path) -> None:
    db = made_by_the_bot(tmp_path / "bot.sqlite3")
    assert check(db) is None


def test_a_missing_file_is_reported_and_not_created(tmp_path: Path) -> None:
    db = tmp_path / "gone.sqlite3"
    assert check(db) == f"DATABASE_PATH {db}: no such file (is the volume mounted?)"
    assert not db.exists()


def test_a_file_that_is_not_a_database(tmp_path: Path) -> None:
    db = tmp_path / "bot.sqlite3"
    db.write_bytes(b"garbage" * 100)
    assert check(db) == f"DATABASE_PATH {db}: file is not a database"


def test_a_schema_this_version_does_not_know(tmp_path: Path) -> None:
    db = made_by_the_bot(tmp_path / "bot.sqlite3")
    conn = sqlite3.connect(db)
    conn.execute(f"PRAGMA user_version = {len(SQLITE_MIGRATIONS) + 1}")
    conn.close()
    assert check(db) == (
        f"DATABASE_PATH {db}: schema {len(SQLITE_MIGRATIONS) + 1}, but this version knows 1 to {len(SQLITE_MIGRATIONS)}"
    )


def test_the_command_exit_status_and_line(tmp_path: Path) -> None:
    db = made_by_the_bot(tmp_path / "bot.sqlite3")
    healthy = health(tmp_path, DATABASE_PATH=str(db))
    assert (healthy.returncode, healthy.stdout, healthy.stderr) == (0, "", "")
    missing = health(tmp_path, DATABASE_PATH=str(tmp_path / "gone.sqlite3"))
    assert missing.returncode == 1
    assert (
        missing.stderr
        == f"Unhealthy: DATABASE_PATH {tmp_path / 'gone.sqlite3'}: no such file (is the volume mounted?)\n"
    )


def test_postgresql_healthy_then_unreachable(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with postgres_database() as url:
            store = PostgresStore(url)
            await store.open()
            await store.close()
            healthy = await asyncio.to_thread(health, tmp_path, DATABASE_URL=url)
            assert (healthy.returncode, healthy.stderr) == (0, "")
            empty = url.rsplit("/", 1)[0] + "/postgres"
            unknown = await asyncio.to_thread(health, tmp_path, DATABASE_URL=empty)
            assert unknown.returncode == 1 and "schema 0, but this version knows 1 to" in unknown.stderr

    asyncio.run(scenario())
    down = health(tmp_path, DATABASE_URL="postgresql://bot:pw@127.0.0.1:1/bot")
    assert down.returncode == 1 and down.stderr.startswith(
        "Unhealthy: DATABASE_URL postgresql://bot:***@127.0.0.1:1/bot"
    )
    assert "can't reach the server" in down.stderr
