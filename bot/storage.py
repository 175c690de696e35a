"""SQLite storage (WAL) with numbered migrations applied at startup, and the game repository."""

from __future__ import annotations

import asyncio
import json
import logging
from collections import OrderedDict
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite

from bot.models import Game, LogEntry, Status

log = logging.getLogger(__name__)

# Each migration is a list of statements applied in one transaction; its number is its position
# (1-based), stored in SQLite's user_version. Never edit a released migration: add a new one.
MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (
        """CREATE TABLE guild_settings (
            guild_id INTEGER PRIMARY KEY,
            data TEXT NOT NULL DEFAULT '{}'
        )""",
    ),
    (
        """CREATE TABLE games (
            id INTEGER PRIMARY KEY,
            guild_id INTEGER,
            channel_id INTEGER NOT NULL,
            kind TEXT NOT NULL,
            status TEXT NOT NULL CHECK (status IN ('lobby', 'active', 'finished', 'abandoned')),
            host_id INTEGER NOT NULL,
            options TEXT NOT NULL,
            seats TEXT NOT NULL,
            state TEXT,
            version INTEGER NOT NULL DEFAULT 0,
            board_message_id INTEGER,
            board_posted_at REAL,
            deadlines TEXT NOT NULL DEFAULT '[]',
            next_deadline REAL,
            created_at REAL NOT NULL,
            updated_at REAL NOT NULL,
            winners TEXT,
            last_event TEXT
        )""",
        # At most one lobby-or-active game per channel; finished games stay for history.
        "CREATE UNIQUE INDEX games_one_live_per_channel ON games(channel_id) WHERE status IN ('lobby', 'active')",
        "CREATE INDEX games_next_deadline ON games(next_deadline) WHERE next_deadline IS NOT NULL",
        "CREATE INDEX games_guild_updated ON games(guild_id, updated_at)",
        """CREATE TABLE game_events (
            game_id INTEGER NOT NULL REFERENCES games(id),
            seq INTEGER NOT NULL,
            actor TEXT,
            action TEXT NOT NULL,
            dice TEXT NOT NULL,
            events TEXT NOT NULL,
            at REAL NOT NULL,
            PRIMARY KEY (game_id, seq)
        ) WITHOUT ROWID""",
        # A game's row carries its latest log entry, and this trigger appends it to the log as part of
        # the same UPDATE: an action and its log entry are written by one statement, atomically, in
        # one trip to the database thread (an explicit transaction would take four).
        """CREATE TRIGGER games_append_event AFTER UPDATE OF version ON games
        WHEN NEW.last_event IS NOT NULL AND NEW.version <> OLD.version
        BEGIN
            INSERT INTO game_events (game_id, seq, actor, action, dice, events, at) VALUES (
                NEW.id,
                NEW.version,
                json_extract(NEW.last_event, '$.actor'),
                json_extract(NEW.last_event, '$.action'),
                json_extract(NEW.last_event, '$.dice'),
                json_extract(NEW.last_event, '$.events'),
                json_extract(NEW.last_event, '$.at')
            );
        END""",
    ),
)

GAME_CACHE_SIZE = 1024
_GAME_COLUMNS = (
    "id, guild_id, channel_id, kind, status, host_id, options, seats, state AS state_json, version, "
    "board_message_id, board_posted_at, deadlines, created_at, updated_at, winners"
)
# Stored as JSON text and parsed with the row; the state stays text until the runner needs it.
_JSON_FIELDS = ("options", "seats", "deadlines", "winners")


class ChannelBusy(Exception):
    """The channel already has a lobby or an active game."""


def _game_from_row(row: aiosqlite.Row) -> Game:
    data = dict(row)
    for key in _JSON_FIELDS:
        if data[key] is not None:
            data[key] = json.loads(data[key])
    return Game.model_validate(data)


def _entry_json(entry: LogEntry, version: int) -> str:
    """A log entry as the JSON the ``games_append_event`` trigger unpacks."""
    if entry.seq != version:
        raise ValueError(f"log entry {entry.seq} does not match game version {version}")
    return entry.model_dump_json(exclude={"seq"})


def _game_values(game: Game) -> dict[str, Any]:
    data = game.model_dump(mode="json", exclude={"id"})
    for key in _JSON_FIELDS:
        if data[key] is not None:
            data[key] = json.dumps(data[key], separators=(",", ":"))
    data["state"] = data.pop("state_json")
    data["next_deadline"] = game.next_deadline
    return data


class Database:
    """One aiosqlite connection, opened in WAL mode and migrated to the latest schema.

    Writes go through :meth:`transaction`, which serialises them within the process (one
    connection is shared by every coroutine); the version check in :meth:`save_game` protects
    against other processes writing the same file.

    Games read or written here are kept in a small in-memory cache, so a click does not wait for
    the database to read back what this process just wrote. Another process writing the same
    file can make a cached game stale; the version check then refuses the write, and the failed
    game is dropped from the cache so the next read is fresh.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._conn: aiosqlite.Connection | None = None
        self._write_lock = asyncio.Lock()
        self._games: OrderedDict[int, Game] = OrderedDict()

    @property
    def conn(self) -> aiosqlite.Connection:
        """The open connection."""
        if self._conn is None:
            raise RuntimeError("database is not open")
        return self._conn

    async def open(self) -> None:
        """Open the file (creating its folder), switch to WAL, apply pending migrations."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._conn = await aiosqlite.connect(self.path, isolation_level=None)
        self._conn.row_factory = aiosqlite.Row
        await self._conn.execute("PRAGMA journal_mode=WAL")
        # NORMAL with WAL: a committed action survives the bot being killed at any moment; only a
        # power cut or OS crash could lose the last few commits. FULL would add an fsync (~0.4 ms here)
        # to every click.
        await self._conn.execute("PRAGMA synchronous=NORMAL")
        await self._conn.execute("PRAGMA foreign_keys=ON")
        await self._conn.execute("PRAGMA busy_timeout=5000")
        await self._migrate()

    async def close(self) -> None:
        """Close the connection if open."""
        if self._conn is not None:
            await self._conn.close()
            self._conn = None

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """``BEGIN IMMEDIATE`` … ``COMMIT``, rolled back on any error."""
        async with self._write_lock:
            await self.conn.execute("BEGIN IMMEDIATE")
            try:
                yield self.conn
            except BaseException:
                await self.conn.execute("ROLLBACK")
                raise
            await self.conn.execute("COMMIT")

    async def _write(self, sql: str, params: Any) -> aiosqlite.Cursor:
        """One write statement, committed on its own (autocommit), never inside another coroutine's transaction."""
        async with self._write_lock:
            return await self.conn.execute(sql, params)

    async def _migrate(self) -> None:
        async with self.conn.execute("PRAGMA user_version") as cur:
            row = await cur.fetchone()
        current = row[0] if row else 0
        for number, statements in enumerate(MIGRATIONS[current:], start=current + 1):
            async with self.transaction() as conn:
                for statement in statements:
                    await conn.execute(statement)
                await conn.execute(f"PRAGMA user_version = {number}")
            log.info("Applied migration %d", number)

    # -- games -------------------------------------------------------------------------------

    async def create_game(self, game: Game) -> Game:
        """Insert a new game; raise ChannelBusy if its channel already has a live one."""
        values = _game_values(game)
        columns = ", ".join(values)
        marks = ", ".join(f":{k}" for k in values)
        try:
            cur = await self._write(f"INSERT INTO games ({columns}) VALUES ({marks})", values)
        except aiosqlite.IntegrityError as exc:
            raise ChannelBusy from exc
        game = game.model_copy(update={"id": cur.lastrowid})
        self._cache(game)
        return game

    async def save_game(self, game: Game, expected_version: int, entry: LogEntry | None = None) -> bool:
        """Write ``game`` (and its log entry) if it is still at ``expected_version``.

        Returns False, changing nothing, if someone else saved the game first. The game's
        ``version`` must already be the new one, and ``entry.seq`` equal to it. One UPDATE statement:
        the ``games_append_event`` trigger writes the log entry in the same statement.
        """
        values = _game_values(game)
        values["last_event"] = None if entry is None else _entry_json(entry, game.version)
        assignments = ", ".join(f"{k} = :{k}" for k in values)
        cur = await self._write(
            f"UPDATE games SET {assignments} WHERE id = :id AND version = :expected",
            {**values, "id": game.id, "expected": expected_version},
        )
        if cur.rowcount != 1:
            self._games.pop(game.id, None)
            return False
        self._cache(game)
        return True

    def _cache(self, game: Game) -> None:
        """Keep a private copy of the game as stored (callers may go on changing theirs)."""
        self._games[game.id] = game.clone()
        self._games.move_to_end(game.id)
        if len(self._games) > GAME_CACHE_SIZE:
            self._games.popitem(last=False)

    async def _one(self, where: str, params: tuple[Any, ...]) -> Game | None:
        # execute_fetchall: one trip to the database thread instead of three (execute, fetch, close).
        rows = await self.conn.execute_fetchall(f"SELECT {_GAME_COLUMNS} FROM games WHERE {where}", params)
        if not rows:
            return None
        game = _game_from_row(rows[0])  # type: ignore[index]
        self._cache(game)
        return game

    async def game(self, game_id: int) -> Game | None:
        """The game with this id (a copy the caller may change)."""
        cached = self._games.get(game_id)
        if cached is not None:
            return cached.clone()
        return await self._one("id = ?", (game_id,))

    async def live_game(self, channel_id: int) -> Game | None:
        """The lobby or active game in this channel, if any."""
        return await self._one("channel_id = ? AND status IN ('lobby', 'active')", (channel_id,))

    async def set_board(self, game_id: int, version: int, message_id: int, posted_at: float) -> bool:
        """Remember the game's current board message, if the game is still at ``version``.

        A single statement, so it needs no explicit transaction: the board is known only after the
        action that led to it was committed and posted.
        """
        cur = await self._write(
            "UPDATE games SET board_message_id = ?, board_posted_at = ? WHERE id = ? AND version = ?",
            (message_id, posted_at, game_id, version),
        )
        cached = self._games.get(game_id)
        if cur.rowcount != 1:
            self._games.pop(game_id, None)
        elif cached is not None:
            cached.board_message_id, cached.board_posted_at = message_id, posted_at
        return cur.rowcount == 1

    async def active_games(self) -> list[Game]:
        """Every game in progress (used once at startup)."""
        rows = await self.conn.execute_fetchall(f"SELECT {_GAME_COLUMNS} FROM games WHERE status = 'active'")
        return [_game_from_row(r) for r in rows]

    async def put_off(self, game_id: int, moment: float) -> None:
        """Look at a game's deadlines again only at ``moment`` (after handling them failed).

        The next real save of the game sets ``next_deadline`` from its deadlines again.
        """
        await self._write("UPDATE games SET next_deadline = ? WHERE id = ?", (moment, game_id))
        self._games.pop(game_id, None)

    async def due_games(self, now: float) -> list[Game]:
        """Live games with a deadline or reminder at or before ``now``."""
        rows = await self.conn.execute_fetchall(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE next_deadline IS NOT NULL AND next_deadline <= ? "
            "AND status IN ('lobby', 'active') ORDER BY next_deadline",
            (now,),
        )
        return [_game_from_row(r) for r in rows]

    async def earliest_deadline(self) -> float | None:
        """The soonest deadline or reminder of any live game."""
        rows = await self.conn.execute_fetchall(
            "SELECT MIN(next_deadline) FROM games WHERE next_deadline IS NOT NULL AND status IN ('lobby', 'active')"
        )
        return rows[0][0] if rows else None  # type: ignore[index]

    async def history(self, *, guild_id: int | None, channel_id: int | None, limit: int = 10) -> list[Game]:
        """Most recent finished or abandoned games of a channel (or a whole guild)."""
        where = "status IN ('finished', 'abandoned')"
        params: list[Any] = []
        if channel_id is not None:
            where += " AND channel_id = ?"
            params.append(channel_id)
        else:
            where += " AND guild_id IS ?"
            params.append(guild_id)
        async with self.conn.execute(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE {where} ORDER BY updated_at DESC LIMIT ?", (*params, limit)
        ) as cur:
            return [_game_from_row(r) for r in await cur.fetchall()]

    async def log_entries(self, game_id: int, *, last: int | None = None) -> list[LogEntry]:
        """The game's log, oldest first (only the ``last`` entries if given)."""
        sql = "SELECT seq, actor, action, dice, events, at FROM game_events WHERE game_id = ? ORDER BY seq"
        params: tuple[Any, ...] = (game_id,)
        if last is not None:
            sql = f"SELECT * FROM ({sql} DESC LIMIT ?) ORDER BY seq"
            params = (game_id, last)
        async with self.conn.execute(sql, params) as cur:
            rows = await cur.fetchall()
        return [
            LogEntry(
                seq=r["seq"],
                actor=r["actor"],
                action=json.loads(r["action"]),
                dice=json.loads(r["dice"]),
                events=json.loads(r["events"]),
                at=r["at"],
            )
            for r in rows
        ]

    # -- guild settings ------------------------------------------------------------------------

    async def guild_settings(self, guild_id: int) -> dict[str, Any]:
        """The guild's stored settings (empty if none)."""
        async with self.conn.execute("SELECT data FROM guild_settings WHERE guild_id = ?", (guild_id,)) as cur:
            row = await cur.fetchone()
        return json.loads(row[0]) if row else {}

    async def set_guild_settings(self, guild_id: int, data: dict[str, Any]) -> None:
        """Replace the guild's settings."""
        await self._write(
            "INSERT INTO guild_settings (guild_id, data) VALUES (?, ?) "
            "ON CONFLICT(guild_id) DO UPDATE SET data = excluded.data",
            (guild_id, json.dumps(data)),
        )


__all__ = ["ChannelBusy", "Database", "Status"]
