"""Storage on a real SQLite file: migrations, one live session per channel and scope, the version check, the log."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from bot.models import Board, Deadline, GuildSettings, LogEntry, Scope, Seat, Session, Status
from bot.storage import Duplicate, SqliteStore, StorageError
from bot.storage.migrations import SQLITE_MIGRATIONS


def lobby(channel_id: int = 111, scope: Scope = Scope.TABLE, name: str | None = None) -> Session:
    return Session(
        guild_id=1,
        channel_id=channel_id,
        kind="race",
        scope=scope,
        name=name,
        status=Status.LOBBY,
        host_id=7,
        seats=[Seat(user_id=7, name="A")],
    )


@pytest.fixture
async def db(tmp_path: Path):
    store = SqliteStore(tmp_path / "sub" / "bot.sqlite3")
    await store.open()
    yield store
    await store.close()


async def test_migrations_are_applied_once_and_recorded(tmp_path: Path) -> None:
    path = tmp_path / "bot.sqlite3"
    for _ in range(2):
        store = SqliteStore(path)
        await store.open()
        assert (await store.conn.execute_fetchall("PRAGMA user_version"))[0][0] == len(SQLITE_MIGRATIONS)
        assert (await store.conn.execute_fetchall("PRAGMA journal_mode"))[0][0] == "wal"
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


async def test_one_live_session_per_channel_and_scope_but_history_is_kept(db: SqliteStore) -> None:
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


async def test_save_refuses_a_stale_version_and_writes_nothing(db: SqliteStore) -> None:
    session = await db.create_session(lobby())
    entry = LogEntry(seq=1, actor="P1", action={"kind": "act"}, at=1.0)
    moved = session.model_copy(update={"version": 1, "state_json": '{"x": 1}'})
    assert await db.save(moved, 0, entry)
    again = session.model_copy(update={"version": 1, "state_json": '{"x": 2}'})
    assert not await db.save(again, 0, LogEntry(seq=1, actor="P2", action={"kind": "act"}, at=2.0))
    stored = await db.session(session.id)
    assert stored is not None and stored.state == {"x": 1}
    assert [e.actor for e in await db.log_entries(session.id)] == ["P1"]


async def test_log_keeps_order_and_can_return_the_tail_or_what_follows(db: SqliteStore) -> None:
    session = await db.create_session(lobby())
    for seq in range(1, 6):
        moved = session.model_copy(update={"version": seq})
        assert await db.save(moved, seq - 1, LogEntry(seq=seq, actor="P1", action={"n": seq}, at=float(seq)))
    assert [e.seq for e in await db.log_entries(session.id, last=2)] == [4, 5]
    assert [e.seq for e in await db.log_entries(session.id, after=3)] == [4, 5]
    assert [e.action["n"] for e in await db.log_entries(session.id)] == [1, 2, 3, 4, 5]


async def test_due_sessions_follow_the_earliest_started_deadline(db: SqliteStore) -> None:
    session = lobby()
    session.deadlines = [
        Deadline(player="P1", decision="roll", seconds=60, at=100.0, remind_at=50.0),
        Deadline(player="P2", decision="steal", seconds=60),  # not shown yet: not started
    ]
    stored = await db.create_session(session)
    assert await db.earliest_deadline() == 50.0
    assert await db.due_sessions(49.0) == []
    assert [g.id for g in await db.due_sessions(50.0)] == [stored.id]


async def test_what_a_board_shows_is_stored_beside_the_session_without_a_new_version(db: SqliteStore) -> None:
    session = await db.create_session(lobby())
    board = Board(view="board", channel_id=111, message_id=5, shown_version=0, posted_at=1.0, asked=["P1"])
    started = [Deadline(player="P1", decision="roll", seconds=60, at=61.0, remind_at=31.0)]
    await db.shown(session.id, board, started, version=0)
    await db.shown(session.id, board.model_copy(update={"shown_version": -1, "message_id": 4}), None, version=0)
    db._sessions.clear()  # read it back from the file
    stored = await db.session(session.id)
    assert stored is not None and stored.version == 0 and stored.board == board
    assert stored.deadlines == started and await db.earliest_deadline() == 31.0
    await db.drop_board(session.id, "board", 5)
    db._sessions.clear()
    assert (await db.session(session.id)).board is None  # type: ignore[union-attr]


async def test_guild_settings_round_trip(db: SqliteStore) -> None:
    assert await db.guild_settings(5) == GuildSettings()
    await db.set_guild_settings(5, GuildSettings(max_timeouts=2))
    assert (await db.guild_settings(5)).max_timeouts == 2


async def test_only_saves_with_an_entry_are_logged_and_seq_must_match(db: SqliteStore) -> None:
    session = await db.create_session(lobby())
    assert await db.save(session.model_copy(update={"version": 1}), 0)  # a lobby change: no log entry
    assert await db.log_entries(session.id) == []
    with pytest.raises(ValueError):
        await db.save(session.model_copy(update={"version": 2}), 1, LogEntry(seq=7, actor=None, action={}, at=0))
    entry = LogEntry(seq=2, actor=None, action={"kind": "abandon"}, dice=[{"die": "1", "sides": 6, "value": 3}], at=5)
    assert await db.save(session.model_copy(update={"version": 2}), 1, entry)
    assert await db.log_entries(session.id) == [entry]


async def test_open_lobbies_are_counted_per_member(db: SqliteStore) -> None:
    await db.create_session(lobby(channel_id=1))
    await db.create_session(lobby(channel_id=2))
    assert await db.open_lobbies(1, 7) == 2
    assert await db.open_lobbies(1, 8) == 0
