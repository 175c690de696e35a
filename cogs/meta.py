"""Commands about the bot itself: /ping and /help."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import _
from bot.replies import Reply


class Meta(commands.Cog):
    """The bot's own commands."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="ping", description="Check that the bot is awake.")
    async def ping(self, interaction: discord.Interaction) -> None:
        """Answer at once; the cheapest possible round trip (also the benchmark baseline)."""
        await Reply.of(interaction, private=True).send(_("Pong!"))


async def setup(bot: commands.Bot) -> None:
    """discord.py extension entry point."""
    await bot.add_cog(Meta(bot))
