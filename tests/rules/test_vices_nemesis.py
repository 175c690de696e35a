"""Nemesis d20s (RULES.md 1.5 T2–T6, T8, 1.8 #20–#21): absorption, chains, returns, and the zero rule."""

from __future__ import annotations

import pytest

from rules.vices.actions import Remove, RemoveZeros
from rules.vices.engine import ENGINE
from tests.rules.vices_support import Game, table

FOUR = {"P1": "Wrath", "P2": "Sloth", "P3": "Greed", "P4": "Pride"}
ZERO_RULES = ["defender_pairs", "matched_die", "both"]


def test_an_absorbed_die_waits_a_roll_then_scores_like_any_d20() -> None:
    g = Game.turn(table(FOUR), "P1", {"N.Wrath": [7], "N.Sloth": [7]}, strict=False)
    assert g.of_type("absorbed") == [
        {"type": "absorbed", "die": "N.Sloth", "owner": "P2", "defender": "P1", "value": 7}
    ]
    assert "N.Sloth" not in g.points()
    g.reject("P1", Remove(units=("N.Sloth",)), "absorbed on this roll")
    g.keep_only("N.Sloth", "N.Wrath", script={"N.Wrath": [3], "N.Sloth": [15]}, strict=False)
    rolled = g.rolled_by()
    assert rolled["P1"] == {"N.Wrath": 3, "N.Sloth": 15}
    assert "N.Sloth" not in rolled.get("P2", {})  # P2's die is with the defender until the turn ends
    assert g.points()["N.Sloth"] == 5


def test_attackers_roll_their_d20_only_while_the_pool_holds_one() -> None:
    g = Game.turn(table(FOUR), "P1", strict=False)
    assert all("N." + s in g.rolled_by()[p] for p, s in FOUR.items() if p != "P1")
    g.keep_only("d12", strict=False)
    assert g.rolled_by() == {"P1": {"d12": 12}}


def test_a_chain_of_absorptions_and_their_return() -> None:
    # Roll 1: P2's d20 matches P1's. Roll 2: P3's matches the absorbed one, and P4's matches too.
    g = Game.turn(table(FOUR), "P1", {"N.Wrath": [7], "N.Sloth": [7]}, strict=False)
    g.keep_only("N.Wrath", "N.Sloth", script={"N.Wrath": [2], "N.Sloth": [9], "N.Greed": [9], "N.Pride": [2]})
    matches = g.of_type("matches")[0]["nemesis"]
    assert [(m["die"], m["matched"]) for m in matches] == [("N.Greed", ["N.Sloth"]), ("N.Pride", ["N.Wrath"])]
    assert list(g.pool()) == ["N.Wrath", "N.Sloth", "N.Greed", "N.Pride"]
    assert g.state.turn is not None and g.state.turn.absorbed == ("N.Sloth", "N.Greed", "N.Pride")
    g.remove("N.Wrath", "N.Sloth", script={"N.Greed": [20], "N.Pride": [20]})
    g.remove("N.Greed", "N.Pride", strict=False)
    (returned,) = g.of_type("nemesis_returned")
    assert returned["dice"] == [
        {"die": "N.Sloth", "to": "P2"},
        {"die": "N.Greed", "to": "P3"},
        {"die": "N.Pride", "to": "P4"},
    ]
    # On P2's turn, each attacker rolls their own d20 again.
    assert {p: "N." + FOUR[p] in dice for p, dice in g.rolled_by().items()} == dict.fromkeys(
        ["P2", "P3", "P4", "P1"], True
    )


def test_a_sloth_die_removed_on_the_roll_is_not_absorbed() -> None:
    # P2 owns N.Sloth and holds Sloth: on one roll both match; the Sloth effect removes N.Sloth first.
    script = {"s.Sloth": [4, 6], "L.Sloth": [4, 6], "N.Wrath": [9], "N.Sloth": [9]}
    g = Game.turn(table(FOUR), "P1", script, strict=False)
    assert g.state.nemesis_out == {"Sloth": "sloth"}
    assert g.of_type("not_absorbed") == [{"type": "not_absorbed", "die": "N.Sloth", "owner": "P2", "reason": "sloth"}]
    assert "N.Sloth" not in g.pool()


def _two_equal_d20s(zero_rule: str) -> Game:
    """P1's own d20 and P2's absorbed one both show 8 on roll 2; P3's d20 matches them on that roll."""
    g = Game.turn(table(FOUR, nemesis_zero_rule=zero_rule), "P1", {"N.Wrath": [7], "N.Sloth": [7]}, strict=False)
    g.keep_only(
        "N.Wrath", "N.Sloth", "d12", script={"N.Wrath": [8], "N.Sloth": [8], "N.Greed": [8], "N.Pride": [1], "d12": [5]}
    )
    return g


@pytest.mark.parametrize(
    ("zero_rule", "expected"),
    [
        ("defender_pairs", {"d12": 7, "N.Wrath": 12, "N.Sloth": 12, "N.Wrath+N.Sloth": 0}),
        ("matched_die", {"d12": 7, "N.Wrath": 0, "N.Sloth": 0}),
        ("both", {"d12": 7, "N.Wrath": 0, "N.Sloth": 0, "N.Wrath+N.Sloth": 0}),
    ],
)
def test_the_nemesis_zero_rule(zero_rule: str, expected: dict[str, int]) -> None:
    g = _two_equal_d20s(zero_rule)
    assert "N.Greed" in g.pool() and g.points() == expected


def test_defender_pairs_removes_the_pair_for_zero_and_not_one_die_twice() -> None:
    g = _two_equal_d20s("defender_pairs")
    g.reject("P1", Remove(units=("N.Wrath", "N.Wrath+N.Sloth")), "only once")
    g.reject("P1", Remove(units=("d12", "d12")), "only once")
    g.reject("P1", Remove(units=("N.Wrath+d12",)), "showing the same number")
    assert ENGINE.removal_points(g.state, ["N.Wrath+N.Sloth", "d12"]) == 7
    g.remove("N.Wrath+N.Sloth", script={"d12": [12], "N.Greed": [20], "N.Pride": [1]})
    assert g.score() == 0 and list(g.pool()) == ["d12", "N.Greed"]


def test_matched_die_has_no_groups() -> None:
    g = _two_equal_d20s("matched_die")
    g.reject("P1", Remove(units=("N.Wrath+N.Sloth",)), "one at a time")


def test_a_die_matched_on_this_roll_only_scores_zero_on_this_roll() -> None:
    g = _two_equal_d20s("matched_die")
    g.remove("d12", script={"N.Wrath": [8], "N.Sloth": [10], "N.Greed": [20], "N.Pride": [1]})
    assert g.points() == {"N.Wrath": 12, "N.Sloth": 10, "N.Greed": 0}


def test_three_equal_d20s_give_every_group_of_two_or_more() -> None:
    g = Game.turn(table(FOUR), "P1", {"N.Wrath": [7], "N.Sloth": [7], "N.Greed": [7]}, strict=False)
    g.keep_only(
        "N.Wrath", "N.Sloth", "N.Greed", script={"N.Wrath": [4], "N.Sloth": [4], "N.Greed": [4], "N.Pride": [1]}
    )
    groups = sorted(u for u in g.points() if "+" in u)
    assert groups == sorted(["N.Wrath+N.Sloth", "N.Wrath+N.Greed", "N.Sloth+N.Greed", "N.Wrath+N.Sloth+N.Greed"])
    legal = ENGINE.legal_actions(g.state, "P1")
    assert legal[-1] == Remove(units=("N.Wrath+N.Sloth+N.Greed",))
    assert RemoveZeros() not in legal  # one zero-scoring unit: the shortcut would be the same action
    g.reject("P1", RemoveZeros(), "Fewer than two")
    g.remove("N.Sloth+N.Greed", strict=False)
    assert list(g.pool()) == ["N.Wrath"]
