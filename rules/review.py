"""A finished (or running) game reviewed: each decision's cost in win chance, and each player's luck from the dice.

Pure and game-generic: it needs an engine with :class:`Turns`, :class:`ComputerPlayers` and :class:`Seats`, and
refuses one with :class:`HiddenInformation` (a review would show every seat's secrets). Everything is estimated by
Monte Carlo rollouts over the engine: from a position, every seat plays the game's own computer player (the
``Normal`` one) to the end, and a player's share of the wins (1 for a win, 1/k for one of k winners, 0 for a loss)
is averaged. The rollouts' dice come from seeds derived from the position's place in the log, so the same game
always gets the same review, and rollout ``i`` of every candidate of a decision uses the same seed (common random
numbers: the candidates are compared on the same dice, and their difference has a much smaller error than either).
The budget counts actions applied, not wall time, so a review costs the same on any machine.

A decision's ``cost`` is what the best candidate's win chance is above the chosen action's; a difference within
twice its standard error counts as none (otherwise the best of several noisy estimates would always look better,
and every player would seem to lose a little on every move). Skill is minus the sum of one's costs. Luck is what
the dice did: how a player's win chance moved from the first position to the result (1, 1/k or 0; the current
estimate in a running game) minus what the decisions moved it (each decision's effect on that player's chance, the
chosen action against the best one, on the same dice). Between decisions only dice move the chance, so this is the
sum over the rolls of "the chance after the dice fell minus the chance expected before", with a smaller error.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from rules.dice import DiceSource, SeededDice
from rules.engine import ComputerPlayers, Engine, HiddenInformation, IllegalAction, Seats, Turns
from rules.said import said

CANDIDATES = 6
"""Actions compared at one decision at most: the chosen one, the computer's, and the first others legal."""
MAX_ROLLOUT = 3_000
"""Actions a rollout may take before it is stopped and counted as shared among the players still in."""
MIN_ROLLOUTS = 2
MAX_ROLLOUTS = 2_000
SIGNIFICANT = 2.0
"""A cost counts once it is this many standard errors above zero."""
MIN_RATED = 6
"""Paired rollouts a decision needs before it can be found costly: a handful of win-or-lose outcomes that happen to
agree has a standard error of zero, and proves little (the error is taken as at least 1/n, too)."""


class NotReviewable(Exception):
    """The game cannot be reviewed; ``reason`` says why, for a player."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True, slots=True)
class Position:
    """One logged decision: the state before it, and who took which action."""

    seq: int
    actor: str
    state: BaseModel
    action: BaseModel


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision rated: the actor's win chance before it (with the best candidate, ``best``) and after the chosen
    action; ``cost`` = before − after (≥ 0) with its standard error ``se``, over ``rollouts`` paired rollouts."""

    seq: int
    actor: str
    action: BaseModel
    choices: int
    before: float
    after: float
    best: BaseModel
    cost: float
    se: float
    rollouts: int
    best_events: list[dict[str, Any]] | None = None
    """What the best move would have done, as the engine's events, when it was better and rolls no dice (so it
    can be told in the game's words without inventing dice)."""


@dataclass
class Review:
    """A game reviewed: every decision, every player's win-chance curve (one point per position, the last the
    result or the current estimate), skill and luck, and what it cost."""

    players: list[str]
    decisions: list[Decision] = field(default_factory=list)
    curve: dict[str, list[float]] = field(default_factory=dict)
    luck: dict[str, float] = field(default_factory=dict)
    luck_se: dict[str, float] = field(default_factory=dict)
    finished: bool = False
    actions: int = 0
    """Actions applied by the rollouts."""

    def skill(self, player: str) -> float:
        """Minus the win chance ``player``'s decisions gave away."""
        return -sum(d.cost for d in self.decisions if d.actor == player)

    def skill_se(self, player: str) -> float:
        """The standard error of :meth:`skill` (the decisions' estimates are independent)."""
        return math.sqrt(sum(d.se**2 for d in self.decisions if d.actor == player and d.cost > 0))


def check_reviewable(engine: Engine[Any, Any, Any]) -> None:
    """Raise NotReviewable if ``engine`` lacks what a review needs, or hides information."""
    if isinstance(engine, HiddenInformation):
        raise NotReviewable(said("{game} has secrets: a review would show them, so it has none.", game=engine.title))
    if not (isinstance(engine, Turns) and isinstance(engine, ComputerPlayers) and isinstance(engine, Seats)):
        raise NotReviewable(
            said("{game} has no computer player to rate moves with, so it has no review.", game=engine.title)
        )


class _Rollouts:
    """Rollouts over one engine, counting the actions they apply."""

    def __init__(self, engine: Any, players: Sequence[str]) -> None:
        self.engine = engine
        self.players = list(players)
        self.actions = 0
        self.plays = 0

    def fitting(self, budget: int) -> int:
        """How many candidates ``budget`` actions can roll out the fewest times, at the rollouts' length so far."""
        if not self.plays:
            return CANDIDATES
        return int(budget * self.plays / (max(1, self.actions) * MIN_ROLLOUTS))

    def result(self, state: BaseModel) -> dict[str, float] | None:
        """Each player's share of the win once the game is over; None while it goes on."""
        winners = self.engine.winners(state)
        if winners is None:
            return None
        return {p: (1 / len(winners) if p in winners else 0.0) for p in self.players}

    def play(self, state: BaseModel, dice: DiceSource) -> dict[str, float]:
        """Play ``state`` to its end with the computer in every seat; each player's share of the win."""
        self.plays += 1
        for _ in range(MAX_ROLLOUT):
            result = self.result(state)
            if result is not None:
                return result
            prompts = self.engine.prompts(state)
            if not prompts:
                break
            player = prompts[0].player
            state = self.engine.apply(state, player, self.engine.computer_action(state, player, dice), dice).state
            self.actions += 1
        return self._shared(state)

    def _shared(self, state: BaseModel) -> dict[str, float]:
        """A game stopped unfinished: shared evenly among the seats still asked to play (all, if none is)."""
        left = {p.player for p in self.engine.prompts(state)} or set(self.players)
        return {p: (1 / len(left) if p in left else 0.0) for p in self.players}

    def after(self, state: BaseModel, actor: str, action: BaseModel, seed: int) -> dict[str, float]:
        """Each player's share of the win in one rollout after ``actor`` takes ``action``."""
        dice = KeyedDice(seed)
        state = self.engine.apply(state, actor, action, dice).state
        self.actions += 1
        return self.play(state, dice)


class KeyedDice:
    """Rollout dice: the n-th roll of each named die comes from the seed, the die and n alone. Two candidates rolled
    out on one seed then see the same faces on the same dice even when their games take different paths (a reroll
    more in one of them), which keeps their comparison tight; dice drawn in one sequence would drift apart."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.rolled: dict[str, int] = {}

    def roll(self, die_id: str, sides: int) -> int:
        """A value in 1..sides."""
        count = self.rolled.get(die_id, 0)
        self.rolled[die_id] = count + 1
        digest = hashlib.blake2b(f"{self.seed}:{die_id}:{count}".encode(), digest_size=8).digest()
        return int.from_bytes(digest, "big") % sides + 1


def seed_of(seq: int, index: int) -> int:
    """The seed of rollout ``index`` at the position of log entry ``seq``: the same review every time."""
    return int.from_bytes(hashlib.blake2b(f"{seq}:{index}".encode(), digest_size=8).digest(), "big")


def candidates(engine: Any, state: BaseModel, actor: str, chosen: BaseModel) -> list[BaseModel]:
    """The chosen action, the computer's choice and the first other legal actions, each once, at most CANDIDATES."""
    normal = engine.computer_action(state, actor, SeededDice(0))
    found: list[BaseModel] = []
    keys: set[str] = set()
    for action in [chosen, normal, *engine.legal_actions(state, actor)]:
        key = json.dumps(action.model_dump(mode="json"), sort_keys=True)
        if key not in keys and len(found) < CANDIDATES:
            keys.add(key)
            found.append(action)
    return found


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values)


def _se(values: Sequence[float]) -> float:
    n = len(values)
    if n < 2:
        return 0.0
    mean = _mean(values)
    return math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1) / n)


@dataclass
class _Estimates:
    """Per candidate, per rollout, each player's share of the win."""

    actions: list[BaseModel]
    runs: list[list[Mapping[str, float]]]

    def chance(self, index: int, player: str) -> tuple[float, float]:
        """``player``'s win chance after candidate ``index``, with its standard error."""
        values = [r[player] for r in self.runs[index]]
        return _mean(values), _se(values)

    def paired(self, index: int, base: int, player: str) -> tuple[float, float]:
        """How much better candidate ``index`` is for ``player`` than candidate ``base``, with its standard error."""
        differences = [r[player] - b[player] for r, b in zip(self.runs[index], self.runs[base], strict=True)]
        return _mean(differences), _se(differences)


def estimate(rollouts: _Rollouts, position: Position, actions: list[BaseModel], budget: int) -> _Estimates:
    """Roll out every candidate the same number of times on the same seeds, until ``budget`` actions are spent."""
    runs: list[list[Mapping[str, float]]] = [[] for _ in actions]
    start = rollouts.actions
    index = 0
    while index < MAX_ROLLOUTS and (index < MIN_ROLLOUTS or rollouts.actions - start < budget):
        seed = seed_of(position.seq, index)
        for slot, action in reversed(list(enumerate(actions))):
            try:
                runs[slot].append(rollouts.after(position.state, position.actor, action, seed))
            except IllegalAction:  # listed as legal, refused all the same: not a candidate (never the chosen one)
                if slot == 0:
                    raise
                del actions[slot], runs[slot]
        index += 1
    return _Estimates(actions, runs)


def rate(position: Position, found: _Estimates) -> Decision:
    """The decision at ``position`` rated from its candidates' rollouts."""
    actor = position.actor
    chosen = [r[actor] for r in found.runs[0]]
    best, best_gain, best_se = 0, 0.0, 0.0
    for slot in range(1, len(found.actions) if len(chosen) >= MIN_RATED else 1):
        gain, se = found.paired(slot, 0, actor)
        se = max(se, 1 / len(chosen))
        if gain > best_gain and gain > SIGNIFICANT * se:
            best, best_gain, best_se = slot, gain, se
    after = _mean(chosen)
    return Decision(
        seq=position.seq,
        actor=actor,
        action=position.action,
        choices=len(found.actions),
        before=after + best_gain,
        after=after,
        best=found.actions[best],
        cost=best_gain,
        se=best_se,
        rollouts=len(chosen),
    )


def review(engine: Any, players: Sequence[str], positions: Sequence[Position], final: BaseModel, budget: int) -> Review:
    """Review the game whose decisions are ``positions`` and whose state is now ``final``, spending about
    ``budget`` rollout actions in all (spread evenly over the decisions)."""
    check_reviewable(engine)
    rollouts = _Rollouts(engine, players)
    result = Review(players=list(players), curve={p: [] for p in players})
    # What is left of the budget is shared by candidate: a forced move (one candidate) gets a sixth of what a
    # six-way choice gets. The first position is where every player's luck is measured from: a tenth of it all.
    listed = [candidates(engine, p.state, p.actor, p.action) for p in positions]
    units = sum(len(actions) for actions in listed) + 1
    worth: list[dict[str, tuple[float, float]]] = []
    chosen_effect: dict[str, list[tuple[float, float]]] = {p: [] for p in players}
    for index, (position, actions) in enumerate(zip(positions, listed, strict=True)):
        spend = int(max(0, budget - rollouts.actions) * len(actions) / units)
        units -= len(actions)
        spend = max(spend, budget // 10 if index == 0 else 0)
        found = estimate(rollouts, position, actions[: max(2, rollouts.fitting(spend))], spend)
        decision = _told(engine, position, rate(position, found))
        result.decisions.append(decision)
        best = next(i for i, a in enumerate(found.actions) if a is decision.best)
        worth.append({p: found.chance(best, p) for p in players})
        for p in players:
            chosen_effect[p].append(found.paired(0, best, p))
    worth.append(_final(rollouts, final, max(0, budget - rollouts.actions)))
    result.finished = rollouts.result(final) is not None
    for p in players:
        result.curve[p] = [w[p][0] for w in worth]
        # Luck is how p's chance moved over the game minus what the decisions moved it: each decision's effect is a
        # paired difference (small error), so this has far less error than adding up V(after) - E(before) at
        # every roll, and the same expectation (between decisions only dice move the chance).
        (start, start_se), (end, end_se) = worth[0][p], worth[-1][p]
        effects = chosen_effect[p]
        result.luck[p] = end - start - sum(gain for gain, _ in effects)
        result.luck_se[p] = math.sqrt(start_se**2 + end_se**2 + sum(se**2 for _, se in effects))
    result.actions = rollouts.actions
    return result


class _NoDice:
    """A dice source for an action that must roll none."""

    def roll(self, die_id: str, sides: int) -> int:
        raise LookupError(die_id)


def _told(engine: Any, position: Position, decision: Decision) -> Decision:
    """``decision`` with the events of its better move, if it has one that rolls no dice."""
    if decision.cost <= 0:
        return decision
    try:
        events = engine.apply(position.state, position.actor, decision.best, _NoDice()).events
    except (LookupError, IllegalAction):
        return decision
    return dataclasses.replace(decision, best_events=events)


def _final(rollouts: _Rollouts, final: BaseModel, budget: int) -> dict[str, tuple[float, float]]:
    """What the last position is worth to each player: the result of a finished game (exact), else an estimate."""
    end = rollouts.result(final)
    if end is not None:
        return {p: (share, 0.0) for p, share in end.items()}
    runs: list[dict[str, float]] = []
    start = rollouts.actions
    while len(runs) < MIN_ROLLOUTS or (rollouts.actions - start < budget and len(runs) < MAX_ROLLOUTS):
        runs.append(rollouts.play(final, KeyedDice(seed_of(-1, len(runs)))))
    return {p: (_mean([r[p] for r in runs]), _se([r[p] for r in runs])) for p in rollouts.players}
