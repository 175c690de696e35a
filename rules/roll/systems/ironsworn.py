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
from rules.said import said

USAGE = "is +2"
STRONG_MATCH, STRONG, WEAK = said("Strong hit with a match"), said("Strong hit"), said("Weak hit")
MISS, MISS_MATCH = said("Miss"), said("Miss with a match")
CATEGORIES = (STRONG_MATCH, STRONG, WEAK, MISS, MISS_MATCH)
ACTION_SCORE_MAX = 10


@dataclass(frozen=True, slots=True)
class Params:
    """Stat plus adds."""

    modifier: int


def parse(text: str) -> Params:
    """``+2`` or ``+2 +1`` → Params(3)."""
    return Params(within(sum(read_args(text, USAGE, {}).numbers), -5, 15, said("Stat and adds")))


def canonical(params: Params) -> str:
    """``is +2``."""
    return f"is {signed(params.modifier)}"


def judge(params: Params, faces: Faces) -> tuple[str, int]:
    """The action score against both challenge dice."""
    action = min(faces[0][0] + params.modifier, ACTION_SCORE_MAX)
    first, second = faces[1][0], faces[2][0]
    beaten = (action > first) + (action > second)
    if beaten == 2:
        return (STRONG_MATCH if first == second else STRONG), action
    if beaten == 1:
        return WEAK, action
    return (MISS_MATCH if first == second else MISS), action


def roll(params: Params, source: DiceSource) -> Rolled:
    """Roll the action die and the challenge dice."""
    action, challenge = draw(source, "action", 6, 1), draw(source, "challenge", 10, 2)
    category, score = judge(params, (action, challenge[:1], challenge[1:]))
    capped = action[0] + params.modifier > ACTION_SCORE_MAX
    parts = (
        group(said("action d6"), 6, action),
        *modifier_parts(params.modifier),
        Text(said(" = {score} (capped at 10) vs ", score=score) if capped else said(" = {score} vs ", score=score)),
        group(said("challenge 2d10"), 10, challenge),
    )
    return Rolled(parts, score, category, category)


def odds(params: Params) -> Odds:
    """Every landing of the three dice."""
    groups = [(plain(6), 1), (plain(10), 1), (plain(10), 1)]
    return count_outcomes(groups, lambda faces: judge(params, faces), CATEGORIES, said("action score"))


SYSTEM = System(
    key="is",
    words=("is", "ironsworn", "sf", "starforged"),
    name=said("Ironsworn / Starforged"),
    summary=said("d6 + stat vs two d10: beat both strong hit, one weak hit, none miss; doubles are a match."),
    usage=USAGE,
    examples=("is +2", "sf +3"),
    parse=parse,
    canonical=canonical,
    roll=roll,
    odds=odds,
)
