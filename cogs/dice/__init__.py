"""Everything around ``/roll``: the roll itself (``roll``), saved rolls (``saved``), dice boards (``boards``),
secret rolls anyone can verify (``secret``), exact odds (``odds``) and luck statistics (``stats``).

``/roll`` stays one command (Discord can't run a command that has subcommands), so the rest is the ``/dice``
group and ``/stats``. Every button is a DynamicItem routed by its custom_id: they work after a restart.
"""

from __future__ import annotations

from discord import app_commands
from discord.ext import commands

from bot.storage.dice import BOARD_DRAWING, SECRET_DRAWING
from bot.storage.pushes import PUSH_DRAWING
from cogs.dice import boards, odds, presets, push, saved, secret
from cogs.dice.access import EVERYWHERE, INSTALLABLE_BY_ANYONE
from cogs.dice.roll import CUSTOM_ID_LIMIT, Dice, RollAgain, roll_again_view
from cogs.dice.stats import stats_cog

DYNAMIC_ITEMS: tuple[type, ...] = (RollAgain, boards.BoardButtonItem, secret.SecretButton, push.PushButton)


def dice_group() -> app_commands.Group:
    """``/dice …``: saved rolls, boards, secret rolls, odds, game-system presets."""
    group = app_commands.Group(
        name="dice",
        description="Saved rolls, dice boards, secret rolls and exact odds",
        allowed_contexts=EVERYWHERE,
        allowed_installs=INSTALLABLE_BY_ANYONE,
    )
    for command in (*saved.COMMANDS, *boards.COMMANDS, *secret.COMMANDS, *odds.COMMANDS, *presets.COMMANDS):
        group.add_command(command)
    return group


async def setup(bot: commands.Bot) -> None:
    """discord.py extension entry point."""
    from bot.app import TabletopBot

    assert isinstance(bot, TabletopBot)
    bot.outbox.drawer(SECRET_DRAWING, secret.CommitmentDrawer(bot.store))
    bot.outbox.drawer(BOARD_DRAWING, boards.BoardDrawer(bot.store))
    bot.outbox.drawer(PUSH_DRAWING, push.PushDrawer(bot.store))
    bot.add_dynamic_items(*DYNAMIC_ITEMS)
    bot.tree.add_command(dice_group())
    await bot.add_cog(Dice(bot))
    await bot.add_cog(stats_cog(bot))


async def teardown(bot: commands.Bot) -> None:
    """Forget the commands and button types when the extension is unloaded."""
    bot.tree.remove_command("dice")
    bot.remove_dynamic_items(*DYNAMIC_ITEMS)


__all__ = ["CUSTOM_ID_LIMIT", "Dice", "RollAgain", "roll_again_view"]
