"""Work in first-come order, one lane per key (a session, a channel), each lane worked by one task at a time: the
shape of the publisher's drawings and of both outboxes' deliveries. What a job does is the caller's business.

Work found at startup (``background``) runs a few at a time, behind anything an interaction asked for, and is
counted in a backlog the caller can wait on before handing in more. Everything kept per key is released when its
lane empties.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Awaitable, Callable, Hashable, Iterator
from typing import Generic, TypeVar

log = logging.getLogger(__name__)

K = TypeVar("K", bound=Hashable)
J = TypeVar("J")

Run = Callable[[K, J, "deque[tuple[J, bool]]"], Awaitable[None]]
"""Does one job of lane ``key``; it is given the jobs still waiting in that lane (each with its background flag)."""


class Lanes(Generic[K, J]):
    """Lanes of jobs by key, a worker task per busy lane, and the backlog of background jobs."""

    def __init__(self, name: str, run: Run[K, J], *, background_at_once: int) -> None:
        self.name = name
        self.run = run
        self._lanes: dict[K, deque[tuple[J, bool]]] = {}
        self._workers: dict[K, asyncio.Task[None]] = {}
        self._background = asyncio.Semaphore(background_at_once)
        self._backlog = 0
        self._backlog_moved = asyncio.Event()
        self.closing = False

    def add(self, key: K, job: J, *, background: bool = False) -> bool:
        """Queue ``job`` in lane ``key`` (its worker started if it has none); False once closing (nothing queued)."""
        if self.closing:
            return False
        if background:
            self._backlog += 1
        self._lanes.setdefault(key, deque()).append((job, background))
        if key not in self._workers:
            task = asyncio.get_running_loop().create_task(self._work(key), name=f"{self.name}-{key}")
            self._workers[key] = task
        return True

    def has_work(self, key: K) -> bool:
        """Lane ``key`` is being worked."""
        return key in self._workers

    def heads(self) -> Iterator[J]:
        """The first job waiting in each lane."""
        return (lane[0][0] for lane in self._lanes.values() if lane)

    def waiting(self) -> int:
        """Jobs waiting in every lane."""
        return sum(len(lane) for lane in self._lanes.values())

    async def backlog_below(self, count: int) -> None:
        """Wait until fewer than ``count`` background jobs are waiting (the caller then hands in more)."""
        while self._backlog >= count:
            self._backlog_moved.clear()
            await self._backlog_moved.wait()

    async def drain(self, timeout: float) -> None:
        """Stop taking jobs, and let the lanes' workers finish (up to ``timeout`` seconds)."""
        self.closing = True
        workers = list(self._workers.values())
        if workers:
            await asyncio.wait(workers, timeout=timeout)

    async def idle(self) -> None:
        """Wait until no lane is being worked."""
        while self._workers:
            await asyncio.wait(list(self._workers.values()))

    @property
    def busy(self) -> bool:
        """A lane is being worked."""
        return bool(self._workers)

    def footprint(self) -> dict[str, int]:
        """Lanes and workers held now (both empty once every lane is done)."""
        return {"jobs": len(self._lanes), "workers": len(self._workers)}

    async def _work(self, key: K) -> None:
        lane = self._lanes[key]
        try:
            while lane:
                job, background = lane.popleft()
                try:
                    if background:
                        async with self._background:
                            await self.run(key, job, lane)
                    else:
                        await self.run(key, job, lane)
                except Exception:  # the caller's own failures are its to handle; one escaping is a bug, logged
                    log.exception("%s %s: a job failed", self.name, key)
                finally:
                    if background:
                        self._backlog -= 1
                        self._backlog_moved.set()
        finally:
            del self._workers[key]
            del self._lanes[key]
