"""Computer players (placeholder: the timeout defaults until the real strategy lands)."""

from __future__ import annotations

from pydantic import BaseModel

from rules.crowns.legality import default_action, legal_actions
from rules.crowns.state import CrownsState


def choose_action(state: CrownsState, player: str) -> BaseModel:
    """The computer's action for ``player``."""
    legal = legal_actions(state, player)
    return default_action(state, player) if legal else legal[0]
