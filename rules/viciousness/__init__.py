"""Viciousness: the pure rules engine of the GM's assistant (no Discord, no I/O beyond data/viciousness/*.yaml)."""

from rules.viciousness.actions import Action, parse_action
from rules.viciousness.engine import ENGINE, ViciousnessEngine
from rules.viciousness.options import VicOptions
from rules.viciousness.state import CampaignState

__all__ = ["ENGINE", "Action", "CampaignState", "VicOptions", "ViciousnessEngine", "parse_action"]
