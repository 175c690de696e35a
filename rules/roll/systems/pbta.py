"""Powered by the Apocalypse: 2d6 + a stat; 10+ strong hit, 7–9 weak hit, 6 or less a miss.

``pbta +2``; ``adv`` / ``dis`` roll 3d6 and keep the two highest / lowest (as several PbtA games do)."""

from __future__ import annotations

from dataclasses import dataclass

from rules.dice import DiceSource
from rules.roll.errors import RollError
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

USAGE = "pbta +2 (adv | dis)"
STRONG, WEAK, MISS = said("Strong hit"), said("Weak hit"), said("Miss")
CATEGORIES = (STRONG, WEAK, MISS)


@dataclass(frozen=True, slots=True)
class Params:
    """The stat added, and how many of 3d6 to keep from the top (adv) or bottom (dis); 0: plain 2d6."""

    modifier: int
    edge: int = 0
    """+1 advantage, -1 disadvantage, 0 neither."""


def parse(text: str) -> Params:
    """``+2 adv`` → Params(2, 1)."""
    args = read_args(text, USAGE, {"adv": False, "dis": False})
    if args.flag("adv") and args.flag("dis"):
        raise RollError(said("Use `adv` or `dis`, not both."))
    modifier = within(sum(args.numbers), -10, 10, said("The stat"))
    return Params(modifier, 1 if args.flag("adv") else -1 if args.flag("dis") else 0)


def canonical(params: Params) -> str:
    """``pbta +2 adv``."""
    edge = {1: " adv", -1: " dis", 0: ""}[params.edge]
    return f"pbta {signed(params.modifier)}{edge}"


def _kept(params: Params, faces: tuple[int, ...]) -> tuple[int, ...]:
    if params.edge == 0:
        return faces
    ordered = sorted(faces, reverse=params.edge > 0)
    return tuple(ordered[:2])


def judge(params: Params, faces: Faces) -> tuple[str, int]:
    """The move's result from the dice."""
    total = sum(_kept(params, faces[0])) + params.modifier
    return (STRONG if total >= 10 else WEAK if total >= 7 else MISS), total


def roll(params: Params, source: DiceSource) -> Rolled:
    """Roll 2d6 (or 3d6 with an edge) and read the move."""
    faces = draw(source, "pbta", 6, 3 if params.edge else 2)
    marks = [True] * len(faces)
    if params.edge:
        dropped = faces.index(sorted(faces, reverse=params.edge > 0)[2])
        marks[dropped] = False
    category, total = judge(params, (faces,))
    parts = (group(f"{len(faces)}d6", 6, faces, marks), *modifier_parts(params.modifier))
    return Rolled(parts, total, category, category)


def odds(params: Params) -> Odds:
    """Every landing of the dice."""
    return count_outcomes(
        [(plain(6), 3 if params.edge else 2)], lambda faces: judge(params, faces), CATEGORIES, said("total")
    )


SYSTEM = System(
    key="pbta",
    words=("pbta", "pba"),
    name=said("Powered by the Apocalypse"),
    summary=said("2d6 + stat: 10+ strong hit, 7–9 weak hit, 6− miss."),
    usage=USAGE,
    examples=("pbta +2", "pbta -1 adv"),
    parse=parse,
    canonical=canonical,
    roll=roll,
    odds=odds,
)
