"""Computer players at three strengths (``rules.engine.STRENGTHS``).

``normal`` is :mod:`rules.vices.strategy`. ``easy`` plays like a beginner: on every roll it removes only the one
die (or pair) that scores least now, never waiting for a better face or landing on 70 on purpose; its claims and
effects are ``normal``'s, so it is never absurd. ``strong`` compares candidates by their chance to *win the game*
(not by points), by rollouts over this engine with ``normal`` as every seat's policy (:mod:`rules.search`). For a
removal the candidates are ``normal``'s choice, the same defender more and less patient, the single lowest unit,
and every die at once (ending the turn): the choices where points and the chance to win part ways.

Rollouts stop at the end of the decision's turn: from there the rest of the game is played on turn scores alone,
as Normal computers score them (:mod:`rules.vices.rest`: solved exactly with two players, drawn a few dozen times
with more), which is a hundred times cheaper than playing it, and far less noisy than one 0-or-1 draw.

Exact: a removal that ends the game (the last die of the last turn) is judged with no dice left to roll, so its
rollouts agree and its chance (0 or 1) is exact; the defender's very last removal with one unit left is forced.
"""

from __future__ import annotations

from rules.engine import EASY, STRONG
from rules.search import Playable, Rollouts, best
from rules.vices.actions import Remove, VicesAction
from rules.vices.legality import decision, legal_actions
from rules.vices.pool import GROUP_JOIN, lowest_unit, removable_units
from rules.vices.rest import rest_of_game
from rules.vices.state import VicesState
from rules.vices.strategy import choose_action, choose_removal

STRONG_WORK = 1_350
"""Actions applied in one Strong decision's rollouts (each end of a rollout counted as REST_COST): a p99 of about
350 ms on one core of the benchmark machine, with two players or three."""
REST_COST = 3
"""What drawing the rest of the game costs, in applied actions (``rules.search.Rollouts.value_cost``): about 1 ms
early in a game, where an action takes 0.4 ms. With two players it is looked up, at no cost."""
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


def strong_action(state: VicesState, player: str, engine: Playable) -> VicesAction:
    """The candidate with the best estimated chance to win, by rollouts with Normal play for every seat to the end
    of this turn, and the rest of the game in a model of turn scores from there (:func:`rest_of_game`)."""
    rules: Rollouts[VicesState, VicesAction] = Rollouts(
        engine=engine,
        actor=_acting,
        policy=choose_action,
        work=STRONG_WORK,
        value_cost=REST_COST if len(state.present()) > 2 else 0,
        horizon=_turn_over,
        value=rest_of_game,
        confidence=CONFIDENCE,
    )
    return best(rules, state, player, _candidates(state, player))
