"""``/vic campaign …``: start a campaign (its creator is the GM), co-GMs, hand-over, archive, export and import."""

from __future__ import annotations

import io

import discord
from discord import app_commands

from bot.errors import InvalidInput, NotPermitted
from bot.lobby import actor_of
from bot.models import MAIN_VIEW, roles_of
from bot.names import escape_name
from bot.replies import Reply
from cogs.viciousness.common import KIND, PUBLIC_REPLY, VicBase
from cogs.viciousness.text import cut
from rules.engine import CO_GM, GM, GM_ROLES, MANAGER
from rules.viciousness.actions import SetCompany
from rules.viciousness.options import VicOptions
from rules.viciousness.transfer import CampaignImportError, export_campaign, import_campaign

EXPORT_NAME = "viciousness-campaign.json"
MAX_IMPORT_BYTES = 2_000_000


class CampaignCommands(VicBase):
    """``/vic campaign new|show|…``."""

    campaign = app_commands.Group(name="campaign", description="Start, run or move a campaign")

    @campaign.command(name="new", description="Start one here; you are its GM", extras=PUBLIC_REPLY)
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

    @campaign.command(name="cogm", description="Add or remove a co-GM")
    async def campaign_cogm(
        self, interaction: discord.Interaction, member: discord.Member, remove: bool = False
    ) -> None:
        """Co-GMs run the campaign beside the GM: they see and edit everything."""
        reply = Reply.of(interaction)
        session = await self.campaign_here(interaction)
        if member.bot:
            raise InvalidInput("Pick a person, not a bot.")
        await self.bot.service.set_role(session.id, actor_of(interaction), member.id, CO_GM, on=not remove)
        name = escape_name(member.display_name)
        await reply.send(f"{name} is no longer a co-GM." if remove else f"{name} is a co-GM now.")

    @campaign.command(name="handover", description="Make someone else the GM", extras=PUBLIC_REPLY)
    async def campaign_handover(self, interaction: discord.Interaction, member: discord.Member) -> None:
        """The new GM takes over; the old one keeps no role (make them a co-GM to keep them)."""
        reply = Reply.of(interaction)
        session = await self.campaign_here(interaction)
        if member.bot:
            raise InvalidInput("Pick a person, not a bot.")
        await self.bot.service.set_role(session.id, actor_of(interaction), member.id, GM)
        await reply.send(f"<@{member.id}> is the GM of this campaign now.")

    @campaign.command(name="archive", description="End it here (export first)", extras=PUBLIC_REPLY)
    async def campaign_archive(self, interaction: discord.Interaction) -> None:
        """The campaign stops in this channel; export it first to play it on elsewhere."""
        reply = Reply.of(interaction)
        session = await self.campaign_here(interaction)
        actor = actor_of(interaction)
        if not roles_of(session, actor) & {GM, MANAGER}:
            raise NotPermitted("Only the GM can archive the campaign.")
        await self.bot.service.end(session.id, actor=actor, why=f"{escape_name(actor.name)} archived the campaign.")
        await reply.send("The campaign is archived. Its log stays; `/vic campaign import` brings an export back.")

    @campaign.command(name="export", description="The campaign as a file")
    async def campaign_export(self, interaction: discord.Interaction) -> None:
        """A file to keep as a backup or to import in another channel; it holds the GM's secrets."""
        reply = Reply.of(interaction)
        session = await self.campaign_here(interaction)
        if not roles_of(session, actor_of(interaction)) & GM_ROLES:
            raise NotPermitted("Only the GM can export the campaign (it holds the GM's secrets).")
        data = export_campaign(self.state(session)).encode()
        file = discord.File(io.BytesIO(data), filename=EXPORT_NAME)
        await reply.send("The campaign as a file (keep it private: it holds your notes and rivals).", file=file)

    @campaign.command(name="import", description="Start one from an export", extras=PUBLIC_REPLY)
    async def campaign_import(self, interaction: discord.Interaction, file: discord.Attachment) -> None:
        """The file is checked before anything is made; you are the GM of the imported campaign."""
        reply = Reply.of(interaction)
        if file.size > MAX_IMPORT_BYTES:
            raise InvalidInput(f"That file is too big for a campaign ({file.size // 1024} KB).")
        try:
            state = import_campaign(await file.read())
        except CampaignImportError as exc:
            raise InvalidInput(cut(str(exc), 1900)) from None
        actor = actor_of(interaction)
        assert interaction.channel_id is not None
        applied = await self.bot.service.create(
            KIND,
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id,
            host=actor,
            options=state.options,
            roles={str(actor.user_id): [GM]},
            imported=state,
        )
        await self.bot.publisher.post_view(applied.session, MAIN_VIEW, reply)
