"""Dice of Crowns: the pure rules engine (no Discord, no I/O beyond reading data/crowns/dice.yaml once)."""

from rules.crowns.engine import ENGINE, CrownsEngine
from rules.crowns.options import CrownsOptions
from rules.crowns.state import CrownsState

__all__ = ["ENGINE", "CrownsEngine", "CrownsOptions", "CrownsState"]
