"""The engine contract (rules/engine.py) for Vices & Vengeance: capabilities, options, actions, data files,
JSON round trips, prompts and the timeout defaults of RULES.md 1.8 #35."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from pydantic import ValidationError

from rules.engine import ComputerPlayers, HiddenInformation, Seats, Turns, Undo
from rules.vices.actions import ClaimSin, Envy, Gluttony, Greed, Lust, PickPair, Remove, RemoveZeros, Wrath
from rules.vices.data import DICE_PATH, SINS, SINS_PATH, DiceSpec, SinList, load_dice, load_sins
from rules.vices.engine import ENGINE
from rules.vices.options import VicesOptions
from rules.vices.state import VicesState
from tests.rules.vices_support import Game, QuietDice, table

FOUR = {"P1": "Wrath", "P2": "Sloth", "P3": "Greed", "P4": "Pride"}
REPO = Path(__file__).resolve().parents[2]


def test_capabilities() -> None:
    assert (ENGINE.kind, ENGINE.title) == ("vices", "Vices & Vengeance")
    assert isinstance(ENGINE, Turns) and isinstance(ENGINE, ComputerPlayers) and isinstance(ENGINE, Seats)
    assert not isinstance(ENGINE, HiddenInformation) and not isinstance(ENGINE, Undo)
    assert ENGINE.options_model is VicesOptions and ENGINE.state_model is VicesState


def test_options_defaults_are_part_5s() -> None:
    assert VicesOptions().model_dump() == {
        "seat_order": "d20",
        "sin_assignment": "mirror_roll",
        "gluttony_added_die": "taken_large",
        "envy_optional": False,
        "sloth_removes": "sloth_die",
        "nemesis_zero_rule": "defender_pairs",
        "silver_bullet_wild_face": 1,
        "end_mode": "finish_round",
        "min_players": 3,
        "max_players": 6,
        "timeouts": {"turn": 120},
    }


def test_options_parse_the_documented_values() -> None:
    assert VicesOptions(silver_bullet_wild_face="none").silver_bullet_wild_face is None
    assert VicesOptions(timeouts={"turn": 60}).timeouts == {"turn": 60}
    assert VicesOptions.model_validate({"timeouts": {}}).timeouts == {"turn": 120}
    for bad in ({"silver_bullet_wild_face": 7}, {"end_mode": "sudden"}, {"nemesis": "x"}):
        with pytest.raises(ValidationError):
            VicesOptions.model_validate(bad)
    options = VicesOptions(nemesis_zero_rule="both", silver_bullet_wild_face=None)
    assert VicesOptions.model_validate_json(options.model_dump_json()) == options


@pytest.mark.parametrize(
    ("data", "action"),
    [
        ({"type": "claim", "sin": "Wrath"}, ClaimSin(sin="Wrath")),
        ({"type": "remove", "units": ["d12", "mirror_medusa"]}, Remove(units=("d12", "mirror_medusa"))),
        ({"type": "remove", "units": []}, Remove(units=())),
        ({"type": "zeros"}, RemoveZeros()),
        ({"type": "wrath", "sin": "Lust"}, Wrath(sin="Lust")),
        ({"type": "gluttony", "sin": "Pride"}, Gluttony(sin="Pride")),
        ({"type": "greed", "sin": "Sloth"}, Greed(sin="Sloth")),
        ({"type": "lust", "sin": "Envy"}, Lust(sin="Envy")),
        ({"type": "envy", "give": "Envy", "take": "Greed"}, Envy(give="Envy", take="Greed")),
        ({"type": "envy", "give": None, "take": None}, Envy(give=None, take=None)),
        ({"type": "pair", "pair": "david_goliath"}, PickPair(pair="david_goliath")),
    ],
)
def test_actions_parse_and_round_trip(data: dict[str, object], action: object) -> None:
    parsed = ENGINE.parse_action(data)
    assert parsed == action
    assert ENGINE.parse_action(json.loads(parsed.model_dump_json())) == parsed
    assert len(json.dumps(data, separators=(",", ":"))) <= 100


@pytest.mark.parametrize("data", [{"type": "roll"}, {"type": "remove", "dice": []}, {"sin": "Wrath"}, {}])
def test_anything_else_is_not_an_action(data: dict[str, object]) -> None:
    with pytest.raises(ValidationError):
        ENGINE.parse_action(data)


def test_data_files_load_through_their_models() -> None:
    assert SINS_PATH == REPO / "data" / "vices" / "sins.yaml" and DICE_PATH == REPO / "data" / "vices" / "dice.yaml"
    sins = load_sins()
    assert isinstance(sins, SinList) and [s.sin for s in sins.sins] == list(SINS)
    assert [s.sin for s in sins.sins if s.extra_die] == ["Pride"]
    dice = load_dice()
    assert isinstance(dice, DiceSpec)
    assert dice.defender_pool.spoilers == ("d12", "d10", "d8")
    assert [p.ids for p in dice.mythical_pairs] == [
        ("Mirror", "Medusa"),
        ("David", "Goliath"),
        ("SilverBullet", "Werewolf"),
    ]
    assert (dice.win.exact_target, dice.win.trigger_at_or_above) == (70, 70)


def test_bad_data_is_refused(tmp_path: Path) -> None:
    raw = yaml.safe_load(SINS_PATH.read_text(encoding="utf-8"))
    raw[0], raw[1] = raw[1], raw[0]
    path = tmp_path / "sins.yaml"
    path.write_text(yaml.safe_dump(raw), encoding="utf-8")
    with pytest.raises(ValidationError, match="precedence order"):
        load_sins(path)
    dice = yaml.safe_load(DICE_PATH.read_text(encoding="utf-8"))
    dice["mythical_pairs"].pop()
    path = tmp_path / "dice.yaml"
    path.write_text(yaml.safe_dump(dice), encoding="utf-8")
    with pytest.raises(ValidationError, match="mythical_pairs"):
        load_dice(path)


def test_states_round_trip_through_json_and_prompts_name_the_decision() -> None:
    g = Game.turn(table(FOUR, holds={"Lust": "P1"}), "P1", {"s.Greed": [2], "L.Greed": [2]}, strict=False)
    assert VicesState.model_validate_json(g.state.model_dump_json()) == g.state
    (prompt,) = ENGINE.prompts(g.state)
    assert prompt.model_dump() == {
        "player": "P3",
        "decision": "greed",
        "label": "choose which Sin Greed takes",
        "timer": "turn",
        "ping": True,
    }


def test_removal_timeout_takes_the_lowest_die_then_the_most_sides_then_roll_order() -> None:
    # s.Wrath and d12 both score 0: the d12 has more sides.
    g = Game.turn(table(FOUR), "P1", {"s.Wrath": [6], "d12": [12]}, strict=False)
    g.keep_only(
        "s.Wrath", "d12", "Mirror", "Medusa", script={"s.Wrath": [6], "d12": [12], "Mirror": [3], "Medusa": [3]}
    )
    assert ENGINE.default_action(g.state, "P1") == Remove(units=("d12",))
    g.remove("d12", script={"s.Wrath": [5], "Mirror": [3], "Medusa": [4]})
    # s.Wrath scores 1, the pair 5: the lowest wins.
    assert ENGINE.default_action(g.state, "P1") == Remove(units=("s.Wrath",))
    g.remove("s.Wrath", script={"Mirror": [3], "Medusa": [3]})
    assert ENGINE.default_action(g.state, "P1") == Remove(units=("mirror_medusa",))


def test_ties_on_points_and_sides_go_to_the_first_in_roll_order() -> None:
    g = Game.turn(table(FOUR), "P1", {"s.Wrath": [6], "s.Sloth": [6]}, strict=False)
    assert ENGINE.default_action(g.state, "P1") == Remove(units=("d12",))
    g.keep_only("s.Sloth", "s.Greed", script={"s.Sloth": [6], "s.Greed": [6], "L.Sloth": [1], "L.Greed": [1]})
    assert ENGINE.default_action(g.state, "P1") == Remove(units=("s.Sloth",))


def test_effect_timeouts_take_the_first_option_in_the_fixed_order() -> None:
    g = Game.turn(table(FOUR, holds={"Lust": "P2", "Envy": "P4"}), "P1", {"s.Lust": [2], "L.Lust": [2]}, strict=False)
    # Reserves (Gluttony) first, then holders in seat order.
    assert ENGINE.default_action(g.state, "P2") == Lust(sin="Gluttony")
    with pytest.raises(Exception, match="nothing for you to decide"):
        ENGINE.default_action(g.state, "P1")


def test_tiebreak_and_claim_timeouts() -> None:
    g = Game.turn(table(FOUR, totals={"P1": 70, "P2": 70, "P3": 10, "P4": 75}), "P4", {"N.Pride": [20]}, strict=False)
    g.act("P4", RemoveZeros())
    assert ENGINE.default_action(g.state, "P1") == PickPair(pair="mirror_medusa")
    options = VicesOptions(seat_order="join_order", sin_assignment="choose")
    state = ENGINE.start(options, ["P1", "P2", "P3"], QuietDice()).state
    assert ENGINE.default_action(state, "P1") == ClaimSin(sin="Wrath")
