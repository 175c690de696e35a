"""Vices & Vengeance in Discord: the ``/vv`` command group.

The group is one cog made of mixins, one per way to play: ``SheetCommands`` (``/vv sheet``, a
scoresheet for people rolling physical dice) and ``TableCommands`` (``/vv new``, the table game where
the bot rolls).
"""

from __future__ import annotations

from discord.ext import commands

from bot.app import TabletopBot
from cogs.vices.sheet import SheetCommands, SheetSpec
from cogs.vices.table import TableCommands, TableSpec


class Vices(SheetCommands, TableCommands, commands.GroupCog, group_name="vv", group_description="Vices & Vengeance."):
    """``/vv …``: every Vices & Vengeance command."""

    def __init__(self, bot: TabletopBot) -> None:
        self.bot = bot
        super().__init__()


async def setup(bot: TabletopBot) -> None:
    """discord.py extension entry point: the scoresheet's and the table game's specs, then the commands."""
    bot.register(SheetSpec(bot))
    bot.register(TableSpec(bot))
    await bot.add_cog(Vices(bot))
