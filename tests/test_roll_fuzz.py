"""Any string at all gives a roll or a RollError, never another exception."""

from __future__ import annotations

import os
import random
from dataclasses import replace

import d20
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from rules.dice import SystemDice
from rules.roll import DEFAULT_LIMITS, RollError, RollResult, render, roll

# Kept local (tests/conftest.py belongs to the fake Discord): random locally, reproducible in CI.
settings.register_profile(
    "roll",
    deadline=None,
    derandomize=os.environ.get("CI") == "true",
    max_examples=400,
    suppress_health_check=[HealthCheck.too_slow],
)
ROLL_SETTINGS = settings.get_profile("roll")

# Pieces of the notation, so the fuzzer spends its time near valid rolls as well as on noise.
TOKENS = [
    *"0123456789",
    "d", "d20", "d6", "d%", "1000", "10000", "k", "p", "h", "l", "kh", "kl", "ph", "pl",
    "rr", "ro", "ra", "e", "mi", "ma", "<", ">", "==", ">=", "<=", "!=",
    "+", "-", "*", "/", "//", "%", "(", ")", ",", ".", " ", "[", "]", "x", "t", "f", "#",
    "adv", "dis", "@everyone", "`", "~", "\n", "é", "🎲",
]  # fmt: skip
notation = st.lists(st.sampled_from(TOKENS), max_size=40).map("".join)


def check(text: str) -> None:
    try:
        result = roll(text, SystemDice())
    except RollError as error:
        assert str(error)
        return
    assert isinstance(result, RollResult)
    assert len(render(result)) <= 2000


@ROLL_SETTINGS
@given(st.one_of(notation, st.text(max_size=600)))
@example("1d6" * 200)
@example("(" * 300 + "1" + ")" * 199)
@example("-" * 499 + "1")
@example("1000d2e2ro1rr1")
def test_any_string_rolls_or_fails_cleanly(text: str) -> None:
    check(text)


# -- differential: what d20 itself rolls, with the same dice ---------------------------------------------------
#
# Expressions are drawn from d20's own grammar (so neither side's extensions are exercised), with spaces where
# d20 allows them. Both rollers get the same dice: d20 draws `random.randrange(size) + 1` from the module-level
# generator, ours from a DiceSource making the same calls on a generator seeded alike. Where both roll, the totals
# must be equal; where only d20 rolls, ours must be refusing on purpose (a form Dice Maiden reads another way).

DIFFERENTIAL_EXAMPLES = int(os.environ.get("ROLL_DIFFERENTIAL_EXAMPLES", "300"))
"""A few seconds; ``ROLL_DIFFERENTIAL_EXAMPLES=21000`` for a long run."""
MAX_ROLLS = 200
"""Both rollers stop a runaway explosion here (the time goes into rolling it, not into comparing)."""
DELIBERATE_REFUSALS = (
    "keeps the dice showing exactly",  # `4d6k3`: d20 keeps the 3s, Dice Maiden the 3 highest
    "Dice Maiden's shortcut",  # `+d20`: d20 rolls one d20, Dice Maiden two
    "would reroll forever",  # `rrh1`: d20 stops at its limit of rolls; `rrh0` does nothing
)


class SameDiceAsD20:
    """Our dice, drawn exactly as d20 draws its own (a percentile die asks for a d10 here, for tens in d20)."""

    def __init__(self, seed: int) -> None:
        self.random = random.Random(seed)

    def roll(self, die_id: str, sides: int) -> int:
        return self.random.randrange(sides) + 1


SELECTOR = st.builds(lambda cat, n: f"{cat}{n}", st.sampled_from(["", "", "h", "l", "<", ">"]), st.integers(0, 7))
DICE_OPERATOR = st.builds(
    lambda op, sel: op + sel, st.sampled_from(["k", "p", "rr", "ro", "ra", "e", "mi", "ma"]), SELECTOR
)
DICE = st.builds(
    lambda count, size, ops: f"{count}d{size}{''.join(ops)}",
    st.sampled_from(["", "1", "2", "3", "4", "10"]),
    st.sampled_from(["1", "2", "3", "4", "6", "20", "%"]),
    st.lists(DICE_OPERATOR, max_size=3),
)
LITERAL = st.one_of(st.integers(0, 30).map(str), st.sampled_from(["0.5", "1.5", "2.25", "49", "100", ".5"]))
ANNOTATION = st.sampled_from(["", "", "", " [fire]", "[a!b]", " [x # y]", "[!= 2]"])
COMPARISON = ["==", "!=", "<", ">", "<=", ">="]
BINARY = ["+", "-", "*", "/", "//", "%", *COMPARISON, *COMPARISON]  # comparisons twice: where the review found all 46


def _grow(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    set_operator = st.builds(lambda op, sel: op + sel, st.sampled_from(["k", "p"]), SELECTOR)
    return st.one_of(
        st.builds(lambda left, op, right, space: f"{left}{space}{op}{space}{right}", inner, st.sampled_from(BINARY),
                  inner, st.sampled_from(["", " ", " "])),
        st.builds(lambda sign, value: sign + value, st.sampled_from(["-", "+", "- "]), inner),
        st.builds(lambda value, space: f"({space}{value}{space})", inner, st.sampled_from(["", " "])),
        st.builds(
            lambda values, comma, ops: f"({', '.join(values)}{comma}){''.join(ops)}",
            st.lists(inner, min_size=1, max_size=3),
            st.sampled_from(["", ","]),
            st.lists(set_operator, max_size=2),
        ),
    )  # fmt: skip


D20_EXPRESSION = st.recursive(
    st.builds(lambda value, note: value + note, st.one_of(DICE, LITERAL), ANNOTATION), _grow, max_leaves=6
)


def _d20_total(text: str, seed: int) -> int | Exception:
    random.seed(seed)
    try:
        # A Roller of its own: d20's parse cache ignores spaces (see rules/roll/grammar.py).
        return d20.Roller(d20.RollContext(max_rolls=MAX_ROLLS)).roll(text).total
    except (d20.RollError, ZeroDivisionError, OverflowError, ValueError, RecursionError) as error:
        return error


def _our_total(text: str, seed: int) -> int | RollError:
    try:
        return roll(text, SameDiceAsD20(seed), replace(DEFAULT_LIMITS, max_rolls=MAX_ROLLS)).sets[0].total
    except RollError as error:
        return error


def differs_from_d20(text: str, seed: int) -> str | None:
    """How our roll of ``text`` differs from d20's with the same dice, or None when it doesn't."""
    theirs, ours = _d20_total(text, seed), _our_total(text, seed)
    if isinstance(theirs, int) and isinstance(ours, int):
        return None if theirs == ours else f"d20 {theirs}, ours {ours}"
    if isinstance(theirs, int):
        assert isinstance(ours, RollError)
        return None if any(reason in str(ours) for reason in DELIBERATE_REFUSALS) else f"refused: {ours}"
    if isinstance(ours, int):
        return f"d20 refused ({theirs!r}), ours {ours}"
    return None


@settings(ROLL_SETTINGS, max_examples=DIFFERENTIAL_EXAMPLES)
@given(D20_EXPRESSION, st.integers(0, 2**32))
@example("1d20+5 != 15", 1)
@example("(3 != 3)", 1)
@example("1d100/49*49", 1)
@example("1d20[a!=b] != 2", 7)
def test_rolls_what_d20_rolls_with_the_same_dice(text: str, seed: int) -> None:
    assert differs_from_d20(text, seed) is None, text
