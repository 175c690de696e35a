"""Daggerheart's duality dice: a Hope d12 and a Fear d12, added with a modifier.

``dh +2``: the higher die says whether the roll is with Hope or with Fear; matching dice are a critical success
(whatever the difficulty). ``adv`` adds a d6, ``dis`` takes one away; ``vs 14`` is the difficulty (met or beaten
succeeds)."""

from __future__ import annotations

from dataclasses import dataclass

from rules.dice import DiceSource
from rules.roll.errors import RollError
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

USAGE = "dh +2 (adv | dis) (vs 14)"
CRITICAL = said("Critical success")
WITH_HOPE, WITH_FEAR = said("With Hope"), said("With Fear")
SUCCESS_HOPE, SUCCESS_FEAR = said("Success with Hope"), said("Success with Fear")
FAILURE_HOPE, FAILURE_FEAR = said("Failure with Hope"), said("Failure with Fear")
OPEN_CATEGORIES = (CRITICAL, WITH_HOPE, WITH_FEAR)
DIFFICULTY_CATEGORIES = (CRITICAL, SUCCESS_HOPE, SUCCESS_FEAR, FAILURE_HOPE, FAILURE_FEAR)


@dataclass(frozen=True, slots=True)
class Params:
    """The modifier, an advantage (+1) or disadvantage (-1) d6, and the difficulty if any."""

    modifier: int
    edge: int = 0
    difficulty: int | None = None


def parse(text: str) -> Params:
    """``+2 adv vs 14`` → Params(2, 1, 14)."""
    args = read_args(text, USAGE, {"adv": False, "dis": False, "vs": True})
    if args.flag("adv") and args.flag("dis"):
        raise RollError(said("Use `adv` or `dis`, not both."))
    difficulty = args.option("vs")
    return Params(
        within(sum(args.numbers), -30, 30, said("The modifier")),
        1 if args.flag("adv") else -1 if args.flag("dis") else 0,
        None if difficulty is None else within(difficulty, 1, 60, said("The difficulty")),
    )


def canonical(params: Params) -> str:
    """``dh +2 adv vs 14``."""
    edge = {1: " adv", -1: " dis", 0: ""}[params.edge]
    versus = f" vs {params.difficulty}" if params.difficulty is not None else ""
    return f"dh {signed(params.modifier)}{edge}{versus}"


def judge(params: Params, faces: Faces) -> tuple[str, int]:
    """Hope or Fear, success or failure, from (hope, fear, the d6 if any)."""
    hope, fear = faces[0][0], faces[1][0]
    extra = faces[2][0] * params.edge if params.edge else 0
    total = hope + fear + extra + params.modifier
    if hope == fear:
        return CRITICAL, total
    if params.difficulty is None:
        return (WITH_HOPE if hope > fear else WITH_FEAR), total
    if total >= params.difficulty:
        return (SUCCESS_HOPE if hope > fear else SUCCESS_FEAR), total
    return (FAILURE_HOPE if hope > fear else FAILURE_FEAR), total


def roll(params: Params, source: DiceSource) -> Rolled:
    """Roll Hope, Fear (and the d6) and read them."""
    hope, fear = draw(source, "hope", 12, 1), draw(source, "fear", 12, 1)
    dice = [hope, fear]
    parts: list[Part] = [group(said("Hope d12"), 12, hope), Text(" + "), group(said("Fear d12"), 12, fear)]
    if params.edge:
        extra = draw(source, "edge", 6, 1)
        dice.append(extra)
        parts += [
            Text(" + " if params.edge > 0 else " - "),
            group(said("advantage d6") if params.edge > 0 else said("disadvantage d6"), 6, extra),
        ]
    category, total = judge(params, tuple(dice))
    verdict = (
        category
        if params.difficulty is None
        else said("{outcome} (difficulty {difficulty})", outcome=category, difficulty=params.difficulty)
    )
    return Rolled((*parts, *modifier_parts(params.modifier)), total, category, verdict)


def odds(params: Params) -> Odds:
    """Every landing of the two d12 (and the d6)."""
    groups = [(plain(12), 1), (plain(12), 1)] + ([(plain(6), 1)] if params.edge else [])
    categories = OPEN_CATEGORIES if params.difficulty is None else DIFFICULTY_CATEGORIES
    return count_outcomes(groups, lambda faces: judge(params, faces), categories, said("total"))


SYSTEM = System(
    key="dh",
    words=("dh", "daggerheart", "duality"),
    name=said("Daggerheart"),
    summary=said("Hope d12 + Fear d12 + modifier: with Hope or with Fear; matching dice are a critical success."),
    usage=USAGE,
    examples=("dh +2", "dh +1 adv vs 14"),
    parse=parse,
    canonical=canonical,
    roll=roll,
    odds=odds,
)
