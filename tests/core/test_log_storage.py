"""The log stored small (bot/storage/codec.py) and read by what is needed, on both backends: entries read back as
they were written, a log kept as JSON re-encoded by its migration, a chapter read alone, undo folding from its
checkpoint."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from bot.models import Actor, GuildSettings, LogEntry, News, Scope, Session, Status
from bot.registry import GameKind, Registry
from bot.replay import fold
from bot.service import Service
from bot.storage import PostgresStore, SqliteStore, Store, queries
from bot.storage.codec import DEFLATE_1, RAW_JSON, decode_entry, dictionary, encode_entry, entry_body
from bot.storage.migrations import POSTGRES_MIGRATIONS, SQLITE_MIGRATIONS
from rules.dice import ScriptedDice
from tests import databases
from tests.core.clock import FakeClock
from tests.databases import Database
from tests.testgame.ledger import LedgerEngine, LedgerOptions

GM = Actor(1, "Gemma")
BOB = Actor(2, "Bob")
DICTIONARY_1_SHA256 = "7f096183b4c77bd6"  # its first 16 hex digits

ROLLED = LogEntry(
    seq=12,
    actor="P3",
    action={"kind": "act", "how": "player", "action": {"type": "reroll", "group": "skulls"}},
    dice=[{"die": "1", "sides": 6, "value": 2}, {"die": "N.Lust", "sides": 20, "value": 18}],
    events=[
        {"type": "rolled", "player": "P3", "dice": [{"die": "1", "face": "DAGGER"}], "group": None},
        {"type": "claim_gained", "player": "P3", "count": 1, "total": 1, "reason": "rightful_heir"},
    ],
    at=1_750_000_147.25,
    news=[News(text="**Ẓoë 李** rolled ⚄ — <@123> next", pings=[123])],
)


def test_an_entry_reads_back_as_it_was_written_and_is_stored_small() -> None:
    entries = [
        ROLLED,
        LogEntry(seq=1, actor=None, action={"kind": "start", "how": "core", "players": []}, at=5.0),
        LogEntry(seq=2, actor="1", action={"kind": "roles", "how": "core", "on": True}, at=6.0, events=[{}]),
    ]
    for entry in entries:
        stored = encode_entry(entry)
        assert decode_entry(entry.seq, stored) == entry
        assert len(stored) * 2 <= len(entry.model_dump_json()), entry
    assert encode_entry(ROLLED)[0] == DEFLATE_1


def test_an_entry_kept_as_plain_json_reads_back_too() -> None:
    """What compressing would not make smaller is kept as its compact JSON."""
    assert decode_entry(ROLLED.seq, bytes([RAW_JSON]) + entry_body(ROLLED)) == ROLLED


def test_an_entry_in_a_format_from_a_newer_bot_is_refused_clearly() -> None:
    with pytest.raises(ValueError, match="log entry 4: unknown format 9"):
        decode_entry(4, b"\x09[]")


def test_a_released_dictionary_never_changes() -> None:
    """Entries stored with a dictionary are read with it forever: a better one is a new format, a new file."""
    assert hashlib.sha256(dictionary(1)).hexdigest().startswith(DICTIONARY_1_SHA256)


# -- the migration -------------------------------------------------------------------------------------------------

LEGACY_ROWS = [
    # (seq, actor, action, dice, events, at, news) as schema 4 kept them: JSON text, spaced as json.dumps wrote
    # the first entry (create_session) and compact as the trigger's json_extract wrote the others.
    (1, None, '{"kind": "start", "how": "core", "players": ["P1"]}', "[]", '[{"type": "opened"}]', 10.0, None),
    (2, "P1", '{"kind":"act","how":"player","action":{"type":"roll"}}', '[{"die":"d","sides":6,"value":4}]',
     '[{"type":"rolled","value":4}]', 11.0, '[{"text":"Rolled **4**","pings":[]}]'),
    (3, "P1", '{"kind":"act","how":"player","action":{"type":"roll"}}', '[{"die":"d","sides":6,"value":1}]',
     '[{"type":"rolled","value":1}]', 12.5, None),
    (4, None, '{"how":"core","kind":"abandon","why":"ended"}', "[]", "[]", 13.0, None),
]  # fmt: skip


def legacy_entries() -> list[LogEntry]:
    """The entries of ``LEGACY_ROWS`` as the bot reads them."""
    return [
        LogEntry(
            seq=seq,
            actor=actor,
            action=json.loads(action),
            dice=json.loads(dice),
            events=json.loads(events),
            at=at,
            news=json.loads(news) if news else [],
        )
        for seq, actor, action, dice, events, at, news in LEGACY_ROWS
    ]


SESSION_COLUMNS = (
    "guild_id, channel_id, kind, status, host_id, options, seats, state, version, deadlines, created_at, updated_at"
)


async def schema_4(db: Database, sessions: int) -> None:
    """A database as the bot left it at schema 4, with ``sessions`` sessions logged as ``LEGACY_ROWS``."""
    if db.url is None:
        conn = sqlite3.connect(db.path)
        for statements in SQLITE_MIGRATIONS[:4]:
            for statement in statements:
                conn.execute(statement)
        conn.execute("PRAGMA user_version = 4")
        for n in range(sessions):
            conn.execute(
                f"INSERT INTO sessions ({SESSION_COLUMNS}) VALUES (1, ?, 'race', 'finished', 7, '{{}}', '[]', "
                "'{}', 4, '[]', 1.0, 2.0)",
                (100 + n,),
            )
            conn.executemany(
                "INSERT INTO session_events (session_id, seq, actor, action, dice, events, at, news) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [(n + 1, *row) for row in LEGACY_ROWS],
            )
        conn.commit()
        conn.close()
        return
    conn = await asyncpg.connect(db.url)
    try:
        for statements in POSTGRES_MIGRATIONS[:4]:
            for statement in statements:
                assert isinstance(statement, str)
                await conn.execute(statement)
        await conn.execute("CREATE TABLE schema_version (version integer NOT NULL)")
        await conn.execute("INSERT INTO schema_version VALUES (4)")
        for n in range(sessions):
            session_id = await conn.fetchval(
                f"INSERT INTO sessions ({SESSION_COLUMNS}) VALUES (1, $1, 'race', 'finished', 7, '{{}}', '[]', "
                "'{}', 4, '[]', 1.0, 2.0) RETURNING id",
                100 + n,
            )
            await conn.executemany(
                "INSERT INTO session_events (session_id, seq, actor, action, dice, events, at, news) "
                "VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
                [(session_id, *row) for row in LEGACY_ROWS],
            )
    finally:
        await conn.close()


async def test_a_log_kept_as_json_is_reencoded_by_its_migration_a_batch_at_a_time(
    database: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(queries, "BATCH", 3)
    # Enough old log that re-encoding it frees most of the file, whatever later migrations add beside it.
    await schema_4(database, sessions=1000)
    store = database.store()
    await store.open()
    try:
        for session_id in range(1, 6):
            assert await store.log_entries(session_id) == legacy_entries()
        assert await store.log_entries(2, after=2, last=1) == legacy_entries()[-1:]
        assert not await store.chaptered(1)  # logged before chapters were kept
        await store.stamp_chapters(1, {1: 0, 2: 0, 3: 1, 4: 1})
        assert await store.chaptered(1)
        assert [e.seq for e in await store.log_entries(1, chapters=(1, 1))] == [3, 4]
        session = await store.session(1)
        assert session is not None and session.status is Status.FINISHED and session.version == 4
        if isinstance(store, SqliteStore):  # the old log's pages went back to the disk
            assert (await store.conn.execute_fetchall("PRAGMA freelist_count"))[0][0] == 0  # type: ignore[index]
    finally:
        await store.close()


# -- chapters and undo ---------------------------------------------------------------------------------------------


@pytest.fixture
async def ledger(database: Database) -> AsyncIterator[tuple[Service, Store]]:
    """A Service running the test campaign (chapters: one per GM note; undo) on a fresh database."""
    store = database.store()
    await store.open()
    registry = Registry()
    registry.add(GameKind(LedgerEngine(), scope=Scope.CAMPAIGN))
    try:
        yield Service(store, registry, FakeClock(), ScriptedDice([6, 5])), store
    finally:
        await store.close()


async def open_ledger(service: Service) -> Session:
    created = await service.create(
        "ledger", guild_id=1, channel_id=5, host=GM, options=LedgerOptions(), roles={str(GM.user_id): ["gm"]}
    )
    return created.session


async def test_each_entry_is_stored_with_its_chapter_and_a_chapter_is_read_alone(
    ledger: tuple[Service, Store],
) -> None:
    service, store = ledger
    session = await open_ledger(service)
    await service.act(session.id, BOB, {"type": "join", "name": "Bob"})
    await service.act(session.id, GM, {"type": "note", "text": "Chapter one"})
    await service.act(session.id, BOB, {"type": "add", "page": "2", "amount": 3})
    await service.act(session.id, GM, {"type": "note", "text": "Chapter two"})
    done = await service.act(session.id, BOB, {"type": "add", "page": "2", "amount": 4})
    assert done.session.chapter == 2 and await store.chaptered(session.id)
    assert [e.seq for e in await store.log_entries(session.id, chapters=(0, 0))] == [1, 2]
    assert [e.seq for e in await store.log_entries(session.id, chapters=(1, 1))] == [3, 4]
    assert [e.seq for e in await store.log_entries(session.id, chapters=(1, 2), last=2)] == [5, 6]


async def test_undo_folds_the_log_from_the_state_after_the_latest_barrier(
    ledger: tuple[Service, Store], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Only the entries after the last action that can't be undone are read; the stacks are those of a whole fold."""
    service, store = ledger
    session = await open_ledger(service)
    await service.act(session.id, BOB, {"type": "join", "name": "Bob"})
    await service.act(session.id, BOB, {"type": "add", "page": "2", "amount": 3})
    noted = await service.act(session.id, GM, {"type": "note", "text": "No going back past this"})  # a barrier
    assert noted.session.undo_from == noted.session.version == 4
    await service.act(session.id, BOB, {"type": "add", "page": "2", "amount": 4})
    await service.act(session.id, BOB, {"type": "roll", "page": "2"})
    checkpoint = await store.checkpoint(session.id)
    assert checkpoint is not None and checkpoint[0] == 4
    assert json.loads(checkpoint[1])["pages"]["2"]["entries"] == [3]

    reads: list[dict[str, Any]] = []
    read = store.log_entries

    async def counted(session_id: int, **options: Any) -> list[LogEntry]:
        reads.append(options)
        return await read(session_id, **options)

    monkeypatch.setattr(store, "log_entries", counted)
    for redo, entries in ((False, [3, 4]), (False, [3]), (True, [3, 4]), (False, [3])):
        applied = await service.undo(session.id, BOB, redo=redo)
        assert applied.session.state is not None
        assert applied.session.state["pages"]["2"]["entries"] == entries
    assert reads and all(options == {"after": 4} for options in reads)
    with pytest.raises(Exception, match="nothing to undo"):
        await service.undo(session.id, BOB)  # the note is a barrier: the first add stays

    monkeypatch.undo()
    final = await store.session(session.id)
    assert final is not None
    kind = service.kind_of(final)
    whole = fold(kind, final.engine_options, await store.log_entries(session.id))
    assert whole.state is not None and whole.state.model_dump(mode="json") == final.state
    assert [e.seq for e in whole.undone] == [6, 5] and not whole.done  # roll, then add 4; the add of 3 stays
    seq, state = checkpoint
    start = kind.engine.state_model.model_validate_json(state)
    part = fold(kind, final.engine_options, await store.log_entries(session.id, after=seq), start=start)
    assert (part.state, part.done, part.undone) == (whole.state, whole.done, whole.undone)


async def test_a_checkpoint_is_let_go_when_its_session_ends(ledger: tuple[Service, Store]) -> None:
    service, store = ledger
    session = await open_ledger(service)
    await service.act(session.id, BOB, {"type": "join", "name": "Bob"})
    assert await store.checkpoint(session.id) is not None
    await service.end(session.id, actor=GM, why="the campaign is over")
    assert await store.checkpoint(session.id) is None


async def test_a_sqlite_log_is_a_table_with_rowids(tmp_path: Any) -> None:
    """WITHOUT ROWID spilled every entry over ~1 KB into an overflow page of its own, mostly empty."""
    store = SqliteStore(tmp_path / "bot.sqlite3")
    await store.open()
    try:
        rows = await store.conn.execute_fetchall("SELECT sql FROM sqlite_schema WHERE name = 'session_events'")
        assert "WITHOUT ROWID" not in rows[0][0]  # type: ignore[index]
    finally:
        await store.close()


async def test_a_postgresql_log_holds_bytes(tmp_path: Path) -> None:
    async with databases.database("postgresql", tmp_path) as database:
        store = database.store()
        await store.open()
        try:
            assert isinstance(store, PostgresStore)
            kind = await store.pool.fetchval(
                "SELECT data_type FROM information_schema.columns WHERE table_name = 'session_events' "
                "AND column_name = 'entry'"
            )
            assert kind == "bytea"
        finally:
            await store.close()


# -- retention -----------------------------------------------------------------------------------------------------

DAY = 86_400.0


async def ended_game(store: Store, guild_id: int | None, channel_id: int, ended_at: float, status: Status) -> Session:
    """A game of two logged entries that ended (or, ``ACTIVE``, was last played) at ``ended_at``."""
    started = Session(guild_id=guild_id, channel_id=channel_id, kind="race", status=Status.ACTIVE, host_id=7, version=1)
    created = await store.create_session(started, LogEntry(seq=1, actor=None, action={"kind": "start"}, at=1.0))
    last = created.successor(ended_at, status=status)
    assert await store.save(last, 1, LogEntry(seq=2, actor="P1", action={"kind": "act"}, at=ended_at))
    return last


async def test_old_logs_are_cleared_where_the_server_asks_a_batch_at_a_time(database: Database) -> None:
    store = database.store()
    await store.open()
    try:
        await store.set_guild_settings(1, GuildSettings(keep_logs_days=30))
        await store.set_guild_settings(2, GuildSettings(threads=True))
        old_won = await ended_game(store, 1, 10, 0.0, Status.FINISHED)
        old_ended = await ended_game(store, 1, 11, 1.0, Status.ABANDONED)
        recent = await ended_game(store, 1, 12, 20 * DAY, Status.FINISHED)
        going_on = await ended_game(store, 1, 13, 0.0, Status.ACTIVE)
        elsewhere = await ended_game(store, 2, 14, 0.0, Status.FINISHED)
        in_a_dm = await ended_game(store, None, 15, 0.0, Status.FINISHED)
        assert await store.clear_old_logs(29 * DAY) == 0
        assert [await store.clear_old_logs(40 * DAY, limit=1) for _ in range(3)] == [1, 1, 0]
        for session, cleared in (
            (old_won, True),
            (old_ended, True),
            (recent, False),
            (going_on, False),
            (elsewhere, False),
            (in_a_dm, False),
        ):
            assert (await store.log_entries(session.id) == []) == cleared, session.channel_id
        history = await store.history(guild_id=1, channel_id=None)
        assert [s.id for s in history] == [recent.id, old_ended.id, old_won.id]  # results stay, newest first
        assert history[1].log_cleared_at == 40 * DAY and history[0].log_cleared_at is None
        assert [s.id for s in await store.history(guild_id=None, channel_id=None)] == [in_a_dm.id]
    finally:
        await store.close()
