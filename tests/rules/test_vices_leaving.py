"""Players leaving mid-game (RULES.md 1.8 #36)."""

from __future__ import annotations

import pytest

from rules.dice import ScriptedDice
from rules.engine import IllegalAction
from rules.vices.actions import ClaimSin, Lust, PickPair
from rules.vices.engine import ENGINE
from rules.vices.options import VicesOptions
from tests.rules.vices_support import Game, QuietDice, table

FOUR = {"P1": "Wrath", "P2": "Sloth", "P3": "Greed", "P4": "Pride"}


def leave(g: Game, player: str, script: dict[str, list[int]] | None = None) -> list[dict[str, object]]:
    """``player`` leaves; the quiet dice answer whatever is rolled next."""
    out = ENGINE.remove_player(g.state, player, QuietDice(script))
    g.state, g.last = out.state, out.events
    return out.events


def test_a_defender_leaving_mid_turn_ends_it_without_points() -> None:
    g = Game.turn(table(FOUR, holds={"Lust": "P1"}), "P1", {"N.Wrath": [7], "N.Sloth": [7], "d12": [2]}, strict=False)
    g.keep_only("N.Sloth", "d12", strict=False)
    assert g.score() > 0 and g.state.turn is not None and g.state.turn.absorbed == ("N.Sloth",)
    events = leave(g, "P1")
    left = next(e for e in events if e["type"] == "player_left")
    assert left == {
        "type": "player_left",
        "player": "P1",
        "sins_to_reserves": ["Wrath", "Lust"],
        "nemesis_out": "N.Wrath",
        "first_seat": "P2",
    }
    ended = next(e for e in events if e["type"] == "turn_ended")
    assert ended["abandoned"] and ended["total"] == 0
    assert {"type": "nemesis_returned", "defender": "P1", "dice": [{"die": "N.Sloth", "to": "P2"}]} in events
    assert g.state.seat("P1").total == 0 and g.state.seat("P1").left
    assert g.state.sins["Wrath"] == "reserves" and g.state.nemesis_out == {"Wrath": "left"}
    assert g.defender == "P2" and g.state.first_seat == "P2"
    assert ENGINE.legal_actions(g.state, "P1") == []
    g.reject("P1", ClaimSin(sin="Wrath"), "not playing")


def test_an_attacker_leaving_takes_their_absorbed_die_out_of_the_pool_unscored() -> None:
    g = Game.turn(table(FOUR), "P1", {"N.Wrath": [7], "N.Sloth": [7]}, strict=False)
    events = leave(g, "P2")
    assert any(e["type"] == "nemesis_removed" and e["die"] == "N.Sloth" and e["reason"] == "left" for e in events)
    assert "N.Sloth" not in g.pool() and g.defender == "P1"
    assert g.state.sins["Sloth"] == "reserves"


def test_an_attacker_leaving_during_their_choice_does_nothing_more() -> None:
    g = Game.turn(table(FOUR, holds={"Lust": "P2"}), "P1", {"s.Lust": [3, 6], "L.Lust": [3, 6]}, strict=False)
    assert ENGINE.prompts(g.state)[0].decision == "lust"
    events = leave(g, "P2")
    assert {"type": "effect_none", "sin": "Lust", "player": "P2", "reason": "player_left"} in events
    assert ENGINE.prompts(g.state)[0].decision == "remove"
    g.reject("P2", Lust(sin="Envy"), "not playing")


def test_a_pending_gluttony_still_rolls_its_penalty_when_its_owner_leaves() -> None:
    seats = {"P1": "Wrath", "P2": "Gluttony", "P3": "Greed", "P4": "Pride"}
    g = Game.turn(table(seats), "P1", {"s.Gluttony": [3], "L.Gluttony": [3]}, strict=False)
    events = leave(g, "P2", {"s.Gluttony": [2], "L.Gluttony": [5]})
    (penalty,) = [e for e in events if e["type"] == "penalty"]
    assert penalty["points"] == 4 + 1 and [d["die"] for d in penalty["dice"]] == ["s.Gluttony", "L.Gluttony"]


def test_fewer_than_the_minimum_ends_the_game_among_those_left() -> None:
    g = Game.turn(
        table({"P1": "Wrath", "P2": "Sloth", "P3": "Greed"}, totals={"P1": 40, "P2": 20, "P3": 30}, min_players=3),
        "P1",
        strict=False,
    )
    events = leave(g, "P2")
    ended = next(e for e in events if e["type"] == "game_ended")
    assert ended["reason"] == "too_few_players" and ended["candidates"] == ["P3"]
    assert ENGINE.winners(g.state) == ["P3"]  # P2 had the lowest total but left
    with pytest.raises(IllegalAction, match="over"):
        ENGINE.remove_player(g.state, "P3", QuietDice())


def test_a_contender_leaving_the_tie_break() -> None:
    g = Game.turn(table(FOUR, totals={"P1": 70, "P2": 70, "P3": 70, "P4": 80}), "P4", {"N.Pride": [20]}, strict=False)
    g.remove(*(u.id for u in ENGINE.removable_units(g.state)))
    g.act("P1", PickPair(pair="mirror_medusa"))
    leave(g, "P2")
    assert g.state.tiebreak is not None and g.state.tiebreak.contenders == ("P1", "P3")
    leave(g, "P3")
    assert ENGINE.winners(g.state) == ["P1"]


def test_a_claimant_leaving_at_setup() -> None:
    options = VicesOptions(seat_order="join_order", sin_assignment="choose")
    state = ENGINE.start(options, ["P1", "P2", "P3", "P4"], ScriptedDice({})).state
    g = Game(state)
    g.act("P1", ClaimSin(sin="Pride"))
    leave(g, "P2")
    assert ENGINE.prompts(g.state)[0].player == "P3"
    g.act("P3", ClaimSin(sin="Sloth"))
    g.act("P4", ClaimSin(sin="Wrath"), strict=False)
    assert g.state.sins["Pride"] == "P1" and g.defender == "P1"
    # P1's Pride is theirs; a leaver's claimed Sin would have gone back to the reserves, not to a new claim.
    assert "Pride" not in g.state.reserves()


def test_a_leaver_cannot_win() -> None:
    g = Game.turn(table(FOUR, totals={"P1": 5, "P2": 60, "P3": 62, "P4": 75}), "P4", {"N.Pride": [20]}, strict=False)
    leave(g, "P1")
    g.remove(*(u.id for u in ENGINE.removable_units(g.state)))
    assert ENGINE.winners(g.state) == ["P2"]
    assert ENGINE.next_game_order(g.state) == ["P3", "P4", "P2"]
