"""What every game-system preset provides (:class:`System`), and the pieces they share.

A preset reads its own short notation (``bitd 3``, ``pbta +2``), rolls every die from the injected
:class:`~rules.dice.DiceSource`, and answers in the game's own words. Its exact odds come from the same judging
function as its rolls, over every way the dice can land (:func:`count_outcomes`), so a roll and its odds never
disagree. Pure: no Discord, no I/O, nothing kept between calls.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations_with_replacement, product
from typing import Any

from rules.dice import DiceSource
from rules.odds import Dist, TooCostly
from rules.roll.errors import RollError
from rules.roll.model import DiceGroup, Face, Part, Text
from rules.said import said

Faces = tuple[tuple[int, ...], ...]
"""The faces of each group of dice, in the order the preset declared its groups."""
Judge = Callable[[Faces], tuple[str, int]]
"""Faces → (the game's word for the outcome, the number shown)."""
Die = tuple[tuple[int, int], ...]
"""A die for counting: ``(face, ways)`` pairs. A face may stand for several that the judge treats alike (a
Shadowrun die is "1", "2 to 4" and "5 or 6"), which is only allowed where the number shown is the same for
all of them: the tests enumerate every real face and compare."""
OUTCOME_LIMIT = 200_000
"""Distinct landings one answer may judge (the largest pools allowed take about 50,000)."""


@dataclass(frozen=True, slots=True)
class Rolled:
    """One preset roll: its dice laid out for display, the number shown and the game's words."""

    parts: tuple[Part, ...]
    total: int
    category: str
    verdict: str
    """The game's words for this roll (the category, with details such as banes or a match)."""
    state: tuple[int, ...] = ()
    """What a follow-up needs (the faces a Year Zero push starts from)."""


@dataclass(frozen=True, slots=True)
class Odds:
    """Exact chances of a preset roll: each category's ways and each shown number's, out of the same total."""

    categories: tuple[tuple[str, int], ...]
    totals: Dist
    noun: str
    """What the shown number is: "total", "highest die", "hits"…"""
    note: str = ""


@dataclass(frozen=True, slots=True)
class System:
    """A game system's dice, declared once in ``rules/roll/systems/__init__.py``."""

    key: str
    words: tuple[str, ...]
    """Every word that calls it in ``/roll``, ``key`` first (lower case)."""
    name: str
    summary: str
    usage: str
    examples: tuple[str, ...]
    parse: Callable[[str], Any]
    """Arguments (what follows the word) → frozen, picklable parameters; RollError when they don't fit."""
    canonical: Callable[[Any], str]
    """Parameters → the notation written back in full (parsing it again gives the same parameters)."""
    roll: Callable[[Any, DiceSource], Rolled]
    odds: Callable[[Any], Odds]
    push: Callable[[Any, tuple[int, ...], DiceSource], Rolled] | None = None
    """Year Zero's push: re-roll from a roll's ``state``, once."""
    pattern: re.Pattern[str] | None = None
    """Another way to call it, matched on the whole text (Fate's ``4dF+2``); its arguments are the whole text."""


# -- arguments --------------------------------------------------------------------------------------------

_TOKEN = re.compile(r"\s*(?:(?P<number>[+-]?\s*\d+)(?![a-z])|(?P<word>[a-z]+)\s*(?P<value>[+-]?\d+)?)", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Args:
    """A preset's arguments read into numbers (in order) and options (``vs 15``, ``h2``, ``adv``)."""

    numbers: tuple[int, ...]
    options: dict[str, int | None]

    def option(self, name: str, default: int | None = None) -> int | None:
        """The number given with ``name`` (``default`` when it isn't there, None when it has no number)."""
        return self.options.get(name, default)

    def flag(self, name: str) -> bool:
        """Whether the word ``name`` was given."""
        return name in self.options


def read_args(text: str, usage: str, allowed: dict[str, bool]) -> Args:
    """Split ``text`` into numbers and options; ``allowed`` maps each option word to whether it takes a number."""
    numbers: list[int] = []
    options: dict[str, int | None] = {}
    position = 0
    text = text.strip()
    while position < len(text):
        match = _TOKEN.match(text, position)
        if match is None or match.end() == position:
            raise RollError(
                said(
                    "I can't read `{typed}` here: write `{usage}`.",
                    typed=text[position : position + 20].strip(),
                    usage=usage,
                )
            )
        position = match.end()
        if match["number"] is not None:
            numbers.append(int(match["number"].replace(" ", "")))
            continue
        word = match["word"].lower()
        if word not in allowed:
            raise RollError(said("`{word}` isn't part of this roll: write `{usage}`.", word=word, usage=usage))
        if word in options:
            raise RollError(said("Give `{word}` once.", word=word))
        if allowed[word] and match["value"] is None:
            raise RollError(said("`{word}` needs a number, like `{word} 3`: write `{usage}`.", word=word, usage=usage))
        if not allowed[word] and match["value"] is not None:
            numbers.append(int(match["value"]))
        options[word] = int(match["value"]) if allowed[word] else None
    return Args(tuple(numbers), options)


def within(value: int, low: int, high: int, what: str) -> int:
    """``value``, or a RollError saying the range it must be in (``what`` is a ``said`` noun: "A pool")."""
    if not low <= value <= high:
        raise RollError(
            said("{what} goes from {low} to {high}, not {value}.", what=what, low=low, high=high, value=value)
        )
    return value


def signed(value: int) -> str:
    """``+2``, ``-1``, ``+0``."""
    return f"{value:+d}"


# -- dice and display -------------------------------------------------------------------------------------


def draw(source: DiceSource, die_id: str, sides: int, count: int) -> tuple[int, ...]:
    """``count`` dice of ``sides`` from the source, named ``die_id.1``, ``die_id.2``…"""
    return tuple(source.roll(f"{die_id}.{i}", sides) for i in range(1, count + 1))


def group(label: str, sides: int | str, values: Sequence[int], kept: Sequence[bool] | None = None) -> DiceGroup:
    """Dice shown as ``label [faces]`` (dropped faces struck through)."""
    marks = kept if kept is not None else [True] * len(values)
    faces = tuple(Face(value, kept=keep) for value, keep in zip(values, marks, strict=True))
    return DiceGroup(label, sides, faces)


def modifier_parts(modifier: int) -> tuple[Part, ...]:
    """`` + 2`` after the dice, nothing for zero."""
    if modifier == 0:
        return ()
    return (Text(" + " if modifier > 0 else " - "), Text(str(abs(modifier))))


def plain(sides: int) -> Die:
    """Every face of a die, once."""
    return tuple((face, 1) for face in range(1, sides + 1))


# -- exact odds -------------------------------------------------------------------------------------------


def count_outcomes(
    groups: Sequence[tuple[Die, int]], judge: Judge, categories: Sequence[str], noun: str, note: str = ""
) -> Odds:
    """Judge every way ``groups`` (a die and how many of it) can land, counting ways per category and per number.

    Dice within a group are alike, so each multiset of faces is judged once, weighted by how many orderings give
    it: ten d6 are 3,003 multisets, not 60 million landings."""
    per_group = [list(_multisets(die, count)) for die, count in groups]
    if math.prod(len(landings) for landings in per_group) > OUTCOME_LIMIT:
        raise TooCostly(said("that pool has over {most} different landings", most=format(OUTCOME_LIMIT, ",")))
    by_category = dict.fromkeys(categories, 0)
    totals: dict[int, int] = {}
    for combination in product(*per_group):
        ways = math.prod(w for _, w in combination)
        category, total = judge(tuple(faces for faces, _ in combination))
        by_category[category] += ways
        totals[total] = totals.get(total, 0) + ways
    return Odds(tuple(by_category.items()), Dist(totals), noun, note)


def _multisets(die: Die, count: int) -> Iterator[tuple[tuple[int, ...], int]]:
    for chosen in combinations_with_replacement(range(len(die)), count):
        times = [chosen.count(index) for index in range(len(die))]
        orderings = math.factorial(count) // math.prod(math.factorial(t) for t in times)
        ways = orderings * math.prod(weight**t for (_, weight), t in zip(die, times, strict=True))
        yield tuple(die[index][0] for index in chosen), ways
