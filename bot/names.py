"""Making text typed by players (display names, labels) safe to show."""

from __future__ import annotations

import discord


def escape_name(name: str) -> str:
    """A display name made inert: no markdown, no mentions."""
    return discord.utils.escape_mentions(discord.utils.escape_markdown(name))
