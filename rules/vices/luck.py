"""Who rolled each die of a Vices & Vengeance action, and how much a defender's dice decided their turn.

Rollers. A defender's removal rolls the rest of their pool, the attackers' large dice and d20s that can still
match, the penalty dice, and, when it ends the turn, the next defender's first roll: each die belongs to the player
the events name. The random pick of a Sin (``sin.<player>``) is nobody's roll.

Luck in points. Points are against the defender, so a lucky roll leaves the pool cheaper than expected. Each unit
the defender rolls (a die, or a Mythical pair) is valued as the computer player values it
(:func:`rules.vices.strategy.keep_value`, with the same number of rolls ahead): before the roll, the expected
points of the unit with ``h`` rolls ahead, taken at its best moment; after it, the cheaper of its points now and
keeping it for the ``h − 1`` rolls left (its points, on the last). Their difference is the roll's luck for that
unit. Its mean under fair dice is exactly zero whatever the player then chooses, so over many turns::

    points expected with the same choices and fair dice ≈ points scored + luck

an estimate, right on average but not turn by turn: a unit kept is valued again at the next roll from the units
then left (not from the ``h − 1`` rolls it was kept for), and attackers' dice are not in the defender's luck. In
the computer player's games the luck takes about a third of the variance of a turn's points away.

A penalty roll's luck is its expected points minus its points. Attackers' dice (their matches, an absorbed d20)
are theirs and not counted; a turn under way counts its dice already and its points once it ends.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence
from functools import cache
from itertools import product
from typing import Any

from rules.engine import TurnLuck
from rules.vices.data import PAIR_OF, SIDES
from rules.vices.scoring import penalty_points
from rules.vices.strategy import ROLL_SHARE, keep_value, unit_points


def rollers(events: Sequence[Mapping[str, Any]]) -> list[tuple[str, str]]:
    """``(player, die id)`` for every die a player rolled, in the order rolled (``Rollers``)."""
    rolled: list[tuple[str, str]] = []
    for event in events:
        kind = event.get("type")
        if kind == "seat_rolls":
            rolled += [(r["player"], r["die"]) for r in event["rolls"]]
        elif kind == "mirror_roll":
            rolled.append((event["player"], "Mirror"))
            rolled += [(event["player"], d["die"]) for d in event["dice"]]
        elif kind == "rolled":
            rolled += [(group["player"], d["die"]) for group in event["groups"] for d in group["dice"]]
        elif kind == "penalty":
            rolled += [(event["defender"], d["die"]) for d in event["dice"]]
        elif kind == "tiebreak_rolled":
            rolled += [(r["player"], d["die"]) for r in event["rolls"] for d in r["dice"]]
    return rolled


def rolls_ahead(units: int) -> int:
    """Rolls a unit is expected to get when ``units`` are rolled together (the computer's own estimate)."""
    return max(1, math.ceil(ROLL_SHARE * (units - 1)))


@cache
def _unit_luck(kind: str, wild_face: int | None, ahead: int) -> tuple[dict[int, float], float]:
    """For a unit with ``ahead`` rolls ahead: the luck of each of its scores, and the luck's variance."""
    points = unit_points(kind, wild_face)
    before = keep_value(kind, wild_face, ahead, 0.0, 0.0)
    keep = keep_value(kind, wild_face, ahead - 1, 0.0, 0.0) if ahead > 1 else math.inf
    luck = {p: before - min(p, keep) for p in set(points)}
    variance = sum(luck[p] ** 2 for p in points) / len(points)
    return luck, variance


@cache
def _penalty_luck(dice: int) -> tuple[dict[int, float], float]:
    """For a penalty roll of ``dice`` d6s: the luck of each possible score, and the luck's variance."""
    scores = [penalty_points(values) for values in product(range(1, 7), repeat=dice)]
    mean = sum(scores) / len(scores)
    luck = {s: mean - s for s in set(scores)}
    return luck, sum((mean - s) ** 2 for s in scores) / len(scores)


def _units(dice: Sequence[Mapping[str, Any]]) -> Iterator[tuple[str, int, int]]:
    """The units of a defender's roll as ``(kind, first value, second value or 0)``: pairs whole, dice alone."""
    values = {d["die"]: int(d["value"]) for d in dice}
    for die, value in values.items():
        pair = PAIR_OF.get(die)
        if pair is None:
            yield f"d{SIDES[die]}", value, 0
        elif die == pair.dice[0] and pair.dice[1] in values:
            yield pair.key, value, values[pair.dice[1]]


def roll_luck(dice: Sequence[Mapping[str, Any]], wild_face: int | None) -> tuple[float, float]:
    """The luck (points saved) of one roll of a defender's pool, and its variance."""
    units = list(_units(dice))
    ahead = rolls_ahead(len(units))
    luck = variance = 0.0
    for kind, first, second in units:
        table, var = _unit_luck(kind, wild_face, ahead)
        luck += table[_score(kind, first, second, wild_face)]
        variance += var
    return luck, variance


def _score(kind: str, first: int, second: int, wild_face: int | None) -> int:
    if second:
        return unit_points(kind, wild_face)[(first - 1) * 6 + second - 1]
    return int(kind[1:]) - first


def score_luck(wild_face: int | None, events: Sequence[Mapping[str, Any]]) -> list[TurnLuck]:
    """Each defender's turns ended and dice luck in ``events`` (``ScoreLuck``)."""
    found: dict[str, list[float]] = {}

    def add(player: str, turns: int = 0, points: int = 0, luck: float = 0.0, variance: float = 0.0) -> None:
        sums = found.setdefault(player, [0, 0, 0.0, 0.0])
        sums[0] += turns
        sums[1] += points
        sums[2] += luck
        sums[3] += variance

    for event in events:
        kind = event.get("type")
        if kind == "rolled":
            group = next((g for g in event["groups"] if g["role"] == "defender"), None)
            if group is not None and group["dice"]:
                add(group["player"], *(0, 0), *roll_luck(group["dice"], wild_face))
        elif kind == "penalty":
            table, var = _penalty_luck(len(event["dice"]))
            add(event["defender"], 0, 0, table[int(event["points"])], var)
        elif kind == "turn_ended" and not event.get("abandoned"):
            add(event["player"], 1, int(event["turn_score"]))
    return [TurnLuck(p, int(t), int(pts), luck, var) for p, (t, pts, luck, var) in found.items()]
