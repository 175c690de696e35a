"""``/roll``: dice notation rolls with a "Roll again" button that still works after a restart."""

from __future__ import annotations

import asyncio
import dataclasses
import re
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.board import static_view
from bot.names import escape_name
from bot.replies import Reply
from bot.roll_worker import RollerBusy, RollWorker
from rules.roll import RollError, RollResult, render
from rules.roll.limits import DEFAULT_LIMITS

CUSTOM_ID_LIMIT = 100
LABEL_MAX_CHARS = 100
NO_MENTIONS = discord.AllowedMentions.none()


class RollAgain(discord.ui.DynamicItem[discord.ui.Button], template=r"(?s)roll:(?P<private>[01]):(?P<expression>.+)"):
    """A button that re-rolls the expression carried in its own custom_id, so it needs no storage."""

    def __init__(self, expression: str, *, private: bool) -> None:
        super().__init__(
            discord.ui.Button(
                label="Roll again",
                emoji="🎲",
                style=discord.ButtonStyle.secondary,
                custom_id=self.custom_id_for(expression, private=private),
            )
        )
        self.expression = expression
        self.private = private

    @staticmethod
    def custom_id_for(expression: str, *, private: bool) -> str:
        """The custom_id carrying ``expression``; may be longer than Discord allows (callers check)."""
        return f"roll:{int(private)}:{expression}"

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> RollAgain:
        """Rebuild the button from a click, even one on a message sent before a restart."""
        return cls(match["expression"], private=match["private"] == "1")

    async def callback(self, interaction: discord.Interaction) -> None:
        """Roll the same thing again as a new message, for whoever clicked."""
        client = interaction.client
        assert isinstance(client, commands.Bot)
        cog = client.get_cog(Dice.__cog_name__)
        assert isinstance(cog, Dice)
        await cog.roll_and_reply(interaction, self.expression, private=self.private, label=None)


class Dice(commands.Cog):
    """General-purpose dice rolling."""

    def __init__(self, bot: commands.Bot, worker: RollWorker | None = None) -> None:
        self.bot = bot
        self.worker = worker or RollWorker()

    async def cog_load(self) -> None:
        self.worker.warm_up()

    async def cog_unload(self) -> None:
        await asyncio.to_thread(self.worker.close)

    @app_commands.command(name="roll", description="Roll dice, e.g. 1d20+5, 4d6kh3, 6x 4d6kh3, 6d10 t7 f1, adv.")
    @app_commands.describe(
        expression="Dice notation, e.g. 2d6+3 or 1d20+5 adv # Stealth",
        private="Only you see the result.",
        label="What the roll is for, e.g. Stealth.",
    )
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    @app_commands.allowed_installs(guilds=True, users=True)
    async def roll(
        self,
        interaction: discord.Interaction,
        expression: app_commands.Range[str, 1, DEFAULT_LIMITS.max_chars],
        private: bool = False,
        label: app_commands.Range[str, 1, LABEL_MAX_CHARS] | None = None,
    ) -> None:
        """Roll the expression and post every die and the total."""
        await self.roll_and_reply(interaction, expression, private=private, label=label)

    async def roll_and_reply(
        self, interaction: discord.Interaction, expression: str, *, private: bool, label: str | None
    ) -> None:
        """Shared by the command and the button: roll, then answer with the result or a private error."""
        reply = Reply.of(interaction, private=private)
        try:
            result = await self.worker.roll(expression)
        except RollerBusy as busy:
            await reply.refuse(f"⏳ {busy}")  # not the user's mistake: no warning sign
            return
        except RollError as error:
            await reply.refuse(f"⚠️ {error}")
            return
        if label:
            result = dataclasses.replace(result, label=label.strip() or None)
        header = f"🎲 **{escape_name(interaction.user.display_name)}** rolled"
        body = render(result, escape=escape_name, limit=2000 - len(header) - 1)
        view = roll_again_view(result, private=private)
        await reply.send(
            f"{header}\n{body}",
            ephemeral=private,
            allowed_mentions=NO_MENTIONS,
            view=discord.utils.MISSING if view is None else view,
        )


def roll_again_view(result: RollResult, *, private: bool) -> discord.ui.View | None:
    """A view with the Roll again button, or None when the expression can't travel in a custom_id."""
    # The expression travels in the custom_id (100 chars at most). Keep the label if it fits, drop it
    # if only the dice fit, and leave the button off when even the dice don't: a longer roll is rare
    # and a database row per message for it would outlive the message.
    candidates = [result.expression]
    if result.label:
        candidates.insert(0, f"{result.expression} # {result.label}")
    for candidate in candidates:
        if len(RollAgain.custom_id_for(candidate, private=private)) <= CUSTOM_ID_LIMIT:
            return static_view([[RollAgain(candidate, private=private)]])
    return None


async def setup(bot: commands.Bot) -> None:
    """discord.py extension entry point."""
    bot.add_dynamic_items(RollAgain)
    await bot.add_cog(Dice(bot))


async def teardown(bot: commands.Bot) -> None:
    """Forget the button type when the extension is unloaded."""
    bot.remove_dynamic_items(RollAgain)
