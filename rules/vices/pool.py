"""What the defender may remove from the pool, and what it scores (RULES.md 1.5 T6, 1.8 #21, #24, #35).

A *unit* is what the removal picks: a single die, a whole Mythical pair, or — under the Nemesis zero
rule — two or more of the defender's d20s showing the same number, removed together for 0.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations

from rules.engine import IllegalAction
from rules.said import said
from rules.vices.data import PAIR_OF, PAIRS, SIDES
from rules.vices.scoring import die_points, pair_points
from rules.vices.state import PoolDie, Turn, VicesState

PAIR_DICE = {p.key: p.dice for p in PAIRS}
GROUP_JOIN = "+"
"""Joins the die ids of a Nemesis zero group into its unit id: ``N.Envy+N.Wrath``."""


@dataclass(frozen=True, slots=True)
class Unit:
    """One thing the defender can remove: its id (what a Remove action names), its dice and its points."""

    id: str
    dice: tuple[str, ...]
    points: int

    @property
    def sides(self) -> int:
        """Sides of its dice (a pair counts as a d6), for the timeout default's tie-break."""
        return SIDES[self.dice[0]]


def removable_units(state: VicesState) -> list[Unit]:
    """Every unit the defender may remove now, in roll order (Nemesis zero groups last); [] outside a removal."""
    turn = state.turn
    if turn is None or state.phase != "turn" or turn.choice is not None or turn.queue:
        return []
    return units_of(turn, state.options.nemesis_zero_rule, state.options.silver_bullet_wild_face)


def units_of(turn: Turn, zero_rule: str, wild_face: int | None) -> list[Unit]:
    """The removable units of ``turn``'s pool under the given Nemesis zero rule and Silver Bullet wild face."""
    units: list[Unit] = []
    d20s: list[PoolDie] = []
    matched_scores_zero = zero_rule != "defender_pairs"
    pool = turn.pool
    for i, die in enumerate(pool):
        if die.joined:
            continue
        kind = _KIND[die.id]
        if kind is _SINGLE:
            units.append(_single(die.id, die.value))
        elif kind is _D20:
            d20s.append(die)
            # A matched d20 scores as if it showed its maximum, 0.
            zero = matched_scores_zero and die.id in turn.matched
            units.append(_single(die.id, 20 if zero else die.value))
        elif kind is not _SECOND:
            # Pairs leave the pool whole and sit side by side in it, so the first die stands for both.
            units.append(_pair_unit(kind, die.value, pool[i + 1].value, wild_face))
    if zero_rule != "matched_die" and len(d20s) > 1:
        units += _zero_groups(d20s)
    return units


_SINGLE, _D20, _SECOND = "single", "d20", "second"


def _kind(die: str, sides: int) -> str:
    pair = PAIR_OF.get(die)
    if pair is None:
        return _D20 if sides == 20 else _SINGLE
    return pair.key if die == pair.dice[0] else _SECOND


_KIND: dict[str, str] = {die: _kind(die, sides) for die, sides in SIDES.items()}
"""How each die is removed: alone, as a d20, or with its pair (the pair's key on its first die)."""


# Units are immutable values and a game only ever meets a few hundred, so they are shared.
@cache
def _single(die_id: str, value: int) -> Unit:
    return Unit(die_id, (die_id,), die_points(SIDES[die_id], value))


@cache
def _pair_unit(key: str, first: int, second: int, wild_face: int | None) -> Unit:
    return Unit(key, PAIR_DICE[key], pair_points(key, first, second, wild_face=wild_face))


def _zero_groups(d20s: list[PoolDie]) -> list[Unit]:
    """Every set of two or more d20s that show the same number (1.8 #21 A)."""
    by_value: dict[int, list[str]] = {}
    for die in d20s:
        by_value.setdefault(die.value, []).append(die.id)
    groups: list[Unit] = []
    for ids in by_value.values():
        for size in range(2, len(ids) + 1):
            groups += [Unit(GROUP_JOIN.join(c), c, 0) for c in combinations(ids, size)]
    return groups


def removal_problem(state: VicesState, unit_ids: Sequence[str]) -> str | None:
    """Why removing ``unit_ids`` is not allowed now, in words a player can read; None if it is."""
    turn = state.turn
    units = {u.id: u for u in removable_units(state)}
    if turn is None or not units:
        return said("There is nothing to remove now.")
    used: set[str] = set()
    for unit_id in unit_ids:
        unit = units.get(unit_id)
        if unit is None:
            return _not_removable(state, turn, unit_id)
        if used.intersection(unit.dice):
            return said("Each die can be removed only once.")
        used.update(unit.dice)
    if not unit_ids and not turn.penalty_met:
        return said("Remove at least one die.")
    return None


def _not_removable(state: VicesState, turn: Turn, unit_id: str) -> str:
    pooled = {d.id: d for d in turn.pool}
    dice = unit_id.split(GROUP_JOIN)
    if any(pooled[d].joined for d in dice if d in pooled):
        return said("A Nemesis die absorbed on this roll can't be removed until the next roll.")
    if unit_id in PAIR_OF and unit_id in pooled:
        return said("Pairs must be scored together.")
    if len(dice) > 1:
        if state.options.nemesis_zero_rule == "matched_die":
            return said("Nemesis dice are removed one at a time at this table.")
        return said("Only Nemesis dice showing the same number can be removed together for 0.")
    if unit_id in turn.scored:
        return said("That die has already been scored.")
    return said("That die is not in your pool.")


def removal_points(state: VicesState, unit_ids: Sequence[str]) -> int:
    """What removing ``unit_ids`` would score now (for previews); raises IllegalAction if it is not allowed."""
    problem = removal_problem(state, unit_ids)
    if problem is not None:
        raise IllegalAction(problem)
    units = {u.id: u for u in removable_units(state)}
    return sum(units[u].points for u in unit_ids)


def zero_units(units: Sequence[Unit]) -> list[Unit]:
    """The most dice that can be removed for 0 at once, as disjoint units in roll order."""
    chosen: list[Unit] = []
    used: set[str] = set()
    for unit in sorted((u for u in units if u.points == 0), key=lambda u: -len(u.dice)):
        if not used.intersection(unit.dice):
            chosen.append(unit)
            used.update(unit.dice)
    order = {u.id: i for i, u in enumerate(units)}
    return sorted(chosen, key=lambda u: order[u.id])


def lowest_unit(units: Sequence[Unit]) -> Unit:
    """The timeout default's die (1.8 #35): the single die or pair that scores lowest; ties go to the most
    sides, then to the first in roll order. Nemesis zero groups are not single dice."""
    singles = [u for u in units if GROUP_JOIN not in u.id]
    return min(singles, key=lambda u: (u.points, -u.sides))
