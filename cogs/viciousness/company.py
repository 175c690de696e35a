"""``/vic company …``: name, ambition, wealth rank and IP (GM)."""

from __future__ import annotations

from cogs.viciousness.common import VicBase


class CompanyCommands(VicBase):
    """The commands of this area (filled in as they are written)."""
