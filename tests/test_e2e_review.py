"""``/game review`` through the local Discord: a Dice of Crowns game against a computer, reviewed privately and
publicly, by a member who did not play, during a game, and again after a restart (the same review)."""

from __future__ import annotations

import functools
import random
from pathlib import Path

from bot.app import TabletopBot
from bot.models import Status
from localdiscord.guild import Channel, Member
from localdiscord.messages import Message
from localdiscord.server import LocalDiscord
from rules.dice import SeededDice
from tests.conftest import MakeBot
from tests.core.clock import FakeClock
from tests.table_play import game_of, play_with_computers, table_bot
from tests.test_e2e_crowns import crowns_bot, play_one_click


async def review(fake: LocalDiscord, channel: Channel, member: Member, **options: object) -> Message:
    """``/game review`` by ``member``: its answer."""
    return await (await fake.slash(channel, member, "game review", options=options)).message(timeout=120)


async def test_a_finished_game_reviewed_privately_publicly_and_after_a_restart(
    fake: LocalDiscord, make_bot: MakeBot, tmp_path: Path
) -> None:
    clock = FakeClock()
    reopen = functools.partial(crowns_bot, make_bot, clock, db_path=tmp_path / "review.sqlite3")
    bot: TabletopBot = await reopen()
    bot.service.dice = SeededDice(11)
    channel, alice, bob = fake.channels[1], fake.members[0], fake.members[1]
    lobby = await (await fake.slash(channel, alice, "crowns new", options={"bots": 1})).message()
    await (await fake.click(lobby, "Add computer", alice)).message()
    await (await fake.click(lobby, "Start", alice)).message()

    early = await review(fake, channel, bob)  # not at the table: nothing to see while it runs
    assert early.ephemeral and "not playing" in early.content
    await play_one_click(fake, bot, channel, random.Random(1))
    running = await review(fake, channel, alice)
    assert running.ephemeral and "to win now" in running.content
    assert running.content.count(" · skill ") == 1  # her own line only, while it runs

    game = await play_with_computers(fake, bot, channel, random.Random(5), play_one_click)
    assert game.status is Status.FINISHED
    mine = await review(fake, channel, alice)
    assert mine.ephemeral and "Review of Dice of Crowns" in mine.content
    assert mine.content.count(" · skill ") == 3 and "luck" in mine.content and "±" in mine.content
    assert "Estimates" in mine.content and len(mine.content) <= 2000
    assert "Your costliest decisions" in mine.content or "clearly worse" in mine.content
    (chart,) = mine.attachments
    assert chart["filename"] == "review.png" and "estimated chance to win" in chart["description"]
    assert alice.display_name in chart["description"]

    shown = await review(fake, channel, alice, public=True)
    assert not shown.ephemeral and shown.content == mine.content and shown.mentions == []
    watcher = await review(fake, channel, bob)  # a finished game's review is everyone's, without "yours"
    assert watcher.ephemeral and watcher.content.count(" · skill ") == 3 and "Your costliest" not in watcher.content

    offered = await (await fake.autocomplete(channel, alice, "game review", "game", {"game": ""})).choices()
    assert [c["value"] for c in offered] == [str(game.id)] and "Dice of Crowns" in offered[0]["name"]
    await bot.close()
    bot = await reopen()
    again = await review(fake, channel, alice, game=str(game.id))
    assert again.content == mine.content  # the same log, the same dice for the rollouts: the same review
    unknown = await review(fake, channel, alice, game="12345")
    assert unknown.ephemeral and "no game to review" in unknown.content
    assert (await game_of(bot, channel)).id == game.id


async def test_a_game_with_secrets_is_not_reviewed(fake: LocalDiscord, make_bot: MakeBot) -> None:
    await table_bot(make_bot, ("cogs.meta", "cogs.game", "tests.testgame.secret_cog"))
    channel, alice = fake.channels[0], fake.members[0]
    lobby = await (await fake.slash(channel, alice, "secretrace new", options={"bots": 1})).message()
    await (await fake.click(lobby, "Start", alice)).message()
    refused = await review(fake, channel, alice)
    assert refused.ephemeral and "has secrets" in refused.content and not refused.attachments
