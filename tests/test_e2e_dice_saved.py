"""Saved rolls through the local Discord: the three scopes with their permission checks, the autocomplete order,
names in /roll with arguments, refusals, limits, export and import."""

from __future__ import annotations

import json
import sys

import pytest

from bot.app import TabletopBot
from localdiscord.guild import Channel, Member
from localdiscord.messages import Message
from localdiscord.server import LocalDiscord
from tests.conftest import MakeBot

EXTENSIONS = ("cogs.dice", "cogs.viciousness")


async def say(fake: LocalDiscord, channel: Channel, member: Member, command: str, **options: object) -> Message:
    return await (await fake.slash(channel, member, command, options=options)).message()


@pytest.fixture
async def dice_bot(make_bot: MakeBot) -> TabletopBot:
    return await make_bot(extensions=EXTENSIONS)


async def test_save_use_edit_delete_my_roll_everywhere(fake: LocalDiscord, dice_bot: TabletopBot) -> None:
    channel, bob = fake.channels[0], fake.members[1]
    done = await say(fake, channel, bob, "dice save", name="Attack", expression="1d20+5 # Sword")
    assert done.ephemeral and done.content.startswith("✅ Saved `Attack`")
    rolled = await say(fake, channel, bob, "roll", expression="attack +2 adv")
    assert "**Sword**" in rolled.content and "2d20kh1 [" in rolled.content and "+ 5 +2" not in rolled.content
    assert rolled.content.count(" + 5 + 2") == 1 or " + 5 + 2 =" in rolled.content.replace("  ", " ")
    in_dm = await say(fake, fake.dm_channel(bob), bob, "roll", expression="attack")
    assert "**Sword**" in in_dm.content
    changed = await say(fake, channel, bob, "dice edit", name="attack", expression="1d20+7")
    assert "Changed" in changed.content
    assert "+ 7" in (await say(fake, channel, bob, "roll", expression="attack")).content
    await say(fake, channel, bob, "dice delete", name="ATTACK")
    gone = await say(fake, channel, bob, "roll", expression="attack")
    assert gone.ephemeral and gone.content.startswith("⚠️")


async def test_channel_rolls_need_a_manager_or_the_campaign_gm(fake: LocalDiscord, dice_bot: TabletopBot) -> None:
    channel, other = fake.channels[0], fake.channels[1]
    alice, bob, carol = fake.members[0], fake.members[1], fake.members[2]  # Alice manages the server
    refused = await say(fake, channel, bob, "dice save", name="house", expression="1d6", scope="channel")
    assert refused.ephemeral and "Manage Server or this channel's campaign GM" in refused.content
    ok = await say(fake, channel, alice, "dice save", name="house", expression="2d6", scope="channel")
    assert "this channel's" in ok.content
    assert "2d6 [" in (await say(fake, channel, carol, "roll", expression="house")).content
    assert (await say(fake, other, carol, "roll", expression="house")).content.startswith("⚠️")
    await (await fake.slash(other, carol, "vic-gm campaign new", options={"company": "Knives"})).message()
    gm_ok = await say(fake, other, carol, "dice save", name="ambush", expression="3d6", scope="channel")
    assert gm_ok.content.startswith("✅")
    server_refused = await say(fake, other, carol, "dice save", name="loot", expression="1d100", scope="server")
    assert "Manage Server" in server_refused.content
    server_ok = await say(fake, channel, alice, "dice save", name="loot", expression="1d100", scope="server")
    assert server_ok.content.startswith("✅")
    assert "1d100 [" in (await say(fake, other, bob, "roll", expression="loot")).content
    # Editing and deleting take the same rights as saving.
    for command, options in (("dice edit", {"expression": "9d6"}), ("dice delete", {})):
        no = await say(fake, channel, bob, command, name="house", scope="channel", **options)
        assert "Manage Server or this channel's campaign GM" in no.content
        no = await say(fake, channel, carol, command, name="loot", scope="server", **options)
        assert "Only members with Manage Server" in no.content
    assert (await say(fake, other, carol, "dice edit", name="ambush", expression="4d6", scope="channel")).content[
        0
    ] == "✅"
    assert (await say(fake, channel, alice, "dice delete", name="house", scope="channel")).content.startswith("🗑️")
    assert (await say(fake, channel, carol, "roll", expression="house")).content.startswith("⚠️")


async def test_my_roll_comes_first_then_the_channels_then_the_servers(
    fake: LocalDiscord, dice_bot: TabletopBot
) -> None:
    channel, alice, bob = fake.channels[0], fake.members[0], fake.members[1]
    await say(fake, channel, alice, "dice save", name="hit", expression="1d4", scope="server")
    await say(fake, channel, alice, "dice save", name="hide", expression="1d6", scope="channel")
    await say(fake, channel, bob, "dice save", name="heal", expression="1d8")
    await say(fake, channel, alice, "dice save", name="heal", expression="1d12", scope="server")
    choices = await (await fake.autocomplete(channel, bob, "roll", "expression", {"expression": "h"})).choices()
    assert [c["value"] for c in choices] == ["heal", "hide", "hit"]
    assert "(yours)" in choices[0]["name"] and "(this channel's)" in choices[1]["name"]
    assert "1d8 [" in (await say(fake, channel, bob, "roll", expression="heal")).content  # mine wins
    assert "1d12 [" in (await say(fake, channel, alice, "roll", expression="heal")).content


@pytest.mark.parametrize(
    ("name", "expression", "refusal"),
    [
        ("d20", "1d20", "reads as dice notation"),
        ("adv", "1d20", "reads as dice notation"),
        ("4d6", "1d20", "reads as dice notation"),
        ("two words", "1d20", "one word"),
        ("<@123>", "1d20", "one word"),
        ("ok", "1d20 + banana", "at character 8"),
        ("ok", "1001d6", "1,001 dice"),
    ],
)
async def test_clear_refusals_at_save_time(
    fake: LocalDiscord, dice_bot: TabletopBot, name: str, expression: str, refusal: str
) -> None:
    channel, bob = fake.channels[0], fake.members[1]
    message = await say(fake, channel, bob, "dice save", name=name, expression=expression)
    assert message.ephemeral and refusal in message.content
    assert await dice_bot.store.saved_rolls("member", bob.id) == []


async def test_a_name_taken_in_the_same_scope_and_the_limit(
    fake: LocalDiscord, dice_bot: TabletopBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    channel, bob = fake.channels[0], fake.members[1]
    await say(fake, channel, bob, "dice save", name="attack", expression="1d20")
    taken = await say(fake, channel, bob, "dice save", name="Attack", expression="1d20+1")
    assert "already one of your rolls" in taken.content and "/dice edit" in taken.content
    # The bot loads its extensions afresh: patch the module it runs, not the one this file imported.
    monkeypatch.setattr(sys.modules["cogs.dice.saved"], "MEMBER_LIMIT", 1)
    full = await say(fake, channel, bob, "dice save", name="other", expression="1d4")
    assert "1 saved rolls, the most one member can keep" in full.content


async def test_export_then_import_elsewhere(fake: LocalDiscord, dice_bot: TabletopBot) -> None:
    channel, bob, carol = fake.channels[0], fake.members[1], fake.members[2]
    await say(fake, channel, bob, "dice save", name="attack", expression="1d20+5 # Sword")
    await say(fake, channel, bob, "dice save", name="fireball", expression="8d6")
    exported = await say(fake, channel, bob, "dice export")
    (attachment,) = exported.attachments
    assert attachment["filename"] == "saved-rolls.json" and attachment["description"]
    data = json.loads(fake.attachment_bytes(attachment))
    assert {e["name"] for e in data["saved_rolls"]} == {"attack", "fireball"}
    imported = await say(fake, channel, carol, "dice import", file=("saved-rolls.json", json.dumps(data).encode()))
    assert imported.content.startswith("📥 Imported 2 saved rolls")
    assert "**Sword**" in (await say(fake, channel, carol, "roll", expression="attack")).content
    lines = b"# my rolls\nsneak = 1d20+8\nbad = 1d20 + banana\n"
    refused = await say(fake, channel, carol, "dice import", file=("rolls.txt", lines))
    assert "Entry 2 (`bad`)" in refused.content
    assert await dice_bot.store.saved_roll("member", carol.id, "sneak") is None  # nothing saved from a bad file


async def test_several_rolls_private_and_simple_forms(fake: LocalDiscord, dice_bot: TabletopBot) -> None:
    channel, bob = fake.channels[0], fake.members[1]
    both = await say(fake, channel, bob, "roll", expression="2d6 ; 1d20")
    assert "2d6 [" in both.content and "1d20 [" in both.content
    assert both.button("Roll again")["custom_id"] == "roll:0:2d6 ; 1d20"
    private = await say(fake, channel, bob, "roll", expression="4d6 p")
    assert private.ephemeral and private.button("Roll again")["custom_id"] == "roll:1:4d6"


async def test_exact_odds_of_a_roll_or_a_saved_roll(fake: LocalDiscord, dice_bot: TabletopBot) -> None:
    channel, bob = fake.channels[0], fake.members[1]
    table = await say(fake, channel, bob, "dice odds", expression="4d6kh3", at_least=15)
    assert table.ephemeral and "at least 15: 23.1%" in table.content and "mean 12.24" in table.content
    await say(fake, channel, bob, "dice save", name="stats", expression="4d6kh3")
    assert "mean 12.24" in (await say(fake, channel, bob, "dice odds", expression="stats")).content
    refused = await say(fake, channel, bob, "dice odds", expression="1000d6")
    assert refused.content.startswith("⚠️ Those odds would take too long") and "5,001" in refused.content
