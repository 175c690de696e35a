"""How the roller's words reach a member in their language, though the roller itself knows none.

Everything the roller says is a ``rules.said.Said`` (English that remembers its message), or a :class:`Counted`
for a count (``3 successes``: each language has its own plural forms). Text is put together by the functions that
lay out a roll (``render``, ``render_odds``…) through a ``Say`` they are given: the bot gives its own, which says
each message in the reader's language; the default, ``str``, keeps the English.

A count is marked ``_n`` here, like the bot's own (``python -m bot.i18n_extract`` finds both), so its plural forms
are in the catalogs.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules.said import Said, said

Say = Callable[[str], str]
"""Says a message (a ``Said``, a ``Counted`` or plain text) in the reader's language."""
ENGLISH: Say = str
"""The roller's own English (a ``Said`` is the English text itself)."""


class Counted(Said):
    """A count in English (``1 success``, ``3 successes``) that keeps both English forms, so a language with other
    plural forms can say it too."""

    singular: str
    plural: str
    n: int

    def __new__(cls, singular: str, plural: str, n: int, /, **params: Any) -> Counted:
        text = super().__new__(cls, singular if n == 1 else plural, n=n, **params)
        assert isinstance(text, Counted)
        text.singular, text.plural, text.n = singular, plural, n
        return text

    def __reduce__(self) -> tuple[Any, ...]:
        # Sent back from the roll worker's processes as what it is, both forms and the count.
        params = {k: v for k, v in self.params.items() if k != "n"}
        return (_recount, (self.singular, self.plural, self.n, params))


def _recount(singular: str, plural: str, n: int, params: dict[str, Any]) -> Counted:
    return Counted(singular, plural, n, **params)


def _n(singular: str, plural: str, n: int, /, **params: Any) -> Counted:
    """``n`` things in English (``{n}`` is the count), said in another language later with its plural forms."""
    return Counted(singular, plural, n, **params)


def listing(parts: list[str]) -> str:
    """``a, b, c``: pieces said one by one, in a list the reader's language can say too."""
    if len(parts) == 1:
        return parts[0]
    return said("{first}, {rest}", first=parts[0], rest=listing(parts[1:]))
