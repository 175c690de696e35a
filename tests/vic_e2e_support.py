"""Helpers of the Viciousness campaign tests through the local Discord."""

from __future__ import annotations

from bot.app import TabletopBot
from bot.models import Scope
from rules.viciousness.state import CampaignState
from tests.conftest import MakeBot
from tests.core.clock import FakeClock
from tests.fakediscord.guild import Channel

EXTENSIONS = ("cogs.meta", "cogs.game", "cogs.viciousness")


async def vic_bot(make_bot: MakeBot, **options: object) -> TabletopBot:
    """A bot with the campaign's commands (and /game), on a fake clock."""
    return await make_bot(extensions=EXTENSIONS, clock=FakeClock(), **options)


async def campaign_state(bot: TabletopBot, channel: Channel) -> CampaignState:
    """The channel's campaign as stored, once nothing is being changed or drawn."""
    await bot.settled()
    session = await bot.store.live_session(channel.id, Scope.CAMPAIGN)
    assert session is not None and session.state is not None
    return CampaignState.model_validate(session.state)
