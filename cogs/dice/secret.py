"""Secret rolls anyone can verify: ``/dice secret``, the Show me and Reveal buttons, and ``/dice verify``.

The channel sees a commitment at once (``rules/roll/commitment.py``); the result goes privately to the roller,
and with ``for: GM`` the channel's campaign GM and co-GMs can see it too (Show me). Reveal (the roller, or the GM
for a GM roll) posts the result line and the salt, after checking they hash to the commitment shown.

The commitment and the reveal are what their commits show: each is written with its commit in the outbox
(``bot.outbox``), so a reveal is posted, and its commitment loses its buttons, exactly once, after a crash or a
late answer too. The commitment message is drawn from the stored roll (``CommitmentDrawer``).
"""

from __future__ import annotations

import dataclasses
import logging
import re
import secrets
from typing import Any

import discord
from discord import app_commands

from bot.errors import UserError
from bot.i18n import N_, _, localize
from bot.models import News
from bot.names import escape_name
from bot.outbox import Drawing
from bot.replies import PUBLIC_ANSWER, Reply
from bot.storage import Store
from bot.storage.dice import SecretRoll
from cogs.dice.access import (
    NO_MENTIONS,
    bot_is_here,
    bot_of,
    channel_gms,
    channel_id_of,
    now,
    speak_to_clicker,
    store_of,
)
from cogs.dice.roll import LABEL_MAX_CHARS, dice_cog
from cogs.dice.saved import expand_saved
from cogs.dice.speech import refusal
from rules.roll import RollError, render, split_rolls
from rules.roll.commitment import canonical, commitment, verify
from rules.roll.limits import DEFAULT_LIMITS
from rules.said import said

log = logging.getLogger(__name__)

SALT_BYTES = 16
FOR_CHOICES = [
    app_commands.Choice(name="Me only", value="me"),
    app_commands.Choice(name="Me and the campaign's GM", value="gm"),
]
HOW_TO_CHECK = N_("Check it with `/dice verify`, or anywhere: SHA-256 of the result, a newline, then the salt.")


class SecretButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"dice:(?P<what>peek|reveal):(?P<id>\d+)"):
    """Show me (private) and Reveal (public) on a secret roll's commitment."""

    def __init__(self, what: str, secret_id: int) -> None:
        label, emoji, style = (
            (_("Show me"), "👁️", discord.ButtonStyle.secondary)
            if what == "peek"
            else (_("Reveal"), "🔓", discord.ButtonStyle.primary)
        )
        super().__init__(discord.ui.Button(label=label, emoji=emoji, style=style, custom_id=f"dice:{what}:{secret_id}"))
        self.what = what
        self.secret_id = secret_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> SecretButton:
        return cls(match["what"], int(match["id"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Show the roll to the one who may see it, or reveal it in the channel."""
        await speak_to_clicker(interaction)
        reply = Reply.of(interaction, private=True)
        secret = await store_of(interaction).secret(self.secret_id)
        if secret is None:
            await reply.refuse(_("This secret roll is too old; it was forgotten."))
            return
        if not await _entitled(interaction, secret):
            await reply.refuse(_not_entitled(secret, peek=self.what == "peek"))
            return
        if self.what == "peek":
            await reply.send(_("🔒 Your secret roll: `{result}`", result=secret.canonical), ephemeral=True)
        else:
            await _reveal(interaction, reply, secret)


def _not_entitled(secret: SecretRoll, *, peek: bool) -> str:
    if secret.for_gm:
        if peek:
            return _("Only the roller and the campaign's GM can see this roll.")
        return _("Only the roller and the campaign's GM can reveal this roll.")
    return _("Only the roller can see this roll.") if peek else _("Only the roller can reveal this roll.")


async def _entitled(interaction: discord.Interaction, secret: SecretRoll) -> bool:
    if interaction.user.id == secret.roller_id:
        return True
    return secret.for_gm and interaction.user.id in await channel_gms(interaction)


async def _reveal(interaction: discord.Interaction, reply: Reply, secret: SecretRoll) -> None:
    if not verify(secret.commitment, secret.canonical, secret.salt):  # impossible by construction; never posted
        log.error("Secret roll %s does not match its commitment", secret.id)
        await reply.refuse(_("This roll can't be revealed: it doesn't match its commitment."))
        return
    if secret.revealed_at is not None and not bot_is_here(interaction):
        await _reveal_again(reply, secret)
        return
    revealed = News(text=revealed_text(secret, escape_name(interaction.user.display_name)))
    # The reveal and the commitment's new look are written with the commit: told once, whatever happens next.
    outgoing = await store_of(interaction).reveal_secret(secret.id, now(interaction), revealed)
    if outgoing is None:
        await reply.refuse(_("This roll was revealed already: its result is in the channel."))
        return
    await bot_of(interaction).outbox.tell(outgoing, reply)


async def _reveal_again(reply: Reply, secret: SecretRoll) -> None:
    """A roll revealed where the bot can't post (only a member's install of the app reaches): its reveal could go
    out through the revealing click alone, and is lost if the bot stopped before answering it (the outbox can't
    post there later). Its Reveal, clicked again, shows it through this click. Nothing is committed: the roll is
    revealed already, so anyone entitled may show it again."""
    await reply.update(content=commitment_line(secret), view=None)
    await reply.send(revealed_text(secret, None), ephemeral=False, allowed_mentions=NO_MENTIONS)


def revealed_text(secret: SecretRoll, by: str | None) -> str:
    """What a reveal says: the result, the salt and the commitment (and who revealed it, when it is first told)."""
    roller = f"<@{secret.roller_id}>"
    if by is not None:
        whose = _("🔓 {roller}'s secret roll, revealed by **{by}**", roller=roller, by=by)
    else:
        whose = _("🔓 {roller}'s secret roll, revealed", roller=roller)
    facts = _(
        "Result: `{result}`\nSalt: `{salt}`\nCommitment: `{commitment}`",
        result=secret.canonical,
        salt=secret.salt,
        commitment=secret.commitment,
    )
    return f"{whose}\n{facts}\n-# {_(HOW_TO_CHECK)}"


def commitment_line(secret: SecretRoll) -> str:
    """What a secret roll's commitment message says (and, once revealed, that its result is below)."""
    roller = f"<@{secret.roller_id}>"
    if secret.for_gm:
        line = _(
            "🔒 {roller} rolled something secret for the GM · commitment `{commitment}`",
            roller=roller,
            commitment=secret.commitment,
        )
    else:
        line = _(
            "🔒 {roller} rolled something secret · commitment `{commitment}`",
            roller=roller,
            commitment=secret.commitment,
        )
    return line if secret.revealed_at is None else _("{line} · revealed below", line=line)


def commitment_view(secret: SecretRoll) -> discord.ui.View | None:
    """Show me and Reveal, until the roll is revealed."""
    if secret.revealed_at is not None:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(SecretButton("peek", secret.id))
    view.add_item(SecretButton("reveal", secret.id))
    view.stop()
    return view


class CommitmentDrawer:
    """Draws a secret roll's commitment message from the stored roll (``bot.outbox.Drawer``)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def drawing(self, ref: int) -> Drawing | None:
        """The commitment as the roll is now: with its buttons until it is revealed."""
        secret = await self.store.secret(ref)
        if secret is None:
            return None
        return Drawing(commitment_line(secret), commitment_view(secret), secret.message_id)

    async def shown(self, ref: int, message_id: int) -> None:
        """Remember the message that shows the commitment (Reveal edits it)."""
        await self.store.secret_shown(ref, message_id)

    async def gone(self, ref: int) -> None:
        """The commitment was deleted: the reveal is still posted, with the commitment in it."""


@app_commands.command(
    name="secret",
    description="Roll in secret: the channel sees a commitment you can reveal later.",
    extras=PUBLIC_ANSWER,
)
@app_commands.describe(
    expression="Dice notation or a saved roll, e.g. 1d20+5",
    for_="Who sees the result now (default: you only)",
    label="What the roll is for",
)
@app_commands.rename(for_="for")
@app_commands.choices(for_=FOR_CHOICES)
async def secret_roll(
    interaction: discord.Interaction,
    expression: app_commands.Range[str, 1, DEFAULT_LIMITS.max_chars],
    for_: str = "me",
    label: app_commands.Range[str, 1, LABEL_MAX_CHARS] | None = None,
) -> None:
    """Commit to a roll in the channel, show its result to the roller (and the GM)."""
    for_gm = for_ == "gm"
    if for_gm and not await channel_gms(interaction):
        raise UserError(_("`for: GM` needs a campaign with a GM in this channel; roll `for: me` instead."))
    cog = dice_cog(interaction)
    try:
        text = await expand_saved(interaction, expression)
        if len(split_rolls(text)) > 1:
            raise RollError(said("A secret roll is one roll: roll each of `;` as a secret roll of its own."))
        result = await cog.worker.roll(text)
    except RollError as error:
        raise UserError(refusal(error)) from None
    if label:
        result = dataclasses.replace(result, label=label.strip())
    line = canonical(result)
    salt = secrets.token_hex(SALT_BYTES)
    # The commitment is written with the roll (the outbox): it is posted once, even if the bot stops now.
    _secret, outgoing = await store_of(interaction).create_secret(
        SecretRoll(
            0,
            channel_id_of(interaction),
            interaction.guild_id,
            interaction.user.id,
            for_gm,
            line,
            salt,
            commitment(line, salt),
            created_at=now(interaction),
        )
    )
    reply = Reply.of(interaction, private=False)
    await bot_of(interaction).outbox.tell(outgoing, reply)
    shown = render(result, escape=escape_name, limit=1800, say=localize)
    if for_gm:
        copy = _("🔒 Only you and the GM can see this until it is revealed:\n{roll}", roll=shown)
    else:
        copy = _("🔒 Only you can see this until it is revealed:\n{roll}", roll=shown)
    try:
        await reply.send(copy, ephemeral=True)
    except discord.HTTPException as exc:  # too late to answer: Show me on the commitment shows it
        log.info("Secret roll: the roller's own copy could not be sent (%s)", exc)
    cog.record(interaction, [result], hidden=True)


@app_commands.command(name="verify", description="Check a revealed secret roll against its commitment.")
@app_commands.describe(
    commitment_="The commitment shown when the roll was made",
    result="The result line of the reveal",
    salt="The salt of the reveal",
)
@app_commands.rename(commitment_="commitment")
async def verify_roll(
    interaction: discord.Interaction,
    commitment_: app_commands.Range[str, 1, 100],
    result: app_commands.Range[str, 1, 1000],
    salt: app_commands.Range[str, 1, 100],
) -> None:
    """Recompute the hash: a match, or a mismatch said plainly."""
    if not re.fullmatch(r"[0-9a-fA-F]{64}", commitment_.strip()):
        raise UserError(_("That isn't a commitment: copy the 64 hex digits (0–9, a–f) shown with the secret roll."))
    if verify(commitment_, result, salt):
        text = _("✅ That result and salt match the commitment: the roll was made before it was revealed.")
    else:
        text = _("❌ That doesn't match the commitment: the result or the salt differs from what was committed.")
    await Reply.of(interaction, private=True).send(text, ephemeral=True)


COMMANDS: tuple[app_commands.Command[Any, Any, None], ...] = (secret_roll, verify_roll)
