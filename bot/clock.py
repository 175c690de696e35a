"""Wall-clock time, injectable so tests can move it forward."""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Protocol


class Clock(Protocol):
    """Tells the time and waits for a moment (or an earlier wake-up)."""

    def now(self) -> float:
        """Seconds since the epoch."""
        ...

    async def wait_until(self, moment: float | None, wake: asyncio.Event) -> None:
        """Return at ``moment`` (never if None) or as soon as ``wake`` is set."""
        ...


class SystemClock:
    """The real clock."""

    def now(self) -> float:
        return time.time()

    async def wait_until(self, moment: float | None, wake: asyncio.Event) -> None:
        timeout = None if moment is None else max(0.0, moment - self.now())
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(wake.wait(), timeout)
