"""The optional JSON Lines log of every HTTP request the bot sends (``DISCORD_REQUEST_LOG``), for the spec check."""

from __future__ import annotations

import json
import os
from typing import Any

_fd: int | None = None


def log_request(entry: dict[str, Any]) -> None:
    """Append ``entry`` as one line if ``DISCORD_REQUEST_LOG`` is set.

    Many processes append to the same file at once (parallel test workers, the launchers and bots they start),
    so each line goes out in one ``write`` on a descriptor opened with ``O_APPEND``: the kernel puts it whole at
    the end of the file, never interleaved with another process's line, however long it is (a buffered file
    object would split a long line into several writes).
    """
    global _fd
    path = os.environ.get("DISCORD_REQUEST_LOG")
    if not path:
        return
    if _fd is None:
        _fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, 0o644)
    line = (json.dumps(entry) + "\n").encode()
    written = os.write(_fd, line)
    if written != len(line):  # only a full disk or a signal cuts a write to a file short: say so, don't hide it
        raise OSError(f"DISCORD_REQUEST_LOG: wrote {written} of {len(line)} bytes")
