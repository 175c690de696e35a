"""Identical bot processes sharing the shards through leases in PostgreSQL, end to end against the local Discord.

Three ``python -m bot`` processes with ``SHARD_COUNT`` and no ``SHARD_IDS`` share the shards; the local Discord
routes each guild to whoever connected its shard, and refuses an IDENTIFY that breaks its bucket's rate (the test
fails on it). A process is SIGKILLed with a deadline running and a computer's turn waiting in its servers: the
others take its shards over and both carry on exactly once. A rolling restart (start a new process, stop an old
one, three times) never leaves a shard unconnected for long. The lease is short here (``LEASE_S``) so it runs fast.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import signal
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import asyncpg
import pytest
from prometheus_client.parser import text_string_to_metric_families

from bot.app import extensions_of
from bot.endpoint import use_api_base
from bot.models import Scope, Session
from bot.settings import Settings
from bot.sharding import LeasedShardedBot, build_bot
from bot.storage import PostgresStore
from localdiscord.gateway import Session as GatewaySession
from localdiscord.guild import Channel, Guild
from localdiscord.server import LocalDiscord
from tests.bot_process import output_path, process_exit, start_bot_process
from tests.core.race import start_race
from tests.databases import postgres_database
from tests.testgame.engine import RaceEngine, RaceState

SHARDS = 3
LEASE_S = 3.0
"""The failover test's lease: short, so a killed process's shards are free soon."""
PRODUCTION_LEASE_S = float(Settings.model_fields["shard_lease_seconds"].default)
COMPUTER_DELAY_S = 3.0
"""Long enough that the process is killed while its computer player pauses."""
ENV = {
    "EXTENSIONS": "cogs.meta,cogs.game,tests.testgame.cog",
    "COMPUTER_DELAY": str(COMPUTER_DELAY_S),
    "LOG_LEVEL": "INFO",
    "SHARD_COUNT": str(SHARDS),
    "METRICS_PORT": "0",
}
START_S = 60.0
"""For processes to start and share the shards (a busy machine starts three slowly)."""
TAKEOVER_S = 30.0
TURN_TIMEOUT_S = 10
REMINDER = "a reminder: it's your move"
METRICS_LINE = re.compile(r"Metrics on http://[^:]+:(\d+)/metrics")


class Cluster:
    """Bot processes on one database, by pid; killed by PID at the end."""

    def __init__(self, fake: LocalDiscord, folder: Path, url: str, lease_s: float) -> None:
        self.fake = fake
        self.folder = folder
        self.url = url
        self.env = ENV | {"DATABASE_URL": url, "SHARD_LEASE_SECONDS": str(lease_s)}
        self.procs: dict[int, subprocess.Popen[bytes]] = {}
        self.files: dict[int, Path] = {}

    def start(self) -> int:
        """A new process (not waited for); its pid."""
        path = self.folder / f"bot{len(self.files) + 1}.sqlite3"
        proc = start_bot_process(self.fake, path, self.env)
        self.procs[proc.pid] = proc
        self.files[proc.pid] = path
        return proc.pid

    async def holders(self) -> dict[int, int]:
        """Each shard leased, by the pid of the process holding it."""
        conn = await asyncpg.connect(self.url)
        try:
            rows = await conn.fetch("SELECT shard, owner FROM shard_leases")
        finally:
            await conn.close()
        return {int(r["shard"]): int(str(r["owner"]).split(":")[1]) for r in rows}

    async def shared(self, processes: int, timeout: float = START_S) -> dict[int, int]:
        """Wait until every shard is connected once and leased, spread over ``processes`` processes as evenly as
        can be; the holders."""
        async with asyncio.timeout(timeout):
            while True:
                await self.fake.wait_for(lambda: all(len(connected(self.fake, s)) == 1 for s in range(SHARDS)), timeout)
                holders = await self.holders()
                counts = sorted(list(holders.values()).count(pid) for pid in set(holders.values()))
                even = [SHARDS // processes + (1 if n < SHARDS % processes else 0) for n in range(processes)]
                if (
                    len(holders) == SHARDS
                    and counts == sorted(c for c in even if c)
                    and set(holders.values()) <= set(self.procs)
                ):
                    return holders
                await asyncio.sleep(0.1)

    async def kill(self, pid: int) -> float:
        """SIGKILL a process: no goodbye; when it had exited (monotonic)."""
        proc = self.procs.pop(pid)
        exited = process_exit(proc)
        os.kill(pid, signal.SIGKILL)
        await exited
        return time.monotonic()

    async def stop(self, pid: int) -> int:
        """SIGTERM a process and wait for it to finish stopping; its exit code."""
        proc = self.procs.pop(pid)
        exited = process_exit(proc)
        os.kill(pid, signal.SIGTERM)
        async with asyncio.timeout(30):
            return await exited

    def stop_all(self) -> None:
        for proc in self.procs.values():
            if proc.poll() is None:
                os.kill(proc.pid, signal.SIGKILL)
                proc.wait()

    def output(self, pid: int) -> str:
        return output_path(self.files[pid]).read_text()

    def metrics_port(self, pid: int) -> int:
        """The port a process serves ``/healthz`` on (it chose a free one, and said so)."""
        found = METRICS_LINE.search(self.output(pid))
        assert found, self.output(pid)
        return int(found[1])

    def outputs(self) -> str:
        return "\n".join(p.read_text() for p in sorted(self.folder.glob("*.out")))


def published(fake: LocalDiscord) -> list[dict[str, Any]]:
    """Every request that published the slash commands."""
    return [r for r in fake.requests if r["method"] == "PUT" and r["path"].endswith("/commands")]


def connected(fake: LocalDiscord, shard: int) -> list[GatewaySession]:
    """The Gateway sessions of ``shard`` connected now."""
    return [s for s in fake.sessions if s.shard == (shard, SHARDS) and s.connection is not None and not s.ended]


def longest_gap(fake: LocalDiscord, shard: int, since: float, until: float) -> float:
    """The longest time between ``since`` and ``until`` when no session of ``shard`` was connected."""
    spans = sorted((start, end) for s in fake.sessions if s.shard == (shard, SHARDS) for start, end in s.online)
    gap, covered = 0.0, since
    for start, end in spans:
        if start > covered:
            gap = max(gap, min(start, until) - covered)
        covered = max(covered, end)
        if covered >= until:
            break
    return max(gap, until - covered)


StartCluster = Callable[[float], Awaitable[tuple[Cluster, PostgresStore]]]


@pytest.fixture
async def start_cluster(fake: LocalDiscord, tmp_path: Path) -> AsyncIterator[StartCluster]:
    """Three processes sharing the shards of a fresh PostgreSQL database with leases of the seconds given, and a
    store to read it."""
    async with postgres_database() as url, contextlib.AsyncExitStack() as stack:
        running: list[Cluster] = []

        async def start(lease_s: float) -> tuple[Cluster, PostgresStore]:
            cluster = Cluster(fake, tmp_path, url, lease_s)
            running.append(cluster)
            stack.callback(cluster.stop_all)
            for _ in range(3):
                cluster.start()
            await cluster.shared(3)
            store = PostgresStore(url, pool_size=2)
            await store.open()
            stack.push_async_callback(store.close)
            return cluster, store

        yield start
    for cluster in running:
        assert "Traceback" not in cluster.outputs(), cluster.outputs()


def guild_on(fake: LocalDiscord, shard: int) -> Guild:
    return next(g for g in fake.guilds if (g.id >> 22) % SHARDS == shard)


async def game_in(store: PostgresStore, channel: Channel) -> Session:
    game = await store.live_session(channel.id, Scope.TABLE)
    assert game is not None
    return game


def healthz(port: int) -> dict[str, Any]:
    """A process's ``/healthz``: its checks (200 or 503 alike)."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5) as answer:
            body: dict[str, Any] = json.loads(answer.read())
    except urllib.error.HTTPError as exc:
        body = json.loads(exc.read())
    return body


def metric(port: int, name: str, **labels: str) -> float:
    """One sample of a process's ``/metrics``."""
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as answer:
        text = answer.read().decode()
    return next(
        s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
        if s.name == name and s.labels == labels
    )


async def eventually(check: Callable[[], Any], what: str, timeout: float = TAKEOVER_S) -> Any:
    """Ask ``check`` (a coroutine function) until it answers something true; that answer."""
    try:
        async with asyncio.timeout(timeout):
            while not (answer := await check()):  # noqa: ASYNC110 (another process writes it: nothing to wait on)
                await asyncio.sleep(0.1)
    except TimeoutError:
        raise AssertionError(f"{what}: not within {timeout:g} s") from None
    return answer


async def click(fake: LocalDiscord, store: PostgresStore, channel: Channel) -> Session:
    """Whoever must act (a member) clicks their choice; the game as it was before the click."""
    game = await game_in(store, channel)
    prompt = RaceEngine().prompts(RaceState.model_validate(game.state))[0]
    member = fake.users[game.seat_of_player(prompt.player).user_id]
    board = await (await fake.slash(channel, member, "game status")).message()
    reply = await (await fake.click(board, "Roll" if prompt.decision == "roll" else "Leave it", member)).message()
    assert not reply.ephemeral, reply.content
    return game


def to_act(game: Session) -> str:
    return RaceEngine().prompts(RaceState.model_validate(game.state))[0].player


@pytest.mark.fake(guilds=SHARDS, shards=SHARDS, max_concurrency=SHARDS)
async def test_a_killed_process_has_its_shards_taken_over_and_its_servers_carry_on_exactly_once(
    fake: LocalDiscord, start_cluster: StartCluster
) -> None:
    processes, store = await start_cluster(LEASE_S)
    holders = await processes.holders()
    assert len(published(fake)) == 1, "the commands are published once, by the holder of shard 0"
    assert f"Synced {len(fake.global_commands)} slash commands" in processes.output(holders[0])
    for shard, pid in holders.items():  # each process says which shard it holds
        port = processes.metrics_port(pid)
        shards = healthz(port)["checks"]["shards"]
        assert shards["ok"] and shards["held"] == str(shard) and shards["processes"] == 3
        assert metric(port, "tabletop_shards_held") == 1
        assert metric(port, "tabletop_shard_changes_total", change="gained") >= 1
    shard = 1
    victim, guild = holders[shard], guild_on(fake, shard)
    timed, played = guild.channels[0], guild.channels[1]
    host, other = guild.members[0], guild.members[1]

    # A game with a turn's deadline running, and one whose computer player is pausing before its move.
    await start_race(fake, timed, host, [other], target=30, timeout=TURN_TIMEOUT_S)
    for _ in range(2):
        await click(fake, store, timed)
    before = await game_in(store, timed)
    waiting = before.seat_of_player(to_act(before))
    await start_race(fake, played, host, [], target=30, bots=1)
    await eventually(
        lambda: _when(game_in(store, played), lambda g: not g.seat_of_player(to_act(g)).computer), "the host's turn"
    )
    clicked = await click(fake, store, played)
    killed_at = await processes.kill(victim)
    computer_to_move = await game_in(store, played)
    assert computer_to_move.version == clicked.version + 1, "the computer moved before the kill: too slow a machine"
    assert computer_to_move.seat_of_player(to_act(computer_to_move)).computer

    # Its shard is taken over: connected by another process.
    await fake.wait_for(
        lambda: any(s.online[0][0] > killed_at for s in connected(fake, shard)), TAKEOVER_S, what="the takeover"
    )
    took = min(s.online[0][0] for s in connected(fake, shard)) - killed_at
    print(f"\nfailover: shard {shard} connected elsewhere {took:.2f} s after SIGKILL (lease {LEASE_S:g} s)")
    assert took < TAKEOVER_S
    starts = len(fake.session_starts.identifies)
    joined = processes.start()  # a replacement, while the servers carry on

    # The computer's move is made once, by the new holder; the deadline's default move once, and its reminder.
    after = await eventually(
        lambda: _when(game_in(store, played), lambda g: not g.seat_of_player(to_act(g)).computer), "the computer"
    )
    entries = await store.log_entries(after.id, after=clicked.version + 1)
    assert entries and all(e.action.get("how") == "computer" for e in entries), entries
    assert [e.seq for e in entries] == list(range(clicked.version + 2, after.version + 1))

    async def defaults() -> list[int]:
        entries = await store.log_entries(before.id, after=before.version)
        return [e.seq for e in entries if e.action.get("how") == "timeout"]

    assert await eventually(defaults, "the default move", TURN_TIMEOUT_S * 2) == [before.version + 1]
    reminders = [m for m in fake.messages(timed) if REMINDER in m.content and f"<@{waiting.user_id}>" in m.content]
    assert len(reminders) == 1, [m.content for m in reminders]

    # The replacement gets its share from the process holding two, and nothing else moves.
    holders = await processes.shared(3)
    assert joined in holders.values()
    assert len(fake.session_starts.identifies) == starts + 1, "one shard moved to the newcomer, nothing else"
    # Then clicks are answered by whoever holds the shard now (a click while a shard moves between processes has
    # no connection to reach, as on Discord: the test clicks once the shares have settled).
    await click(fake, store, timed)
    assert (await game_in(store, timed)).version == before.version + 2


async def _when(read: Any, test: Callable[[Session], bool]) -> Session | None:
    game: Session = await read
    return game if test(game) else None


@pytest.mark.fake(guilds=SHARDS, shards=SHARDS, max_concurrency=SHARDS)
async def test_a_rolling_restart_never_leaves_a_shard_unconnected_for_a_lease(
    fake: LocalDiscord, start_cluster: StartCluster
) -> None:
    """Start the new processes, then stop the old ones one at a time (SIGTERM: each gives its shards up at once and
    says so), with the production's lease: a shard given up waits for its bucket's IDENTIFY turn (6 s after the
    last) at most, which a shorter lease would not cover."""
    processes, _ = await start_cluster(PRODUCTION_LEASE_S)
    old = list(processes.procs)
    since = time.monotonic()
    new = [processes.start() for _ in old]
    await eventually(lambda: _healthy(processes, new), "the new processes to be healthy (as an orchestrator waits)")
    for pid in old:
        assert await processes.stop(pid) == 0
        await processes.shared(3)
    until = time.monotonic()
    gaps = {shard: longest_gap(fake, shard, since, until) for shard in range(SHARDS)}
    longest = max(gaps.values())
    print(f"\nrolling restart: longest a shard was unconnected {longest:.2f} s (lease {PRODUCTION_LEASE_S:g} s)")
    assert longest < PRODUCTION_LEASE_S, gaps
    assert set((await processes.holders()).values()).isdisjoint(old)
    for shard in range(SHARDS):
        guild = guild_on(fake, shard)
        reply = await (await fake.slash(guild.channels[0], guild.members[1], "ping")).message()
        assert reply.content == "Pong!"
    for pid in old:
        assert "Stopped cleanly." in processes.output(pid)


async def _healthy(processes: Cluster, pids: list[int]) -> bool:
    """Whether every one of ``pids`` answers ``/healthz`` as healthy (it takes part in the leases)."""
    ports = [METRICS_LINE.search(processes.output(pid)) for pid in pids]
    if not all(ports):
        return False
    bodies = [await asyncio.to_thread(healthz, int(port[1])) for port in ports if port]
    return all(body["healthy"] for body in bodies)


async def leased_bot(fake: LocalDiscord, url: str, folder: Path) -> tuple[LeasedShardedBot, asyncio.Task[None]]:
    """A bot of this process sharing ``SHARDS`` shards through leases of two seconds (it connects in the
    background)."""
    use_api_base(fake.base_url)
    settings = Settings(
        discord_token=fake.token,
        database_path=folder / "unused.sqlite3",
        database_url=url,
        discord_api_base=fake.base_url,
        shard_count=SHARDS,
        shard_lease_seconds=2.0,
        extensions=ENV["EXTENSIONS"],
        computer_delay=0,
        _env_file=None,
    )  # type: ignore[call-arg]
    bot = build_bot(settings, extensions=extensions_of(settings), guild_ready_timeout=0.1)
    assert isinstance(bot, LeasedShardedBot)
    await bot.login(fake.token)
    return bot, asyncio.create_task(bot.connect())


@pytest.mark.fake(guilds=SHARDS, shards=SHARDS, max_concurrency=SHARDS)
async def test_a_process_whose_heartbeats_stall_loses_its_shards_and_a_click_meanwhile_is_applied_once(
    fake: LocalDiscord, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A process whose heartbeats stop (a stuck database call, a long pause) while its Gateway goes on: another
    takes its shards once the leases run out, so for a moment both receive the shard's clicks: each is applied
    once. At its next heartbeat the first finds its leases gone and disconnects them."""
    async with postgres_database() as url:
        (a, a_runs), (b, b_runs) = await asyncio.gather(*(leased_bot(fake, url, tmp_path) for _ in range(2)))
        try:

            async def shared() -> bool:
                once = all(len(connected(fake, s)) == 1 for s in range(SHARDS))
                return (
                    once
                    and len(a.leases.held) + len(b.leases.held) == SHARDS
                    and bool(a.leases.held)
                    and bool(b.leases.held)
                )

            await eventually(shared, "the two to share the shards", START_S)
            shard = min(a.leases.held)
            guild = guild_on(fake, shard)
            channel = guild.channels[0]
            await start_race(fake, channel, guild.members[0], [guild.members[1]], target=30)

            stalled = asyncio.Event()
            beat = a.leases.tick

            async def stalling() -> None:
                await stalled.wait()
                await beat()

            a.leases.tick = stalling  # type: ignore[method-assign]
            await fake.wait_for(lambda: len(connected(fake, shard)) == 2, TAKEOVER_S, what="b to take a's shard")
            assert shard in b.leases.held and shard in a.leases.held  # each runs it, as far as it knows
            taken = len(a.leases.held)

            fake.tolerate("Interaction has already been acknowledged")
            game = await b.store.live_session(channel.id, Scope.TABLE)
            assert game is not None
            member = fake.users[game.seat_of_player(to_act(game)).user_id]
            board = await (await fake.slash(channel, member, "game status")).message()
            clicked = await fake.click(board, "Roll", member)  # a game's first decision is a roll
            await fake.wait_for(lambda: clicked.response_type is not None and clicked.errors, 10, what="both answers")
            await a.settled()
            await b.settled()
            entries = await b.store.log_entries(game.id, after=game.version)
            assert [e.seq for e in entries] == [game.version + 1], "the click is applied once"

            stalled.set()  # a beats again: its leases are gone, it disconnects the shard
            await fake.wait_for(lambda: len(connected(fake, shard)) == 1, TAKEOVER_S, what="a to let go")
            lost = a.metrics.registry.get_sample_value("tabletop_shard_changes_total", {"change": "lost"})
            assert not a.leases.held and lost == taken
            assert "Error" not in caplog.text  # the one answered second was answered by the other: no error id
            assert not a.assignment.owns(guild.id) and a.get_guild(guild.id) is None
        finally:
            for bot, runs in ((a, a_runs), (b, b_runs)):
                await bot.close()
                await runs
