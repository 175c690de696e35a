"""How big a roll may get. One place, so the docs, the errors and the benchmark agree."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class RollLimits:
    """Caps that keep every roll small enough to render and fast enough not to hold up other games."""

    max_chars: int = 500
    """Longest expression accepted (the slash option allows the same)."""
    max_dice: int = 1_000
    """Dice asked for, across every term and every repeated set."""
    max_sides: int = 10_000
    """Largest die."""
    max_sets: int = 20
    """Most repeated sets (``6x 4d6kh3``)."""
    max_rolls: int = 5_000
    """Dice actually rolled, rerolls and explosions included: stops runaway explosions."""
    time_limit_s: float = 1.0
    """Wall-clock budget for evaluating one roll."""


DEFAULT_LIMITS = RollLimits()
