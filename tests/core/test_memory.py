"""Bounded: nothing the core keeps per session, channel or member outlives what it was for. After games are played
to their end, the publisher, the news desk, the service and the lobby hold nothing for them (the soak benchmark,
``bench/soak.py``, checks the same over tens of thousands of games by the process's memory)."""

from __future__ import annotations

from bot.models import Status
from localdiscord.server import LocalDiscord
from rules.dice import ScriptedDice
from tests.conftest import MakeBot
from tests.core.race import current_board, live, race_bot, start_race


async def test_finished_games_leave_nothing_behind(fake: LocalDiscord, make_bot: MakeBot) -> None:
    bot = await race_bot(make_bot)
    alice, bob = fake.members[0], fake.members[1]
    for channel in fake.channels[:3]:
        bot.service.dice = ScriptedDice([1, 3, 3, 3])
        await start_race(fake, channel, alice, [bob], target=5)
        for member in (alice, bob, alice):  # Alice reaches 6 on her second roll
            await (await fake.click(await current_board(fake, channel), "Roll", member)).message()
        assert (await live(bot, channel)).status is Status.FINISHED
    publisher = bot.publisher.footprint()
    assert {k: publisher[k] for k in ("jobs", "workers", "retries", "failures", "recent", "news")} == dict.fromkeys(
        ("jobs", "workers", "retries", "failures", "recent", "news"), 0
    )
    assert bot.service.footprint()["locks"] == 0
    assert bot.lobby.footprint() == {"openers": 0}
