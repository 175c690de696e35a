"""Ratings through the local Discord: a game of Dice of Crowns played by clicks to its end (two members and a
computer seat) tells each member's change on the final board, ``/stats top`` ranks by rating with games played,
leaving the leaderboards hides a member, and ``/stats forget`` deletes a rating."""

from __future__ import annotations

import asyncio
import random
import re

from bot.models import Status
from bot.ratings import BASE, PROVISIONAL_GAMES
from cogs.dice.stats import fit
from localdiscord.server import LocalDiscord
from rules.dice import SeededDice
from tests.conftest import MakeBot
from tests.table_play import play_with_computers, table_bot
from tests.test_e2e_crowns import play_one_click
from tests.test_e2e_dice_stats import say

EXTENSIONS = ("cogs.meta", "cogs.game", "cogs.crowns", "cogs.dice")
CHANGE = re.compile(r"^<@(\d+)> ([+−]\d+), now ([\d,]+) \(provisional: 1 of (\d+) games\)$", re.MULTILINE)


async def test_a_finished_game_rates_its_members(fake: LocalDiscord, make_bot: MakeBot) -> None:
    bot = await table_bot(make_bot, EXTENSIONS)
    stats = bot.get_cog("Stats")
    await asyncio.wait_for(stats._backfill, 10)  # type: ignore[union-attr]  # migration 12's recompute, at startup
    bot.service.dice = SeededDice(27)
    channel = fake.channels[0]
    guild = channel.guild_id
    assert guild is not None
    alice, bob, carol = fake.members[0], fake.members[1], fake.members[2]
    lobby = await (await fake.slash(channel, alice, "crowns new")).message()
    await (await fake.click(lobby, "Join", bob)).message()
    await (await fake.click(lobby, "Add computer", alice)).message()
    await (await fake.click(lobby, "Start", alice)).message()
    game = await play_with_computers(fake, bot, channel, random.Random(27), play_one_click)
    assert game.status is Status.FINISHED and game.winners
    await bot.settled()

    told = await fake.wait_for_message(channel, lambda m: m.content.startswith("📈 **Ratings** · Dice of Crowns"))
    assert told.mentions == []  # named, not pinged
    changes = {
        int(m[1]): (int(m[2].replace("−", "-")), int(m[3].replace(",", ""))) for m in CHANGE.finditer(told.content)
    }
    assert set(changes) == {alice.id, bob.id}
    assert all(int(m[4]) == PROVISIONAL_GAMES for m in CHANGE.finditer(told.content))
    stored = await bot.store.ratings_of(guild, "crowns", [alice.id, bob.id])
    assert stored is not None
    for member, (delta, now) in changes.items():
        assert now == stored[member].shown and delta == now - BASE  # both new: they started at 1,500
    winner = alice.id if game.seat_of_player(game.winners[0]).user_id == alice.id else bob.id
    loser = bob.id if winner == alice.id else alice.id
    if game.seat_of_player(game.winners[0]).user_id is not None:
        assert changes[winner][0] > changes[loser][0]

    offered = await (await fake.autocomplete(channel, carol, "stats top", "game", {"game": "crow"})).choices()
    assert [(c["name"], c["value"]) for c in offered] == [("Dice of Crowns", "crowns")]
    top = await say(fake, channel, carol, "stats top", game="crowns")
    assert not top.ephemeral and top.mentions == []
    ranked = sorted(changes, key=lambda m: -stored[m].ordinal)
    lines = [line for line in top.content.splitlines() if line[:1].isdigit()]
    assert lines == [f"{i}. <@{m}> · {stored[m].shown:,} (provisional) · 1 game" for i, m in enumerate(ranked, 1)]
    summary = await say(fake, channel, carol, "stats top")
    assert "📈 **Dice of Crowns ratings**" in summary.content

    await say(fake, channel, bob, "stats top", me="leave")
    assert f"<@{bob.id}>" not in (await say(fake, channel, carol, "stats top", game="crowns")).content
    await say(fake, channel, alice, "stats forget", confirm="forget")
    after = await say(fake, channel, carol, "stats top", game="crowns")
    assert f"<@{alice.id}>" not in after.content and "Nobody has a Dice of Crowns rating" in after.content
    assert alice.id not in (await bot.store.ratings_of(guild, "crowns", [alice.id]) or {})


def test_the_leaderboards_fit_one_message() -> None:
    """Ratings of several games beside the other boards: the lowest entries of the longest boards go first, every
    heading and the footer stay."""
    mention = "<@1579367215298379781>"
    boards = {"📈 **A ratings**": 5, "📈 **B ratings**": 5, "🏆 **Wins**": 10, "🍀 **d20s**": 10, "🎲 **Dice**": 10}
    lines = []
    for heading, entries in boards.items():
        lines += [heading, *(f"{i}. {mention} · 1,579 (provisional) · 12 games" for i in range(1, entries + 1))]
    lines.append("-# footer")
    text = fit(lines)
    assert len("\n".join(lines)) > 2000 >= len(text)
    kept = text.splitlines()
    assert all(heading in kept for heading in boards) and kept[-1] == "-# footer"
    assert sum(line.startswith("1. ") for line in kept) == 5 and sum(line.startswith("10. ") for line in kept) < 3
