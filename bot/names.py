"""Making text typed by players (display names, labels, notes) safe to show in Discord markdown.

Discord-free on purpose: the service formats refusals ("Waiting for Bob.") without importing discord.
"""

from __future__ import annotations

import re
from functools import lru_cache

# Characters that format text anywhere, and the block markers that only count at a line's start.
_INLINE = re.compile(r"([\\*_~`|\[\]])")
_LINE_START = re.compile(r"^(\s*)([>#-])", re.MULTILINE)
# @everyone, @here, and raw user or role mentions: a zero-width space after the @ makes them inert.
_MENTION = re.compile(r"@(everyone|here|[!&]?[0-9]{17,20})")
_ANGLE_MENTION = re.compile(r"<([@#])")


MAX_CONTENT = 2000
"""Discord's limit on a message's content."""


def clip(text: str, limit: int = MAX_CONTENT) -> str:
    """``text`` within ``limit`` characters (Discord's message limit by default), ending in … when cut."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


@lru_cache(maxsize=4096)  # the same few names are escaped many times on every board drawn
def escape_name(name: str) -> str:
    """A display name (or any typed text) made inert: no markdown, no mentions, no masked links."""
    text = _INLINE.sub(r"\\\1", name)
    text = _LINE_START.sub(r"\1\\\2", text)
    text = _ANGLE_MENTION.sub("<\u200b\\1", text)
    return _MENTION.sub("@\u200b\\1", text)
