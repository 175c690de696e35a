"""Exact odds, the one way the project computes them: distributions as integer outcome counts, and their text.

A die has a whole number of equally likely outcomes, so any roll's distribution is a map from value to how many
of its equally likely outcomes give that value; sums are convolutions of those counts, and only the final
answers become ``Fraction``s. Integers keep everything exact and fast. Used by ``/vic odds``
(``rules/viciousness/odds.py``) and ``/dice odds`` (``rules/roll/odds.py``).

Why not icepool (a well-kept library for exactly this): measured on ``/vic odds``'s pools (bench/odds.py's
mixed d4/d6 pools, 5 to 40 dice a side), icepool took 2–14 ms where these counts take 0.03–1.4 ms, and d20's
notation still needs its own mapping onto whatever computes the odds; so no dependency is added.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from rules.said import said

Value = int | float | Fraction
"""A value a distribution holds: whole numbers, and what d20's `/` makes of them (a float), or an exact fraction."""

BAR_WIDTH = 12
_PARTIAL_BLOCKS = ("", "▏", "▎", "▍", "▌", "▋", "▊", "▉")


class TooCostly(ValueError):
    """The exact distribution would take too long or too much memory; ``str`` says why, for the user."""


def convolve(a: Sequence[int], b: Sequence[int]) -> list[int]:
    """Outcome counts of the sum of two independent counts (index = value)."""
    out = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                out[i + j] += x * y
    return out


@dataclass(frozen=True, slots=True)
class Dist:
    """A distribution: ``ways[value]`` of its ``total`` equally likely outcomes give ``value``."""

    ways: dict[Any, int]
    """Value → ways; a value is an int or a Fraction (``rules/roll/odds.py`` also marks dropped dice)."""

    @property
    def total(self) -> int:
        """How many equally likely outcomes in all."""
        return sum(self.ways.values())

    @staticmethod
    def constant(value: Value) -> Dist:
        """Always ``value``."""
        return Dist({value: 1})

    @staticmethod
    def uniform(values: Iterable[Value]) -> Dist:
        """Each of ``values`` once (a die's faces)."""
        ways: dict[Value, int] = {}
        for value in values:
            ways[value] = ways.get(value, 0) + 1
        return Dist(ways)

    def map(self, f: Callable[[Any], Any]) -> Dist:
        """The distribution of ``f(value)``."""
        ways: dict[Value, int] = {}
        for value, count in self.ways.items():
            key = f(value)
            ways[key] = ways.get(key, 0) + count
        return Dist(ways)

    def combine(self, other: Dist, f: Callable[[Value, Value], Value], limit: int) -> Dist:
        """The distribution of ``f(a, b)`` for independent ``a`` (self) and ``b`` (other)."""
        if len(self.ways) * len(other.ways) > limit:
            raise TooCostly(
                said(
                    "that combines {left} × {right} values",
                    left=format(len(self.ways), ","),
                    right=format(len(other.ways), ","),
                )
            )
        if all(isinstance(v, int) for v in (*self.ways, *other.ways)) and f is _add:
            return self._dense_sum(other)
        ways: dict[Value, int] = {}
        for a, x in self.ways.items():
            for b, y in other.ways.items():
                key = f(a, b)
                ways[key] = ways.get(key, 0) + x * y
        return Dist(ways)

    def plus(self, other: Dist, limit: int) -> Dist:
        """The distribution of the sum."""
        return self.combine(other, _add, limit)

    def _dense_sum(self, other: Dist) -> Dist:
        low_a, low_b = min(self.ways), min(other.ways)
        a = _dense(self.ways, int(low_a))
        b = _dense(other.ways, int(low_b))
        summed = convolve(a, b)
        return Dist({int(low_a) + int(low_b) + i: c for i, c in enumerate(summed) if c})

    def repeat(self, n: int, limit: int, plus: Callable[[Dist, Dist], Dist] | None = None) -> Dist:
        """The sum of ``n`` independent copies (by squaring: 100 dice take seven convolutions); ``plus`` adds two
        distributions, when the caller counts its steps."""
        add = plus or (lambda a, b: a.plus(b, limit))
        result = Dist.constant(0)
        power = self
        while n:
            if n & 1:
                result = add(result, power)
            n >>= 1
            if n:
                power = add(power, power)
        return result

    def chance(self, test: Callable[[Value], bool]) -> Fraction:
        """The chance that ``test(value)`` holds."""
        return Fraction(sum(c for v, c in self.ways.items() if test(v)), self.total)

    def mean(self) -> Fraction:
        """The expected value."""
        return Fraction(self._moment(1), self.total)

    def sd(self) -> float:
        """The standard deviation."""
        total = self.total
        # N·Σv²c − (Σvc)², over N²: one pass of exact sums, no fraction per value (72,000 values took 7 s).
        variance = Fraction(total * self._moment(2) - self._moment(1) ** 2, total * total)
        return math.sqrt(variance)

    def _moment(self, power: int) -> int | Fraction:
        """Σ value^power × ways, exact (whole numbers stay integers)."""
        if all(isinstance(v, int) for v in self.ways):
            return sum(v**power * c for v, c in self.ways.items())
        return sum(Fraction(v) ** power * c for v, c in self.ways.items())


def _add(a: Value, b: Value) -> Value:
    return a + b


def _dense(ways: dict[Value, int], low: int) -> list[int]:
    out = [0] * (int(max(ways)) - low + 1)
    for value, count in ways.items():
        out[int(value) - low] += count
    return out


def keep(die: Dist, n: int, k: int, *, highest: bool, limit: int) -> Dist:
    """The sum of the ``k`` highest (or lowest) of ``n`` independent dice each distributed as ``die``.

    Values are visited from the best down, assigning some of the dice still free to each value: how many ways
    (a binomial times the value's ways to the power) and how many of them are kept (those while fewer than ``k``
    are kept so far). The state is (dice assigned, sum kept), so the cost is values × n² × sums.
    """
    values = sorted(die.ways, reverse=highest)
    k = max(0, min(k, n))
    cost = len(values) * n * n * max(1, k) * len(values)
    if cost > limit:
        raise TooCostly(
            said("keeping {kept} of {dice} dice of {values} values each", kept=k, dice=n, values=len(values))
        )
    states: dict[tuple[int, Value], int] = {(0, 0): 1}
    for value in values:
        weight = die.ways[value]
        following: dict[tuple[int, Value], int] = {}
        for (assigned, kept_sum), ways in states.items():
            free = n - assigned
            for c in range(free + 1):
                kept = max(0, min(c, k - assigned))
                key = (assigned + c, kept_sum + kept * value)
                following[key] = following.get(key, 0) + ways * math.comb(free, c) * weight**c
        states = following
    result: dict[Value, int] = {}
    for (assigned, kept_sum), ways in states.items():
        if assigned == n:
            result[kept_sum] = result.get(kept_sum, 0) + ways
    return Dist(result)


def round_half_up(x: Fraction) -> int:
    """The nearest whole number, halves up."""
    return math.floor(x + Fraction(1, 2))


def percent(p: Fraction, places: int = 1) -> str:
    """``p`` as a percentage; a chance that is neither impossible nor certain never reads 0 or 100."""
    scale = 100 * 10**places
    units = round_half_up(p * scale)
    if p > 0 and units == 0:
        return f"<{1 / 10**places:.{places}f}%"
    if p < 1 and units == scale:
        return f">{(scale - 1) / 10**places:.{places}f}%"
    return f"{units / 10**places:.{places}f}%"


def bar(p: Fraction, width: int = BAR_WIDTH) -> str:
    """A bar of ``p × width`` blocks in eighths; any chance at all gets a sliver, so it agrees with "<0.1%"."""
    eighths = round_half_up(p * width * 8)
    if p > 0:
        eighths = max(eighths, 1)
    full, part = divmod(eighths, 8)
    return "█" * full + _PARTIAL_BLOCKS[part]
