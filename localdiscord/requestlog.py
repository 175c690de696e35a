"""The optional JSON Lines log of every HTTP request the bot sends (``DISCORD_REQUEST_LOG``), for the spec check."""

from __future__ import annotations

import json
import os
from typing import IO, Any

_file: IO[str] | None = None


def log_request(entry: dict[str, Any]) -> None:
    """Append ``entry`` as one line if ``DISCORD_REQUEST_LOG`` is set.

    One file object per process, opened in append mode on first use and flushed per line, so concurrent fakes
    in one test session never interleave partial lines.
    """
    global _file
    path = os.environ.get("DISCORD_REQUEST_LOG")
    if not path:
        return
    if _file is None:
        _file = open(path, "a", encoding="utf-8")  # noqa: SIM115 - lives as long as the process
    _file.write(json.dumps(entry) + "\n")
    _file.flush()
