"""``/dice odds``: the exact distribution of what ``/roll`` would roll (``rules/roll/odds.py``), worked out in the
roll worker's processes (a heavy one takes up to ~0.2 s of CPU, which must not hold the event loop)."""

from __future__ import annotations

import functools
from typing import Any

import discord
from discord import app_commands

from bot.errors import UserError
from bot.i18n import _, current, in_language, localize
from bot.names import escape_name
from bot.replies import Reply
from bot.roll_worker import RollerBusy
from cogs.dice.roll import dice_cog
from cogs.dice.saved import expand_saved
from cogs.dice.speech import refusal
from rules.odds import TooCostly
from rules.roll import RollError, split_rolls
from rules.roll.limits import DEFAULT_LIMITS
from rules.roll.odds import odds_table
from rules.said import said


@app_commands.command(name="odds", description="Exact odds of a roll: every total's chance, the mean, at least / most.")
@app_commands.describe(
    expression="Dice notation or a saved roll, e.g. 4d6kh3, 8d10 t7 f1, 1d20+5 >= 15",
    at_least="Also give the chance of at least this",
    at_most="Also give the chance of at most this",
)
async def odds(
    interaction: discord.Interaction,
    expression: app_commands.Range[str, 1, DEFAULT_LIMITS.max_chars],
    at_least: int | None = None,
    at_most: int | None = None,
) -> None:
    """Post the distribution privately (it's a question, not a roll)."""
    try:
        text = await expand_saved(interaction, expression)
        if len(split_rolls(text)) > 1:
            raise RollError(said("Odds are worked out for one roll at a time: ask for each roll of `;` on its own."))
        # Worked out in another process, which is told the language: the table comes back said in it.
        work = functools.partial(odds_table, text, at_least, at_most, say=localize)
        shown, table = await dice_cog(interaction).worker.compute(in_language, current(), work)
    except RollerBusy as busy:
        raise UserError(f"⏳ {localize(busy.message)}") from None
    except TooCostly as reason:
        why = localize(reason.args[0]) if reason.args else ""
        raise UserError(_("⚠️ Those odds would take too long to work out exactly: {reason}.", reason=why)) from None
    except RollError as error:
        raise UserError(refusal(error)) from None
    heading = _("🎯 Exact odds of `{roll}`", roll=escape_name(shown))
    await Reply.of(interaction, private=True).send(f"{heading}\n{table}", ephemeral=True)


COMMANDS: tuple[app_commands.Command[Any, Any, None], ...] = (odds,)
