"""Table options for Dice of Crowns: claim target, modules, and every doc.* house-rule flag (RULES.md PART 5)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

DEFAULT_TIMEOUTS: dict[str, int] = {"turn": 120, "fate_window": 20}
"""Seconds per decision; ``fate_window`` is doc.fate_window_s."""


class CrownsOptions(BaseModel):
    """Everything the host can choose before a game. Defaults are RULES.md's recommended ones."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    claim_target: Literal[3, 5] = 3
    fate: bool = False
    legendary: bool = False
    overkill: bool = False
    last_stand: bool = False
    auto_end_unreachable: bool = False
    allow_voluntary_end: bool = False
    dagger_timeout_default: Literal["self", "active", "random"] = "self"
    first_player: Literal["random", "host"] = "random"
    limit_fate_supply: bool = False
    six_skulls: Literal["choose", "claim", "fate"] = "choose"
    fate_windows: Literal["post_resolution", "also_pre_scroll"] = "post_resolution"
    legendary_mode: Literal["possession", "single_roll"] = "possession"
    twists_fallback: Literal["supply_claim", "nothing"] = "supply_claim"
    meddle_held_die: Literal["scroll_like", "stays"] = "scroll_like"
    legendary_on_fate_reroll: bool = False
    timeouts: dict[str, int] = Field(default_factory=lambda: dict(DEFAULT_TIMEOUTS))

    @model_validator(mode="before")
    @classmethod
    def _last_stand_and_timeouts(cls, data: Any) -> Any:
        """Last Stand plays to 5 (2.6 #29); missing timeouts keep their defaults."""
        if not isinstance(data, dict):
            return data
        data = dict(data)
        if data.get("last_stand"):
            data["claim_target"] = 5
        data["timeouts"] = {**DEFAULT_TIMEOUTS, **(data.get("timeouts") or {})}
        return data
