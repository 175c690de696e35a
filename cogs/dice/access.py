"""Who may do what around ``/roll``: the bot and store of an interaction, managers, and a channel's campaign GMs."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.i18n import _
from bot.models import Scope
from bot.roll_worker import RollWorker
from bot.storage import Store
from rules.engine import GM_ROLES

if TYPE_CHECKING:
    from bot.app import TabletopBot

NO_MENTIONS = discord.AllowedMentions.none()
EVERYWHERE = app_commands.AppCommandContext(guild=True, dm_channel=True, private_channel=True)
"""A group's ``allowed_contexts``: servers, the bot's DM, and DMs and group DMs between members."""
INSTALLABLE_BY_ANYONE = app_commands.AppInstallationType(guild=True, user=True)
"""A group's ``allowed_installs``: with the bot in a server, and in a member's own install of the app."""


def bot_of(interaction: discord.Interaction) -> TabletopBot:
    """The bot answering ``interaction``."""
    from bot.app import TabletopBot

    client = interaction.client
    assert isinstance(client, TabletopBot)
    return client


async def speak_to_clicker(interaction: discord.Interaction) -> None:
    """Answer a click on one of these buttons in the clicker's language: discord.py runs a DynamicItem in a task of
    its own, which the core's per-interaction language (``bot.app.speak_to``) doesn't reach."""
    from bot.app import speak_to

    await speak_to(interaction)


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


def bot_is_here(interaction: discord.Interaction) -> bool:
    """Whether the bot itself is where the interaction happens (it may read and post there): its own DM, or a
    server that added it. Elsewhere (a server without the bot, a DM or group DM between members) only the member's
    install of the app reaches, and the bot answers through the interaction alone."""
    if interaction.guild_id is None:
        return interaction.context.dm_channel
    return interaction.is_guild_integration() or bot_of(interaction).get_guild(interaction.guild_id) is not None


def not_here(interaction: discord.Interaction, what: str) -> str:
    """Why ``what`` (said already: "A board of this channel's saved rolls") can't be done where the bot isn't,
    said plainly."""
    if interaction.guild_id is not None:
        return _(
            "{what} needs the bot in this server: here only your own install of the app answers you. "
            "Your own rolls, boards and luck work everywhere.",
            what=what,
        )
    return _(
        "{what} needs the bot in this conversation: here only your own install of the app answers you. "
        "Your own rolls, boards and luck work everywhere.",
        what=what,
    )


def channel_id_of(interaction: discord.Interaction) -> int:
    """The channel (or DM) the interaction came from."""
    assert interaction.channel_id is not None
    return interaction.channel_id
