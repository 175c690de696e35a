"""Vices & Vengeance luck: who rolled each die of an action (every die of thousands of actions found its roller),
and the luck of a defender's dice in points (exact values for scripted rolls; zero on average for fair dice,
exactly for each unit and penalty roll, and over simulated games)."""

from __future__ import annotations

import math
import random
from fractions import Fraction
from itertools import product

import pytest

from rules.dice import RecordingDice, SeededDice
from rules.vices import luck
from rules.vices.engine import ENGINE
from rules.vices.playout import computer_player, greedy_player, random_options, random_player
from rules.vices.scoring import penalty_points
from rules.vices.strategy import keep_value, unit_points

PICKS = ("sin.",)
"""Die ids of random picks (the Sin a player gets at random): nobody's roll."""


def played(seed: int) -> tuple[int | None, list[tuple[list[dict], list[str]]]]:
    """A seeded random game: its Silver Bullet wild face, and every action's events and the ids of the dice it
    rolled, in order."""
    rng = random.Random(seed)
    options = random_options(rng)
    players = [f"P{i}" for i in range(1, rng.randint(3, 6) + 1)]
    dice = RecordingDice(SeededDice(seed))
    outcome = ENGINE.start(options, players, dice)
    steps = [(outcome.events, [r.die for r in dice.rolls])]
    choosers = (computer_player, greedy_player, random_player(seed))
    choose = choosers[seed % 3]
    state = outcome.state
    while ENGINE.winners(state) is None:
        dice.rolls.clear()
        player = ENGINE.prompts(state)[0].player
        outcome = ENGINE.apply(state, player, choose(state, player), dice)
        steps.append((outcome.events, [r.die for r in dice.rolls]))
        state = outcome.state
    return options.silver_bullet_wild_face, steps


@pytest.mark.parametrize("seed", range(60))
def test_every_die_of_every_action_has_its_roller(seed: int) -> None:
    for events, rolled in played(seed)[1]:
        named = [die for _, die in luck.rollers(events)]
        assert sorted(named) == sorted(d for d in rolled if not d.startswith(PICKS)), [e["type"] for e in events]


def die(die_id: str, value: int) -> dict[str, object]:
    return {"die": die_id, "value": value}


def test_attackers_roll_their_own_dice_and_the_defender_the_pool() -> None:
    events = [
        {
            "type": "rolled",
            "defender": "P1",
            "groups": [
                {"player": "P1", "role": "defender", "dice": [die("d8", 8), die("s.Wrath", 2)]},
                {"player": "P2", "role": "attacker", "dice": [die("L.Wrath", 2)]},
            ],
        },
        {"type": "penalty", "defender": "P1", "dice": [die("s.Wrath", 3), die("L.Wrath", 3)]},
    ]
    rolled = [("P1", "d8"), ("P1", "s.Wrath"), ("P2", "L.Wrath"), ("P1", "s.Wrath"), ("P1", "L.Wrath")]
    assert luck.rollers(events) == rolled


def test_a_last_die_and_a_penalty_have_exact_luck() -> None:
    # A d8 alone in the pool must be taken: it showed 8 (0 points) where a d8 costs 3.5 on average.
    rolled = {"type": "rolled", "groups": [{"player": "P1", "role": "defender", "dice": [{"die": "d8", "value": 8}]}]}
    # A penalty of two d6s showing 3 and 3 scores 0; two d6s cost 2 × 2.5 × 5/6 on average.
    penalty = {"type": "penalty", "defender": "P1", "points": 0, "dice": [{"die": "s.Lust"}, {"die": "L.Lust"}]}
    ended = {"type": "turn_ended", "player": "P1", "turn_score": 7, "abandoned": False}
    (turn,) = ENGINE.score_luck(ENGINE.options_model(), [rolled, penalty, ended])
    assert turn.player == "P1" and turn.turns == 1 and turn.points == 7
    assert turn.luck == pytest.approx(3.5 + 2 * 2.5 * 5 / 6)
    assert turn.variance == pytest.approx((64 - 1) / 12 + _penalty_variance(2))


def test_an_abandoned_turn_counts_its_dice_but_no_turn() -> None:
    ended = {"type": "turn_ended", "player": "P1", "turn_score": 12, "abandoned": True}
    assert ENGINE.score_luck(ENGINE.options_model(), [ended]) == []


def _penalty_variance(dice: int) -> float:
    scores = [penalty_points(v) for v in product(range(1, 7), repeat=dice)]
    mean = sum(scores) / len(scores)
    return sum((s - mean) ** 2 for s in scores) / len(scores)


@pytest.mark.parametrize("kind", ["d6", "d8", "d10", "d12", "d20", "mirror_medusa", "silverbullet_werewolf"])
@pytest.mark.parametrize("ahead", [1, 2, 5, 12])
def test_a_units_luck_is_zero_on_average_for_fair_dice(kind: str, ahead: int) -> None:
    """Exactly: the luck of every equally likely score, summed, is 0 (to float rounding)."""
    table, variance = luck._unit_luck(kind, 1, ahead)
    scores = unit_points(kind, 1)
    assert sum(table[s] for s in scores) / len(scores) == pytest.approx(0, abs=1e-12)
    assert variance == pytest.approx(sum(table[s] ** 2 for s in scores) / len(scores))
    # A unit worth keeping costs less than its mean: a roll ahead is a chance at a better face.
    assert keep_value(kind, 1, ahead, 0.0, 0.0) <= sum(scores) / len(scores) + 1e-12


@pytest.mark.parametrize("dice", [2, 3, 4])
def test_a_penalty_rolls_luck_is_zero_on_average(dice: int) -> None:
    table, _ = luck._penalty_luck(dice)
    scores = [penalty_points(v) for v in product(range(1, 7), repeat=dice)]
    assert sum(Fraction(table[s]).limit_denominator(10**6) for s in scores) == 0


def test_over_simulated_games_fair_dice_have_no_luck() -> None:
    """Thousands of turns by three kinds of players: the summed luck stays within four standard deviations of
    zero, and the expected points with the same choices (points + luck) stay near the points scored."""
    total_luck = total_variance = 0.0
    turns = points = 0
    for seed in range(120):
        wild, steps = played(seed)
        for events, _ in steps:
            for turn in luck.score_luck(wild, events):
                total_luck += turn.luck
                total_variance += turn.variance
                turns += turn.turns
                points += turn.points
    assert turns > 1000
    assert abs(total_luck / math.sqrt(total_variance)) < 4
    assert abs(total_luck / turns) < 0.5 < points / turns
