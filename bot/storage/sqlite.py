"""SQLite storage (WAL, one aiosqlite connection), with the numbered migrations of ``bot.storage.migrations``."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from bot.models import Board, Deadline, GuildSettings, LogEntry, Scope, Session, Status
from bot.shards import ALL, Shards
from bot.storage.base import ATTENTION_BATCH, DUE_BATCH, Duplicate, StorageError
from bot.storage.cache import SessionCache
from bot.storage.dice import DiceTables, commit_counts
from bot.storage.migrations import ATTENTION, REENCODE_LOG, SQLITE_MIGRATIONS, Convert
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
T = TypeVar("T")

# Another process may hold the write lock for a while (a backup, a second bot process): wait rather
# than fail. Interactions don't wait on this: they are deferred after ~2 s (bot.replies).
BUSY_TIMEOUT_MS = 30_000
BATCH = 2_000
"""Rows a migration's conversion holds at once."""
FREE_SHARE = 4
"""After migrating, the file is vacuumed if more than 1/FREE_SHARE of its pages are free."""


def _view_path(view: str) -> str:
    """The JSON path of a view in the ``boards`` column (a view is a record key such as ``troupe:123``)."""
    if '"' in view:
        raise ValueError(f"a view name can't hold a double quote: {view!r}")
    return f'$."{view}"'


def _owned(shards: Shards) -> tuple[str, tuple[int, ...]]:
    """``AND`` the session's server is in one of ``shards`` (nothing when they are all of them)."""
    if shards.everything:
        return "", ()
    marks = ", ".join("?" for _ in shards.ids)
    return f" AND {SHARD_OF} % ? IN ({marks})", (shards.count, *shards.ids)


def _try_open(path: Path) -> None:
    """Open and close ``path`` with plain sqlite3 (creating it if missing): raises what opening would raise."""
    sqlite3.connect(path).close()


def _first_file(path: Path) -> Path:
    """The first part of ``path`` that exists and is not a folder (``path`` itself if none is)."""
    for part in reversed(path.parents):
        if part.exists() and not part.is_dir():
            return part
    return path


class _SqliteSql:
    """The dice tables' adapter: reads at once; writes under the store's write lock, or in its open transaction."""

    def __init__(self, conn: aiosqlite.Connection, lock: asyncio.Lock | None) -> None:
        self.conn = conn
        self.lock = lock

    async def fetch(self, sql: str, *params: Any) -> list[Any]:
        if self.lock is None or sql.lstrip().upper().startswith("SELECT"):
            return list(await self.conn.execute_fetchall(sql, params))
        async with self.lock:
            return list(await self.conn.execute_fetchall(sql, params))

    async def execute(self, sql: str, *params: Any) -> int:
        return await self.run(sql, params)

    async def run(self, sql: str, params: Any) -> int:
        """One statement with its parameters as sqlite3 takes them (a sequence, or a mapping of names)."""
        if self.lock is None:
            return (await self.conn.execute(sql, params)).rowcount
        async with self.lock:
            return (await self.conn.execute(sql, params)).rowcount


class _SqliteNow:
    """The dice tables' adapter on the event loop's own connection: every statement runs at once, inside the
    transaction ``SqliteStore._writing`` holds open (the coroutines never suspend)."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    async def fetch(self, sql: str, *params: Any) -> list[Any]:
        return list(self.conn.execute(sql, params).fetchall())

    async def execute(self, sql: str, *params: Any) -> int:
        return await self.run(sql, params)

    async def run(self, sql: str, params: Any) -> int:
        """One statement with its parameters as sqlite3 takes them (a sequence, or a mapping of names)."""
        return self.conn.execute(sql, params).rowcount


def _busy(exc: sqlite3.OperationalError) -> bool:
    """Another connection holds the file's write lock."""
    return "locked" in str(exc) or "busy" in str(exc)


class SqliteStore(DiceTables):
    """One aiosqlite connection, opened in WAL mode and migrated to the latest schema.

    Sessions read or written here are kept in ``bot.storage.cache`` (correctness never depends on it).

    The sessions it returns are shared, not copied: treat them as read-only and make changes on
    ``Session.successor()`` (or ``clone()``), as the service does.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._conn: aiosqlite.Connection | None = None
        self._write_lock = asyncio.Lock()
        self._now: sqlite3.Connection | None = None
        """A second connection on the event loop's thread for writes that must not wait (``_write``)."""
        self._opened = False
        self.cache = SessionCache()

    @property
    def conn(self) -> aiosqlite.Connection:
        """The open connection."""
        if self._conn is None:
            raise RuntimeError("database is not open")
        return self._conn

    async def open(self) -> None:
        """Open the file (creating its folder), switch to WAL, apply pending migrations.

        Every way this can fail ends in a StorageError whose text names the path and what to do.
        """
        self._make_folder()
        try:
            # Plain sqlite3 first: when aiosqlite fails to open a file, its thread outlives the attempt
            # and later trips over the closed event loop, printing a traceback after our one clear line.
            await asyncio.to_thread(_try_open, self.path)
            self._conn = await aiosqlite.connect(self.path, isolation_level=None)
            self._conn.row_factory = aiosqlite.Row
            await self._conn.execute("PRAGMA journal_mode=WAL")
            # NORMAL with WAL: a committed action survives the bot being killed at any moment; only a
            # power cut or OS crash could lose the last few commits. FULL would add an fsync to every click.
            await self._conn.execute("PRAGMA synchronous=NORMAL")
            await self._conn.execute("PRAGMA foreign_keys=ON")
            await self._conn.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
            if not self._closed_cleanly():
                await self._check_integrity()
            await self._migrate()
            await self._check_writable()
            self._now = self._connect_now()
            self._opened = True
        except sqlite3.DatabaseError as exc:
            await self.close()
            raise StorageError(self._advice(exc)) from exc
        except BaseException:
            await self.close()  # its thread would keep the process alive
            raise

    def _make_folder(self) -> None:
        folder = self.path.parent
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except (FileExistsError, NotADirectoryError):
            raise StorageError(
                f"DATABASE_PATH {self.path}: {_first_file(folder)} is a file, not a folder; choose another path."
            ) from None
        except OSError as exc:
            raise StorageError(
                f"DATABASE_PATH {self.path}: can't create the folder {folder} ({exc.strerror}); "
                "create it yourself or choose another path."
            ) from None

    def _advice(self, exc: sqlite3.DatabaseError) -> str:
        """What to do, judged from the file and its folder as this user sees them (the error text is vague)."""
        text = str(exc)
        where = f"DATABASE_PATH {self.path}"
        if "not a database" in text or "malformed" in text or "corrupt" in text:
            return (
                f"{where}: the file is not a healthy SQLite database ({text}); "
                "restore it from a backup or move it aside to start afresh."
            )
        if "readonly" not in text and "unable to open" not in text:
            return f"{where}: {text}"
        if self.path.is_dir():
            return f"{where} is a folder; give the path of a file in it, e.g. {self.path / 'bot.sqlite3'}."
        user = f"this user (uid {os.getuid()})"
        if self.path.exists() and not os.access(self.path, os.W_OK):
            return f"{where}: the file is read-only for {user}; make it writable or choose another path."
        if not os.access(self.path.parent, os.W_OK | os.X_OK):
            # SQLite also creates its -wal and -shm files beside the database, so the folder matters too.
            return (
                f"{where}: the folder {self.path.parent} is not writable by {user}; make it writable "
                f"(for a Docker bind mount: chown {os.getuid()} on the host folder) or choose another path."
            )
        # Permissions look fine yet writing fails: a read-only file system, or /proc and the like.
        return f"{where}: can't write there ({text}); choose a path on a writable disk."

    @property
    def _clean_marker(self) -> Path:
        return self.path.with_name(self.path.name + ".clean")

    def _closed_cleanly(self) -> bool:
        """Whether the bot closed this file last and nothing has written it since (then the whole-file check at
        startup is skipped: it reads every page, seconds on a big file). Consumed: a crash leaves no marker."""
        try:
            marker = json.loads(self._clean_marker.read_text())
            self._clean_marker.unlink()
            stat = self.path.stat()
        except (OSError, ValueError):
            return False
        # A write not yet checkpointed into the file sits in its WAL (closing cleanly leaves none).
        wal = self.path.with_name(self.path.name + "-wal")
        written = wal.exists() and wal.stat().st_size > 0
        return not written and marker == {"size": stat.st_size, "mtime_ns": stat.st_mtime_ns}

    def _mark_clean(self) -> None:
        """Remember the file as closed cleanly (its size and modification time, which any other writer changes)."""
        with contextlib.suppress(OSError):
            stat = self.path.stat()
            self._clean_marker.write_text(json.dumps({"size": stat.st_size, "mtime_ns": stat.st_mtime_ns}))

    async def _check_integrity(self) -> None:
        # quick_check reads every page, so a corrupt file is found now rather than on the first click.
        rows = await self.conn.execute_fetchall("PRAGMA quick_check")
        problems = [r[0] for r in rows if r[0] != "ok"]
        if problems:
            # The first report reads "*** in database main ***\nPage 6: …": keep the page, on one line.
            first = " ".join(line for line in problems[0].splitlines() if not line.startswith("***"))
            raise sqlite3.DatabaseError(f"database disk image is malformed: {first}")

    async def _check_writable(self) -> None:
        # Reading works on a read-only file, and there may be nothing to migrate: write once now, so a
        # file the bot can't change stops it at startup rather than failing the first click.
        rows = await self.conn.execute_fetchall("PRAGMA user_version")
        async with self._transaction() as conn:
            await conn.execute(f"PRAGMA user_version = {rows[0][0]}")  # type: ignore[index]

    async def trace(self, callback: Callable[[str], object] | None) -> None:
        """Call ``callback`` with every statement either connection runs (None stops it): for tests and debugging."""
        await self.conn.set_trace_callback(callback)  # type: ignore[arg-type]  # None stops it, as sqlite3's does
        if self._now is not None:
            self._now.set_trace_callback(callback)

    def _connect_now(self) -> sqlite3.Connection:
        """The connection ``_write`` uses on the event loop: it never waits for a lock (busy_timeout 0)."""
        now = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        now.row_factory = sqlite3.Row  # rows read by name, as from the other connection
        now.execute("PRAGMA synchronous=NORMAL")
        now.execute("PRAGMA foreign_keys=ON")
        now.execute("PRAGMA busy_timeout=0")
        return now

    async def close(self) -> None:
        """Close the connection if open (marking the file as closed cleanly, when it was opened fine)."""
        if self._now is not None:
            self._now.close()
            self._now = None
        if self._conn is not None:
            await self._conn.close()
            self._conn = None
            if self._opened:
                self._mark_clean()

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """``BEGIN IMMEDIATE`` … ``COMMIT``, rolled back on any error."""
        async with self._write_lock:
            await self.conn.execute("BEGIN IMMEDIATE")
            try:
                yield self.conn
            except BaseException:
                await self.conn.execute("ROLLBACK")
                raise
            await self.conn.execute("COMMIT")

    def _sql(self) -> _SqliteSql:
        return _SqliteSql(self.conn, self._write_lock)

    @asynccontextmanager
    async def _sql_transaction(self) -> AsyncIterator[_SqliteSql]:
        async with self._transaction() as conn:
            yield _SqliteSql(conn, None)

    async def _write(self, sql: str, params: Any) -> int:
        """One write statement, committed on its own, never inside another coroutine's transaction; the number
        of rows it changed. On the event loop's own connection when the file is free (see ``_writing``)."""
        async with self._write_lock:
            if self._now is not None:
                try:
                    return self._now.execute(sql, params).rowcount
                except sqlite3.OperationalError as exc:
                    if not _busy(exc):
                        raise
            return (await self.conn.execute(sql, params)).rowcount

    async def _writing(self, work: Callable[[_SqliteSql | _SqliteNow], Awaitable[T]]) -> T:
        """Run ``work`` as one transaction, under this process's write lock.

        It is tried first on the event loop's own thread, on a connection that never waits for the file's lock:
        about 0.07 ms a statement, where each hand-off to aiosqlite's thread and back costs several times that.
        Nothing in ``work`` suspends there (the statements run at once), so no other coroutine can step into the
        transaction. If another process holds the file's lock, ``work`` runs again on aiosqlite's thread, which
        waits for it (``BUSY_TIMEOUT_MS``) without holding up the event loop."""
        async with self._write_lock:
            now = self._now
            if now is not None:
                try:
                    now.execute("BEGIN IMMEDIATE")
                except sqlite3.OperationalError as exc:
                    if not _busy(exc):
                        raise
                else:
                    try:
                        result = await work(_SqliteNow(now))
                    except BaseException:
                        now.execute("ROLLBACK")
                        raise
                    now.execute("COMMIT")
                    return result
            await self.conn.execute("BEGIN IMMEDIATE")
            try:
                result = await work(_SqliteSql(self.conn, None))
            except BaseException:
                await self.conn.execute("ROLLBACK")
                raise
            await self.conn.execute("COMMIT")
            return result

    async def _migrate(self) -> None:
        rows = await self.conn.execute_fetchall("PRAGMA user_version")
        current = rows[0][0] if rows else 0  # type: ignore[index]
        if current > len(SQLITE_MIGRATIONS):
            raise StorageError(
                f"DATABASE_PATH {self.path}: the database was made by a newer version of the bot "
                f"(schema {current}, this version knows {len(SQLITE_MIGRATIONS)}); upgrade the bot."
            )
        for number, statements in enumerate(SQLITE_MIGRATIONS[current:], start=current + 1):
            async with self._transaction() as conn:
                for statement in statements:
                    if isinstance(statement, Convert):
                        await self._convert(conn, statement)
                    else:
                        await conn.execute(statement)
                await conn.execute(f"PRAGMA user_version = {number}")
            log.info("Applied migration %d", number)
        if current < len(SQLITE_MIGRATIONS):
            await self._give_back_space()

    async def _give_back_space(self) -> None:
        """After migrating, give the disk back if most of the file is free pages (migration 7 rewrote the log in a
        fifth of the space): ``VACUUM``, once, before anyone is served (~20 s for a file of 1.6 GB)."""
        pages = (await self.conn.execute_fetchall("PRAGMA page_count"))[0][0]  # type: ignore[index]
        free = (await self.conn.execute_fetchall("PRAGMA freelist_count"))[0][0]  # type: ignore[index]
        if free * FREE_SHARE > pages:
            log.info("Giving back %d free pages of %d", free, pages)
            async with self._write_lock:
                await self.conn.execute("VACUUM")

    async def _convert(self, conn: aiosqlite.Connection, step: Convert) -> None:
        """A migration's conversion, in its transaction: the JSON log re-encoded, ``BATCH`` rows at a time."""
        assert step == REENCODE_LOG, step
        after: tuple[int, int] = (-1, -1)
        while True:
            rows = await conn.execute_fetchall(
                f"SELECT {LEGACY_EVENT_COLUMNS} FROM session_events WHERE (session_id, seq) > (?, ?) "
                "ORDER BY session_id, seq LIMIT ?",
                (*after, BATCH),
            )
            if not rows:
                return
            await conn.executemany(
                "INSERT INTO session_log (session_id, seq, entry) VALUES (?, ?, ?)",
                [(sid, row["seq"], entry) for row in rows for sid, entry in [legacy_entry(row)]],
            )
            last = list(rows)[-1]
            after = (last["session_id"], last["seq"])

    # -- sessions ------------------------------------------------------------------------------

    async def create_session(self, session: Session, entry: LogEntry | None = None) -> Session:
        values = session_values(session)
        values["last_entry"] = None
        values["news_from"] = news_seq(entry)
        columns = ", ".join(values)
        marks = ", ".join(f":{k}" for k in values)
        try:
            async with self._transaction() as conn:
                cur = await conn.execute(f"INSERT INTO sessions ({columns}) VALUES ({marks})", values)
                session_id = cur.lastrowid
                if entry is not None:
                    await conn.execute(
                        "INSERT INTO session_events (session_id, seq, chapter, entry) VALUES (?, ?, ?, ?)",
                        (session_id, entry.seq, session.chapter, encoded_entry(entry, session.version)),
                    )
        except sqlite3.IntegrityError as exc:
            raise Duplicate from exc
        assert session_id is not None
        created = session.model_copy(update={"id": session_id, "news_from": values["news_from"]})
        self.cache.keep(created)
        return created

    async def save(self, session: Session, expected_version: int, entry: LogEntry | None = None) -> bool:
        # One UPDATE statement: the sessions_append_event trigger writes the log entry in the same
        # statement, atomically, in one trip to the database thread.
        values = session_values(session)
        values["last_entry"] = None if entry is None else encoded_entry(entry, session.version)
        assignments = ", ".join(f"{k} = :{k}" for k in values)
        news = news_seq(entry)
        update = (
            f"UPDATE sessions SET {assignments}, news_from = COALESCE(news_from, :news) "
            "WHERE id = :id AND version = :expected"
        )
        params = {**values, "news": news, "id": session.id, "expected": expected_version}
        counts = commit_counts(session, entry)

        async def write(sql: _SqliteSql | _SqliteNow) -> int:
            changed = await sql.run(update, params)
            if changed == 1 and counts:
                # Dice a member rolled (or a game's finish) count in the luck statistics in the same transaction.
                await self.count_commit(sql, session, entry)
            return changed

        changed = await (self._writing(write) if counts else self._write(update, params))
        if changed != 1:
            self.cache.forget(session.id)
            return False
        self.cache.saved(session, news)
        return True

    async def _one(self, where: str, params: tuple[Any, ...]) -> Session | None:
        # execute_fetchall: one trip to the database thread instead of three (execute, fetch, close).
        rows = await self.conn.execute_fetchall(f"{SELECT} WHERE {where}", params)
        if not rows:
            return None
        return self.cache.read(session_from_row(rows[0]))  # type: ignore[index]

    async def _many(self, where: str, params: tuple[Any, ...] = ()) -> list[Session]:
        rows = await self.conn.execute_fetchall(f"{SELECT} WHERE {where}", params)
        return [session_from_row(r) for r in rows]

    async def session(self, session_id: int) -> Session | None:
        return self.cache.get(session_id) or await self._one("s.id = ?", (session_id,))

    async def live_session(self, channel_id: int, scope: Scope) -> Session | None:
        return await self._one(f"s.channel_id = ? AND s.scope = ? AND s.name IS NULL AND {LIVE}", (channel_id, scope))

    async def live_named(self, guild_id: int, name: str) -> Session | None:
        return await self._one(f"s.guild_id = ? AND lower(s.name) = lower(?) AND {LIVE}", (guild_id, name))

    async def live_in_guild(self, guild_id: int, scope: Scope) -> list[Session]:
        return await self._many(f"s.guild_id = ? AND s.scope = ? AND {LIVE}", (guild_id, scope))

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
        path = _view_path(board.view) if board is not None else None
        text, moment = deadline_values(deadlines) if deadlines is not None else (None, None)
        await self._write(
            "UPDATE sessions SET "
            "boards = CASE WHEN :path IS NULL THEN boards "
            "WHEN COALESCE(json_extract(boards, :path || '.shown_version'), -1) <= :shown "
            "THEN json_set(boards, :path, json(:board)) ELSE boards END, "
            "deadlines = CASE WHEN :deadlines IS NOT NULL AND version = :version THEN :deadlines ELSE deadlines END, "
            "next_deadline = CASE WHEN :deadlines IS NOT NULL AND version = :version THEN :moment "
            "ELSE next_deadline END, "
            "drawn = CASE WHEN :drawn IS NOT NULL AND drawn < :drawn THEN :drawn ELSE drawn END "
            "WHERE id = :id",
            {
                "path": path,
                "shown": board.shown_version if board is not None else None,
                "board": board.model_dump_json() if board is not None else None,
                "deadlines": text,
                "moment": moment,
                "version": version,
                "drawn": drawn,
                "id": session_id,
            },
        )
        self.cache.shown(session_id, board, deadlines, version, drawn)

    async def claim_reminder(self, session_id: int, version: int, index: int, deadlines: list[Deadline]) -> bool:
        text, moment = deadline_values(deadlines)
        changed = await self._write(
            "UPDATE sessions SET deadlines = :deadlines, next_deadline = :moment "
            "WHERE id = :id AND version = :version AND json_extract(deadlines, :pending) IS NOT NULL",
            {
                "deadlines": text,
                "moment": moment,
                "id": session_id,
                "version": version,
                "pending": f"$[{int(index)}].remind_at",
            },
        )
        if changed != 1:
            self.cache.forget(session_id)
            return False
        self.cache.shown(session_id, None, deadlines, version)
        return True

    async def drop_board(self, session_id: int, view: str, message_id: int) -> None:
        path = _view_path(view)
        await self._write(
            "UPDATE sessions SET boards = json_remove(boards, :path) "
            "WHERE id = :id AND json_extract(boards, :path || '.message_id') = :message",
            {"path": path, "id": session_id, "message": message_id},
        )
        self.cache.board_dropped(session_id, view, message_id)

    async def news_delivered(self, session_id: int, upto: int) -> None:
        # Entries after ``upto`` may have news of their own (committed meanwhile): they stay pending.
        await self._write(
            "UPDATE sessions SET news_from = CASE WHEN version > :upto THEN :upto + 1 ELSE NULL END "
            "WHERE id = :id AND news_from IS NOT NULL AND news_from <= :upto",
            {"upto": upto, "id": session_id},
        )
        self.cache.news_delivered(session_id, upto)

    async def attention(self, shards: Shards = ALL, *, after: int = 0, limit: int = ATTENTION_BATCH) -> list[int]:
        where, params = _owned(shards)
        rows = await self.conn.execute_fetchall(
            f"SELECT s.id FROM sessions s WHERE {ATTENTION} AND s.id > ?{where} ORDER BY s.id LIMIT ?",
            (after, *params, limit),
        )
        return [int(r[0]) for r in rows]

    async def due_sessions(self, now: float, shards: Shards = ALL, *, limit: int = DUE_BATCH) -> list[Session]:
        where, params = _owned(shards)
        return await self._many(
            f"s.next_deadline IS NOT NULL AND s.next_deadline <= ? AND {LIVE}{where} ORDER BY s.next_deadline LIMIT ?",
            (now, *params, limit),
        )

    async def earliest_deadline(self, shards: Shards = ALL) -> float | None:
        where, params = _owned(shards)
        rows = await self.conn.execute_fetchall(
            f"SELECT MIN(s.next_deadline) FROM sessions s WHERE s.next_deadline IS NOT NULL AND {LIVE}{where}", params
        )
        return rows[0][0] if rows else None  # type: ignore[index]

    async def put_off(self, session_id: int, moment: float) -> None:
        # The next real save of the session sets next_deadline from its deadlines again.
        await self._write("UPDATE sessions SET next_deadline = ? WHERE id = ?", (moment, session_id))
        self.cache.forget(session_id)

    async def history(self, *, guild_id: int | None, channel_id: int | None, limit: int = 10) -> list[Session]:
        where = "s.status IN ('finished', 'abandoned') AND s.scope = 'table'"
        params: list[Any] = []
        if channel_id is not None:
            where += " AND s.channel_id = ?"
            params.append(channel_id)
        else:
            where += " AND s.guild_id IS ?"  # IS: a DM's sessions have none, and SQLite's index still serves it
            params.append(guild_id)
        return await self._many(f"{where} ORDER BY s.updated_at DESC LIMIT ?", (*params, limit))

    async def log_entries(
        self,
        session_id: int,
        *,
        after: int | None = None,
        last: int | None = None,
        chapters: tuple[int, int] | None = None,
    ) -> list[LogEntry]:
        sql = f"SELECT {EVENT_COLUMNS} FROM session_events WHERE session_id = ?"
        params: tuple[Any, ...] = (session_id,)
        if after is not None:
            sql += " AND seq > ?"
            params = (*params, after)
        if chapters is not None:
            sql += " AND chapter BETWEEN ? AND ?"
            params = (*params, *chapters)
        sql += " ORDER BY seq"
        if last is not None:
            sql = f"SELECT * FROM ({sql} DESC LIMIT ?) ORDER BY seq"
            params = (*params, last)
        rows = await self.conn.execute_fetchall(sql, params)
        return [entry_from_row(r) for r in rows]

    async def chaptered(self, session_id: int) -> bool:
        rows = await self.conn.execute_fetchall(
            "SELECT chapter IS NOT NULL FROM session_events WHERE session_id = ? ORDER BY seq LIMIT 1", (session_id,)
        )
        return bool(rows) and bool(rows[0][0])  # type: ignore[index]

    async def stamp_chapters(self, session_id: int, chapters: Mapping[int, int]) -> None:
        async with self._transaction() as conn:
            await conn.executemany(
                "UPDATE session_events SET chapter = ? WHERE session_id = ? AND seq = ? AND chapter IS NULL",
                [(chapter, session_id, seq) for seq, chapter in chapters.items()],
            )

    async def checkpoint(self, session_id: int) -> tuple[int, str] | None:
        rows = await self.conn.execute_fetchall(
            "SELECT seq, state FROM session_checkpoints WHERE session_id = ?", (session_id,)
        )
        return (int(rows[0][0]), str(rows[0][1])) if rows else None  # type: ignore[index]

    async def clear_old_logs(self, now: float, shards: Shards = ALL, limit: int = 100) -> int:
        where, params = _owned(shards)
        # Each server with a retention setting, then its ended sessions by the index on when they ended.
        rows = await self.conn.execute_fetchall(
            # CROSS JOIN: SQLite keeps this order (servers outside), whatever it guesses of the tables' sizes.
            "SELECT s.id FROM guild_settings g CROSS JOIN sessions s "
            f"WHERE json_extract(g.data, '$.keep_logs_days') IS NOT NULL AND s.guild_id = g.guild_id AND {ENDED} "
            "AND s.log_cleared_at IS NULL "
            f"AND s.updated_at < ? - json_extract(g.data, '$.keep_logs_days') * {DAY_S}{where} LIMIT ?",
            (now, *params, limit),
        )
        ids = [int(r[0]) for r in rows]
        if ids:
            marks = ", ".join("?" for _ in ids)
            async with self._transaction() as conn:
                await conn.execute(f"DELETE FROM session_events WHERE session_id IN ({marks})", ids)
                await conn.execute(
                    f"UPDATE sessions SET log_cleared_at = ?, last_entry = NULL WHERE id IN ({marks})", (now, *ids)
                )
        return len(ids)

    async def open_lobbies(self, guild_id: int, host_id: int) -> int:
        rows = await self.conn.execute_fetchall(
            "SELECT COUNT(*) FROM sessions WHERE guild_id = ? AND host_id = ? AND status = ?",
            (guild_id, host_id, Status.LOBBY),
        )
        return int(rows[0][0])  # type: ignore[index]

    # -- guild settings ------------------------------------------------------------------------

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        rows = await self.conn.execute_fetchall("SELECT data FROM guild_settings WHERE guild_id = ?", (guild_id,))
        return GuildSettings.model_validate_json(rows[0][0]) if rows else GuildSettings()  # type: ignore[index]

    async def set_guild_settings(self, guild_id: int, settings: GuildSettings) -> None:
        await self._write(
            "INSERT INTO guild_settings (guild_id, data) VALUES (?, ?) "
            "ON CONFLICT(guild_id) DO UPDATE SET data = excluded.data",
            (guild_id, settings.model_dump_json(exclude_defaults=True)),
        )
