"""The commitment of a secret roll: any roll's result line and salt verify against the hash made from them, any
change to either does not, and the formula is plain SHA-256 anyone can recompute."""

from __future__ import annotations

import hashlib

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.dice import ScriptedDice, SeededDice
from rules.roll import roll
from rules.roll.commitment import RESULT_MAX, canonical, commitment, verify

EXPRESSIONS = ["1d20+5", "4d6kh3", "6x 4d6kh3 # Stats", "8d10 t7 f1", "(1d4, 1d6)kh1", "2d6e6 + 1d8[fire]", "adv"]


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(EXPRESSIONS), st.integers(0, 2**32), st.text(min_size=1, max_size=40))
def test_a_reveal_always_matches_its_commitment(expression: str, seed: int, salt: str) -> None:
    line = canonical(roll(expression, SeededDice(seed)))
    hashed = commitment(line, salt.strip() or "s")
    assert verify(hashed, line, salt.strip() or "s")
    assert not verify(hashed, line + " ", (salt.strip() or "s") + "0")
    assert "\n" not in line and "`" not in line and len(line) <= RESULT_MAX


def test_the_formula_is_sha256_of_result_newline_salt() -> None:
    line = canonical(roll("4d6kh3 # Stealth `x`", ScriptedDice([6, 5, 2, 4])))
    assert line == "Stealth 'x': 4d6kh3 [6, 5, (2), 4] = 15"
    assert commitment(line, "ab") == hashlib.sha256(b"Stealth 'x': 4d6kh3 [6, 5, (2), 4] = 15\nab").hexdigest()


def test_a_changed_total_does_not_verify() -> None:
    line = canonical(roll("1d20", ScriptedDice([14])))
    assert not verify(commitment(line, "salt"), line.replace("14", "15"), "salt")


def test_a_huge_roll_is_summarised_within_the_limit() -> None:
    line = canonical(roll("20x 50d10000", SeededDice(1)))
    assert len(line) <= RESULT_MAX and "50d10000 =" in line


def test_a_commitment_typed_with_any_characters_is_just_a_mismatch() -> None:
    assert not verify("\u200b", "- ", "9Væó")


def test_what_verify_ignores_is_what_the_formula_leaves_out() -> None:
    # docs/roll.md: spaces around each pasted value are not part of the formula, nor the commitment's hex case;
    # the result line and the salt are hashed exactly.
    line, salt = "Stealth: 1d20 [14] + 5 = 19", "9c1e"
    hashed = commitment(line, salt)
    assert verify(f"  {hashed.upper()} ", f" {line}  ", f"{salt} ")
    assert not verify(hashed, line.upper(), salt)
    assert not verify(hashed, line, salt.upper())
    assert not verify(hashed, line.replace(" + ", "  + "), salt)


def test_a_result_line_never_starts_or_ends_with_a_space_even_where_it_is_cut() -> None:
    cut_at_a_space = 0
    for width in range(1, 12):
        result = roll(f"20x 1d6 + 1d6 + 1d6 + 1d6 + 1d6 + 1d6 + 1d6 + 1d6 + 1d6 + 1d6 # {'L' * width}", SeededDice(3))
        line = canonical(result)
        assert line == line.strip() and len(line) <= RESULT_MAX
        cut_at_a_space += len(line) == RESULT_MAX - 1
    assert cut_at_a_space  # some cut fell on a space, which is left off now
