"""The rest of a Vices & Vengeance game on turn scores alone: how Strong (:mod:`rules.vices.levels`) values a
rollout stopped at the end of its turn.

The model: every turn scores what a Normal computer's turn scores (a normal law fitted to their games, rounded to
whole points, never below 0), round after round from the turn starting now, until a round in which someone
reaches 70 ends (RULES.md E1: exactly 70 wins, else the lowest total). With two players the model is solved
exactly, once (:func:`duel_values`: a few thousand positions); with more it is drawn a few dozen times
(:func:`drawn_share`).
"""

from __future__ import annotations

import bisect
import math
import random
from functools import cache
from itertools import pairwise

from rules.vices.data import EXACT_TARGET
from rules.vices.state import VicesState

TURN_MEAN, TURN_STEP = 14.5, 2.5
"""Mean points of a Normal computer's turn with 2 players, and how much each further player adds (attackers)."""
TURN_SD, SD_STEP = 7.6, 1.0
"""Their standard deviation, likewise (measured over 60 games each with 2 and 3 Normal computers)."""
REST_SAMPLES = 24
"""Draws of the rest of the game averaged, where it is drawn (three players or more)."""
ROUNDS_AT_MOST = 40
"""Rounds of turn scores drawn at most (a game reaches 70 in a handful)."""


@cache
def turn_scores(players: int) -> tuple[float, ...]:
    """The cumulative chances of a Normal computer's turn scoring 0, 1, 2, … points with ``players`` seated: a
    normal law fitted to their games, rounded to whole points and never below 0 (what ``max(0, round(gauss))``
    draws), listed up to where the rest is below 1e-12."""
    mean, sd = TURN_MEAN + TURN_STEP * (players - 2), TURN_SD + SD_STEP * (players - 2)

    def below(x: float) -> float:
        return 0.5 * (1 + math.erf((x - mean) / (sd * math.sqrt(2))))

    cumulative: list[float] = []
    points = 0
    while not cumulative or cumulative[-1] < 1 - 1e-12:
        cumulative.append(below(points + 0.5))
        points += 1
    return (*cumulative[:-1], 1.0)


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
    scores = turn_scores(len(totals))
    won = 0.0
    for _ in range(REST_SAMPLES):
        ended, turns = list(totals), range(now, len(totals))
        for _ in range(ROUNDS_AT_MOST):
            for p in turns:
                # One uniform draw and a binary search: twice as fast as drawing from the normal law and rounding.
                ended[p] += bisect.bisect_right(scores, rng.random())
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
    cumulative = turn_scores(2)
    law = [cumulative[0], *(b - a for a, b in pairwise(cumulative))]
    target, faces = EXACT_TARGET, len(law)
    rounds = [[0.0] * target for _ in range(target)]
    seconds = [[0.0] * target for _ in range(target + faces)]
    for x in range(target, target + faces):  # the first player has reached 70: the second's turn ends the game
        for b in range(target):
            seconds[x][b] = sum(p * _final(x, b + s) for s, p in enumerate(law))
    zero = law[0]
    for a in reversed(range(target)):
        for b in reversed(range(target)):
            # The second's turn after the first scored nothing, but for scoring nothing too (the loop).
            second_scores = sum(
                law[s] * (rounds[a][b + s] if b + s < target else _final(a, b + s)) for s in range(1, faces)
            )
            first_scores = sum(law[s] * seconds[a + s][b] for s in range(1, faces))
            rounds[a][b] = (zero * second_scores + first_scores) / (1 - zero * zero)
            seconds[a][b] = zero * rounds[a][b] + second_scores
    return tuple(map(tuple, rounds)), tuple(map(tuple, seconds))
