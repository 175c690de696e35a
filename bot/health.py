"""``python -m bot.health``: can the bot's database be read? With the bot running or stopped (after restoring a
backup, before starting a bot on a database you are unsure of). The container's health check asks the running bot
instead (``python -m bot.healthz``: its event loop, Gateway and database).

It opens ``DATABASE_PATH`` read-only and reads the schema version: a lost volume, a deleted or
replaced file, or a disk gone bad shows up here. It reads one page, so it is cheap to run next to
the bot (in WAL mode a reader never blocks the bot's writes). With ``DATABASE_URL``
it asks PostgreSQL for the schema version instead (a server down, or refusing the credentials). Exit 0 when healthy;
otherwise 1 and one line saying why, which ``docker inspect`` shows.

``python -m bot.health --full`` also reads every page of a SQLite file (``PRAGMA quick_check``): the check the bot
itself makes at startup only after an unclean stop, on request.
"""

from __future__ import annotations

import asyncio
import sqlite3
import sys
from pathlib import Path

from pydantic import ValidationError

from bot.settings import Settings, config_problem, env_file_problem
from bot.storage.migrations import SQLITE_MIGRATIONS
from bot.storage.postgres import probe

# The bot may be holding the write lock for a moment; a health check should not fail for that.
_BUSY_TIMEOUT_S = 5.0


def check(path: Path, *, full: bool = False) -> str | None:
    """None if the database at ``path`` opens and has a schema this version knows (and, ``full``, every page of it
    reads well); otherwise why not."""
    if not path.exists():
        return f"DATABASE_PATH {path}: no such file (is the volume mounted?)"
    try:
        # mode=ro: never create the file, nor change it.
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=_BUSY_TIMEOUT_S)
        try:
            (version,) = conn.execute("PRAGMA user_version").fetchone()
            problems = [row[0] for row in conn.execute("PRAGMA quick_check")] if full else ["ok"]
        finally:
            conn.close()
    except sqlite3.Error as exc:
        return f"DATABASE_PATH {path}: {exc}"
    if not 0 < version <= len(SQLITE_MIGRATIONS):
        return f"DATABASE_PATH {path}: schema {version}, but this version knows 1 to {len(SQLITE_MIGRATIONS)}"
    if problems != ["ok"]:
        return f"DATABASE_PATH {path}: damaged ({' '.join(problems[0].split())}); restore it from a backup"
    return None


def main() -> int:
    """Print nothing and return 0 when healthy; print one line and return 1 when not."""
    try:
        settings = Settings()  # the container's environment, as the bot reads it
    except ValidationError as exc:
        problem: str | None = config_problem(exc)
    except UnicodeDecodeError as exc:
        problem = env_file_problem(exc)
    else:
        url = settings.database_url
        problem = asyncio.run(probe(url)) if url else check(settings.database_path, full="--full" in sys.argv[1:])
    if problem is None:
        return 0
    print(f"Unhealthy: {problem}", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
