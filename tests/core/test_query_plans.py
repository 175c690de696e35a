"""Every query the store runs is indexed, on both backends: the store is driven through every method of ``Store``
(the test fails when a method is added without being driven here), every statement it sends is recorded with its
parameters, and each is explained as the database would run it.

- SQLite (``EXPLAIN QUERY PLAN``): no ``SCAN`` of the sessions, the log or the checkpoints, except of one of the
  partial indexes of ``WHOLE``, which hold only the few rows the query wants.
- PostgreSQL (``EXPLAIN``, with ``enable_seqscan = off`` so that a table of a few rows, such as the checkpoints
  here, shows the index that would serve it once it is big): no ``Seq Scan`` of those tables, and no index read
  whole but ``WHOLE``.

Both run on tables of ``BULK`` sessions as a popular bot has them (most ended, a few live, a few with deadlines or
news pending, several log entries each), with the planner's statistics gathered (``ANALYZE``).
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Awaitable, Callable
from typing import Any

import asyncpg
import pytest

from bot.leases import IDENTIFY_SPACING_S
from bot.models import Board, Deadline, GuildSettings, LogEntry, News, Scope, Seat, Session, Status
from bot.shards import Shards
from bot.storage import PostgresStore, SqliteStore, Store
from bot.storage.codec import encode_entry
from bot.storage.dice import SecretRoll
from tests.databases import Database, postgres_database

TABLES = ("sessions", "session_events", "session_checkpoints", "outbox", "ratings")
SQLITE_NAMES = {*TABLES, "s", "o"}
"""How a plan names those tables (``s`` and ``o`` are the store's aliases for sessions and the outbox)."""
NOT_QUERIES = re.compile(r"^\s*(--|BEGIN|COMMIT|ROLLBACK|PRAGMA|SELECT pg_advisory_unlock_all)", re.IGNORECASE)
HOUR = 3600.0
WHOLE = {
    "sessions_attention": "the sessions that need the bot after a restart (drawn behind, a computer to move, news)",
    "sessions_next_deadline": "the sessions with a deadline or reminder to come",
    "sessions_live_in_guild": "the live sessions, counted for the metrics at each scrape (``census``), not on a click",
}
"""Partial indexes a query may read whole: each holds only what it names, a small part of all sessions."""


def session(
    channel_id: int, *, guild_id: int | None = 1, scope: Scope = Scope.TABLE, name: str | None = None
) -> Session:
    return Session(
        guild_id=guild_id,
        channel_id=channel_id,
        kind="race",
        scope=scope,
        name=name,
        status=Status.ACTIVE,
        host_id=7,
        seats=[Seat(user_id=7, name="A", player="P1")],
        state_json='{"n": 1}',
        version=1,
        undo_from=1,
    )


BULK = 3000


def bulk_rows() -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """``BULK`` sessions (ids from 1,000) and three log entries each: 90 % ended, 1 in 50 with a deadline, 1 in 200
    with news pending, in 40 servers and 600 channels, 5 % campaigns."""
    sessions, events = [], []
    stored = encode_entry(entry(1))
    for n in range(BULK):
        sid = 1000 + n
        status = "finished" if n % 10 else ("active" if n % 20 else "lobby")
        status = "abandoned" if status == "finished" and n % 7 == 0 else status
        live = status in ("active", "lobby")
        scope = "campaign" if n % 20 == 3 else "table"
        deadline = 5000.0 + n if live and n % 50 == 0 else None
        sessions.append(
            (
                sid,
                100 + n % 40,
                100_000 + n if live else 5000 + n % 600,
                "race",
                scope,
                status,
                7 + n % 90,
                float(n),
                deadline,
                n if n % 200 == 0 else None,
            )
        )
        events += [(sid, seq, None, stored) for seq in (1, 2, 3)]
    return sessions, events


BULK_SESSIONS = (
    "INSERT INTO sessions (id, guild_id, channel_id, kind, scope, status, host_id, options, seats, version, deadlines, "
    "created_at, updated_at, next_deadline, news_from) VALUES ({})"
)
BULK_EVENTS = "INSERT INTO session_events (session_id, seq, chapter, entry) VALUES ({})"


async def fill(store: Store) -> None:
    """The bulk rows, then the planner's statistics."""
    sessions, events = bulk_rows()
    if isinstance(store, SqliteStore):
        values = "?, ?, ?, ?, ?, ?, ?, '{}', '[]', 3, '[]', 0, ?, ?, ?"
        await store.conn.executemany(BULK_SESSIONS.format(values), sessions)
        await store.conn.executemany(BULK_EVENTS.format("?, ?, ?, ?"), events)
        await store.conn.execute("ANALYZE")
        return
    assert isinstance(store, PostgresStore)
    values = "$1, $2, $3, $4, $5, $6, $7, '{}', '[]', 3, '[]', 0, $8, $9, $10"
    async with store.pool.acquire() as conn:
        await conn.executemany(BULK_SESSIONS.format(values), sessions)
        await conn.executemany(BULK_EVENTS.format("$1, $2, $3, $4"), events)
        await conn.execute("ANALYZE")


def entry(seq: int) -> LogEntry:
    return LogEntry(seq=seq, actor="P1", action={"kind": "act", "how": "player"}, at=float(seq))


async def drive(store: Store) -> set[str]:
    """Call every method of ``Store`` (but open and close) the ways the bot does; the names called."""
    called: set[str] = set()

    def use(name: str) -> Callable[..., Awaitable[Any]]:
        called.add(name)
        method: Callable[..., Awaitable[Any]] = getattr(store, name)
        return method

    live = await use("create_session")(session(10), entry(1))
    ended = await use("create_session")(session(11), entry(1))
    campaign = await use("create_session")(session(12, scope=Scope.CAMPAIGN, name="Knives"), entry(1))
    dm = await use("create_session")(session(13, guild_id=None), entry(1))
    lobby = session(14).model_copy(update={"status": Status.LOBBY, "state_json": None, "version": 0})
    await use("create_session")(lobby)
    deadline = Deadline(player="P1", decision="roll", seconds=60, at=HOUR, remind_at=HOUR / 2)
    moved = live.successor(2.0, deadlines=[deadline], chapter=1, undo_from=2)
    await use("save")(moved, 1, entry(2).model_copy(update={"news": [News(text="hi")]}))
    for old in (ended, dm):
        await use("save")(old.successor(3.0, status=Status.FINISHED, winners=["P1"]), 1, entry(2))
    board = Board(view="board", channel_id=10, message_id=99, shown_version=2, posted_at=2.0)
    await use("shown")(live.id, board, [deadline], 2)
    await use("claim_reminder")(live.id, 2, 0, [deadline.model_copy(update={"remind_at": None})])
    await use("drop_board")(live.id, "board", 99)
    await use("news_delivered")(live.id, 2)
    await use("put_off")(live.id, HOUR * 2)
    _, outgoing = await store.create_secret(SecretRoll(0, 10, 1, 7, False, "1d6 → 2", "ab", "cd", created_at=HOUR))
    for shards in (Shards(), Shards(2, frozenset({1}))):
        await use("attention")(shards)
        await use("attention")(shards, after=live.id, limit=10)
        await use("outbox")(shards)
        await use("outbox")(shards, after=outgoing.id - 1, limit=10)
        await use("due_sessions")(HOUR * 3, shards)
        await use("earliest_deadline")(shards)
        await use("clear_old_logs")(HOUR * 1000, shards, 10)
        await use("census")(HOUR * 3, shards)
    await use("session")(live.id)
    await use("live_session")(10, Scope.TABLE)
    await use("live_named")(1, "knives")
    await use("live_in_guild")(1, Scope.CAMPAIGN)
    await use("history")(guild_id=None, channel_id=11)
    await use("history")(guild_id=1, channel_id=None)
    await use("history")(guild_id=None, channel_id=None)
    await use("log_entries")(live.id)
    await use("log_entries")(live.id, after=1)
    await use("log_entries")(live.id, last=15)
    await use("log_entries")(live.id, after=1, last=15)
    await use("log_entries")(campaign.id, chapters=(0, 3))
    await use("chaptered")(campaign.id)
    await use("stamp_chapters")(campaign.id, {1: 0})
    await use("checkpoint")(live.id)
    await use("open_lobbies")(1, 7)
    await use("set_guild_settings")(1, GuildSettings(keep_logs_days=30))
    await use("guild_settings")(1)
    await use("set_member_language")(7, "de")
    await use("member_language")(7)
    await use("set_member_language")(7, None)
    await use("clear_old_logs")(HOUR * 1000)
    await use("outbox_told")(outgoing.id)
    await use("ping")()
    await store.ratings_of(1, "race", [7, 8])  # the ratings' queries, besides Store's own methods
    await store.rating_top(1, "race", 30)
    return called


def store_methods() -> set[str]:
    """Every query method of the ``Store`` protocol."""
    return {name for name, value in vars(Store).items() if callable(value) and not name.startswith("_")} - {
        "open",
        "close",
    }


def sqlite_problems(conn: sqlite3.Connection, statements: list[str]) -> list[str]:
    problems = []
    for statement in statements:
        for *_, detail in conn.execute(f"EXPLAIN QUERY PLAN {statement}"):
            scan = re.match(r"SCAN (\w+)(?: USING (?:COVERING )?INDEX (\w+))?", detail)
            if scan and scan[1] in SQLITE_NAMES and scan[2] not in WHOLE:
                problems.append(f"{detail}: {statement[:300]}")
    return problems


def pg_nodes(plan: dict[str, Any]) -> list[dict[str, Any]]:
    return [plan, *(node for child in plan.get("Plans", []) for node in pg_nodes(child))]


async def pg_problems(url: str, queries: list[tuple[str, Any]]) -> list[str]:
    conn = await asyncpg.connect(url)
    try:
        await conn.execute("SET enable_seqscan = off")  # the checkpoints hold a row or two: prove the index serves
        problems = []
        for query, args in queries:
            params = args[0] if args and isinstance(args, list) else args  # executemany: its first row
            plan = await conn.fetchval(f"EXPLAIN (FORMAT JSON) {query}", *params)
            for node in pg_nodes(json.loads(plan)[0]["Plan"]):
                relation, kind, index = node.get("Relation Name"), node["Node Type"], node.get("Index Name")
                if kind == "Seq Scan" and relation in TABLES:
                    problems.append(f"Seq Scan on {relation}: {query[:300]}")
                if (
                    index is not None
                    and "Index Cond" not in node
                    and index not in WHOLE
                    and (relation in TABLES or index.startswith(TABLES))
                ):
                    problems.append(f"{kind} of all of {index}: {query[:300]}")
        return problems
    finally:
        await conn.close()


async def test_every_query_of_the_store_is_indexed(database: Database) -> None:
    if database.url is None:
        store: Store = SqliteStore(database.path)
        await store.open()
        assert isinstance(store, SqliteStore)
        await fill(store)
        statements: list[str] = []
        await store.trace(statements.append)
        try:
            called = await drive(store)
        finally:
            await store.trace(None)
            await store.close()
        queries = [s for s in statements if not NOT_QUERIES.match(s)]
        conn = sqlite3.connect(database.path)
        try:
            problems = sqlite_problems(conn, queries)
        finally:
            conn.close()
    else:
        pg = PostgresStore(database.url, pool_size=1)
        await pg.open()
        await fill(pg)
        logged: list[tuple[str, Any]] = []
        async with pg.pool.acquire() as conn:
            conn.add_query_logger(lambda q: logged.append((q.query, q.args)))
        try:
            called = await drive(pg)
        finally:
            await pg.close()
        queries = [(q, a) for q, a in logged if not NOT_QUERIES.match(q)]
        problems = await pg_problems(database.url, queries)
    assert called == store_methods()
    assert len(queries) >= 40, queries
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("backend", ["sqlite"])
def test_the_check_finds_a_query_that_reads_every_session(backend: str, tmp_path: Any) -> None:
    """The check itself: a query by a column no index leads with is reported."""
    conn = sqlite3.connect(tmp_path / "x.sqlite3")
    conn.execute("CREATE TABLE sessions (id INTEGER PRIMARY KEY, host_id INTEGER)")
    assert sqlite_problems(conn, ["SELECT id FROM sessions s WHERE host_id = 7"])
    assert not sqlite_problems(conn, ["SELECT host_id FROM sessions s WHERE id = 7"])


LEASE_TABLES = ("shard_processes", "shard_leases", "identify_buckets")
LISTED = "SELECT p.owner, p.shard_count"
"""The heartbeat's list of the live processes and their shards: it reads the lease tables whole (a row per process
and per shard)."""


async def test_every_lease_query_finds_its_rows_by_a_key() -> None:
    """The shard leases' statements (``bot.storage.leases``, PostgreSQL only): each finds its rows by a key, but the
    heartbeat's list of every process, which is the whole of those small tables by design."""
    async with postgres_database() as url:
        pg = PostgresStore(url, pool_size=1)
        await pg.open()
        logged: list[tuple[str, Any]] = []
        async with pg.pool.acquire() as conn:
            conn.add_query_logger(lambda q: logged.append((q.query, q.args)))
        try:
            await pg.heartbeat("a", 4, 10.0, 2.5)
            await pg.claim_shards("a", [0, 1, 2], 10.0)
            await pg.heartbeat("a", 4, 10.0, 2.5)
            await pg.announce("a")
            await pg.release_shards("a", [2])
            await pg.identify_turn(0, IDENTIFY_SPACING_S)
            await pg.identify_turn(0, IDENTIFY_SPACING_S)
            await pg.leave("a")
        finally:
            await pg.close()
        conn = await asyncpg.connect(url)
        try:
            await conn.execute("SET enable_seqscan = off")
            problems = []
            for query, args in logged:
                if NOT_QUERIES.match(query) or query.lstrip().startswith(LISTED):
                    continue
                plan = await conn.fetchval(f"EXPLAIN (FORMAT JSON) {query}", *args)
                for node in pg_nodes(json.loads(plan)[0]["Plan"]):
                    relation, index = node.get("Relation Name"), node.get("Index Name")
                    if node["Node Type"] == "Seq Scan" and relation in LEASE_TABLES:
                        problems.append(f"Seq Scan on {relation}: {query}")
                    if index is not None and "Index Cond" not in node and index.startswith(LEASE_TABLES):
                        problems.append(f"{node['Node Type']} of all of {index}: {query}")
        finally:
            await conn.close()
    assert len([q for q, _ in logged if not NOT_QUERIES.match(q)]) >= 8
    assert not problems, "\n".join(problems)
