"""How Vices & Vengeance dice score (RULES.md 1.5 T4c/T6, 1.6): shared by the engine and the calculator.

Lowest score wins, so every number here is points *against* the defender.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

SILVER_BULLET_PAIR = "silverbullet_werewolf"


def die_points(sides: int, value: int) -> int:
    """An ordinary die removed from the pool scores its maximum minus what it shows (a max roll scores 0)."""
    if not 1 <= value <= sides:
        raise ValueError(f"a d{sides} cannot show {value}")
    return sides - value


def pair_points(pair: str, first: int, second: int, *, wild_face: int | None) -> int:
    """A Mythical pair, scored whole: 0 if the two match or the Silver Bullet (``first`` of its pair)
    shows its wild face, else (6 − a) + (6 − b)."""
    if first == second or (pair == SILVER_BULLET_PAIR and wild_face is not None and first == wild_face):
        return 0
    return die_points(6, first) + die_points(6, second)


def penalty_points(values: Sequence[int]) -> int:
    """A penalty roll of d6s: every die in a group of equal numbers scores 0, each unmatched die 6 − roll."""
    counts = Counter(values)
    return sum(die_points(6, v) for v in values if counts[v] == 1)
