"""Savage Worlds: a trait die and a d6 wild die, both acing (a top face adds another roll), the better counts.

``sw d8 +1 (vs 4) (extra)``: 4 or more (the target) succeeds, every 4 over it is a raise; both dice showing 1 is a
critical failure. ``extra`` rolls the trait die alone (no wild die)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from rules.dice import DiceSource
from rules.odds import Dist
from rules.roll.errors import RollError
from rules.roll.model import DiceGroup, Face, Part, Text
from rules.roll.systems.base import Odds, Rolled, System, modifier_parts, read_args, signed, within
from rules.said import said

USAGE = "sw d8 +1 (vs 4) (extra)"
TRAIT_DICE = (4, 6, 8, 10, 12)
WILD_DIE = 6
CRITICAL_FAILURE, FAILURE, SUCCESS = said("Critical failure"), said("Failure"), said("Success")
RAISES = (said("Raise"), said("2 raises"), said("3+ raises"))
CATEGORIES = (CRITICAL_FAILURE, FAILURE, SUCCESS, *RAISES)
ACE_LIMIT = 100
"""Aces one die may chain in a real roll (a d4 acing 100 times: never)."""
TAIL = Fraction(1, 10**9)
"""Odds follow aces until going further is less likely than this."""


@dataclass(frozen=True, slots=True)
class Params:
    """The trait die, the modifier, the target number, and whether a wild die is rolled."""

    trait: int
    modifier: int = 0
    target: int = 4
    wild: bool = True


def parse(text: str) -> Params:
    """``d8 +1 vs 4`` → Params(8, 1, 4)."""
    args = read_args(text, USAGE, {"d": True, "vs": True, "tn": True, "extra": False})
    trait = args.option("d")
    if trait is None:
        raise RollError(said("Which trait die? Write `{usage}`.", usage=USAGE))
    if trait not in TRAIT_DICE:
        raise RollError(said("A trait die is a d4, d6, d8, d10 or d12, not a d{sides}.", sides=trait))
    target = within(args.option("vs", args.option("tn", 4)) or 4, 1, 30, said("The target number"))
    return Params(trait, within(sum(args.numbers), -10, 10, said("The modifier")), target, not args.flag("extra"))


def canonical(params: Params) -> str:
    """``sw d8 +1 vs 6 extra``."""
    target = f" vs {params.target}" if params.target != 4 else ""
    return f"sw d{params.trait} {signed(params.modifier)}{target}{'' if params.wild else ' extra'}"


def judge(params: Params, trait: int, wild: int | None, snake_eyes: bool) -> str:
    """The outcome from each die's aced total (``wild`` None for an extra) and whether both showed a natural 1."""
    if snake_eyes:
        return CRITICAL_FAILURE
    total = max(trait, wild if wild is not None else trait) + params.modifier
    if total < params.target:
        return FAILURE
    raises = (total - params.target) // 4
    return SUCCESS if raises == 0 else RAISES[min(raises, 3) - 1]


def _ace(source: DiceSource, die_id: str, sides: int) -> tuple[int, ...]:
    faces = [source.roll(f"{die_id}.1", sides)]
    while faces[-1] == sides and len(faces) <= ACE_LIMIT:
        faces.append(source.roll(f"{die_id}.{len(faces) + 1}", sides))
    return tuple(faces)


def _shown(label: str, sides: int, faces: tuple[int, ...]) -> DiceGroup:
    return DiceGroup(label, sides, tuple(Face(face, exploded=face == sides) for face in faces))


def roll(params: Params, source: DiceSource) -> Rolled:
    """Roll the trait die (and the wild die), acing."""
    trait = _ace(source, "trait", params.trait)
    parts: list[Part] = [_shown(said("trait d{sides}", sides=params.trait), params.trait, trait)]
    wild = None
    if params.wild:
        wild = _ace(source, "wild", WILD_DIE)
        parts += [Text(" | "), _shown(said("wild d6"), WILD_DIE, wild)]
    snake_eyes = params.wild and trait[0] == 1 and wild is not None and wild[0] == 1
    category = judge(params, sum(trait), None if wild is None else sum(wild), snake_eyes)
    total = max(sum(trait), sum(wild) if wild else 0) + params.modifier
    verdict = (
        category if params.target == 4 else said("{outcome} (target {target})", outcome=category, target=params.target)
    )
    return Rolled((*parts, *modifier_parts(params.modifier)), total, category, verdict)


def ace_depth(sides: int) -> int:
    """How many aces the odds follow: the fewest after which one more is under ``TAIL``."""
    depth = 1
    while Fraction(1, sides) ** depth >= TAIL:
        depth += 1
    return depth


def acing(sides: int, depth: int) -> dict[tuple[bool, int], int]:
    """(natural 1, total) → ways out of ``sides ** (depth + 1)`` for a die that aces at most ``depth`` times (the
    last roll stands whatever it shows)."""
    ways: dict[tuple[bool, int], int] = {}
    for aces in range(depth + 1):
        last_faces = range(1, sides + 1) if aces == depth else range(1, sides)
        weight = 1 if aces == depth else sides ** (depth - aces)
        for face in last_faces:
            key = (aces == 0 and face == 1, aces * sides + face)
            ways[key] = ways.get(key, 0) + weight
    return ways


def odds(params: Params) -> Odds:
    """Both dice's aced totals, every combination."""
    trait = acing(params.trait, ace_depth(params.trait))
    wild = acing(WILD_DIE, ace_depth(WILD_DIE)) if params.wild else {(False, 0): 1}
    by_category: dict[str, int] = dict.fromkeys(CATEGORIES, 0)
    totals: dict[int, int] = {}
    for (trait_one, trait_total), trait_ways in trait.items():
        for (wild_one, wild_total), wild_ways in wild.items():
            ways = trait_ways * wild_ways
            snake_eyes = params.wild and trait_one and wild_one
            category = judge(params, trait_total, wild_total if params.wild else None, snake_eyes)
            by_category[category] += ways
            total = max(trait_total, wild_total) + params.modifier
            totals[total] = totals.get(total, 0) + ways
    note = said("Aces followed {depth} deep (going further: under 1 in a billion).", depth=ace_depth(params.trait))
    return Odds(tuple(by_category.items()), Dist(totals), said("total"), note)


SYSTEM = System(
    key="sw",
    words=("sw", "savage", "swade"),
    name=said("Savage Worlds"),
    summary=said("Trait die + d6 wild die, both acing, best counts: 4 succeeds, +4 a raise; two 1s critical failure."),
    usage=USAGE,
    examples=("sw d8", "sw d6 +1 vs 6", "sw d10 extra"),
    parse=parse,
    canonical=canonical,
    roll=roll,
    odds=odds,
)
