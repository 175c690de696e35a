"""Clearing the logs of old ended games, where a server asks for it (``/settings keep_logs_days``; the default keeps
them): a game's row stays, with its players, result and winners, so ``/game history`` and statistics go on; what
goes is its move-by-move log (``/game log``, replays) and the space it took.

A background task sweeps once an hour, in small batches found by an index (``sessions_log_kept``), pausing between
batches so interactions keep the database; a process sweeps only the servers of its own shards.
"""

from __future__ import annotations

import asyncio
import logging

from bot.background import Background
from bot.clock import Clock
from bot.shards import ALL, Assignment
from bot.storage import Store

log = logging.getLogger(__name__)

EVERY_S = 3600.0
BATCH = 100
"""Sessions whose logs one statement clears."""
PAUSE_S = 0.5
"""Between batches of one sweep."""


class LogRetention:
    """Sweeps ended games' old logs. Collaborators: the store, the clock, the shards this process runs (now)."""

    def __init__(self, store: Store, clock: Clock, shards: Assignment | None = None) -> None:
        self.store = store
        self.clock = clock
        self.assignment = shards or Assignment(ALL)
        self._task = Background("log-retention", self._run)

    async def sweep(self, pause: float = PAUSE_S) -> int:
        """Clear every log that is due, a batch at a time; how many sessions' logs were cleared."""
        cleared = 0
        while True:
            done = await self.store.clear_old_logs(self.clock.now(), self.assignment.shards, BATCH)
            cleared += done
            if done < BATCH:
                if cleared:
                    log.info("Cleared the logs of %d ended games", cleared)
                return cleared
            await asyncio.sleep(pause)

    def start(self) -> None:
        """Sweep now and then every hour, until ``stop``."""
        self._task.start()

    async def stop(self) -> None:
        """Stop sweeping (a sweep cut short simply goes on at the next start)."""
        await self._task.stop()

    async def _run(self) -> None:
        while True:
            try:
                await self.sweep()
            except Exception:
                log.exception("Clearing old game logs failed; trying again in an hour")
            await asyncio.sleep(EVERY_S)
