"""/dice odds against the roller itself: every sequence of faces is fed through ``rules.roll.roll`` (weighted by its
chance), and the distribution of what it rolls must equal the exact odds, for every operator odds supports."""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction

import pytest

from rules.odds import TooCostly
from rules.roll import RollError, roll
from rules.roll.odds import odds, render_odds

MAX_DICE = 9
"""Paths longer than this are cut (explosions): the mass left out is reported and allowed for."""


class _NeedDie(Exception):
    def __init__(self, sides: int) -> None:
        self.sides = sides


class _Path:
    def __init__(self, faces: list[int]) -> None:
        self.faces = faces
        self.used = 0

    def roll(self, die_id: str, sides: int) -> int:
        if self.used == len(self.faces):
            raise _NeedDie(sides)
        self.used += 1
        return self.faces[self.used - 1]


def enumerated(expression: str) -> tuple[dict[int, Fraction], Fraction]:
    """What the roller rolls, by exhaustive search over face sequences: (chances, mass cut off)."""
    chances: dict[int, Fraction] = defaultdict(Fraction)
    cut = Fraction(0)
    stack: list[tuple[list[int], Fraction]] = [([], Fraction(1))]
    while stack:
        faces, chance = stack.pop()
        try:
            result = roll(expression, _Path(faces))  # type: ignore[arg-type]
        except _NeedDie as need:
            if len(faces) >= MAX_DICE:
                cut += chance
                continue
            stack.extend(([*faces, face], chance / need.sides) for face in range(1, need.sides + 1))
            continue
        first = result.sets[0]
        value = first.successes if first.successes is not None else first.total
        chances[value] += chance
    return dict(chances), cut


@pytest.mark.parametrize(
    "expression",
    [
        "2d6",
        "3d4kh2",
        "3d4kl1",
        "4d4pl1",
        "3d4ph1",
        "2d6rr1",
        "2d4ro<3",
        "1d6mi3 + 1d4ma2",
        "1d6mi3ro3",
        "(1d4, 1d6)kh1",
        "(1d4, 2, 1d3)pl1",
        "3d4 t3 f1",
        "2d6 + 1d4 t4",
        "3d4k>2",
        "3d4p<2",
        "1d4 * 1d3 - 2",
        "2d4 / 3",
        "1d6 // 2 + 1d6 % 3",
        "1d8 + 2 >= 6",
        "-1d4",
        "1d20+1 adv",
        "1d20 dis",
        "2d4xo4",
        "3d4 e4",
        "2d4 r1",
        "3d4 d1",
        "1d%",
    ],
)
def test_exact_odds_match_what_the_roller_rolls(expression: str) -> None:
    exact = odds(expression)
    assert exact.explode_depth == 0
    rolled, cut = enumerated(expression)
    total = exact.dist.total
    if cut == 0:
        assert {v: Fraction(c, total) for v, c in exact.dist.ways.items()} == rolled
    else:  # `rr` can reroll forever: the paths cut off bound the difference
        assert cut < Fraction(1, 1000)
        for value, chance in rolled.items():
            assert 0 <= Fraction(exact.dist.ways.get(value, 0), total) - chance <= cut


@pytest.mark.parametrize("expression", ["1d4e4", "2d4e>3", "2d3e3 t3"])
def test_explosions_are_followed_far_enough(expression: str) -> None:
    exact = odds(expression)
    assert exact.explode_depth > 0
    rolled, cut = enumerated(expression)
    total = exact.dist.total
    for value, chance in rolled.items():
        assert abs(Fraction(exact.dist.ways.get(value, 0), total) - chance) <= cut + Fraction(1, 10**8)


@pytest.mark.parametrize(
    ("expression", "reason"),
    [
        ("1000d6", "5,001 different totals"),
        ("1d6e6kh1", "after an explosion"),
        ("4d6kh3rr1", "keep it last"),
        ("1d6e>0", "never stop"),
        ("2d6ra6", "`ra` on several dice"),
        ("1d6/(1d2-1)", "divide by zero"),
    ],
)
def test_what_odds_refuse_and_why(expression: str, reason: str) -> None:
    with pytest.raises((RollError, TooCostly), match=reason):
        odds(expression)


def test_the_table_fits_a_phone_and_answers_the_question() -> None:
    text = render_odds(odds("4d6kh3"), at_least=15, at_most=8)
    assert "at least 15: 23.1%" in text and "at most 8: 10.5%" in text and "mean 12.24" in text
    assert max(len(line) for line in text.splitlines()) <= 40
    wide = render_odds(odds("10d100"))
    assert len(wide.splitlines()) <= 26 and len(wide) < 1500
