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
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import asyncpg

from bot.models import Board, Deadline, GuildSettings, LogEntry, Scope, Session, Status
from bot.shards import ALL, Shards
from bot.storage.base import ATTENTION_BATCH, DUE_BATCH, Duplicate, StorageError
from bot.storage.cache import SessionCache
from bot.storage.dice import DiceTables, commit_counts, numbered
from bot.storage.migrations import ATTENTION, POSTGRES_MIGRATIONS, REENCODE_LOG, Convert
from bot.storage.rows import (
    DAY_S,
    ENDED,
    EVENT_COLUMNS,
    LEGACY_EVENT_COLUMNS,
    LIVE,
    SELECT,
    SHARD_OF,
    deadline_values,
    encoded_entry,
    entry_from_row,
    legacy_entry,
    news_seq,
    session_from_row,
    session_values,
)

log = logging.getLogger(__name__)

CONNECT_TIMEOUT_S = 10.0
# Every process migrates under this lock, so two starting at once don't both apply a step.
MIGRATION_LOCK = 0x7AB1E70B
VERSION_TABLE = "CREATE TABLE IF NOT EXISTS schema_version (version integer NOT NULL)"
BATCH = 2_000
"""Rows a migration's conversion holds at once."""


def redacted(url: str) -> str:
    """``url`` without its password, for messages."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    netloc = f"{parts.username}:***@{host}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit(parts._replace(netloc=netloc))


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


def _owned(shards: Shards, first: int) -> tuple[str, list[Any]]:
    """``AND`` the session's server is in one of ``shards``; parameters numbered from ``first``."""
    if shards.everything:
        return "", []
    return f" AND {SHARD_OF} % ${first} = ANY(${first + 1}::int[])", [shards.count, list(shards.ids)]


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
    """The dice tables' adapter on a pool or on one connection in a transaction."""

    def __init__(self, conn: Any) -> None:  # a Pool, or a connection (proxy) of one
        self.conn = conn

    async def fetch(self, sql: str, *params: Any) -> list[Any]:
        return list(await self.conn.fetch(numbered(sql), *params))

    async def execute(self, sql: str, *params: Any) -> int:
        status: str = await self.conn.execute(numbered(sql), *params)
        return int(status.rsplit(" ", 1)[-1]) if status[-1:].isdigit() else 0


async def _convert(conn: asyncpg.pool.PoolConnectionProxy[Any], step: Convert) -> None:
    """A migration's conversion, in its transaction: the JSON log re-encoded, ``BATCH`` rows at a time."""
    assert step == REENCODE_LOG, step
    after: tuple[int, int] = (-1, -1)
    while True:
        rows = await conn.fetch(
            f"SELECT {LEGACY_EVENT_COLUMNS} FROM session_events WHERE (session_id, seq) > ($1, $2) "
            "ORDER BY session_id, seq LIMIT $3",
            *after,
            BATCH,
        )
        if not rows:
            return
        records = [(sid, row["seq"], entry) for row in rows for sid, entry in [legacy_entry(row)]]
        await conn.copy_records_to_table("session_log", records=records, columns=["session_id", "seq", "entry"])
        after = (rows[-1]["session_id"], rows[-1]["seq"])


class PostgresStore(DiceTables):
    """A pool of asyncpg connections, migrated to the latest schema when opened."""

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
                        await _convert(conn, statement)
                    else:
                        await conn.execute(statement)
                await conn.execute("DELETE FROM schema_version")
                await conn.execute("INSERT INTO schema_version (version) VALUES ($1)", number)
                log.info("Applied migration %d", number)

    def _sql(self) -> _PostgresSql:
        return _PostgresSql(self.pool)

    @asynccontextmanager
    async def _sql_transaction(self) -> AsyncIterator[_PostgresSql]:
        async with self.pool.acquire() as conn, conn.transaction():
            yield _PostgresSql(conn)

    async def schema_version(self) -> int:
        """The number of the last migration applied."""
        return int(await self.pool.fetchval("SELECT max(version) FROM schema_version") or 0)

    # -- sessions ------------------------------------------------------------------------------

    async def create_session(self, session: Session, entry: LogEntry | None = None) -> Session:
        values = session_values(session)
        values["news_from"] = news_seq(entry)
        columns = ", ".join(values)
        marks = ", ".join(f"${n}" for n in range(1, len(values) + 1))
        try:
            async with self.pool.acquire() as conn, conn.transaction():
                session_id = await conn.fetchval(
                    f"INSERT INTO sessions ({columns}) VALUES ({marks}) RETURNING id", *values.values()
                )
                if entry is not None:
                    await conn.execute(
                        "INSERT INTO session_events (session_id, seq, chapter, entry) VALUES ($1, $2, $3, $4)",
                        session_id,
                        entry.seq,
                        session.chapter,
                        encoded_entry(entry, session.version),
                    )
        except asyncpg.UniqueViolationError as exc:
            raise Duplicate from exc
        created = session.model_copy(update={"id": session_id, "news_from": values["news_from"]})
        self.cache.keep(created)
        return created

    async def save(self, session: Session, expected_version: int, entry: LogEntry | None = None) -> bool:
        # One UPDATE: the sessions_append_event trigger writes the log entry in the same statement.
        values = session_values(session)
        values["last_entry"] = None if entry is None else encoded_entry(entry, session.version)
        assignments = ", ".join(f"{key} = ${n}" for n, key in enumerate(values, start=1))
        count = len(values)
        news = news_seq(entry)
        update = (
            f"UPDATE sessions SET {assignments}, news_from = COALESCE(news_from, ${count + 3}::bigint) "
            f"WHERE id = ${count + 1} AND version = ${count + 2}"
        )
        params = (*values.values(), session.id, expected_version, news)
        if commit_counts(session, entry):
            # Dice a member rolled (or a game's finish) count in the luck statistics in the same transaction.
            async with self.pool.acquire() as conn, conn.transaction():
                status = await conn.execute(update, *params)
                if status == "UPDATE 1":
                    await self.count_commit(_PostgresSql(conn), session, entry)
        else:
            status = await self.pool.execute(update, *params)
        if status != "UPDATE 1":
            self.cache.forget(session.id)
            return False
        self.cache.saved(session, news)
        return True

    async def _one(self, where: str, *params: Any) -> Session | None:
        row = await self.pool.fetchrow(f"{SELECT} WHERE {where}", *params)
        if row is None:
            return None
        return self.cache.read(session_from_row(row))

    async def _many(self, where: str, *params: Any) -> list[Session]:
        return [session_from_row(r) for r in await self.pool.fetch(f"{SELECT} WHERE {where}", *params)]

    async def session(self, session_id: int) -> Session | None:
        return self.cache.get(session_id) or await self._one("s.id = $1", session_id)

    async def live_session(self, channel_id: int, scope: Scope) -> Session | None:
        return await self._one(
            f"s.channel_id = $1 AND s.scope = $2 AND s.name IS NULL AND {LIVE}", channel_id, str(scope)
        )

    async def live_named(self, guild_id: int, name: str) -> Session | None:
        return await self._one(f"s.guild_id = $1 AND lower(s.name) = lower($2) AND {LIVE}", guild_id, name)

    async def live_in_guild(self, guild_id: int, scope: Scope) -> list[Session]:
        return await self._many(f"s.guild_id = $1 AND s.scope = $2 AND {LIVE}", guild_id, str(scope))

    async def shown(
        self,
        session_id: int,
        board: Board | None,
        deadlines: list[Deadline] | None,
        version: int,
        drawn: int | None = None,
    ) -> None:
        # One statement. A view's message only moves forward (an older drawing finishing late never
        # replaces a newer one); deadlines are stored only if the session is still at ``version``.
        text, moment = deadline_values(deadlines) if deadlines is not None else (None, None)
        await self.pool.execute(
            "UPDATE sessions SET "
            "boards = CASE WHEN $1::text IS NULL THEN boards "
            "WHEN COALESCE((boards->$1->>'shown_version')::bigint, -1) <= $2 "
            "THEN jsonb_set(boards, ARRAY[$1::text], $3::jsonb) ELSE boards END, "
            "deadlines = CASE WHEN $4::jsonb IS NOT NULL AND version = $6 THEN $4::jsonb ELSE deadlines END, "
            "next_deadline = CASE WHEN $4::jsonb IS NOT NULL AND version = $6 THEN $5 ELSE next_deadline END, "
            "drawn = CASE WHEN $8::bigint IS NOT NULL AND drawn < $8 THEN $8 ELSE drawn END "
            "WHERE id = $7",
            board.view if board is not None else None,
            board.shown_version if board is not None else None,
            board.model_dump_json() if board is not None else None,
            text,
            moment,
            version,
            session_id,
            drawn,
        )
        self.cache.shown(session_id, board, deadlines, version, drawn)

    async def claim_reminder(self, session_id: int, version: int, index: int, deadlines: list[Deadline]) -> bool:
        text, moment = deadline_values(deadlines)
        status = await self.pool.execute(
            "UPDATE sessions SET deadlines = $1::jsonb, next_deadline = $2 "
            "WHERE id = $3 AND version = $4 AND deadlines->$5::int->>'remind_at' IS NOT NULL",
            text,
            moment,
            session_id,
            version,
            index,
        )
        if status != "UPDATE 1":
            self.cache.forget(session_id)
            return False
        self.cache.shown(session_id, None, deadlines, version)
        return True

    async def drop_board(self, session_id: int, view: str, message_id: int) -> None:
        await self.pool.execute(
            "UPDATE sessions SET boards = boards - $1::text "
            "WHERE id = $2 AND (boards->$1::text->>'message_id')::bigint = $3",
            view,
            session_id,
            message_id,
        )
        self.cache.board_dropped(session_id, view, message_id)

    async def news_delivered(self, session_id: int, upto: int) -> None:
        # Entries after ``upto`` may have news of their own (committed meanwhile): they stay pending.
        await self.pool.execute(
            "UPDATE sessions SET news_from = CASE WHEN version > $1 THEN $1 + 1 ELSE NULL END "
            "WHERE id = $2 AND news_from IS NOT NULL AND news_from <= $1",
            upto,
            session_id,
        )
        self.cache.news_delivered(session_id, upto)

    async def attention(self, shards: Shards = ALL, *, after: int = 0, limit: int = ATTENTION_BATCH) -> list[int]:
        where, params = _owned(shards, 3)
        rows = await self.pool.fetch(
            f"SELECT s.id FROM sessions s WHERE {ATTENTION} AND s.id > $1{where} ORDER BY s.id LIMIT $2",
            after,
            limit,
            *params,
        )
        return [int(r["id"]) for r in rows]

    async def due_sessions(self, now: float, shards: Shards = ALL, *, limit: int = DUE_BATCH) -> list[Session]:
        where, params = _owned(shards, 3)
        return await self._many(
            f"s.next_deadline IS NOT NULL AND s.next_deadline <= $1 AND {LIVE}{where} ORDER BY s.next_deadline "
            "LIMIT $2",
            now,
            limit,
            *params,
        )

    async def earliest_deadline(self, shards: Shards = ALL) -> float | None:
        where, params = _owned(shards, 1)
        value = await self.pool.fetchval(
            f"SELECT MIN(s.next_deadline) FROM sessions s WHERE s.next_deadline IS NOT NULL AND {LIVE}{where}", *params
        )
        return None if value is None else float(value)

    async def put_off(self, session_id: int, moment: float) -> None:
        # The next real save of the session sets next_deadline from its deadlines again.
        await self.pool.execute("UPDATE sessions SET next_deadline = $1 WHERE id = $2", moment, session_id)
        self.cache.forget(session_id)

    async def history(self, *, guild_id: int | None, channel_id: int | None, limit: int = 10) -> list[Session]:
        where = "s.status IN ('finished', 'abandoned') AND s.scope = 'table'"
        if channel_id is not None:
            return await self._many(
                f"{where} AND s.channel_id = $1 ORDER BY s.updated_at DESC LIMIT $2", channel_id, limit
            )
        if guild_id is None:  # a DM's: IS NOT DISTINCT FROM would keep PostgreSQL from using the index
            return await self._many(f"{where} AND s.guild_id IS NULL ORDER BY s.updated_at DESC LIMIT $1", limit)
        return await self._many(f"{where} AND s.guild_id = $1 ORDER BY s.updated_at DESC LIMIT $2", guild_id, limit)

    async def log_entries(
        self,
        session_id: int,
        *,
        after: int | None = None,
        last: int | None = None,
        chapters: tuple[int, int] | None = None,
    ) -> list[LogEntry]:
        sql = f"SELECT {EVENT_COLUMNS} FROM session_events WHERE session_id = $1"
        params: list[Any] = [session_id]
        if after is not None:
            params.append(after)
            sql += f" AND seq > ${len(params)}"
        if chapters is not None:
            params += chapters
            sql += f" AND chapter BETWEEN ${len(params) - 1} AND ${len(params)}"
        sql += " ORDER BY seq"
        if last is not None:
            params.append(last)
            sql = f"SELECT * FROM ({sql} DESC LIMIT ${len(params)}) AS tail ORDER BY seq"
        return [entry_from_row(r) for r in await self.pool.fetch(sql, *params)]

    async def chaptered(self, session_id: int) -> bool:
        return bool(
            await self.pool.fetchval(
                "SELECT chapter IS NOT NULL FROM session_events WHERE session_id = $1 ORDER BY seq LIMIT 1", session_id
            )
        )

    async def stamp_chapters(self, session_id: int, chapters: Mapping[int, int]) -> None:
        async with self.pool.acquire() as conn, conn.transaction():
            await conn.executemany(
                "UPDATE session_events SET chapter = $1 WHERE session_id = $2 AND seq = $3 AND chapter IS NULL",
                [(chapter, session_id, seq) for seq, chapter in chapters.items()],
            )

    async def checkpoint(self, session_id: int) -> tuple[int, str] | None:
        row = await self.pool.fetchrow("SELECT seq, state FROM session_checkpoints WHERE session_id = $1", session_id)
        return (int(row["seq"]), str(row["state"])) if row is not None else None

    async def clear_old_logs(self, now: float, shards: Shards = ALL, limit: int = 100) -> int:
        where, params = _owned(shards, 3)
        # Each server with a retention setting, then (LATERAL: inside that loop, whatever the planner guesses of
        # the tables' sizes) its ended sessions by the index on when they ended.
        async with self.pool.acquire() as conn, conn.transaction():
            ids = [
                int(r["id"])
                for r in await conn.fetch(
                    "SELECT due.id FROM guild_settings g CROSS JOIN LATERAL (SELECT s.id FROM sessions s "
                    f"WHERE s.guild_id = g.guild_id AND {ENDED} AND s.log_cleared_at IS NULL "
                    f"AND s.updated_at < $1 - (g.data->>'keep_logs_days')::double precision * {DAY_S}{where} "
                    "LIMIT $2 FOR UPDATE OF s SKIP LOCKED) AS due WHERE g.data ? 'keep_logs_days' LIMIT $2",
                    now,
                    limit,
                    *params,
                )
            ]
            if ids:
                await conn.execute("DELETE FROM session_events WHERE session_id = ANY($1::bigint[])", ids)
                await conn.execute(
                    "UPDATE sessions SET log_cleared_at = $1, last_entry = NULL WHERE id = ANY($2::bigint[])", now, ids
                )
        return len(ids)

    async def open_lobbies(self, guild_id: int, host_id: int) -> int:
        count = await self.pool.fetchval(
            "SELECT COUNT(*) FROM sessions WHERE guild_id = $1 AND host_id = $2 AND status = $3",
            guild_id,
            host_id,
            str(Status.LOBBY),
        )
        return int(count)

    # -- guild settings ------------------------------------------------------------------------

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        data = await self.pool.fetchval("SELECT data FROM guild_settings WHERE guild_id = $1", guild_id)
        return GuildSettings.model_validate_json(data) if data is not None else GuildSettings()

    async def set_guild_settings(self, guild_id: int, settings: GuildSettings) -> None:
        await self.pool.execute(
            "INSERT INTO guild_settings (guild_id, data) VALUES ($1, $2) "
            "ON CONFLICT (guild_id) DO UPDATE SET data = excluded.data",
            guild_id,
            settings.model_dump_json(exclude_defaults=True),
        )
