"""A consistent copy of a SQLite database that a bot may be writing: SQLite's online backup API, in one step.

One step (``pages=-1``) copies every page inside one read transaction, so the copy is the database as of one
commit; in WAL mode the bot's writes go on meanwhile and are neither blocked nor lost (they land after that
commit). A copy made in several steps would start again whenever the bot wrote between two of them.

The copy is written beside its final name, made self-contained (``journal_mode=DELETE``: one file, nothing
beside it, readable from read-only media), checked page by page (``PRAGMA integrity_check``), flushed to
disk, and only then renamed into place: a crash or a full disk never leaves a half-written file at that name.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import tempfile
from dataclasses import dataclass
from pathlib import Path

from bot.storage.migrations import SQLITE_MIGRATIONS

BUSY_TIMEOUT_S = 30.0
"""How long to wait for a lock the bot holds for a moment (a checkpoint of its WAL)."""
LIVE = "status IN ('lobby', 'active')"


class SnapshotError(Exception):
    """The copy could not be made or failed its check; ``str`` says why, in a few words, of the source."""


@dataclass(frozen=True)
class Snapshot:
    """What a copy holds."""

    path: Path
    schema: int
    size: int
    """Bytes."""
    sessions: int | None
    """None for a schema from before sessions had their table (it is migrated when restored)."""
    live: int | None
    """Lobbies and games in progress."""

    def describe(self) -> str:
        """``2.1 MB, schema 24, 120 sessions (7 live)``."""
        held = f", {self.sessions} sessions ({self.live} live)" if self.sessions is not None else ""
        return f"{self.size / 1e6:.1f} MB, schema {self.schema}{held}"


def existing(path: Path) -> sqlite3.Connection:
    """A connection to ``path`` that never creates it. Not read-only: the last connection to a WAL database must
    be able to fold its WAL back in and remove it (and its ``-shm``) on closing, as the bot's own do, so that
    nothing is left beside a database that no bot is running on."""
    return sqlite3.connect(f"{path.resolve().as_uri()}?mode=rw", uri=True, timeout=BUSY_TIMEOUT_S)


def copy_database(source: Path, target: Path) -> Snapshot:
    """Copy the database at ``source`` to ``target`` (replaced atomically if it exists), checked. Raises
    SnapshotError (or OSError, writing), leaving ``target`` as it was."""
    if not source.is_file():
        raise SnapshotError("no such file")
    if target.exists() and target.resolve() == source.resolve():
        raise SnapshotError(f"{target} is the database itself; choose another path")
    fd, name = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    os.close(fd)
    temporary = Path(name)
    try:
        snapshot = _copy(source, temporary)
        _flush(temporary)
        os.replace(temporary, target)
        _flush(target.parent)
    except BaseException:
        with contextlib.suppress(OSError):
            temporary.unlink()
        raise
    return Snapshot(target, snapshot.schema, snapshot.size, snapshot.sessions, snapshot.live)


def _copy(source: Path, temporary: Path) -> Snapshot:
    try:
        src = existing(source)
        try:
            dst = sqlite3.connect(temporary)
            try:
                src.backup(dst)  # every page in one step: the database as of one commit
                dst.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
                return check(dst, temporary)
            finally:
                dst.close()
        finally:
            src.close()
    except sqlite3.Error as exc:
        raise SnapshotError(str(exc)) from exc


def check(conn: sqlite3.Connection, path: Path) -> Snapshot:
    """Check a copy page by page, and that this version of the bot knows its schema; what it holds."""
    problems = [row[0] for row in conn.execute("PRAGMA integrity_check")]
    if problems != ["ok"]:
        raise SnapshotError(f"damaged ({' '.join(problems[0].split())})")
    (schema,) = conn.execute("PRAGMA user_version").fetchone()
    if schema == 0:
        raise SnapshotError("it is not a database of this bot (it has no schema version)")
    if schema > len(SQLITE_MIGRATIONS):
        raise SnapshotError(
            f"it was made by a newer version of the bot (schema {schema}, this version knows "
            f"{len(SQLITE_MIGRATIONS)}); upgrade the bot first"
        )
    try:
        sessions, live = conn.execute(f"SELECT COUNT(*), COALESCE(SUM({LIVE}), 0) FROM sessions").fetchone()
    except sqlite3.OperationalError:  # an old schema: its table had another name
        sessions = live = None
    return Snapshot(path, schema, path.stat().st_size, sessions, live)


def _flush(path: Path) -> None:
    """Make ``path`` (a file, or a folder's list of names) reach the disk."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
