"""``/roll``: dice notation rolls (or a saved roll's name, with arguments), with a "Roll again" button that still
works after a restart; every roll counts in its roller's luck statistics."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import re
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.board import static_view
from bot.i18n import _, localize
from bot.names import escape_name
from bot.replies import PUBLIC_ANSWER, Reply
from bot.roll_worker import RollerBusy, RollWorker
from bot.storage.luck import ROLL_KIND, Where, tally
from cogs.dice.access import NO_MENTIONS, bot_of, now, speak_to_clicker, store_of
from cogs.dice.push import can_push, post_pushable
from cogs.dice.saved import expand_saved, saved_choices
from cogs.dice.speech import refusal
from rules.roll import RollError, RollResult, faces_rolled, render, split_rolls
from rules.roll.limits import DEFAULT_LIMITS

log = logging.getLogger(__name__)

CUSTOM_ID_LIMIT = 100
LABEL_MAX_CHARS = 100
MESSAGE_LIMIT = 2000


class RollAgain(discord.ui.DynamicItem[discord.ui.Button], template=r"(?s)roll:(?P<private>[01]):(?P<expression>.+)"):
    """A button that re-rolls the expression carried in its own custom_id, so it needs no storage."""

    def __init__(self, expression: str, *, private: bool) -> None:
        super().__init__(
            discord.ui.Button(
                label=_("Roll again"),
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
        await speak_to_clicker(interaction)
        await dice_cog(interaction).roll_and_reply(interaction, self.expression, private=self.private, label=None)


def dice_cog(interaction: discord.Interaction) -> Dice:
    """The cog that rolls (it owns the worker processes)."""
    cog = bot_of(interaction).get_cog(Dice.__cog_name__)
    assert isinstance(cog, Dice)
    return cog


class Dice(commands.Cog):
    """General-purpose dice rolling."""

    def __init__(self, bot: commands.Bot, worker: RollWorker | None = None) -> None:
        self.bot = bot
        self.worker = worker or RollWorker()
        self._recording: set[asyncio.Task[None]] = set()

    async def cog_load(self) -> None:
        self.worker.warm_up()

    async def cog_unload(self) -> None:
        for task in list(self._recording):
            with contextlib.suppress(Exception):
                await task
        await asyncio.to_thread(self.worker.close)

    @app_commands.command(
        name="roll",
        description="Roll dice (1d20+5, 4d6kh3, adv), a game's dice (bitd 3, pbta +2, dh +1) or a saved roll.",
        extras=PUBLIC_ANSWER,
    )
    @app_commands.describe(
        expression="Dice notation (2d6+3, 1d20+5 adv # Stealth), a game's (bitd 3, /dice presets) or a saved roll",
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

    @roll.autocomplete("expression")
    async def _expression_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await saved_choices(interaction, current)

    async def roll_and_reply(
        self,
        interaction: discord.Interaction,
        expression: str,
        *,
        private: bool,
        label: str | None,
        header: str | None = None,
    ) -> None:
        """Shared by the command and the buttons: roll, then answer with the result or a private error."""
        reply = Reply.of(interaction, private=private)
        try:
            expression = await expand_saved(interaction, expression)
            results = [await self.worker.roll(text) for text in split_rolls(expression)]
        except RollerBusy as busy:
            await reply.refuse(f"⏳ {localize(busy.message)}")  # not the user's mistake: no warning sign
            return
        except RollError as error:
            await reply.refuse(refusal(error))
            return
        private = private or any(result.private for result in results)
        if label:
            results[-1] = dataclasses.replace(results[-1], label=label.strip() or None)
        header = header or _("🎲 **{name}** rolled", name=escape_name(interaction.user.display_name))
        room = (MESSAGE_LIMIT - len(header) - len(results)) // len(results)
        bodies = [render(result, escape=escape_name, limit=room, say=localize) for result in results]
        text = "\n".join([header, *bodies])
        if can_push(results, private=private):  # stored, so that it is pushed once: its message goes by the outbox
            await post_pushable(interaction, reply, results[0], text)
            self.record(interaction, results, hidden=False)
            return
        view = roll_again_view(results, private=private)
        await reply.send(
            text,
            ephemeral=private,
            allowed_mentions=NO_MENTIONS,
            view=discord.utils.MISSING if view is None else view,
        )
        self.record(interaction, results, hidden=private)

    def record(self, interaction: discord.Interaction, results: list[RollResult], *, hidden: bool) -> None:
        """Count the dice in the roller's statistics, after the answer (a slow write never delays a roll)."""
        where = Where(
            user_id=interaction.user.id,
            guild_id=interaction.guild_id or 0,
            channel_id=interaction.channel_id or 0,
            kind=ROLL_KIND,
            hidden=hidden,
        )
        counted = tally(where, now(interaction), [face for result in results for face in faces_rolled(result)])
        if counted is None:
            return
        task = asyncio.get_running_loop().create_task(self._store_tally(interaction, counted))
        self._recording.add(task)
        task.add_done_callback(self._recording.discard)

    @staticmethod
    async def _store_tally(interaction: discord.Interaction, counted: Any) -> None:
        try:
            await store_of(interaction).record_dice([counted])
        except Exception:
            log.exception("Could not count a roll in the statistics")

    async def settled(self) -> None:
        """Wait until every roll so far is counted (tests read the statistics after this)."""
        while self._recording:
            await asyncio.gather(*list(self._recording), return_exceptions=True)


def roll_again_view(results: RollResult | list[RollResult], *, private: bool) -> discord.ui.View | None:
    """A view with the Roll again button, or None when the expression can't travel in a custom_id."""
    # The expression travels in the custom_id (100 chars at most). Keep the label if it fits, drop it
    # if only the dice fit, and leave the button off when even the dice don't: a longer roll is rare
    # and a database row per message for it would outlive the message.
    many = results if isinstance(results, list) else [results]
    dice = " ; ".join(result.expression for result in many)
    candidates = [dice]
    last = many[-1]
    if last.label:
        candidates.insert(0, f"{dice} # {last.label}")
    for candidate in candidates:
        if len(RollAgain.custom_id_for(candidate, private=private)) <= CUSTOM_ID_LIMIT:
            return static_view([[RollAgain(candidate, private=private)]])
    return None
