"""Each Sin's effect (RULES.md 1.5 T4, 1.8 #9–#17): its choices, and doing nothing when it is impossible."""

from __future__ import annotations

import pytest

from rules.vices.actions import Envy, Gluttony, Greed, Lust, Remove
from rules.vices.engine import ENGINE
from tests.rules.vices_support import Game, table

FOUR = {"P1": "Wrath", "P2": "Sloth", "P3": "Greed", "P4": "Pride"}
"""P1 defends in these tests; the reserves hold Lust, Gluttony and Envy unless a test moves them."""


def match(sin: str, *penalty: int, value: int = 3) -> dict[str, list[int]]:
    """Dice for a match of ``sin`` on the first roll, then its penalty roll (small, large, extra dice)."""
    small, large, *extra = penalty
    script = {f"s.{sin}": [value, small], f"L.{sin}": [value, large]}
    if extra:
        script["M"] = extra
    return script


def nothing(g: Game, sin: str, reason: str) -> None:
    """The last action's events say that ``sin``'s effect did nothing, for ``reason``."""
    assert any(e["type"] == "effect_none" and e["sin"] == sin and e["reason"] == reason for e in g.last), g.last


def test_wrath_does_nothing_when_the_defender_holds_no_sin() -> None:
    g = Game.turn(table(FOUR, holds={"Wrath": "P2"}), "P1", match("Wrath", 2, 5), strict=False)
    assert g.of_type("penalty")[0]["points"] == 4 + 1
    nothing(g, "Wrath", "defender_has_no_sin")
    assert "out" not in g.state.sins.values()


def test_wrath_destroys_the_only_sin_with_its_dice() -> None:
    g = Game.turn(table(FOUR, holds={"Wrath": "P2", "Pride": "P1"}), "P1", match("Wrath", 2, 5), strict=False)
    assert g.state.sins["Pride"] == "out"
    assert g.of_type("sin_destroyed")[0]["dice"] == ["L.Pride", "M"]


def test_greed_does_nothing_when_the_defender_holds_no_sin() -> None:
    g = Game.turn(table(FOUR, holds={"Wrath": "P4"}), "P1", match("Greed", 6, 6), strict=False)
    assert g.of_type("penalty")[0]["points"] == 0
    nothing(g, "Greed", "defender_has_no_sin")


def test_greed_chooses_among_the_defenders_sins() -> None:
    g = Game.turn(table(FOUR, holds={"Lust": "P1"}), "P1", match("Greed", 1, 2), strict=False)
    assert [(p.player, p.decision) for p in ENGINE.prompts(g.state)] == [("P3", "greed")]
    assert ENGINE.legal_actions(g.state, "P3") == [Greed(sin="Wrath"), Greed(sin="Lust")]
    assert ENGINE.default_action(g.state, "P3") == Greed(sin="Wrath")
    g.reject("P3", Greed(sin="Pride"), "Greed takes one of the defender's Sins")
    g.reject("P3", Greed(sin="Vanity"), "no such Sin")
    g.act("P3", Greed(sin="Lust"))
    assert g.state.sins_of("P3") == ["Lust", "Greed"] and g.state.sins_of("P1") == ["Wrath"]


def test_lust_takes_from_another_attacker_or_the_reserves_never_the_defender() -> None:
    g = Game.turn(table(FOUR, holds={"Lust": "P2"}), "P1", match("Lust", 1, 2), strict=False)
    assert [p.decision for p in ENGINE.prompts(g.state)] == ["lust"]
    # The fixed order: the reserves first, then holders in seat order (P3 before P4).
    assert ENGINE.legal_actions(g.state, "P2") == [
        Lust(sin="Gluttony"),
        Lust(sin="Envy"),
        Lust(sin="Greed"),
        Lust(sin="Pride"),
    ]
    g.reject("P2", Lust(sin="Wrath"), "never the defender's")
    g.reject("P2", Lust(sin="Sloth"), "another attacker or the reserves")
    g.act("P2", Lust(sin="Pride"))
    assert g.state.sins_of("P2") == ["Sloth", "Pride", "Lust"]
    assert g.of_type("sin_taken")[0] == {
        "type": "sin_taken",
        "player": "P2",
        "sin": "Pride",
        "source": "P4",
        "by": "Lust",
        "dice": ["L.Pride", "M"],
    }


def test_lust_does_nothing_with_nothing_to_take() -> None:
    seats = {"P1": "Wrath", "P2": "Lust", "P3": "Greed"}
    holds = {"Greed": "P1", "Sloth": "out", "Pride": "out", "Gluttony": "out", "Envy": "out"}
    g = Game.turn(table(seats, holds=holds), "P1", match("Lust", 1, 2), strict=False)
    nothing(g, "Lust", "nothing_to_take")
    assert g.state.sins_of("P1") == ["Wrath", "Greed"]


def test_gluttony_with_empty_reserves_rolls_the_normal_two_dice() -> None:
    seats = {"P1": "Wrath", "P2": "Gluttony", "P3": "Greed"}
    holds = {"Sloth": "out", "Pride": "P3", "Lust": "P3", "Envy": "P1"}
    g = Game.turn(table(seats, holds=holds), "P1", match("Gluttony", 2, 3), strict=False)
    (penalty,) = g.of_type("penalty")
    assert [d["die"] for d in penalty["dice"]] == ["s.Gluttony", "L.Gluttony"] and penalty["points"] == 7
    nothing(g, "Gluttony", "reserves_empty")


def test_gluttony_chooses_before_its_penalty_and_the_taken_die_joins_it() -> None:
    seats = {"P1": "Wrath", "P2": "Gluttony", "P3": "Greed"}
    g = Game.turn(table(seats), "P1", {"s.Gluttony": [3], "L.Gluttony": [3]}, strict=False)
    assert [(p.player, p.decision) for p in ENGINE.prompts(g.state)] == [("P2", "gluttony")]
    assert g.of_type("penalty") == []  # the Sin is taken first (1.8 #8)
    assert ENGINE.legal_actions(g.state, "P2") == [Gluttony(sin=s) for s in ("Sloth", "Pride", "Lust", "Envy")]
    g.reject("P2", Gluttony(sin="Greed"), "from the reserves")
    g.act("P2", Gluttony(sin="Pride"), {"s.Gluttony": [1], "L.Gluttony": [1], "L.Pride": [2], "M": [4]})
    (penalty,) = g.of_type("penalty")
    assert [d["die"] for d in penalty["dice"]] == ["s.Gluttony", "L.Gluttony", "L.Pride", "M"]
    assert penalty["points"] == 0 + 0 + 4 + 2
    assert g.state.sins_of("P2") == ["Pride", "Gluttony"]


def test_gluttony_taken_small_adds_the_small_die_from_the_pool() -> None:
    seats = {"P1": "Wrath", "P2": "Gluttony", "P3": "Greed"}
    holds = {"Sloth": "out", "Pride": "out", "Lust": "out"}  # Envy is the only Sin in the reserves
    script = {"s.Gluttony": [3, 5], "L.Gluttony": [3, 5], "s.Envy": [2, 6]}
    g = Game.turn(table(seats, holds=holds, gluttony_added_die="taken_small"), "P1", script, strict=False)
    (penalty,) = g.of_type("penalty")
    assert [d["die"] for d in penalty["dice"]] == ["s.Gluttony", "L.Gluttony", "s.Envy"]
    assert penalty["points"] == 0 + 0 + 0
    assert "s.Envy" not in g.pool() and "s.Envy" in g.state.turn.scored  # type: ignore[union-attr]


def test_envy_exchanges_and_tokens_move_with_their_sins() -> None:
    g = Game.turn(table(FOUR, holds={"Envy": "P2"}), "P1", match("Envy", 4, 5), strict=False)
    legal = ENGINE.legal_actions(g.state, "P2")
    assert legal[0] == Envy(give="Sloth", take="Lust")  # own Sins in precedence order, reserves first
    assert Envy(give="Envy", take="Wrath") in legal  # the defender's Sin may be taken
    assert Envy(give=None, take=None) not in legal
    g.reject("P2", Envy(give=None, take=None), "not optional")
    g.reject("P2", Envy(give="Greed", take="Wrath"), "only give a Sin you hold")
    g.reject("P2", Envy(give="Sloth", take="Envy"), "from the reserves or from another player")
    g.act("P2", Envy(give="Sloth", take="Pride"))
    assert g.state.sins["Sloth"] == "P4" and g.state.sins["Pride"] == "P2"
    assert g.of_type("sins_swapped")[0] == {
        "type": "sins_swapped",
        "player": "P2",
        "gave": "Sloth",
        "took": "Pride",
        "other": "P4",
    }


def test_envy_optional_may_decline() -> None:
    g = Game.turn(table(FOUR, holds={"Envy": "P2"}, envy_optional=True), "P1", match("Envy", 4, 5), strict=False)
    assert ENGINE.legal_actions(g.state, "P2")[-1] == Envy(give=None, take=None)
    g.act("P2", Envy(give=None, take=None))
    assert g.of_type("envy_declined") == [{"type": "envy_declined", "player": "P2"}]
    assert g.state.sins["Envy"] == "P2"


def test_envy_does_nothing_once_lust_took_the_envy_players_only_sin() -> None:
    # P2 holds Lust, P3 only Envy, the reserves are empty: Lust (4) resolves before Envy (7).
    seats = {"P1": "Wrath", "P2": "Lust", "P3": "Envy"}
    holds = {"Sloth": "out", "Pride": "out", "Greed": "out", "Gluttony": "out"}
    script = {"s.Lust": [2, 6], "L.Lust": [2, 6], "s.Envy": [4, 1], "L.Envy": [4, 2]}
    g = Game.turn(table(seats, holds=holds), "P1", script, strict=False)
    assert [p["sin"] for p in g.of_type("penalty")] == ["Lust", "Envy"]
    assert g.state.sins["Envy"] == "P2"  # Lust's only option: the Envy attacker's Sin
    nothing(g, "Envy", "nothing_to_exchange")
    # The large Envy die went back to its new holder; the Envy effect was P3's all the same.
    assert any(e["type"] == "effect_none" and e["player"] == "P3" for e in g.last)


def test_the_effect_owner_is_fixed_at_the_roll() -> None:
    # Lust (P2) takes Greed from P3 before Greed resolves; Greed's effect is still P3's.
    seats = {"P1": "Wrath", "P2": "Lust", "P3": "Greed"}
    holds = {"Sloth": "out", "Pride": "out", "Gluttony": "out", "Envy": "out"}
    script = {"s.Lust": [2, 6], "L.Lust": [2, 5], "s.Greed": [4, 3], "L.Greed": [4, 3]}
    g = Game.turn(table(seats, holds=holds), "P1", script, strict=False)
    taken = g.of_type("sin_taken")
    assert [(e["player"], e["sin"], e["source"], e["by"]) for e in taken] == [
        ("P2", "Greed", "P3", "Lust"),
        ("P3", "Wrath", "P1", "Greed"),
    ]
    greed_penalty = g.of_type("penalty")[1]
    assert greed_penalty["player"] == "P3" and greed_penalty["points"] == 0


def test_sloth_does_nothing_when_its_die_is_already_removed() -> None:
    state = table(FOUR).model_copy(update={"nemesis_out": {"Sloth": "sloth"}})
    g = Game.turn(state, "P1", match("Sloth", 6, 6), strict=False)
    nothing(g, "Sloth", "die_already_removed")


def test_sloth_does_nothing_when_sloth_was_unclaimed() -> None:
    seats = {"P1": "Wrath", "P2": "Lust", "P3": "Greed"}
    g = Game.turn(table(seats, holds={"Sloth": "P2"}), "P1", match("Sloth", 6, 6), strict=False)
    nothing(g, "Sloth", "die_not_in_play")
    assert g.state.nemesis_out == {}


def test_sloth_removes_the_defenders_own_sloth_die_from_the_pool_unscored() -> None:
    # P2's original Sin is Sloth (so N.Sloth is P2's), but P3 holds Sloth now and matches on P2's turn.
    g = Game.turn(table(FOUR, holds={"Sloth": "P3"}), "P2", match("Sloth", 1, 1), strict=False)
    assert g.state.nemesis_out == {"Sloth": "sloth"}
    assert "N.Sloth" not in g.pool()
    assert g.of_type("nemesis_removed")[0] == {
        "type": "nemesis_removed",
        "die": "N.Sloth",
        "owner": "P2",
        "player": "P3",
        "reason": "sloth",
        "from_pool": True,
    }
    assert g.score() == 0 and "N.Sloth" not in g.state.turn.scored  # type: ignore[union-attr]
    # The next turns: P2 defends with 16 dice and nobody rolls a d20 against them.
    g.remove(*(u.id for u in ENGINE.removable_units(g.state)), strict=False)
    assert g.defender == "P3"
    g.remove(*(u.id for u in ENGINE.removable_units(g.state)), strict=False)
    g.remove(*(u.id for u in ENGINE.removable_units(g.state)), strict=False)
    g.remove(*(u.id for u in ENGINE.removable_units(g.state)), strict=False)
    assert g.defender == "P2" and len(g.pool()) == 16
    assert all(not die.startswith("N.") for group in g.rolled_by().values() for die in group)


@pytest.mark.parametrize(("flag", "removed"), [("sloth_die", "Sloth"), ("matcher_own_die", "Greed")])
def test_sloth_removes_by_flag(flag: str, removed: str) -> None:
    g = Game.turn(table(FOUR, holds={"Sloth": "P3"}, sloth_removes=flag), "P1", match("Sloth", 1, 1), strict=False)
    assert g.state.nemesis_out == {removed: "sloth"}


def test_pride_penalty_counts_as_the_removal() -> None:
    g = Game.turn(table(FOUR), "P1", match("Pride", 1, 2, 3), strict=False)
    assert ENGINE.legal_actions(g.state, "P1")[0] == Remove(units=())
    assert ENGINE.default_action(g.state, "P1") == Remove(units=())
