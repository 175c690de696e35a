"""Taking a roll string apart into d20's part and our extensions."""

from __future__ import annotations

import pytest

from rules.roll import RollRequest, parse_request
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
