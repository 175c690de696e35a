"""Who may do what around ``/roll``: the bot and store of an interaction, managers, and a channel's campaign GMs."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot.models import Scope
from bot.roll_worker import RollWorker
from bot.storage import Store
from rules.engine import GM_ROLES

if TYPE_CHECKING:
    from bot.app import TabletopBot

NO_MENTIONS = discord.AllowedMentions.none()


def bot_of(interaction: discord.Interaction) -> TabletopBot:
    """The bot answering ``interaction``."""
    from bot.app import TabletopBot

    client = interaction.client
    assert isinstance(client, TabletopBot)
    return client


def dice_worker(interaction: discord.Interaction) -> RollWorker:
    """The roll worker of the cog that rolls (its processes, and its dice)."""
    worker = getattr(bot_of(interaction).get_cog("Dice"), "worker", None)
    assert isinstance(worker, RollWorker)
    return worker


def store_of(interaction: discord.Interaction) -> Store:
    """The bot's storage."""
    return bot_of(interaction).store


def now(interaction: discord.Interaction) -> float:
    """The bot's clock (injectable in tests)."""
    return bot_of(interaction).service.clock.now()


def is_manager(interaction: discord.Interaction) -> bool:
    """Holds Manage Server where the interaction happens (never in a DM)."""
    perms = interaction.permissions
    return interaction.guild_id is not None and bool(perms.manage_guild or perms.administrator)


async def channel_gms(interaction: discord.Interaction) -> frozenset[int]:
    """The GM and co-GMs of the channel's campaign, if it has one."""
    if interaction.channel_id is None:
        return frozenset()
    campaign = await store_of(interaction).live_session(interaction.channel_id, Scope.CAMPAIGN)
    if campaign is None:
        return frozenset()
    return frozenset(int(user) for user, roles in campaign.roles.items() if set(roles) & GM_ROLES)


def channel_id_of(interaction: discord.Interaction) -> int:
    """The channel (or DM) the interaction came from."""
    assert interaction.channel_id is not None
    return interaction.channel_id
