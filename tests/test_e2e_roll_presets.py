"""Game-system presets through the local Discord: /roll in the game's words, /dice odds, saved rolls, secret rolls,
/dice presets, and Year Zero's push made once even when clicked twice at once, and after a restart."""

from __future__ import annotations

import asyncio
import hashlib
import re

from localdiscord.guild import Channel, Member
from localdiscord.messages import Message
from localdiscord.server import LocalDiscord
from rules.roll.systems import SYSTEMS
from tests.conftest import MakeBot

BLADES = ("Critical", "Full success", "Partial success", "Bad outcome")


async def say(fake: LocalDiscord, channel: Channel, member: Member, command: str, **options: object) -> Message:
    return await (await fake.slash(channel, member, command, options=options)).message()


async def test_a_preset_answers_in_the_games_words_and_rolls_again(fake: LocalDiscord, bot: object) -> None:
    channel, bob, carol = fake.channels[0], fake.members[1], fake.members[2]
    blades = await say(fake, channel, bob, "roll", expression="bitd 3", label="Sneak past")
    assert not blades.ephemeral and "Sneak past" in blades.content and "3d6 [" in blades.content
    assert any(f"**{word}**" in blades.content for word in BLADES)
    assert blades.button("Roll again")["custom_id"] == "roll:0:bitd 3 # Sneak past"
    again = await (await fake.click(blades, "Roll again", carol)).message()
    assert "3d6 [" in again.content and any(f"**{word}**" in again.content for word in BLADES)
    fate = await say(fake, channel, bob, "roll", expression="4dF+2")
    assert "4dF [" in fate.content and re.search(
        r"\*\*(Terrible|Poor|Mediocre|Average|Fair|Good|Great|Superb|Fantastic)", fate.content
    )
    duality = await say(fake, channel, bob, "roll", expression="dh +1 vs 14")
    assert "Hope d12 [" in duality.content and "Fear d12 [" in duality.content
    assert re.search(r"\*\*(Critical success|(Success|Failure) with (Hope|Fear))", duality.content)
    narrative = await say(fake, channel, bob, "roll", expression="gen 2g 1y 2p")
    assert "ability 2d8 [" in narrative.content and re.search(r"\*\*(Success|Failure)", narrative.content)
    bad = await say(fake, channel, bob, "roll", expression="bitd 12")
    assert bad.ephemeral and "from 0 to 10" in bad.content


async def test_exact_odds_of_a_preset_in_the_games_words(fake: LocalDiscord, bot: object) -> None:
    answer = await say(fake, fake.channels[0], fake.members[1], "dice odds", expression="pbta +1", at_least=10)
    assert answer.ephemeral and "pbta +1" in answer.content
    # 2d6 + 1: 10+ is 9+ on the dice (10 of 36), 7–9 is 6–8 (16 of 36), the rest a miss.
    assert re.search(r"Strong hit +27\.8%", answer.content)
    assert re.search(r"Weak hit +44\.4%", answer.content)
    assert re.search(r"Miss +27\.8%", answer.content)
    assert "total at least 10: 27.8%" in answer.content
    vampire = await say(fake, fake.channels[0], fake.members[1], "dice odds", expression="vtm 5 h2 vs 3")
    assert all(word in vampire.content for word in ("Messy critical", "Critical win", "Bestial failure"))


async def test_a_preset_is_saved_by_name_and_rolled_with_more_dice(fake: LocalDiscord, bot: object) -> None:
    channel, bob = fake.channels[0], fake.members[1]
    saved = await say(fake, channel, bob, "dice save", name="sneak", expression="bitd 2 # Sneak")
    assert saved.ephemeral and saved.content.startswith("✅")
    rolled = await say(fake, channel, bob, "roll", expression="sneak")
    assert "Sneak" in rolled.content and "2d6 [" in rolled.content
    more = await say(fake, channel, bob, "roll", expression="sneak +1")
    assert "3d6 [" in more.content
    odds = await say(fake, channel, bob, "dice odds", expression="sneak")
    assert "bitd 2" in odds.content and "Critical" in odds.content
    refused = await say(fake, channel, bob, "dice save", name="bitd", expression="bitd 1")
    assert refused.ephemeral and "reads as dice notation" in refused.content
    wrong = await say(fake, channel, bob, "dice save", name="spot", expression="vtm 3 h4")
    assert wrong.ephemeral and "part of the pool" in wrong.content


async def test_a_secret_preset_roll_commits_to_the_games_words(fake: LocalDiscord, bot: object) -> None:
    channel, bob, carol = fake.channels[0], fake.members[1], fake.members[2]
    res = await fake.slash(channel, bob, "dice secret", options={"expression": "coc 60"})
    committed = await res.message()
    (private,) = await res.followups(1)
    assert private.ephemeral and "(skill 60)" in private.content
    assert "skill 60" not in "\n".join(m.content for m in fake.messages_seen_by(channel, carol))
    (revealed,) = await (await fake.click(committed, "Reveal", bob)).followups(1)
    result = re.search(r"Result: `([^`]+)`", revealed.content)
    salt = re.search(r"Salt: `([0-9a-f]+)`", revealed.content)
    commitment = re.search(r"commitment `([0-9a-f]{64})`", committed.content)
    assert result and salt and commitment
    assert re.search(
        r"= \d+ \((Critical success|Extreme success|Hard success|Regular success|Failure|Fumble) \(skill 60\)\)$",
        result[1],
    )
    assert hashlib.sha256(f"{result[1]}\n{salt[1]}".encode()).hexdigest() == commitment[1]


async def test_the_list_of_presets_and_one_in_detail(fake: LocalDiscord, bot: object) -> None:
    listed = await say(fake, fake.channels[0], fake.members[1], "dice presets")
    assert listed.ephemeral and len(listed.content) <= 2000
    assert all(system.name in listed.content for system in SYSTEMS)
    one = await say(fake, fake.channels[0], fake.members[1], "dice presets", system="yz")
    assert "Year Zero Engine" in one.content and "`/roll yz 3 2 1`" in one.content


def base_faces(content: str, count: int) -> list[int]:
    """The base dice in a Year Zero message, in order (the last such group: the push, once made)."""
    groups = re.findall(rf"base {count}d6 \[([^\]]+)\]", content)
    return [int(face.strip("* !")) for face in groups[-1].split(",")]


async def test_a_push_is_made_once_even_when_clicked_twice_at_once(fake: LocalDiscord, bot: object) -> None:
    channel, bob, carol = fake.channels[0], fake.members[1], fake.members[2]
    rolled = await say(fake, channel, bob, "roll", expression="yz 6 0 0")
    assert not rolled.ephemeral and rolled.button("Push") and "Only the roller can push" in rolled.content
    before = base_faces(rolled.content, 6)
    refused = await (await fake.click(rolled, "Push", carol)).message()
    assert refused.ephemeral and "Only the one who rolled" in refused.content
    first, second = await asyncio.gather(fake.click(rolled, "Push", bob), fake.click(rolled, "Push", bob))
    answers = [await first.message(), await second.message()]
    assert sum(a.ephemeral and "pushed already" in a.content for a in answers) == 1
    shown = fake.message(rolled.id)
    assert shown is not None and shown.content.count("Pushed:") == 1 and not shown.components
    after = base_faces(shown.content, 6)
    for old, new in zip(before, after, strict=True):
        if old in (1, 6):  # a success and a bane stay; every other die was rolled again
            assert new == old
    assert len(fake.messages(channel)) == 1  # the push is drawn into the roll's own message


async def test_a_push_survives_a_restart_and_a_private_roll_has_none(fake: LocalDiscord, make_bot: MakeBot) -> None:
    channel, bob = fake.channels[0], fake.members[1]
    first_bot = await make_bot()
    rolled = await say(fake, channel, bob, "roll", expression="yz 2 2 1")
    private = await say(fake, channel, bob, "roll", expression="yz 2 2 1", private=True)
    assert private.ephemeral and "dice:push" not in str(private.components)  # Roll again only
    await first_bot.close()
    await make_bot()  # same database: the roll and its dice are stored, not remembered
    await (await fake.click(rolled, "Push", bob)).message()
    shown = fake.message(rolled.id)
    assert shown is not None and "Pushed:" in shown.content and not shown.components


async def test_presets_and_a_push_where_only_a_members_install_reaches(fake: LocalDiscord, make_bot: MakeBot) -> None:
    # A server that never added the bot, where Zoe installed the app on her account: everything goes through the
    # interactions, the push too (it redraws the roll's message by answering the click).
    await make_bot(extensions=("cogs.dice",))
    server = fake.server_without_bot()
    zoe = server.members[0]
    fake.install_for_user(zoe)
    channel = server.channels[0]
    rolled = await say(fake, channel, zoe, "roll", expression="yz 3 1 0")
    assert not rolled.ephemeral and rolled.button("Push")
    odds = await say(fake, channel, zoe, "dice odds", expression="is +2")
    assert odds.ephemeral and "Strong hit" in odds.content
    await (await fake.click(rolled, "Push", zoe)).message()
    shown = fake.message(rolled.id)
    assert shown is not None and "Pushed:" in shown.content and not shown.components
    assert [r["path"] for r in fake.requests if f"/channels/{channel.id}" in r["path"]] == []
