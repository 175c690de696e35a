"""What ``/dice odds`` shows of a preset: each outcome in the game's words with its exact chance, then the number
shown (mean, and the asked at least / at most)."""

from __future__ import annotations

from fractions import Fraction

from rules.odds import bar, percent
from rules.roll.systems.base import Odds

WIDTH = 24
"""Longest category name shown in full (the code block stays narrow enough for a phone)."""


def odds_text(odds: Odds, *, at_least: int | None = None, at_most: int | None = None) -> str:
    """A code block: one row per category (chance and a bar), the mean of the number shown, notes."""
    total = odds.totals.total
    width = min(WIDTH, max(len(name) for name, _ in odds.categories))
    lines = []
    for name, ways in odds.categories:
        share = Fraction(ways, total)
        shown = name if len(name) <= width else name[: width - 1] + "…"
        lines.append(f"{shown:<{width}} {percent(share):>7} {bar(share, 10)}".rstrip())
    lines.append(f"{odds.noun}: mean {float(odds.totals.mean()):.2f}")
    if at_least is not None:
        lines.append(f"{odds.noun} at least {at_least}: {percent(odds.totals.chance(lambda v: v >= at_least))}")
    if at_most is not None:
        lines.append(f"{odds.noun} at most {at_most}: {percent(odds.totals.chance(lambda v: v <= at_most))}")
    notes = [f"-# {odds.note}"] if odds.note else []
    return "\n".join(["```", *lines, "```", *notes])
