"""Text the engines say (a reason an action is refused, a line for the log), kept sayable in any language.

The engines are pure and know no language: they say things in English, as a ``Said``, which is the English text
itself (a ``str``: it compares, prints and is stored as the English) and also remembers its message and the values
put into it. The bot says it in the reader's language (``bot.i18n.localize``); the message is found in the
catalogs the same way as the bot's own, by the marker ``said`` (``python -m bot.i18n_extract``).
"""

from __future__ import annotations

from typing import Any


class Said(str):
    """English text that remembers its message (``msgid``), its plural (``plural``: said for ``params["n"]``
    things) and the values given to it (``params``)."""

    msgid: str
    plural: str | None
    params: dict[str, Any]

    def __new__(cls, msgid: str, /, plural: str | None = None, **params: Any) -> Said:
        english = plural if plural is not None and params.get("n") != 1 else msgid
        text = super().__new__(cls, english.format(**params) if params else english)
        text.msgid, text.plural, text.params = msgid, plural, params
        return text

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled (a computer player's search runs in another process) as what it is, message and values.
        return (_rebuild, (self.msgid, self.plural, self.params))


def _rebuild(msgid: str, plural: str | None, params: dict[str, Any]) -> Said:
    return Said(msgid, plural, **params)


def said(msgid: str, /, **params: Any) -> Said:
    """``msgid`` in English with ``params`` put into its ``{names}``, sayable in another language later."""
    return Said(msgid, **params)


def said_n(singular: str, plural: str, n: int, /, **params: Any) -> Said:
    """The form of a message for ``n`` things (``{n}`` is the count), sayable in another language later with that
    language's own plural forms."""
    return Said(singular, plural, n=n, **params)
