"""``python -m bot.restore PATH``: check a backup (``python -m bot.backup``) and put it in place of ``DATABASE_PATH``.

1. The backup is copied beside ``DATABASE_PATH``, in a folder of its own (the backup itself is never changed), and
   the copy is checked page by page; a schema from a newer bot is refused, an older one migrated as the bot would.
2. Every live session's log is replayed with the game rules of the configured extensions (``EXTENSIONS``, as the
   bot loads them): its state, and the state undo starts from, must be what the log leads to (``bot.verify``).
3. Only then, and only while no bot runs on ``DATABASE_PATH`` (the lock file beside it, ``bot.storage.filelock``):
   its live sessions are marked restored (``bot.storage.restored``: the bot redraws their boards when it starts,
   and refuses controls drawn before), the old database is moved aside as
   ``DATABASE_PATH.before-restore-<time>`` (with its ``-wal``), and the copy is renamed into place.

``--check-only``: steps 1 and 2; nothing is put in place.

PostgreSQL (``DATABASE_URL``): restore the ``pg_dump`` file into an empty database with ``pg_restore``, then run
this without a PATH: it checks that database in place (migrating an older schema, as the bot would) and marks its
live sessions restored; with ``--check-only`` it only checks. Refused while anyone else is connected to it.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import shlex
import shutil
import sys
import tempfile
import time
from pathlib import Path

from bot.registry import Registry
from bot.settings import Settings
from bot.storage import PostgresStore, SqliteStore, StorageError
from bot.storage.filelock import Busy, DatabaseLock
from bot.storage.postgres import redacted, without_password
from bot.storage.queries import SessionTables
from bot.storage.restored import mark_all_restored, other_clients
from bot.storage.snapshot import SnapshotError, copy_database
from bot.tools import ToolFailed, read_settings, run
from bot.verify import Checked, check_live, game_rules

NOTHING_CHANGED = "nothing was changed"


def pg_restore_command(url: str, path: str) -> str:
    """The command that restores the ``pg_dump`` file ``path`` into the (empty) database at ``url``."""
    return shlex.join(
        [
            "pg_restore",
            "--no-owner",
            "--no-privileges",
            "--exit-on-error",
            "--single-transaction",
            f"--dbname={without_password(url)}",
            path,
        ]
    )


async def checked(store: SessionTables, registry: Registry, what: str) -> Checked:
    """Every live session of ``store`` replayed; raises ToolFailed (after printing each problem on stderr) if any
    doesn't lead to its stored state."""
    found = await check_live(store, registry)
    if found.problems:
        for problem in found.problems:
            print(problem, file=sys.stderr)
        raise ToolFailed(
            f"Refused {what}: {len(found.problems)} of {found.sessions} live sessions don't replay to their stored "
            f"state (above); {NOTHING_CHANGED}."
        )
    return found


async def restore_sqlite(backup: Path, database: Path, registry: Registry, *, check_only: bool) -> str:
    """Check ``backup`` and, unless ``check_only``, put it in place of ``database``; the summary line."""
    work = await asyncio.to_thread(_workspace, database, check_only=check_only)
    try:
        candidate = work / database.name
        try:
            snapshot = await asyncio.to_thread(copy_database, backup, candidate)
        except SnapshotError as exc:
            raise ToolFailed(f"Refused the backup {backup}: {exc}; {NOTHING_CHANGED}.") from None
        store = SqliteStore(candidate)
        try:
            await store.open()  # migrates an older schema
        except StorageError as exc:
            raise ToolFailed(f"Refused the backup {backup}: {exc}") from None
        try:
            found = await checked(store, registry, f"the backup {backup}")
            seen = f"Checked {backup}: integrity ok, schema {snapshot.schema}; {found.describe()}, no problems."
            if check_only:
                return f"{seen} Check only: {NOTHING_CHANGED}."
            marked = await mark_all_restored(store, time.time())
        finally:
            await store.close()
        aside = await asyncio.to_thread(_put_in_place, candidate, database)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    kept = f"the old one is kept as {aside}" if aside is not None else "there was none before"
    return (
        f"{seen} Restored: it is now {database} ({kept}); {marked} live sessions will be redrawn when the bot starts."
    )


def _workspace(database: Path, *, check_only: bool) -> Path:
    """A new folder beside ``database`` for the copy (the same disk, so it can be renamed into place)."""
    with contextlib.suppress(OSError):
        database.parent.mkdir(parents=True, exist_ok=True)  # a new machine: the folder may not be there yet
    if not check_only and database.exists():
        _not_in_use(database).release()  # fail before the work if a bot is running
    try:
        return Path(tempfile.mkdtemp(dir=database.parent, prefix=f".{database.name}.restore-"))
    except OSError as exc:
        raise ToolFailed(f"Refused: can't write beside DATABASE_PATH {database} ({exc.strerror}).") from None


def _not_in_use(database: Path) -> DatabaseLock:
    """The database's lock, held alone; ToolFailed while a bot (or another tool) has the database open."""
    lock = DatabaseLock(database)
    try:
        if not lock.take_alone():
            raise ToolFailed(f"Refused: can't create {lock.path} beside DATABASE_PATH; {NOTHING_CHANGED}.")
    except Busy:
        raise ToolFailed(
            f"Refused: a bot (or another tool) is using DATABASE_PATH {database}; stop it first; {NOTHING_CHANGED}."
        ) from None
    return lock


def _put_in_place(candidate: Path, database: Path) -> Path | None:
    """Move ``database`` aside (with its WAL) and rename ``candidate`` to it, under the lock; where the old one went."""
    lock = _not_in_use(database)
    try:
        aside = None
        if database.exists():
            aside = _aside_name(database)
            old = os.stat(database)
            os.rename(database, aside)
            for suffix in ("-wal", "-shm"):  # a WAL renamed with its database stays part of it
                with contextlib.suppress(FileNotFoundError):
                    os.rename(f"{database}{suffix}", f"{aside}{suffix}")
            with contextlib.suppress(OSError):
                shutil.copymode(aside, candidate)
                os.chown(candidate, old.st_uid, old.st_gid)  # the bot's user, if this runs as root
        Path(f"{database}.clean").unlink(missing_ok=True)
        os.replace(candidate, database)
        # Closed cleanly just now and not written since: the bot need not read every page again at startup.
        with contextlib.suppress(FileNotFoundError):
            os.replace(f"{candidate}.clean", f"{database}.clean")
        fd = os.open(database.parent, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
    finally:
        lock.release()
    return aside


def _aside_name(database: Path) -> Path:
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
    aside = database.with_name(f"{database.name}.before-restore-{stamp}")
    n = 2
    while aside.exists():
        aside = database.with_name(f"{database.name}.before-restore-{stamp}-{n}")
        n += 1
    return aside


async def restore_postgres(url: str, registry: Registry, *, check_only: bool) -> str:
    """Check the database at ``url`` (restored there with pg_restore) and, unless ``check_only``, mark its live
    sessions restored; the summary line."""
    where = f"DATABASE_URL {redacted(url)}"
    store = PostgresStore(url, pool_size=1)
    try:
        await store.open()  # migrates an older schema, as the bot would
    except StorageError as exc:
        raise ToolFailed(f"Refused: {exc}") from None
    try:
        others = await other_clients(store)
        if others and not check_only:
            raise ToolFailed(
                f"Refused: {others} other connections to {where} (a bot running?); stop them first; {NOTHING_CHANGED}."
            )
        found = await checked(store, registry, where)
        seen = f"Checked {where}: schema {await store.schema_version()}; {found.describe()}, no problems."
        if check_only:
            return f"{seen} Check only: {NOTHING_CHANGED}."
        marked = await mark_all_restored(store, time.time())
    finally:
        await store.close()
    return f"{seen} Marked {marked} live sessions restored: the bot redraws them when it starts."


async def restore(settings: Settings, backup: Path | None, *, check_only: bool) -> str:
    """What ``main`` does, for the settings given."""
    url = settings.database_url
    if url and backup is not None:
        raise ToolFailed(
            "DATABASE_URL is PostgreSQL: restore the dump into an empty database with pg_restore, then run "
            f"python -m bot.restore without a PATH to check it: {pg_restore_command(url, str(backup))}"
        )
    if not url and backup is None:
        raise ToolFailed("Give the backup to restore: python -m bot.restore PATH (--check-only to check it only).")
    registry = await game_rules(settings)
    if url:
        return await restore_postgres(url, registry, check_only=check_only)
    assert backup is not None
    return await restore_sqlite(backup, settings.database_path, registry, check_only=check_only)


def main(argv: list[str] | None = None) -> int:
    """Entry point: problems by session on stderr, then one line saying whether the backup was accepted."""
    parser = argparse.ArgumentParser(prog="python -m bot.restore", description=__doc__.splitlines()[0])
    parser.add_argument("path", type=Path, nargs="?", help="the backup (SQLite); none with DATABASE_URL")
    parser.add_argument("--check-only", action="store_true", help="check, and put nothing in place")
    args = parser.parse_args(argv)
    return run(lambda: asyncio.run(restore(read_settings(), args.path, check_only=args.check_only)), "Restore failed")


if __name__ == "__main__":
    sys.exit(main())
