"""Dice boards through the local Discord: clicked by several members, after a restart, in a burst under a 429,
private answers, and editing by the owner or a manager only."""

from __future__ import annotations

import asyncio

from localdiscord.guild import Channel, Member
from localdiscord.messages import Message
from localdiscord.server import LocalDiscord
from tests.conftest import MakeBot

EXTENSIONS = ("cogs.dice",)
RESPONSE_DEADLINE_S = 3.0


async def say(fake: LocalDiscord, channel: Channel, member: Member, command: str, **options: object) -> Message:
    return await (await fake.slash(channel, member, command, options=options)).message()


async def saved_board(fake: LocalDiscord, owner: Member, channel: Channel, **options: object) -> Message:
    for name, expression in (("attack", "1d20+5"), ("damage", "2d6+3"), ("heal", "1d8")):
        await say(fake, channel, owner, "dice save", name=name, expression=expression)
    return await say(fake, channel, owner, "dice board", **options)


async def test_a_board_rolls_for_whoever_clicks(fake: LocalDiscord, make_bot: MakeBot) -> None:
    await make_bot(extensions=EXTENSIONS)
    channel, bob, carol = fake.channels[0], fake.members[1], fake.members[2]
    board = await saved_board(fake, bob, channel, buttons="attack=Sword ⚔️, heal")
    assert [b["label"] for b in board.buttons] == ["Sword ⚔️", "heal"] and not board.ephemeral
    rolled = await (await fake.click(board, "Sword ⚔️", carol)).message()
    assert not rolled.ephemeral and rolled.id != board.id
    assert rolled.content.startswith("🎲 **Carol** rolled **Sword ⚔️**") and "1d20 [" in rolled.content
    healed = await (await fake.click(board, "heal", bob)).message()
    assert healed.content.startswith("🎲 **Bob** rolled **heal**") and "1d8 [" in healed.content


async def test_a_private_board_answers_privately(fake: LocalDiscord, make_bot: MakeBot) -> None:
    await make_bot(extensions=EXTENSIONS)
    channel, bob, carol = fake.channels[0], fake.members[1], fake.members[2]
    board = await saved_board(fake, bob, channel, private=True)
    assert "private" in board.content and len(board.buttons) == 3
    rolled = await (await fake.click(board, "damage", carol)).message()
    assert rolled.ephemeral and "2d6 [" in rolled.content
    assert fake.messages(channel) == [board]


async def test_a_board_works_after_a_restart_and_rolls_the_saved_roll_as_it_is_now(
    fake: LocalDiscord, make_bot: MakeBot
) -> None:
    first = await make_bot(extensions=EXTENSIONS)
    channel, bob = fake.channels[0], fake.members[1]
    board = await saved_board(fake, bob, channel)
    await first.close()
    await make_bot(extensions=EXTENSIONS)
    await say(fake, channel, bob, "dice edit", name="attack", expression="1d20+9")
    rolled = await (await fake.click(board, "attack", fake.members[3])).message()
    assert "+ 9" in rolled.content


async def test_a_burst_of_clicks_under_a_429_is_answered_in_time(fake: LocalDiscord, make_bot: MakeBot) -> None:
    await make_bot(extensions=EXTENSIONS)
    channel, bob = fake.channels[0], fake.members[1]
    board = await saved_board(fake, bob, channel)
    fake.inject_429("/callback", retry_after=1.0, count=5)
    clicks = [await fake.click(board, ("attack", "damage", "heal")[i % 3], fake.members[i % 5]) for i in range(25)]
    await asyncio.gather(*(click.response(timeout=10) for click in clicks))
    late = [click.latency for click in clicks if click.latency is None or click.latency > RESPONSE_DEADLINE_S]
    assert late == []
    await fake.wait_for(lambda: len(fake.messages(channel)) == 26, 10, what="every roll posted")


async def test_only_the_owner_or_a_manager_edits_a_board(fake: LocalDiscord, make_bot: MakeBot) -> None:
    await make_bot(extensions=EXTENSIONS)
    channel, alice, bob, carol = fake.channels[0], fake.members[0], fake.members[1], fake.members[2]
    board = await saved_board(fake, bob, channel)
    refused = await say(fake, channel, carol, "dice board-edit", buttons="heal")
    assert refused.ephemeral and "owner" in refused.content
    done = await say(fake, channel, bob, "dice board-edit", buttons="heal=Potion 🧪, attack")
    assert "2 buttons" in done.content
    assert [b["label"] for b in fake.message(board.id).buttons] == ["Potion 🧪", "attack"]  # type: ignore[union-attr]
    by_manager = await say(fake, channel, alice, "dice board-edit", private=True)
    assert by_manager.content.startswith("✅")
    assert "private" in fake.message(board.id).content  # type: ignore[union-attr]
    missing = await say(fake, channel, bob, "dice board-edit", buttons="nope")
    assert "no saved roll `nope`" in missing.content


async def test_a_deleted_saved_roll_is_explained(fake: LocalDiscord, make_bot: MakeBot) -> None:
    await make_bot(extensions=EXTENSIONS)
    channel, bob = fake.channels[0], fake.members[1]
    board = await saved_board(fake, bob, channel)
    await say(fake, channel, bob, "dice delete", name="heal")
    answer = await (await fake.click(board, "heal", fake.members[2])).message()
    assert answer.ephemeral and "isn't saved any more" in answer.content


async def test_a_board_whose_message_was_deleted_is_forgotten_when_changed(
    fake: LocalDiscord, make_bot: MakeBot
) -> None:
    bot = await make_bot(extensions=EXTENSIONS)
    channel, bob = fake.channels[0], fake.members[1]
    board = await saved_board(fake, bob, channel)
    fake.delete_message(channel, board.id)
    gone = await say(fake, channel, bob, "dice board-edit", buttons="heal")
    assert gone.ephemeral and "message was deleted" in gone.content
    assert await bot.store.dice_boards_in(channel.id) == [] and await bot.store.outbox() == []
    assert fake.messages(channel) == []  # not posted again: the owner asks for a new board
