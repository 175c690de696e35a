"""Independent yardstick players, written from the engines' public API only (``legal_actions``, ``apply``,
``prompts``, ``winners``, ``removable_units``) and the state a seat sees, sharing no code with the computer
players in ``rules/``: a measure of the Strong player that its own Normal policy cannot flatter.

Dice of Crowns: flat Monte Carlo. Each candidate action (one per rival for a scroll or an overkill dagger) is
played out to the end of the game a few times with every seat choosing uniformly among its legal actions, and the
candidate that won most often is taken.

Vices & Vengeance: a threshold defender. It removes every die or pair scoring at most a bar that falls as the pool
shrinks (with few dice left there are few rolls left to wait for), at least the lowest one, and every die at once
when that lands it on exactly 70. Effects take a Sin from the rival with the lowest total; other choices are the
first legal one.
"""

from __future__ import annotations

import random
import zlib
from collections.abc import Callable

from pydantic import BaseModel

from rules.crowns.engine import ENGINE as CROWNS
from rules.crowns.state import CrownsState
from rules.dice import SeededDice
from rules.vices.actions import Remove, VicesAction
from rules.vices.engine import ENGINE as VICES
from rules.vices.state import VicesState

PLAYOUTS = 8
"""Random playouts per candidate."""
CANDIDATES = 8
"""Candidates compared at most."""
TARGET = 70
"""Vices & Vengeance: a total of exactly 70 beats every other."""


def _candidates(legal: list[BaseModel]) -> list[BaseModel]:
    """One action per distinct target for per-die choices (the die handed matters little), at most CANDIDATES."""
    seen: set[str] = set()
    chosen = []
    for action in legal:
        data = action.model_dump()
        key = f"{data.get('type')}:{data.get('rival', data.get('to', data.get('group', data.get('die'))))}"
        if key not in seen:
            seen.add(key)
            chosen.append(action)
    return chosen[:CANDIDATES]


def _random_playout(state: CrownsState, player: str, rng: random.Random, dice: SeededDice) -> bool:
    while CROWNS.winners(state) is None:
        actor = CROWNS.prompts(state)[0].player
        state = CROWNS.apply(state, actor, rng.choice(CROWNS.legal_actions(state, actor)), dice).state
    return CROWNS.winners(state) == [player]


def crowns_yardstick() -> Callable[[CrownsState, str], BaseModel]:
    """A flat Monte Carlo player for Dice of Crowns (deterministic given the position)."""

    def choose(state: CrownsState, player: str) -> BaseModel:
        legal = CROWNS.legal_actions(state, player)
        candidates = _candidates(legal)
        if len(candidates) == 1:
            return candidates[0]
        seed = zlib.crc32(state.model_dump_json().encode())
        wins = []
        for action in candidates:
            won = 0
            for i in range(PLAYOUTS):
                dice, rng = SeededDice(seed + i), random.Random(seed + i)
                won += _random_playout(CROWNS.apply(state, player, action, dice).state, player, rng, dice)
            wins.append(won)
        return candidates[wins.index(max(wins))]

    return choose


def vices_yardstick(state: VicesState, player: str) -> VicesAction:
    """A threshold defender that lands on 70 when it can; effects against the lowest rival."""
    legal = VICES.legal_actions(state, player)
    prompt = next(p for p in VICES.prompts(state) if p.player == player)
    if prompt.decision == "remove":
        return _removal(state, player)
    rivals = [p for p in state.present() if p != player]
    lowest = min(rivals, key=lambda p: state.seat(p).total) if rivals else None
    for action in legal:
        sin = getattr(action, "sin", None) or getattr(action, "take", None)
        if sin is not None and state.sins.get(sin) == lowest:
            return action
    return legal[0]


def _removal(state: VicesState, player: str) -> Remove:
    turn = state.turn
    assert turn is not None
    units = VICES.removable_units(state)
    singles = [u for u in units if "+" not in u.id]  # a Nemesis zero group joins die ids with "+"
    everything = sum(u.points for u in singles)
    if (
        sum(len(u.dice) for u in singles) == len(turn.pool)
        and state.seat(player).total + turn.score + everything == TARGET
    ):
        return Remove(units=tuple(u.id for u in singles))
    bar = 1 if len(turn.pool) > 4 else 3
    take = [u.id for u in singles if u.points <= bar]
    if not take and not turn.penalty_met:
        take = [min(units, key=lambda u: u.points).id]
    return Remove(units=tuple(take))
