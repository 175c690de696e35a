"""The rest of a Vices & Vengeance game on turn scores alone: how Strong (:mod:`rules.vices.levels`) values a
rollout stopped at the end of its turn.

The model: every turn scores what a Normal computer's turn scores from the player's total
(:mod:`rules.vices.turn_law`: measured, for its chances of landing on exactly 70), round after round from the
turn starting now, until a round in which someone reaches 70 ends (RULES.md E1: exactly 70 wins, else the lowest
total). With two players the model is solved exactly, once (:func:`duel_values`: a few thousand positions); with
more it is drawn a few dozen times (:func:`drawn_share`).
"""

from __future__ import annotations

import bisect
import random
from functools import cache
from itertools import pairwise

from rules.vices.data import EXACT_TARGET
from rules.vices.state import VicesState
from rules.vices.turn_law import cumulative

REST_SAMPLES = 24
"""Draws of the rest of the game averaged, where it is drawn (three players or more)."""
ROUNDS_AT_MOST = 40
"""Rounds of turn scores drawn at most (a game reaches 70 in a handful)."""


@cache
def laws(players: int) -> tuple[tuple[float, ...], ...]:
    """The cumulative law of a turn's points (:func:`rules.vices.turn_law.cumulative`) from each total 0 to 70,
    the last for 70 and beyond."""
    return tuple(cumulative(players, total) for total in range(EXACT_TARGET + 1))


def rest_of_game(state: VicesState, player: str, seed: int) -> float:
    """``player``'s chance to win from ``state`` (a turn starting, or under way: its points so far count, and a
    whole turn's points are drawn on top, as for a turn starting) in the model above: exact with two players,
    else the share of REST_SAMPLES draws seeded by ``seed``."""
    present = state.present()
    totals = {p: state.seat(p).total for p in present}
    ids = [p.id for p in state.players]
    first = ids.index(state.first_seat)
    order = [p for p in ids[first:] + ids[:first] if p in totals]
    now = state.turn.defender if state.turn is not None and state.turn.defender in totals else order[0]
    if state.turn is not None and state.turn.defender in totals:
        totals[now] += state.turn.score
    if len(order) == 2:
        first_share = duel_share(totals[order[0]], totals[order[1]], first_to_move=now == order[0])
        if first_share is not None:
            return first_share if player == order[0] else 1 - first_share
    return drawn_share([totals[p] for p in order], order.index(now), order.index(player), seed)


def drawn_share(totals: list[int], now: int, player: int, seed: int) -> float:
    """Player ``player``'s share of the wins in REST_SAMPLES draws of the rest of the game, the players seated in
    the order of ``totals``, player ``now`` about to play (a smooth value: a rollout cut short costs far less noise
    than one 0-or-1 draw, for little time)."""
    rng = random.Random(seed)
    law = laws(len(totals))
    won = 0.0
    for _ in range(REST_SAMPLES):
        ended, turns = list(totals), range(now, len(totals))
        for _ in range(ROUNDS_AT_MOST):
            for p in turns:
                # One uniform draw and a binary search: twice as fast as drawing from the normal law and rounding.
                ended[p] += bisect.bisect_right(law[min(ended[p], EXACT_TARGET)], rng.random())
            if max(ended) >= EXACT_TARGET:
                break
            turns = range(len(totals))
        exact = [p for p, t in enumerate(ended) if t == EXACT_TARGET]
        best = exact or [p for p, t in enumerate(ended) if t == min(ended)]
        won += 1 / len(best) if player in best else 0.0
    return won / REST_SAMPLES


def duel_share(first: int, second: int, *, first_to_move: bool) -> float | None:
    """The chance that the first player of a round wins a two-player game in the model, the first having
    ``first`` points and the second ``second``, at the start of a round or (not ``first_to_move``) after the
    first player's turn; None outside the solved positions (a total of 70 or more at the start of a round, or
    far beyond it)."""
    rounds, seconds = duel_values()
    if first_to_move:
        return rounds[first][second] if first < EXACT_TARGET and second < EXACT_TARGET else None
    return seconds[first][second] if first < len(seconds) and second < EXACT_TARGET else None


def _final(first: int, second: int) -> float:
    """The first player's share at the end of a two-player game: exactly 70 wins (shared if both), else the lower
    total (shared if equal)."""
    hit_first, hit_second = first == EXACT_TARGET, second == EXACT_TARGET
    if hit_first or hit_second:
        return 0.5 if hit_first and hit_second else float(hit_first)
    return 0.5 if first == second else float(first < second)


@cache
def duel_values() -> tuple[tuple[tuple[float, ...], ...], tuple[tuple[float, ...], ...]]:
    """The two-player model solved: ``(rounds, seconds)``, where ``rounds[a][b]`` is the first player's chance to
    win at the start of a round with totals ``a`` and ``b`` (both under 70), and ``seconds[x][b]`` the same once
    the first player has ``x`` (any total a turn can reach) and the second is to play.

    A round needs only positions with no fewer points, so the positions are solved from the highest totals down;
    the one loop (both turns scoring 0) is solved in closed form. About a million multiplications, once."""
    target = EXACT_TARGET
    law = [[b - a for a, b in pairwise((0.0, *cumulative_law))] for cumulative_law in laws(2)]
    reach = max(len(points) for points in law)
    rounds = [[0.0] * target for _ in range(target)]
    seconds = [[0.0] * target for _ in range(target + reach)]
    for x in range(target, target + reach):  # the first player has reached 70: the second's turn ends the game
        for b in range(target):
            seconds[x][b] = sum(p * _final(x, b + s) for s, p in enumerate(law[b]))
    for a in reversed(range(target)):
        for b in reversed(range(target)):
            # The second's turn after the first's, but for both scoring nothing (the loop).
            second_scores = sum(
                p * (rounds[a][b + s] if b + s < target else _final(a, b + s)) for s, p in enumerate(law[b]) if s
            )
            first_scores = sum(p * seconds[a + s][b] for s, p in enumerate(law[a]) if s)
            rounds[a][b] = (law[a][0] * second_scores + first_scores) / (1 - law[a][0] * law[b][0])
            seconds[a][b] = law[b][0] * rounds[a][b] + second_scores
    return tuple(map(tuple, rounds)), tuple(map(tuple, seconds))
