"""Evaluating rolls: d20's notation and our extensions, with scripted dice so every face is known."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules.dice import RecordingDice, ScriptedDice, SystemDice
from rules.roll import DEFAULT_LIMITS, DiceGroup, RollError, RollResult, Text, roll


def scripted(expression: str, *faces: int) -> RollResult:
    dice = ScriptedDice(faces)
    result = roll(expression, dice)
    assert dice.remaining == 0, "the roll used fewer dice than scripted"
    return result


def only_group(result: RollResult) -> DiceGroup:
    (group,) = result.sets[0].groups
    return group


def test_keep_highest_marks_the_dropped_die() -> None:
    result = scripted("4d6kh3", 6, 5, 2, 4)
    assert result.sets[0].total == 15
    assert [(f.value, f.kept) for f in only_group(result).faces] == [(6, True), (5, True), (2, False), (4, True)]


@pytest.mark.parametrize(
    ("expression", "faces", "total"),
    [
        ("1d20+5", (14,), 19),
        ("d20", (7,), 7),
        ("2d6*2-1", (3, 4), 13),
        ("4d6kl1", (3, 1, 4, 2), 1),
        ("4d6pl1", (3, 1, 4, 2), 9),
        ("4d6ph1", (3, 1, 4, 2), 6),
        ("4d6k>2", (3, 1, 4, 2), 7),
        ("7/2", (), 3),
        ("1.5*3", (), 4),
        ("(1d4, 1d6)kh1", (2, 5), 5),
        ("(1, 2, 3)pl1", (), 5),
        ("1d20 >= 15", (15,), 1),
        ("1d%", (4,), 30),
    ],
)
def test_d20_notation(expression: str, faces: tuple[int, ...], total: int) -> None:
    assert scripted(expression, *faces).sets[0].total == total


def test_exploding_dice_chain_and_are_marked() -> None:
    result = scripted("2d6e6", 6, 3, 6, 2)
    faces = only_group(result).faces
    assert [(f.value, f.exploded) for f in faces] == [(6, True), (3, False), (6, True), (2, False)]
    assert result.sets[0].total == 17


def test_explode_once_adds_one_die_only() -> None:
    assert scripted("1d6ra6", 6, 6).sets[0].total == 12


def test_reroll_keeps_going_and_remembers_old_faces() -> None:
    result = scripted("2d6rr1", 1, 4, 1, 5)
    first, second = only_group(result).faces
    assert (first.value, first.rerolled) == (5, (1, 1))
    assert (second.value, second.rerolled) == (4, ())


def test_reroll_once_visits_dice_in_order() -> None:
    # d20 iterates a set, so the order would vary; ours is left to right, so scripts are predictable.
    first, second = only_group(scripted("2d6ro1", 1, 1, 3, 4)).faces
    assert (first.value, second.value) == (3, 4)


def test_min_and_max_force_faces() -> None:
    low, high = only_group(scripted("2d6mi3ma5", 1, 6)).faces
    assert (low.value, low.forced_from, high.value, high.forced_from) == (3, 1, 5, 6)


def test_whole_dice_term_dropped_by_a_set_operator() -> None:
    groups = scripted("(1d4, 1d6)kh1", 2, 5).sets[0].groups
    assert [g.kept for g in groups] == [False, True]


def test_success_counting_with_failures() -> None:
    result = scripted("6d10 t7 f1", 10, 8, 7, 3, 1, 5)
    assert result.sets[0].successes == 2
    assert result.target == 7 and result.failure == 1


def test_success_counting_ignores_dropped_dice_and_allows_glued_suffix() -> None:
    assert scripted("3d10kh2t7", 9, 8, 10).sets[0].successes == 2


def test_success_count_can_go_negative() -> None:
    assert scripted("2d10 t7 f2", 1, 2).sets[0].successes == -2


@pytest.mark.parametrize("expression", ["3x 1d6", "3X1d6", "3 1d6"])
def test_repeated_sets(expression: str) -> None:
    result = scripted(expression, 1, 2, 3)
    assert [s.total for s in result.sets] == [1, 2, 3]
    assert result.expression == "3x 1d6"


def test_a_number_then_an_operator_is_arithmetic_not_a_repeat() -> None:
    assert [s.total for s in scripted("6 + 1").sets] == [7]


def test_repeated_sets_share_success_counting() -> None:
    result = scripted("2x 2d10 t7", 7, 1, 9, 10)
    assert [s.successes for s in result.sets] == [1, 2]


@pytest.mark.parametrize(("expression", "total"), [("adv", 17), ("1d20+5 adv", 22), ("1d20+5 dis", 8), ("d20 DIS", 3)])
def test_advantage_and_disadvantage(expression: str, total: int) -> None:
    result = scripted(expression, 3, 17)
    assert result.sets[0].total == total
    assert only_group(result).notation in ("2d20kh1", "2d20kl1")


def test_advantage_needs_a_leading_d20() -> None:
    with pytest.raises(RollError, match="d20"):
        roll("2d6 adv", ScriptedDice([]))


def test_label_after_hash_and_annotations() -> None:
    result = scripted("1D20[Fire]+5 # Stealth check", 12)
    assert result.label == "Stealth check"
    assert result.sets[0].total == 17
    assert result.sets[0].groups[0].annotation == "[Fire]"
    assert Text(" [Cold]", user_text=True) in scripted("1+2[Cold]").sets[0].parts


def test_dice_come_from_the_source_with_sequential_ids() -> None:
    recorder = RecordingDice(ScriptedDice([2, 6, 6, 1]))
    roll("2d6e6", recorder)
    assert [(r.die, r.sides, r.value) for r in recorder.rolls] == [("1", 6, 2), ("2", 6, 6), ("3", 6, 6), ("4", 6, 1)]


@pytest.mark.parametrize(
    ("expression", "message"),
    [
        ("1d6+" * 126, "too long"),
        ("1001d6", "1,001 dice"),
        ("3x 334d6", "1,002 dice"),
        ("1d10001", "d10,001 is too big"),
        ("21x 1d6", "1 to 20 times"),
        ("0x 1d6", "1 to 20 times"),
        ("1d6rrh1", "forever"),
        ("1d0", "at least one side"),
        ("1d6 f1", "target"),
        ("1d6 t3 f3", "below the target"),
        ("1d6 t3 t4", "once"),
        ("adv dis", "once"),
        ("", "nothing to roll"),
        ("# just a label", "nothing to roll"),
        ("hello", "can't read"),
        ("1d6+", "ends too early"),
        ("1/0", "divide by zero"),
        ("9" * 200 + ".0*" + "9" * 200 + ".0*9.0", "too big"),
    ],
)
def test_clear_errors(expression: str, message: str) -> None:
    with pytest.raises(RollError, match=f"(?i){message}"):
        roll(expression, SystemDice())


def test_runaway_explosions_are_stopped() -> None:
    with pytest.raises(RollError, match="keeps going"):
        roll("1d6e>0", SystemDice())


def test_total_roll_budget_is_shared_by_repeated_sets() -> None:
    limits = replace(DEFAULT_LIMITS, max_rolls=5)
    with pytest.raises(RollError, match="over 5 dice"):
        roll("3x 2d6", ScriptedDice([1] * 6), limits)


def test_time_cap() -> None:
    with pytest.raises(RollError, match="too long to work out"):
        roll("10d6", SystemDice(), replace(DEFAULT_LIMITS, time_limit_s=-1.0))


def test_deep_nesting_is_a_clear_error_or_a_result() -> None:
    try:
        roll("-" * 480 + "1", SystemDice())
    except RollError as error:
        assert "nested" in str(error)


def test_largest_allowed_roll() -> None:
    result = roll("1000d10000", SystemDice())
    assert len(result.sets[0].groups[0].faces) == 1000
