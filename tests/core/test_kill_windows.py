"""A game never gets stuck: the bot is killed at the two moments that used to leave a board unusable.

The local Discord holds the request the kill must come before, the test waits until the commit is
in the database file, SIGKILLs the bot process, starts a new one, and plays on by clicking only
what is on screen.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sqlite3
import subprocess
import time
from pathlib import Path

from localdiscord.guild import Channel, Member
from localdiscord.server import LocalDiscord
from tests.bot_process import process_exit, spawn_bot_process
from tests.core.race import current_board, start_race

ENV = {"EXTENSIONS": "cogs.meta,cogs.game,tests.testgame.cog", "COMPUTER_DELAY": "0", "LOG_LEVEL": "WARNING"}
TURN_SECONDS = 600


def stored(db_path: Path, channel: Channel) -> tuple[int, str]:
    """The channel's game as the file holds it now: its version and its deadlines (JSON)."""
    with sqlite3.connect(db_path) as conn:
        row = conn.execute(
            "SELECT version, deadlines FROM sessions WHERE channel_id = ? AND status = 'active'", (channel.id,)
        ).fetchone()
    assert row is not None
    return int(row[0]), str(row[1])


async def deadline_at(db_path: Path, channel: Channel) -> float:
    """When the pending decision's deadline falls, once stored (it starts when the decision is shown:
    the bot stores that just after the board appears)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 10
    while True:
        (pending,) = json.loads(stored(db_path, channel)[1])
        if pending["at"] is not None:
            return float(pending["at"])
        assert loop.time() < deadline, "the deadline never started"
        await asyncio.sleep(0.01)


async def committed(db_path: Path, channel: Channel, after: int) -> None:
    """Wait until the file holds a version newer than ``after``."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 10
    while stored(db_path, channel)[0] <= after:
        assert loop.time() < deadline, "the click was never committed"
        await asyncio.sleep(0.01)


async def kill(proc: subprocess.Popen[bytes]) -> None:
    exited = process_exit(proc)
    os.kill(proc.pid, signal.SIGKILL)
    await exited


def waiting_for(fake: LocalDiscord, channel: Channel, member: Member) -> bool:
    """The channel's current board asks ``member`` to act."""
    boards = [m for m in fake.messages(channel) if m.buttons]
    return bool(boards) and f"<@{member.id}>" in boards[-1].content.split("\n")[0]


async def play_on(fake: LocalDiscord, channel: Channel, members: list[Member], rolls: int) -> None:
    """Click the first button of whatever board is on screen, as whoever it waits for, ``rolls`` times."""
    for _ in range(rolls):
        board = await current_board(fake, channel)
        member = next(m for m in members if f"<@{m.id}>" in board.content.split("\n")[0])
        reply = await (await fake.click(board, board.buttons[0]["custom_id"], member)).message()
        assert not reply.ephemeral, reply.content
        await fake.wait_for(lambda b=board: b.edits > 0 or not b.buttons, what="the board to move on")


async def test_killed_between_the_commit_and_the_reply(fake: LocalDiscord, tmp_path: Path) -> None:
    db_path = tmp_path / "kill.sqlite3"
    channel = fake.channels[0]
    alice, bob = fake.members[0], fake.members[1]
    proc = await spawn_bot_process(fake, db_path, ENV)
    try:
        board = await start_race(fake, channel, alice, [bob], target=100, timeout=TURN_SECONDS)
        first = next(m for m in (alice, bob) if f"<@{m.id}>" in board.content.split("\n")[0])
        version, _ = stored(db_path, channel)
        callback = fake.hold("/callback")  # the answer to the click never reaches Discord
        click = await fake.click(board, "Roll", first)
        await callback.arrived()
        await committed(db_path, channel, version)
        click.allow_no_response()
        await kill(proc)
        callback.drop()
        assert board.button("Roll")  # on screen: the old board, with its old buttons
        restarted_at = time.time()
        proc = await spawn_bot_process(fake, db_path, ENV)
        second = bob if first is alice else alice
        await fake.wait_for(lambda: waiting_for(fake, channel, second), timeout=10, what="the board to be redrawn")
        # The decision was never shown before the restart: its deadline starts now, not at the commit.
        assert await deadline_at(db_path, channel) >= restarted_at + TURN_SECONDS - 5
        await play_on(fake, channel, [alice, bob], rolls=3)
        assert stored(db_path, channel)[0] >= version + 4
    finally:
        if proc.poll() is None:
            await kill(proc)


async def test_killed_between_the_reply_and_the_next_board(fake: LocalDiscord, tmp_path: Path) -> None:
    db_path = tmp_path / "kill.sqlite3"
    channel = fake.channels[0]
    alice, bob = fake.members[0], fake.members[1]
    proc = await spawn_bot_process(fake, db_path, ENV)
    try:
        board = await start_race(fake, channel, alice, [bob], target=100, timeout=TURN_SECONDS)
        first = next(m for m in (alice, bob) if f"<@{m.id}>" in board.content.split("\n")[0])
        second = bob if first is alice else alice
        version, _ = stored(db_path, channel)
        new_board = fake.hold(f"POST /api/v10/channels/{channel.id}/messages")
        click = await fake.click(board, "Roll", first)
        retired = await click.message()  # the click is answered: its board retires to one line
        assert not retired.buttons and "rolled" in retired.content
        await new_board.arrived()
        await committed(db_path, channel, version)
        await kill(proc)
        new_board.drop()
        assert not any(m.buttons for m in fake.messages(channel))  # nothing on screen to click
        restarted_at = time.time()
        proc = await spawn_bot_process(fake, db_path, ENV)
        nxt = await fake.wait_for_message(channel, lambda m: bool(m.buttons), timeout=10)
        assert nxt.mentions == [second.id]  # posted anew, pinging who must act
        assert await deadline_at(db_path, channel) >= restarted_at + TURN_SECONDS - 5  # started when shown
        await play_on(fake, channel, [alice, bob], rolls=3)
        assert stored(db_path, channel)[0] >= version + 4
    finally:
        if proc.poll() is None:
            await kill(proc)
