"""Nothing misses Discord's 3-second deadline: a slow Discord or a locked database defers, and nothing is lost."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

from localdiscord.server import LocalDiscord
from rules.dice import ScriptedDice
from tests.conftest import MakeBot
from tests.core.race import current_board, live, race_bot, start_race

DEADLINE_S = 3.0


async def test_a_rate_limited_board_post_holds_up_no_answer(fake: LocalDiscord, make_bot: MakeBot) -> None:
    bot = await race_bot(make_bot)
    alice, bob = fake.members[0], fake.members[1]
    channel = fake.channels[0]
    bot.service.dice = ScriptedDice([1, 4, 5])
    board = await start_race(fake, channel, alice, [bob])
    posts = f"POST /api/v10/channels/{channel.id}/messages"
    fake.inject_429(posts, retry_after=4.0)  # the next board waits 4 s before Discord takes it
    roll = await fake.click(board, "Roll", alice)
    await roll.response()
    # While the new board is held up, the channel's commands are answered (or deferred) in time.
    status = await fake.slash(channel, bob, "game status")
    ping = await fake.slash(channel, bob, "ping")
    log = await fake.slash(channel, bob, "game log")
    for res in (roll, status, ping, log):
        await res.response(timeout=DEADLINE_S + 1)
        assert res.latency is not None and res.latency < DEADLINE_S, res
    reposted = await status.message(timeout=10)
    assert "waiting for" in reposted.content and reposted.button("Roll")
    await (await fake.click(reposted, "Roll", bob)).message()
    game = await live(bot, channel)
    assert game.state["scores"] == {"P1": 4, "P2": 5}


async def test_a_database_locked_for_seven_seconds_defers_every_interaction_and_loses_none(
    fake: LocalDiscord, make_bot: MakeBot, tmp_path: Path
) -> None:
    db_path = tmp_path / "locked.sqlite3"
    bot = await race_bot(make_bot, db_path=db_path)
    alice, bob = fake.members[0], fake.members[1]
    channel = fake.channels[0]
    bot.service.dice = ScriptedDice([1, 4, 5])
    board = await start_race(fake, channel, alice, [bob])
    await live(bot, channel)
    other = sqlite3.connect(db_path, isolation_level=None)  # another process, say a backup tool
    other.execute("BEGIN IMMEDIATE")
    try:
        roll = await fake.click(board, "Roll", alice)
        lobby_elsewhere = await fake.slash(fake.channels[1], bob, "race new")
        for res in (roll, lobby_elsewhere):
            await res.response(timeout=DEADLINE_S + 1)
            assert res.latency is not None and res.latency < DEADLINE_S, res
        await asyncio.sleep(7 - DEADLINE_S)
    finally:
        other.execute("COMMIT")
        other.close()
    # The click was committed once the lock went, and shown: its board retired, the next one asks Bob.
    moved_on = await roll.message(timeout=10)
    assert "rolled 4" in moved_on.content
    nxt = await fake.wait_for_message(channel, lambda m: m.mentions == [bob.id] and bool(m.buttons), timeout=10)
    assert nxt.id != board.id
    lobby = await lobby_elsewhere.message(timeout=10)
    assert "lobby" in lobby.content
    game = await live(bot, channel)
    assert game.state["scores"] == {"P1": 4, "P2": 0}
    board = await current_board(fake, channel)
    await (await fake.click(board, "Roll", bob)).message()
    assert (await live(bot, channel)).state["scores"] == {"P1": 4, "P2": 5}
