"""Luck statistics through the local Discord, checked against figures this test computes itself: from the faces
shown in /roll messages, and from a game's log. Private rolls stay private; forgetting deletes; a chart with alt
text comes with every answer; the leaderboard can be left."""

from __future__ import annotations

import re

from bot.app import TabletopBot
from bot.models import Scope
from localdiscord.guild import Channel, Member
from localdiscord.messages import Message
from localdiscord.server import LocalDiscord
from rules.dice import ScriptedDice
from tests.conftest import MakeBot
from tests.core.clock import FakeClock
from tests.core.race import current_board, start_race

EXTENSIONS = ("cogs.meta", "cogs.game", "cogs.dice", "tests.testgame.cog")
FACES = re.compile(r"(\d+)d(\d+) \[([^\]]*)\]")


async def say(fake: LocalDiscord, channel: Channel, member: Member, command: str, **options: object) -> Message:
    return await (await fake.slash(channel, member, command, options=options)).message()


def faces_of(content: str) -> list[tuple[int, int]]:
    """Every (sides, face) shown in a roll message (no dropped or rerolled dice in these rolls)."""
    found = []
    for match in FACES.finditer(content):
        sides = int(match[2])
        found += [(sides, int(face.strip("*"))) for face in match[3].split(", ")]
    return found


def row(content: str, sides: int) -> tuple[int, float] | None:
    """(rolls, mean) of a die size in the luck table."""
    match = re.search(rf"^d{sides}\s+([\d,]+)\s+([\d.]+)", content, re.MULTILINE)
    return (int(match[1].replace(",", "")), float(match[2])) if match else None


async def settled(bot: TabletopBot) -> None:
    await bot.settled()
    cog = bot.get_cog("Dice")
    await cog.settled()  # type: ignore[union-attr]


async def test_roll_statistics_match_the_dice_shown_and_private_rolls_stay_private(
    fake: LocalDiscord, make_bot: MakeBot
) -> None:
    bot = await make_bot(extensions=EXTENSIONS, clock=FakeClock())
    channel, bob, carol = fake.channels[0], fake.members[1], fake.members[2]
    shown: list[tuple[int, int]] = []
    for _ in range(3):
        shown += faces_of((await say(fake, channel, bob, "roll", expression="20d20")).content)
    secret = await say(fake, channel, bob, "roll", expression="10d6", private=True)
    await settled(bot)
    d20s = [face for sides, face in shown if sides == 20]
    assert len(d20s) == 60
    mine = await say(fake, channel, bob, "stats luck")
    assert mine.ephemeral
    assert row(mine.content, 20) == (60, round(sum(d20s) / 60, 2))
    assert row(mine.content, 6) == (10, round(sum(f for _, f in faces_of(secret.content)) / 10, 2))
    (chart,) = mine.attachments
    assert chart["filename"] == "luck.png" and "d20: 60 rolls" in chart["description"]
    assert fake.attachment_bytes(chart).startswith(b"\x89PNG")
    theirs = await (await fake.slash(channel, carol, "stats luck", options={"member": bob})).message()
    assert row(theirs.content, 20) == (60, round(sum(d20s) / 60, 2))
    assert row(theirs.content, 6) is None  # Bob's private roll is his alone
    assert "private" not in theirs.content


async def test_game_dice_count_for_the_member_who_rolled_them(fake: LocalDiscord, make_bot: MakeBot) -> None:
    bot = await make_bot(extensions=EXTENSIONS, clock=FakeClock())
    channel, alice, bob = fake.channels[0], fake.members[0], fake.members[1]
    bot.service.dice = ScriptedDice([1, 6, 2, 5, 3, 4, 6, 6])
    await start_race(fake, channel, alice, [bob], target=30)
    for member in (alice, bob, alice, bob):
        board = await current_board(fake, channel)
        await (await fake.click(board, "Roll", member)).message()
    await settled(bot)
    session = await bot.store.live_session(channel.id, Scope.TABLE)
    assert session is not None
    expected: dict[int, list[int]] = {}
    for entry in await bot.store.log_entries(session.id):
        if entry.action.get("how") == "player" and entry.dice:
            seat = session.seat_of_player(entry.actor or "")
            assert seat.user_id is not None
            expected.setdefault(seat.user_id, []).extend(int(d["value"]) for d in entry.dice)
    for member in (alice, bob):
        faces = expected[member.id]
        luck = await say(fake, channel, member, "stats luck")
        assert row(luck.content, 6) == (len(faces), round(sum(faces) / len(faces), 2))
        # The game's own face (declared by its spec, ``luck_faces``), told for its dice alone.
        race = await say(fake, channel, member, "stats luck", game="race")
        assert f"🎯 sixes per die {faces.count(6) / len(faces):.3f} (fair dice: 0.167)" in race.content
    offered = await (await fake.autocomplete(channel, alice, "stats luck", "game", {"game": ""})).choices()
    assert {c["value"] for c in offered} >= {"all", "roll", "race", "campaign"}
    refused = await say(fake, channel, alice, "stats luck", game="chess")
    assert refused.ephemeral and "No game called" in refused.content and "chess" in refused.content


async def test_forget_and_leave_the_leaderboard(fake: LocalDiscord, make_bot: MakeBot) -> None:
    bot = await make_bot(extensions=EXTENSIONS, clock=FakeClock())
    channel, bob, carol = fake.channels[0], fake.members[1], fake.members[2]
    for member in (bob, carol):
        await say(fake, channel, member, "roll", expression="25d20")
    await settled(bot)
    top = await say(fake, channel, carol, "stats top")
    assert not top.ephemeral and f"<@{bob.id}>" in top.content and top.mentions == []
    left = await say(fake, channel, bob, "stats top", me="leave")
    assert "off the leaderboards" in left.content
    assert f"<@{bob.id}>" not in (await say(fake, channel, carol, "stats top")).content
    kept = await say(fake, channel, bob, "stats forget", confirm="nope")
    assert "Nothing deleted" in kept.content
    await say(fake, channel, bob, "stats forget", confirm="forget")
    gone = await say(fake, channel, bob, "stats luck")
    assert gone.ephemeral and "no recorded dice" in gone.content
    await say(fake, channel, bob, "roll", expression="1d20")
    await settled(bot)
    assert row((await say(fake, channel, bob, "stats luck")).content, 20)[0] == 1  # type: ignore[index]


async def test_luck_in_this_channel_or_this_server_only(fake: LocalDiscord, make_bot: MakeBot) -> None:
    bot = await make_bot(extensions=EXTENSIONS, clock=FakeClock())
    first, second, bob = fake.channels[0], fake.channels[1], fake.members[1]
    here = faces_of((await say(fake, first, bob, "roll", expression="12d20")).content)
    there = faces_of((await say(fake, second, bob, "roll", expression="8d20")).content)
    await settled(bot)
    everywhere = await say(fake, first, bob, "stats luck")
    assert row(everywhere.content, 20) == (20, round(sum(f for _, f in here + there) / 20, 2))
    channel = await say(fake, first, bob, "stats luck", where="channel")
    assert row(channel.content, 20) == (12, round(sum(f for _, f in here) / 12, 2))
    assert "in this channel" in channel.content
    server = await say(fake, second, bob, "stats luck", where="server")
    assert row(server.content, 20)[0] == 20 and "in this server" in server.content  # type: ignore[index]
