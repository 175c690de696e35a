"""Viciousness campaigns end to end through the local Discord: starting one, roles, archive, export and import."""

from __future__ import annotations

import asyncio

from localdiscord.server import LocalDiscord
from tests.conftest import MakeBot
from tests.core.clock import FakeClock
from tests.vic_e2e_support import EXTENSIONS, campaign_state, vic_bot


async def test_a_new_campaign_posts_the_company_sheet(fake: LocalDiscord, make_bot: MakeBot) -> None:
    bot = await vic_bot(make_bot)
    channel, gm = fake.channels[0], fake.members[0]
    new = await fake.slash(channel, gm, "vic-gm campaign new", options={"company": "The Gilded Knives"})
    sheet = await new.message()
    assert not sheet.ephemeral
    assert "The Gilded Knives" in str(sheet.embeds) and "Rank **2**" in str(sheet.embeds)
    state = await campaign_state(bot, channel)
    assert state.company.name == "The Gilded Knives" and state.company.rank == 2
    again = await (await fake.slash(channel, gm, "vic-gm campaign new")).message()
    assert again.ephemeral and "already" in again.content


async def test_roles_archive_export_and_import(fake: LocalDiscord, make_bot: MakeBot) -> None:
    bot = await vic_bot(make_bot)
    channel, other = fake.channels[0], fake.channels[1]
    gm, bob, carol = fake.members[0], fake.members[1], fake.members[2]
    sheet = await (await fake.slash(channel, gm, "vic-gm campaign new", options={"company": "Knives"})).message()
    assert f"GM <@{gm.id}>" in str(sheet.embeds)
    refused = await (await fake.slash(channel, bob, "vic-gm campaign export")).message()
    assert refused.ephemeral and "Only the GM" in refused.content
    refused = await (await fake.slash(channel, bob, "vic-gm campaign cogm", options={"member": carol})).message()
    assert refused.ephemeral and "Only the GM" in refused.content
    await (await fake.slash(channel, gm, "vic-gm campaign cogm", options={"member": carol})).message()
    exported = await (await fake.slash(channel, carol, "vic-gm campaign export")).message()
    assert exported.ephemeral and exported.attachments
    data = fake.attachment_bytes(exported.attachments[0])
    handed = await (await fake.slash(channel, gm, "vic-gm campaign handover", options={"member": bob})).message()
    assert not handed.ephemeral and f"<@{bob.id}>" in handed.content
    runners = f"GM <@{bob.id}> · co-GMs <@{carol.id}>"
    await fake.wait_for(lambda: runners in str(sheet.embeds), what="the sheet to show who runs the campaign")
    refused = await (await fake.slash(channel, carol, "vic-gm campaign archive")).message()
    assert refused.ephemeral and "Only the GM" in refused.content  # a co-GM runs it, the GM ends it
    before = await campaign_state(bot, channel)
    await (await fake.slash(channel, bob, "vic-gm campaign archive")).message()
    assert (await campaign_state(bot, channel)).archived
    bad = await fake.slash(other, bob, "vic-gm campaign import", options={"file": ("x.json", b'{"format": "other"}')})
    assert "isn't a campaign file" in (await bad.message()).content
    broken = data.replace(b'"ip": 15', b'"ip": -3')
    bad = await fake.slash(other, bob, "vic-gm campaign import", options={"file": ("x.json", broken)})
    assert "company.ip" in (await bad.message()).content
    sheet = await (await fake.slash(other, bob, "vic-gm campaign import", options={"file": ("c.json", data)})).message()
    assert not sheet.ephemeral and "Knives" in str(sheet.embeds)
    assert await campaign_state(bot, other) == before


async def test_a_commands_answer_goes_before_the_sheets_redraw(fake: LocalDiscord, make_bot: MakeBot) -> None:
    """The answer to /vic-gm reward is sent first; the company sheet is edited only once it is on its way."""
    bot = await vic_bot(make_bot)
    channel, gm = fake.channels[0], fake.members[0]
    sheet = await (await fake.slash(channel, gm, "vic-gm campaign new")).message()
    await bot.settled()
    edits = sheet.edits
    callback = fake.hold("/callback")
    res = await fake.slash(channel, gm, "vic-gm reward", options={"method": "rare", "npc_rank": 3})
    await callback.arrived()
    await asyncio.sleep(0.2)  # what would the publisher do meanwhile? nothing: it waits for the answer
    assert sheet.edits == edits
    callback.release()
    assert "3 coins of rank 2" in (await res.message()).content
    await fake.wait_for(lambda: "Liquid: 3 of rank 2" in str(sheet.embeds), what="the sheet redrawn after")


async def test_a_campaign_and_a_table_game_share_a_channel(fake: LocalDiscord, make_bot: MakeBot) -> None:
    bot = await make_bot(extensions=(*EXTENSIONS, "tests.testgame.cog"), clock=FakeClock())
    channel, gm, bob = fake.channels[0], fake.members[0], fake.members[1]
    await (await fake.slash(channel, gm, "vic-gm campaign new")).message()
    lobby = await (await fake.slash(channel, bob, "race new")).message()
    await (await fake.click(lobby, "Join", gm)).message()
    await (await fake.click(lobby, "Start", bob)).message()
    reward = await (await fake.slash(channel, gm, "vic-gm reward", options={"method": "rare", "npc_rank": 2})).message()
    assert "2 coins of rank 2" in reward.content
    table = await bot.service.live_table(channel.id)
    assert table is not None and table.kind == "race"
    assert (await campaign_state(bot, channel)).company.liquid_at(2) == 2
