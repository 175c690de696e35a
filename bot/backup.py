"""``python -m bot.backup PATH``: a consistent copy of the bot's SQLite database (``DATABASE_PATH``), made while
the bot runs and writes.

The copy is the database as of one commit (``bot.storage.snapshot``), one self-contained file, checked page by
page, and written under a temporary name first: ``PATH`` is either the whole new copy or what it was before.
``PATH`` may be a folder (made if it ends with ``/``): the copy is then named after the database and the time
(``bot-20261207-031500.sqlite3``).
Restore one with ``python -m bot.restore PATH``.

With ``DATABASE_URL`` (PostgreSQL) it prints the ``pg_dump`` command to run instead, and exits with 2.
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
import time
from pathlib import Path

from bot.storage.postgres import without_password
from bot.storage.snapshot import SnapshotError, copy_database
from bot.tools import ToolFailed, read_settings, run


def dated_name(database: Path, now: float) -> str:
    """``bot-20261207-031500.sqlite3`` for ``var/bot.sqlite3`` (UTC)."""
    return f"{database.stem}-{time.strftime('%Y%m%d-%H%M%S', time.gmtime(now))}{database.suffix or '.sqlite3'}"


def pg_dump_command(url: str, path: str) -> str:
    """The command that backs up the PostgreSQL database at ``url`` into the file ``path`` (no password in it)."""
    return shlex.join(
        ["pg_dump", "--format=custom", "--no-owner", "--no-privileges", f"--file={path}", without_password(url)]
    )


def backup(path: str) -> str:
    """Copy ``DATABASE_PATH`` to ``path`` (a folder if it is one or ends with ``/``); the summary line. Raises
    ToolFailed."""
    settings = read_settings()
    if settings.database_url:
        command = pg_dump_command(settings.database_url, path)
        raise ToolFailed(
            "DATABASE_URL is PostgreSQL: back it up with pg_dump (the password from PGPASSWORD or ~/.pgpass): "
            f"{command}"
        )
    source = settings.database_path
    target = Path(path)
    started = time.perf_counter()
    try:
        if path.endswith(os.sep) or target.is_dir():
            target.mkdir(parents=True, exist_ok=True)
            target = target / dated_name(source, time.time())
        snapshot = copy_database(source, target)
    except SnapshotError as exc:
        raise ToolFailed(f"Backup failed: DATABASE_PATH {source}: {exc}.") from None
    except OSError as exc:
        raise ToolFailed(f"Backup failed: can't write {target} ({exc.strerror}).") from None
    took = time.perf_counter() - started
    return f"Backed up {source} to {target}: {snapshot.describe()}; integrity ok ({took:.1f} s)."


def main(argv: list[str] | None = None) -> int:
    """Entry point: one line on success (stdout), one on failure (stderr, non-zero exit)."""
    parser = argparse.ArgumentParser(prog="python -m bot.backup", description=__doc__.splitlines()[0])
    parser.add_argument("path", help="the file to write (replaced at once if it exists), or a folder (ending in /)")
    args = parser.parse_args(argv)
    return run(lambda: backup(args.path), "Backup failed")


if __name__ == "__main__":
    sys.exit(main())
