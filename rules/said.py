"""Text the engines say (a reason an action is refused, a line for the log), kept sayable in any language.

The engines are pure and know no language: they say things in English, as a ``Said``, which is the English text
itself (a ``str``: it compares, prints and is stored as the English) and also remembers its message and the values
put into it. The bot says it in the reader's language (``bot.i18n.localize``); the message is found in the
catalogs the same way as the bot's own, by the marker ``said`` (``python -m bot.i18n_extract``).
"""

from __future__ import annotations

from typing import Any


class Said(str):
    """English text that remembers its message (``msgid``) and the values given to it (``params``)."""

    msgid: str
    params: dict[str, Any]

    def __new__(cls, msgid: str, /, **params: Any) -> Said:
        text = super().__new__(cls, msgid.format(**params) if params else msgid)
        text.msgid = msgid
        text.params = params
        return text

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled (a computer player's search runs in another process) as what it is, message and values.
        return (_rebuild, (self.msgid, self.params))


def _rebuild(msgid: str, params: dict[str, Any]) -> Said:
    return Said(msgid, **params)


def said(msgid: str, /, **params: Any) -> Said:
    """``msgid`` in English with ``params`` put into its ``{names}``, sayable in another language later."""
    return Said(msgid, **params)
