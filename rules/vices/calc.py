"""``/vv calc``: add up removed dice the way Vices & Vengeance scores them (RULES.md 1.6).

``calculate("d12:8 d8:3 pair:3,5 penalty:2,2,5 d20:17")`` is 17: 4 + 5 + (3+1) + (0+0+1) + 3.
Each term is ``kind:values``; the accepted kinds are in :data:`CALC_HELP`. The points come from
:mod:`rules.vices.scoring`, the rules the dice game uses too.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from rules.said import said
from rules.text import echo, whole_number
from rules.vices.scoring import SILVER_BULLET_PAIR, die_points, pair_points, penalty_points

CALC_HELP = said(
    """\
**/vv calc** adds up dice the way Vices & Vengeance scores them (lowest is best). \
Write terms as `kind:values`, separated by spaces:
• `d6` `d8` `d10` `d12` `d20` — ordinary dice score max − roll: `d12:8` is 4. \
Several dice of one size: `d6:1,3,5`.
• `pair` — a Mythical pair, scored whole: `pair:3,5` is 3 + 1; a match scores 0 (`pair:4,4`).
• `bullet` — Silver Bullet, then Werewolf: `bullet:1,2` is 0, the wild face matches any Werewolf.
• `penalty` — a Sin-match penalty roll of 2 to 4 d6: `penalty:2,2,5` is 0 + 0 + 1; matching dice score 0.
• `nemesis` — matching Nemesis d20s removed together score 0: `nemesis:7,7`.
• `wild` — the Silver Bullet's wild face for this sum: `wild:6`, or `wild:none` (default: the sheet's, 1).
Example: `d12:8 d8:3 pair:3,5 penalty:2,2,5 d20:17` → 17."""
)

_DICE = {f"d{sides}": sides for sides in (6, 8, 10, 12, 20)}
TERM_ECHO = 30
"""How much of a bad term a message repeats."""
MAX_TERMS = 30
MAX_DICE = 60
"""More than a whole turn can remove (17 dice, penalties, absorbed d20s); keeps ``render`` under 2,000 chars."""
PENALTY_DICE = (2, 4)
"""A penalty roll: the small and large Sin dice, plus Pride's metallic die and/or Gluttony's taken die."""

_KINDS = "d6, d8, d10, d12, d20, pair, bullet, penalty, nemesis"
"""The kinds of term but ``wild``, as typed (code: never translated)."""
MATCH = said("match")
"""Why a matching pair or Nemesis group scores 0 (a term's ``note``)."""


class CalcError(ValueError):
    """A term the calculator cannot read; the message names it and says what would work."""


@dataclass(frozen=True, slots=True)
class Part:
    """One term: what was rolled and what it scores."""

    kind: str
    """``d12``, ``pair``, ``bullet``, ``penalty`` or ``nemesis``."""
    values: tuple[int, ...]
    points: tuple[int, ...]
    """Each die's points, or empty when the term scores 0 as a whole (a match, the wild Silver Bullet)."""
    total: int
    note: str = ""
    """Why a whole term scores 0: ``match`` or ``wild Silver Bullet``."""

    def render(self, say: Callable[[str], str] = str) -> str:
        """``pair 3,5 → 3+1 = 4``, ``d12 8 → 4``, ``pair 4,4 → match = 0`` (``say`` says the note in a language)."""
        rolled = f"{self.kind} {','.join(map(str, self.values))} → "
        if self.note:
            return f"{rolled}{say(self.note)} = 0"
        if len(self.points) == 1:
            return f"{rolled}{self.total}"
        return f"{rolled}{'+'.join(map(str, self.points))} = {self.total}"


@dataclass(frozen=True, slots=True)
class Calculation:
    """Every term's points and the sum."""

    parts: tuple[Part, ...]
    total: int
    wild_face: int | None

    def render(self, say: Callable[[str], str] = str) -> str:
        """One line per term, then ``Total: 4 + 5 + 4 + 1 + 3 = 17`` (at most 2,000 characters); ``say`` says
        the words in a language (``bot.i18n.localize``)."""
        lines = [part.render(say) for part in self.parts]
        sums = " + ".join(str(p.total) for p in self.parts)
        total = said("Total: {sums} = {total}", sums=sums, total=self.total) if len(self.parts) > 1 else None
        lines.append(say(total or said("Total: {total}", total=self.total)))
        return "\n".join(lines)


def _short(term: str) -> str:
    """A bad term as a message repeats it: in a code span, 30 characters at most."""
    return echo(term, TERM_ECHO, code=True)


def _numbers(term: str, text: str, low: int, high: int, what: str) -> tuple[int, ...]:
    if not text:
        raise CalcError(said("{term}: give what the dice show, e.g. `d12:8`.", term=_short(term)))
    values = []
    for item in text.split(","):
        if not item:
            raise CalcError(said("{term}: a value is missing between commas.", term=_short(term)))
        value = whole_number(item)
        if value is None:
            raise CalcError(said("{term}: {item} is not a whole number.", term=_short(term), item=_short(item)))
        if not low <= value <= high:
            raise CalcError(said("{term}: {what} {low} to {high}.", term=_short(term), what=what, low=low, high=high))
        values.append(value)
    return tuple(values)


def _dice(term: str, sides: int, text: str) -> Part:
    values = _numbers(term, text, 1, sides, said("a d{sides} shows", sides=sides))
    points = tuple(die_points(sides, v) for v in values)
    return Part(f"d{sides}", values, points, sum(points))


def _pair(term: str, kind: str, text: str, wild_face: int | None) -> Part:
    values = _numbers(term, text, 1, 6, said("Mythical dice show"))
    if len(values) != 2:
        example = "bullet:1,2" if kind == "bullet" else "pair:3,5"
        raise CalcError(said("{term}: a pair is two dice, e.g. `{example}`.", term=_short(term), example=example))
    first, second = values
    pair = SILVER_BULLET_PAIR if kind == "bullet" else "mirror_medusa"  # the two plain pairs score alike
    total = pair_points(pair, first, second, wild_face=wild_face)
    if total == 0 and first != second:
        return Part(kind, values, (), 0, said("wild Silver Bullet"))
    if total == 0:
        return Part(kind, values, (), 0, MATCH)
    return Part(kind, values, (die_points(6, first), die_points(6, second)), total)


def _penalty(term: str, text: str) -> Part:
    values = _numbers(term, text, 1, 6, said("penalty dice are d6s and show"))
    low, high = PENALTY_DICE
    if not low <= len(values) <= high:
        raise CalcError(
            said(
                "{term}: a penalty roll has {low} to {high} dice, e.g. `penalty:2,2,5`.",
                term=_short(term),
                low=low,
                high=high,
            )
        )
    counts = Counter(values)
    # Shown die by die so a player sees which dice matched; the sum is the shared rule's.
    points = tuple(0 if counts[v] > 1 else die_points(6, v) for v in values)
    return Part("penalty", values, points, penalty_points(values))


def _nemesis(term: str, text: str) -> Part:
    values = _numbers(term, text, 1, 20, said("Nemesis dice are d20s and show"))
    if len(values) < 2 or len(set(values)) != 1:
        raise CalcError(
            said(
                "{term}: only matching Nemesis dice score 0 together, e.g. `nemesis:7,7`; "
                "score any other d20 with `d20:`.",
                term=_short(term),
            )
        )
    return Part("nemesis", values, (), 0, MATCH)


def _wild(term: str, text: str) -> int | None:
    if text == "none":
        return None
    values = _numbers(term, text, 1, 6, said("the wild face is"))
    if len(values) != 1:
        raise CalcError(said("{term}: give one face, e.g. `wild:1`, or `wild:none`.", term=_short(term)))
    return values[0]


def calculate(text: str, *, wild_face: int | None = 1) -> Calculation:
    """Score every term of ``text``.

    ``wild_face`` is the sheet's Silver Bullet face (``vv.silver_bullet_wild_face``) unless a
    ``wild:`` term says otherwise. Raises CalcError (a ValueError) naming the first term it cannot read.
    """
    # "pair: 3, 5" reads like "pair:3,5"; case does not matter.
    terms = re.sub(r"\s*([:,])\s*", r"\1", text.strip().lower()).split()
    if not terms:
        raise CalcError(said("Nothing to add up: try `d12:8 d8:3 pair:3,5`."))
    if len(terms) > MAX_TERMS:
        raise CalcError(said("That is more than {most} terms; add up a turn in parts.", most=MAX_TERMS))
    split = [term.partition(":") for term in terms]
    wilds = [(term, value) for term, (_, _, value) in zip(terms, split, strict=True) if term.startswith("wild:")]
    if len(wilds) > 1:
        raise CalcError(said("{term}: give the wild face once.", term=_short(wilds[1][0])))
    if wilds:
        wild_face = _wild(*wilds[0])
    parts: list[Part] = []
    for term, (kind, colon, value) in zip(terms, split, strict=True):
        if not colon:
            raise CalcError(said("{term}: write a term as `kind:values`, e.g. `d12:8`.", term=_short(term)))
        if kind in ("pair", "bullet"):
            parts.append(_pair(term, kind, value, wild_face))
        elif kind == "penalty":
            parts.append(_penalty(term, value))
        elif kind == "nemesis":
            parts.append(_nemesis(term, value))
        elif kind in _DICE:
            parts.append(_dice(term, _DICE[kind], value))
        elif kind != "wild":
            raise CalcError(said("{term}: unknown kind of die; use {kinds} or wild.", term=_short(term), kinds=_KINDS))
    if not parts:
        raise CalcError(said("Nothing to add up: `wild:` only sets the Silver Bullet's face."))
    if sum(len(p.values) for p in parts) > MAX_DICE:
        raise CalcError(said("That is more than {most} dice; add up a turn in parts.", most=MAX_DICE))
    return Calculation(tuple(parts), sum(p.total for p in parts), wild_face)
