"""The timer loop: sleeps until the earliest stored deadline (or a wake-up) and hands what is due on.

It knows only the store, the clock and an ``on_due(session_id)`` callback; what a deadline means
(a reminder, a default move, a lobby closing) is ``bot.deadlines``'s business.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from bot.background import Background
from bot.clock import Clock
from bot.shards import ALL, Assignment
from bot.storage import Store

log = logging.getLogger(__name__)

RETRY_S = 60
DUE_AT_ONCE = 16
"""Sessions whose deadlines are handled at the same time."""


class TimerLoop:
    """Deadlines live in the database, so after a restart the loop picks them up again; one that
    passed while the bot was down is handled at once."""

    def __init__(
        self,
        store: Store,
        clock: Clock,
        on_due: Callable[[int], Awaitable[None]],
        shards: Assignment | None = None,
    ) -> None:
        self.store = store
        self.assignment = shards or Assignment(ALL)
        """Only sessions in the servers of the shards this process has now: other processes time the rest."""
        self.clock = clock
        self.on_due = on_due
        self._task = Background("session-timers", self._run)
        self._next: float | None = None
        """The earliest moment something may be due; the database is asked again only then."""
        self._wake = asyncio.Event()

    def start(self) -> None:
        """Start the loop (idempotent)."""
        self._task.start()

    async def stop(self) -> None:
        """Stop the loop."""
        await self._task.stop()

    def schedule(self, moment: float | None) -> None:
        """Something is due at ``moment``: wake earlier if that is sooner than planned.

        Keeping the next moment in memory means a commit costs no timer query; a deadline that went
        away just causes one early look at the database.
        """
        if moment is not None and (self._next is None or moment < self._next):
            self._next = moment
            self._wake.set()

    async def _run(self) -> None:
        self._next = await self.store.earliest_deadline(self.assignment.shards)
        while True:
            self._wake.clear()
            if self._next is not None and self._next <= self.clock.now():
                try:
                    await self.tick()
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.exception("Timer loop failed; retrying shortly")
                    await asyncio.sleep(1)
                self._next = await self.store.earliest_deadline(self.assignment.shards)
                continue
            await self.clock.wait_until(self._next, self._wake)

    async def tick(self) -> None:
        """Handle everything due now. A session whose deadline fails is put off, so it can't spin the loop."""
        now = self.clock.now()
        # Sessions are independent: a batch is handled a few at a time, so a backlog (an outage's expired lobbies
        # and missed turns) drains in seconds, not one Discord round trip after another.
        limit = asyncio.Semaphore(DUE_AT_ONCE)

        async def handle(session_id: int) -> None:
            async with limit:
                try:
                    await self.on_due(session_id)
                except Exception:
                    log.exception("Deadline handling failed for session %s; retrying in %d s", session_id, RETRY_S)
                    await self.store.put_off(session_id, now + RETRY_S)

        await asyncio.gather(*(handle(s.id) for s in await self.store.due_sessions(now, self.assignment.shards)))
