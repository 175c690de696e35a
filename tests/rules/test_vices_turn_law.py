"""The law of a Normal V&V turn's points by distance to 70 (Strong's model of the rest of a game): whole chances,
the shipped measurement's chances of landing on 70, and a fresh measurement agreeing with it."""

from __future__ import annotations

import math
from itertools import pairwise

import pytest

from rules.vices.data import EXACT_TARGET
from rules.vices.measured_turns import measure
from rules.vices.turn_law import BUCKET, base_law, cumulative, measured_chances

FRESH_GAMES = 300
"""Normal two-player games measured afresh (about 5 s)."""


def _points(players: int, total: int) -> list[float]:
    return [b - a for a, b in pairwise((0.0, *cumulative(players, total)))]


@pytest.mark.parametrize("players", [2, 3, 5])
def test_every_total_has_a_whole_law_with_the_measured_chance_of_exactly_70(players: int) -> None:
    measured = measured_chances()[str(min(players, 4))]
    for total in range(EXACT_TARGET + 5):
        points = _points(players, total)
        assert min(points) >= 0 and cumulative(players, total)[-1] == 1.0
        away = EXACT_TARGET - total
        if away > 0:
            exact, past = measured[(away - 1) // BUCKET]
            assert points[away] == pytest.approx(exact)
            assert sum(points[away + 1 :]) == pytest.approx(past if sum(base_law(players)[away + 1 :]) else 0.0)
        else:  # past 70 (a total a turn may reach before its round ends): the law far from 70
            assert points == pytest.approx(list(base_law(players)))
    # Normal aims for 70: from 11 to 35 points away it lands there far more often than a plain law of turns says.
    assert _points(2, 50)[20] > 3 * base_law(2)[20]


def test_the_shipped_law_is_what_normal_computers_play() -> None:
    # Other games than the shipped measurement's, 11 to 35 points away (where a game's end is played).
    shipped, fresh = measured_chances()["2"], measure(2, range(100_000, 100_000 + FRESH_GAMES))
    for bucket in range(2, 7):
        for kind in (0, 1):  # landing on 70, going past it
            p = shipped[bucket][kind]
            # At least a quarter of the games have a turn start in each of these buckets (measured: 0.3 to 0.6):
            # 4 standard errors of that many turns.
            error = math.sqrt(max(p * (1 - p), 0.01) / (FRESH_GAMES / 4))
            assert fresh[bucket][kind] == pytest.approx(p, abs=4 * error), (bucket, kind)
