"""The roller's words in the language being spoken.

The roller (``rules/roll``) says everything in English, as ``rules.said.Said`` text and ``rules.roll.speech.Counted``
counts, and lays a roll out through a ``say`` it is given: :func:`say` is the bot's, which puts each message, and
each message inside it, into the catalogs' language with its plural forms.
"""

from __future__ import annotations

from typing import Any

from bot.i18n import _, _n
from rules.roll.errors import RollError
from rules.roll.speech import Counted
from rules.said import Said


def say(text: str) -> str:
    """``text`` in the language being spoken: a ``Said`` or a ``Counted`` from the roller, or plain text as it is."""
    if isinstance(text, Counted):
        params = {k: v for k, v in text.params.items() if k != "n"}
        return _n(text.singular, text.plural, text.n, **_said(params))
    if isinstance(text, Said):
        return _(text.msgid, **_said(text.params))
    return text


def _said(params: dict[str, Any]) -> dict[str, Any]:
    # A message inside a message (a verdict inside "Pushed: {verdict}") is said too, counts included.
    return {k: say(v) if isinstance(v, Said) else v for k, v in params.items()}


def refusal(error: RollError) -> str:
    """Why a roll can't be had, as ``/roll`` answers it: ``⚠️`` and the reason, in the language being spoken."""
    return f"⚠️ {say(error.message)}"
