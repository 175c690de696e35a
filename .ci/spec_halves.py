"""Prepares the request log for the Discord spec check on two cores: writes two files, each holding half of the
log's distinct requests at their own line numbers (the other lines left blank, which the checker skips), so both
checks run at once and every line number they report is the log's own.

The checker's verdict on a request depends only on its method, its route and its body, so a request repeated with
other snowflakes, another interaction token or another query string is checked once, as its first occurrence.

Usage: python .ci/spec_halves.py LOG FIRST SECOND
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

TOKEN = re.compile(r"/(interactions|webhooks)/\d+/[^/]+")
"""An interaction's or a webhook's token: the segment after its id (Discord's routes put nothing else there)."""
SNOWFLAKE = re.compile(r"/\d+(?=/|$)")
"""A path segment of digits only: an id (no literal segment of Discord's routes is all digits)."""


def same_check(line: str) -> tuple[str, str, str]:
    """What the checker looks at in a logged request: its method, its path with ids and tokens blanked, its body."""
    request = json.loads(line)
    path = request["path"].split("?", 1)[0]
    path = SNOWFLAKE.sub("/0", TOKEN.sub(r"/\1/0/token", path))
    return request["method"], path, json.dumps(request.get("json"), sort_keys=True)


def main(log: Path, first: Path, second: Path) -> None:
    """Write the two halves and say how many requests were distinct."""
    halves: tuple[list[str], list[str]] = ([], [])
    seen: set[tuple[str, str, str]] = set()
    lines = log.read_text(encoding="utf-8").splitlines()
    for line in lines:
        key = same_check(line) if line.strip() else None
        for half in halves:
            half.append("")
        if key is not None and key not in seen:
            halves[len(seen) % 2][-1] = line
            seen.add(key)
    for path, half in zip((first, second), halves, strict=True):
        path.write_text("\n".join(half) + "\n", encoding="utf-8")
    print(f"{len(lines)} requests, {len(seen)} distinct (method, route and body): each checked once, in two halves")


if __name__ == "__main__":
    main(*(Path(arg) for arg in sys.argv[1:4]))
