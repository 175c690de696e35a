"""Storage on both backends (a SQLite file, a PostgreSQL database): migrations, one live session per channel and
scope, the version check, the log, the shards a process looks after."""

from __future__ import annotations

import asyncio
import json
import secrets
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import asyncpg
import pytest

from bot.models import Board, Deadline, GuildSettings, LogEntry, Scope, Seat, Session, Status
from bot.shards import Shards
from bot.storage import Duplicate, PostgresStore, SqliteStore, StorageError, Store
from bot.storage.migrations import POSTGRES_MIGRATIONS, SQLITE_MIGRATIONS
from tests.databases import Database, postgres_database, with_user


def lobby(channel_id: int = 111, scope: Scope = Scope.TABLE, name: str | None = None, guild_id: int = 1) -> Session:
    return Session(
        guild_id=guild_id,
        channel_id=channel_id,
        kind="race",
        scope=scope,
        name=name,
        status=Status.LOBBY,
        host_id=7,
        seats=[Seat(user_id=7, name="A")],
    )


@pytest.fixture
async def db(database: Database) -> AsyncIterator[Store]:
    store = database.store()
    await store.open()
    yield store
    await store.close()


def forget_cache(store: Store) -> None:
    """Make the next read come from the database."""
    assert isinstance(store, SqliteStore | PostgresStore)
    store.cache.clear()


async def test_migrations_are_applied_once_and_recorded(tmp_path: Path) -> None:
    path = tmp_path / "bot.sqlite3"
    for _ in range(2):
        store = SqliteStore(path)
        await store.open()
        assert (await store.conn.execute_fetchall("PRAGMA user_version"))[0][0] == len(SQLITE_MIGRATIONS)
        assert (await store.conn.execute_fetchall("PRAGMA journal_mode"))[0][0] == "wal"
        await store.close()


async def test_both_backends_run_the_same_numbered_migrations() -> None:
    assert len(POSTGRES_MIGRATIONS) == len(SQLITE_MIGRATIONS)
    async with postgres_database() as url:
        first, second = PostgresStore(url), PostgresStore(url)
        await asyncio.gather(first.open(), second.open())  # two processes starting at once migrate once
        try:
            assert await first.schema_version() == len(POSTGRES_MIGRATIONS)
            count = await first.pool.fetchval("SELECT count(*) FROM schema_version")
            assert count == 1
        finally:
            await first.close()
            await second.close()


async def test_a_postgresql_database_from_the_first_release_keeps_its_games() -> None:
    """The same step 3 on PostgreSQL: games with their board in the row move to sessions and boards."""
    async with postgres_database() as url:
        conn = await asyncpg.connect(url)
        try:
            for statements in POSTGRES_MIGRATIONS[:2]:
                for statement in statements:
                    await conn.execute(statement)
            await conn.execute("CREATE TABLE schema_version (version integer NOT NULL)")
            await conn.execute("INSERT INTO schema_version VALUES (2)")
            await conn.execute(
                "INSERT INTO games (guild_id, channel_id, kind, status, host_id, options, seats, state, version, "
                "board_message_id, board_posted_at, deadlines, next_deadline, created_at, updated_at) VALUES "
                "(1, 111, 'race', 'active', 7, '{}', '[]', '{\"x\": 1}', 3, 999, 5.0, $1, 50.0, 1.0, 2.0)",
                json.dumps([{"player": "P1", "decision": "roll", "at": 100.0, "remind_at": 50.0}]),
            )
        finally:
            await conn.close()
        store = PostgresStore(url)
        await store.open()
        try:
            session = await store.live_session(111, Scope.TABLE)
            assert session is not None and session.version == 3 and session.state == {"x": 1}
            assert session.board is not None and session.board.message_id == 999
            assert session.deadlines[0].seconds == 0
            assert await store.save(session.successor(3.0), 3, LogEntry(seq=4, actor="P1", action={"k": 1}, at=3.0))
            assert [e.seq for e in await store.log_entries(session.id)] == [4]
        finally:
            await store.close()


async def test_a_database_from_the_first_release_keeps_its_games(tmp_path: Path) -> None:
    """Schema 2 (games with their board in the row) moves to sessions and boards without losing anything."""
    path = tmp_path / "old.sqlite3"
    conn = sqlite3.connect(path)
    for statements in SQLITE_MIGRATIONS[:2]:
        for statement in statements:
            conn.execute(statement)
    conn.execute("PRAGMA user_version = 2")
    deadline = json.dumps([{"player": "P1", "decision": "roll", "at": 100.0, "remind_at": 50.0}])
    conn.execute(
        "INSERT INTO games (guild_id, channel_id, kind, status, host_id, options, seats, state, version, "
        "board_message_id, board_posted_at, deadlines, next_deadline, created_at, updated_at) VALUES "
        "(1, 111, 'race', 'active', 7, '{}', '[]', '{\"x\": 1}', 3, 999, 5.0, ?, 50.0, 1.0, 2.0)",
        (deadline,),
    )
    conn.execute(
        "INSERT INTO game_events (game_id, seq, actor, action, dice, events, at) "
        "VALUES (1, 3, 'P1', '{}', '[]', '[]', 2)"
    )
    conn.commit()
    conn.close()
    store = SqliteStore(path)
    await store.open()
    try:
        session = await store.live_session(111, Scope.TABLE)
        assert session is not None and session.version == 3 and session.state == {"x": 1}
        assert session.board is not None and session.board.message_id == 999 and session.board.shown_version == 3
        assert session.deadlines[0].at == 100.0 and session.deadlines[0].seconds == 0
        assert [e.seq for e in await store.log_entries(session.id)] == [3]
        moved = session.successor(3.0)
        assert await store.save(moved, 3, LogEntry(seq=4, actor="P1", action={"kind": "act"}, at=3.0))
        assert [e.seq for e in await store.log_entries(session.id)] == [3, 4]
    finally:
        await store.close()


async def test_a_newer_schema_is_refused_with_one_clear_line(tmp_path: Path) -> None:
    path = tmp_path / "new.sqlite3"
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {len(SQLITE_MIGRATIONS) + 1}")
    conn.close()
    with pytest.raises(StorageError, match="newer version of the bot"):
        await SqliteStore(path).open()


async def test_a_newer_postgresql_schema_is_refused_with_one_clear_line() -> None:
    async with postgres_database() as url:
        conn = await asyncpg.connect(url)
        await conn.execute("CREATE TABLE schema_version (version integer NOT NULL)")
        await conn.execute("INSERT INTO schema_version VALUES ($1)", len(POSTGRES_MIGRATIONS) + 1)
        await conn.close()
        with pytest.raises(StorageError, match="newer version of the bot"):
            await PostgresStore(url).open()


async def test_a_postgresql_user_who_may_not_create_the_schema_gets_one_line() -> None:
    async with postgres_database() as url:
        role = f"reader_{secrets.token_hex(4)}"
        admin = await asyncpg.connect(url)
        await admin.execute(f"CREATE ROLE {role} LOGIN")
        try:
            with pytest.raises(StorageError, match="can't bring the schema up to date") as caught:
                await PostgresStore(with_user(url, role)).open()
            assert "permission denied" in str(caught.value) and "\n" not in str(caught.value)
        finally:
            await admin.execute(f"DROP ROLE {role}")
            await admin.close()


async def test_one_live_session_per_channel_and_scope_but_history_is_kept(db: Store) -> None:
    first = await db.create_session(lobby())
    with pytest.raises(Duplicate):
        await db.create_session(lobby())
    await db.create_session(lobby(channel_id=222))  # another channel is independent
    await db.create_session(lobby(scope=Scope.CAMPAIGN))  # a campaign beside the table game
    await db.create_session(lobby(scope=Scope.CAMPAIGN, name="Red Court"))  # and a named one
    with pytest.raises(Duplicate):
        await db.create_session(lobby(channel_id=333, scope=Scope.CAMPAIGN, name="red court"))
    finished = first.model_copy(update={"status": Status.FINISHED, "version": 1, "winners": ["P1"]})
    assert await db.save(finished, 0)
    second = await db.create_session(lobby())
    assert second.id != first.id
    history = await db.history(guild_id=1, channel_id=111)
    assert [g.id for g in history] == [first.id]
    assert (await db.live_named(1, "RED COURT")) is not None


async def test_save_refuses_a_stale_version_and_writes_nothing(db: Store) -> None:
    session = await db.create_session(lobby())
    entry = LogEntry(seq=1, actor="P1", action={"kind": "act"}, at=1.0)
    moved = session.model_copy(update={"version": 1, "state_json": '{"x": 1}'})
    assert await db.save(moved, 0, entry)
    again = session.model_copy(update={"version": 1, "state_json": '{"x": 2}'})
    assert not await db.save(again, 0, LogEntry(seq=1, actor="P2", action={"kind": "act"}, at=2.0))
    stored = await db.session(session.id)
    assert stored is not None and stored.state == {"x": 1}
    assert [e.actor for e in await db.log_entries(session.id)] == ["P1"]


async def test_log_keeps_order_and_can_return_the_tail_or_what_follows(db: Store) -> None:
    session = await db.create_session(lobby())
    for seq in range(1, 6):
        moved = session.model_copy(update={"version": seq})
        assert await db.save(moved, seq - 1, LogEntry(seq=seq, actor="P1", action={"n": seq}, at=float(seq)))
    assert [e.seq for e in await db.log_entries(session.id, last=2)] == [4, 5]
    assert [e.seq for e in await db.log_entries(session.id, after=3)] == [4, 5]
    assert [e.action["n"] for e in await db.log_entries(session.id)] == [1, 2, 3, 4, 5]


async def test_due_sessions_follow_the_earliest_started_deadline(db: Store) -> None:
    session = lobby()
    session.deadlines = [
        Deadline(player="P1", decision="roll", seconds=60, at=100.0, remind_at=50.0),
        Deadline(player="P2", decision="steal", seconds=60),  # not shown yet: not started
    ]
    stored = await db.create_session(session)
    assert await db.earliest_deadline() == 50.0
    assert await db.due_sessions(49.0) == []
    assert [g.id for g in await db.due_sessions(50.0)] == [stored.id]


async def test_what_a_board_shows_is_stored_beside_the_session_without_a_new_version(db: Store) -> None:
    session = await db.create_session(lobby())
    board = Board(view="board", channel_id=111, message_id=5, shown_version=0, posted_at=1.0, asked=["P1"])
    started = [Deadline(player="P1", decision="roll", seconds=60, at=61.0, remind_at=31.0)]
    await db.shown(session.id, board, started, version=0)
    await db.shown(session.id, board.model_copy(update={"shown_version": -1, "message_id": 4}), None, version=0)
    forget_cache(db)  # read it back from the database
    stored = await db.session(session.id)
    assert stored is not None and stored.version == 0 and stored.board == board
    assert stored.deadlines == started and await db.earliest_deadline() == 31.0
    await db.drop_board(session.id, "board", 5)
    forget_cache(db)
    assert (await db.session(session.id)).board is None  # type: ignore[union-attr]


async def test_guild_settings_round_trip(db: Store) -> None:
    assert await db.guild_settings(5) == GuildSettings()
    await db.set_guild_settings(5, GuildSettings(max_timeouts=2))
    assert (await db.guild_settings(5)).max_timeouts == 2


async def test_only_saves_with_an_entry_are_logged_and_seq_must_match(db: Store) -> None:
    session = await db.create_session(lobby())
    assert await db.save(session.model_copy(update={"version": 1}), 0)  # a lobby change: no log entry
    assert await db.log_entries(session.id) == []
    with pytest.raises(ValueError):
        await db.save(session.model_copy(update={"version": 2}), 1, LogEntry(seq=7, actor=None, action={}, at=0))
    entry = LogEntry(seq=2, actor=None, action={"kind": "abandon"}, dice=[{"die": "1", "sides": 6, "value": 3}], at=5)
    assert await db.save(session.model_copy(update={"version": 2}), 1, entry)
    assert await db.log_entries(session.id) == [entry]


async def test_open_lobbies_are_counted_per_member(db: Store) -> None:
    await db.create_session(lobby(channel_id=1))
    await db.create_session(lobby(channel_id=2))
    assert await db.open_lobbies(1, 7) == 2
    assert await db.open_lobbies(1, 8) == 0


async def test_a_process_sees_only_the_deadlines_and_games_of_its_own_shards(db: Store) -> None:
    # Servers on shard 0 and 1 of 2 (Discord: (guild_id >> 22) % shard_count), and a DM (shard 0).
    guilds = {0: 4 << 22, 1: 5 << 22}
    ids = {}
    for shard, guild_id in guilds.items():
        session = lobby(channel_id=100 + shard, guild_id=guild_id)
        session.status = Status.ACTIVE
        session.version = 1
        session.deadlines = [Deadline(player="P1", decision="roll", seconds=60, at=10.0 + shard)]
        ids[shard] = (await db.create_session(session)).id
    first, second = Shards(2, (0,)), Shards(2, (1,))
    assert [s.id for s in await db.due_sessions(20.0, first)] == [ids[0]]
    assert [s.id for s in await db.due_sessions(20.0, second)] == [ids[1]]
    assert await db.earliest_deadline(second) == 11.0 and await db.earliest_deadline(first) == 10.0
    assert await db.attention(second) == [ids[1]]  # never drawn: both need the bot's attention after a restart
    assert sorted(await db.attention(Shards(2, (0, 1)))) == sorted(ids.values())
    assert sorted(s.id for s in await db.due_sessions(20.0)) == sorted(ids.values())


async def test_two_writers_on_one_version_one_wins_and_the_log_has_one_entry(database: Database) -> None:
    """Two processes on one database: the version check decides, whatever either of them cached."""
    first, second = database.store(), database.store()
    await first.open()
    await second.open()
    try:
        session = await first.create_session(lobby())
        assert await second.session(session.id) is not None
        results = await asyncio.gather(
            *(
                store.save(
                    session.model_copy(update={"version": 1, "state_json": f'{{"by": {n}}}'}),
                    0,
                    LogEntry(seq=1, actor=f"P{n}", action={"kind": "act"}, at=1.0),
                )
                for n, store in enumerate((first, second))
            )
        )
        assert sorted(results) == [False, True]
        assert len(await second.log_entries(session.id)) == 1
    finally:
        await first.close()
        await second.close()


async def test_a_reminder_is_claimed_by_one_process_only(database: Database) -> None:
    """Two processes timing the same session (a rolling restart): one of them sends the reminder."""
    first, second = database.store(), database.store()
    await first.open()
    await second.open()
    try:
        session = lobby()
        session.deadlines = [
            Deadline(player="P2", decision="steal", seconds=60),
            Deadline(player="P1", decision="roll", seconds=60, at=100.0, remind_at=50.0),
        ]
        stored = await first.create_session(session)
        assert await second.session(stored.id) is not None
        reminded = [session.deadlines[0], session.deadlines[1].model_copy(update={"remind_at": None})]
        assert not await first.claim_reminder(stored.id, stored.version + 1, 1, reminded)  # another version
        claims = await asyncio.gather(
            *(s.claim_reminder(stored.id, stored.version, 1, reminded) for s in (first, second))
        )
        assert sorted(claims) == [False, True]
        assert not await first.claim_reminder(stored.id, stored.version, 0, reminded)  # no reminder there
        forget_cache(second)
        again = await second.session(stored.id)
        assert again is not None and again.deadlines == reminded and await second.earliest_deadline() == 100.0
    finally:
        await first.close()
        await second.close()


async def test_attention_finds_what_a_restart_must_do_in_batches_through_its_index(
    db: Store, database: Database
) -> None:
    quiet, behind, computer, news = [await db.create_session(lobby(channel_id=c)) for c in (1, 2, 3, 4)]
    for session in (quiet, behind, computer, news):
        await db.shown(session.id, None, None, session.version, drawn=session.version)  # all drawn
    moved = behind.successor(1.0)
    assert await db.save(moved, behind.version)  # committed, never drawn
    due = computer.successor(1.0, computer_due=True)
    assert await db.save(due, computer.version)
    await db.shown(due.id, None, None, due.version, drawn=due.version)
    told = news.successor(1.0)
    entry = LogEntry(seq=told.version, actor=None, action={}, news=[{"text": "hello"}], at=1.0)
    assert await db.save(told, news.version, entry)
    await db.shown(told.id, None, None, told.version, drawn=told.version)
    wanted = [behind.id, computer.id, news.id]
    assert await db.attention() == wanted
    assert await db.attention(after=behind.id, limit=1) == [computer.id]
    await db.news_delivered(news.id, told.version)
    await db.shown(behind.id, None, None, moved.version, drawn=moved.version)
    assert await db.attention() == [computer.id]
    if isinstance(db, SqliteStore):
        plan = await db.conn.execute_fetchall(
            "EXPLAIN QUERY PLAN SELECT s.id FROM sessions s WHERE (drawn < version OR computer_due OR "
            "news_from IS NOT NULL) AND s.id > 0 ORDER BY s.id LIMIT 10"
        )
        assert "sessions_attention" in " ".join(str(row[3]) for row in plan)
    else:
        assert isinstance(db, PostgresStore)
        async with db.pool.acquire() as conn:
            await conn.execute("SET enable_seqscan = off")
            plan = await conn.fetch(
                "EXPLAIN SELECT s.id FROM sessions s WHERE (drawn < version OR computer_due OR "
                "news_from IS NOT NULL) AND s.id > 0 ORDER BY s.id LIMIT 10"
            )
            await conn.execute("RESET enable_seqscan")
        assert "sessions_attention" in " ".join(r[0] for r in plan)


async def test_the_whole_file_is_checked_at_startup_only_after_an_unclean_stop(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "bot.sqlite3"
    checks: list[Path] = []
    real = SqliteStore._check_integrity

    async def counted(self: SqliteStore) -> None:
        checks.append(self.path)
        await real(self)

    monkeypatch.setattr(SqliteStore, "_check_integrity", counted)
    store = SqliteStore(path)
    await store.open()  # a new file: checked (nothing says it was closed cleanly)
    await store.close()
    store = SqliteStore(path)
    await store.open()  # closed cleanly by the bot, unchanged since: not read page by page
    assert len(checks) == 1
    await store.create_session(lobby())
    store._conn = None  # the process dies: its connection is never closed
    store = SqliteStore(path)
    await store.open()
    assert len(checks) == 2
    await store.close()
    other = sqlite3.connect(path)  # someone else writes the file after the bot closed it (into its WAL)
    other.execute("CREATE TABLE elsewhere (x)")
    other.commit()
    store = SqliteStore(path)
    await store.open()
    assert len(checks) == 3
    await store.close()
    other.close()
