"""Computer players at every strength, at the engine: always a legal action, the same action for the same
position, never the game's dice, and a Strong player that departs from Normal only for an estimated gain, valuing
rollouts cut short by models of the rest of the game."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import BaseModel

from rules.crowns.engine import ENGINE as CROWNS
from rules.crowns.levels import race_value
from rules.crowns.options import CrownsOptions
from rules.dice import SeededDice
from rules.engine import EASY, NORMAL, STRENGTHS, STRONG
from rules.search import Estimate, Racer, Rollouts, best, race
from rules.vices.engine import ENGINE as VICES
from rules.vices.options import VicesOptions
from rules.vices.rest import drawn_share, duel_share, rest_of_game

SAME_ANSWER_CHECKS = 8
"""Decisions of each game asked twice, to see the same answer (a Strong decision takes a few hundred ms)."""


class NoDice:
    """A computer rolls nothing of the game's: its rollouts are seeded by the position."""

    def roll(self, die_id: str, sides: int) -> int:
        raise AssertionError("a computer player rolled the game's dice")


def _play(engine: Any, options: BaseModel, players: list[str], strengths: dict[str, str], seed: int) -> int:
    """A game played to its end by computers at ``strengths``; every choice checked legal. The decisions made."""
    dice = SeededDice(seed)
    state = engine.start(options, players, dice).state
    decisions = 0
    while engine.winners(state) is None:
        player = engine.prompts(state)[0].player
        action = engine.computer_action(state, player, NoDice(), strengths[player])
        if decisions < SAME_ANSWER_CHECKS:
            assert action == engine.computer_action(state, player, NoDice(), strengths[player])
        if engine is CROWNS:
            assert action in engine.legal_actions(state, player)
        state = engine.apply(state, player, action, dice).state  # raises IllegalAction if it is not legal
        decisions += 1
    return decisions


@pytest.mark.parametrize("seed", range(2))
def test_crowns_computers_at_every_strength_play_legally(seed: int) -> None:
    options = CrownsOptions(fate=True, legendary=True, overkill=True, last_stand=seed == 1)
    players = ["A", "B", "C"]
    strengths = dict(zip(players, STRENGTHS[seed:] + STRENGTHS[:seed], strict=True))
    assert _play(CROWNS, options, players, strengths, seed) > 0


@pytest.mark.parametrize("players", [2, 3])
def test_vices_computers_at_every_strength_play_legally(players: int) -> None:
    options = VicesOptions(seat_order="join_order", min_players=2, envy_optional=True)
    seats = ["A", "B", "C"][:players]
    strengths = dict(zip(seats, (STRONG, EASY, NORMAL), strict=False))
    assert _play(VICES, options, seats, strengths, players) > 0


def test_an_unknown_strength_plays_as_normal() -> None:
    state = CROWNS.start(CrownsOptions(), ["A", "B"], SeededDice(1)).state
    player = CROWNS.prompts(state)[0].player
    assert CROWNS.computer_action(state, player, NoDice(), "grandmaster") == CROWNS.computer_action(
        state, player, NoDice(), NORMAL
    )


class Coin(BaseModel):
    """A toy game's action: take the sure thing, or bet on a die."""

    bet: bool


class CoinState(BaseModel):
    """The toy game: one decision, then over."""

    winner: str | None = None


class CoinGame:
    """Win for sure by not betting, or with chance ``odds`` by betting."""

    def __init__(self, sure: bool, odds: int) -> None:
        self.sure, self.odds = sure, odds

    def apply(self, state: CoinState, actor: str, action: Coin, dice: Any) -> Any:
        won = dice.roll("d", 6) <= self.odds if action.bet else self.sure
        return type("Outcome", (), {"state": CoinState(winner=actor if won else "other")})()

    def winners(self, state: CoinState) -> list[str] | None:
        return [state.winner] if state.winner else None


def _rules(game: CoinGame) -> Rollouts[CoinState, Coin]:
    return Rollouts(engine=game, actor=lambda s: "me", policy=lambda s, p: Coin(bet=False), work=200)


def test_strong_takes_the_better_chance_to_win_and_keeps_the_default_on_a_tie() -> None:
    start = CoinState()
    # Not betting loses for sure; a bet wins 5 times in 6: the bet is clearly better.
    assert best(_rules(CoinGame(sure=False, odds=5)), start, "me", [Coin(bet=False), Coin(bet=True)]).bet
    # Not betting wins for sure: never worse than a bet, so the default stays.
    assert not best(_rules(CoinGame(sure=True, odds=5)), start, "me", [Coin(bet=False), Coin(bet=True)]).bet
    # A bet that wins 1 time in 6 against a sure loss: a small gain, but seen on common dice, it is taken.
    assert best(_rules(CoinGame(sure=False, odds=1)), start, "me", [Coin(bet=False), Coin(bet=True)]).bet


def test_a_gain_within_the_noise_is_not_taken() -> None:
    default, other = Estimate(Coin(bet=False), [1, 0, 1, 0]), Estimate(Coin(bet=True), [1, 1, 0, 0])
    gain, error = other.gain_over(default)
    assert gain == 0 and error > 0


def test_a_lucky_streak_is_not_certainty() -> None:
    # Two rollouts both won by the other candidate: their spread about their mean is 0, about 0 it is not.
    default, other = Estimate(Coin(bet=False), [0, 0]), Estimate(Coin(bet=True), [1, 1])
    gain, error = other.gain_over(default)
    assert gain == 1 and error > 0.5


def test_too_few_rollouts_keep_the_default() -> None:
    # A budget for a handful of rollouts only: whatever they show, Normal's choice stands.
    rules = Rollouts(
        engine=CoinGame(sure=False, odds=6), actor=lambda s: "me", policy=lambda s, p: Coin(bet=False), work=8
    )
    assert not best(rules, CoinState(), "me", [Coin(bet=False), Coin(bet=True)]).bet


def test_a_race_of_turns() -> None:
    # One success each at 1/2 a turn: the first to play wins 2/3 of the time.
    assert race((Racer(0.5, 0.5, 1), Racer(0.5, 0.5, 1))) == pytest.approx((2 / 3, 1 / 3))
    # Three players, three successes each: playing earlier is better, and the chances sum to 1.
    chances = race((Racer(0.5, 0.5, 3),) * 3)
    assert chances[0] > chances[1] > chances[2] and sum(chances) == pytest.approx(1)
    # A Last Stand crown held (no step left, a 0.9 hold) against a rival two Claims away.
    assert race((Racer(0.5, 0.5, 0, 0.9), Racer(0.5, 0.5, 2, 0.9)))[0] > 0.99


def test_strong_values_the_end_of_a_turn_by_the_race() -> None:
    # At the very start nobody holds anything: the player to roll first is ahead, and the values are chances.
    state = CROWNS.start(CrownsOptions(), ["A", "B", "C"], SeededDice(3)).state
    values = [race_value(state, p, 0) for p in [state.active, *state.rivals(state.active)]]
    assert values[0] > values[1] > values[2] and sum(values) == pytest.approx(1)


def test_the_rest_of_a_two_player_vices_game_is_solved_in_its_model() -> None:
    state = VICES.start(VicesOptions(seat_order="join_order", min_players=2), ["A", "B"], SeededDice(2)).state
    # Nobody has a point: the model is even (who plays first in a round does not matter: a round ends the game).
    assert rest_of_game(state, "A", 7) == pytest.approx(0.5) and rest_of_game(state, "B", 99) == pytest.approx(0.5)
    # Solved values agree with the drawn ones (2,400 draws each, within 4 standard errors: 0.04), from the start of
    # a round and after the first player's turn, and are whole chances: the two players' sum to 1.
    for first, second, first_to_move in [(50, 60, True), (65, 40, False), (40, 65, True), (20, 0, False)]:
        exact = duel_share(first, second, first_to_move=first_to_move)
        assert exact is not None and 0 < exact < 1
        now = 0 if first_to_move else 1
        drawn = sum(drawn_share([first, second], now, 0, seed) for seed in range(100)) / 100
        assert drawn == pytest.approx(exact, abs=0.04)
    # Lower is better but for exactly 70: 60 against 50 before the last round is a poor place to be.
    assert duel_share(60, 50, first_to_move=True) == pytest.approx(1 - duel_share(50, 60, first_to_move=True))
    assert duel_share(70, 0, first_to_move=True) is None  # a round never starts with 70 reached


def test_the_rest_of_a_three_player_vices_game_is_a_share_of_draws() -> None:
    state = VICES.start(VicesOptions(seat_order="join_order"), ["A", "B", "C"], SeededDice(2)).state
    values = [rest_of_game(state, p, 7) for p in "ABC"]
    assert all(0 < v < 1 for v in values) and sum(values) == pytest.approx(1)
    assert values == [rest_of_game(state, p, 7) for p in "ABC"]


def test_two_players_with_fate_or_the_crown_keep_to_normal() -> None:
    # The race model prices a Fate token and the Crown crudely: with no rival to choose between, Strong plays Normal.
    options = CrownsOptions(fate=True, last_stand=True)
    dice = SeededDice(4)
    state = CROWNS.start(options, ["A", "B"], dice).state
    for _ in range(40):
        if CROWNS.winners(state) is not None:
            break
        player = CROWNS.prompts(state)[0].player
        normal = CROWNS.computer_action(state, player, NoDice(), NORMAL)
        assert CROWNS.computer_action(state, player, NoDice(), STRONG) == normal
        state = CROWNS.apply(state, player, normal, dice).state
