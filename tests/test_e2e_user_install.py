"""The app added to a member's own account (a user install), through the local Discord: in a DM and a group DM
between users and in a server without the bot, that member is offered the dice commands only; `/roll`, `/dice`
(saved rolls of one's own, secret rolls and their Reveal, odds, verify, a personal board) and `/stats luck` work
there, every answer and every button's answer going through the interaction (the bot can't read or post there);
what needs the bot in the server says so privately; and the interactions carry `context` and
`authorizing_integration_owners` as Discord's OpenAPI description has them."""

from __future__ import annotations

import re
from typing import Any

import discord
import pytest

from localdiscord.guild import Channel, Member
from localdiscord.installs import BOT_DM, GUILD, PRIVATE_CHANNEL
from localdiscord.interactions import InteractionResult
from localdiscord.messages import Message
from localdiscord.server import LocalDiscord
from tests.conftest import MakeBot
from tests.openapi import check

USER_INSTALL_COMMANDS = {"roll", "dice", "stats", "language"}
PLACES = ("dm", "group", "server")


def places(fake: LocalDiscord) -> tuple[Member, Member, dict[str, Channel]]:
    """Zoe added the app to her account; Yann didn't. A DM and a group DM between them (and Xavi), and a channel
    of their server (Zoe manages it), which never added the bot."""
    server = fake.server_without_bot()
    zoe, yann, xavi = server.members
    fake.install_for_user(zoe)
    where = {"dm": fake.private_dm(zoe, yann), "group": fake.group_dm(zoe, yann, xavi), "server": server.channels[0]}
    return zoe, yann, where


async def say(fake: LocalDiscord, channel: Channel, member: Member, command: str, **options: object) -> Message:
    """Run a command; its answer (the interaction's own message)."""
    return await (await fake.slash(channel, member, command, options=options)).message()


def through_interactions_only(fake: LocalDiscord, channel: Channel) -> None:
    """The bot never called the channel's own routes, and every message in it came through an interaction."""
    touched = [r["path"] for r in fake.requests if f"/channels/{channel.id}" in r["path"]]
    assert touched == []
    shown = list({m.id: m for user in fake.users.values() for m in fake.messages_seen_by(channel, user)}.values())
    assert shown and all("interaction_metadata" in m.data for m in shown)


async def test_a_member_who_installed_the_app_is_offered_the_dice_commands_only(
    fake: LocalDiscord, make_bot: MakeBot
) -> None:
    await make_bot()
    zoe, yann, where = places(fake)
    for channel in where.values():
        assert set(fake.offered(channel, zoe)) == USER_INSTALL_COMMANDS, channel
        assert fake.offered(channel, yann) == []  # no install of the app reaches him there
    res = await fake.slash(where["server"], yann, "roll", options={"expression": "d20"})
    assert res.error is not None and "not installed" in res.error
    # In the bot's own server, a member who also installed it sees every command, each once.
    alice = fake.members[1]
    everything = fake.offered(fake.channels[0], alice)
    fake.install_for_user(alice)
    assert fake.offered(fake.channels[0], alice) == everything
    assert {"crowns", "vv", "game"} <= set(everything)


@pytest.mark.parametrize("place", PLACES)
async def test_roll_and_its_buttons_answer_through_the_interaction(
    fake: LocalDiscord, make_bot: MakeBot, place: str
) -> None:
    await make_bot(extensions=("cogs.dice",))
    zoe, yann, where = places(fake)
    channel = where[place]
    res = await fake.slash(channel, zoe, "roll", options={"expression": "4d6kh3 # Stats"})
    rolled = await res.message()
    assert res.payload["context"] == (GUILD if place == "server" else PRIVATE_CHANNEL)
    assert res.payload["authorizing_integration_owners"] == {"1": str(zoe.id)}
    assert not rolled.ephemeral and "Stats" in rolled.content
    # Yann never installed the app, but its message's buttons answer him: the click inherits Zoe's install.
    click = await fake.click(rolled, "Roll again", yann)
    again = await click.message()
    assert click.payload["authorizing_integration_owners"] == {"1": str(zoe.id)}
    assert again.id != rolled.id and "Yann" in again.content
    assert again.data["interaction_metadata"]["interacted_message_id"] == str(rolled.id)
    private = await say(fake, channel, zoe, "roll", expression="1d20", private=True)
    assert private.ephemeral
    through_interactions_only(fake, channel)


@pytest.mark.parametrize("place", PLACES)
async def test_dice_tools_of_ones_own_work_where_the_bot_is_not(
    fake: LocalDiscord, make_bot: MakeBot, place: str
) -> None:
    await make_bot(extensions=("cogs.dice",))
    zoe, yann, where = places(fake)
    channel = where[place]
    saved = await say(fake, channel, zoe, "dice save", name="attack", expression="1d20+5 # Sword")
    assert saved.ephemeral and "attack" in saved.content
    offered = await (await fake.autocomplete(channel, zoe, "roll", "expression", {"expression": "at"})).choices()
    assert [c["value"] for c in offered][:1] == ["attack"]
    rolled = await say(fake, channel, zoe, "roll", expression="attack +2")
    assert "Sword" in rolled.content and not rolled.ephemeral
    listed = await say(fake, channel, zoe, "dice list")
    assert "attack" in listed.content
    odds = await say(fake, channel, zoe, "dice odds", expression="attack", at_least=20)
    assert odds.ephemeral and "%" in odds.content
    # A personal dice board: posted as the command's answer, each click answered through its own interaction.
    board = await say(fake, channel, zoe, "dice board")
    assert not board.ephemeral and [b["label"] for b in board.buttons] == ["attack"]
    click = await fake.click(board, "attack", yann)
    by_yann = await click.message()
    assert "Yann" in by_yann.content and "Sword" in by_yann.content
    exported = await say(fake, channel, zoe, "dice export")
    file = fake.attachment_bytes(exported.attachments[0])
    await say(fake, channel, zoe, "dice delete", name="attack")
    fake.install_for_user(yann)  # Yann adds the app too, and takes Zoe's rolls as his own
    imported = await say(fake, channel, yann, "dice import", file=("saved-rolls.json", file))
    assert imported.content.startswith("📥 Imported 1 saved roll")
    luck = await say(fake, channel, zoe, "stats luck")
    assert luck.ephemeral and "luck" in luck.content and luck.attachments
    through_interactions_only(fake, channel)


@pytest.mark.parametrize("place", PLACES)
async def test_a_secret_roll_is_committed_revealed_and_verified_where_the_bot_is_not(
    fake: LocalDiscord, make_bot: MakeBot, place: str
) -> None:
    await make_bot(extensions=("cogs.dice",))
    zoe, yann, where = places(fake)
    channel = where[place]
    res = await fake.slash(channel, zoe, "dice secret", options={"expression": "1d20+5", "label": "Sneak"})
    committed = await res.message()
    (mine,) = await res.followups(1)
    assert mine.ephemeral and "Sneak" in mine.content and "Sneak" not in committed.content
    digest = re.search(r"commitment `([0-9a-f]{64})`", committed.content)
    assert digest is not None
    refused = await (await fake.click(committed, "Reveal", yann)).message()
    assert refused.ephemeral and "Only the roller" in refused.content
    reveal = await fake.click(committed, "Reveal", zoe)
    (revealed,) = await reveal.followups(1)
    assert "Sneak" in revealed.content and not revealed.ephemeral
    # The commitment lost its buttons in the answer to the click itself (the bot can't edit it otherwise).
    assert reveal.response_type == 7 and not fake.message(committed.id).components  # type: ignore[union-attr]
    result = re.search(r"Result: `([^`]+)`", revealed.content)
    salt = re.search(r"Salt: `([0-9a-f]+)`", revealed.content)
    assert result and salt
    ok = await say(fake, channel, zoe, "dice verify", commitment=digest[1], result=result[1], salt=salt[1])
    assert ok.content.startswith("✅")
    through_interactions_only(fake, channel)


async def test_what_needs_the_bot_in_the_server_says_so_privately(fake: LocalDiscord, make_bot: MakeBot) -> None:
    await make_bot(extensions=("cogs.dice",))
    zoe, _, where = places(fake)
    channel = where["server"]
    asked = {
        "dice save": {"name": "house", "expression": "2d6", "scope": "channel"},
        "dice board": {"rolls": "channel"},
        "dice board-edit": {},
        "stats top": {},
    }
    for command, options in asked.items():
        answer = await say(fake, channel, zoe, command, **options)
        assert answer.ephemeral and "bot" in answer.content and "server" in answer.content, (command, answer.content)
    gm = await say(fake, channel, zoe, "dice secret", expression="1d20", **{"for": "gm"})
    assert gm.ephemeral and "campaign" in gm.content
    for place in ("dm", "group"):
        scoped = await say(fake, where[place], zoe, "dice save", name="house", expression="2d6", scope="server")
        assert scoped.ephemeral and "server" in scoped.content
    assert fake.messages(channel) == []
    # Where the bot is (its own DM, its server), a member who also installed the app isn't refused any of it.
    alice = fake.members[0]
    fake.install_for_user(alice)
    await say(fake, fake.channels[1], alice, "dice save", name="attack", expression="1d20+5")
    for here in (fake.dm_channel(alice), fake.channels[1]):
        await say(fake, here, alice, "dice board")
        edited = await say(fake, here, alice, "dice board-edit", buttons="attack=Sword")
        assert edited.content.startswith("✅"), edited.content
    shared = await say(fake, fake.channels[1], alice, "dice save", name="house", expression="2d6", scope="channel")
    assert shared.content.startswith("✅"), shared.content
    assert (await say(fake, fake.channels[1], alice, "stats top")).content.startswith("🏆")


async def test_the_bot_can_neither_read_nor_post_where_only_a_members_install_reaches(
    fake: LocalDiscord, make_bot: MakeBot
) -> None:
    bot = await make_bot(extensions=("cogs.dice",))
    zoe, _, where = places(fake)
    for channel in where.values():
        with pytest.raises(discord.Forbidden):
            await bot.http.send_message(channel.id, params=discord.http.handle_message_parameters(content="hi"))
        with pytest.raises(discord.Forbidden):
            await bot.http.logs_from(channel.id, 10)
    assert sum("403 50001 Missing Access" in r for r in fake.rejections) == 6
    # An answer through the interaction: its webhook takes at most 5 follow-ups there, as Discord's does.
    res = await fake.slash(where["server"], zoe, "dice verify", options={"commitment": "0", "result": "1", "salt": "2"})
    await res.message()
    webhook = discord.Webhook.partial(fake.application_id, res.token, client=bot)
    for count in range(5):
        await webhook.send(f"follow-up {count + 1}", wait=True)
    fake.tolerate("maximum number of follow up messages")
    with pytest.raises(discord.HTTPException):
        await webhook.send("one too many", wait=True)
    assert len(res.followup_messages) == 5


async def test_interactions_and_messages_match_discords_openapi_description(
    fake: LocalDiscord, make_bot: MakeBot
) -> None:
    await make_bot(extensions=("cogs.dice",))
    zoe, yann, where = places(fake)
    fake.install_for_user(fake.members[1])
    everywhere = [*where.values(), fake.channels[0], fake.dm_channel(fake.members[1])]
    results: list[InteractionResult] = []
    for channel in everywhere:
        member = zoe if channel in where.values() else fake.members[1]
        res = await fake.slash(channel, member, "roll", options={"expression": "2d6"})
        click = await fake.click(await res.message(), "Roll again", yann if channel in where.values() else member)
        await click.message()
        results += [res, click]
    contexts = [r.payload["context"] for r in results[::2]]
    assert contexts == [PRIVATE_CHANNEL, PRIVATE_CHANNEL, GUILD, GUILD, BOT_DM]
    owners = [r.payload["authorizing_integration_owners"] for r in results[::2]]
    alice = str(fake.members[1].id)
    assert owners[-2:] == [{"0": str(fake.guild_id), "1": alice}, {"0": "0", "1": alice}]
    for res in results:
        check("InteractionContextType", res.payload["context"])
        for kind, owner in res.payload["authorizing_integration_owners"].items():
            check("ApplicationIntegrationType", int(kind))
            check("SnowflakeType", owner)
    secret = await fake.slash(where["group"], zoe, "dice secret", options={"expression": "1d20"})
    reveal = await fake.click(await secret.message(), "Reveal", zoe)
    (revealed,) = await reveal.followups(1)
    metadata = revealed.data["interaction_metadata"]
    assert metadata["type"] == 3 and metadata["authorizing_integration_owners"] == {"1": str(zoe.id)}
    assert metadata["original_response_message_id"] == str(reveal.original.id)  # type: ignore[union-attr]
    results += [secret, reveal]
    shown = [m for r in results for m in [r.original, *r.followup_messages] if m is not None]
    messages: list[dict[str, Any]] = [fake.cdn.for_bot(m.data) for m in shown]
    for data in messages:
        # Components aside: the local Discord hands the bot's components back as sent, without the ids Discord adds.
        check("MessageResponse", data | {"components": []})
    for command in fake.global_commands:
        check("ApplicationCommandResponse", command)


async def test_a_reveal_lost_with_the_bot_is_shown_by_clicking_reveal_again(
    fake: LocalDiscord, make_bot: MakeBot
) -> None:
    """The bot stops after committing a Reveal and before its answer reaches Discord: where only a member's install
    reaches, nothing can post the reveal later, so the commitment keeps its Reveal, and clicking it shows the
    result through that click (nothing committed again)."""
    bot = await make_bot(extensions=("cogs.dice",))
    zoe, _, where = places(fake)
    channel = where["group"]
    committed = await say(fake, channel, zoe, "dice secret", expression="1d20+5", label="Sneak")
    callback = fake.hold("/callback")  # the Reveal's answer never reaches Discord
    click = await fake.click(committed, "Reveal", zoe)
    await callback.arrived()
    click.allow_no_response()
    await bot.close()
    callback.drop()
    await make_bot(extensions=("cogs.dice",))
    tried = f"/channels/{channel.id}/messages"  # the outbox tries the channel; Discord refuses the bot there
    await fake.wait_for(lambda: any(tried in r["path"] for r in fake.requests), what="the outbox trying the channel")
    assert committed.button("Reveal") and "Result: `" not in "".join(m.content for m in fake.messages(channel))
    again = await fake.click(committed, "Reveal", zoe)
    (revealed,) = await again.followups(1)
    assert not revealed.ephemeral and "Result: `" in revealed.content and ", revealed" in revealed.content
    assert again.response_type == 7 and not committed.components
