"""Who the table waits on, so it can call them: each wait once, when it begins, and a reminder for those who asked.

:func:`waits` lists every wait of a state, each with a key that names it for as long as it lasts (the same pool,
round and decision keep the same key; a new decision is a new wait). After every action the engine compares the
waits before and after it and emits a ``waiting`` event for each that began, naming whom it waits on: players by
user id, ``gm`` for the GM. The cog turns them into pings (or direct messages, as each member chose), so nobody is
called twice for the same wait. A wait about a rival is the GM's secret: its event is GM-only, and never news.

Players who asked for reminders (``SetCalls.remind_after``) get one per wait still on them after that many hours
(:func:`reminders`, the engine's ``Reminders`` capability, which the core times).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from rules.engine import GM, Reminder
from rules.viciousness.actions import Action, SetCalls
from rules.viciousness.permissions import side_players
from rules.viciousness.pools import can_roll, joinable
from rules.viciousness.state import Calls, CampaignState, KnaveryPool, Pool, ViolencePool, owner_of
from rules.viciousness.violence import clash
from rules.viciousness.work import GM_ONLY, Work

HOUR_S = 3600.0


@dataclass(frozen=True)
class Wait:
    """Something the table waits for, and on whom (user ids, or ``gm``)."""

    kind: str
    key: str
    on: tuple[str, ...]
    about: dict[str, Any] = field(default_factory=dict)
    """What the call says it is about (a pool and its title, a side, a character)."""
    secret: bool = False
    """About a rival: only the GM may know it waits."""


def _players(state: CampaignState, pc_ids: Iterable[str]) -> tuple[str, ...]:
    """The players of these characters (those the GM doesn't portray), each once, in order."""
    out: dict[str, None] = {}
    for pc_id in pc_ids:
        pc = state.find_pc(pc_id)
        if pc is not None and pc.active and not pc.gm_controlled:
            out[owner_of(pc_id)] = None
    return tuple(out)


def _pool_about(pool: Pool, **more: Any) -> dict[str, Any]:
    return {"pool": pool.id, "pool_kind": pool.kind, "title": pool.title, **more}


def _turn(state: CampaignState) -> list[Wait]:
    turn = state.turn
    if not turn.running:
        return []
    acting = [
        pc.id
        for troupe in state.troupes.values()
        if not troupe.dissolved
        for pc in troupe.pcs
        if pc.active and pc.action_turn != turn.number
    ]
    on = _players(state, acting)
    return [Wait("turn", f"turn:{turn.number}", on, {"turn": turn.number})] if on else []


def _violence(state: CampaignState, pool: ViolencePool) -> list[Wait]:
    out = []
    standing = [c for c in pool.combatants if c.status == "in"]
    if pool.stage == "clash":
        need = clash(pool, state.options).need
        if need is not None:
            on = tuple(sorted(side_players(state, pool.id, need.side))) or (GM,)
            side = next((s.name for s in pool.sides if s.id == need.side), need.side)
            about = _pool_about(pool, need=need.kind, side=side, amount=need.amount)
            out.append(Wait("clash", f"clash:{pool.id}:{pool.round}:{len(pool.decisions)}", on, about))
    elif pool.stage == "flight":
        on = _players(state, [c.id for c in standing if c.pc]) or (GM,)
        out.append(Wait("flight", f"flight:{pool.id}:{pool.round}", on, _pool_about(pool)))
    for c in pool.combatants:
        if c.death:
            key = f"death:{pool.id}:{c.id}:{len(c.death)}"
            out.append(Wait("death", key, (GM,), _pool_about(pool, name=c.name)))
    return out


def _knavery(state: CampaignState, pool: KnaveryPool) -> list[Wait]:
    if pool.stage != "failed":
        return []
    on = _players(state, [c.id for c in pool.combatants if c.pc]) if pool.prepared else ()
    about = _pool_about(pool, successes=pool.successes)
    return [Wait("thwart", f"thwart:{pool.id}", on or (GM,), about)]


def _gathering(state: CampaignState, pool: Pool) -> list[Wait]:
    """A pool gathering its first roll waits for whoever can still bring characters to it; once nobody else can
    and it has what a roll needs (two sides fighting, or a schemer), it waits for the GM to roll it."""
    if pool.stage != "gather":
        return []
    first = not (isinstance(pool, ViolencePool) and pool.round > 1)
    inside = {owner_of(c.id) for c in pool.combatants if c.pc}
    can = [pc.id for pc in joinable(state, pool) if owner_of(pc.id) not in inside] if first else []
    on = _players(state, can)
    if on:
        return [Wait("join", f"join:{pool.id}", on, _pool_about(pool))]
    ready = can_roll(pool)
    if pool.roll_at is not None and sum(1 for c in pool.combatants if c.pc) >= pool.roll_at:
        return []  # it rolls by itself once the last trait dice are picked (each joiner was asked privately)
    key = f"roll:{pool.id}:{pool.round if isinstance(pool, ViolencePool) else 1}"
    return [Wait("roll", key, (GM,), _pool_about(pool))] if ready else []


def waits(state: CampaignState) -> list[Wait]:
    """Every wait of the campaign now."""
    if state.archived:
        return []
    out = _turn(state)
    for pool in state.pools.values():
        out += _gathering(state, pool)
        out += _violence(state, pool) if isinstance(pool, ViolencePool) else _knavery(state, pool)
    lockout = state.company.lockout
    if lockout is not None:
        out.append(Wait("fallout", f"fallout:{state.turn.number}:{state.turn.pools}", (GM,)))
    for rival in state.rivals.values():
        move = rival.move
        if move is not None and not rival.dropped:
            key = f"rival:{rival.id}:{move.design}:{move.stage}:{state.turn.number}"
            out.append(Wait("rival", key, (GM,), {"rival": rival.id, "stage": move.stage}, secret=True))
    return out


def begun(before: CampaignState, after: CampaignState) -> list[dict[str, Any]]:
    """A ``waiting`` event for each wait that began with an action (naming only those it newly waits on)."""
    old = {(w.key, who) for w in waits(before) for who in w.on}
    events = []
    for w in waits(after):
        on = [who for who in w.on if (w.key, who) not in old]
        if on:
            event = {"type": "waiting", "kind": w.kind, "key": w.key, "on": on, **w.about}
            events.append(event | ({"only": GM_ONLY} if w.secret else {}))
    return events


def reminders(state: CampaignState) -> list[Reminder]:
    """One reminder per wait on a player who asked for them, after the hours they chose."""
    out = []
    for w in waits(state):
        for who in w.on:
            calls = state.calls.get(who)
            if calls is not None and calls.remind_after is not None and calls.how != "off":
                out.append(Reminder(player=who, key=w.key, after=calls.remind_after * HOUR_S))
    return out


def after_action(w: Work, before: CampaignState) -> None:
    """Emit a ``waiting`` event for each wait the action began."""
    for event in begun(before, w.s):
        w.events.append(event)


def _set_calls(w: Work, a: SetCalls) -> None:
    who = a.owner or w.actor
    calls = Calls(how=a.how, remind_after=a.remind_after)
    w.put(calls={**w.s.calls, who: calls})
    w.emit("calls_set", only=[who, GM], user=who, how=a.how, remind_after=a.remind_after)


HANDLERS: dict[type[Action], Callable[[Work, Any], None]] = {SetCalls: _set_calls}
