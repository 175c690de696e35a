"""Vampire: the Masquerade 5th edition: a d10 pool, some of it Hunger dice.

``vtm 7 h2 vs 3``: 6+ is a success, each pair of 10s adds two more (a critical). A critical win with a 10 on a
Hunger die is a messy critical; a failure with a 1 on a Hunger die is a bestial failure. Without ``vs`` the
difficulty is 1."""

from __future__ import annotations

from dataclasses import dataclass

from rules.dice import DiceSource
from rules.roll.errors import RollError
from rules.roll.model import Part, Text
from rules.roll.systems.base import Die, Faces, Odds, Rolled, System, count_outcomes, draw, group, read_args, within
from rules.said import said, said_n

USAGE = "vtm 7 h2 (vs 3)"
MESSY, CRITICAL, WIN = said("Messy critical"), said("Critical win"), said("Win")
FAILURE, BESTIAL = said("Failure"), said("Bestial failure")
CATEGORIES = (MESSY, CRITICAL, WIN, FAILURE, BESTIAL)
MAX_POOL = 30
MAX_HUNGER = 5
# For counting, faces that judge alike are one: a normal die's 1 is no different from its 2–5.
NORMAL_DIE: Die = ((1, 5), (6, 4), (10, 1))
HUNGER_DIE: Die = ((1, 1), (2, 4), (6, 4), (10, 1))


@dataclass(frozen=True, slots=True)
class Params:
    """The whole pool, how many of it are Hunger dice, and the difficulty."""

    pool: int
    hunger: int = 0
    difficulty: int = 1


def parse(text: str) -> Params:
    """``7 h2 vs 3`` → Params(7, 2, 3)."""
    args = read_args(text, USAGE, {"h": True, "hunger": True, "vs": True})
    if not args.numbers:
        raise RollError(said("How many dice? Write `{usage}`.", usage=USAGE))
    pool = within(sum(args.numbers), 1, MAX_POOL, said("A pool"))
    hunger = within(args.option("h", args.option("hunger", 0)) or 0, 0, MAX_HUNGER, said("Hunger"))
    if hunger > pool:
        raise RollError(
            said("Hunger dice are part of the pool: {hunger} of {pool} can't be.", hunger=hunger, pool=pool)
        )
    return Params(pool, hunger, within(args.option("vs", 1) or 1, 1, 30, said("The difficulty")))


def canonical(params: Params) -> str:
    """``vtm 7 h2 vs 3``."""
    versus = f" vs {params.difficulty}" if params.difficulty != 1 else ""
    return f"vtm {params.pool} h{params.hunger}{versus}"


def judge(params: Params, faces: Faces) -> tuple[str, int]:
    """Successes (a pair of 10s counts four), and the kind of win or failure."""
    normal, hunger = faces
    every = normal + hunger
    tens = every.count(10)
    successes = sum(face >= 6 for face in every) + 2 * (tens // 2)
    if successes >= params.difficulty:
        if tens >= 2:
            return (MESSY if 10 in hunger else CRITICAL), successes
        return WIN, successes
    return (BESTIAL if 1 in hunger else FAILURE), successes


def roll(params: Params, source: DiceSource) -> Rolled:
    """Roll the normal and Hunger dice and read them."""
    normal = draw(source, "vtm", 10, params.pool - params.hunger)
    hunger = draw(source, "hunger", 10, params.hunger)
    category, successes = judge(params, (normal, hunger))
    parts: list[Part] = [group(f"{len(normal)}d10", 10, normal)] if normal else []
    if hunger:
        parts += [Text(" + ")] if parts else []
        dice = f"{len(hunger)}d10"
        parts.append(group(said("Hunger {dice}", dice=dice), 10, hunger))
    if params.difficulty == 1:
        verdict = said_n("{outcome} ({n} success)", "{outcome} ({n} successes)", successes, outcome=category)
    else:
        verdict = said_n(
            "{outcome} ({n} success vs {difficulty})",
            "{outcome} ({n} successes vs {difficulty})",
            successes,
            outcome=category,
            difficulty=params.difficulty,
        )
    return Rolled(tuple(parts), successes, category, verdict)


def odds(params: Params) -> Odds:
    """Every landing of the pool, by faces that count alike."""
    groups = [(NORMAL_DIE, params.pool - params.hunger), (HUNGER_DIE, params.hunger)]
    return count_outcomes(groups, lambda faces: judge(params, faces), CATEGORIES, said("successes"))


SYSTEM = System(
    key="vtm",
    words=("vtm", "v5"),
    name=said("Vampire: the Masquerade 5th edition"),
    summary=said("d10 pool with Hunger dice: 6+ succeeds, 10-pairs critical; messy critical, bestial failure."),
    usage=USAGE,
    examples=("vtm 7 h2", "vtm 5 h1 vs 3"),
    parse=parse,
    canonical=canonical,
    roll=roll,
    odds=odds,
)
