"""``/init``: an initiative tracker for any RPG, kept per channel beside whatever is played there."""

from __future__ import annotations

from discord.ext import commands

from cogs.initiative.commands import InitiativeCog


async def setup(bot: commands.Bot) -> None:
    """discord.py extension entry point."""
    from bot.app import TabletopBot

    assert isinstance(bot, TabletopBot)
    await bot.add_cog(InitiativeCog(bot))
