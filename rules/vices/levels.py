"""Computer players at three strengths (``rules.engine.STRENGTHS``).

``normal`` is :mod:`rules.vices.strategy`. ``easy`` plays like a beginner: on every roll it removes only the one
die (or pair) that scores least now, never waiting for a better face or landing on 70 on purpose; its claims and
effects are ``normal``'s, so it is never absurd. ``strong`` compares candidates by their chance to *win the game*
(not by points), by rollouts over this engine with ``normal`` as every seat's policy (:mod:`rules.search`). For a
removal the candidates are ``normal``'s choice, the same defender more and less patient, the single lowest unit,
and every die at once (ending the turn): the choices where points and the chance to win part ways.

Rollouts stop at the end of the decision's turn: from there the rest of the game is played on turn scores alone,
drawn from what Normal computers score and averaged over a few draws (:func:`rest_of_game`), which is a hundred
times cheaper than playing it, and far less noisy than one 0-or-1 draw.

Exact: a removal that ends the game (the last die of the last turn) is judged with no dice left to roll, so its
rollouts agree and its chance (0 or 1) is exact; the defender's very last removal with one unit left is forced.
"""

from __future__ import annotations

import random

from rules.engine import EASY, STRONG
from rules.search import Playable, Rollouts, best
from rules.vices.actions import Remove, VicesAction
from rules.vices.data import EXACT_TARGET
from rules.vices.legality import decision, legal_actions
from rules.vices.pool import GROUP_JOIN, lowest_unit, removable_units
from rules.vices.state import VicesState
from rules.vices.strategy import choose_action, choose_removal

STRONG_WORK = 1_350
"""Actions applied in one Strong decision's rollouts: about 250 ms on one core of the benchmark machine."""
TURN_MEAN, TURN_STEP = 14.5, 2.5
"""Mean points of a Normal computer's turn with 2 players, and how much each further player adds (attackers)."""
TURN_SD, SD_STEP = 7.6, 1.0
"""Their standard deviation, likewise (measured over 60 games each with 2 and 3 Normal computers)."""
REST_SAMPLES = 24
"""Draws of the rest of the game averaged at the end of each rollout."""
ROUNDS_AT_MOST = 40
"""Rounds of turn scores drawn at most (a game reaches 70 in a handful)."""
PATIENCE = (1.0, 4.0)
"""Other patiences a Strong defender weighs against Normal's (``strategy.ROLL_SHARE``)."""
MAX_CANDIDATES = 6
"""Candidates compared at most (Envy may offer a dozen swaps)."""
CONFIDENCE = 1.0
"""Standard errors a candidate must gain to replace Normal's choice: Normal's removals leave points on the table
more often than its Crowns rerolls do, so departing pays with less evidence here (``rules.search.Rollouts``):
on the bench's 120 two-player games, 1.0 won 0.600 and 1.5 won 0.508, where Normal in that seat wins 0.525."""


def choose(state: VicesState, player: str, strength: str, engine: Playable) -> VicesAction:
    """The computer's action at ``strength`` (``normal`` for any name it does not know)."""
    if strength == EASY:
        return easy_action(state, player)
    if strength == STRONG:
        return strong_action(state, player, engine)
    return choose_action(state, player)


def easy_action(state: VicesState, player: str) -> VicesAction:
    """A beginner's action: the lowest die now on every roll; anything else as Normal."""
    waiting = decision(state)
    if waiting is not None and waiting.name == "remove":
        return Remove(units=(lowest_unit(removable_units(state)).id,))
    return choose_action(state, player)


def _removals(state: VicesState) -> list[VicesAction]:
    """Normal's removal, other patiences, the single lowest unit, and every die at once."""
    units = removable_units(state)
    singles = [u for u in units if GROUP_JOIN not in u.id]
    found: list[VicesAction] = [choose_removal(state)]
    found += [choose_removal(state, patience) for patience in PATIENCE]
    found.append(Remove(units=(lowest_unit(units).id,)))
    found.append(Remove(units=tuple(u.id for u in singles)))
    unique: list[VicesAction] = []
    for action in found:
        if action not in unique:
            unique.append(action)
    return unique


def _candidates(state: VicesState, player: str) -> list[VicesAction]:
    waiting = decision(state)
    assert waiting is not None
    if waiting.name == "remove":
        return _removals(state)
    normal = choose_action(state, player)
    legal = legal_actions(state, player)
    return [normal, *(a for a in legal if a != normal)][:MAX_CANDIDATES]


def _acting(state: VicesState) -> str:
    """Who acts next in a rollout: the one asked (the first, when several tied players pick a pair)."""
    waiting = decision(state)
    assert waiting is not None
    return waiting.players[0]


def _turn_over(root: VicesState, state: VicesState) -> bool:
    """The rollout has reached another turn than the decision's (or the decision was outside any turn)."""
    before = root.turn.defender if root.turn is not None else None
    return state.phase != "tiebreak" and state.turn is not None and state.turn.defender != before


def turn_score(players: int, rng: random.Random) -> int:
    """A turn's points as Normal computers score them, drawn at random (a normal law fitted to their games)."""
    mean, sd = TURN_MEAN + TURN_STEP * (players - 2), TURN_SD + SD_STEP * (players - 2)
    return max(0, round(rng.gauss(mean, sd)))


def rest_of_game(state: VicesState, player: str, seed: int) -> float:
    """``player``'s share of the wins in REST_SAMPLES draws of :func:`rest_once` (a smooth value: a rollout
    cut short costs far less noise than one 0-or-1 draw, for little time)."""
    rng = random.Random(seed)
    return sum(rest_once(state, player, rng) for _ in range(REST_SAMPLES)) / REST_SAMPLES


def rest_once(state: VicesState, player: str, rng: random.Random) -> float:
    """Whether ``player`` wins (1, 0, or a share of a tie) the rest of the game played on turn scores alone:
    from the turn starting now, round after round, until a round in which someone reaches 70 ends (RULES.md E1:
    exactly 70 wins, else the lowest total)."""
    present = state.present()
    totals = {p: state.seat(p).total for p in present}
    ids = [p.id for p in state.players]
    start = ids.index(state.first_seat)
    order = [p for p in ids[start:] + ids[:start] if p in totals]
    now = state.turn.defender if state.turn is not None else order[0]
    todo = order[order.index(now) :] if now in order else order
    if state.turn is not None and now in totals:
        totals[now] += state.turn.score
    for _ in range(ROUNDS_AT_MOST):
        for p in todo:
            totals[p] += turn_score(len(present), rng)
        if max(totals.values()) >= EXACT_TARGET:
            break
        todo = order
    exact = [p for p, t in totals.items() if t == EXACT_TARGET]
    low = min(totals.values())
    best = exact or [p for p, t in totals.items() if t == low]
    return 1 / len(best) if player in best else 0.0


def strong_action(state: VicesState, player: str, engine: Playable) -> VicesAction:
    """The candidate with the best estimated chance to win, by rollouts with Normal play for every seat to the end
    of this turn, and turn scores drawn at random from there (:func:`rest_of_game`)."""
    rules: Rollouts[VicesState, VicesAction] = Rollouts(
        engine=engine,
        actor=_acting,
        policy=choose_action,
        work=STRONG_WORK,
        horizon=_turn_over,
        value=rest_of_game,
        confidence=CONFIDENCE,
    )
    return best(rules, state, player, _candidates(state, player))
