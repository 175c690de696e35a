"""SQLite storage (WAL, one aiosqlite connection), with the numbered migrations of ``bot.storage.migrations``."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from bot.storage.base import StorageError
from bot.storage.cache import SessionCache
from bot.storage.dialect import REENCODE_LOG, SQLITE, Convert
from bot.storage.filelock import Busy, DatabaseLock
from bot.storage.migrations import SQLITE_MIGRATIONS
from bot.storage.queries import SessionTables, legacy_log
from bot.storage.sql import bind

log = logging.getLogger(__name__)
T = TypeVar("T")

# Another process may hold the write lock for a while (a backup, a second bot process): wait rather
# than fail. Interactions don't wait on this: they are deferred after ~2 s (bot.replies).
BUSY_TIMEOUT_MS = 30_000
FREE_SHARE = 4
"""After migrating, the file is vacuumed if more than 1/FREE_SHARE of its pages are free."""


def _try_open(path: Path) -> None:
    """Open and close ``path`` with plain sqlite3 (creating it if missing): raises what opening would raise."""
    sqlite3.connect(path).close()


def _identity(path: Path) -> tuple[int, int] | None:
    """Which file ``path`` is (device and inode), None if there is none."""
    try:
        stat = path.stat()
    except OSError:
        return None
    return stat.st_dev, stat.st_ino


def _first_file(path: Path) -> Path:
    """The first part of ``path`` that exists and is not a folder (``path`` itself if none is)."""
    for part in reversed(path.parents):
        if part.exists() and not part.is_dir():
            return part
    return path


class _SqliteThread:
    """Statements on aiosqlite's connection, run on its thread."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self.conn = conn

    async def fetch(self, sql: str, /, *args: Any, **named: Any) -> list[Any]:
        # execute_fetchall: one trip to the database thread instead of three (execute, fetch, close).
        return list(await self.conn.execute_fetchall(*bind(SQLITE, sql, args, named)))

    async def execute(self, sql: str, /, *args: Any, **named: Any) -> int:
        return (await self.conn.execute(*bind(SQLITE, sql, args, named))).rowcount

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        await self.conn.executemany(bind(SQLITE, sql, (), {})[0], rows)


class _SqliteNow:
    """Statements on the event loop's own connection: each runs at once (the coroutines never suspend)."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    async def fetch(self, sql: str, /, *args: Any, **named: Any) -> list[Any]:
        return self.conn.execute(*bind(SQLITE, sql, args, named)).fetchall()

    async def execute(self, sql: str, /, *args: Any, **named: Any) -> int:
        return self.conn.execute(*bind(SQLITE, sql, args, named)).rowcount

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        self.conn.executemany(bind(SQLITE, sql, (), {})[0], rows)


class _SqliteAlone:
    """Each statement on its own: a read at once on aiosqlite's connection, a write committed by itself through
    ``SqliteStore._write``."""

    def __init__(self, store: SqliteStore) -> None:
        self.store = store

    async def fetch(self, sql: str, /, *args: Any, **named: Any) -> list[Any]:
        if sql.lstrip().upper().startswith("SELECT"):
            return await _SqliteThread(self.store.conn).fetch(sql, *args, **named)
        return await self.store._write(lambda conn: conn.fetch(sql, *args, **named))

    async def execute(self, sql: str, /, *args: Any, **named: Any) -> int:
        return await self.store._write(lambda conn: conn.execute(sql, *args, **named))

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        await self.store._write(lambda conn: conn.executemany(sql, rows))


def _busy(exc: sqlite3.OperationalError) -> bool:
    """Another connection holds the file's write lock."""
    return "locked" in str(exc) or "busy" in str(exc)


class SqliteStore(SessionTables):
    """One aiosqlite connection, opened in WAL mode and migrated to the latest schema; the queries are
    ``SessionTables``'."""

    dialect = SQLITE
    duplicate = sqlite3.IntegrityError

    def __init__(self, path: Path) -> None:
        self.path = path
        self._conn: aiosqlite.Connection | None = None
        self._write_lock = asyncio.Lock()
        self._now: sqlite3.Connection | None = None
        """A second connection on the event loop's thread for writes that must not wait (``_write``)."""
        self._opened = False
        self._file: tuple[int, int] | None = None
        """The file opened (``_identity``): the connections go on reading it even once it is gone from the path."""
        self._lock = DatabaseLock(path)
        """Held shared while open: ``python -m bot.restore`` won't replace the file under this process."""
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
            # Before the file is opened (or created): a restore swaps it for another while holding the lock alone.
            if not self.path.is_dir():
                self._lock.share()
        except Busy:
            raise StorageError(
                f"DATABASE_PATH {self.path}: python -m bot.restore is replacing it; start again once it is done."
            ) from None
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
            self._file = _identity(self.path)
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
        async with self._sql_transaction() as sql:
            await sql.execute(f"PRAGMA user_version = {rows[0][0]}")  # type: ignore[index]

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
        self._lock.release()

    async def ping(self) -> None:
        """aiosqlite's thread answers, and the file at ``DATABASE_PATH`` is still the one the bot opened: a volume
        that went away, or a file deleted or replaced, would otherwise go unnoticed until the next restart (the
        open connections keep reading the old file). The file is looked at off the event loop (a hung disk)."""
        if await asyncio.to_thread(_identity, self.path) != self._file:
            raise StorageError(f"DATABASE_PATH {self.path}: the file the bot opened is no longer there")
        await super().ping()

    def _sql(self) -> _SqliteAlone:
        return _SqliteAlone(self)

    @asynccontextmanager
    async def _sql_transaction(self, *, quick: bool = False) -> AsyncIterator[_SqliteThread | _SqliteNow]:
        """``BEGIN IMMEDIATE`` … ``COMMIT`` under this process's write lock, rolled back on any error.

        ``quick``: tried first on the event loop's own thread, on a connection that never waits for the file's
        lock: about 0.07 ms a statement, where each hand-off to aiosqlite's thread and back costs several times
        that. Nothing suspends there (the statements run at once), so no other coroutine can step into the
        transaction. If another process holds the file's lock, the transaction is on aiosqlite's thread, which
        waits for it (``BUSY_TIMEOUT_MS``) without holding up the event loop, as every other transaction is."""
        async with self._write_lock:
            sql: _SqliteThread | _SqliteNow | None = self._begin_now() if quick else None
            if sql is None:
                sql = _SqliteThread(self.conn)
                await sql.execute("BEGIN IMMEDIATE")
            try:
                yield sql
            except BaseException:
                await sql.execute("ROLLBACK")
                raise
            await sql.execute("COMMIT")

    def _begin_now(self) -> _SqliteNow | None:
        """A transaction begun on the event loop's own connection; None if another process holds the file."""
        if self._now is None:
            return None
        try:
            self._now.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            if not _busy(exc):
                raise
            return None
        return _SqliteNow(self._now)

    async def _write(self, work: Callable[[_SqliteThread | _SqliteNow], Awaitable[T]]) -> T:
        """One write statement (``work`` runs it), committed on its own, never inside another coroutine's
        transaction: on the event loop's own connection when the file is free (see ``_sql_transaction``)."""
        async with self._write_lock:
            if self._now is not None:
                try:
                    return await work(_SqliteNow(self._now))
                except sqlite3.OperationalError as exc:
                    if not _busy(exc):
                        raise
            return await work(_SqliteThread(self.conn))

    async def _migrate(self) -> None:
        rows = await self.conn.execute_fetchall("PRAGMA user_version")
        current = rows[0][0] if rows else 0  # type: ignore[index]
        if current > len(SQLITE_MIGRATIONS):
            raise StorageError(
                f"DATABASE_PATH {self.path}: the database was made by a newer version of the bot "
                f"(schema {current}, this version knows {len(SQLITE_MIGRATIONS)}); upgrade the bot."
            )
        for number, statements in enumerate(SQLITE_MIGRATIONS[current:], start=current + 1):
            async with self._sql_transaction() as sql:
                for statement in statements:
                    if isinstance(statement, Convert):
                        assert statement == REENCODE_LOG, statement
                        async for records in legacy_log(sql):
                            await sql.executemany(
                                "INSERT INTO session_log (session_id, seq, entry) VALUES (?, ?, ?)", records
                            )
                    else:
                        await sql.execute(statement)
                await sql.execute(f"PRAGMA user_version = {number}")
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
