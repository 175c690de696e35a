"""The publisher's queue: one worker per session drawing its jobs in order, failed drawings retried later, and the
catch-up after a restart behind the interactions' drawings. What a job draws is the publisher's business."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

import discord

from bot.replies import DEFER_AFTER_S, Reply

log = logging.getLogger(__name__)

RETRY_DELAYS_S = (2.0, 5.0, 15.0, 60.0, 300.0)
BACKGROUND_DRAWINGS = 4
"""Drawings made at once to catch up after a restart (interactions' drawings never wait for these)."""
ANSWER_FIRST_WAIT_S = DEFER_AFTER_S + 1.0
"""How long a drawing waits for the command answer that goes first (the watchdog defers it after 2 s)."""


@dataclass
class Job:
    """One drawing asked of a session's worker."""

    reply: Reply | None = None
    user_id: int | None = None
    post: str | None = None
    """A view to post anew as the reply (``/game status``, a campaign sheet), instead of drawing."""
    done: asyncio.Future[None] | None = None
    after: Reply | None = None
    """A command's answer that goes first (``Reply.answers_first``): the drawing waits for it."""
    background: bool = False
    """Catching up after a restart: it waits its turn behind at most ``BACKGROUND_DRAWINGS`` others, so
    interactions keep priority."""
    queued_at: float = field(default_factory=time.monotonic)


Draw = Callable[[int, Job], Awaitable[None]]


class DrawQueue:
    """Jobs per session, each session's worker, and the retries of failed drawings. Everything kept per session is
    released when its worker has nothing left to do (jobs, failures): a bot that served a million games keeps
    none of them."""

    def __init__(self, draw: Draw) -> None:
        self.draw = draw
        self._jobs: dict[int, deque[Job]] = {}
        self._workers: dict[int, asyncio.Task[None]] = {}
        self._retries: dict[int, asyncio.TimerHandle] = {}
        self._failures: dict[int, int] = {}
        self._background = asyncio.Semaphore(BACKGROUND_DRAWINGS)
        self._backlog = 0
        self._backlog_moved = asyncio.Event()
        self.closing = False

    def enqueue(self, session_id: int, job: Job) -> None:
        """Add a job for the session's worker (started if it isn't running)."""
        if self.closing:
            if job.done is not None:
                job.done.set_result(None)
            return
        self._jobs.setdefault(session_id, deque()).append(job)
        if job.reply is not None and job.reply.pending and self.has_work(session_id):
            # Its answer would wait behind another drawing (maybe a slow or rate-limited edit): acknowledge the
            # interaction now; the drawing fills it in when its turn comes.
            if job.post is not None:
                job.reply.expect_message(private=False)  # a view posted anew is a public message
            job.reply.defer_now()
        if session_id not in self._workers:
            task = asyncio.get_running_loop().create_task(self._work(session_id), name=f"publish-{session_id}")
            self._workers[session_id] = task

    def catch_up(self, session_id: int) -> None:
        """After a restart: a drawing after the interactions' drawings."""
        self._backlog += 1
        self.enqueue(session_id, Job(background=True))

    async def backlog_below(self, count: int) -> None:
        """Wait until fewer than ``count`` catch-up drawings are waiting (the caller then hands in more)."""
        while self._backlog >= count:
            self._backlog_moved.clear()
            await self._backlog_moved.wait()

    async def drain(self, timeout: float) -> None:
        """Let drawings in progress finish (up to ``timeout`` seconds), then stop taking new ones."""
        self.closing = True
        for handle in self._retries.values():
            handle.cancel()
        workers = list(self._workers.values())
        if workers:
            await asyncio.wait(workers, timeout=timeout)

    async def idle(self) -> None:
        """Wait until nothing is being drawn."""
        while self._workers:
            await asyncio.wait(list(self._workers.values()))

    def footprint(self) -> dict[str, int]:
        """How many sessions each structure holds now (all empty once every session is drawn)."""
        return {
            "jobs": len(self._jobs),
            "workers": len(self._workers),
            "retries": len(self._retries),
            "failures": len(self._failures),
        }

    def queue(self) -> tuple[int, float]:
        """Drawings waiting for their turn, and how many seconds the oldest has waited (for the metrics)."""
        heads = [jobs[0].queued_at for jobs in self._jobs.values() if jobs]
        waiting = sum(len(jobs) for jobs in self._jobs.values())
        return waiting, time.monotonic() - min(heads) if heads else 0.0

    @property
    def retrying(self) -> int:
        """Sessions whose drawing failed and waits to be tried again."""
        return len(self._retries)

    @property
    def busy(self) -> bool:
        """Something is being drawn."""
        return bool(self._workers)

    def has_work(self, session_id: int) -> bool:
        """The session is being drawn, or waits to be tried again."""
        return session_id in self._workers or session_id in self._retries

    async def _work(self, session_id: int) -> None:
        jobs = self._jobs[session_id]
        try:
            while jobs:
                job = jobs.popleft()
                if job.after is not None:
                    await job.after.answered(ANSWER_FIRST_WAIT_S)
                try:
                    if job.background and any(not j.background for j in jobs):
                        pass  # an interaction's drawing follows: it draws the session as it is now, at once
                    elif job.background:
                        async with self._background:
                            await self.draw(session_id, job)
                    else:
                        await self.draw(session_id, job)
                    self._failures.pop(session_id, None)
                except (discord.HTTPException, OSError, TimeoutError) as exc:
                    log.warning("Session %s: drawing failed (%s); trying again later", session_id, exc)
                    self._failed(session_id, job, exc)
                except Exception as exc:
                    log.exception("Session %s: drawing failed", session_id)
                    self._failed(session_id, job, exc)
                finally:
                    await self._finished(job)
        finally:
            del self._workers[session_id]
            if jobs:
                self.enqueue(session_id, Job())  # something arrived while the worker was finishing
            else:
                del self._jobs[session_id]

    async def _finished(self, job: Job) -> None:
        if job.background:
            self._backlog -= 1
            self._backlog_moved.set()
        if job.reply is not None:
            with contextlib.suppress(discord.HTTPException):
                await job.reply.ack()
        if job.done is not None and not job.done.done():
            job.done.set_result(None)

    def _failed(self, session_id: int, job: Job, exc: Exception) -> None:
        """Try the session again later (waiting longer after each failure in a row); the job's waiter hears why."""
        failures = self._failures.get(session_id, 0)
        self._failures[session_id] = failures + 1
        delay = RETRY_DELAYS_S[min(failures, len(RETRY_DELAYS_S) - 1)]
        old = self._retries.pop(session_id, None)
        if old is not None:
            old.cancel()
        self._retries[session_id] = asyncio.get_running_loop().call_later(delay, self._retry, session_id)
        if job.done is not None and not job.done.done():
            job.done.set_exception(exc)

    def _retry(self, session_id: int) -> None:
        self._retries.pop(session_id, None)
        self.enqueue(session_id, Job())
