"""Rolls people bring from Dice Maiden and Button Dice Roller: each form means what its users expect where d20
has no other meaning for it, and where d20 reads it differently it is refused with both spellings, or rolled
with a note saying how it was read. Never a silently different number. (docs/roll.md, "Coming from …".)"""

from __future__ import annotations

import pytest

from rules.dice import ScriptedDice
from rules.roll import RollError, render, roll
from rules.roll.engine import CHAINED_NOTE
from rules.roll.notation import split_rolls


def rolled(expression: str, *faces: int) -> tuple[str, int, str]:
    """(canonical expression, total of the first set, rendered text), every scripted face used."""
    dice = ScriptedDice(faces)
    result = roll(expression, dice)
    assert dice.remaining == 0, "the roll used fewer dice than scripted"
    return result.expression, result.sets[0].total, render(result)


# -- silently different before: now refused with both spellings, or read as d20 with a note ------------------


@pytest.mark.parametrize(
    ("expression", "spelling"),
    [
        ("4d6k3", "`4d6kh3` for the 3 highest"),
        ("2d20k1", "`2d20kh1` for the highest"),
        ("(1d6, 1d8)k1", "kh1"),
    ],
)
def test_bare_k_is_refused_with_the_d20_spelling_of_both_readings(expression: str, spelling: str) -> None:
    with pytest.raises(RollError, match="keeps the dice showing exactly") as error:
        roll(expression, ScriptedDice([]))
    assert spelling in str(error.value) and "p<" in str(error.value)


def test_the_d20_reading_of_bare_k_is_still_reachable() -> None:
    assert rolled("4d6p<3p>3", 3, 5, 3, 1)[1] == 6


def test_six_sets_of_spaced_k3_keep_the_three_highest() -> None:
    expression, total, text = rolled("6 4d6 k3", *([6, 5, 3, 2] * 6))
    assert expression == "6x 4d6kh3" and total == 14 and text.count("= **14**") == 6


def test_unspaced_e_that_chains_says_how_it_was_read() -> None:
    expression, total, text = rolled("3d6e6", 6, 2, 3, 6, 1)
    assert expression == "3d6e6" and total == 18
    assert CHAINED_NOTE in text


def test_unspaced_e_that_does_not_chain_needs_no_note() -> None:
    # Both readings give the same number when no added die explodes.
    _, total, text = rolled("3d6e6", 6, 2, 3, 4)
    assert total == 15 and "-#" not in text


def test_percentile_die_says_it_is_the_tens_die() -> None:
    _, total, text = rolled("d%", 5)
    assert total == 40 and "`1d100`" in text


@pytest.mark.parametrize(("expression", "advice"), [("+d20", "`adv`"), ("-d20", "`dis`"), (" + d20 ", "`adv`")])
def test_dice_maiden_advantage_shortcuts_are_refused_with_the_spelling(expression: str, advice: str) -> None:
    with pytest.raises(RollError, match="Dice Maiden's shortcut") as error:
        roll(expression, ScriptedDice([]))
    assert advice in str(error.value)


@pytest.mark.parametrize(
    ("expression", "advice"),
    [
        ("+d20+5", "`1d20+5 adv`"),
        ("+d20 + 5", "`1d20+5 adv`"),
        ("-d20+5", "`1d20+5 dis`"),
        ("+d6", "`2d6kh1`"),
        ("-d10 - 1", "`2d10kl1-1`"),
    ],
)
def test_dice_maiden_advantage_with_more_after_it_or_on_another_die_is_refused(expression: str, advice: str) -> None:
    # Dice Maiden reads `+dX` anywhere as two dX, the higher kept; d20 read `+d20+5` as one d20 plus 5.
    with pytest.raises(RollError, match="Dice Maiden's shortcut") as error:
        roll(expression, ScriptedDice([]))
    assert advice in str(error.value)


@pytest.mark.parametrize(
    ("expression", "spelling"), [("4df+1d6", "`4d3-8`"), ("dF+1d4", "`1d3-2`"), ("1d6+2dF", "`2d3-4`")]
)
def test_fudge_dice_among_other_dice_are_refused_with_the_same_total_in_d20(expression: str, spelling: str) -> None:
    # Alone (`4dF+1`) they are Fate's own roll: tests/test_roll_systems.py.
    with pytest.raises(RollError, match="Fate / Fudge") as error:
        roll(expression, ScriptedDice([]))
    assert spelling in str(error.value)


def test_minus_one_d20_written_in_full_is_still_arithmetic() -> None:
    assert rolled("-1d20", 15)[1] == -15


# -- refused before with an unhelpful message: now the meaning their users expect ---------------------------


@pytest.mark.parametrize(
    ("expression", "faces", "canonical", "total"),
    [
        ("4d6 k3", (6, 5, 3, 2), "4d6kh3", 14),
        ("2d20 kl1", (12, 7), "2d20kl1", 7),
        ("4d6 d1", (3, 1, 4, 2), "4d6pl1", 9),
        ("3d6 e6", (6, 6, 1, 6, 2), "3d6xo>5", 21),  # each 6 adds one die; the added 6 does not explode
        ("3d6 ie6", (6, 2, 3, 6, 1), "3d6e>5", 18),
        ("3d6 e", (6, 2, 3, 4), "3d6xo6", 15),
        ("4d6 r2", (1, 2, 3, 4, 5, 6), "4d6ro<3", 18),
        ("4d6 ir1", (1, 1, 2, 3, 1, 5, 6), "4d6rr<2", 16),
        ("10d6 e6 k8 +4", (6, 1, 1, 1, 1, 1, 1, 1, 1, 1, 6), "10d6xo>5kh8 +4", 22),
        ("2d20L1", (3, 9), "2d20kl1", 3),
        ("ul 3d6", (1, 2, 3), "3d6", 6),
    ],
)
def test_spaced_modifiers_mean_what_dice_maiden_means(
    expression: str, faces: tuple[int, ...], canonical: str, total: int
) -> None:
    got_expression, got_total, _ = rolled(expression, *faces)
    assert (got_expression, got_total) == (canonical, total)
    assert rolled(canonical, *faces)[1] == total  # the canonical form rolls the same


def test_botches_are_counted_beside_the_total() -> None:
    expression, total, text = rolled("4d6 b1", 1, 1, 3, 4)
    assert expression == "4d6 b1" and total == 9 and "· 2 botches" in text


def test_bang_label_and_bracket_label() -> None:
    assert rolled("4d6 ! Damage", 1, 2, 3, 4)[2].startswith("**Damage**\n")
    assert rolled("(Fireball) 8d6", *[3] * 8)[2].startswith("**Fireball**\n")
    # A bracket that is part of the roll is not a label.
    assert rolled("(1d4, 1d6)kh1", 2, 5)[1] == 5
    assert rolled("(1d4+1)*2", 3)[1] == 8


def test_simplified_shows_the_total_alone() -> None:
    _, total, text = rolled("4d6 s", 1, 2, 3, 4)
    assert total == 10 and text == "4d6 s → **10**"


def test_p_asks_for_a_private_roll() -> None:
    result = roll("4d6 p", ScriptedDice([1, 2, 3, 4]))
    assert result.private and result.expression == "4d6"
    assert not roll("p 4d6", ScriptedDice([1, 2, 3, 4])).simple


def test_several_rolls_in_one_message() -> None:
    assert split_rolls("2d6 ; 1d20") == ["2d6", "1d20"]
    assert split_rolls("1d20[a;b]") == ["1d20[a;b]"]
    with pytest.raises(RollError, match="up to 4"):
        split_rolls("1d4;1d4;1d4;1d4;1d4")


@pytest.mark.parametrize(("expression", "message"), [("1d20 d4", "drop every die"), ("4d6 k", "needs a number")])
def test_spaced_modifiers_that_make_no_sense_are_explained(expression: str, message: str) -> None:
    with pytest.raises(RollError, match=message):
        roll(expression, ScriptedDice([]))


# -- the /roll faults of issue 22, part 7 -------------------------------------------------------------------


def test_what_a_roll_means_does_not_depend_on_what_was_rolled_before() -> None:
    def answers(order: list[str]) -> dict[str, str]:
        out = {}
        for text in order:
            try:
                out[text] = render(roll(text, ScriptedDice([2] * 8)))
            except RollError as error:
                out[text] = f"error: {error}"
        return out

    texts = ["4d6k>2", "4d6 k>2", "1d20", "1d2 0", "1d20 [a b]", "1d20[ab]", "4d6 k3", "4d6k3"]
    assert answers(texts) == answers(list(reversed(texts)))
    assert answers(["1d2 0"])["1d2 0"].startswith("error: I can't read")
    assert "[ab]" in answers(["1d20 [a b]", "1d20[ab]"])["1d20[ab]"]


def test_a_hash_inside_an_annotation_is_not_the_label() -> None:
    _, total, text = rolled("1d8[slashing#2]+1 # Sword", 5)
    assert total == 6 and "[slashing#2]" in text and text.startswith("**Sword**")


def test_a_rerolled_die_keeps_its_explosion_on_the_old_face() -> None:
    assert rolled("1d6e6ro6", 6, 2, 3)[2] == "1d6e6ro6 [~~6!~~→3, 2] = **5**"


def test_a_rerolled_die_keeps_its_min_history() -> None:
    assert rolled("1d6mi3ro3", 1, 5)[2] == "1d6mi3ro3 [~~1→3~~→5] = **5**"


def test_a_decimal_is_echoed_as_typed() -> None:
    assert "1234567.5" in rolled("1d4 + 1234567.5", 2)[2]


@pytest.mark.parametrize(
    ("spaced", "joined", "faces"),
    [
        ("1d20 ro1", "1d20ro1", (1, 14)),
        ("4d6 pl1", "4d6pl1", (6, 5, 3, 1)),
        ("4d6 mi2", "4d6mi2", (6, 1, 3, 2)),
        ("10d6 ro1 k8", "10d6ro1kh8", (1, 2, 3, 4, 5, 6, 6, 5, 4, 3, 2)),
        ("2d20 kh1 + 3", "2d20kh1 + 3", (4, 17)),
    ],
)
def test_d20s_own_operators_written_with_a_space_mean_the_same(spaced: str, joined: str, faces: tuple[int]) -> None:
    assert rolled(spaced, *faces)[:2] == rolled(joined, *faces)[:2]
