"""The review's estimates against exact answers, and its properties on real games played by the computer."""

from __future__ import annotations

from functools import cache

import pytest
from pydantic import BaseModel

from rules.crowns.actions import Reroll, Roll
from rules.crowns.duel import Table, choice_values
from rules.crowns.engine import ENGINE as CROWNS
from rules.crowns.levels import solved_position
from rules.crowns.options import CrownsOptions
from rules.dice import SeededDice
from rules.initiative.engine import ENGINE as INITIATIVE
from rules.review import NotReviewable, Position, check_reviewable, review
from rules.vices.engine import ENGINE as VICES
from tests.rules.crowns_support import Game, table
from tests.testgame.engine import RaceEngine, RaceState, Steal

RACE = RaceEngine()


def exact_a_wins(state: RaceState) -> float:
    """a's chance to win a two-seat race from ``state`` when every steal is taken (the computer's policy), by
    recursion over every face of the d6."""

    @cache
    def chance(a: int, b: int, active: str, pending: str | None) -> float:
        if a >= state.target:
            return 1.0
        if b >= state.target:
            return 0.0
        if pending is not None:  # always take: a point from the roller, if they have one
            roller = "b" if pending == "a" else "a"
            scores = {"a": a, "b": b}
            if scores[roller] > 0:
                scores[roller] -= 1
                scores[pending] += 1
            return chance(scores["a"], scores["b"], pending, None)
        total = 0.0
        for face in range(1, 7):
            na, nb = (a + face, b) if active == "a" else (a, b + face)
            other = "b" if active == "a" else "a"
            won = (na if active == "a" else nb) >= state.target
            total += chance(na, nb, active if won else other, other if face == 1 and not won else None)
        return total / 6

    return chance(state.scores["a"], state.scores["b"], state.active, state.pending_steal)


def test_a_steal_decision_is_rated_as_the_exact_answer_says() -> None:
    before = RaceState(players=["a", "b"], scores={"a": 4, "b": 6}, active="b", target=10, pending_steal="a")
    declined = RACE.apply(before, "a", Steal(take=False), SeededDice(0)).state
    taken = RACE.apply(before, "a", Steal(take=True), SeededDice(0)).state
    exact_cost = exact_a_wins(taken) - exact_a_wins(declined)
    assert exact_cost > 0.05  # a real difference, for the check to mean something
    result = review(RACE, ["a", "b"], [Position(7, "a", before, Steal(take=False))], declined, 200_000)
    decision = result.decisions[0]
    assert decision.best == Steal(take=True)
    assert abs(decision.cost - exact_cost) <= 3 * decision.se + 0.005
    assert abs(decision.after - exact_a_wins(declined)) < 0.04
    assert abs(decision.before - exact_a_wins(taken)) < 0.04
    assert result.skill("a") == -decision.cost and result.skill("b") == 0
    assert decision.best_events == [{"type": "steal", "player": "a", "take": True}]  # told in the game's words


def test_the_better_choice_costs_nothing() -> None:
    before = RaceState(players=["a", "b"], scores={"a": 4, "b": 6}, active="b", target=10, pending_steal="a")
    taken = RACE.apply(before, "a", Steal(take=True), SeededDice(0)).state
    result = review(RACE, ["a", "b"], [Position(7, "a", before, Steal(take=True))], taken, 50_000)
    assert result.decisions[0].cost == 0 and result.decisions[0].best == Steal(take=True)


def played(engine: object, options: BaseModel, seed: int) -> tuple[list[str], list[Position], BaseModel]:
    """A whole game played by the computer in every seat, as positions."""
    eng: object = engine
    players = ["p1", "p2", "p3"]
    dice = SeededDice(seed)
    state = eng.start(options, players, dice).state  # type: ignore[attr-defined]
    positions = []
    while eng.winners(state) is None:  # type: ignore[attr-defined]
        actor = eng.prompts(state)[0].player  # type: ignore[attr-defined]
        action = eng.computer_action(state, actor, dice)  # type: ignore[attr-defined]
        positions.append(Position(len(positions) + 1, actor, state, action))
        state = eng.apply(state, actor, action, dice).state  # type: ignore[attr-defined]
    return players, positions, state


@pytest.mark.parametrize(("engine", "options"), [(CROWNS, CrownsOptions()), (VICES, VICES.options_model())])
def test_a_played_game_reviews_the_same_every_time_with_sound_figures(engine: object, options: BaseModel) -> None:
    players, positions, final = played(engine, options, 3)
    first = review(engine, players, positions, final, 3_000)
    again = review(engine, players, positions, final, 3_000)
    assert first == again
    assert first.finished and len(first.decisions) == len(positions)
    winners = engine.winners(final)  # type: ignore[attr-defined]
    for p in players:
        curve = first.curve[p]
        assert len(curve) == len(positions) + 1
        assert all(0 <= v <= 1 for v in curve)
        assert curve[-1] == (1 / len(winners) if p in winners else 0)
    assert all(d.cost >= 0 and d.se >= 0 and d.before >= d.after for d in first.decisions)
    assert first.actions > 0
    for p in players:  # the result is the first chance, plus what the decisions did, plus luck
        assert first.luck_se[p] >= 0


def test_a_game_with_secrets_is_not_reviewed() -> None:
    with pytest.raises(NotReviewable, match="secrets"):
        check_reviewable(INITIATIVE)


def test_a_crowns_reroll_is_rated_as_the_solved_game_says() -> None:
    """Two-player Dice of Crowns without modules is solved (``rules.crowns.duel``): at 2–2, holding a dagger,
    four skulls and two returned scrolls, rerolling the skulls gives away a third of the game (the scrolls can
    make the fifth skull without risking a skull lost). The review finds the solved game's best choice, its
    cost, and both chances."""
    game = Game(table(players=("P1", "P2"), claims={"P1": 2, "P2": 2}))
    game.act("P1", Roll(), "DKKKKSS SS")  # the two scrolls go to P2 and come back as scrolls
    position = solved_position(game.state)
    assert position is not None and position.key == (0, 1, 4, 0)
    exact = choice_values(3, Table(), 2, 2, position.key)
    chosen = Reroll(group="skulls")
    after = CROWNS.apply(game.state, "P1", chosen, SeededDice(1)).state
    result = review(CROWNS, ["P1", "P2"], [Position(3, "P1", game.state, chosen)], after, 60_000)
    decision = result.decisions[0]
    assert decision.best == Reroll(group="scrolls")
    exact_cost = exact["scrolls"] - exact["skulls"]
    assert abs(decision.cost - exact_cost) <= 3 * decision.se + 0.005
    assert abs(decision.before - exact["scrolls"]) < 0.04
    assert abs(decision.after - exact["skulls"]) < 0.04
