"""Playing a table game through the local Discord as its players would: shared by the games' end-to-end tests."""

from __future__ import annotations

import functools
import random
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

from bot.app import TabletopBot
from bot.models import LogEntry, Session, Status
from bot.replay import replay
from localdiscord.guild import Channel, Member
from localdiscord.messages import Message
from localdiscord.server import LocalDiscord
from rules.dice import SeededDice
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


async def use_a_control(
    fake: LocalDiscord,
    bot: TabletopBot,
    board: Message,
    member: Member,
    rng: random.Random,
    legal: set[str],
    pick: tuple[str, str] | None = None,
) -> Session:
    """``member`` picks ``pick`` (a select's custom_id and the value) when given, or else clicks one of the board's
    buttons whose action type is in ``legal``; the answer is public. The game after it."""
    if pick is not None:
        res = await fake.select(board, pick[0], [pick[1]], member)
    else:
        buttons = [b for b in board.buttons if b["custom_id"].split(":", 3)[3].split(";")[0] in legal]
        assert buttons, f"no control for {legal} on {board.describe_buttons()}"
        res = await fake.click(board, rng.choice(buttons)["custom_id"], member)
    reply = await res.message()
    assert not reply.ephemeral, reply.content
    channel = fake.channel(board.channel_id)
    assert channel is not None
    return await game_of(bot, channel)


Reopen = Callable[[], Awaitable[TabletopBot]]


async def three_at_a_table(
    fake: LocalDiscord, tmp_path: Path, make: Callable[..., Awaitable[TabletopBot]]
) -> tuple[TabletopBot, Reopen, Channel, list[Member]]:
    """A bot made by ``make(clock, db_path=…)`` on a database file (its dice seeded 7), how to make it again on the
    same file and clock (a restart), the first channel and its first three members."""
    clock = FakeClock()
    reopen = functools.partial(make, clock, db_path=tmp_path / "table.sqlite3")
    bot = await reopen()
    bot.service.dice = SeededDice(7)
    return bot, reopen, fake.channels[0], fake.members[:3]


async def play_to_the_end_with_a_restart(
    fake: LocalDiscord,
    bot: TabletopBot,
    channel: Channel,
    one_click: OneClick,
    *,
    restart_after: int,
    reopen: Reopen,
) -> tuple[TabletopBot, Session]:
    """Play the channel's game to its end by ``one_click`` (a random source seeded 3), the bot closed after
    ``restart_after`` clicks and the game played on with ``reopen()``'s bot (its dice seeded 8): that bot and the
    finished game."""
    rng = random.Random(3)
    game = await game_of(bot, channel)
    clicks = 0
    restarted = False
    while game.status is Status.ACTIVE:
        game = await one_click(fake, bot, channel, rng)
        clicks += 1
        assert clicks < 1500, "the game should have ended"
        if clicks == restart_after and not restarted:
            await bot.close()
            bot = await reopen()
            bot.service.dice = SeededDice(8)
            restarted = True
            game = await game_of(bot, channel)
    assert restarted and game.status is Status.FINISHED and game.winners
    return bot, game


async def check_a_finished_table(
    fake: LocalDiscord, bot: TabletopBot, channel: Channel, game: Session
) -> list[LogEntry]:
    """What every finished table game shows: final standings with a Rematch, a log that replays to the stored
    state, and no message over Discord's limit or pinging everyone. The game's log entries."""
    final = fake.message(game.board.message_id) if game.board is not None else None
    assert final is not None and "final standings" in str(final.embeds) and "🏆" in final.content
    assert any(b.get("label") == "Rematch" for b in final.buttons)
    entries = await bot.store.log_entries(game.id)
    assert replay(bot.registry.get(game.kind), game.engine_options, entries).model_dump(mode="json") == game.state
    for message in fake.messages(channel):
        assert len(message.content) <= 2000 and not message.mention_everyone
    return entries
