"""Ironsworn and Starforged: an action die (d6 + stat + adds, at most 10) against two challenge d10.

``is +2``: beating both challenge dice is a strong hit, one a weak hit, neither a miss (ties go to the challenge
dice). Challenge dice that match make it a strong hit or a miss *with a match*."""

from __future__ import annotations

from dataclasses import dataclass

from rules.dice import DiceSource
from rules.roll.model import Text
from rules.roll.systems.base import (
    Faces,
    Odds,
    Rolled,
    System,
    count_outcomes,
    draw,
    group,
    modifier_parts,
    plain,
    read_args,
    signed,
    within,
)

USAGE = "is +2"
CATEGORIES = ("Strong hit with a match", "Strong hit", "Weak hit", "Miss", "Miss with a match")
ACTION_SCORE_MAX = 10


@dataclass(frozen=True, slots=True)
class Params:
    """Stat plus adds."""

    modifier: int


def parse(text: str) -> Params:
    """``+2`` or ``+2 +1`` → Params(3)."""
    return Params(within(sum(read_args(text, USAGE, {}).numbers), -5, 15, "Stat and adds"))


def canonical(params: Params) -> str:
    """``is +2``."""
    return f"is {signed(params.modifier)}"


def judge(params: Params, faces: Faces) -> tuple[str, int]:
    """The action score against both challenge dice."""
    action = min(faces[0][0] + params.modifier, ACTION_SCORE_MAX)
    first, second = faces[1][0], faces[2][0]
    beaten = (action > first) + (action > second)
    match = " with a match" if first == second else ""
    if beaten == 2:
        return f"Strong hit{match}", action
    return ("Weak hit" if beaten == 1 else f"Miss{match}"), action


def roll(params: Params, source: DiceSource) -> Rolled:
    """Roll the action die and the challenge dice."""
    action, challenge = draw(source, "action", 6, 1), draw(source, "challenge", 10, 2)
    category, score = judge(params, (action, challenge[:1], challenge[1:]))
    capped = " (capped at 10)" if action[0] + params.modifier > ACTION_SCORE_MAX else ""
    parts = (
        group("action d6", 6, action),
        *modifier_parts(params.modifier),
        Text(f" = {score}{capped} vs "),
        group("challenge 2d10", 10, challenge),
    )
    return Rolled(parts, score, category, category)


def odds(params: Params) -> Odds:
    """Every landing of the three dice."""
    groups = [(plain(6), 1), (plain(10), 1), (plain(10), 1)]
    return count_outcomes(groups, lambda faces: judge(params, faces), CATEGORIES, "action score")


SYSTEM = System(
    key="is",
    words=("is", "ironsworn", "sf", "starforged"),
    name="Ironsworn / Starforged",
    summary="d6 + stat vs two d10: beat both strong hit, one weak hit, none miss; doubles are a match.",
    usage=USAGE,
    examples=("is +2", "sf +3"),
    parse=parse,
    canonical=canonical,
    roll=roll,
    odds=odds,
)
