"""Blades in the Dark and Forged in the Dark: a pool of d6, the highest counts.

``bitd 3``: 6 full success (two or more 6s: critical), 4–5 partial success, 1–3 bad outcome. With no dice
(``bitd 0``) two are rolled and the lowest counts, which can't be a critical."""

from __future__ import annotations

from dataclasses import dataclass

from rules.dice import DiceSource
from rules.roll.errors import RollError
from rules.roll.systems.base import Faces, Odds, Rolled, System, count_outcomes, draw, group, plain, read_args, within
from rules.said import said

USAGE = "bitd 3"
CRITICAL, FULL, PARTIAL, BAD = said("Critical"), said("Full success"), said("Partial success"), said("Bad outcome")
CATEGORIES = (CRITICAL, FULL, PARTIAL, BAD)
MAX_DICE = 10


@dataclass(frozen=True, slots=True)
class Params:
    """How many dice (0 means roll two, keep the lowest)."""

    dice: int


def parse(text: str) -> Params:
    """``3`` or ``2+1`` → Params(3)."""
    args = read_args(text, USAGE, {})
    if not args.numbers:
        raise RollError(said("How many dice? Write `{usage}` (0 to {most}).", usage=USAGE, most=MAX_DICE))
    return Params(within(sum(args.numbers), 0, MAX_DICE, said("A Blades pool")))


def canonical(params: Params) -> str:
    """``bitd 3``."""
    return f"bitd {params.dice}"


def judge(params: Params, faces: Faces) -> tuple[str, int]:
    """The outcome and the die that counts."""
    dice = faces[0]
    if params.dice == 0:
        result = min(dice)
    else:
        result = max(dice)
        if dice.count(6) >= 2:
            return CRITICAL, 6
    if result == 6:
        return FULL, 6
    return (PARTIAL if result >= 4 else BAD), result


def roll(params: Params, source: DiceSource) -> Rolled:
    """Roll the pool (two dice for zero) and read it."""
    faces = draw(source, "bitd", 6, params.dice or 2)
    category, total = judge(params, (faces,))
    label = said("0d (lowest of 2d6)") if params.dice == 0 else f"{params.dice}d6"
    return Rolled((group(label, 6, faces),), total, category, category)


def odds(params: Params) -> Odds:
    """Every landing of the pool."""
    return count_outcomes(
        [(plain(6), params.dice or 2)], lambda faces: judge(params, faces), CATEGORIES, said("die that counts")
    )


SYSTEM = System(
    key="bitd",
    words=("bitd", "fitd", "blades"),
    name=said("Blades in the Dark / Forged in the Dark"),
    summary=said("d6 pool, highest die: 6 full, 4–5 partial, 1–3 bad; two 6s critical; 0d = lowest of two."),
    usage=USAGE,
    examples=("bitd 3", "bitd 0"),
    parse=parse,
    canonical=canonical,
    roll=roll,
    odds=odds,
)
