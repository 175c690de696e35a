"""Viciousness campaigns end to end through the local Discord: starting one, roles, archive, export and import."""

from __future__ import annotations

from tests.conftest import MakeBot
from tests.fakediscord.server import FakeDiscord
from tests.vic_e2e_support import campaign_state, vic_bot


async def test_a_new_campaign_posts_the_company_sheet(fake: FakeDiscord, make_bot: MakeBot) -> None:
    bot = await vic_bot(make_bot)
    channel, gm = fake.channels[0], fake.members[0]
    new = await fake.slash(channel, gm, "vic campaign new", options={"company": "The Gilded Knives"})
    sheet = await new.message()
    assert not sheet.ephemeral
    assert "The Gilded Knives" in str(sheet.embeds) and "Rank **2**" in str(sheet.embeds)
    state = await campaign_state(bot, channel)
    assert state.company.name == "The Gilded Knives" and state.company.rank == 2
    again = await (await fake.slash(channel, gm, "vic campaign new")).message()
    assert again.ephemeral and "already" in again.content
