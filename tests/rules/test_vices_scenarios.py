"""RULES.md 1.9 acceptance scenarios VV-1 … VV-11 through the engine, with dice scripted per die id."""

from __future__ import annotations

import pytest

from rules.vices.actions import PickPair, Remove, RemoveZeros, Wrath
from rules.vices.data import BASE_POOL
from rules.vices.engine import ENGINE
from rules.vices.scoring import die_points, pair_points
from tests.rules.vices_support import Game, table

# VV-2's seats; most scenarios reuse them.
JORDAN = {"Jordan": "Wrath", "Taylor": "Sloth", "Casey": "Greed", "Avery": "Pride"}
FOUR = {"P1": "Wrath", "P2": "Sloth", "P3": "Greed", "P4": "Pride"}
ZERO_RULES = ["defender_pairs", "matched_die", "both"]


@pytest.mark.parametrize(
    ("sides", "value", "points"),
    [
        *[(6, 1, 5), (6, 6, 0), (8, 3, 5), (8, 8, 0), (10, 1, 9), (10, 10, 0)],
        *[(12, 8, 4), (12, 12, 0), (20, 4, 16), (20, 20, 0), (20, 1, 19)],
    ],
)
def test_vv1_ordinary_points(sides: int, value: int, points: int) -> None:
    assert die_points(sides, value) == points


def test_vv1_ordinary_points_in_the_pool() -> None:
    g = Game.turn(table(FOUR), "P1", {"d12": [8], "d8": [3], "d10": [1], "N.Wrath": [4]}, strict=False)
    assert {k: g.points()[k] for k in ("d12", "d8", "d10", "N.Wrath", "s.Wrath")} == {
        "d12": 4,
        "d8": 5,
        "d10": 9,
        "N.Wrath": 16,
        "s.Wrath": 0,
    }


VV2_FIRST_ROLL = {
    "s.Wrath": [4],
    "s.Sloth": [1, 5],
    "s.Pride": [2],
    "s.Lust": [4],
    "s.Greed": [3],
    "s.Gluttony": [5],
    "s.Envy": [1],
    "d12": [6],
    "d10": [2],
    "d8": [6],
    "Mirror": [1],
    "Medusa": [2],
    "David": [6],
    "Goliath": [6],
    "SilverBullet": [2],
    "Werewolf": [5],
    "N.Wrath": [4],
    "L.Sloth": [1, 2],
    "N.Sloth": [9],
    "L.Greed": [5],
    "N.Greed": [13],
    "L.Pride": [6],
    "N.Pride": [17],
}


@pytest.mark.parametrize("zero_rule", ZERO_RULES)
def test_vv2_first_roll_of_the_example(zero_rule: str) -> None:
    g = Game.turn(table(JORDAN, nemesis_zero_rule=zero_rule), "Jordan", VV2_FIRST_ROLL)
    assert len(g.of_type("turn_started")[0]["pool"]) == 17
    assert g.of_type("turn_started")[0]["set_aside"] == ["L.Wrath"]
    assert g.of_type("matches") == [
        {"type": "matches", "defender": "Jordan", "sins": [{"sin": "Sloth", "player": "Taylor"}], "nemesis": []}
    ]
    (penalty,) = g.of_type("penalty")
    assert penalty["dice"] == [
        {"die": "s.Sloth", "value": 5, "points": 1},
        {"die": "L.Sloth", "value": 2, "points": 4},
    ]
    assert penalty["points"] == 5 and g.score() == 5
    assert g.state.nemesis_out == {"Sloth": "sloth"}
    assert g.state.sins["Sloth"] == "Taylor"  # L.Sloth goes back to Taylor
    # The penalty counted as the removal: removing nothing is allowed now.
    assert Remove(units=()) in ENGINE.legal_actions(g.state, "Jordan")
    assert ENGINE.prompts(g.state)[0].label == "remove more dice, or none"
    g.reject("Jordan", Remove(units=("David",)), "pairs must be scored together")
    g.reject("Jordan", Remove(units=("David", "Goliath")), "pairs must be scored together")
    next_roll = {die: [3] for die in BASE_POOL if die not in ("s.Sloth", "David", "Goliath")}
    next_roll |= {"N.Wrath": [10], "L.Greed": [1], "N.Greed": [2], "L.Pride": [4], "N.Pride": [5]}
    g.remove("david_goliath", script=next_roll)
    assert g.of_type("removed")[0]["points"] == 0
    assert g.score() == 5
    assert len(g.pool()) == 14
    rolled = g.rolled_by()
    assert "Taylor" not in rolled  # s.Sloth is gone and N.Sloth is out of play
    assert rolled["Casey"] == {"L.Greed": 1, "N.Greed": 2}
    assert rolled["Avery"] == {"L.Pride": 4, "N.Pride": 5}


def _vv3_game() -> Game:
    g = Game.turn(table(FOUR), "P1", strict=False)
    g.keep_only("s.Lust", "d12", "Mirror", "Medusa", script={"s.Lust": [3], "d12": [11], "Mirror": [3], "Medusa": [5]})
    assert g.pool() == {"s.Lust": 3, "d12": 11, "Mirror": 3, "Medusa": 5}
    return g


def test_vv3_at_least_one_removal_and_pairs_whole() -> None:
    g = _vv3_game()
    g.reject("P1", Remove(units=()), "remove at least one die")
    g.reject("P1", Remove(units=("Mirror",)), "pairs must be scored together")
    assert ENGINE.removal_points(g.state, ["s.Lust"]) == 3
    assert ENGINE.removal_points(g.state, ["d12"]) == 1
    assert ENGINE.removal_points(g.state, ["mirror_medusa"]) == 4
    assert ENGINE.removal_points(g.state, ["s.Lust", "d12", "mirror_medusa"]) == 8
    # The dice not removed are all rerolled: none can be held.
    g.remove("s.Lust", script={"d12": [12], "Mirror": [1], "Medusa": [1]})
    assert g.rolled_by() == {"P1": {"d12": 12, "Mirror": 1, "Medusa": 1}}


def test_vv3_removing_everything_scores_eight() -> None:
    g = _vv3_game()
    score = g.score()
    g.remove("s.Lust", "d12", "mirror_medusa", strict=False)
    assert g.of_type("removed")[0]["points"] == 8
    assert g.of_type("turn_ended")[0]["turn_score"] == score + 8


@pytest.mark.parametrize(
    ("pair", "values", "wild", "points"),
    [
        ("mirror_medusa", (4, 4), 1, 0),
        ("david_goliath", (1, 3), 1, 8),
        ("silverbullet_werewolf", (1, 2), 1, 0),
        ("silverbullet_werewolf", (3, 3), 1, 0),
        ("silverbullet_werewolf", (2, 5), 1, 5),
        ("silverbullet_werewolf", (1, 2), 6, 9),
        ("silverbullet_werewolf", (1, 2), None, 9),
    ],
)
def test_vv4_mythical_pairs_and_the_silver_bullet(
    pair: str, values: tuple[int, int], wild: int | None, points: int
) -> None:
    dice = {"mirror_medusa": ("Mirror", "Medusa"), "david_goliath": ("David", "Goliath")}.get(
        pair, ("SilverBullet", "Werewolf")
    )
    script = {dice[0]: [values[0]], dice[1]: [values[1]]}
    g = Game.turn(table(FOUR, silver_bullet_wild_face=wild), "P1", script, strict=False)
    assert g.points()[pair] == points
    assert pair_points(pair, *values, wild_face=wild) == points


@pytest.mark.parametrize(("penalty", "points"), [((3, 3, 5), 1), ((2, 4, 5), 7), ((4, 4, 4), 0)])
def test_vv5_pride_extra_die_and_groups(penalty: tuple[int, int, int], points: int) -> None:
    s_pride, l_pride, metallic = penalty
    script = {"s.Pride": [2, s_pride], "L.Pride": [2, l_pride], "M": [metallic]}
    g = Game.turn(table(FOUR), "P1", script, strict=False)
    (event,) = g.of_type("penalty")
    assert [d["die"] for d in event["dice"]] == ["s.Pride", "L.Pride", "M"]
    assert event["points"] == points and event["player"] == "P4"
    assert g.score() == points
    assert g.state.sins["Pride"] == "P4"  # L.Pride and M go back to the Pride holder
    assert "s.Pride" not in g.pool()


# VV-7: seats A(Wrath), B(Greed), C(Lust, defender), D(Envy); C plays first, so clockwise: D, A, B.
VV7 = {"C": "Lust", "D": "Envy", "A": "Wrath", "B": "Greed"}
VV7_ROLL = {"s.Wrath": [2, 6], "L.Wrath": [2, 1], "s.Greed": [5, 4], "L.Greed": [5, 4]}
GREED_PENALTY = {"s.Greed": [4], "L.Greed": [4]}


def test_vv7_wrath_before_greed() -> None:
    g = Game.turn(table(VV7), "C", VV7_ROLL, strict=False)
    wrath, greed = g.of_type("penalty")
    assert (wrath["sin"], wrath["points"]) == ("Wrath", 5)
    assert (greed["sin"], greed["points"]) == ("Greed", 0)
    assert g.state.sins["Lust"] == "out"
    destroyed = g.of_type("sin_destroyed")
    assert destroyed == [
        {"type": "sin_destroyed", "player": "A", "sin": "Lust", "source": "C", "dice": ["L.Lust"]},
    ]
    assert {"type": "effect_none", "sin": "Greed", "player": "B", "reason": "defender_has_no_sin"} in g.last
    assert g.score() == 5
    assert g.state.turn is not None and g.state.turn.penalty_met
    assert Remove(units=()) in ENGINE.legal_actions(g.state, "C")


def test_vv7_variant_wrath_chooses_and_greed_takes_the_other() -> None:
    first = {"s.Wrath": [2, 6], "L.Wrath": [2, 1], "s.Greed": [5], "L.Greed": [5]}
    g = Game.turn(table(VV7, holds={"Sloth": "C"}), "C", first, strict=False)
    (prompt,) = ENGINE.prompts(g.state)
    assert (prompt.player, prompt.decision, prompt.label) == ("A", "wrath", "choose which Sin Wrath destroys")
    assert ENGINE.legal_actions(g.state, "A") == [Wrath(sin="Sloth"), Wrath(sin="Lust")]
    g.reject("A", Wrath(sin="Envy"), "Wrath destroys one of the defender's Sins")
    g.reject("C", Wrath(sin="Lust"), "not your decision")
    g.reject("C", Remove(units=("d12",)), "waiting for the Wrath player")
    g.act("A", Wrath(sin="Lust"), GREED_PENALTY)
    assert g.state.sins["Lust"] == "out"
    assert g.state.sins_of("B") == ["Sloth", "Greed"]
    assert {"type": "sin_taken", "player": "B", "sin": "Sloth", "source": "C", "by": "Greed", "dice": ["L.Sloth"]} in (
        g.last
    )


def _last_turn(seats: dict[str, str], totals: dict[str, int], defender: str) -> Game:
    """``defender`` plays a turn that scores 0 (every die at its maximum, the own d20 at 20)."""
    g = Game.turn(table(seats, totals=totals), defender, {f"N.{seats[defender]}": [20]}, strict=False)
    assert ENGINE.legal_actions(g.state, defender)[-1] == RemoveZeros()
    g.act(defender, RemoveZeros())
    assert g.of_type("removed")[0]["points"] == 0
    return g


def test_vv9_exactly_70_steals_the_win_and_the_tie_break() -> None:
    g = _last_turn(FOUR, {"P1": 70, "P2": 45, "P3": 70, "P4": 81}, "P4")
    assert g.totals() == {"P1": 70, "P2": 45, "P3": 70, "P4": 81}
    ended = g.of_type("game_ended")[0]
    assert ended["candidates"] == ["P1", "P3"] and ended["exact_target"]
    prompts = ENGINE.prompts(g.state)
    assert [(p.player, p.decision) for p in prompts] == [("P1", "tiebreak"), ("P3", "tiebreak")]
    g.reject("P2", PickPair(pair="mirror_medusa"), "not your decision")
    g.act("P1", PickPair(pair="silverbullet_werewolf"))
    g.reject("P1", PickPair(pair="mirror_medusa"), "already chosen a pair")
    assert ENGINE.winners(g.state) is None
    g.act("P3", PickPair(pair="mirror_medusa"), {"SilverBullet": [3], "Werewolf": [5], "Mirror": [2], "Medusa": [2]})
    (rolled,) = g.of_type("tiebreak_rolled")
    assert [(r["player"], r["points"]) for r in rolled["rolls"]] == [("P1", 4), ("P3", 0)]
    assert ENGINE.winners(g.state) == ["P3"]
    assert ENGINE.next_game_order(g.state) == ["P4", "P1", "P2", "P3"]
    assert ENGINE.prompts(g.state) == []


def test_vv10_lowest_wins_and_the_tie_break_repeats() -> None:
    g = _last_turn(FOUR, {"P1": 72, "P2": 38, "P3": 38, "P4": 69}, "P4")
    assert g.of_type("game_ended")[0]["candidates"] == ["P2", "P3"]
    g.act("P3", PickPair(pair="mirror_medusa"))
    g.act("P2", PickPair(pair="david_goliath"), {"David": [4], "Goliath": [4], "Mirror": [5], "Medusa": [5]})
    assert g.of_type("tiebreak_rolled")[0]["tied"] == ["P2", "P3"]
    assert ENGINE.winners(g.state) is None
    assert g.state.tiebreak is not None and g.state.tiebreak.round == 2
    g.act("P2", PickPair(pair="david_goliath"))
    g.act(
        "P3",
        PickPair(pair="silverbullet_werewolf"),
        {"David": [1], "Goliath": [6], "SilverBullet": [4], "Werewolf": [2]},
    )
    rolls = g.of_type("tiebreak_rolled")[0]["rolls"]
    assert [(r["player"], r["points"]) for r in rolls] == [("P2", 5), ("P3", 6)]
    assert ENGINE.winners(g.state) == ["P2"]
    assert ENGINE.next_game_order(g.state) == ["P3", "P4", "P1", "P2"]


def test_vv10_only_players_still_tied_roll_again() -> None:
    g = _last_turn(FOUR, {"P1": 30, "P2": 30, "P3": 30, "P4": 75}, "P4")
    for player in ("P1", "P2"):
        g.act(player, PickPair(pair="mirror_medusa"))
    g.act("P3", PickPair(pair="david_goliath"), {"Mirror": [2, 3], "Medusa": [2, 3], "David": [1], "Goliath": [2]})
    assert g.state.tiebreak is not None and g.state.tiebreak.contenders == ("P1", "P2")
    assert [p.player for p in ENGINE.prompts(g.state)] == ["P1", "P2"]


def _play_quiet_turn(g: Game) -> None:
    """The defender removes everything at once; the next turn's dice are quiet."""
    assert g.state.turn is not None
    g.remove(*(u.id for u in ENGINE.removable_units(g.state) if "+" not in u.id), strict=False)


@pytest.mark.parametrize("end_mode", ["finish_round", "one_more_each"])
def test_vv11_when_the_game_ends(end_mode: str) -> None:
    totals = {"P1": 30, "P2": 64, "P3": 40, "P4": 50}
    state = table(FOUR, totals=totals, round_no=7, end_mode=end_mode)
    g = Game.turn(state, "P2", {"N.Sloth": [11]}, strict=False)  # the own d20 scores 9
    _play_quiet_turn(g)
    assert g.totals()["P2"] == 73
    assert g.state.end_triggered
    (trigger,) = g.of_type("end_triggered")
    expected_last = ["P3", "P4"] if end_mode == "finish_round" else ["P3", "P4", "P1"]
    assert trigger["last_turns"] == expected_last
    assert g.defender == "P3"
    _play_quiet_turn(g)
    assert g.defender == "P4"
    _play_quiet_turn(g)
    if end_mode == "finish_round":
        assert ENGINE.winners(g.state) == ["P1"]
        assert g.state.seat("P1").turns == ()  # P1 does not take another turn
    else:
        assert g.defender == "P1" and g.state.round_no == 8
        _play_quiet_turn(g)
        assert ENGINE.winners(g.state) is not None
        assert len(g.state.seat("P1").turns) == 1
    assert [e["player"] for e in g.of_type("turn_started", g.events)] == ["P2", *expected_last]


def test_vv11_variant_the_last_seat_triggers() -> None:
    state = table(FOUR, totals={"P1": 30, "P2": 40, "P3": 50, "P4": 66}, round_no=7)
    g = Game.turn(state, "P4", strict=False)  # N.Pride shows 14: 6 points
    _play_quiet_turn(g)
    assert g.totals()["P4"] == 72
    assert ENGINE.winners(g.state) == ["P1"]
    assert g.of_type("end_triggered")[0]["last_turns"] == []
