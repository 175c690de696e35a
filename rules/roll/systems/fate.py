"""Fate: four Fate dice (−, blank, +) plus a skill, read on the ladder.

``fate +2`` or ``4dF+2`` (any number of dF from 1 to 20); ``vs 3`` is the opposition: below it you fail, equal is
a tie, above succeeds, by three or more succeeds with style."""

from __future__ import annotations

import re
from dataclasses import dataclass

from rules.dice import DiceSource
from rules.roll.errors import RollError
from rules.roll.systems.base import (
    Die,
    Faces,
    Odds,
    Rolled,
    System,
    count_outcomes,
    group,
    modifier_parts,
    read_args,
    signed,
    within,
)
from rules.said import said

USAGE = "fate +2 (vs 3)"
LADDER = {
    8: said("Legendary"),
    7: said("Epic"),
    6: said("Fantastic"),
    5: said("Superb"),
    4: said("Great"),
    3: said("Good"),
    2: said("Fair"),
    1: said("Average"),
    0: said("Mediocre"),
    -1: said("Poor"),
    -2: said("Terrible"),
}
WITH_STYLE, SUCCEED, TIE, FAIL = said("Succeed with style"), said("Succeed"), said("Tie"), said("Fail")
OUTCOMES = (WITH_STYLE, SUCCEED, TIE, FAIL)
FATE_DIE: Die = ((-1, 1), (0, 1), (1, 1))
MAX_DICE = 20
FUDGE = re.compile(r"^\s*(\d*)\s*df(?![a-z])", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Params:
    """Fate dice, the skill, and the opposition if any."""

    dice: int
    modifier: int
    opposition: int | None = None


def parse(text: str) -> Params:
    """``+2 vs 3`` or ``4dF+2 vs 3`` → Params(4, 2, 3)."""
    dice = 4
    if match := FUDGE.match(text):
        dice = within(int(match[1] or 1), 1, MAX_DICE, said("Fate dice"))
        text = text[match.end() :]
    args = read_args(text, USAGE, {"vs": True})
    opposition = args.option("vs")
    if opposition is not None and not -10 <= opposition <= 20:
        raise RollError(said("The opposition goes from -10 to 20, not {opposition}.", opposition=opposition))
    return Params(dice, within(sum(args.numbers), -10, 20, said("The skill")), opposition)


def canonical(params: Params) -> str:
    """``4dF +2 vs 3``."""
    versus = f" vs {params.opposition}" if params.opposition is not None else ""
    return f"{params.dice}dF {signed(params.modifier)}{versus}"


def ladder(total: int) -> str:
    """The ladder's word for ``total`` (past either end, how far past)."""
    if total > 8:
        return said("Legendary+{beyond}", beyond=total - 8)
    if total < -2:
        return said("Terrible{beyond}", beyond=total + 2)
    return LADDER[total]


def judge(params: Params, faces: Faces) -> tuple[str, int]:
    """The ladder word, or the outcome against the opposition."""
    total = sum(faces[0]) + params.modifier
    if params.opposition is None:
        return rung(total), total
    shifts = total - params.opposition
    if shifts >= 3:
        return WITH_STYLE, total
    return (SUCCEED if shifts > 0 else TIE if shifts == 0 else FAIL), total


def rung(total: int) -> str:
    """``Good (+3)``: the ladder's word and the number."""
    return said("{rung} ({shifts})", rung=ladder(total), shifts=signed(total))


def roll(params: Params, source: DiceSource) -> Rolled:
    """Roll the Fate dice (a d3 each: 1 is −, 2 blank, 3 +)."""
    faces = tuple(source.roll(f"fate.{i}", 3) - 2 for i in range(1, params.dice + 1))
    category, total = judge(params, (faces,))
    verdict = (
        category
        if params.opposition is None
        else said(
            "{outcome} ({rung} {shifts} vs {opposition})",
            outcome=category,
            rung=ladder(total),
            shifts=signed(total),
            opposition=params.opposition,
        )
    )
    return Rolled((group(f"{params.dice}dF", "F", faces), *modifier_parts(params.modifier)), total, category, verdict)


def odds(params: Params) -> Odds:
    """Every landing of the Fate dice."""
    if params.opposition is None:
        low, high = params.modifier - params.dice, params.modifier + params.dice
        categories = tuple(rung(t) for t in range(high, low - 1, -1))
    else:
        categories = OUTCOMES
    return count_outcomes([(FATE_DIE, params.dice)], lambda faces: judge(params, faces), categories, said("total"))


SYSTEM = System(
    key="fate",
    words=("fate", "fudge"),
    name=said("Fate"),
    summary=said(
        "4dF + skill on the ladder (Mediocre to Legendary); vs an opposition: fail, tie, succeed, with style."
    ),
    usage=USAGE,
    examples=("fate +2", "4dF+3 vs 2"),
    parse=parse,
    canonical=canonical,
    roll=roll,
    odds=odds,
    pattern=FUDGE,
)
