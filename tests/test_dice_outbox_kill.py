"""What a dice commit shows is shown exactly once: a secret roll's Reveal, its commitment, a dice board posted or
changed. The bot process is killed after the commit is in the database file and before what it shows reached the
channel (the local Discord holds the answer, or the edit), started again, and the channel shows it once: the
reveal with a salt that checks against the commitment, the commitment without its Reveal button, the board with
the buttons it has. And a Reveal whose answer reaches Discord too late (past its 3 seconds) is still shown once;
what a bot without the dice tools finds at startup waits for one with them.
"""

from __future__ import annotations

import asyncio
import hashlib
import re
import sqlite3
import subprocess
from pathlib import Path

import asyncpg

from bot.storage.dice import SecretRoll
from localdiscord.guild import Channel, Member
from localdiscord.interactions import now
from localdiscord.messages import Message
from localdiscord.server import LocalDiscord
from tests.bot_process import spawn_bot_process
from tests.conftest import MakeBot
from tests.core.test_kill_windows import kill
from tests.databases import Database

ENV: dict[str, str | None] = {"EXTENSIONS": "cogs.meta,cogs.dice", "LOG_LEVEL": "WARNING"}
WAIT_S = 15.0
REVEALED = "revealed by"


def query(database: Database, sql: str) -> list[tuple[object, ...]]:
    """Rows of the bot's SQLite file as another process sees them now."""
    with sqlite3.connect(database.path) as conn:
        return conn.execute(sql).fetchall()


async def outbox(database: Database) -> int:
    """Rows of the outbox (commits whose messages may not be in the channel yet), as another process sees them."""
    if database.url is None:
        with sqlite3.connect(database.path) as file:
            return int(file.execute("SELECT COUNT(*) FROM outbox").fetchone()[0])
    conn = await asyncpg.connect(database.url)
    try:
        return int(await conn.fetchval("SELECT COUNT(*) FROM outbox"))
    finally:
        await conn.close()


async def outbox_holds(database: Database, rows: int, what: str) -> None:
    """Wait until the outbox holds ``rows`` rows (the bot process writes it)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT_S
    while await outbox(database) != rows:
        assert loop.time() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.01)


def reveals(fake: LocalDiscord, channel: Channel) -> list[Message]:
    """The channel's reveals."""
    return [m for m in fake.messages(channel) if REVEALED in m.content]


def checks_out(commitment: Message, reveal: Message) -> bool:
    """The reveal's result and salt hash to the commitment shown (docs/roll.md's formula, without the bot)."""
    shown = re.search(r"commitment `([0-9a-f]{64})`", commitment.content)
    result = re.search(r"Result: `([^`]+)`", reveal.content)
    salt = re.search(r"Salt: `([0-9a-f]+)`", reveal.content)
    assert shown and result and salt, (commitment.content, reveal.content)
    return hashlib.sha256(f"{result[1]}\n{salt[1]}".encode()).hexdigest() == shown[1]


def revealed_once(fake: LocalDiscord, channel: Channel, commitment: Message) -> Message:
    """The one reveal of ``commitment``, which is edited to say so and has no buttons left."""
    (reveal,) = reveals(fake, channel)
    assert checks_out(commitment, reveal)
    assert commitment.content.endswith("· revealed below") and not commitment.buttons
    return reveal


async def commit_to(fake: LocalDiscord, channel: Channel, roller: Member, database: Database | None = None) -> Message:
    """A secret roll's commitment, posted (and told: its outbox row gone, when ``database`` is the bot's)."""
    commitment = await (await fake.slash(channel, roller, "dice secret", options={"expression": "1d20+5"})).message()
    assert commitment.button("Reveal")
    if database is not None:
        await outbox_holds(database, 0, "the commitment told")
    return commitment


async def restarted(fake: LocalDiscord, database: Database, proc: subprocess.Popen[bytes]) -> subprocess.Popen[bytes]:
    """Kill ``proc`` and start a new bot process on the same file."""
    await kill(proc)
    return await spawn_bot_process(fake, database.path, ENV)


async def test_a_reveal_killed_before_its_answer_is_posted_once_after_the_restart(
    fake: LocalDiscord, database: Database
) -> None:
    env = {**ENV, **database.env()}
    channel, bob = fake.channels[0], fake.members[1]
    proc = await spawn_bot_process(fake, database.path, env)
    try:
        commitment = await commit_to(fake, channel, bob, database)
        callback = fake.hold("/callback")  # the Reveal's answer never reaches Discord
        click = await fake.click(commitment, "Reveal", bob)
        await callback.arrived()
        await outbox_holds(database, 1, "the reveal committed")
        click.allow_no_response()
        await kill(proc)
        callback.drop()
        assert reveals(fake, channel) == [] and commitment.button("Reveal")  # what the bug left for good
        proc = await spawn_bot_process(fake, database.path, env)
        await fake.wait_for(lambda: reveals(fake, channel), timeout=WAIT_S, what="the reveal after the restart")
        await outbox_holds(database, 0, "the reveal told")
        await fake.wait_for(lambda: not commitment.buttons, timeout=WAIT_S, what="the commitment's buttons gone")
        revealed_once(fake, channel, commitment)
    finally:
        if proc.poll() is None:
            await kill(proc)


async def test_a_reveal_killed_after_discord_posted_it_is_not_posted_again(fake: LocalDiscord, tmp_path: Path) -> None:
    database = Database(tmp_path / "dice.sqlite3")
    channel, bob = fake.channels[0], fake.members[1]
    proc = await spawn_bot_process(fake, database.path, ENV)
    try:
        commitment = await commit_to(fake, channel, bob, database)
        posted = fake.hold("/webhooks/", after_effect=True)  # the reveal is posted; the bot never hears back
        await fake.click(commitment, "Reveal", bob)
        await posted.arrived()
        await fake.wait_for(lambda: reveals(fake, channel), what="the reveal posted")
        assert not commitment.buttons
        proc = await restarted(fake, database, proc)
        posted.drop()
        await outbox_holds(database, 0, "the reveal told")
        revealed_once(fake, channel, commitment)
    finally:
        if proc.poll() is None:
            await kill(proc)


async def test_a_reveal_answered_too_late_is_posted_once(fake: LocalDiscord, make_bot: MakeBot) -> None:
    bot = await make_bot(extensions=("cogs.dice",))
    channel, bob = fake.channels[0], fake.members[1]
    commitment = await commit_to(fake, channel, bob)
    fake.tolerate("10062")  # Discord refuses an answer past the interaction's 3 seconds
    callback = fake.hold("/callback")
    click = await fake.click(commitment, "Reveal", bob)
    await callback.arrived()
    click.deadline = now() - 0.675  # held past the deadline: Discord refuses it 675 ms late, as found
    callback.release()
    click.allow_no_response()
    await fake.wait_for(lambda: reveals(fake, channel), timeout=WAIT_S, what="the reveal, through the channel")
    await bot.settled()
    assert "after the deadline" in fake.tolerated[0]
    revealed_once(fake, channel, commitment)
    assert await bot.store.outbox() == [] and not any(bot.outbox.footprint().values())


async def test_a_secret_roll_killed_before_its_commitment_is_shown_is_committed_once(
    fake: LocalDiscord, tmp_path: Path
) -> None:
    database = Database(tmp_path / "dice.sqlite3")
    channel, bob = fake.channels[0], fake.members[1]
    proc = await spawn_bot_process(fake, database.path, ENV)
    try:
        callback = fake.hold("/callback")
        command = await fake.slash(channel, bob, "dice secret", options={"expression": "3d6"})
        await callback.arrived()
        await outbox_holds(database, 1, "the secret roll committed")
        command.allow_no_response()
        proc = await restarted(fake, database, proc)
        callback.drop()
        commitment = await fake.wait_for_message(channel, lambda m: bool(m.buttons), timeout=WAIT_S)
        await outbox_holds(database, 0, "the commitment told")
        assert [m.id for m in fake.messages(channel)] == [commitment.id]
        assert query(database, "SELECT message_id FROM secret_rolls") == [(commitment.id,)]
        peek = await (await fake.click(commitment, "Show me", bob)).message()
        assert peek.ephemeral and "3d6" in peek.content
        await (await fake.click(commitment, "Reveal", bob)).followups(1)
        revealed_once(fake, channel, commitment)
    finally:
        if proc.poll() is None:
            await kill(proc)


async def saved(fake: LocalDiscord, channel: Channel, owner: Member) -> None:
    for name, expression in (("attack", "1d20+5"), ("heal", "1d8")):
        await (
            await fake.slash(channel, owner, "dice save", options={"name": name, "expression": expression})
        ).message()


async def test_a_board_changed_and_killed_before_its_message_was_is_redrawn_after_the_restart(
    fake: LocalDiscord, tmp_path: Path
) -> None:
    database = Database(tmp_path / "dice.sqlite3")
    channel, bob, carol = fake.channels[0], fake.members[1], fake.members[2]
    proc = await spawn_bot_process(fake, database.path, ENV)
    try:
        await saved(fake, channel, bob)
        board = await (await fake.slash(channel, bob, "dice board", options={"buttons": "attack, heal"})).message()
        await outbox_holds(database, 0, "the board told")
        edit = fake.hold(f"PATCH /api/v10/channels/{channel.id}/messages/{board.id}")
        changed = await fake.slash(channel, bob, "dice board-edit", options={"buttons": "heal=Potion, attack=Sword"})
        await edit.arrived()
        await outbox_holds(database, 1, "the change committed")
        changed.allow_no_response()
        await kill(proc)
        edit.drop()
        assert [b["label"] for b in board.buttons] == ["attack", "heal"]  # the old buttons, now rolling others
        proc = await spawn_bot_process(fake, database.path, ENV)
        await fake.wait_for(lambda: board.edits > 0, timeout=WAIT_S, what="the board redrawn after the restart")
        await outbox_holds(database, 0, "the change told")
        assert [b["label"] for b in board.buttons] == ["Potion", "Sword"]
        rolled = await (await fake.click(board, "Potion", carol)).message()
        assert "1d8 [" in rolled.content  # the label says what it rolls
    finally:
        if proc.poll() is None:
            await kill(proc)


async def test_a_board_killed_before_it_was_posted_is_posted_once_after_the_restart(
    fake: LocalDiscord, tmp_path: Path
) -> None:
    database = Database(tmp_path / "dice.sqlite3")
    channel, bob = fake.channels[0], fake.members[1]
    proc = await spawn_bot_process(fake, database.path, ENV)
    try:
        await saved(fake, channel, bob)
        callback = fake.hold("/callback")
        command = await fake.slash(channel, bob, "dice board")
        await callback.arrived()
        await outbox_holds(database, 1, "the board committed")
        command.allow_no_response()
        proc = await restarted(fake, database, proc)
        callback.drop()
        board = await fake.wait_for_message(channel, lambda m: bool(m.buttons), timeout=WAIT_S)
        await outbox_holds(database, 0, "the board told")
        assert [m.id for m in fake.messages(channel) if m.buttons] == [board.id]
        assert query(database, "SELECT message_id FROM dice_boards") == [(board.id,)]
        rolled = await (await fake.click(board, "heal", bob)).message()
        assert "1d8 [" in rolled.content
    finally:
        if proc.poll() is None:
            await kill(proc)


async def test_a_row_left_by_a_bot_without_the_dice_tools_waits_for_one_with_them(
    fake: LocalDiscord, make_bot: MakeBot
) -> None:
    channel, bob = fake.channels[0], fake.members[1]
    first = await make_bot(extensions=("cogs.meta",))
    roll = SecretRoll(0, channel.id, fake.guild_id, bob.id, False, "1d6 → 2", "ab", "cd", created_at=1.0)
    _, outgoing = await first.store.create_secret(roll)  # committed; the process stops before telling it
    await first.close()
    second = await make_bot(extensions=("cogs.meta",))
    await second.settled()
    assert await second.store.outbox() == [outgoing] and fake.messages(channel) == []  # nothing here draws it
    await second.close()
    third = await make_bot(extensions=("cogs.meta", "cogs.dice"))
    commitment = await fake.wait_for_message(channel, lambda m: bool(m.buttons), timeout=WAIT_S)
    await third.settled()
    assert await third.store.outbox() == [] and commitment.button("Reveal")
