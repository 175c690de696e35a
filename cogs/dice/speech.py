"""A roll refused, said in the language being spoken.

The roller (``rules/roll``) says everything in English, as ``rules.said.Said`` text, and lays a roll out through a
``say`` it is given: the cogs give ``bot.i18n.localize``.
"""

from __future__ import annotations

from bot.i18n import localize
from rules.roll.errors import RollError


def refusal(error: RollError) -> str:
    """Why a roll can't be had, as ``/roll`` answers it: ``⚠️`` and the reason, in the language being spoken."""
    return f"⚠️ {localize(error.message)}"
