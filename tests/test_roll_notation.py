"""Taking a roll string apart into d20's part and our extensions."""

from __future__ import annotations

import pytest

from rules.dice import ScriptedDice
from rules.roll import RollError, RollRequest, parse_request, roll
from rules.roll.notation import Advantage


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("4d6kh3", RollRequest("4d6kh3")),
        ("  6x 4d6kh3 ", RollRequest("4d6kh3", sets=6)),
        ("6 4d6kh3", RollRequest("4d6kh3", sets=6)),
        ("6d10 t7 f1", RollRequest("6d10", target=7, failure=1)),
        ("6d10t7f1", RollRequest("6d10", target=7, failure=1)),
        ("adv", RollRequest("1d20", advantage=Advantage.ADV)),
        ("1d20+5 disadvantage # Hide", RollRequest("1d20+5", advantage=Advantage.DIS, label="Hide")),
        ("1D20[Fire Bolt]", RollRequest("1d20[Fire Bolt]")),
        ("2x 1d20+5 adv t15 # Attacks", RollRequest("1d20+5", 2, Advantage.ADV, 15, None, "Attacks")),
    ],
)
def test_parse(text: str, expected: RollRequest) -> None:
    assert parse_request(text) == expected


@pytest.mark.parametrize("text", ["4d6kh3", "6x 4d6kh3", "6d10 t7 f1", "1d20+5 dis # Hide", "adv"])
def test_canonical_form_parses_back_to_the_same_request(text: str) -> None:
    request = parse_request(text)
    assert parse_request(request.canonical()) == request


def test_canonical_form_can_leave_the_label_out() -> None:
    assert parse_request("2x 1d6 # Loot").canonical(with_label=False) == "2x 1d6"


@pytest.mark.parametrize(
    ("text", "body", "label"),
    [
        ("1d20+5 != 15", "1d20+5 != 15", None),  # issue 30: was 1d20+5 labelled "= 15"
        ("(3 != 3)", "(3 != 3)", None),  # was refused: "(3" ends too early
        ("1d20 !=15 # Save", "1d20 !=15", "Save"),
        ("1d8[a ! b] != 2", "1d8[a ! b] != 2", None),
        ("4d6 ! Damage", "4d6", "Damage"),  # Dice Maiden's comment still is one
        ("2d6 !Damage", "2d6", "Damage"),
    ],
)
def test_not_equal_is_never_a_comment(text: str, body: str, label: str | None) -> None:
    request = parse_request(text)
    assert (request.body, request.label) == (body, label)


def test_a_spaced_not_equal_is_refused_with_the_spelling() -> None:
    with pytest.raises(RollError, match="write `!=` without a space"):
        roll("1d20+5 ! = 15", ScriptedDice([10]))
    assert roll("1d20+5 != 15", ScriptedDice([10])).sets[0].total == 0
    assert roll("1d20+5 != 15", ScriptedDice([9])).sets[0].total == 1
