"""A clock tests move by hand, so timers fire on demand instead of after real waits."""

from __future__ import annotations

import asyncio


class FakeClock:
    """Implements bot.clock.Clock; ``advance`` moves time and wakes whoever waits on it."""

    def __init__(self, start: float = 1_900_000_000.0) -> None:
        self.t = start
        self._tick = asyncio.Event()

    def now(self) -> float:
        return self.t

    async def wait_until(self, moment: float | None, wake: asyncio.Event) -> None:
        while not wake.is_set() and (moment is None or self.t < moment):
            tick = self._tick
            waiters = [asyncio.ensure_future(wake.wait()), asyncio.ensure_future(tick.wait())]
            try:
                await asyncio.wait(waiters, return_when=asyncio.FIRST_COMPLETED)
            finally:
                for w in waiters:
                    w.cancel()

    def advance(self, seconds: float) -> None:
        """Move time forward and wake every waiter."""
        self.t += seconds
        tick, self._tick = self._tick, asyncio.Event()
        tick.set()
