"""Choosing by the chance to win: Monte Carlo rollouts over a game's own engine.

A ``Strong`` computer player compares a few candidate actions by playing the game out from each of them many
times, every seat (itself included) choosing as the game's ``Normal`` computer would, and takes the candidate
that won most often. What it knows is only what its seat sees: the games using this have no secrets but the
dice to come, and those are sampled.

Deterministic: the rollouts' dice come from a pseudo-random source seeded by the position itself (a hash of the
state and the player), so the same position gets the same answer, and the budget is counted in actions applied,
not in wall time, so a slow machine plays exactly as a fast one. Candidates are compared on common dice: rollout
``i`` of every candidate uses the same seed, so a difference between them is the decision's, not the dice's.
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

from pydantic import BaseModel

from rules.dice import DiceSource, SeededDice

S = TypeVar("S", bound=BaseModel)
A = TypeVar("A", bound=BaseModel)


class Playable(Protocol):
    """The part of an engine a rollout needs."""

    def apply(self, state: Any, actor: str, action: Any, dice: DiceSource) -> Any:
        """The outcome (with ``.state``) of ``action``."""
        ...

    def winners(self, state: Any) -> list[str] | None:
        """None while the game goes on."""
        ...


@dataclass(frozen=True)
class Rollouts(Generic[S, A]):
    """How to play a position out: the engine, who acts next, the policy every seat follows, and the budget."""

    engine: Playable
    actor: Callable[[S], str]
    """The player who acts next in a state that is not over."""
    policy: Callable[[S, str], A]
    """The choice of the player who acts (the game's Normal computer)."""
    work: int
    """Actions applied in all rollouts of one decision, at most (plus one rollout's worth)."""
    horizon: Callable[[S, S], bool] | None = None
    """Where a rollout may stop short of the end, given the decision's state and the rollout's (the end of the
    decider's turn, say): then ``value`` says the chance to win from there."""
    value: Callable[[S, str, int], float] | None = None
    """The chance ``player`` wins from a state at the horizon, estimated cheaply from a seed (the same seed for
    every candidate: common random numbers here too)."""
    max_depth: int = 2_000
    """A rollout that has not ended after this many actions counts as no win (never seen: games end)."""
    max_rollouts: int = 400
    """No more rollouts per candidate than this, however short the game left."""


@dataclass
class Estimate(Generic[A]):
    """One candidate's result in each rollout (the share of the win: 0, 1, or a part of a shared win)."""

    action: A
    results: list[float] = field(default_factory=list)

    @property
    def chance(self) -> float:
        """The estimated chance to win after this action (0 before any rollout)."""
        return sum(self.results) / len(self.results) if self.results else 0.0

    def gain_over(self, other: Estimate[A]) -> tuple[float, float]:
        """(mean, standard error) of this candidate's result minus ``other``'s, rollout by rollout (the same dice)."""
        diffs = [a - b for a, b in zip(self.results, other.results, strict=True)]
        n = len(diffs)
        mean = sum(diffs) / n
        variance = sum((d - mean) ** 2 for d in diffs) / (n - 1) if n > 1 else 0.0
        return mean, math.sqrt(variance / n)


CONFIDENCE = 1.5
"""Standard errors by which a candidate must beat the default to be taken instead (about 93 % one-sided)."""


def position_seed(state: BaseModel, player: str) -> int:
    """A seed that depends on the position only: the same position always gets the same rollouts."""
    return zlib.crc32(f"{player}|{state.model_dump_json()}".encode())


def _play_out(rules: Rollouts[S, A], root: S, state: S, player: str, seed: int) -> tuple[float, int]:
    """(the share of the win ``player`` gets, actions applied) in one game played out from ``state`` (to its end,
    or to the horizon and valued there), ``root`` being the decision's state."""
    engine, dice = rules.engine, SeededDice(seed)
    for depth in range(rules.max_depth):
        winners = engine.winners(state)
        if winners is not None:
            return (1 / len(winners) if player in winners else 0.0), depth
        if rules.value is not None and rules.horizon is not None and rules.horizon(root, state):
            return rules.value(state, player, seed), depth
        actor = rules.actor(state)
        state = engine.apply(state, actor, rules.policy(state, actor), dice).state
    return 0.0, rules.max_depth


def estimate(rules: Rollouts[S, A], state: S, player: str, candidates: Sequence[A]) -> list[Estimate[A]]:
    """Each candidate's chance to win for ``player``, by rollouts on common dice, round by round until the work
    budget is spent (every candidate always gets the same number of rollouts)."""
    seed = position_seed(state, player)
    estimates = [Estimate(action) for action in candidates]
    spent = 0
    for round_ in range(rules.max_rollouts):
        if spent >= rules.work:
            break
        for est in estimates:
            after = rules.engine.apply(state, player, est.action, SeededDice(seed + round_)).state
            won, depth = _play_out(rules, state, after, player, seed + round_ + 1_000_003)
            est.results.append(won)
            spent += depth + 1
    return estimates


def best(rules: Rollouts[S, A], state: S, player: str, candidates: Sequence[A]) -> A:
    """The candidate with the best estimated chance to win, if it beats the first one (the default: the game's
    Normal choice) by more than CONFIDENCE standard errors of the paired difference; else the first. Departing
    from a good default on noise alone loses games: the estimates are of a few dozen rollouts."""
    if len(candidates) == 1:
        return candidates[0]
    estimates = estimate(rules, state, player, candidates)
    default = estimates[0]
    top = max(estimates, key=lambda e: e.chance)
    if top is default:
        return default.action
    gain, error = top.gain_over(default)
    return top.action if gain > CONFIDENCE * error and gain > 0 else default.action
