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
from functools import lru_cache
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
    value_cost: int = 1
    """What one call of ``value`` costs, in applied actions: a value that plays the rest of the game many times
    over costs several, and counting it as one let positions with short rollouts run far over the time."""
    confidence: float = 2.0
    """Standard errors by which a candidate must beat the default to be taken instead: high where the default is
    near the best already (every departure is then mostly noise), lower where it is often beaten."""


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
        """(mean, standard error) of this candidate's result minus ``other``'s, rollout by rollout (the same dice).

        The error is the one the mean would have if the two were equally good (the differences' spread about 0,
        not about their mean): a few rollouts that all happen to favour one candidate (two wins out of two) show
        a spread of 0 about their mean, which made any such lucky streak look certain."""
        diffs = [a - b for a, b in zip(self.results, other.results, strict=True)]
        n = len(diffs)
        return sum(diffs) / n, math.sqrt(sum(d * d for d in diffs)) / n


MIN_ROLLOUTS = 16
"""Fewer rollouts per candidate than this (a long game left, a small budget) prove nothing: keep the default."""


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
            spent += depth + 1 + rules.value_cost  # the candidate's action, the rollout's, the end's value
    return estimates


def best(rules: Rollouts[S, A], state: S, player: str, candidates: Sequence[A]) -> A:
    """The candidate with the best estimated chance to win, if it beats the first one (the default: the game's
    Normal choice) by more than ``rules.confidence`` standard errors of the paired difference, over at least
    MIN_ROLLOUTS rollouts; else the first. Departing from a good default on noise alone loses games: the
    estimates are of a few dozen rollouts."""
    if len(candidates) == 1:
        return candidates[0]
    estimates = estimate(rules, state, player, candidates)
    default = estimates[0]
    top = max(estimates, key=lambda e: e.chance)
    if top is default or len(default.results) < MIN_ROLLOUTS:
        return default.action
    gain, error = top.gain_over(default)
    return top.action if gain > rules.confidence * error and gain > 0 else default.action


@dataclass(frozen=True)
class Racer:
    """A player in a race of turns: ``steps`` successes to go, each turn one at most, with chance ``first`` on
    the next turn and ``rest`` after; then, if ``hold`` is set, one more turn that succeeds with chance ``hold``
    (a crown to keep until one's next turn)."""

    first: float
    rest: float
    steps: int
    hold: float | None = None


RACE_TURNS = 80
"""Turns each racer is followed for (with a chance of success of 0.1 a turn, 0.03 % of races last longer)."""


@lru_cache(maxsize=4096)
def race(racers: tuple[Racer, ...]) -> tuple[float, ...]:
    """Each racer's chance to finish first, the racers taking turns in the order given (the first plays next).

    A cheap model of the rest of a game, as a value for rollouts cut short: exact for the model, and smooth (a
    fraction, not a 0 or 1), so it costs rollouts far less noise than playing the game out."""
    done = [_finish_turns(r) for r in racers]
    # survive[i][t]: racer i has not finished within its first t turns.
    survive = []
    for finish in done:
        left, row = 1.0, [1.0]
        for f in finish:
            left -= f
            row.append(max(left, 0.0))
        survive.append(row)
    wins = [0.0] * len(racers)
    for i, finish in enumerate(done):
        for t, f in enumerate(finish, start=1):
            if f == 0.0:
                continue
            others = 1.0
            for j in range(len(racers)):
                if j != i:
                    others *= survive[j][t if j < i else t - 1]
            wins[i] += f * others
    total = sum(wins)
    return tuple(w / total for w in wins) if total > 0 else (1 / len(racers),) * len(racers)


def _finish_turns(racer: Racer) -> list[float]:
    """The chance that ``racer`` finishes on its turn 1, 2, … RACE_TURNS."""
    stages = racer.steps + (racer.hold is not None)
    at = [1.0] + [0.0] * (stages - 1)  # at[k]: k stages done, not finished
    finish = []
    for turn in range(RACE_TURNS):
        nxt = [0.0] * stages
        ended = 0.0
        for k, p in enumerate(at):
            if p == 0.0:
                continue
            holding = racer.hold is not None and k == racer.steps
            chance = racer.hold if holding and racer.hold is not None else racer.first if turn == 0 else racer.rest
            if k + 1 == stages:
                ended += p * chance
            else:
                nxt[k + 1] += p * chance
            nxt[k] += p * (1 - chance)
        at = nxt
        finish.append(ended)
    return finish
