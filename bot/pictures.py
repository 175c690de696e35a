"""Drawing pictures (a scoresheet's PNG), and other CPU-heavy work (a game's review), in a worker process, never
on the event loop.

A thread would not do: drawing holds Python's GIL for tens of milliseconds and would stall every
other interaction meanwhile. A picture's ``draw`` must therefore be picklable (a module-level
function with its arguments, e.g. ``functools.partial(draw_sheet, state)``).
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TypeVar

from bot.i18n import current, in_language
from bot.processes import process_pool

T = TypeVar("T")


class PictureWorker:
    """One worker process, started on the first drawing and restarted if it dies."""

    def __init__(self) -> None:
        self._pool: ProcessPoolExecutor | None = None

    async def draw(self, draw: Callable[[], bytes]) -> bytes:
        """Run ``draw`` in the worker and return the image's bytes."""
        return await self.run(draw)

    async def run(self, work: Callable[[], T]) -> T:
        """Run ``work`` (picklable) in the worker and return what it returns; it speaks the language spoken here."""
        loop = asyncio.get_running_loop()
        work = functools.partial(in_language, current(), work)
        for attempt in range(2):
            if self._pool is None:
                self._pool = process_pool(1)
            try:
                return await loop.run_in_executor(self._pool, work)
            except BrokenProcessPool:
                self.close()  # the worker was killed (by the OS, say): a fresh one, once
                if attempt:
                    raise
        raise AssertionError("unreachable")

    def close(self) -> None:
        """Stop the worker process, if one was started."""
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None
