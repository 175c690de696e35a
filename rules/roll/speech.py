"""How the roller's words reach a member in their language, though the roller itself knows none.

Everything the roller says is a ``rules.said.Said`` (English that remembers its message; ``said_n`` for a count,
each language having its own plural forms). Text is put together by the functions that lay out a roll
(``render``, ``render_odds``…) through a ``Say`` they are given: the bot gives ``bot.i18n.localize``, which says each
message, and each message inside it, in the reader's language; the default, ``str``, keeps the English.
"""

from __future__ import annotations

from collections.abc import Callable

from rules.said import said

Say = Callable[[str], str]
"""Says a message (a ``Said``, or plain text as it is) in the reader's language."""
ENGLISH: Say = str
"""The roller's own English (a ``Said`` is the English text itself)."""


def listing(parts: list[str]) -> str:
    """``a, b, c``: pieces said one by one, in a list the reader's language can say too."""
    if len(parts) == 1:
        return parts[0]
    return said("{first}, {rest}", first=parts[0], rest=listing(parts[1:]))
