"""Several bot processes, each running one shard, on one PostgreSQL database, against the local Discord.

The local Discord has two guilds, one on each of two shards, and routes each guild's events and
interactions to the process whose shard owns it, as Discord does. The games are played by clicks,
from outside the processes; what is stored is read back from the shared database.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from pydantic import ValidationError

from bot.app import extensions_of
from bot.endpoint import use_api_base
from bot.models import Scope, Session, Status
from bot.registry import GameKind
from bot.replay import replay
from bot.settings import Settings, config_problem
from bot.sharding import ShardedTabletopBot, build_bot
from bot.shards import Shards, shard_of
from bot.storage import PostgresStore
from localdiscord.guild import Channel, Guild
from localdiscord.server import LocalDiscord
from tests.bot_process import process_exit, spawn_bot_process
from tests.core.race import start_race
from tests.databases import postgres_database
from tests.testgame.engine import RaceEngine, RaceState

ENV = {"EXTENSIONS": "cogs.meta,cogs.game,tests.testgame.cog", "COMPUTER_DELAY": "0", "LOG_LEVEL": "WARNING"}
SHARDS = 2
MAX_CLICKS = 200
TURN_TIMEOUT_S = 10
REMINDER = "a reminder: it's your move"


class Cluster:
    """Bot processes by shard, all on one database; killed by PID at the end."""

    def __init__(self, fake: LocalDiscord, folder: Path, url: str) -> None:
        self.fake = fake
        self.folder = folder
        self.url = url
        self.procs: dict[int, subprocess.Popen[bytes]] = {}
        self.started = 0

    async def start(self, shard: int) -> subprocess.Popen[bytes]:
        """A new process for ``shard``, connected."""
        self.started += 1
        env = ENV | {"DATABASE_URL": self.url, "SHARD_COUNT": str(SHARDS), "SHARD_IDS": str(shard)}
        sessions = len(self.fake.sessions)
        proc = await spawn_bot_process(self.fake, self.folder / f"shard{shard}-{self.started}.sqlite3", env)
        self.procs[shard] = proc
        await self.fake.wait_for(
            lambda: any(s.shard == (shard, SHARDS) for s in self.fake.sessions[sessions:]), what=f"shard {shard}"
        )
        return proc

    async def kill(self, shard: int) -> None:
        """SIGKILL the process of ``shard``: no goodbye, whatever it was doing."""
        proc = self.procs.pop(shard)
        exited = process_exit(proc)
        os.kill(proc.pid, signal.SIGKILL)
        await exited

    def stop_all(self) -> None:
        for proc in self.procs.values():
            if proc.poll() is None:
                os.kill(proc.pid, signal.SIGKILL)
                proc.wait()

    def outputs(self) -> str:
        return "\n".join(p.read_text() for p in sorted(self.folder.glob("*.out")))


@pytest.fixture
async def cluster(fake: LocalDiscord, tmp_path: Path) -> AsyncIterator[tuple[Cluster, PostgresStore]]:
    """Two processes, shards 0 and 1, on a fresh PostgreSQL database, and a store to read it."""
    ACKNOWLEDGED.clear()  # session ids start again at 1 in every test's database
    async with postgres_database() as url:
        cluster = Cluster(fake, tmp_path, url)
        store = PostgresStore(url, pool_size=2)
        try:
            for shard in range(SHARDS):
                await cluster.start(shard)
            await store.open()
            yield cluster, store
        finally:
            cluster.stop_all()
            await store.close()
    assert "Traceback" not in cluster.outputs(), cluster.outputs()


def guild_on(fake: LocalDiscord, shard: int) -> Guild:
    return next(g for g in fake.guilds if shard_of(g.id, SHARDS) == shard)


async def game_in(store: PostgresStore, channel: Channel) -> Session:
    """The channel's race as stored: live, or the one that just finished."""
    game = await store.live_session(channel.id, Scope.TABLE)
    if game is None:
        game = (await store.history(guild_id=None, channel_id=channel.id, limit=1))[0]
    return game


ACKNOWLEDGED: dict[int, list[tuple[int, str]]] = {}
"""Per session, every click the bot answered: (the version it was made on, the player)."""


async def click_once(fake: LocalDiscord, store: PostgresStore, channel: Channel, rng: random.Random) -> Session:
    """Whoever must act clicks their choice on the board; returns the game as stored before the click."""
    game = await game_in(store, channel)
    prompt = RaceEngine().prompts(RaceState.model_validate(game.state))[0]
    member = fake.users[game.seat_of_player(prompt.player).user_id]
    board = await (await fake.slash(channel, member, "game status")).message()
    label = "Roll" if prompt.decision == "roll" else rng.choice(["Take a point", "Leave it"])
    reply = await (await fake.click(board, label, member)).message()
    assert not reply.ephemeral, reply.content
    ACKNOWLEDGED.setdefault(game.id, []).append((game.version, prompt.player))
    return game


async def play_to_the_end(fake: LocalDiscord, store: PostgresStore, channel: Channel, rng: random.Random) -> Session:
    for _ in range(MAX_CLICKS):
        game = await game_in(store, channel)
        if game.status is Status.FINISHED:
            return game
        await click_once(fake, store, channel, rng)
    raise AssertionError(f"the race in #{channel.name} did not finish in {MAX_CLICKS} clicks")


async def assert_log_is_whole(store: PostgresStore, game: Session) -> None:
    """Every answered click is in the log right after the version it was made on, nothing is doubled, and the
    log replays to the stored state."""
    entries = await store.log_entries(game.id)
    assert [e.seq for e in entries] == sorted({e.seq for e in entries})
    by_seq = {e.seq: e for e in entries}
    for version, player in ACKNOWLEDGED.pop(game.id, []):
        assert by_seq[version + 1].actor == player and by_seq[version + 1].action.get("how") == "player"
    kind = GameKind(RaceEngine())
    assert replay(kind, game.engine_options, entries).model_dump(mode="json") == game.state


def test_shard_settings_and_their_one_line_errors() -> None:
    def problem(**values: object) -> str:
        with pytest.raises(ValidationError) as caught:
            Settings(discord_token="t", _env_file=None, **values)  # type: ignore[arg-type]
        return config_problem(caught.value)

    assert Settings(discord_token="t", _env_file=None).shards == Shards()  # type: ignore[call-arg]
    both = Settings(discord_token="t", shard_count=4, shard_ids="1, 3", _env_file=None)  # type: ignore[call-arg]
    assert both.shards == Shards(4, (1, 3)) and both.shards.owns(5 << 22) and not both.shards.owns(4 << 22)
    assert problem(shard_ids="1") == "Configuration error: SHARD_IDS needs SHARD_COUNT."
    assert problem(shard_count=2, shard_ids="2") == (
        "Configuration error: SHARD_IDS must be between 0 and 1 (SHARD_COUNT 2)."
    )
    assert "SHARD_IDS: invalid value 'one'" in problem(shard_count=2, shard_ids="one")


@pytest.mark.fake(guilds=2, shards=SHARDS)
async def test_two_processes_play_games_in_the_guilds_of_both_shards(
    fake: LocalDiscord, cluster: tuple[Cluster, PostgresStore]
) -> None:
    _, store = cluster
    rng = random.Random(13)
    channels = []
    for shard in range(SHARDS):
        guild = guild_on(fake, shard)
        channel = guild.channels[0]
        await start_race(fake, channel, guild.members[0], [guild.members[1]], target=10)
        channels.append(channel)
    games = await asyncio.gather(*(play_to_the_end(fake, store, c, rng) for c in channels))
    for game, channel in zip(games, channels, strict=True):
        assert game.status is Status.FINISHED and game.winners
        assert game.guild_id == fake.guild_of(channel).id  # type: ignore[union-attr]
        await assert_log_is_whole(store, game)


@pytest.mark.fake(guilds=2, shards=SHARDS)
async def test_a_new_process_takes_over_a_killed_shard_and_its_deadline_fires_once(
    fake: LocalDiscord, cluster: tuple[Cluster, PostgresStore]
) -> None:
    processes, store = cluster
    rng = random.Random(14)
    guilds = [guild_on(fake, shard) for shard in range(SHARDS)]
    calm, timed = guilds[0].channels[0], guilds[1].channels[0]
    await start_race(fake, calm, guilds[0].members[0], [guilds[0].members[1]], target=30)
    await start_race(fake, timed, guilds[1].members[0], [guilds[1].members[1]], target=30, timeout=TURN_TIMEOUT_S)
    for _ in range(3):
        await click_once(fake, store, calm, rng)
        await click_once(fake, store, timed, rng)
    before = await game_in(store, timed)
    waiting = before.seat_of_player(RaceEngine().prompts(RaceState.model_validate(before.state))[0].player)

    await processes.kill(1)  # mid-game, with the next decision's deadline running
    await processes.start(1)

    async def defaults() -> list[int]:
        entries = await store.log_entries(before.id, after=before.version)
        return [e.seq for e in entries if e.action.get("how") == "timeout"]

    async with asyncio.timeout(TURN_TIMEOUT_S * 2):
        while not await defaults():  # noqa: ASYNC110 (another process writes it: nothing here to wait on)
            await asyncio.sleep(0.2)
    assert await defaults() == [before.version + 1], "the deadline's default is applied exactly once"
    reminders = [m for m in fake.messages(timed) if REMINDER in m.content and f"<@{waiting.user_id}>" in m.content]
    assert len(reminders) == 1, [m.content for m in reminders]

    for channel in (calm, timed):
        game = await play_to_the_end(fake, store, channel, rng)
        assert game.status is Status.FINISHED
        await assert_log_is_whole(store, game)


@pytest.mark.fake(guilds=2, shards=SHARDS)
async def test_the_same_click_delivered_to_both_processes_is_applied_once(
    fake: LocalDiscord, cluster: tuple[Cluster, PostgresStore]
) -> None:
    _, store = cluster
    guild = guild_on(fake, 0)
    channel = guild.channels[0]
    await start_race(fake, channel, guild.members[0], [guild.members[1]], target=30)
    # Both processes answer; Discord accepts the first answer and refuses the second.
    fake.tolerate("Interaction has already been acknowledged")
    for _ in range(4):
        game = await game_in(store, channel)
        prompt = RaceEngine().prompts(RaceState.model_validate(game.state))[0]
        member = fake.users[game.seat_of_player(prompt.player).user_id]
        board = await (await fake.slash(channel, member, "game status")).message()
        label = "Roll" if prompt.decision == "roll" else "Leave it"
        fake.duplicate_interactions = True
        click = await fake.click(board, label, member)
        fake.duplicate_interactions = False
        # Wait until both processes have answered: one accepted, one refused as already acknowledged.
        await fake.wait_for(lambda c=click: c.response_type is not None and c.errors, 10, what="both answers")
        after = await game_in(store, channel)
        assert after.version == game.version + 1
        entries = await store.log_entries(game.id, after=game.version)
        assert [e.seq for e in entries] == [game.version + 1] and entries[0].actor == prompt.player
    await assert_log_is_whole(store, await game_in(store, channel))
    assert "already been acknowledged" in " ".join(fake.tolerated)


@pytest.mark.fake(guilds=2, shards=SHARDS)
async def test_one_process_can_run_every_shard_on_sqlite(fake: LocalDiscord, tmp_path: Path) -> None:
    """``SHARD_COUNT`` without ``SHARD_IDS``: an AutoShardedBot IDENTIFYing each shard, each getting its own guild."""
    use_api_base(fake.base_url)
    settings = Settings(
        discord_token=fake.token,
        database_path=tmp_path / "bot.sqlite3",
        discord_api_base=fake.base_url,
        shard_count=SHARDS,
        extensions="cogs.meta",
        _env_file=None,
    )  # type: ignore[call-arg]
    bot = build_bot(settings, extensions=extensions_of(settings), guild_ready_timeout=0.1)
    assert isinstance(bot, ShardedTabletopBot)
    await bot.login(fake.token)
    task = asyncio.create_task(bot.connect())
    try:
        async with asyncio.timeout(15):
            await bot.wait_until_ready()
        assert sorted(s.shard for s in fake.sessions if s.shard) == [(0, SHARDS), (1, SHARDS)]
        for session in fake.sessions:  # each shard was sent its own guild only
            assert session.shard is not None
            assert [g.id for g in fake.guilds if session.owns(g.id)] == [guild_on(fake, session.shard[0]).id]
        for shard in range(SHARDS):
            guild = guild_on(fake, shard)
            reply = await (await fake.slash(guild.channels[0], guild.members[1], "ping")).message()
            assert reply.content == "Pong!"
            assert bot.get_guild(guild.id) is not None and bot.get_guild(guild.id).shard_id == shard  # type: ignore[union-attr]
    finally:
        await bot.close()
        await task
