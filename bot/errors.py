"""Errors a user sees, and the one place unexpected exceptions are reported."""

from __future__ import annotations

import logging
import secrets

import discord

log = logging.getLogger(__name__)


class UserError(Exception):
    """Something the user did or asked that can't be done; the message is shown to them as is."""


def new_error_id() -> str:
    """A short id to quote in a bug report and find in the logs."""
    return secrets.token_hex(4)


async def send_ephemeral(interaction: discord.Interaction, text: str, **kwargs) -> None:
    """Tell only the user who acted, whether or not the interaction was already answered."""
    kwargs.setdefault("allowed_mentions", discord.AllowedMentions.none())
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True, **kwargs)
    else:
        await interaction.response.send_message(text, ephemeral=True, **kwargs)


async def report_error(interaction: discord.Interaction, error: BaseException) -> None:
    """Answer a failed command or click: the reason for a user error, an error id otherwise."""
    original = getattr(error, "original", None) or getattr(error, "__cause__", None)
    if isinstance(original, UserError) and not isinstance(error, UserError):
        error = original
    if isinstance(error, UserError):
        text = str(error)
    elif isinstance(error, discord.app_commands.CheckFailure):
        text = str(error) or "You can't use that here."
    else:
        error_id = new_error_id()
        command = interaction.command.qualified_name if interaction.command else None
        custom_id = (interaction.data or {}).get("custom_id") if interaction.data else None
        log.error(
            "Error %s in %s (user %s, channel %s, guild %s)",
            error_id,
            command or custom_id or "interaction",
            interaction.user.id,
            interaction.channel_id,
            interaction.guild_id,
            exc_info=error,
        )
        text = f"Something went wrong on my side (error `{error_id}`). Please try again."
    try:
        await send_ephemeral(interaction, text)
    except discord.HTTPException:
        log.warning("Could not tell user %s about an error", interaction.user.id)
