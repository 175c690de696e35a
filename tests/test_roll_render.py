"""Markdown for a roll: every die when it fits, graceful summaries when it doesn't, never over the limit."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.dice import ScriptedDice, SystemDice
from rules.roll import render, roll
from rules.roll.render import SHRUNK_NOTE


def shown(expression: str, *faces: int) -> str:
    return render(roll(expression, ScriptedDice(faces)))


def test_every_die_and_the_total() -> None:
    assert shown("4d6kh3", 6, 5, 2, 4) == "4d6kh3 [**6**, 5, ~~2~~, 4] = **15**"


def test_arithmetic_around_dice() -> None:
    assert shown("1d20+5", 14) == "1d20 [14] + 5 = **19**"


def test_markers_for_exploded_rerolled_and_forced_dice() -> None:
    assert shown("2d6e6", 6, 3, 2) == "2d6e6 [**6!**, 3, 2] = **11**"
    assert shown("1d6rr1", 1, 4) == "1d6rr1 [~~1~~→4] = **4**"
    assert shown("1d6mi3", 2) == "1d6mi3 [2→3] = **3**"


def test_successes_are_bold_and_failures_italic() -> None:
    assert shown("4d10 t7 f1", 10, 7, 3, 1) == "4d10 [**10**, **7**, 3, *1*] = **1** success"


def test_dropped_terms_are_struck_once() -> None:
    assert shown("(1d4, 1d6)kh1", 2, 5) == "(~~1d4 [2]~~, 1d6 [5])kh1 = **5**"


def test_repeated_sets_are_numbered() -> None:
    assert shown("2x 1d6", 3, 4) == "1. 1d6 [3] = **3**\n2. 1d6 [4] = **4**"


def test_user_text_goes_through_escape() -> None:
    text = render(roll("1d4[@x] # *loud*", ScriptedDice([2])), escape=lambda s: s.upper())
    assert text.splitlines() == ["***LOUD***", "1d4 [2] [@X] = **2**"]


def test_many_dice_are_tallied() -> None:
    text = render(roll("1000d6e6", SystemDice()))
    assert len(text) <= 2000
    assert "×" in text and text.endswith(SHRUNK_NOTE)


def test_huge_output_shrinks_to_totals() -> None:
    text = render(roll("20x 50d10000kh49 # " + "L" * 100, SystemDice()))
    assert len(text) <= 2000
    assert text.count("50 dice →") == 20


@settings(deadline=None, max_examples=50)
@given(limit=st.integers(min_value=1, max_value=2000))
def test_never_over_the_limit(limit: int) -> None:
    result = roll("20x 50d10000e>9000 t5000 # " + "@everyone " * 20, SystemDice())
    assert len(render(result, limit=limit)) <= limit
