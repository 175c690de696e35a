"""The lock file beside a SQLite database (``bot.sqlite3.lock``): every process using the database holds it shared;
``python -m bot.restore`` takes it alone, so it never swaps the file under a running bot, and no bot starts while
it does.

``flock`` locks go with the process: a bot killed by SIGKILL leaves nothing held. They don't touch SQLite's own
locks (those are ``fcntl`` byte ranges on the database file itself), hence a file of their own.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from pathlib import Path


class Busy(Exception):
    """Another process holds the lock in a way that excludes this one."""


def lock_path(database: Path) -> Path:
    """The lock file of ``database``."""
    return database.with_name(database.name + ".lock")


class DatabaseLock:
    """The lock of one database, not yet taken."""

    def __init__(self, database: Path) -> None:
        self.path = lock_path(database)
        self._fd: int | None = None

    def share(self) -> bool:
        """Hold it shared, with every other process using the database; False if the lock file can't be made here
        (a read-only folder: opening the database will say what is wrong). Raises Busy while a restore holds it."""
        return self._take(fcntl.LOCK_SH)

    def take_alone(self) -> bool:
        """Hold it alone; False if the lock file can't be made. Raises Busy while any other process holds it."""
        return self._take(fcntl.LOCK_EX)

    def _take(self, how: int) -> bool:
        if self._fd is not None:
            return True
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        except OSError:
            return False
        try:
            fcntl.flock(fd, how | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise Busy(str(self.path)) from None
        except OSError:
            os.close(fd)
            return False
        self._fd = fd
        return True

    def release(self) -> None:
        """Let it go (closing the file releases it)."""
        if self._fd is not None:
            fd, self._fd = self._fd, None
            with contextlib.suppress(OSError):
                os.close(fd)
