"""/ping end to end: the unmodified bot, in process, against the local Discord."""

from __future__ import annotations

from bot.app import TabletopBot
from localdiscord import LocalDiscord


async def test_ping_answers_ephemerally(fake: LocalDiscord, bot: TabletopBot) -> None:
    res = await fake.slash(fake.channels[0], fake.members[1], "ping")
    message = await res.message()
    assert message.content == "Pong!"
    assert message.ephemeral
    assert fake.ephemerals(fake.members[1]) == [message]
    assert fake.messages(fake.channels[0]) == []
