"""Cyberpunk RED: 1d10 + STAT + skill against a Difficulty Value.

``cpr +12 (vs 15)``: a natural 10 is a critical success (another d10 is added), a natural 1 a critical failure
(another d10 is taken away); the extra die never explodes again. The total must beat the DV (a tie fails)."""

from __future__ import annotations

from dataclasses import dataclass

from rules.dice import DiceSource
from rules.roll.model import Part, Text
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

USAGE = "cpr +12 (vs 15)"
CRITICAL_SUCCESS, CRITICAL_FAILURE = said("Critical success"), said("Critical failure")
REGULAR, SUCCESS, FAILURE = said("Regular roll"), said("Success"), said("Failure")
OPEN_CATEGORIES = (CRITICAL_SUCCESS, REGULAR, CRITICAL_FAILURE)
DV_CATEGORIES = (CRITICAL_SUCCESS, SUCCESS, FAILURE, CRITICAL_FAILURE)


@dataclass(frozen=True, slots=True)
class Params:
    """STAT + skill + modifiers, and the DV if any."""

    modifier: int
    dv: int | None = None


def parse(text: str) -> Params:
    """``+12 vs 15`` → Params(12, 15)."""
    args = read_args(text, USAGE, {"vs": True, "dv": True})
    dv = args.option("vs", args.option("dv"))
    return Params(
        within(sum(args.numbers), -20, 40, said("STAT + skill")),
        None if dv is None else within(dv, 1, 60, said("The DV")),
    )


def canonical(params: Params) -> str:
    """``cpr +12 vs 15``."""
    return f"cpr {signed(params.modifier)}" + (f" vs {params.dv}" if params.dv is not None else "")


def _total(params: Params, first: int, extra: int) -> int:
    bonus = extra if first == 10 else -extra if first == 1 else 0
    return first + bonus + params.modifier


def judge(params: Params, faces: Faces) -> tuple[str, int]:
    """From the d10 and the extra d10 (which only counts after a 10 or a 1)."""
    first, extra = faces[0][0], faces[1][0]
    total = _total(params, first, extra)
    critical = CRITICAL_SUCCESS if first == 10 else CRITICAL_FAILURE if first == 1 else None
    if params.dv is None:
        return critical or REGULAR, total
    if critical is not None and (critical == CRITICAL_SUCCESS) == (total > params.dv):
        return critical, total
    return (SUCCESS if total > params.dv else FAILURE), total


def roll(params: Params, source: DiceSource) -> Rolled:
    """Roll the d10, and the extra one on a 10 or a 1."""
    first = draw(source, "cpr", 10, 1)
    parts: list[Part] = [group("1d10", 10, first)]
    extra: tuple[int, ...] = (1,)
    if first[0] in (1, 10):
        extra = draw(source, "critical", 10, 1)
        parts += [Text(" + " if first[0] == 10 else " - "), group(said("critical d10"), 10, extra)]
    category, total = judge(params, (first, extra))
    verdict = category if params.dv is None else said("{outcome} (DV {dv})", outcome=category, dv=params.dv)
    if category in (SUCCESS, FAILURE) and first[0] in (1, 10):
        verdict = said("{outcome}, despite a natural {face}", outcome=verdict, face=first[0])
    return Rolled((*parts, *modifier_parts(params.modifier)), total, category, verdict)


def odds(params: Params) -> Odds:
    """Every landing of both d10 (the extra one only counts after a 10 or a 1)."""
    categories = OPEN_CATEGORIES if params.dv is None else DV_CATEGORIES
    groups = [(plain(10), 1), (plain(10), 1)]
    return count_outcomes(groups, lambda faces: judge(params, faces), categories, said("total"))


SYSTEM = System(
    key="cpr",
    words=("cpr", "cyberpunk", "red"),
    name=said("Cyberpunk RED"),
    summary=said("1d10 + STAT + skill vs DV: 10 adds a d10 (critical success), 1 takes one away (critical failure)."),
    usage=USAGE,
    examples=("cpr +12", "cpr +9 vs 15"),
    parse=parse,
    canonical=canonical,
    roll=roll,
    odds=odds,
)
