"""Vices & Vengeance in Discord: the ``/vv`` command group.

The group is one cog made of mixins, one per way to play: ``SheetCommands`` (``/vv sheet``, a
scoresheet for people rolling physical dice) here.
"""

from __future__ import annotations

from discord.ext import commands

from bot.app import TabletopBot
from cogs.vices.sheet import SheetCommands, SheetSpec


class Vices(SheetCommands, commands.GroupCog, group_name="vv", group_description="Vices & Vengeance."):
    """``/vv …``: every Vices & Vengeance command."""

    def __init__(self, bot: TabletopBot) -> None:
        self.bot = bot
        super().__init__()


async def setup(bot: TabletopBot) -> None:
    """discord.py extension entry point: the scoresheet's spec, then the commands."""
    bot.register(SheetSpec(bot))
    await bot.add_cog(Vices(bot))
