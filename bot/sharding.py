"""The sharded bots: ``SHARD_COUNT`` with fixed ``SHARD_IDS`` (or every shard in one process), or shared by identical
processes through leases in PostgreSQL (``bot.leases``), and ``build_bot``, which picks one from the settings.

The leased bot connects and disconnects shards as its leases come and go, with discord.py's own shard machinery
(``AutoShardedClient.launch_shard`` and its table of running shards). A shard it gains is this process's at once:
its due deadlines, computer turns, news and boards to redraw are picked up (``bot.attention``), and the holder of
shard 0 publishes the slash commands. A shard it loses is disconnected and its servers forgotten.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any, cast

import yarl
from discord.ext import commands
from discord.shard import Shard

from bot.app import TabletopBot
from bot.leases import Change, ShardLeases
from bot.settings import Settings
from bot.shards import Shards
from bot.storage.leases import LeaseStore

log = logging.getLogger(__name__)


class ShardedTabletopBot(TabletopBot, commands.AutoShardedBot):
    """The same bot running the shards ``SHARD_IDS`` of ``SHARD_COUNT`` (all of them, by default), beside other
    processes running the rest on one PostgreSQL database. Discord sends each process only its own servers' events
    and interactions."""


class LeasedShardedBot(ShardedTabletopBot):
    """One of several identical processes (``SHARD_COUNT``, no ``SHARD_IDS``, PostgreSQL) sharing the shards
    through leases: it runs the shards it holds, whichever they are at the moment."""

    syncs_commands_at_start = False

    def __init__(self, settings: Settings, **options: Any) -> None:
        assert settings.shard_count is not None
        super().__init__(settings, shard_count=settings.shard_count, shard_ids=[], **options)
        self.leases = ShardLeases(
            cast(LeaseStore, self.store),
            settings.shard_count,
            settings.shard_lease_seconds,
            gain=self._gain,
            lose=self._lose,
        )
        self.status_server.add_check("shards", self.leases.check)
        self._gateway: yarl.URL | None = None
        self._max_concurrency = 1
        self._launching: dict[int, asyncio.Task[None]] = {}
        self._connecting: set[int] = set()
        self._turn_taken: set[int] = set()
        """Shards whose IDENTIFY turn was taken before their connection opened (the hook lets them through)."""
        self._syncing: asyncio.Task[None] | None = None

    @staticmethod
    def starting_shards(settings: Settings) -> Shards:
        """None until leases are taken."""
        assert settings.shard_count is not None
        return Shards(settings.shard_count, ())

    async def launch_shards(self) -> None:
        """Called by ``connect``: instead of connecting every shard, take part in the leases (each shard is
        connected as it is gained)."""
        if self.is_closed():
            return
        _, url, limits = await self.http.get_bot_gateway()
        self._gateway = yarl.URL(url)
        self._max_concurrency = max(1, int(limits.get("max_concurrency", 1)))
        self._connection.shard_count = self.shard_count
        self._connection.shard_ids = []
        self.leases.start()

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """Every IDENTIFY waits for its bucket's turn across the processes (a first one has taken it already)."""
        shard = shard_id or 0
        if shard in self._turn_taken:
            self._turn_taken.discard(shard)
            return
        await self.leases.identify_turn(shard, self._max_concurrency)

    async def _gain(self, shards: frozenset[int]) -> None:
        self.metrics.shard_changes.labels(Change.GAINED.value).inc(len(shards))
        self.assignment.set({*self.assignment.shards.ids, *shards})
        self._connection.shard_ids = list(self.assignment.shards.ids)
        self.gateway.watch(shards)
        for shard in sorted(shards):
            self._launching[shard] = asyncio.get_running_loop().create_task(self._launch(shard), name=f"shard-{shard}")
        self.timers.schedule(self.clock.now())  # the gained servers' deadlines that are due, at once
        self.attend_to(Shards(self.assignment.shards.count, tuple(sorted(shards))))
        if 0 in shards and not self.settings.skip_sync:
            self._syncing = asyncio.get_running_loop().create_task(self._sync(), name="sync-commands")

    async def _launch(self, shard: int) -> None:
        """Connect ``shard`` once its bucket may IDENTIFY: waiting for the turn, nothing is open yet, so giving the
        shard up meanwhile just stops the wait."""
        assert self._gateway is not None
        await self.leases.identify_turn(shard, self._max_concurrency)
        self._turn_taken.add(shard)
        self._connecting.add(shard)
        try:
            await self.launch_shard(self._gateway, shard)
        finally:
            self._connecting.discard(shard)

    async def _sync(self) -> None:
        try:
            await self.sync_commands()
        except Exception:
            log.exception("Publishing the slash commands failed; the next holder of shard 0 tries again")

    async def _lose(self, shards: frozenset[int], why: Change) -> None:
        self.metrics.shard_changes.labels(why.value).inc(len(shards))
        self.assignment.set(set(self.assignment.shards.ids) - shards)
        self._connection.shard_ids = list(self.assignment.shards.ids)
        self.gateway.forget(shards)
        for shard in sorted(shards):
            await self._disconnect(shard)
        log.info("Gave up shard(s) %s (%s)", ",".join(map(str, sorted(shards))), why.value)

    async def _disconnect(self, shard: int) -> None:
        """Close ``shard``'s connection (one being opened is let open first, then closed) and forget its servers."""
        task = self._launching.pop(shard, None)
        if task is not None and not task.done():
            if shard in self._connecting:  # moments, normally: let it open, to close it below (not past a beat)
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(asyncio.shield(task), self.leases.tick_s)
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._turn_taken.discard(shard)
        running = cast(dict[int, Shard], vars(self)["_AutoShardedClient__shards"]).pop(shard, None)
        if running is not None:
            # A reconnection queued for it before now must not bring it back.
            setattr(running, "reidentify", _stay_closed)  # noqa: B010 (an instance's method, replaced)
            setattr(running, "reconnect", _stay_closed)  # noqa: B010
            await running.close()
        for guild in [g for g in self.guilds if g.shard_id == shard]:
            self._connection._remove_guild(guild)

    async def close(self) -> None:
        """Give the shards up at once (disconnected first: others take them without waiting for the leases to
        run out), then stop as any bot does."""
        await self.leases.close()
        if self._syncing is not None:
            self._syncing.cancel()
        await super().close()


async def _stay_closed(*_: Any) -> None:
    """What a shard given up does when asked to reconnect."""


def build_bot(settings: Settings, **options: Any) -> TabletopBot:
    """The bot for ``settings``: one shard; sharded with ``SHARD_COUNT`` (``SHARD_IDS``, or every shard); or sharing
    the shards with other processes through leases (``SHARD_COUNT`` without ``SHARD_IDS``, on PostgreSQL)."""
    if settings.shard_count is None:
        return TabletopBot(settings, **options)
    if settings.leased_shards:
        return LeasedShardedBot(settings, **options)
    shards = settings.shards
    return ShardedTabletopBot(settings, shard_count=shards.count, shard_ids=list(shards.ids), **options)
