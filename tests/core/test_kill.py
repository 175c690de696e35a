"""Crash safety: the bot process is SIGKILLed at seeded random moments during a stream of actions.

Every action the bot acknowledged must be in the database, and each game's state must equal the
replay of its event log.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
from pathlib import Path

from bot.models import Scope, Status
from bot.registry import GameKind
from bot.replay import replay
from bot.storage import SqliteStore
from localdiscord.interactions import InteractionResult
from localdiscord.server import LocalDiscord
from tests.bot_process import process_exit, spawn_bot_process
from tests.core.race import start_race
from tests.testgame.engine import RaceEngine

ENV = {"EXTENSIONS": "cogs.meta,cogs.game,tests.testgame.cog", "COMPUTER_DELAY": "0", "LOG_LEVEL": "WARNING"}
ACTIONS = 36
KILLS = 4


async def read_game(db_path: Path, channel_id: int):
    """The channel's game as stored right now (a second connection; WAL lets it read beside the bot)."""
    db = SqliteStore(db_path)
    await db.open()
    try:
        return await db.live_session(channel_id, Scope.TABLE)
    finally:
        await db.close()


async def kill(proc: subprocess.Popen[bytes]) -> None:
    exited = process_exit(proc)
    os.kill(proc.pid, signal.SIGKILL)
    await exited


async def test_kill_at_random_moments_loses_no_acknowledged_action(fake: LocalDiscord, tmp_path: Path) -> None:
    rng = random.Random(20261130)
    db_path = tmp_path / "kill.sqlite3"
    channels = fake.channels[:2]
    players = {channels[0].id: [fake.members[0], fake.members[1]], channels[1].id: [fake.members[2], fake.members[4]]}
    kill_at = sorted(rng.sample(range(4, ACTIONS), KILLS))
    acknowledged: list[tuple[int, int, int]] = []  # (channel, version clicked, user)
    proc = await spawn_bot_process(fake, db_path, ENV)
    try:
        for channel in channels:
            host, other = players[channel.id]
            await start_race(fake, channel, host, [other], target=100)
        for step in range(ACTIONS):
            channel = channels[step % 2]
            game = await read_game(db_path, channel.id)
            assert game is not None and game.status is Status.ACTIVE
            prompt = RaceEngine().prompts(RaceEngine.state_model.model_validate(game.state))[0]
            member = fake.users[game.seat_of_player(prompt.player).user_id]
            board = await (await fake.slash(channel, member, "game status")).message()
            label = "Roll" if prompt.decision == "roll" else rng.choice(["Take a point", "Leave it"])
            click: InteractionResult = await fake.click(board, label, member)
            if step in kill_at:
                # Kill at a random point while the click is in flight: before, during or after the commit.
                await asyncio.sleep(rng.uniform(0, 0.03))
                click.allow_no_response()
                await kill(proc)
                if click.response_type is not None:
                    acknowledged.append((channel.id, game.version, member.id))
                proc = await spawn_bot_process(fake, db_path, ENV)
                continue
            reply = await click.message()
            assert not reply.ephemeral, reply.content
            acknowledged.append((channel.id, game.version, member.id))
    finally:
        if proc.poll() is None:
            await kill(proc)
    db = SqliteStore(db_path)
    await db.open()
    try:
        kind = GameKind(RaceEngine())
        for channel in channels:
            game = await db.live_session(channel.id, Scope.TABLE)
            assert game is not None
            entries = await db.log_entries(game.id)
            by_seq = {e.seq: e for e in entries}
            for channel_id, version, user_id in acknowledged:
                if channel_id == channel.id:
                    entry = by_seq[version + 1]
                    assert game.seat_of_player(entry.actor).user_id == user_id
            assert replay(kind, game.engine_options, entries).model_dump(mode="json") == game.state
            assert len([e for e in entries if e.action["kind"] == "act"]) >= ACTIONS // 2 - KILLS
    finally:
        await db.close()
