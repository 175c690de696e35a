"""How lucky a member's dice were, from counts alone: pure arithmetic for ``/stats luck`` and ``/stats top``.

- Luck: how the sum of ``n`` fair ``dN`` compares with the sum rolled, as the share of fair runs of the same
  length it beats (ties count half). Exact (``rules/odds.py``) while the sum spans at most ``EXACT_SPAN``
  totals, else the normal approximation with a continuity correction (within a fraction of a percent there).
- Fairness: Pearson's chi-square of the face counts against equal chances, with its p-value (the regularized
  upper incomplete gamma function, by series or continued fraction); only once every face expects 5 rolls.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from rules.odds import Dist
from rules.said import said

EXACT_SPAN = 400
MIN_EXPECTED = 5.0
"""Chi-square needs about this many rolls expected per face; fewer, and the faces aren't judged."""


@dataclass(frozen=True, slots=True)
class Fairness:
    """A chi-square test of the faces: the statistic, its degrees of freedom and p-value."""

    chi_square: float
    dof: int
    p_value: float


def luck(count: int, total: int, sides: int, *, exact: bool = True) -> float:
    """The share (0..1) of runs of ``count`` fair d``sides`` whose sum is below ``total`` (ties count half).

    ``exact=False`` always takes the normal approximation (a leaderboard ranks hundreds of members).
    """
    if count <= 0:
        return 0.5
    if exact and count * (sides - 1) <= EXACT_SPAN:
        dist = Dist.uniform(range(1, sides + 1)).repeat(count, limit=10**9)
        below = sum(c for v, c in dist.ways.items() if v < total)
        equal = dist.ways.get(total, 0)
        return float(Fraction(2 * below + equal, 2 * dist.total))
    mean = count * (sides + 1) / 2
    sd = math.sqrt(count * (sides * sides - 1) / 12)
    return _normal_cdf((total - mean) / sd)


def points_luck(luck: float, variance: float) -> float:
    """The share (0..1) of fair runs a run whose dice gave ``luck`` points in the player's favour beats, when fair
    dice give 0 on average with ``variance`` (a sum over many rolls: the normal approximation)."""
    if variance <= 0:
        return 0.5
    return _normal_cdf(luck / math.sqrt(variance))


def _normal_cdf(z: float) -> float:
    return 0.5 * math.erfc(-z / math.sqrt(2))


def fairness(observed: Sequence[int], weights: Sequence[int]) -> Fairness | None:
    """Chi-square of ``observed`` counts against chances proportional to ``weights`` (faces per bin); None when
    there are too few rolls to judge (some bin expects under ``MIN_EXPECTED``) or a single bin."""
    n = sum(observed)
    whole = sum(weights)
    if len(observed) < 2 or n == 0:
        return None
    expected = [n * w / whole for w in weights]
    if min(expected) < MIN_EXPECTED:
        return None
    statistic = sum((o - e) ** 2 / e for o, e in zip(observed, expected, strict=True))
    dof = len(observed) - 1
    return Fairness(statistic, dof, upper_gamma_regularized(dof / 2, statistic / 2))


def upper_gamma_regularized(a: float, x: float) -> float:
    """Q(a, x) = Γ(a, x) / Γ(a): the chance a chi-square with 2a degrees of freedom exceeds 2x."""
    if x <= 0:
        return 1.0
    if x < a + 1:
        # Series for P(a, x), then Q = 1 - P.
        term = total = 1.0 / a
        k = a
        for _ in range(10_000):
            k += 1
            term *= x / k
            total += term
            if abs(term) < abs(total) * 1e-15:
                break
        return max(0.0, 1.0 - total * math.exp(-x + a * math.log(x) - math.lgamma(a)))
    # Continued fraction for Q(a, x) (modified Lentz).
    tiny = 1e-300
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        step = d * c
        h *= step
        if abs(step - 1) < 1e-15:
            break
    return min(1.0, math.exp(-x + a * math.log(x) - math.lgamma(a)) * h)


def luck_words(share: float) -> str:
    """``luckier than 91 % of fair runs``, ``about average``, ``unluckier than 88 %…``, in plain words."""
    percent = round(share * 100)
    if 40 <= percent <= 60:
        return said("about average")
    if share > 0.5:
        return said("luckier than {percent} % of fair runs", percent=min(percent, 99))
    return said("unluckier than {percent} % of fair runs", percent=min(100 - percent, 99))


def fairness_words(result: Fairness | None) -> str:
    """What the chi-square says, for people: too few to judge, nothing odd, or uneven (with the p-value)."""
    if result is None:
        return said("too few rolls to judge the faces")
    if result.p_value < 0.01:
        odds = max(2, round(1 / max(result.p_value, 1e-9)))
        return said(
            "faces uneven (p = {p}: fair dice do this 1 time in {odds})",
            p=format(result.p_value, ".3f"),
            odds=format(odds, ","),
        )
    return said("faces look fair (p = {p})", p=format(result.p_value, ".2f"))


def top_share(rank: int, of: int) -> int:
    """``rank`` (1 = best) among ``of`` as "in the top N %"."""
    return max(1, math.ceil(100 * rank / of))
