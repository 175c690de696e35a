"""What ``/dice odds`` shows of a preset: each outcome in the game's words with its exact chance, then the number
shown (mean, and the asked at least / at most)."""

from __future__ import annotations

from fractions import Fraction

from rules.odds import bar, percent
from rules.roll.speech import ENGLISH, Say
from rules.roll.systems.base import Odds
from rules.said import said

WIDTH = 24
"""Longest category name shown in full (the code block stays narrow enough for a phone)."""


def odds_text(odds: Odds, *, at_least: int | None = None, at_most: int | None = None, say: Say = ENGLISH) -> str:
    """A code block: one row per category (chance and a bar), the mean of the number shown, notes."""
    total = odds.totals.total
    names = [(say(name), ways) for name, ways in odds.categories]
    width = min(WIDTH, max(len(name) for name, _ in names))
    lines = []
    for name, ways in names:
        share = Fraction(ways, total)
        shown = name if len(name) <= width else name[: width - 1] + "…"
        lines.append(f"{shown:<{width}} {percent(share):>7} {bar(share, 10)}".rstrip())
    mean = f"{float(odds.totals.mean()):.2f}"
    lines.append(say(said("{shown}: mean {mean}", shown=odds.noun, mean=mean)))
    if at_least is not None:
        chance = percent(odds.totals.chance(lambda v: v >= at_least))
        lines.append(say(said("{shown} at least {value}: {chance}", shown=odds.noun, value=at_least, chance=chance)))
    if at_most is not None:
        chance = percent(odds.totals.chance(lambda v: v <= at_most))
        lines.append(say(said("{shown} at most {value}: {chance}", shown=odds.noun, value=at_most, chance=chance)))
    notes = [f"-# {say(odds.note)}"] if odds.note else []
    return "\n".join(["```", *lines, "```", *notes])
