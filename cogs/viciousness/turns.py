"""``/vic turn start|end and /vic log``:/vic turn start|end and /vic log."""

from __future__ import annotations

from cogs.viciousness.common import VicBase


class TurnCommands(VicBase):
    """The commands of this area (filled in as they are written)."""
