"""Making text typed by players (display names, labels, notes) safe to show in Discord markdown.

Discord-free on purpose: the service formats refusals ("Waiting for Bob.") without importing discord.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from bot.i18n import _
from rules.text import escape

MAX_CONTENT = 2000
"""Discord's limit on a message's content."""


def listed(names: Sequence[str]) -> str:
    """``A``, ``A and B``, ``A, B and C``: names listed in the language being spoken."""
    if len(names) <= 1:
        return "".join(names)
    return _("{names} and {last}", names=", ".join(names[:-1]), last=names[-1])


def user_mention(user_id: int | None) -> str:
    """A member's mention, ``<@id>``."""
    return f"<@{user_id}>"


def relative_time(at: float) -> str:
    """A moment as Discord shows it relative to now (``in 5 minutes``), in each reader's own language."""
    return f"<t:{int(at)}:R>"


def channel_mention(channel_id: int) -> str:
    """A channel's mention, ``<#id>``."""
    return f"<#{channel_id}>"


def clip(text: str, limit: int = MAX_CONTENT) -> str:
    """``text`` within ``limit`` characters (Discord's message limit by default), ending in … when cut."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


@lru_cache(maxsize=4096)  # the same few names are escaped many times on every board drawn
def escape_name(name: str) -> str:
    """A display name (or any typed text) made inert: no markdown, no mentions, no masked links."""
    return escape(name)
