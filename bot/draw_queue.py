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

from bot.lanes import Lanes
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
    """Jobs per session, each session's worker (``Lanes``), and the retries of failed drawings. Everything kept per
    session is released when its worker has nothing left to do (jobs, failures): a bot that served a million games
    keeps none of them."""

    def __init__(self, draw: Draw) -> None:
        self.draw = draw
        self.lanes: Lanes[int, Job] = Lanes("publish", self._run, background_at_once=BACKGROUND_DRAWINGS)
        self._retries: dict[int, asyncio.TimerHandle] = {}
        self._failures: dict[int, int] = {}
        self.backlog_below = self.lanes.backlog_below
        self.idle = self.lanes.idle

    @property
    def closing(self) -> bool:
        """No more jobs are taken (the bot is stopping)."""
        return self.lanes.closing

    def enqueue(self, session_id: int, job: Job) -> None:
        """Add a job for the session's worker (started if it isn't running)."""
        if job.reply is not None and job.reply.pending and self.has_work(session_id):
            # Its answer would wait behind another drawing (maybe a slow or rate-limited edit): acknowledge the
            # interaction now; the drawing fills it in when its turn comes.
            if job.post is not None:
                job.reply.expect_message(private=False)  # a view posted anew is a public message
            job.reply.defer_now()
        if not self.lanes.add(session_id, job, background=job.background) and job.done is not None:
            job.done.set_result(None)

    def catch_up(self, session_id: int) -> None:
        """After a restart: a drawing after the interactions' drawings."""
        self.enqueue(session_id, Job(background=True))

    async def drain(self, timeout: float) -> None:
        """Let drawings in progress finish (up to ``timeout`` seconds), then stop taking new ones."""
        for handle in self._retries.values():
            handle.cancel()
        await self.lanes.drain(timeout)

    def footprint(self) -> dict[str, int]:
        """How many sessions each structure holds now (all empty once every session is drawn)."""
        return {**self.lanes.footprint(), "retries": len(self._retries), "failures": len(self._failures)}

    def queue(self) -> tuple[int, float]:
        """Drawings waiting for their turn, and how many seconds the oldest has waited (for the metrics)."""
        heads = [job.queued_at for job in self.lanes.heads()]
        return self.lanes.waiting(), time.monotonic() - min(heads) if heads else 0.0

    @property
    def retrying(self) -> int:
        """Sessions whose drawing failed and waits to be tried again."""
        return len(self._retries)

    @property
    def busy(self) -> bool:
        """Something is being drawn."""
        return self.lanes.busy

    def has_work(self, session_id: int) -> bool:
        """The session is being drawn, or waits to be tried again."""
        return self.lanes.has_work(session_id) or session_id in self._retries

    async def _run(self, session_id: int, job: Job, waiting: deque[tuple[Job, bool]]) -> None:
        if job.after is not None:
            await job.after.answered(ANSWER_FIRST_WAIT_S)
        try:
            if not (job.background and any(not background for _, background in waiting)):
                await self.draw(session_id, job)
            # else: an interaction's drawing follows: it draws the session as it is now, at once
            self._failures.pop(session_id, None)
        except (discord.HTTPException, OSError, TimeoutError) as exc:
            log.warning("Session %s: drawing failed (%s); trying again later", session_id, exc)
            self._failed(session_id, job, exc)
        except Exception as exc:
            log.exception("Session %s: drawing failed", session_id)
            self._failed(session_id, job, exc)
        finally:
            await self._finished(job)

    async def _finished(self, job: Job) -> None:
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
