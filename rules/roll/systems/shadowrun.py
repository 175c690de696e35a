"""Shadowrun 5th and 6th edition: a d6 pool, 5 and 6 are hits.

``sr 12 (vs 3)``: more than half the dice showing 1 is a glitch; a glitch with no hits is a critical glitch.
``vs`` is the threshold (hits needed; 1 when not given)."""

from __future__ import annotations

from dataclasses import dataclass

from rules.dice import DiceSource
from rules.roll.errors import RollError
from rules.roll.systems.base import Die, Faces, Odds, Rolled, System, count_outcomes, draw, group, read_args, within
from rules.said import said, said_n

USAGE = "sr 12 (vs 3)"
CRITICAL_GLITCH, GLITCH, SUCCESS, FAILURE = said("Critical glitch"), said("Glitch"), said("Success"), said("Failure")
CATEGORIES = (CRITICAL_GLITCH, GLITCH, SUCCESS, FAILURE)
MAX_POOL = 50
# For counting: a 1, a miss (2–4) and a hit (5–6).
DIE: Die = ((1, 1), (2, 3), (5, 2))


@dataclass(frozen=True, slots=True)
class Params:
    """The pool and the threshold."""

    pool: int
    threshold: int = 1


def parse(text: str) -> Params:
    """``12 vs 3`` → Params(12, 3)."""
    args = read_args(text, USAGE, {"vs": True})
    if not args.numbers:
        raise RollError(said("How many dice? Write `{usage}`.", usage=USAGE))
    threshold = within(args.option("vs", 1) or 1, 1, MAX_POOL, said("The threshold"))
    return Params(within(sum(args.numbers), 1, MAX_POOL, said("A pool")), threshold)


def canonical(params: Params) -> str:
    """``sr 12 vs 3``."""
    return f"sr {params.pool}" + (f" vs {params.threshold}" if params.threshold != 1 else "")


def judge(params: Params, faces: Faces) -> tuple[str, int]:
    """Hits, and a glitch when more than half the dice show 1."""
    dice = faces[0]
    hits = sum(face >= 5 for face in dice)
    if 2 * dice.count(1) > len(dice):
        return (CRITICAL_GLITCH if hits == 0 else GLITCH), hits
    return (SUCCESS if hits >= params.threshold else FAILURE), hits


def roll(params: Params, source: DiceSource) -> Rolled:
    """Roll the pool and count hits."""
    faces = draw(source, "sr", 6, params.pool)
    category, hits = judge(params, (faces,))
    verdict = said_n("{outcome} ({n} hit)", "{outcome} ({n} hits)", hits, outcome=category)
    return Rolled((group(f"{params.pool}d6", 6, faces),), hits, category, verdict)


def odds(params: Params) -> Odds:
    """Every landing of the pool, by 1 / miss / hit."""
    return count_outcomes([(DIE, params.pool)], lambda faces: judge(params, faces), CATEGORIES, said("hits"))


SYSTEM = System(
    key="sr",
    words=("sr", "sr5", "sr6", "shadowrun"),
    name=said("Shadowrun (5th / 6th edition)"),
    summary=said("d6 pool, 5–6 are hits; over half 1s is a glitch, with no hits a critical glitch."),
    usage=USAGE,
    examples=("sr 12", "sr 9 vs 3"),
    parse=parse,
    canonical=canonical,
    roll=roll,
    odds=odds,
)
