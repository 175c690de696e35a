"""Storage on a real SQLite file: migrations, one live game per channel, the version check, the log."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.models import Game, LogEntry, Seat, Status
from bot.storage import MIGRATIONS, ChannelBusy, Database


def lobby(channel_id: int = 111) -> Game:
    return Game(
        guild_id=1,
        channel_id=channel_id,
        kind="race",
        status=Status.LOBBY,
        host_id=7,
        seats=[Seat(user_id=7, name="A")],
    )


@pytest.fixture
async def db(tmp_path: Path):
    database = Database(tmp_path / "sub" / "bot.sqlite3")
    await database.open()
    yield database
    await database.close()


async def test_migrations_are_applied_once_and_recorded(tmp_path: Path) -> None:
    path = tmp_path / "bot.sqlite3"
    for _ in range(2):
        database = Database(path)
        await database.open()
        async with database.conn.execute("PRAGMA user_version") as cur:
            assert (await cur.fetchone())[0] == len(MIGRATIONS)
        async with database.conn.execute("PRAGMA journal_mode") as cur:
            assert (await cur.fetchone())[0] == "wal"
        await database.close()


async def test_one_live_game_per_channel_but_history_is_kept(db: Database) -> None:
    first = await db.create_game(lobby())
    with pytest.raises(ChannelBusy):
        await db.create_game(lobby())
    await db.create_game(lobby(channel_id=222))  # another channel is independent
    finished = first.model_copy(update={"status": Status.FINISHED, "version": 1, "winners": ["P1"]})
    assert await db.save_game(finished, 0)
    second = await db.create_game(lobby())
    assert second.id != first.id
    history = await db.history(guild_id=1, channel_id=111)
    assert [g.id for g in history] == [first.id]


async def test_save_refuses_a_stale_version_and_writes_nothing(db: Database) -> None:
    game = await db.create_game(lobby())
    entry = LogEntry(seq=1, actor="P1", action={"kind": "act"}, at=1.0)
    moved = game.model_copy(update={"version": 1, "state_json": '{"x": 1}'})
    assert await db.save_game(moved, 0, entry)
    again = game.model_copy(update={"version": 1, "state_json": '{"x": 2}'})
    assert not await db.save_game(again, 0, LogEntry(seq=1, actor="P2", action={"kind": "act"}, at=2.0))
    stored = await db.game(game.id)
    assert stored is not None and stored.state == {"x": 1}
    assert [e.actor for e in await db.log_entries(game.id)] == ["P1"]


async def test_log_keeps_order_and_can_return_the_tail(db: Database) -> None:
    game = await db.create_game(lobby())
    for seq in range(1, 6):
        moved = game.model_copy(update={"version": seq})
        assert await db.save_game(moved, seq - 1, LogEntry(seq=seq, actor="P1", action={"n": seq}, at=float(seq)))
    tail = await db.log_entries(game.id, last=2)
    assert [e.seq for e in tail] == [4, 5]
    assert [e.action["n"] for e in await db.log_entries(game.id)] == [1, 2, 3, 4, 5]


async def test_due_games_follow_the_earliest_deadline(db: Database) -> None:
    from bot.models import Deadline

    game = lobby()
    game.deadlines = [Deadline(player="P1", decision="roll", at=100.0, remind_at=50.0)]
    stored = await db.create_game(game)
    assert await db.earliest_deadline() == 50.0
    assert await db.due_games(49.0) == []
    assert [g.id for g in await db.due_games(50.0)] == [stored.id]


async def test_guild_settings_round_trip(db: Database) -> None:
    assert await db.guild_settings(5) == {}
    await db.set_guild_settings(5, {"max_timeouts": 2})
    assert await db.guild_settings(5) == {"max_timeouts": 2}


async def test_only_saves_with_an_entry_are_logged_and_seq_must_match(db: Database) -> None:
    game = await db.create_game(lobby())
    assert await db.save_game(game.model_copy(update={"version": 1}), 0)  # a lobby change: no log entry
    assert await db.log_entries(game.id) == []
    with pytest.raises(ValueError):
        await db.save_game(game.model_copy(update={"version": 2}), 1, LogEntry(seq=7, actor=None, action={}, at=0))
    entry = LogEntry(seq=2, actor=None, action={"kind": "abandon"}, dice=[{"die": "1", "sides": 6, "value": 3}], at=5)
    assert await db.save_game(game.model_copy(update={"version": 2}), 1, entry)
    assert await db.log_entries(game.id) == [entry]
