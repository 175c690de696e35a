"""Playing a table game through the local Discord as its players would: shared by the games' end-to-end tests."""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from bot.app import TabletopBot
from bot.models import Session, Status
from localdiscord.guild import Channel, Member
from localdiscord.messages import Message
from localdiscord.server import LocalDiscord
from tests.conftest import MakeBot
from tests.core.clock import FakeClock

OneClick = Callable[[LocalDiscord, TabletopBot, Channel, random.Random], Awaitable[Session]]
"""Whoever must act uses one control on the current board; returns the game after it."""


async def table_bot(
    make_bot: MakeBot, extensions: Sequence[str], clock: FakeClock | None = None, **options: Any
) -> TabletopBot:
    """A bot with these cogs whose computer players move at once."""
    bot = await make_bot(extensions=tuple(extensions), clock=clock or FakeClock(), **options)
    bot.settings.computer_delay = 0
    return bot


async def start_table(
    fake: LocalDiscord, command: str, channel: Channel, host: Member, others: list[Member], **options: Any
) -> Message:
    """``command`` (``crowns new``…), the others join, the host starts; the first board that waits for someone
    (the lobby itself when the host plays first, with nobody to ping, else a new message)."""
    lobby = await (await fake.slash(channel, host, command, options=options)).message()
    for member in others:
        await (await fake.click(lobby, "Join", member)).message()
    await (await fake.click(lobby, "Start", host)).message()
    return await fake.wait_for_message(channel, lambda m: bool(m.buttons) and "waiting for" in m.content)


async def game_of(bot: TabletopBot, channel: Channel) -> Session:
    """The channel's game once the bot has finished with the latest click (every change and drawing is done)."""
    await bot.settled()
    game = await bot.service.live_table(channel.id)
    if game is None:
        game = (await bot.store.history(guild_id=None, channel_id=channel.id, limit=1))[0]
    return game


def member_of(fake: LocalDiscord, game: Session, player: str) -> Member:
    """The member playing ``player``."""
    return fake.users[game.seat_of_player(player).user_id]


async def play_with_computers(
    fake: LocalDiscord, bot: TabletopBot, channel: Channel, rng: random.Random, one_click: OneClick
) -> Session:
    """Play the channel's game to its end: the humans by ``one_click``, the computers on their own.

    On a computer's turn nothing is clicked: the board (or a new message) shows its move once committed.
    """
    game = await game_of(bot, channel)
    clicks = 0
    while game.status is Status.ACTIVE:
        prompts = bot.service.prompts(game)
        if game.seat_of_player(prompts[0].player).computer:
            board = fake.message(game.board.message_id) if game.board is not None else None
            seen = (board.edits if board else 0, len(fake.messages(channel)))
            await fake.wait_for(lambda b=board, s=seen: (b.edits if b else 0, len(fake.messages(channel))) != s)
        else:
            await one_click(fake, bot, channel, rng)
            clicks += 1
            assert clicks < 1000, "the game should have ended"
        game = await game_of(bot, channel)
    return game
