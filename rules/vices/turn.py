"""A defender's turn, RULES.md 1.5 T1–T8, run on a :class:`Table`.

Steps run on by themselves until someone must decide: the defender's removal, an attacker's effect
choice, or the game's end. A roll that needs no decision (only dice absorbed on this roll are left)
is followed by the next roll at once.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rules.vices import effects
from rules.vices.data import BASE_POOL, LARGE, PRECEDENCE, SIDES, SIN_OF_DIE, SINS, SMALL, TRIGGER_AT
from rules.vices.ending import finish_game
from rules.vices.pool import removable_units
from rules.vices.state import Match, PoolDie, Turn, VicesState, large_dice, pool_die
from rules.vices.table import Table

_SMALL_DICE = frozenset(SMALL.values())


def start_turn(t: Table, defender: str) -> None:
    """T1: the defender's pool is the 16 common dice and their own d20 unless Sloth removed it; their
    large Sin dice are set aside. Then the first roll."""
    own = t.s.own_nemesis(defender)
    dice = (*BASE_POOL, own) if own else BASE_POOL
    t.put(phase="turn", turn=Turn(defender=defender))
    t.emit(
        "turn_started",
        player=defender,
        round=t.s.round_no,
        pool=list(dice),
        set_aside=[d for sin in t.s.sins_of(defender) for d in large_dice(sin)],
    )
    roll(t, dice)


def roll(t: Table, dice: Sequence[str], **turn_changes: Any) -> None:
    """T2–T3: the defender rolls every die of the pool; attackers, clockwise from the defender, roll the
    large dice that can still match and their d20 if the pool holds one. Then the matches are resolved.
    ``turn_changes`` are other changes to the turn (a removal's), made along with the roll's."""
    s = t.s
    turn = t.turn
    defender = turn.defender
    pool = tuple(pool_die(d, t.roll(d)) for d in dice)
    small = {SIN_OF_DIE[d.id]: d.value for d in pool if d.id in _SMALL_DICE}
    d20s = [d for d in pool if SIDES[d.id] == 20]
    groups = [{"player": defender, "role": "defender", "dice": [{"die": d.id, "value": d.value} for d in pool]}]
    matches: list[Match] = []
    absorbing: list[PoolDie] = []
    matched: set[str] = set()
    can_match: dict[str, list[str]] = {}
    for sin in SINS:
        if sin in small:
            can_match.setdefault(s.sins[sin], []).append(sin)
    for attacker in s.clockwise_from(defender):
        rolled = []
        for sin in can_match.get(attacker, ()):
            value = t.roll(LARGE[sin])
            rolled.append({"die": LARGE[sin], "value": value})
            if value == small[sin]:
                matches.append(Match(sin=sin, player=attacker))
        own = s.own_nemesis(attacker)
        if d20s and own is not None and own not in turn.absorbed:
            value = t.roll(own)
            rolled.append({"die": own, "value": value})
            hit = [d.id for d in d20s if d.value == value]
            if hit:
                absorbing.append(pool_die(own, value, True))
                matched.update(hit)
        if rolled:
            groups.append({"player": attacker, "role": "attacker", "dice": rolled})
    matches.sort(key=lambda m: PRECEDENCE[m.sin])
    t.put_turn(
        **turn_changes,
        roll=turn.roll + 1,
        pool=pool,
        matched=tuple(d.id for d in d20s if d.id in matched),
        penalty_met=False,
        queue=tuple(matches),
        absorbing=tuple(absorbing),
    )
    t.emit("rolled", defender=defender, roll=turn.roll + 1, groups=groups)
    if matches or absorbing:
        t.emit(
            "matches",
            defender=defender,
            sins=[{"sin": m.sin, "player": m.player} for m in matches],
            nemesis=[
                {
                    "die": d.id,
                    "player": s.nemesis_owner(SIN_OF_DIE[d.id]),
                    "value": d.value,
                    "matched": [x.id for x in d20s if x.value == d.value],
                }
                for d in absorbing
            ],
        )
    settle(t)


def settle(t: Table) -> None:
    """T4–T6: resolve this roll's Sin matches in precedence order, absorb the matched d20s, then wait for
    the removal, or go on when there is nothing to decide."""
    while t.turn.queue:
        if not effects.resolve(t, t.turn.queue[0]):
            return
        t.put_turn(queue=t.turn.queue[1:])
    _absorb(t)
    turn = t.turn
    if any(not d.joined for d in turn.pool):
        return
    if turn.pool:
        roll(t, [d.id for d in turn.pool])
    else:
        end_turn(t)


def after_choice(t: Table) -> None:
    """The pending effect has been carried out: go on with the next match."""
    t.put_turn(queue=t.turn.queue[1:])
    settle(t)


def _absorb(t: Table) -> None:
    """T5: each matching attacker d20 still in play joins the pool; it can't be removed on this roll."""
    turn = t.turn
    if not turn.absorbing:
        return
    joined = [d for d in turn.absorbing if SIN_OF_DIE[d.id] not in t.s.nemesis_out]
    t.put_turn(
        pool=turn.pool + tuple(joined),
        absorbed=turn.absorbed + tuple(d.id for d in joined),
        absorbing=(),
    )
    for die in turn.absorbing:
        owner = t.s.nemesis_owner(SIN_OF_DIE[die.id])
        if die in joined:
            t.emit("absorbed", die=die.id, owner=owner, defender=turn.defender, value=die.value)
        else:
            t.emit("not_absorbed", die=die.id, owner=owner, reason=t.s.nemesis_out[SIN_OF_DIE[die.id]])


def remove(t: Table, unit_ids: Sequence[str]) -> None:
    """T6–T7: score the chosen units (already checked), then roll the rest, or end the turn."""
    turn = t.turn
    units = {u.id: u for u in removable_units(t.s)}
    chosen = [units[u] for u in unit_ids]
    gone = {d for u in chosen for d in u.dice}
    values = {d.id: d.value for d in turn.pool}
    points = sum(u.points for u in chosen)
    pool = tuple(d for d in turn.pool if d.id not in gone)
    scored = turn.scored + tuple(d.id for d in turn.pool if d.id in gone)
    t.emit(
        "removed",
        player=turn.defender,
        units=[{"unit": u.id, "dice": [_die(t.s, d, values[d]) for d in u.dice], "points": u.points} for u in chosen],
        points=points,
        turn_score=turn.score + points,
        left_in_pool=len(pool),
    )
    if pool:
        roll(t, [d.id for d in pool], scored=scored, score=turn.score + points)
    else:
        t.put_turn(pool=pool, scored=scored, score=turn.score + points)
        end_turn(t)


def _die(s: VicesState, die: str, value: int) -> dict[str, Any]:
    """A removed die for the event; a Nemesis d20 names its owner, as players call it "Bob's d20"."""
    if die.startswith("N."):
        return {"die": die, "value": value, "owner": s.nemesis_owner(SIN_OF_DIE[die])}
    return {"die": die, "value": value}


def end_turn(t: Table, abandoned: bool = False) -> None:
    """T8: absorbed d20s go back to their owners, the turn's points are added (not for a defender who left),
    the 70 trigger is checked, and the next seat plays, or the game ends."""
    turn = t.turn
    defender = turn.defender
    returned = [d for d in turn.absorbed if SIN_OF_DIE[d] not in t.s.nemesis_out]
    if returned:
        t.emit(
            "nemesis_returned",
            defender=defender,
            dice=[{"die": d, "to": t.s.nemesis_owner(SIN_OF_DIE[d])} for d in returned],
        )
    seat = t.seat(defender)
    if not abandoned:
        t.put_seat(defender, total=seat.total + turn.score, turns=(*seat.turns, turn.score))
    t.put(turn=None)
    t.emit(
        "turn_ended",
        player=defender,
        turn_score=turn.score,
        total=t.seat(defender).total,
        abandoned=abandoned,
    )
    next_turn(t, defender)


def next_turn(t: Table, previous: str) -> None:
    """After ``previous``'s turn: set the end trigger, finish the game, or start the next seat's turn."""
    s = t.s
    if s.end_triggered:
        last = tuple(p for p in s.last_turns if p != previous)
        t.put(last_turns=last)
    else:
        reached = [p for p in s.present() if s.seat(p).total >= TRIGGER_AT]
        if not reached:
            _start_next(t, previous)
            return
        last = _last_turns(t, previous)
        t.put(end_triggered=True, last_turns=last)
        t.emit("end_triggered", players=reached, last_turns=list(last), mode=s.options.end_mode)
    if last:
        _start_next(t, previous)
    else:
        finish_game(t)


def _last_turns(t: Table, previous: str) -> tuple[str, ...]:
    """Who still plays once the end is triggered after ``previous``'s turn (1.8 #26)."""
    after = t.s.clockwise_from(previous)
    if t.s.options.end_mode == "one_more_each":
        return tuple(after)
    if t.s.first_seat in after:
        return tuple(after[: after.index(t.s.first_seat)])
    return tuple(after)


def _start_next(t: Table, previous: str) -> None:
    nxt = t.s.clockwise_from(previous)[0]
    if nxt == t.s.first_seat:
        t.put(round_no=t.s.round_no + 1)
    start_turn(t, nxt)
