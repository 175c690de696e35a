"""``/vic troupe …``: a player's troupe, its assets and henchmen."""

from __future__ import annotations

from cogs.viciousness.common import VicBase


class TroupeCommands(VicBase):
    """The commands of this area (filled in as they are written)."""
