"""What every ``/vic`` mixin shares: finding the channel's campaign, taking an action, answering with what happened.

A mixin is a plain class at run time (``_Mixin``); the ``/vic`` group cog in ``__init__.py`` inherits
them all, so each area of the game (campaign, company, troupes, …) keeps its commands in its own module.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import discord
from discord.ext import commands
from pydantic import BaseModel

from bot.errors import NoSession
from bot.lobby import actor_of
from bot.models import Applied, Session, roles_of
from bot.replies import Reply
from cogs.viciousness.narrate import narrate
from rules.engine import PUBLIC, Viewer, visible
from rules.viciousness.state import CampaignState

if TYPE_CHECKING:
    from bot.app import TabletopBot

    _Mixin = commands.Cog  # app_commands types a command's ``self`` as a cog
else:
    _Mixin = object

KIND = "viciousness"
PUBLIC_REPLY = {"private": False}
"""``extras`` of a command whose answer the channel sees."""
NO_CAMPAIGN = "There is no Viciousness campaign in this channel: start one with `/vic campaign new`."


def viewer_of(session: Session, interaction: discord.Interaction) -> Viewer:
    """The viewer a private reply is drawn for: the member with their roles in the campaign."""
    return Viewer(str(interaction.user.id), roles_of(session, actor_of(interaction)))


class VicBase(_Mixin):
    """Helpers of every ``/vic`` mixin."""

    bot: TabletopBot

    async def campaign_here(self, interaction: discord.Interaction) -> Session:
        """The channel's live campaign; NoSession with how to start one if there is none."""
        assert interaction.channel_id is not None
        found = await self.bot.service.campaign(interaction.channel_id, interaction.guild_id)
        if found is None or found.kind != KIND:
            raise NoSession(NO_CAMPAIGN)
        return found

    def state(self, session: Session) -> CampaignState:
        """The campaign's state (cached by the service per version)."""
        state = self.bot.service.state_of(session)
        assert isinstance(state, CampaignState)
        return state

    async def act(
        self, interaction: discord.Interaction, action: BaseModel | Mapping[str, Any], session: Session | None = None
    ) -> Applied:
        """Take one engine action for the member who sent ``interaction``, on the channel's campaign."""
        session = session or await self.campaign_here(interaction)
        return await self.bot.service.act(session.id, actor_of(interaction), action)

    async def act_and_tell(
        self,
        interaction: discord.Interaction,
        action: BaseModel | Mapping[str, Any],
        *,
        done: str = "Done.",
        session: Session | None = None,
    ) -> Applied:
        """Take an action and answer with what happened (as the channel may read it), or ``done``."""
        reply = Reply.of(interaction)
        applied = await self.act(interaction, action, session)
        lines = narrate(self.state(applied.session), [e for e in applied.events if visible(e, PUBLIC)])
        await reply.send("\n".join(lines)[:2000] or done)
        return applied
