"""``/vic campaign …``: start a campaign (its creator is the GM), co-GMs, hand-over, archive, export and import."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.lobby import actor_of
from bot.models import MAIN_VIEW
from bot.replies import Reply
from cogs.viciousness.common import KIND, PUBLIC_REPLY, VicBase
from rules.engine import GM
from rules.viciousness.actions import SetCompany
from rules.viciousness.options import VicOptions


class CampaignCommands(VicBase):
    """``/vic campaign new|show|…``."""

    campaign = app_commands.Group(name="campaign", description="Start, run, archive or move a campaign.")

    @campaign.command(name="new", description="Start a campaign in this channel; you are its GM.", extras=PUBLIC_REPLY)
    @app_commands.describe(company="The company's name (you can set it later)")
    async def campaign_new(self, interaction: discord.Interaction, company: str | None = None) -> None:
        """A new campaign at wealth rank 2; its sheet is posted here and kept up to date."""
        reply = Reply.of(interaction)
        actor = actor_of(interaction)
        assert interaction.channel_id is not None
        applied = await self.bot.service.create(
            KIND,
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id,
            host=actor,
            options=VicOptions(),
            roles={str(actor.user_id): [GM]},
        )
        session = applied.session
        if company:
            session = (await self.act(interaction, SetCompany(name=company[:80]), session)).session
        await self.bot.publisher.post_view(session, MAIN_VIEW, reply)
