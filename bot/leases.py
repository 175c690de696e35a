"""Shards that assign themselves: identical processes share ``SHARD_COUNT`` shards through leases in PostgreSQL.

Every ``lease_s / TICKS_PER_LEASE`` seconds a process beats (``LeaseStore.heartbeat``): its row and its leases are
renewed for ``lease_s``; processes whose time has passed are forgotten, and their leases with them. It then holds
its share (``quotas``): a process over its share gives the extra shards up (disconnecting them first), one under it
takes free ones. So a process that is killed has its shards taken over about ``lease_s`` after its last heartbeat,
one that stops (SIGTERM) gives them up at once, and one that starts gets its share from the others once it has been
known for a heartbeat's time (settled): processes starting together all count each other before any takes shards.

A process that can't renew gives its shards up before its leases run out (``_unrenewed``): by then another may
take them. Two processes on one shard for a moment (a frozen process waking) is safe anyway: every change is a
versioned write and a click is applied once, whoever receives it.

Discord lets shards start their sessions (IDENTIFY) in buckets ``shard_id % max_concurrency``, each bucket once
per 5 seconds, across every process of the bot: ``identify_turn`` takes the bucket's turn in the database.

A process that joins, gives shards up or stops says so (``LeaseStore.listen``): the others beat at once, so a shard
given up is taken over in moments, not at the next heartbeat.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import socket
import time
from collections.abc import Awaitable, Callable, Sequence
from enum import StrEnum

from bot.background import Background
from bot.status import Check
from bot.storage.leases import Holder, LeaseStore, Listening

log = logging.getLogger(__name__)

TICKS_PER_LEASE = 4
"""Heartbeats per lease period: a process may miss three in a row (a slow database) before it loses its shards."""
IDENTIFY_SPACING_S = 6.0
"""Between two IDENTIFYs of one bucket: Discord's 5 seconds, and a second for the way from taking the turn to
Discord receiving the IDENTIFY."""


class Change(StrEnum):
    """Why shards were taken on or given up (the metric's label)."""

    GAINED = "gained"
    RELEASED = "released"
    """Given up to even out the shares (a process joined)."""
    LOST = "lost"
    """Its lease ran out or was taken: this process could not renew it in time."""
    STOPPING = "stopping"


Gain = Callable[[frozenset[int]], Awaitable[None]]
Lose = Callable[[frozenset[int], Change], Awaitable[None]]


def process_name() -> str:
    """This process's name in the lease table: its host (a container's id), its pid and a few random letters (a
    pid is reused by the next container)."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"


def quotas(processes: Sequence[Holder], count: int) -> dict[str, int]:
    """How many of ``count`` shards each live process should hold: ``count // n`` each, and the rest one more
    each for the processes holding the most now (then by name), so a process joining or leaving moves as few
    shards as can be."""
    if not processes:
        return {}
    base, extra = divmod(count, len(processes))
    ranked = sorted(processes, key=lambda p: (-len(p.shards), p.owner))
    return {p.owner: base + (1 if rank < extra else 0) for rank, p in enumerate(ranked)}


class ShardLeases:
    """This process's shard leases: it beats, holds its share and tells the bot which shards it gains and loses.

    Collaborators: the lease queries, and the bot's ``gain`` (connect these shards and look after their servers)
    and ``lose`` (stop, and disconnect them) callbacks."""

    def __init__(self, store: LeaseStore, count: int, lease_s: float, *, gain: Gain, lose: Lose) -> None:
        self.store = store
        self.count = count
        self.lease_s = lease_s
        self.gain = gain
        self.lose = lose
        self.owner = process_name()
        self.held: frozenset[int] = frozenset()
        self.processes = 0
        """Live processes at the last heartbeat (this one included)."""
        self._valid_until = 0.0
        """Until when (monotonic) this process's leases surely hold: the last heartbeat's sending plus a lease."""
        self._beats = 0
        self._settled = False
        """Known long enough to the others to be given a share (``Holder.settled``)."""
        self._failing = False
        self._other_counts: frozenset[int] = frozenset()
        self._closed = False
        self._changing = asyncio.Lock()
        self._task = Background("shard-leases", self._run)
        self._listening: Listening | None = None
        self._news = asyncio.Event()
        """Another process's leases changed: beat now."""

    @property
    def tick_s(self) -> float:
        """Seconds between heartbeats."""
        return self.lease_s / TICKS_PER_LEASE

    def start(self) -> None:
        """Beat and keep a share of the shards until ``close``."""
        if not self._closed:
            self._task.start()

    async def _run(self) -> None:
        while True:
            await self._listen()
            self._news.clear()  # news during the beat brings the next one forward
            try:
                await self.tick()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("Shard leases: a heartbeat failed unexpectedly; trying again")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._news.wait(), self.tick_s)

    async def _listen(self) -> None:
        """Hear the others' changes (again, if the connection was lost); without it, the heartbeats still go on."""
        if self._listening is not None and not self._listening.is_closed():
            return
        try:
            self._listening = await asyncio.wait_for(self.store.listen(self._heard), self.tick_s)
        except Exception as exc:
            log.debug("Shard leases: not listening for changes (%s); beating every %g s", exc, self.tick_s)

    def _heard(self, owner: str) -> None:
        if owner != self.owner:
            self._news.set()

    async def tick(self) -> None:
        """One heartbeat: renew, learn what was lost, then give up or take shards to hold this process's share."""
        async with self._changing:
            if self._closed:
                return
            sent = time.monotonic()
            # A slow database may take half a lease, or more while the leases hold, but not past the moment to give
            # them up.
            patience = max(self.lease_s / 2, self._valid_until - sent - self.tick_s)
            try:
                beat = await asyncio.wait_for(
                    self.store.heartbeat(self.owner, self.count, self.lease_s, self.tick_s), patience
                )
            except Exception as exc:  # unreachable, too slow, or refused: the database's own errors too
                await self._unrenewed(exc)
                return
            self._valid_until = sent + self.lease_s
            self._beats += 1
            if self._failing:
                log.info("Shard leases: the database answers again")
                self._failing = False
            self.processes = len(beat.processes)
            lost = self.held - beat.held
            if lost:
                log.warning("Shard leases: lost shard(s) %s (taken while this process could not renew)", _ids(lost))
                await self._give_up(lost, Change.LOST)
            if any(p.owner == self.owner and p.settled for p in beat.processes):
                if not self._settled:
                    self._settled = True
                    await self.store.announce(self.owner)
                await self._hold_share(beat.processes)

    async def _hold_share(self, processes: Sequence[Holder]) -> None:
        """Take free shards up to this process's share among every process known (processes starting together
        count each other: none takes more), and give up shards over its share among the settled ones (a newcomer
        is given shards once it can take them, not before)."""
        others = frozenset(p.shard_count for p in processes) - {self.count}
        if others != self._other_counts:
            self._other_counts = others
            if others:
                log.warning(
                    "Shard leases: processes with SHARD_COUNT %s are running beside this one's %d; taking no shards "
                    "until they stop",
                    _ids(others),
                    self.count,
                )
        if others:
            return
        settled = [p for p in processes if p.settled]
        settled_share = quotas(settled, self.count)[self.owner]
        if len(self.held) > settled_share:
            extra = frozenset(sorted(self.held)[settled_share:])
            await self._give_up(extra, Change.RELEASED)
            await self.store.release_shards(self.owner, sorted(extra))
            log.info("Shard leases: gave up shard(s) %s to even out %d processes", _ids(extra), len(settled))
            return
        share = quotas(processes, self.count)[self.owner]
        taken = frozenset().union(*(p.shards for p in processes))
        free = [s for s in range(self.count) if s not in taken]
        if len(self.held) < share and free:
            won = await self.store.claim_shards(self.owner, free[: share - len(self.held)], self.lease_s)
            if won:
                self.held |= won
                log.info("Shard leases: took shard(s) %s of %d", _ids(won), self.count)
                await self.gain(won)

    async def _give_up(self, shards: frozenset[int], why: Change) -> None:
        self.held -= shards
        await self.lose(shards, why)

    async def _unrenewed(self, exc: BaseException) -> None:
        """A heartbeat failed: keep the shards while the leases surely hold, give them up before they may not."""
        if not self._failing:
            log.warning("Shard leases: can't renew (%s: %s)", type(exc).__name__, exc)
            self._failing = True
        if self.held and time.monotonic() + self.tick_s >= self._valid_until:
            log.warning("Shard leases: giving up shard(s) %s before their leases run out", _ids(self.held))
            await self._give_up(self.held, Change.LOST)

    async def identify_turn(self, shard_id: int, max_concurrency: int) -> None:
        """Wait for the turn of ``shard_id``'s bucket to IDENTIFY, across every process (Discord's
        ``max_concurrency``); without the database, wait as long as a turn lasts and go."""
        bucket = shard_id % max(1, max_concurrency)
        while True:
            try:
                wait = await self.store.identify_turn(bucket, IDENTIFY_SPACING_S)
            except Exception as exc:
                log.warning("Shard leases: no IDENTIFY turn from the database (%s); waiting a turn's time", exc)
                await asyncio.sleep(IDENTIFY_SPACING_S)
                return
            if wait <= 0:
                return
            await asyncio.sleep(wait)  # Discord's rate, in the database's time: nothing to wait on but the clock

    async def close(self) -> None:
        """Stop beating and give every shard up at once (disconnected first), so others take them without waiting
        for the leases to run out."""
        await self._task.stop()
        if self._listening is not None:
            with contextlib.suppress(Exception):
                await self._listening.close()
        async with self._changing:
            if self._closed:
                return
            self._closed = True
            if self.held:
                await self._give_up(self.held, Change.STOPPING)
            if not self._beats:
                return  # never known: nothing to give up
            try:
                await self.store.leave(self.owner)
            except Exception as exc:
                log.warning("Shard leases: could not give the leases up (%s); they run out in %g s", exc, self.lease_s)

    async def check(self) -> Check:
        """``/healthz``: this process takes part (it has settled, so it takes shards given up at once: a rolling
        restart waiting for the new process to be healthy hands shards straight over) and its leases are renewed
        (a heartbeat may fail now and then, while they surely hold)."""
        now = time.monotonic()
        renewed = now - (self._valid_until - self.lease_s) if self._beats else None
        holding = now + self.tick_s < self._valid_until
        return Check(
            self._settled and now < self._valid_until and (holding or not self._failing),
            {
                "settled": self._settled,
                "held": _ids(self.held),
                "held_count": len(self.held),
                "shard_count": self.count,
                "processes": self.processes,
                "lease_s": self.lease_s,
                "renewed_s_ago": round(renewed, 3) if renewed is not None else None,
                "renewing": not self._failing,
            },
        )


def _ids(shards: frozenset[int]) -> str:
    return ",".join(str(s) for s in sorted(shards))
