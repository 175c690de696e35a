"""``/vic price, /vic reward, /vic invest, /vic divest``: the company's wealth."""

from __future__ import annotations

from cogs.viciousness.common import VicBase


class WealthCommands(VicBase):
    """The commands of this area (filled in as they are written)."""
