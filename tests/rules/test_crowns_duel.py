"""The solved two-player game of Dice of Crowns (``rules.crowns.duel``): the shipped tables are the solver's, the
solver's fast method agrees with plain value iteration, its turn is the engine's turn (the same chances of each
ending, measured by playing the real engine), and Strong plays the solution."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from rules.crowns import ENGINE
from rules.crowns.actions import Reroll, Roll
from rules.crowns.duel import (
    END,
    Ending,
    Table,
    choice_values,
    choices,
    every_table,
    moves_of,
    normal_policy,
    open_positions,
    shipped,
    solve,
    start_values,
    turn_values,
)
from rules.crowns.levels import solved_position
from rules.crowns.state import DieState, Face, Phase
from rules.crowns.strategy import choose_action
from rules.dice import SeededDice
from rules.engine import STRONG
from tests.rules.crowns_support import Game, table

TURNS = 4_000
"""Turns played through the engine to check the solver's chances of each ending (1 % at 4 standard errors)."""


def _endings(seed: int) -> dict[Ending, float]:
    rng = random.Random(seed)
    return {(claim, g): rng.random() for claim in (True, False) for g in range(8)}


def test_the_shipped_tables_are_the_solved_game() -> None:
    fresh = solve(3, Table())
    ship = shipped(3, Table())
    assert all(abs(x - y) < 1e-9 for cell in fresh for x, y in zip(fresh[cell], ship[cell], strict=True))
    for target, tab in every_table():
        wins = shipped(target, tab)
        assert len(wins) == 2 * target * target
        assert all(0.0 <= x <= 1.0 for row in wins.values() for x in row)
    # The first player's edge, as the solver finds it (the bench reports it too).
    assert 0.55 < ship[0, 0, 0][0] < 0.57


@pytest.mark.parametrize("tab", [Table(), Table(voluntary_end=True, auto_end_unreachable=True)])
def test_the_class_by_class_solution_is_plain_value_iterations(tab: Table) -> None:
    endings = _endings(7)
    fast = turn_values(tab, endings)
    moves = moves_of(tab)
    plain = dict.fromkeys(open_positions(tab), 0.0)
    change = 1.0
    while change > 1e-14:
        change = 0.0
        for key in plain:
            new = max(
                sum(p * (endings[w] if len(w) == 2 else plain[w]) for w, p in moves[key, option])
                for option in choices(key, tab)
            )
            change, plain[key] = max(change, abs(new - plain[key])), new
    assert all(abs(fast[key] - plain[key]) < 1e-9 for key in plain)


def _turn_through_the_engine(seed: int) -> Ending:
    """One first turn of a two-player game through the engine, rerolling as Normal does: (a Claim?, crowns the
    rival kept)."""
    dice = SeededDice(seed)
    state = ENGINE.start(table(players=("P1", "P2")).options, ("P1", "P2"), dice).state
    first = state.active
    while state.turn_no == 1 and ENGINE.winners(state) is None:
        actor = ENGINE.prompts(state)[0].player
        state = ENGINE.apply(state, actor, choose_action(state, actor), dice).state
    claim = state.seat(first).claims == 1
    rival = next(p for p in state.present() if p != first)
    # The rival's kept crowns are now locked among the dice it holds (the rest were handed to it).
    kept = sum(d.holder == rival and d.state is DieState.LOCKED and d.face is Face.CROWN for d in state.dice)
    return claim, kept


def test_the_solved_turn_is_the_engines_turn() -> None:
    """Each ending's chance, by the solver (a turn played as Normal, from no crowns held), against the share of
    the engine's turns that end so."""
    tab = Table()
    seen = Counter(_turn_through_the_engine(seed) for seed in range(TURNS))
    for ending in [(c, g) for c in (True, False) for g in range(4)]:
        indicator = {e: float(e == ending) for c in (True, False) for e in [(c, g) for g in range(8)]}
        exact = start_values(tab, indicator, turn_values(tab, indicator, normal_policy(tab)))[0]
        share = seen[ending] / TURNS
        error = (exact * (1 - exact) / TURNS) ** 0.5
        assert abs(share - exact) <= 4 * error + 1e-3, (ending, share, exact)


def test_strong_rerolls_the_skulls_where_normal_rerolls_both() -> None:
    """The solved game's largest departure from Normal: with two daggers, rerolling the returned scrolls too
    sends scrolls to a rival who hands any dagger back (Normal prices that at 40 %) and keeps any crown."""
    g = Game(table(players=("P1", "P2"), claims={"P1": 2, "P2": 2}))
    # With one rival the scrolls go to P2 at once, and come back: a crown P2 keeps, two scrolls.
    g.act("P1", Roll(), "DDKKSSS CSS")
    assert g.phase is Phase.DECIDE, g.kinds()
    position = solved_position(g.state)
    assert position is not None and position.key == (0, 2, 2, 1)
    values = choice_values(3, Table(), 2, 2, position.key)
    assert values["skulls"] > values["both"] + 0.005
    assert choose_action(g.state, "P1") == Reroll(group="both")
    assert ENGINE.computer_action(g.state, "P1", SeededDice(0), STRONG) == Reroll(group="skulls")


def test_strong_plays_the_best_choice_of_the_solved_game_in_every_decision() -> None:
    checked = 0
    for seed in range(6):
        dice = SeededDice(seed)
        state = ENGINE.start(table(players=("P1", "P2")).options, ("P1", "P2"), dice).state
        while ENGINE.winners(state) is None:
            actor = ENGINE.prompts(state)[0].player
            action = ENGINE.computer_action(state, actor, SeededDice(0), STRONG)
            if (position := solved_position(state)) is not None:
                values = choice_values(3, Table(), position.claims, position.rival_claims, position.key)
                taken = action.group if isinstance(action, Reroll) else END
                assert values[taken] >= max(values.values()) - 1e-12
                checked += 1
            state = ENGINE.apply(state, actor, action, dice).state
    assert checked > 20


def test_positions_the_solved_game_does_not_cover_are_left_to_the_search() -> None:
    state = table(players=("P1", "P2", "P3"))
    assert solved_position(state) is None
    duel_with_fate = table(players=("P1", "P2"), fate=True)
    assert solved_position(duel_with_fate) is None


def test_every_open_position_has_a_choice() -> None:
    for _, tab in every_table():
        for key in open_positions(tab):
            assert choices(key, tab)
            assert sum(key) <= 7
