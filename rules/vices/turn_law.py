"""What a Normal computer's turn of Vices & Vengeance scores, by how far its total is from 70: the law of turn
scores that Strong's model of the rest of a game draws from (:mod:`rules.vices.rest`).

Far from 70, a turn scores about what a normal law gives (mean 14.5 points with two players, sd 7.6; more with
more players, whose matches add to the pool). Nearer, Normal aims for exactly 70, which beats every other total:
measured, from 11 to 35 points away a turn lands on exactly 70 one time in six, where that law gives one in
twenty to one in three hundred. So each distance's law is that normal law reshaped to the measured chances of
landing on 70 exactly and of going past it (``data/vices/turns.json``, which ``python -m
rules.vices.measured_turns`` measures over Normal's games and writes; the shapes below and above 70 are the normal
law's).
"""

from __future__ import annotations

import json
import math
from functools import cache
from importlib import resources

from rules.vices.data import EXACT_TARGET

TURN_MEAN, TURN_STEP = 14.5, 2.5
"""Mean points of a Normal computer's turn with 2 players, and how much each further player adds (attackers)."""
TURN_SD, SD_STEP = 7.6, 1.0
"""Their standard deviation, likewise (measured over 60 games each with 2 and 3 Normal computers)."""
BUCKET = 5
"""Distances to 70 measured together (1–5, 6–10, … 66–70 points away)."""
MEASURED = resources.files("data") / "vices" / "turns.json"
"""The measured chances by player count and distance (``python -m rules.vices.measured_turns`` writes it)."""
MEASURED_PLAYERS = (2, 3, 4)
"""Player counts measured; a larger table uses the largest."""


@cache
def base_law(players: int) -> tuple[float, ...]:
    """The chances of a turn scoring 0, 1, 2, … points far from 70 with ``players`` seated: a normal law fitted to
    Normal computers' games, rounded to whole points and never below 0, listed up to where the rest is below
    1e-12."""
    mean, sd = TURN_MEAN + TURN_STEP * (players - 2), TURN_SD + SD_STEP * (players - 2)

    def below(x: float) -> float:
        return 0.5 * (1 + math.erf((x - mean) / (sd * math.sqrt(2))))

    law: list[float] = []
    points, seen = 0, 0.0
    while seen < 1 - 1e-12:
        law.append(below(points + 0.5) - seen)
        seen += law[-1]
        points += 1
    return tuple(law)


@cache
def measured_chances() -> dict[str, list[list[float]]]:
    """The shipped measurement: per player count, per distance bucket, the chances of landing on exactly 70 and of
    going past it."""
    with MEASURED.open(encoding="utf-8") as fh:
        data: dict[str, list[list[float]]] = json.load(fh)
    return data


@cache
def cumulative(players: int, total: int) -> tuple[float, ...]:
    """The cumulative chances of a turn scoring 0, 1, 2, … points from ``total`` with ``players`` seated (the
    last is 1): the base law with the measured chances of landing on exactly 70 and of going past it."""
    law = list(base_law(players))
    away = EXACT_TARGET - total
    if 0 < away <= EXACT_TARGET:
        measured = measured_chances()[str(min(max(players, MEASURED_PLAYERS[0]), MEASURED_PLAYERS[-1]))]
        exact, past = measured[(away - 1) // BUCKET]
        law += [0.0] * max(0, away + 1 - len(law))
        short, beyond = sum(law[:away]), sum(law[away + 1 :])
        past = past if beyond > 0 else 0.0
        law = [
            *(p * (1 - exact - past) / short for p in law[:away]),
            exact,
            *(p * past / beyond for p in law[away + 1 :]),
        ]
    running, out = 0.0, []
    for p in law:
        running += p
        out.append(min(running, 1.0))
    out[-1] = 1.0  # rounding: a draw never falls off the end
    return tuple(out)
