"""Year Zero Engine (Mutant: Year Zero, Forbidden Lands…): base, skill and gear d6; every 6 is a success.

``yz 3 2 1`` rolls 3 base, 2 skill and 1 gear dice. Once per roll it may be *pushed*: every die that is not a 6
is rolled again, except base and gear dice showing 1 (banes). After a push, base banes hurt the character and
gear banes lower the gear's bonus."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from rules.dice import DiceSource
from rules.roll.errors import RollError
from rules.roll.model import Part, Text
from rules.roll.speech import listing
from rules.roll.systems.base import Die, Faces, Odds, Rolled, System, count_outcomes, draw, group, read_args, within
from rules.said import said, said_n

USAGE = "yz 3 2 1 (base skill gear)"
SUCCESS, FAILURE = said("Success"), said("Failure")
CATEGORIES = (SUCCESS, FAILURE)
MAX_GROUP = 10
# For counting: a bane (1), nothing (2–5), a success (6).
DIE: Die = ((1, 1), (2, 4), (6, 1))
KINDS = ("base", "skill", "gear")
KIND_DICE: dict[str, Callable[[str], str]] = {
    "base": lambda dice: said("base {dice}", dice=dice),
    "skill": lambda dice: said("skill {dice}", dice=dice),
    "gear": lambda dice: said("gear {dice}", dice=dice),
}
"""Each kind's dice as shown (``base 3d6``); the kind's own name also names its dice for the source."""
HARM: dict[str, Callable[[int], str]] = {
    "base": lambda count: said("{count} damage or stress", count=count),
    "gear": lambda count: said("{count} gear bonus lost", count=count),
}
"""What a pushed roll's banes do, by kind of die."""
RANGES = {"base": said("Base dice"), "skill": said("Skill dice"), "gear": said("Gear dice")}


@dataclass(frozen=True, slots=True)
class Params:
    """Base, skill and gear dice."""

    base: int
    skill: int = 0
    gear: int = 0

    @property
    def counts(self) -> tuple[int, int, int]:
        """Dice of each kind, in order."""
        return self.base, self.skill, self.gear


def parse(text: str) -> Params:
    """``3 2 1`` → Params(3, 2, 1)."""
    numbers = read_args(text, USAGE, {}).numbers
    if not 1 <= len(numbers) <= 3:
        raise RollError(said("Give base, skill and gear dice: `{usage}`.", usage=USAGE))
    counts = [within(n, 0, MAX_GROUP, RANGES[kind]) for n, kind in zip(numbers, KINDS, strict=False)]
    if not any(counts):
        raise RollError(said("Roll at least one die."))
    return Params(*counts)


def canonical(params: Params) -> str:
    """``yz 3 2 1``."""
    return f"yz {params.base} {params.skill} {params.gear}"


def judge(params: Params, faces: Faces) -> tuple[str, int]:
    """Successes: every 6, whatever kind of die."""
    successes = sum(die.count(6) for die in faces)
    return (SUCCESS if successes else FAILURE), successes


def _split(params: Params, state: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    base, skill = params.base, params.skill
    return state[:base], state[base : base + skill], state[base + skill :]


def _rolled(params: Params, faces: tuple[tuple[int, ...], ...], *, pushed: bool) -> Rolled:
    category, successes = judge(params, faces)
    parts: list[Part] = []
    for kind, dice in zip(KINDS, faces, strict=True):
        if dice:
            if parts:
                parts.append(Text(" + "))
            parts.append(group(KIND_DICE[kind](f"{len(dice)}d6"), 6, dice))
    verdict: str = said_n("{outcome} ({n} success)", "{outcome} ({n} successes)", successes, outcome=category)
    if pushed:
        verdict = said("Pushed: {verdict}", verdict=verdict)
        hurts = [
            HARM[kind](dice.count(1)) for kind, dice in zip(KINDS, faces, strict=True) if kind in HARM and dice.count(1)
        ]
        if hurts:
            verdict = said("{verdict} · {hurts}", verdict=verdict, hurts=listing(hurts))
    return Rolled(tuple(parts), successes, category, verdict, state=tuple(f for dice in faces for f in dice))


def roll(params: Params, source: DiceSource) -> Rolled:
    """Roll base, skill and gear dice."""
    faces = tuple(draw(source, kind, 6, count) for kind, count in zip(KINDS, params.counts, strict=True))
    return _rolled(params, faces, pushed=False)


def push(params: Params, state: tuple[int, ...], source: DiceSource) -> Rolled:
    """Roll again every die that is not a 6, keeping base and gear 1s."""
    if len(state) != sum(params.counts):
        raise RollError(said("That roll can't be pushed: its dice don't match."))
    faces = []
    for kind, dice in zip(KINDS, _split(params, state), strict=True):
        again = [
            face if face == 6 or (face == 1 and kind != "skill") else source.roll(f"push.{kind}.{i}", 6)
            for i, face in enumerate(dice, 1)
        ]
        faces.append(tuple(again))
    return _rolled(params, tuple(faces), pushed=True)


def odds(params: Params) -> Odds:
    """Every landing of the dice (all alike for successes)."""
    return count_outcomes(
        [(DIE, sum(params.counts))],
        lambda faces: judge(params, faces),
        CATEGORIES,
        said("successes"),
        note=said("Before any push."),
    )


SYSTEM = System(
    key="yz",
    words=("yz", "yze", "yearzero"),
    name=said("Year Zero Engine"),
    summary=said("Base, skill and gear d6: each 6 a success; push once to re-roll all but 6s and base/gear 1s."),
    usage=USAGE,
    examples=("yz 3 2 1", "yz 4 1"),
    parse=parse,
    canonical=canonical,
    roll=roll,
    odds=odds,
    push=push,
)
