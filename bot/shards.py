"""Which servers a process looks after when the bot runs as several processes, each owning some shards."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class Shards:
    """Shards ``ids`` out of ``count``: a server belongs to shard ``(guild_id >> 22) % count``, as Discord
    routes it (direct messages go to shard 0). No ids: a process that holds no shard (yet)."""

    count: int = 1
    ids: tuple[int, ...] = (0,)

    def __post_init__(self) -> None:
        if self.count < 1 or any(not 0 <= i < self.count for i in self.ids):
            raise ValueError(f"shard ids {list(self.ids)} are not all in 0..{self.count - 1}")

    @property
    def everything(self) -> bool:
        """This process owns every shard: nothing needs filtering."""
        return set(self.ids) >= set(range(self.count))

    def owns(self, guild_id: int | None) -> bool:
        """Whether this process looks after the server ``guild_id`` (None: a direct message)."""
        return shard_of(guild_id, self.count) in self.ids


def shard_of(guild_id: int | None, count: int) -> int:
    """The shard Discord sends a server's events to."""
    return ((guild_id or 0) >> 22) % count


class Assignment:
    """The shards a process looks after now: fixed (``SHARD_IDS``, or all of them), or changing as it gains and
    loses shard leases (``bot.leases``). Whatever filters by shard reads ``shards`` each time it asks."""

    def __init__(self, shards: Shards) -> None:
        self.shards = shards

    def set(self, ids: Iterable[int]) -> None:
        """From now on, the shards ``ids`` (of the same count)."""
        self.shards = Shards(self.shards.count, tuple(sorted(set(ids))))

    def owns(self, guild_id: int | None) -> bool:
        """Whether this process looks after the server ``guild_id`` now."""
        return self.shards.owns(guild_id)


ALL = Shards()
