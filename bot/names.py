"""Making text typed by players (display names, labels, notes) safe to show in Discord markdown.

Discord-free on purpose: the service formats refusals ("Waiting for Bob.") without importing discord.
"""

from __future__ import annotations

from functools import lru_cache

from rules.text import escape


@lru_cache(maxsize=4096)  # the same few names are escaped many times on every board drawn
def escape_name(name: str) -> str:
    """A display name (or any typed text) made inert: no markdown, no mentions, no masked links."""
    return escape(name)
