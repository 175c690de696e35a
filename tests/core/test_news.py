"""Shown exactly once: a message a commit produces besides its boards (a roll's result) is the answer to the click
that made it, is in the log with the commit, and reaches the channel exactly once after a crash at any moment —
before Discord took the answer, or after it took it and before the bot heard back. On the ledger test game."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable
from pathlib import Path

from localdiscord.guild import Channel
from localdiscord.messages import Message
from localdiscord.server import LocalDiscord
from rules.dice import ScriptedDice
from tests.bot_process import spawn_bot_process
from tests.conftest import MakeBot
from tests.core.clock import FakeClock
from tests.core.race import live, race_bot, start_race
from tests.core.test_campaign import ledger, ledger_bot, open_ledger
from tests.core.test_kill_windows import kill

ENV = {
    "EXTENSIONS": "cogs.meta,cogs.game,tests.testgame.ledger_cog",
    "COMPUTER_DELAY": "0",
    "LOG_LEVEL": "WARNING",
}


def rolls(fake: LocalDiscord, channel: Channel) -> list[str]:
    """Every roll told in the channel."""
    return [m.content for m in fake.messages(channel) if m.content.startswith("🎲")]


def pending_news(db_path: Path, channel: Channel) -> int | None:
    with sqlite3.connect(db_path) as conn:
        row = conn.execute("SELECT news_from FROM sessions WHERE channel_id = ?", (channel.id,)).fetchone()
    return None if row is None else row[0]


async def test_a_roll_is_answered_with_its_news_logged_with_the_commit(fake: LocalDiscord, make_bot: MakeBot) -> None:
    bot = await ledger_bot(make_bot)
    channel = fake.channels[0]
    bob = fake.members[1]
    await open_ledger(fake, channel)
    page = await (await fake.slash(channel, bob, "ledger page")).message()
    bot.service.dice = ScriptedDice([4])
    answer = await (await fake.click(page, "Roll a d6", bob)).message()
    assert not answer.ephemeral and answer.content == "🎲 Bob rolled 4 (now 4)."
    await bot.settled()
    session = await ledger(bot, channel)
    (entry,) = await bot.store.log_entries(session.id, last=1)
    assert [n.text for n in entry.news] == [answer.content]
    assert session.news_from is None  # delivered: nothing pending
    await fake.wait_for(lambda: "Total: 4" in str(fake.message(page.id).embeds), what="the page redrawn")


async def until(predicate: Callable[[], bool], what: str) -> None:
    """Wait until ``predicate()`` holds of the database file (another process writes it)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 10
    while not predicate():
        assert loop.time() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.01)


async def committed(db_path: Path, channel: Channel) -> None:
    """Wait until the file holds the roll's news, pending."""
    await until(lambda: pending_news(db_path, channel) is not None, "the roll's commit")


async def open_page(fake: LocalDiscord, channel: Channel) -> Message:
    """The ledger is opened (Bob and Carol have pages) and Bob's page is posted."""
    await open_ledger(fake, channel)
    return await (await fake.slash(channel, fake.members[1], "ledger page")).message()


async def test_killed_after_the_commit_before_the_answer_the_roll_is_told_after_the_restart(
    fake: LocalDiscord, tmp_path: Path
) -> None:
    db_path = tmp_path / "news.sqlite3"
    channel = fake.channels[0]
    bob = fake.members[1]
    proc = await spawn_bot_process(fake, db_path, ENV)
    try:
        page = await open_page(fake, channel)
        callback = fake.hold("/callback")  # the answer never reaches Discord
        click = await fake.click(page, "Roll a d6", bob)
        await callback.arrived()
        await committed(db_path, channel)
        click.allow_no_response()
        await kill(proc)
        callback.drop()
        assert rolls(fake, channel) == []
        proc = await spawn_bot_process(fake, db_path, ENV)
        await fake.wait_for(lambda: rolls(fake, channel), timeout=10, what="the roll told after the restart")
        await until(lambda: pending_news(db_path, channel) is None, "the news marked as told")
        assert len(rolls(fake, channel)) == 1
    finally:
        if proc.poll() is None:
            await kill(proc)


async def test_killed_after_discord_took_the_answer_the_roll_is_not_told_twice(
    fake: LocalDiscord, tmp_path: Path
) -> None:
    db_path = tmp_path / "news.sqlite3"
    channel = fake.channels[0]
    bob = fake.members[1]
    proc = await spawn_bot_process(fake, db_path, ENV)
    try:
        page = await open_page(fake, channel)
        answer = fake.hold("/callback", after_effect=True)  # Discord shows it; the bot never hears back
        await fake.click(page, "Roll a d6", bob)
        await answer.arrived()
        await committed(db_path, channel)
        await kill(proc)
        answer.drop()
        (told,) = rolls(fake, channel)
        proc = await spawn_bot_process(fake, db_path, ENV)
        await until(lambda: pending_news(db_path, channel) is None, "the news marked as told")  # seen as told
        assert rolls(fake, channel) == [told]
    finally:
        if proc.poll() is None:
            await kill(proc)


async def test_a_post_discord_made_but_answered_with_an_error_is_not_made_twice(
    fake: LocalDiscord, make_bot: MakeBot
) -> None:
    clock = FakeClock()
    bot = await race_bot(make_bot, clock)
    alice, bob = fake.members[0], fake.members[1]
    channel = fake.channels[0]
    bot.service.dice = ScriptedDice([1, *[2] * 8])
    await start_race(fake, channel, alice, [bob], target=100, timeout=60)
    for turn in range(3):  # Alice sleeps through three turns; Bob plays
        posted = fake.hold(f"POST /api/v10/channels/{channel.id}/messages", after_effect=True)
        clock.advance(61)
        await posted.arrived()
        if turn == 2:
            # The news that a computer takes her seat: Discord posts it, but its answer to the bot is an error.
            assert "computer player takes their seat" in fake.messages(channel)[-1].content
            posted.drop()
        else:
            posted.release()
        await live(bot, channel)
        board = await fake.wait_for_message(channel, lambda m: m.mentions == [bob.id] and bool(m.buttons))
        await (await fake.click(board, "Roll", bob)).message()
        await bot.settled(timeout=15)
    notices = [m for m in fake.messages(channel) if "computer player takes their seat" in m.content]
    # The publisher tried again later, with the same nonce: Discord returned the message it had made.
    assert len(notices) == 1
    assert (await live(bot, channel)).news_from is None
