"""Is the bot alive and connected? The event loop's lag and the Gateway's connections, as ``/healthz`` checks.

- ``LoopMonitor``: a task that wakes every ``LAG_INTERVAL_S`` and notes how late it woke. The lag ``/healthz``
  sees is the larger of the last one measured and how overdue the next wake-up is now: right after a freeze, the
  first request answered already reports it, whichever of the two runs first.
- ``GatewayWatch``: when each Gateway connection (one per shard) went down and came back, from discord.py's
  events. A connection that is resuming is fine for ``GATEWAY_GRACE_S``: Discord drops connections now and then,
  and discord.py comes back by itself; one down for longer means nobody's clicks reach this process. A process
  whose shards come and go with its leases (``bot.leases``) says which to watch (``watch``, ``forget``).
"""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import Callable, Iterable

from discord.ext import commands

from bot.background import Background
from bot.status import Check

LAG_INTERVAL_S = 0.25
LAG_LIMIT_S = 2.0
"""Lag over this is unhealthy: interactions answered that late miss Discord's 3 seconds."""
GATEWAY_GRACE_S = 60.0
"""How long a Gateway connection may be down (resuming) before the process is unhealthy."""
SHARDLESS = -1
"""The key of a bot's one connection when it isn't sharded."""


class LoopMonitor:
    """Measures the event loop's lag (``observe`` hears each measurement)."""

    def __init__(self, observe: Callable[[float], None], *, limit: float = LAG_LIMIT_S) -> None:
        self.observe = observe
        self.limit = limit
        self._lag = 0.0
        self._woke = time.monotonic()
        self._task = Background("loop-monitor", self._run)

    def start(self) -> None:
        """Start measuring (on the running loop)."""
        if not self._task.running:
            self._woke = time.monotonic()
            self._task.start()

    async def stop(self) -> None:
        """Stop measuring."""
        await self._task.stop()

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(LAG_INTERVAL_S)
            now = time.monotonic()
            self._lag = max(0.0, now - self._woke - LAG_INTERVAL_S)
            self._woke = now
            self.observe(self._lag)

    @property
    def lag(self) -> float:
        """Seconds the loop is (or just was) late: the last wake-up's lateness, or the next one's, if overdue."""
        return max(self._lag, time.monotonic() - self._woke - LAG_INTERVAL_S)

    async def check(self) -> Check:
        """``/healthz``: the loop turns, with a lag under ``limit``."""
        lag = self.lag
        return Check(lag < self.limit, {"lag_s": round(lag, 3), "limit_s": self.limit})


class GatewayWatch:
    """When each of the bot's Gateway connections went down (none up yet counts as down since the start)."""

    def __init__(self, bot: commands.Bot, shards: tuple[int, ...] | None, *, grace: float = GATEWAY_GRACE_S) -> None:
        self.bot = bot
        self.grace = grace
        start = time.monotonic()
        self._watched = set(shards) if shards is not None else {SHARDLESS}
        self._down: dict[int, float] = dict.fromkeys(self._watched, start)
        if shards is None:
            bot.add_listener(self._up, "on_connect")
            bot.add_listener(self._up, "on_resumed")
            bot.add_listener(self._down_now, "on_disconnect")
        else:
            bot.add_listener(self._up, "on_shard_connect")
            bot.add_listener(self._up, "on_shard_resumed")
            bot.add_listener(self._down_now, "on_shard_disconnect")

    def watch(self, shards: Iterable[int]) -> None:
        """Shards this process has taken on: down until they connect."""
        now = time.monotonic()
        for shard in shards:
            self._watched.add(shard)
            self._down.setdefault(shard, now)

    def forget(self, shards: Iterable[int]) -> None:
        """Shards this process has given up: no longer its to connect."""
        for shard in shards:
            self._watched.discard(shard)
            self._down.pop(shard, None)

    async def _up(self, shard: int = SHARDLESS) -> None:
        self._down.pop(shard, None)

    async def _down_now(self, shard: int = SHARDLESS) -> None:
        # discord.py says so at every failed try to reconnect: down since the first.
        if shard in self._watched:
            self._down.setdefault(shard, time.monotonic())

    def down_for(self) -> float:
        """Seconds the longest-down connection has been down (0 when all are up)."""
        now = time.monotonic()
        return max((now - since for since in self._down.values()), default=0.0)

    async def check(self) -> Check:
        """``/healthz``: every connection is up, or has been down less than ``grace``."""
        down, latency = self.down_for(), self.bot.latency
        return Check(
            not self._down or down < self.grace,
            {
                "down_s": round(down, 3),
                "grace_s": self.grace,
                "down_shards": len(self._down),
                "latency_s": round(latency, 3) if math.isfinite(latency) else None,
            },
        )
