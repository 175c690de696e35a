"""Table options for Vices & Vengeance: every vv.* flag of RULES.md PART 5 with its default."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from rules.vices.data import DEFAULT_WILD_FACE

DEFAULT_TIMEOUTS: dict[str, int] = {"turn": 120}
"""Seconds per decision (vv.turn_timeout_s)."""
ALLOWED_PLAYERS = (2, 7)
"""The range a host may set vv.min_players / vv.max_players to (RULES.md 1.8 #1)."""


class VicesOptions(BaseModel):
    """Everything the host can choose before a game. Defaults are RULES.md's recommended ones."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    seat_order: Literal["d20", "join_order", "manual"] = "d20"
    """d20: the highest roll goes first, the others follow in the given order; join_order and manual
    keep the order given to ``start`` (the core arranges a manual order)."""
    sin_assignment: Literal["mirror_roll", "choose", "random"] = "mirror_roll"
    gluttony_added_die: Literal["taken_large", "taken_small"] = "taken_large"
    envy_optional: bool = False
    sloth_removes: Literal["sloth_die", "matcher_own_die"] = "sloth_die"
    nemesis_zero_rule: Literal["defender_pairs", "matched_die", "both"] = "defender_pairs"
    silver_bullet_wild_face: int | None = Field(default=DEFAULT_WILD_FACE, ge=1, le=6)
    """The face of the Silver Bullet that is wild; None (or "none") for no wild face."""
    end_mode: Literal["finish_round", "one_more_each"] = "finish_round"
    min_players: int = Field(default=3, ge=ALLOWED_PLAYERS[0], le=ALLOWED_PLAYERS[1])
    max_players: int = Field(default=6, ge=ALLOWED_PLAYERS[0], le=ALLOWED_PLAYERS[1])
    timeouts: dict[str, int] = Field(default_factory=lambda: dict(DEFAULT_TIMEOUTS))

    @field_validator("silver_bullet_wild_face", mode="before")
    @classmethod
    def _none_word(cls, value: Any) -> Any:
        """The flag's documented values are 1..6 or ``none``."""
        return None if isinstance(value, str) and value.lower() == "none" else value

    @field_validator("timeouts", mode="before")
    @classmethod
    def _default_timeouts(cls, value: Any) -> Any:
        """Timeouts left out keep their defaults."""
        return {**DEFAULT_TIMEOUTS, **(value or {})} if isinstance(value, dict) or value is None else value

    @model_validator(mode="after")
    def _player_range(self) -> VicesOptions:
        if self.min_players > self.max_players:
            raise ValueError("min_players cannot be more than max_players")
        return self
