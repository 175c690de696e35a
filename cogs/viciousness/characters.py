"""``/vic pc …``: characters, traits, contacts, conditions, advancement and replacement."""

from __future__ import annotations

from cogs.viciousness.common import VicBase


class CharacterCommands(VicBase):
    """The commands of this area (filled in as they are written)."""
