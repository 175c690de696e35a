"""Setup (RULES.md 1.4): player counts, seat order by d20, and the three ways to assign Sins."""

from __future__ import annotations

import pytest

from rules.dice import ScriptedDice
from rules.engine import IllegalAction
from rules.vices.actions import ClaimSin, Remove
from rules.vices.data import SINS
from rules.vices.engine import ENGINE
from rules.vices.options import VicesOptions
from tests.rules.vices_support import Game, QuietDice

PLAYERS = ["P1", "P2", "P3", "P4"]


@pytest.mark.parametrize(
    ("count", "flags", "ok"),
    [
        *[(3, {}, True), (6, {}, True), (2, {}, False), (7, {}, False)],
        *[(2, {"min_players": 2}, True), (7, {"max_players": 7}, True), (8, {"max_players": 7}, False)],
    ],
)
def test_player_counts(count: int, flags: dict[str, int], ok: bool) -> None:
    options = VicesOptions(seat_order="join_order", sin_assignment="random", **flags)
    players = [f"P{i}" for i in range(1, count + 1)]
    if ok:
        assert ENGINE.start(options, players, QuietDice()).state.phase == "turn"
    else:
        with pytest.raises(IllegalAction, match="needs"):
            ENGINE.start(options, players, QuietDice())


def test_seat_limits_and_the_allowed_range() -> None:
    assert (ENGINE.min_players, ENGINE.max_players) == (2, 7)
    assert ENGINE.seat_limits(VicesOptions()) == (3, 6)
    assert ENGINE.seat_limits(VicesOptions(min_players=2, max_players=7)) == (2, 7)
    for bad in ({"min_players": 1}, {"max_players": 8}, {"min_players": 5, "max_players": 4}):
        with pytest.raises(ValueError):
            VicesOptions(**bad)


def test_a_player_takes_one_seat() -> None:
    with pytest.raises(IllegalAction, match="one seat"):
        ENGINE.start(VicesOptions(), ["P1", "P1", "P2"], QuietDice())


def test_d20_seat_order_rerolls_tied_highs_and_keeps_the_table_order() -> None:
    seat_dice = {"seat.P1": [5], "seat.P2": [17, 4], "seat.P3": [17, 9], "seat.P4": [2]}
    out = ENGINE.start(VicesOptions(sin_assignment="random"), PLAYERS, QuietDice(seat_dice))
    rolls = [e for e in out.events if e["type"] == "seat_rolls"]
    assert [r["tied"] for r in rolls] == [["P2", "P3"], []]
    assert [r["player"] for r in rolls[1]["rolls"]] == ["P2", "P3"]  # only the tied players roll again
    assert [p.id for p in out.state.players] == ["P3", "P4", "P1", "P2"]
    assert out.state.first_seat == "P3" and out.state.turn is not None and out.state.turn.defender == "P3"


@pytest.mark.parametrize("mode", ["join_order", "manual"])
def test_join_and_manual_order_keep_the_given_order(mode: str) -> None:
    dice = QuietDice()
    out = ENGINE.start(VicesOptions(seat_order=mode, sin_assignment="random"), PLAYERS, dice)
    assert [p.id for p in out.state.players] == PLAYERS
    assert not any(die.startswith("seat.") for die, _, _ in dice.rolls)


def test_mirror_roll_claims_rolls_again_and_asks_when_several_match() -> None:
    script = {
        # P1: no match, then only Greed matches. P2: Wrath and Envy match, P2 chooses.
        "Mirror": [6, 2, 3],
        "L.Wrath": [1, 1, 3],
        "L.Sloth": [1, 1, 1],
        "L.Pride": [1, 1, 1],
        "L.Lust": [1, 1, 1],
        "L.Greed": [1, 2],
        "L.Gluttony": [1, 1, 1],
        "L.Envy": [1, 1, 3],
    }
    dice = QuietDice(script)
    out = ENGINE.start(VicesOptions(seat_order="join_order"), PLAYERS[:3], dice)
    mirror = [e for e in out.events if e["type"] == "mirror_roll"]
    assert [(m["player"], m["mirror"], m["matches"]) for m in mirror] == [
        ("P1", 6, []),
        ("P1", 2, ["Greed"]),
        ("P2", 3, ["Wrath", "Envy"]),
    ]
    assert [d["die"] for d in mirror[2]["dice"]] == [f"L.{s}" for s in SINS if s != "Greed"]
    state = out.state
    assert state.sins["Greed"] == "P1" and state.seat("P1").sin == "Greed"
    (prompt,) = ENGINE.prompts(state)
    assert (prompt.player, prompt.decision, prompt.label) == ("P2", "claim", "claim a Sin")
    assert ENGINE.legal_actions(state, "P2") == [ClaimSin(sin="Wrath"), ClaimSin(sin="Envy")]
    g = Game(state)
    g.reject("P2", ClaimSin(sin="Pride"), "matched the Mirror die")
    g.reject("P3", ClaimSin(sin="Wrath"), "not your decision")
    g.reject("P2", Remove(units=()), "waiting for a player to claim a Sin")
    # P2 claims Envy; P3 rolls the Mirror die with the five Sins left (Pride matches), then P1's turn starts.
    free = ["Wrath", "Sloth", "Pride", "Lust", "Gluttony"]
    g.act(
        "P2",
        ClaimSin(sin="Envy"),
        {"Mirror": [4], **{f"L.{s}": [4 if s == "Pride" else 1] for s in free}},
        strict=False,
    )
    assert {p.id: p.sin for p in g.state.players} == {"P1": "Greed", "P2": "Envy", "P3": "Pride"}
    claimed = g.of_type("sin_claimed")
    assert claimed[-1] == {
        "type": "sin_claimed",
        "player": "P3",
        "sin": "Pride",
        "how": "mirror_roll",
        "dice": ["L.Pride", "M", "N.Pride"],
    }
    done = g.of_type("setup_done")[0]
    assert done["reserves"] == ["Wrath", "Sloth", "Lust", "Gluttony"]
    assert g.state.phase == "turn" and g.defender == "P1"


def test_choose_lets_each_player_pick_and_the_last_sin_goes_by_itself() -> None:
    players = [f"P{i}" for i in range(1, 8)]
    options = VicesOptions(seat_order="join_order", sin_assignment="choose", max_players=7)
    state = ENGINE.start(options, players, ScriptedDice({})).state
    g = Game(state)
    assert ENGINE.legal_actions(g.state, "P1") == [ClaimSin(sin=s) for s in SINS]
    g.act("P1", ClaimSin(sin="Pride"))
    g.reject("P2", ClaimSin(sin="Pride"), "already taken")
    for player, sin in zip(players[1:6], ["Wrath", "Sloth", "Lust", "Greed", "Gluttony"], strict=True):
        g.act(player, ClaimSin(sin=sin), {} if player != "P6" else None, strict=player != "P6")
    assert g.state.seat("P7").sin == "Envy" and g.state.reserves() == []
    assert g.of_type("sin_claimed")[-1]["how"] == "last_sin"


def test_random_assignment_rolls_one_side_per_free_sin() -> None:
    dice = QuietDice({"sin.P1": [3], "sin.P2": [1], "sin.P3": [5]})
    state = ENGINE.start(VicesOptions(seat_order="join_order", sin_assignment="random"), PLAYERS[:3], dice).state
    assert {p.id: p.sin for p in state.players} == {"P1": "Pride", "P2": "Wrath", "P3": "Envy"}
    assert [(die, sides) for die, sides, _ in dice.rolls[:3]] == [("sin.P1", 7), ("sin.P2", 6), ("sin.P3", 5)]


def test_each_player_owns_the_nemesis_die_of_their_original_sin() -> None:
    g = Game(ENGINE.start(VicesOptions(seat_order="join_order", sin_assignment="choose"), PLAYERS, QuietDice()).state)
    for player, sin in zip(PLAYERS, ["Wrath", "Sloth", "Greed", "Pride"], strict=True):
        g.act(player, ClaimSin(sin=sin), strict=False)
    assert g.state.nemesis_owner("Greed") == "P3" and g.state.nemesis_owner("Lust") is None
    assert g.of_type("turn_started")[0]["pool"][-1] == "N.Wrath"
