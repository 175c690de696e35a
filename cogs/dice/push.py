"""Pushing a roll once (Year Zero): the Push button under a pushable preset roll, and its message drawn from the
stored roll (``PushDrawer``).

A public preset roll whose system can push is stored with its dice (``Store.create_pushable``) and its message goes
out through the outbox, drawn from that row. Push re-rolls from the stored dice and records the push in one
conditional UPDATE (``Store.push_roll``) with the message's new drawing in the outbox: a double click, a second
member or a retry after a restart pushes once, and the loser is told it was pushed already. Nothing about a push is
kept in memory.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.i18n import N_, _, localize
from bot.names import escape_name
from bot.outbox import Drawing
from bot.replies import Reply
from bot.storage import Store
from bot.storage.pushes import PUSHABLE_KEPT_S, PushableRoll
from cogs.dice.access import bot_of, channel_id_of, dice_worker, now, speak_to_clicker, store_of
from cogs.dice.speech import refusal
from rules.roll import RollError, RollResult, render
from rules.roll.systems import find_preset

PUSH_NOTE = N_("-# 💪 Only the roller can push, once.")


class PushButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"dice:push:(?P<id>\d+)"):
    """Push: re-roll a stored preset roll the way its game says, once."""

    def __init__(self, roll_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=_("Push"), emoji="💪", style=discord.ButtonStyle.danger, custom_id=f"dice:push:{roll_id}"
            )
        )
        self.roll_id = roll_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> PushButton:
        """Rebuild the button from a click, even one on a message sent before a restart."""
        return cls(int(match["id"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Push, if this member may and nobody pushed it yet."""
        await speak_to_clicker(interaction)
        reply = Reply.of(interaction, private=True)
        store = store_of(interaction)
        stored = await store.pushable(self.roll_id)
        if stored is None or now(interaction) - stored.created_at > PUSHABLE_KEPT_S:
            await reply.refuse(_("This roll is too old to push; it was forgotten."))
            return
        if interaction.user.id != stored.roller_id:
            await reply.refuse(_("Only the one who rolled can push this roll."))
            return
        if stored.pushed_at is not None:
            await reply.refuse(_("This roll was pushed already: a roll is pushed once."))
            return
        try:
            pushed = dice_worker(interaction).push(stored.expression, stored.state)
        except RollError as error:
            await reply.refuse(refusal(error))
            return
        text = render(pushed, escape=escape_name, limit=PUSHED_LIMIT, say=localize)
        outgoing = await store.push_roll(stored.id, pushed.sets[0].state, text, now(interaction))
        if outgoing is None:  # another click got there first
            await reply.refuse(_("This roll was pushed already: a roll is pushed once."))
            return
        await bot_of(interaction).outbox.tell(outgoing, reply)


PUSHED_LIMIT = 600
"""The push's own text (a few dice and the game's words): the roll above it keeps the rest of the message."""


def can_push(results: list[RollResult], *, private: bool) -> bool:
    """Whether this answer is a single public roll of a system that pushes (only such a roll gets Push)."""
    if private or len(results) != 1:
        return False
    preset = find_preset(results[0].expression)
    return preset is not None and preset.system.push is not None


async def post_pushable(interaction: discord.Interaction, reply: Reply, result: RollResult, text: str) -> None:
    """Store the roll with its message (``text``), and post that message through the outbox, with Push."""
    _roll, outgoing = await store_of(interaction).create_pushable(
        PushableRoll(
            0,
            channel_id_of(interaction),
            interaction.guild_id,
            interaction.user.id,
            result.expression,
            result.sets[0].state,
            text,
            created_at=now(interaction),
        )
    )
    await bot_of(interaction).outbox.tell(outgoing, reply)


def pushable_text(roll: PushableRoll) -> str:
    """The roll's message: as rolled, then the push once made."""
    if roll.pushed is None:
        return f"{roll.shown}\n{_(PUSH_NOTE)}"
    return f"{roll.shown}\n💪 {roll.pushed}"


def push_view(roll: PushableRoll) -> discord.ui.View | None:
    """Push, until the roll is pushed."""
    if roll.pushed_at is not None:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(PushButton(roll.id))
    view.stop()
    return view


class PushDrawer:
    """Draws a pushable roll's message from the stored roll (``bot.outbox.Drawer``)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def drawing(self, ref: int) -> Drawing | None:
        """The roll as it is now: with Push until pushed."""
        roll = await self.store.pushable(ref)
        if roll is None:
            return None
        return Drawing(pushable_text(roll), push_view(roll), roll.message_id)

    async def shown(self, ref: int, message_id: int) -> None:
        """Remember the message that shows the roll."""
        await self.store.pushable_shown(ref, message_id)

    async def gone(self, ref: int) -> None:
        """The roll's message was deleted: nothing to push from any more, and nothing else to do."""
