"""Databases for tests: a SQLite file, or a PostgreSQL database created on the local server and dropped after.

``TEST_DATABASE_URL`` names a database on the server to connect to for creating the others (default: the
local server as user postgres). In CI (``CI`` set, as ``.ci/run`` does) PostgreSQL tests never skip: a server
that can't be reached fails them. Elsewhere they skip with the reason, so a machine without PostgreSQL can
still run the rest.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import asyncpg
import pytest

from bot.storage import Store, open_store

DEFAULT_ADMIN_URL = "postgresql://postgres@127.0.0.1:5432/postgres"
BACKENDS = ("sqlite", "postgresql")


def admin_url() -> str:
    """Where to connect to create and drop test databases."""
    return os.environ.get("TEST_DATABASE_URL") or DEFAULT_ADMIN_URL


@dataclass(frozen=True)
class Database:
    """One test's database: the SQLite file at ``path``, or the PostgreSQL database at ``url``."""

    path: Path
    url: str | None = None

    @property
    def backend(self) -> str:
        """ "sqlite" or "postgresql"."""
        return "sqlite" if self.url is None else "postgresql"

    def store(self) -> Store:
        """A store on this database (not yet opened)."""
        return open_store(self.path, self.url)

    def env(self) -> dict[str, str | None]:
        """The environment a bot process needs to use this database."""
        return {"DATABASE_PATH": str(self.path), "DATABASE_URL": self.url}


@contextlib.asynccontextmanager
async def postgres_database() -> AsyncIterator[str]:
    """A fresh, empty PostgreSQL database for one test (its URL); dropped afterwards, whatever is connected."""
    name = f"test_{secrets.token_hex(6)}"
    try:
        admin = await asyncpg.connect(admin_url(), timeout=10)
    except (OSError, TimeoutError, asyncpg.PostgresError) as exc:
        if os.environ.get("CI"):
            raise  # CI runs on a machine with the server: these tests must run there
        pytest.skip(f"no PostgreSQL server at TEST_DATABASE_URL {admin_url()} ({exc}); CI runs these tests")
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
        try:
            yield urlunsplit(urlsplit(admin_url())._replace(path=f"/{name}"))
        finally:
            await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await admin.close()


@contextlib.asynccontextmanager
async def database(backend: str, folder: Path) -> AsyncIterator[Database]:
    """A database of ``backend`` for one test; a SQLite one is a file in ``folder``."""
    path = folder / "bot.sqlite3"
    if backend == "sqlite":
        yield Database(path)
        return
    async with postgres_database() as url:
        yield Database(path, url)


def on_database(make_bot: Callable[..., Awaitable[Any]], db: Database) -> Callable[..., Awaitable[Any]]:
    """``make_bot`` whose bots all store into ``db`` (for a module's ``make_bot`` override running every test on
    both backends). A bot made again after closing the last one is a restart on the same database."""

    async def factory(*args: Any, **options: Any) -> Any:
        options.setdefault("database_url", db.url)
        return await make_bot(*args, **options)

    return factory


def with_user(url: str, user: str, password: str | None = None) -> str:
    """``url`` connecting as ``user`` (with ``password``) instead."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    netloc = user + (f":{password}" if password else "") + f"@{host}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit(parts._replace(netloc=netloc))
