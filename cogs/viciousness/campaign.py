"""``/vic-gm campaign …``: start a campaign (its creator is the GM), co-GMs, hand-over, archive, export and import."""

from __future__ import annotations

import io

import discord
from discord import app_commands

from bot.errors import ChannelBusy, InvalidInput, NotPermitted
from bot.i18n import _, localize
from bot.lobby import actor_of
from bot.models import MAIN_VIEW, Session, roles_of
from bot.names import escape_name
from bot.replies import PUBLIC_ANSWER, Reply
from cogs.viciousness.common import KIND, VicBase
from cogs.viciousness.house_rules import send_panel
from cogs.viciousness.text import cut
from rules.engine import CO_GM, GM, GM_ROLES, MANAGER
from rules.viciousness.actions import Archive, Restore, SetCompany
from rules.viciousness.options import VicOptions
from rules.viciousness.transfer import CampaignImportError, export_campaign, import_campaign

EXPORT_NAME = "viciousness-campaign.json"
MAX_IMPORT_BYTES = 2_000_000


def only_the_gm(session: Session, interaction: discord.Interaction, doing: str) -> None:
    """NotPermitted unless the member is the GM (a co-GM runs the campaign, the GM decides its fate); ``doing`` is
    what was refused, already in the language being spoken."""
    if GM not in roles_of(session, actor_of(interaction)):
        raise NotPermitted(
            _(
                "Only the GM can {doing} (a server manager can take the campaign over first: "
                "`/vic-gm campaign takeover`).",
                doing=doing,
            )
        )


class CampaignCommands(VicBase):
    """``/vic-gm campaign new|show|…``."""

    async def channel_is_free(self, interaction: discord.Interaction) -> None:
        """ChannelBusy, saying which campaign, if the channel already has one (archived ones included)."""
        assert interaction.channel_id is not None
        found = await self.bot.service.campaign(interaction.channel_id, interaction.guild_id)
        if found is None:
            return
        state = self.state(found)
        name = escape_name(state.company.name) if state.company.name else _("a campaign")
        if state.archived:
            raise ChannelBusy(
                _(
                    "This channel keeps the archived campaign {name}: `/vic-gm campaign restore` brings it back. "
                    "Start another one in a thread or another channel.",
                    name=name,
                )
            )
        raise ChannelBusy(_("This channel already runs {name}: `/game status` shows it.", name=name))

    campaign = app_commands.Group(name="campaign", description="Start, run or move a campaign")

    @campaign.command(name="new", description="Start one here; you are its GM", extras=PUBLIC_ANSWER)
    @app_commands.describe(
        company="The company's name",
    )
    async def campaign_new(self, interaction: discord.Interaction, company: str | None = None) -> None:
        """A new campaign at wealth rank 2; its sheet is posted here and kept up to date."""
        reply = Reply.of(interaction)
        actor = actor_of(interaction)
        assert interaction.channel_id is not None
        await self.channel_is_free(interaction)
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
        await send_panel(self.bot, reply, session)  # the house rules, privately, while the GM sets things up

    @campaign.command(name="cogm", description="Add or remove a co-GM (GM)")
    @app_commands.describe(member="Who helps run the campaign", remove="Take the role away instead")
    async def campaign_cogm(
        self, interaction: discord.Interaction, member: discord.Member, remove: bool = False
    ) -> None:
        """Co-GMs run the campaign beside the GM: they see and edit everything."""
        reply = Reply.of(interaction)
        if member.bot:
            raise InvalidInput(_("Pick a person, not a bot."))
        done = await self.change_role(interaction, member.id, CO_GM, on=not remove)
        name = escape_name(member.display_name)
        told = _("{name} is no longer a co-GM.", name=name) if remove else _("{name} is a co-GM now.", name=name)
        await reply.send(done or told, ephemeral=True)

    @campaign.command(name="handover", description="Make someone else the GM (GM)", extras=PUBLIC_ANSWER)
    @app_commands.describe(member="The new GM (you keep no role: make yourself a co-GM after to stay)")
    async def campaign_handover(self, interaction: discord.Interaction, member: discord.Member) -> None:
        """The new GM takes over; the old one keeps no role (make them a co-GM to keep them)."""
        reply = Reply.of(interaction)
        if member.bot:
            raise InvalidInput(_("Pick a person, not a bot."))
        done = await self.change_role(interaction, member.id, GM, origin=reply)
        if not reply.took_news:  # the channel is told by the change's news
            mention = f"<@{member.id}>"
            told = _("{member} is the GM of this campaign now.", member=mention)
            await reply.send(done or told, ephemeral=True)

    @campaign.command(name="takeover", description="Take over a campaign whose GM is gone (Manage Server)")
    @app_commands.describe(role="GM (the old GM stays as co-GM), or co-GM beside the GM")
    @app_commands.choices(
        role=[app_commands.Choice(name="GM", value=GM), app_commands.Choice(name="co-GM", value=CO_GM)]
    )
    async def campaign_takeover(self, interaction: discord.Interaction, role: str = GM) -> None:
        """Never silent: the channel sees it, the GM is told privately, and it is in the log."""
        reply = Reply.of(interaction)
        actor = actor_of(interaction)
        if not actor.manager:
            raise NotPermitted(_("Only members with Manage Server can take a campaign over."))
        session = await self.campaign_here(interaction)
        if role in roles_of(session, actor) or GM in roles_of(session, actor):
            raise InvalidInput(_("You run this campaign already."))
        await self.change_role(interaction, actor.user_id, role)
        await reply.send(_("You run this campaign now. Its GM was told, and so was the channel."), ephemeral=True)

    async def change_role(
        self, interaction: discord.Interaction, user_id: int, role: str, *, on: bool = True, origin: Reply | None = None
    ) -> str:
        """Give (or take) a role, logged by the core and told in the channel (each change's news; with ``origin``,
        the first one answers it). A server manager who is not the GM doing it is never silent: the GM is told
        privately too (a GM replaced keeps a co-GM's role). Returns what the member who did it is answered ("" for
        the command's own answer)."""
        session = await self.campaign_here(interaction)
        actor = actor_of(interaction)
        held = roles_of(session, actor)
        taking_over = MANAGER in held and GM not in held
        # A GM replaced by a manager stays on as co-GM (the GM who vanished can come back to the table), in the same
        # change: a refusal changes nothing.
        keeps = CO_GM if taking_over and role == GM else None
        await self.bot.service.set_role(session.id, actor, user_id, role, on=on, old_gm_keeps=keeps, origin=origin)
        if not taking_over:
            return ""
        # The GMs are told by direct message with the change's news (``news.gm_news``).
        return _("Done: the channel and the GM were told.") if user_id != actor.user_id else ""

    @campaign.command(
        name="archive", description="Put it away: still readable, restored any time", extras=PUBLIC_ANSWER
    )
    async def campaign_archive(self, interaction: discord.Interaction) -> None:
        """Nothing changes until the GM restores it; its sheets, log and export stay."""
        session = await self.campaign_here(interaction)
        only_the_gm(session, interaction, _("archive the campaign"))
        await self.act_and_tell(interaction, Archive(), session=session)

    @campaign.command(name="restore", description="Bring the archived campaign back", extras=PUBLIC_ANSWER)
    async def campaign_restore(self, interaction: discord.Interaction) -> None:
        """Play goes on where it stopped."""
        session = await self.campaign_here(interaction)
        only_the_gm(session, interaction, _("restore the campaign"))
        await self.act_and_tell(interaction, Restore(), session=session)

    @campaign.command(name="export", description="The campaign as a file")
    async def campaign_export(self, interaction: discord.Interaction) -> None:
        """A file to keep as a backup or to import in another channel; it holds the GM's secrets."""
        reply = Reply.of(interaction)
        session = await self.campaign_here(interaction)
        if not roles_of(session, actor_of(interaction)) & GM_ROLES:
            raise NotPermitted(_("Only the GM can export the campaign (it holds the GM's secrets)."))
        data = export_campaign(self.state(session)).encode()
        file = discord.File(io.BytesIO(data), filename=EXPORT_NAME)
        await reply.send(_("The campaign as a file (keep it private: it holds your notes and rivals)."), file=file)

    @campaign.command(name="import", description="Start one from an export", extras=PUBLIC_ANSWER)
    @app_commands.describe(
        file="A file from /vic-gm campaign export",
    )
    async def campaign_import(self, interaction: discord.Interaction, file: discord.Attachment) -> None:
        """The file is checked before anything is made; you are the GM of the imported campaign."""
        reply = Reply.of(interaction)
        if file.size > MAX_IMPORT_BYTES:
            raise InvalidInput(_("That file is too big for a campaign ({size} KB).", size=file.size // 1024))
        try:
            state = import_campaign(await file.read())
        except CampaignImportError as exc:
            raise InvalidInput(cut(exc.said_by(localize), 1900)) from None
        actor = actor_of(interaction)
        assert interaction.channel_id is not None
        await self.channel_is_free(interaction)
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
