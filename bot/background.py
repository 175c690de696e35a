"""One background task of the bot's own (a timer loop, a sweep, a heartbeat): started once, stopped by cancelling."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Coroutine
from typing import Any


class Background:
    """Runs ``run()`` as one task on the running loop between ``start`` and ``stop``."""

    def __init__(self, name: str, run: Callable[[], Coroutine[Any, Any, None]]) -> None:
        self.name = name
        self.run = run
        self._task: asyncio.Task[None] | None = None

    @property
    def running(self) -> bool:
        """Started and not stopped (the task may have ended by itself)."""
        return self._task is not None

    def start(self) -> bool:
        """Start the task unless it runs already; whether it was started now."""
        if self._task is not None:
            return False
        self._task = asyncio.get_running_loop().create_task(self.run(), name=self.name)
        return True

    async def stop(self) -> None:
        """Cancel the task and wait for it to end (nothing, if it was not started)."""
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
