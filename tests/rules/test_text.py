"""Typed text as messages show it: escaped, and cut and isolated where a refusal repeats it; typed numbers."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.text import ECHO_MAX, echo, escape, whole_number

ISOLATE, END, OVERRIDE = "\u2068", "\u2069", "\u202e"


def test_markdown_and_mentions_are_made_inert() -> None:
    assert escape("**Bo**_") == "\\*\\*Bo\\*\\*\\_"
    assert escape("# Big\n> quote") == "\\# Big\n\\> quote"
    assert "@\u200beveryone" in escape("@everyone") and "<\u200b@123>" in escape("<@123>")


def test_an_echo_is_one_short_line_in_quotes() -> None:
    assert echo("Zorro") == f"“{ISOLATE}Zorro{END}”"
    assert echo("  two\nlines\tand\x00nul  ") == f"“{ISOLATE}two lines and nul{END}”"
    long = echo("x" * 2000)
    assert long == f"“{ISOLATE}{'x' * (ECHO_MAX - 1)}…{END}”"
    assert echo("@everyone **hi**") == f"“{ISOLATE}@\u200beveryone \\*\\*hi\\*\\*{END}”"


def test_a_direction_override_stays_inside_the_echo() -> None:
    text = f"No character is called {echo(OVERRIDE + 'evil')}: pick one."
    assert text.index(ISOLATE) < text.index(OVERRIDE) < text.index(END) < text.index(": pick")


def test_a_term_is_echoed_in_a_code_span() -> None:
    assert echo("d`7:3", 30, code=True) == f"`{ISOLATE}d'7:3{END}`"
    assert echo("x" * 50, 30, code=True) == f"`{ISOLATE}{'x' * 29}…{END}`"


@given(st.text(max_size=3000), st.integers(1, 200))
def test_an_echo_never_grows_past_its_limit(typed: str, limit: int) -> None:
    """Escaping at most doubles what is kept, so a refusal's length is bounded whatever was typed."""
    assert len(echo(typed, limit)) <= 3 * limit + 4
    assert "\n" not in echo(typed, limit)


@pytest.mark.parametrize(
    ("typed", "number"),
    [
        ("12", 12),
        (" 7 ", 7),
        ("007", 7),
        ("0" * 6000, 0),
        ("9" * 6000, 10**9),
        ("1234567890", 10**9),
        ("", None),
        (" ", None),
        ("-1", None),
        ("1.5", None),
        ("1e3", None),
        ("²", None),
        ("٣", None),
    ],
)
def test_typed_whole_numbers(typed: str, number: int | None) -> None:
    assert whole_number(typed) == number
