"""Complete games played by seeded reference players (random, greedy) or computer players: for the
benchmarks, the property tests and strategy trials."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from rules.vices.actions import Remove, VicesAction
from rules.vices.engine import ENGINE
from rules.vices.legality import decision
from rules.vices.options import VicesOptions
from rules.vices.pool import GROUP_JOIN, lowest_unit, removable_units
from rules.vices.state import VicesState

Chooser = Callable[[VicesState, str], VicesAction]
"""Picks an action for a player who must decide."""

MAX_ACTIONS = 20_000
"""A game longer than this is treated as a bug (every turn ends: the pool shrinks on every roll but one)."""


def random_options(rng: random.Random) -> VicesOptions:
    """Any table the host could set up: house rules at random."""
    return VicesOptions(
        seat_order=rng.choice(["d20", "join_order", "manual"]),
        sin_assignment=rng.choice(["mirror_roll", "choose", "random"]),
        gluttony_added_die=rng.choice(["taken_large", "taken_small"]),
        envy_optional=rng.random() < 0.3,
        sloth_removes=rng.choice(["sloth_die", "matcher_own_die"]),
        nemesis_zero_rule=rng.choice(["defender_pairs", "matched_die", "both"]),
        silver_bullet_wild_face=rng.choice([1, 1, 2, 3, 4, 5, 6, None]),
        end_mode=rng.choice(["finish_round", "one_more_each"]),
        min_players=2,
        max_players=7,
    )


def random_removal(state: VicesState, rng: random.Random) -> Remove:
    """A random non-empty legal set of units (each unit in with probability ½, overlaps skipped)."""
    units = removable_units(state)
    order = list(units)
    rng.shuffle(order)
    chosen: list[str] = []
    used: set[str] = set()
    for unit in order:
        if rng.random() < 0.5 and not used.intersection(unit.dice):
            chosen.append(unit.id)
            used.update(unit.dice)
    if not chosen:
        chosen = [rng.choice([u for u in units if GROUP_JOIN not in u.id]).id]
    return Remove(units=tuple(chosen))


def random_player(seed: int) -> Chooser:
    """Removes a random non-empty set; any other choice uniformly among the legal actions."""
    rng = random.Random(seed)

    def choose(state: VicesState, player: str) -> VicesAction:
        waiting = decision(state)
        if waiting is not None and waiting.name == "remove":
            return random_removal(state, rng)
        return rng.choice(ENGINE.legal_actions(state, player))

    return choose


def uniform_player(seed: int) -> Chooser:
    """Picks uniformly among ``legal_actions`` (for a removal: mostly one unit, see its docstring)."""
    rng = random.Random(seed)
    return lambda state, player: rng.choice(ENGINE.legal_actions(state, player))


def greedy_player(state: VicesState, player: str) -> VicesAction:
    """Removes only the single lowest-scoring die or pair on every roll; any other choice is the first legal."""
    waiting = decision(state)
    if waiting is not None and waiting.name == "remove":
        return Remove(units=(lowest_unit(removable_units(state)).id,))
    return ENGINE.legal_actions(state, player)[0]


def computer_player(state: VicesState, player: str) -> VicesAction:
    """The engine's computer player."""
    return ENGINE.computer_action(state, player, _NO_DICE)


class _NoDice:
    def roll(self, die_id: str, sides: int) -> int:
        raise AssertionError("the computer player does not roll")


_NO_DICE = _NoDice()


@dataclass
class PlayedGame:
    """The end of a played game."""

    state: VicesState
    actions: int


def play(options: VicesOptions, players: Sequence[str], dice: Any, choosers: dict[str, Chooser]) -> PlayedGame:
    """Play a game to its end; of several prompted players (a tie-break), the first acts first."""
    state = ENGINE.start(options, players, dice).state
    actions = 0
    while ENGINE.winners(state) is None:
        player = ENGINE.prompts(state)[0].player
        state = ENGINE.apply(state, player, choosers[player](state, player), dice).state
        actions += 1
        if actions > MAX_ACTIONS:
            raise RuntimeError("game did not end")
    return PlayedGame(state=state, actions=actions)
