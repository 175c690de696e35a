"""Computer players: a patient defender that weighs each die against what a reroll is worth, and attackers
who aim their effects at the leader. Deterministic given the state.

Defender. A unit kept in the pool will be rolled again; :func:`keep_value` is the expected points it
still costs if it gets ``r`` more rolls and is taken at its best moment (optimal stopping:
W(1) = E[points], W(r) = E[min(points, W(r-1))]), plus what keeping it risks on each roll: a small Sin
die an attacker can match may become a penalty roll, and a d20 may attract attackers' d20s. The defender
removes every unit showing no more than its keep value; with nothing that good, the one it regrets least
(unless a penalty already counted as the removal). ``r`` grows with the number of units kept: with more
dice left, a die can wait longer for its best face.

Exactly 70 beats every other total, so when removing every die would end the turn on exactly 70, the
defender does it unless that costs far more than the turn is otherwise expected to.

Attackers. A Sin held protects its holder (a Sin's small die can only be matched by someone else's large
die) and threatens everyone else, so effects take Sins from the leader — the player on exactly 70, else
the lowest total — and the strongest Sins first.
"""

from __future__ import annotations

import math
from functools import cache

from rules.engine import IllegalAction
from rules.said import said
from rules.vices.actions import ClaimSin, Envy, Gluttony, Greed, Lust, PickPair, Remove, VicesAction, Wrath
from rules.vices.data import EXACT_TARGET, GLUTTONY, PAIR_KEYS, PAIR_OF, PRIDE, SIDES, SIN_OF_DIE, SMALL
from rules.vices.legality import decision, legal_actions
from rules.vices.pool import GROUP_JOIN, Unit, removable_units
from rules.vices.scoring import pair_points
from rules.vices.state import OUT, RESERVES, VicesState

SIN_VALUE: dict[str, float] = {
    "Pride": 3.0,
    "Gluttony": 2.5,
    "Greed": 2.2,
    "Lust": 2.0,
    "Wrath": 1.8,
    "Envy": 1.5,
    "Sloth": 1.0,
}
"""How much a Sin is worth to its holder: Pride's penalty rolls three dice, Gluttony's three or four."""
ROLL_SHARE = 2.0
"""Rolls a kept unit is assumed to get, per other unit kept. Tuned by simulation against greedy players
(bench/vices_bots.py): from 1.2 to 3 the computer scores about the same, below it it grows impatient."""
LAND_COST = 40.0
"""Points above the expected cost of the turn worth paying to finish it on exactly 70. Tuned by simulation:
paying more wins more games against greedy players but costs mean turn score (at 40: about 27 % fewer
points per turn than greedy and 72 % of the games; never landing: 31 % and 66 %)."""
MATCH_CHANCE = 1 / 6
"""A large d6 matches its small die."""


@cache
def unit_points(kind: str, wild_face: int | None) -> tuple[int, ...]:
    """Every equally likely score of a unit kind: a dN, or a Mythical pair."""
    if kind in PAIR_KEYS:
        return tuple(pair_points(kind, a, b, wild_face=wild_face) for a in range(1, 7) for b in range(1, 7))
    return tuple(range(int(kind[1:])))


@cache
def keep_value(kind: str, wild_face: int | None, rolls: int, risk: float, risk_cost: float) -> float:
    """Expected points of a unit of ``kind`` kept for ``rolls`` more rolls and taken at its best moment.

    A small Sin die costs ``risk_cost`` instead with probability ``risk`` (matched: a penalty roll replaces
    it). A d20 adds ``risk_cost`` with probability ``risk`` on each roll (an attacker's d20 absorbed).
    """
    points = unit_points(kind, wild_face)
    value = sum(points) / len(points)
    for _ in range(rolls - 1):
        value = sum(min(p, value) for p in points) / len(points)
    if kind == "d20":
        return value + risk * risk_cost * rolls
    return (1 - risk) * value + risk * risk_cost


def _penalty_cost(dice: int) -> float:
    """Expected points of a penalty roll of ``dice`` d6s: a die scores 6 − roll unless another shows the same."""
    return dice * 2.5 * (5 / 6) ** (dice - 1)


def _unit_value(state: VicesState, unit: Unit, rolls: int, d20_risk: float) -> float:
    """What keeping ``unit`` is expected to cost."""
    wild = state.options.silver_bullet_wild_face
    first = unit.dice[0]
    pair = PAIR_OF.get(first)
    if pair is not None:
        return keep_value(pair.key, wild, rolls, 0.0, 0.0)
    sides = SIDES[first]
    if sides == 20:
        return keep_value("d20", None, rolls, d20_risk, keep_value("d20", None, max(rolls - 1, 1), 0.0, 0.0))
    if first in _SMALL:
        sin = SIN_OF_DIE[first]
        turn = state.turn
        holder = state.sins[sin]
        if turn is not None and holder not in (RESERVES, OUT, turn.defender):
            return keep_value(f"d{sides}", None, rolls, MATCH_CHANCE, _penalty_cost(_penalty_dice(state, sin)))
    return keep_value(f"d{sides}", None, rolls, 0.0, 0.0)


_SMALL = frozenset(SMALL.values())


def _penalty_dice(state: VicesState, sin: str) -> int:
    if sin == PRIDE:
        return 3
    if sin == GLUTTONY and state.reserves():
        return 4 if PRIDE in state.reserves() and state.options.gluttony_added_die == "taken_large" else 3
    return 2


def choose_removal(state: VicesState, patience: float = ROLL_SHARE) -> Remove:
    """The defender's removal: everything if that ends the turn on exactly 70 at a fair price, else every
    unit worth taking now, else the least regretted one. ``patience`` is the rolls a kept unit is assumed to
    get per other unit kept (a Strong player weighs other values against ROLL_SHARE)."""
    turn = state.turn
    assert turn is not None
    everything = removable_units(state)
    units = [u for u in everything if GROUP_JOIN not in u.id]
    attackers_d20 = sum(
        1 for p in state.clockwise_from(turn.defender) if (n := state.own_nemesis(p)) and n not in turn.absorbed
    )
    d20_risk = attackers_d20 / 20
    take: list[Unit] = []
    used: set[str] = set()
    for group in sorted((u for u in everything if GROUP_JOIN in u.id), key=lambda g: -len(g.dice)):
        if not used.intersection(group.dice):
            take.append(group)
            used.update(group.dice)
    rest = [u for u in units if not used.intersection(u.dice)]
    kept = rest
    values: dict[str, float] = {}
    for _ in range(3):
        rolls = max(1, math.ceil(patience * (len(kept) - 1)))
        values = {u.id: _unit_value(state, u, rolls, d20_risk) for u in rest}
        kept = [u for u in rest if u.points > values[u.id]]
    if _should_land(state, units, values):
        return Remove(units=tuple(u.id for u in units))
    take += [u for u in rest if u not in kept]
    if not take and not turn.penalty_met:
        take = [min(rest, key=lambda u: u.points - values[u.id])]
    order = {u.id: i for i, u in enumerate(everything)}
    return Remove(units=tuple(sorted((u.id for u in take), key=order.__getitem__)))


def _should_land(state: VicesState, units: list[Unit], values: dict[str, float]) -> bool:
    """Removing every die now ends the turn on exactly 70, which beats every other total, for no more than
    LAND_COST points above what the turn is expected to cost otherwise."""
    turn = state.turn
    assert turn is not None
    if sum(len(u.dice) for u in units) != len(turn.pool):
        return False
    points = sum(u.points for u in units)
    if state.seat(turn.defender).total + turn.score + points != EXACT_TARGET:
        return False
    expected = sum(min(u.points, values.get(u.id, u.points)) for u in units)
    return points - expected <= LAND_COST


def leader(state: VicesState, player: str) -> str | None:
    """The rival closest to winning: one on exactly 70, else the lowest total."""
    rivals = [p for p in state.present() if p != player]
    if not rivals:
        return None
    return min(rivals, key=lambda p: (state.seat(p).total != EXACT_TARGET, state.seat(p).total))


def _take_key(state: VicesState, player: str, sin: str) -> tuple[bool, float]:
    """Prefer Sins held by the leader, then the strongest."""
    return state.sins[sin] == leader(state, player), SIN_VALUE.get(sin, 0.0)


def _expected_pair(state: VicesState, pair: str) -> float:
    points = unit_points(pair, state.options.silver_bullet_wild_face)
    return sum(points) / len(points)


def choose_action(state: VicesState, player: str) -> VicesAction:
    """The computer's action for ``player``'s pending decision."""
    waiting = decision(state)
    legal = legal_actions(state, player)
    if waiting is None or not legal:
        raise IllegalAction(said("There is nothing for you to decide now."))
    name = waiting.name
    if name == "remove":
        return choose_removal(state)
    if name == "tiebreak":
        return PickPair(pair=min(PAIR_KEYS, key=lambda k: _expected_pair(state, k)))
    if name == "claim":
        return ClaimSin(sin=max((a.sin for a in legal if isinstance(a, ClaimSin)), key=SIN_VALUE.__getitem__))
    if name == "envy":
        swaps = [a for a in legal if isinstance(a, Envy) and a.give is not None and a.take is not None]

        def gain(a: Envy) -> tuple[bool, float]:
            assert a.give is not None and a.take is not None
            taken_from_leader, value = _take_key(state, player, a.take)
            return taken_from_leader, value - SIN_VALUE.get(a.give, 0.0)

        best = max(swaps, key=gain)
        if state.options.envy_optional and gain(best) <= (False, 0.0):
            return Envy(give=None, take=None)
        return best
    # Wrath, Greed, Gluttony, Lust: the Sin that hurts the leader most.
    targets = [a for a in legal if isinstance(a, Wrath | Gluttony | Greed | Lust)]
    return max(targets, key=lambda a: _take_key(state, player, a.sin))
