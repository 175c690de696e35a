"""Helpers for driving the test race game through the fake Discord."""

from __future__ import annotations

from typing import Any

from bot.app import TabletopBot
from bot.models import Session
from localdiscord.guild import Channel, Member
from localdiscord.messages import Message
from localdiscord.server import LocalDiscord
from tests.conftest import MakeBot
from tests.core.clock import FakeClock

RACE_EXTENSIONS = ("cogs.meta", "cogs.game", "tests.testgame.cog")


async def race_bot(make_bot: MakeBot, clock: FakeClock | None = None, **options: Any) -> TabletopBot:
    """A bot with the race game, a hand-moved clock and instant computer players."""
    bot = await make_bot(extensions=RACE_EXTENSIONS, clock=clock or FakeClock(), **options)
    bot.settings.computer_delay = 0
    return bot


async def open_lobby(fake: LocalDiscord, channel: Channel, host: Member, **options: Any) -> Message:
    """``/race new`` and the lobby message it posted."""
    res = await fake.slash(channel, host, "race new", options=options)
    return await res.message()


async def start_race(
    fake: LocalDiscord, channel: Channel, host: Member, others: list[Member], **options: Any
) -> Message:
    """Open a lobby, let ``others`` join in order, start, and return the first board."""
    lobby = await open_lobby(fake, channel, host, **options)
    for member in others:
        await (await fake.click(lobby, "Join", member)).message()
    await (await fake.click(lobby, "Start", host)).message()
    return await current_board(fake, channel)


async def current_board(fake: LocalDiscord, channel: Channel) -> Message:
    """The newest message in the channel that has buttons."""
    await fake.wait_for(lambda: any(m.buttons for m in fake.messages(channel)), what="a board")
    return [m for m in fake.messages(channel) if m.buttons][-1]


async def live(bot: TabletopBot, channel: Channel) -> Session:
    """The stored game of a channel (live or the latest finished one), once the bot is done with it."""
    await bot.settled()
    game = await bot.service.live_table(channel.id)
    if game is None:
        games = await bot.store.history(guild_id=None, channel_id=channel.id, limit=1)
        game = games[0]
    return game


async def member_to_act(bot: TabletopBot, fake: LocalDiscord, channel: Channel) -> Member:
    """The member who must act now in the channel's race."""
    game = await live(bot, channel)
    prompts = bot.service.prompts(game)
    user_id = game.seat_of_player(prompts[0].player).user_id
    return fake.users[user_id]
