"""Any string at all gives a roll or a RollError, never another exception."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from rules.dice import SystemDice
from rules.roll import RollError, RollResult, render, roll

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
