"""Discord snowflakes: 64-bit ids made of a millisecond timestamp, a worker id and a counter."""

from __future__ import annotations

import itertools
import time

DISCORD_EPOCH_MS = 1_420_070_400_000


class Snowflakes:
    """Hands out unique, increasing, realistic (18–19 digit) snowflakes."""

    def __init__(self, worker: int = 1) -> None:
        self._worker = worker & 0x1F
        self._counter = itertools.count()

    def next(self) -> int:
        """A new snowflake; like Discord's, it encodes the current time, so ids sort by creation."""
        millis = int(time.time() * 1000) - DISCORD_EPOCH_MS
        return (millis << 22) | (self._worker << 17) | (next(self._counter) & 0xFFF)

    def on_shard(self, shard: int, count: int) -> int:
        """A new snowflake for a guild Discord would route to ``shard`` of ``count`` (``(id >> 22) % count``):
        its timestamp is moved up to ``count - 1`` ms ahead."""
        flake = self.next()
        millis = flake >> 22
        ahead = (shard - millis) % count
        return ((millis + ahead) << 22) | (flake & ((1 << 22) - 1))


def timestamp_of(snowflake: int) -> str:
    """The ISO 8601 creation time Discord would report for ``snowflake``."""
    seconds = ((snowflake >> 22) + DISCORD_EPOCH_MS) / 1000
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(seconds)) + f".{int(seconds * 1000) % 1000:03d}000+00:00"
