"""PostgreSQL storage on an asyncpg pool, for several bot processes sharing one database.

The same numbered migrations and the same guarantees as SQLite (``bot.storage.base``): a save is one
``UPDATE … WHERE version = $expected`` whose trigger appends the log entry in the same statement.
Sessions read or written are kept in ``bot.storage.cache`` as with SQLite: a round trip costs ~0.3 ms, a
click would make about ten. A copy another process made stale only costs a refused write and a retry.
"""

from __future__ import annotations

import asyncio
import logging
import socket
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import asyncpg

from bot.storage.base import StorageError
from bot.storage.cache import SessionCache
from bot.storage.dialect import POSTGRESQL, REENCODE_LOG, Convert
from bot.storage.leases import LEASE_CHANNEL, LeaseTables, Listening
from bot.storage.migrations import POSTGRES_MIGRATIONS
from bot.storage.queries import SessionTables, legacy_log
from bot.storage.sql import bind

log = logging.getLogger(__name__)

CONNECT_TIMEOUT_S = 10.0
# Every process migrates under this lock, so two starting at once don't both apply a step.
MIGRATION_LOCK = 0x7AB1E70B
VERSION_TABLE = "CREATE TABLE IF NOT EXISTS schema_version (version integer NOT NULL)"


def redacted(url: str) -> str:
    """``url`` without its password, for messages."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    netloc = f"{parts.username}:***@{host}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit(parts._replace(netloc=netloc))


def without_password(url: str) -> str:
    """``url`` with no password in it, to print in a command (the tools read it from ``PGPASSWORD`` or
    ``~/.pgpass``)."""
    parts = urlsplit(url)
    pairs = parse_qsl(parts.query, keep_blank_values=True)
    if parts.password is None and all(k != "password" for k, _ in pairs):
        return url
    netloc = parts.netloc.rpartition("@")[2]
    if parts.username:
        netloc = f"{parts.username}@{netloc}"
    query = urlencode([(k, v) for k, v in pairs if k != "password"], safe="/")
    return f"{parts.scheme}://{netloc}{parts.path}" + (f"?{query}" if query else "")


def _advice(url: str, exc: BaseException) -> str:
    """One line: what went wrong reaching the server, and what to do."""
    where = f"DATABASE_URL {redacted(url)}"
    if isinstance(exc, asyncpg.InvalidPasswordError | asyncpg.InvalidAuthorizationSpecificationError):
        return f"{where}: the server refused the credentials ({exc}); check the user name and password."
    if isinstance(exc, asyncpg.InvalidCatalogNameError):
        return f"{where}: {exc}; create it (createdb) or name an existing database."
    if isinstance(exc, socket.gaierror):
        return f"{where}: unknown host ({exc.strerror}); check the host name."
    if isinstance(exc, TimeoutError):
        return f"{where}: no answer within {CONNECT_TIMEOUT_S:.0f} s; check the host, port and firewall."
    if isinstance(exc, OSError):
        reason = exc.strerror or str(exc)
        return f"{where}: can't reach the server ({reason}); check the host and port, and that PostgreSQL is running."
    return f"{where}: {type(exc).__name__}: {exc}"


async def probe(url: str, timeout: float = 5.0) -> str | None:
    """None if the database at ``url`` answers with a schema this version knows; otherwise why not (the health
    check: one connection, one read, no migration)."""
    try:
        conn = await asyncpg.connect(url, timeout=timeout)
    except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
        return _advice(url, exc)
    try:
        version = await conn.fetchval("SELECT max(version) FROM schema_version")
    except asyncpg.UndefinedTableError:
        version = None
    finally:
        await conn.close()
    known = len(POSTGRES_MIGRATIONS)
    if not version or not 0 < version <= known:
        return f"DATABASE_URL {redacted(url)}: schema {version or 0}, but this version knows 1 to {known}"
    return None


class _PostgresSql:
    """Statements on the pool (each on its own), or on one connection in a transaction."""

    def __init__(self, conn: Any) -> None:  # a Pool, or a connection (proxy) of one
        self.conn = conn

    async def fetch(self, sql: str, /, *args: Any, **named: Any) -> list[Any]:
        text, params = bind(POSTGRESQL, sql, args, named)
        return list(await self.conn.fetch(text, *params))

    async def execute(self, sql: str, /, *args: Any, **named: Any) -> int:
        text, params = bind(POSTGRESQL, sql, args, named)
        status: str = await self.conn.execute(text, *params)
        return int(status.rsplit(" ", 1)[-1]) if status[-1:].isdigit() else 0

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        await self.conn.executemany(bind(POSTGRESQL, sql, (), {})[0], rows)


class PostgresStore(SessionTables, LeaseTables):
    """A pool of asyncpg connections, migrated to the latest schema when opened; the queries are ``SessionTables``'."""

    dialect = POSTGRESQL
    duplicate = asyncpg.UniqueViolationError

    def __init__(self, url: str, pool_size: int = 10, *, synchronous_commit: bool = False) -> None:
        self.url = url
        self.pool_size = pool_size
        self.synchronous_commit = synchronous_commit
        """Wait for every commit to reach the server's disk. Off by default, the same trade as SQLite's
        ``synchronous=NORMAL``: a commit survives the bot being killed at any moment; only a crash of the
        database server or its machine could lose the last fraction of a second of commits (never
        corrupting anything). On, each write waits for an fsync (~3.5 ms here, 4 writes in a click)."""
        self._pool: asyncpg.Pool | None = None
        self.cache = SessionCache()

    @property
    def pool(self) -> asyncpg.Pool:
        """The open pool."""
        if self._pool is None:
            raise RuntimeError("database is not open")
        return self._pool

    async def open(self) -> None:
        """Connect and apply pending migrations; every way that fails ends in a one-line StorageError."""
        try:
            self._pool = await asyncpg.create_pool(
                self.url,
                min_size=min(2, self.pool_size),
                max_size=self.pool_size,
                timeout=CONNECT_TIMEOUT_S,
                server_settings={"synchronous_commit": "on" if self.synchronous_commit else "off"},
            )
        except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
            raise StorageError(_advice(self.url, exc)) from exc
        try:
            await self._migrate()
        except asyncpg.PostgresError as exc:  # e.g. a user without the right to create tables
            await self.close()
            raise StorageError(
                f"DATABASE_URL {redacted(self.url)}: can't bring the schema up to date ({exc})."
            ) from exc
        except BaseException:
            await self.close()
            raise

    async def close(self) -> None:
        """Close the pool, if open."""
        if self._pool is not None:
            pool, self._pool = self._pool, None
            try:
                await asyncio.wait_for(pool.close(), CONNECT_TIMEOUT_S)
            except TimeoutError:
                pool.terminate()

    async def _migrate(self) -> None:
        async with self.pool.acquire() as conn, conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
            await conn.execute(VERSION_TABLE)
            current = await conn.fetchval("SELECT max(version) FROM schema_version") or 0
            if current > len(POSTGRES_MIGRATIONS):
                raise StorageError(
                    f"DATABASE_URL {redacted(self.url)}: the database was made by a newer version of the bot "
                    f"(schema {current}, this version knows {len(POSTGRES_MIGRATIONS)}); upgrade the bot."
                )
            # PostgreSQL's DDL is transactional: every pending step is applied, or none is.
            for number, statements in enumerate(POSTGRES_MIGRATIONS[current:], start=current + 1):
                for statement in statements:
                    if isinstance(statement, Convert):
                        assert statement == REENCODE_LOG, statement
                        async for records in legacy_log(_PostgresSql(conn)):
                            columns = ["session_id", "seq", "entry"]
                            await conn.copy_records_to_table("session_log", records=records, columns=columns)
                    else:
                        await conn.execute(statement)
                await conn.execute("DELETE FROM schema_version")
                await conn.execute("INSERT INTO schema_version (version) VALUES ($1)", number)
                log.info("Applied migration %d", number)

    def _sql(self) -> _PostgresSql:
        return _PostgresSql(self.pool)

    @asynccontextmanager
    async def _sql_transaction(self, *, quick: bool = False) -> AsyncIterator[_PostgresSql]:
        """A transaction on a connection of the pool (a quick one is no different)."""
        async with self.pool.acquire() as conn, conn.transaction():
            yield _PostgresSql(conn)

    async def listen(self, heard: Callable[[str], None]) -> Listening:
        """Hear, on a connection of its own, the name of each process whose shard leases changed
        (``bot.storage.leases``)."""
        conn = await asyncpg.connect(self.url, timeout=CONNECT_TIMEOUT_S)
        await conn.add_listener(LEASE_CHANNEL, lambda _conn, _pid, _channel, owner: heard(owner))
        return conn

    async def schema_version(self) -> int:
        """The number of the last migration applied."""
        return int(await self.pool.fetchval("SELECT max(version) FROM schema_version") or 0)
