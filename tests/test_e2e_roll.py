"""/roll end to end: the real bot against the local fake Discord."""

from __future__ import annotations

import re

from localdiscord.guild import Channel, Member
from localdiscord.messages import Message
from localdiscord.server import LocalDiscord
from tests.conftest import MakeBot

ROLL_LINE = re.compile(r"4d6kh3 \[[^\]]+\] = \*\*(\d+)\*\*")


async def slash_roll(fake: LocalDiscord, channel: Channel, member: Member, **options: object) -> Message:
    """Run /roll and return the message it produced."""
    return await (await fake.slash(channel, member, "roll", options=options)).message()


def total_of(content: str) -> int:
    match = ROLL_LINE.search(content)
    assert match, content
    return int(match[1])


async def test_roll_in_a_channel_shows_every_die_and_the_total(fake: LocalDiscord, bot: object) -> None:
    channel, member = fake.channels[0], fake.members[1]
    message = await slash_roll(fake, channel, member, expression="4d6kh3")
    assert not message.ephemeral
    assert 3 <= total_of(message.content) <= 18
    assert message.content.count("~~") == 2  # the one dropped die
    assert message in fake.messages(channel)
    assert message.button("Roll again")["custom_id"] == "roll:0:4d6kh3"


async def test_private_roll_is_ephemeral(fake: LocalDiscord, bot: object) -> None:
    message = await slash_roll(fake, fake.channels[0], fake.members[1], expression="2d6+3", private=True)
    assert message.ephemeral
    assert re.search(r"= \*\*\d+\*\*", message.content)


async def test_roll_again_posts_a_new_roll_for_whoever_clicks(fake: LocalDiscord, bot: object) -> None:
    channel, roller, clicker = fake.channels[0], fake.members[1], fake.members[2]
    first = await slash_roll(fake, channel, roller, expression="4d6kh3 # Stats")
    again = await (await fake.click(first, "Roll again", clicker)).message()
    assert again.id != first.id
    assert "Stats" in again.content and 3 <= total_of(again.content) <= 18
    assert clicker.display_name in again.content or clicker.name in again.content
    assert len(fake.messages(channel)) == 2


async def test_bad_input_is_a_private_error_and_nothing_else(fake: LocalDiscord, bot: object) -> None:
    channel = fake.channels[0]
    for expression in ("banana", "1001d6", "1d6e>0"):
        message = await slash_roll(fake, channel, fake.members[1], expression=expression)
        assert message.ephemeral and message.content.startswith("⚠️")
        assert not message.components
    assert fake.messages(channel) == []


async def test_huge_output_is_shrunk_under_2000(fake: LocalDiscord, bot: object) -> None:
    options = {"expression": "20x 50d10000e>9000", "label": "L" * 100}
    message = await slash_roll(fake, fake.channels[0], fake.members[1], **options)
    assert len(message.content) <= 2000
    assert "summarised" in message.content


async def test_a_label_with_everyone_pings_nobody(fake: LocalDiscord, bot: object) -> None:
    target = fake.members[2]
    label = f"@everyone @here <@{target.id}> **bold**"
    options = {"expression": "1d20[@everyone]", "label": label}
    message = await slash_roll(fake, fake.channels[0], fake.members[1], **options)
    assert not message.mention_everyone
    assert message.mentions == [] and message.mention_roles == []
    assert "@everyone" not in message.content  # escaped with a zero-width space
    assert "\\*\\*bold\\*\\*" in message.content


async def test_roll_in_a_dm(fake: LocalDiscord, bot: object) -> None:
    message = await slash_roll(fake, fake.dm_channel(), fake.dm_user, expression="adv")
    assert "2d20kh1" in message.content
    again = await (await fake.click(message, "Roll again", fake.dm_user)).message()
    assert "2d20kh1" in again.content


async def test_a_long_expression_gets_no_button(fake: LocalDiscord, bot: object) -> None:
    expression = "+".join(["1d6"] * 30)  # 119 characters: cannot travel in a custom_id
    message = await slash_roll(fake, fake.channels[0], fake.members[1], expression=expression)
    assert not message.components and "= **" in message.content


async def test_roll_again_still_works_after_a_restart(fake: LocalDiscord, make_bot: MakeBot) -> None:
    channel, member = fake.channels[0], fake.members[1]
    first_bot = await make_bot()
    first = await slash_roll(fake, channel, member, expression="6x 4d6kh3")
    await first_bot.close()
    await make_bot()  # same database file: a restart
    again = await (await fake.click(first, "Roll again", member)).message()
    assert again.content.count("4d6kh3 [") == 6
