"""What the campaign is waiting for, so the cog can offer exactly the legal choices.

:func:`pending` lists the decisions open on one record (a pool or a rival); :func:`choices_for`
lists every decision a given actor may take now. A :class:`Decision` names the action type to send,
the fields it must carry, and what may be chosen (``options``, ``pick`` of them).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, SkipValidation

from rules.engine import GM, GM_ROLES
from rules.said import Said, said
from rules.viciousness.knavery import can_reroll
from rules.viciousness.permissions import side_players
from rules.viciousness.state import CampaignState, Combatant, KnaveryPool, Pool, Rival, ViolencePool, owner_of
from rules.viciousness.violence import clash, pushers


class Decision(BaseModel):
    """One decision someone may take now."""

    model_config = ConfigDict(frozen=True)

    scope: str
    """The record it belongs to: ``pool:t1p2``, ``rival:r1``, ``troupe:<owner>``, ``turn``."""
    action: str
    """The action ``type`` to send."""
    label: SkipValidation[str]
    """What it is, for a person: a ``Said`` (kept as it is, unvalidated), to ``localize``."""
    by: tuple[str, ...]
    """Actor ids who may take it; ``gm`` stands for the GM and co-GMs (who may take every decision)."""
    fields: dict[str, Any] = {}
    """Fields the action must carry as given."""
    options: tuple[str, ...] = ()
    """What may be chosen (combatant ids, side ids, challenge positions, design ids)."""
    pick: int | None = None
    """How many of ``options`` to choose (hits to place, challenges thwarted…)."""


def _players(state: CampaignState, c: Combatant) -> tuple[str, ...]:
    """Who plays a combatant besides the GM: the owner of a PC the GM doesn't portray."""
    pc = state.find_pc(c.id) if c.pc else None
    return (owner_of(pc.id),) if pc is not None and not pc.gm_controlled else ()


def _for_combatant(state: CampaignState, pool: Pool, c: Combatant, action: str, label: str) -> Decision:
    """A decision taken for one combatant: by the player of that PC, or the GM."""
    return Decision(
        scope=f"pool:{pool.id}",
        action=action,
        label=label,
        by=(*_players(state, c), GM),
        fields={"pool": pool.id, "who": c.id},
    )


def _hits_label(cancel: bool, exact: bool, n: int) -> Said:
    """The label of a clash decision: cancelling or sending ``n`` hits (``exact``: all of them)."""
    if cancel:
        return said("cancel {n} hits", n=n) if exact else said("cancel up to {n} hits", n=n)
    return said("send {n} hits", n=n) if exact else said("send up to {n} hits", n=n)


def _violence(state: CampaignState, pool: ViolencePool) -> list[Decision]:
    scope = f"pool:{pool.id}"
    base = {"pool": pool.id}
    out: list[Decision] = []
    standing = [c for c in pool.combatants if c.status == "in"]
    if pool.stage == "gather":
        out += [
            _for_combatant(state, pool, c, "pick", said("choose {name}'s trait dice", name=c.name))
            for c in standing
            if c.pc
        ]
        out.append(Decision(scope=scope, action="roll", label=said("roll the round"), by=(GM,), fields=base))
    elif pool.stage == "rolled":
        for c in pushers(state, pool):
            out.append(_for_combatant(state, pool, c, "reroll", said("push: reroll {name}'s dice", name=c.name)))
        out.append(Decision(scope=scope, action="resolve", label=said("work out the hits"), by=(GM,), fields=base))
    elif pool.stage == "clash":
        need = clash(pool, state.options).need
        if need is not None:
            by = (*sorted(side_players(state, pool.id, need.side)), GM)
            fields = {**base, "side": need.side}
            if need.kind == "aim":
                out.append(
                    Decision(
                        scope=scope,
                        action="aim",
                        label=said("choose who the {n} hits wound", n=need.amount),
                        by=by,
                        fields={**fields, "target": need.target},
                        options=need.choices,
                        pick=need.amount,
                    )
                )
            else:
                out.append(
                    Decision(
                        scope=scope,
                        action=need.kind,
                        label=_hits_label(need.kind == "cancel", need.exact, need.amount),
                        by=by,
                        fields=fields,
                        options=tuple(need.options),
                        pick=need.amount,
                    )
                )
    elif pool.stage == "flight":
        out += [_for_combatant(state, pool, c, "flee", said("{name}: flee or fight on", name=c.name)) for c in standing]
        out.append(Decision(scope=scope, action="next_round", label=said("next round"), by=(GM,), fields=base))
    out += [
        Decision(
            scope=scope,
            action="death_test",
            label=said("death test for {name}", name=c.name),
            by=(GM,),
            fields={**base, "who": c.id},
            options=("none", "attention", "medic"),
        )
        for c in pool.combatants
        if c.death
    ]
    return out


def _knavery(state: CampaignState, pool: KnaveryPool) -> list[Decision]:
    scope = f"pool:{pool.id}"
    base = {"pool": pool.id}
    if pool.stage == "gather":
        out = [
            _for_combatant(state, pool, c, "pick", said("choose {name}'s trait dice", name=c.name))
            for c in pool.combatants
            if c.pc
        ]
        return [*out, Decision(scope=scope, action="roll", label=said("roll the scheme"), by=(GM,), fields=base)]
    players = sorted({p for c in pool.combatants for p in _players(state, c)}) if pool.prepared else []
    out = [
        Decision(
            scope=scope,
            action="thwart",
            label=said("choose the {n} thwarted challenges", n=pool.successes),
            by=(*players, GM),
            fields=base,
            options=tuple(str(i) for i in range(len(pool.challenges))),
            pick=pool.successes,
        )
    ]
    if can_reroll(state, pool):
        for c in pool.combatants:
            pc = state.find_pc(c.id) if c.pc else None
            if pc is not None and pc.active:
                out.append(_for_combatant(state, pool, c, "reroll", said("reroll {name}'s dice", name=c.name)))
    return out


def _rival(rival: Rival) -> list[Decision]:
    move = rival.move
    if move is None or rival.dropped:
        return []
    scope = f"rival:{rival.id}"
    base = {"rival": rival.id}
    if move.stage == "initiated":
        return [
            Decision(
                scope=scope,
                action="initiate",
                label=said("switch or hold back the initiated design"),
                by=(GM,),
                fields=base,
                options=move.eligible,
                pick=1,
            )
        ]
    if move.stage == "interference":
        return [
            Decision(
                scope=scope,
                action="interfere",
                label=said("did the PCs foil the unsubtle move?"),
                by=(GM,),
                fields=base,
            )
        ]
    if move.stage == "consequence":
        return [
            Decision(
                scope=scope,
                action="consequence",
                label=said("pick or roll the consequence"),
                by=(GM,),
                fields=base,
                options=tuple(str(i) for i in range(1, 7)),
            )
        ]
    return [Decision(scope=scope, action="confirm", label=said("confirm the consequence"), by=(GM,), fields=base)]


def pending(state: CampaignState, scope_id: str) -> list[Decision]:
    """Open decisions of a pool (``t1p2``) or a rival (``r1``); [] if it has none or doesn't exist."""
    pool: Pool | None = state.pools.get(scope_id)
    if isinstance(pool, ViolencePool):
        return _violence(state, pool)
    if isinstance(pool, KnaveryPool):
        return _knavery(state, pool)
    rival = state.rivals.get(scope_id)
    return _rival(rival) if rival is not None else []


def _campaign(state: CampaignState) -> list[Decision]:
    out = [
        Decision(
            scope="turn",
            action="turn_end" if state.turn.running else "turn_start",
            label=said("end the turn") if state.turn.running else said("start the next turn"),
            by=(GM,),
        )
    ]
    for owner, troupe in state.troupes.items():
        if troupe.pending_advancements and not troupe.dissolved:
            out.append(
                Decision(
                    scope=f"troupe:{owner}",
                    action="advance",
                    label=said("{troupe}: take an advancement", troupe=troupe.name),
                    by=(owner, GM),
                    fields={"owner": owner},
                )
            )
    return out


def choices_for(state: CampaignState, actor: str, roles: frozenset[str] = frozenset()) -> list[Decision]:
    """Every open decision ``actor`` (holding ``roles``) may take now, over the whole campaign."""
    everything = (
        _campaign(state)
        + [d for pid in state.pools for d in pending(state, pid)]
        + [d for rid in state.rivals for d in pending(state, rid)]
    )
    is_gm = bool(roles & GM_ROLES)
    return [d for d in everything if actor in d.by or (is_gm and GM in d.by)]
