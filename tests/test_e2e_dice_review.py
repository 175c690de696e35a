"""Faults found by reviewing issue 22 (parts 1, 2, 3, 5, 6) as a user of Dice Maiden / Button Dice Roller would,
each checked through the local Discord."""

from __future__ import annotations

import re

import pytest

from bot.app import TabletopBot
from localdiscord.guild import Channel, Member
from localdiscord.messages import Message
from localdiscord.server import LocalDiscord
from tests.conftest import MakeBot

EXTENSIONS = ("cogs.dice",)


async def say(fake: LocalDiscord, channel: Channel, member: Member, command: str, **options: object) -> Message:
    return await (await fake.slash(channel, member, command, options=options)).message()


@pytest.fixture
async def dice_bot(make_bot: MakeBot) -> TabletopBot:
    return await make_bot(extensions=EXTENSIONS)


@pytest.mark.parametrize(
    ("expression", "spellings"),
    [
        ("+d20+5", ("`1d20+5 adv`", "`1d20+5` for one d20")),
        ("-d20 + 3", ("`1d20+3 dis`", "`-1d20+3` for minus a d20")),
        ("+d6", ("`2d6kh1`", "`1d6` for one d6")),
        ("-d8+2", ("`2d8kl1+2`", "`-1d8+2`")),
    ],
)
async def test_dice_maiden_advantage_with_a_modifier_or_another_die_is_never_rolled_silently(
    fake: LocalDiscord, dice_bot: TabletopBot, expression: str, spellings: tuple[str, ...]
) -> None:
    # Dice Maiden reads `+dX` / `-dX` as advantage / disadvantage on any die, with anything after it;
    # d20 read `+d20+5` as one d20 plus 5 and `-d20+5` as minus a d20 plus 5, without a word.
    channel = fake.channels[0]
    refused = await say(fake, channel, fake.members[1], "roll", expression=expression)
    assert refused.ephemeral and "Dice Maiden's shortcut" in refused.content
    assert all(spelling in refused.content for spelling in spellings), refused.content
    assert fake.messages(channel) == []


async def test_saved_names_in_several_rolls_and_a_saved_roll_of_several(
    fake: LocalDiscord, dice_bot: TabletopBot
) -> None:
    channel, bob = fake.channels[0], fake.members[1]
    await say(fake, channel, bob, "dice save", name="attack", expression="1d20+5 # Sword")
    await say(fake, channel, bob, "dice save", name="damage", expression="2d6+3")
    both = await say(fake, channel, bob, "roll", expression="attack ; damage")
    assert not both.ephemeral and "1d20 [" in both.content and "2d6 [" in both.content, both.content
    saved = await say(fake, channel, bob, "dice save", name="combo", expression="1d20+5 ; 2d6+3")
    assert saved.content.startswith("✅"), saved.content
    combo = await say(fake, channel, bob, "roll", expression="combo")
    assert "1d20 [" in combo.content and "2d6 [" in combo.content
    with_more = await say(fake, channel, bob, "roll", expression="combo +2")
    assert with_more.ephemeral and "holds several rolls" in with_more.content
    secret = await say(fake, channel, bob, "dice secret", expression="combo")
    assert secret.ephemeral and "A secret roll is one roll" in secret.content
    odds = await say(fake, channel, bob, "dice odds", expression="2d6 ; 1d20")
    assert odds.ephemeral and "one roll at a time" in odds.content
    assert len(fake.messages(channel)) == 2  # the two rolls; no commitment was posted
    for repeated in ("3x attack", "3 attack", "3X attack +2"):
        sets = await say(fake, channel, bob, "roll", expression=repeated)
        assert not sets.ephemeral and sets.content.count("1d20 [") == 3, (repeated, sets.content)
    glued = await say(fake, channel, bob, "roll", expression="attack+2")
    # A natural 1 or 20 is drawn in bold, so the face may carry asterisks.
    glued_sum = re.search(r"1d20 \[\**\d+\**\] \+ 5 \+ 2 =", glued.content)
    assert not glued.ephemeral and "Sword" in glued.content and glued_sum
    refused = await say(fake, channel, bob, "roll", expression="2x combo")
    assert refused.ephemeral and "can't be repeated" in refused.content


async def test_import_refuses_a_name_twice_and_a_file_that_isnt_utf8(fake: LocalDiscord, dice_bot: TabletopBot) -> None:
    channel, carol = fake.channels[0], fake.members[2]
    twice = await say(fake, channel, carol, "dice import", file=("rolls.txt", b"a = 1d4\na = 1d6\n"))
    assert "Entry 2 (`a`)" in twice.content and "earlier in the file" in twice.content
    latin1 = await say(fake, channel, carol, "dice import", file=("rolls.txt", "café = 1d4\n".encode("latin-1")))
    assert "isn't UTF-8" in latin1.content
    assert await dice_bot.store.saved_rolls("member", carol.id) == []
    lines = "hit: 1d20+5 >= 15\ncheck = 1d20 >= 10\ncafé = 1d4\n".encode()
    done = await say(fake, channel, carol, "dice import", file=("rolls.txt", lines))
    assert done.content.startswith("📥 Imported 3 saved rolls"), done.content
    hit = await dice_bot.store.saved_roll("member", carol.id, "hit")
    assert hit is not None and hit.expression == "1d20+5 >= 15"


@pytest.mark.parametrize("name", ["a,b", "a=b", "a:b"])
async def test_a_name_that_would_break_a_board_or_an_import_is_refused(
    fake: LocalDiscord, dice_bot: TabletopBot, name: str
) -> None:
    message = await say(fake, fake.channels[0], fake.members[1], "dice save", name=name, expression="1d4")
    assert message.ephemeral and "one word" in message.content


async def test_refusals_read_your_rolls(fake: LocalDiscord, dice_bot: TabletopBot) -> None:
    channel, bob = fake.channels[0], fake.members[1]
    missing = await say(fake, channel, bob, "dice edit", name="nothing", expression="1d4")
    assert "among your rolls" in missing.content
    await say(fake, channel, bob, "dice save", name="attack", expression="1d20")
    assert (
        "already one of your rolls"
        in (await say(fake, channel, bob, "dice save", name="attack", expression="1d4")).content
    )


async def test_board_edit_changes_ones_own_newest_board_by_default(fake: LocalDiscord, dice_bot: TabletopBot) -> None:
    channel, bob, carol, dave = fake.channels[0], fake.members[1], fake.members[2], fake.members[4]
    for member in (bob, carol):
        await say(fake, channel, member, "dice save", name="heal", expression="1d8")
        await say(fake, channel, member, "dice save", name="attack", expression="1d20")
    bob_board = await say(fake, channel, bob, "dice board")
    carol_board = await say(fake, channel, carol, "dice board")  # newer than Bob's
    done = await say(fake, channel, bob, "dice board-edit", buttons="heal=Potion")
    assert done.content.startswith("✅"), done.content
    assert [b["label"] for b in fake.message(bob_board.id).buttons] == ["Potion"]  # type: ignore[union-attr]
    assert len(fake.message(carol_board.id).buttons) == 2  # type: ignore[union-attr]
    none = await say(fake, channel, dave, "dice board-edit", buttons="heal")
    assert none.ephemeral and "You have no dice board here" in none.content


async def test_verify_says_when_the_commitment_is_not_one(fake: LocalDiscord, dice_bot: TabletopBot) -> None:
    options = {"commitment": "a3f9…", "result": "1d20 [3] = 3", "salt": "00"}
    answer = await say(fake, fake.channels[0], fake.members[2], "dice verify", **options)
    assert answer.ephemeral and "64 hex digits" in answer.content


async def test_fudge_dice_mixed_with_other_dice_get_the_d20_spelling(fake: LocalDiscord, dice_bot: TabletopBot) -> None:
    # `4dF+1` alone is Fate's roll (a preset, tests/test_e2e_roll_presets.py); with other dice it isn't.
    refused = await say(fake, fake.channels[0], fake.members[1], "roll", expression="4dF+1d6")
    assert refused.ephemeral and "`4d3-8`" in refused.content


async def test_what_a_roll_means_does_not_depend_on_what_others_rolled_before(
    fake: LocalDiscord, dice_bot: TabletopBot
) -> None:
    # Issue 22, part 7, through one bot process: d20's cache keyed the text without its spaces.
    channel, bob, carol = fake.channels[0], fake.members[1], fake.members[2]

    async def meaning(member: Member, expression: str) -> str:
        message = await say(fake, channel, member, "roll", expression=expression)
        return "refused" if message.ephemeral else message.content.split("\n", 1)[1].split(" [", 1)[0]

    first = [await meaning(bob, text) for text in ("4d6 k3", "1d2 0")]
    assert first == ["4d6kh3", "refused"]
    await meaning(carol, "4d6k3")
    await meaning(carol, "1d20")
    assert [await meaning(bob, text) for text in ("4d6 k3", "1d2 0")] == first
