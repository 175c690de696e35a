"""Violence (RULES.md P3, 3.6 #1–9, #43): the clash, the wounds and death tests, flight, the next round.

The clash is worked out by :func:`clash` from the round's dice and the decisions taken so far, so
nothing derived is stored: sides act in descending order of hits (3.6 #5); each first cancels hits
sent at it, then sends what is left to sides with strictly fewer hits (3.6 #2–4); finally each
attacker picks which combatants its landed hits wound. A decision is asked for only when there is a
real choice; the first open one is :attr:`Clash.need`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from rules.engine import IllegalAction
from rules.said import said
from rules.viciousness.actions import (
    Action,
    AimHits,
    AssignHits,
    CancelHits,
    DeathTest,
    Equip,
    Flee,
    NextRound,
    Resolve,
)
from rules.viciousness.characters import end_pc, wound
from rules.viciousness.data import PROCEDURES
from rules.viciousness.dicepool import HIT_FACE, combatant, counts, is_rattled, report, roll_combatant, roll_one
from rules.viciousness.options import VicOptions
from rules.viciousness.state import (
    Aim,
    Assign,
    CampaignState,
    Cancel,
    Combatant,
    DeathDue,
    Landed,
    Side,
    ViolencePool,
)
from rules.viciousness.work import Work

DEATH = PROCEDURES.violence.death_test
MEDICAL_WINDOW_ROUNDS = DEATH.medical_window_seconds // PROCEDURES.violence.round_seconds
HIT_RULE = said("A hit is a die showing exactly 4, on any die.")


@dataclass(frozen=True)
class Need:
    """The clash decision the fight waits for."""

    kind: Literal["cancel", "assign", "aim"]
    side: str
    amount: int
    """cancel: hits to cancel (at most this many, unless ``exact``); assign: hits to send; aim: combatants to pick."""
    exact: bool = True
    options: dict[str, int] = field(default_factory=dict)
    """cancel: incoming hits by attacking side; assign: sides that may be hit, with their hits."""
    target: str | None = None
    choices: tuple[str, ...] = ()
    """aim: the target's combatants still standing."""


@dataclass
class Clash:
    """The clash of the current round as far as the decisions so far take it."""

    hits: dict[str, int]
    order: tuple[str, ...]
    sent: dict[tuple[str, str], int] = field(default_factory=dict)
    cancelled: dict[tuple[str, str], int] = field(default_factory=dict)
    aimed: dict[tuple[str, str], tuple[str, ...]] = field(default_factory=dict)
    wasted: int = 0
    need: Need | None = None

    def landed(self, source: str, target: str) -> int:
        """Hits from ``source`` on ``target`` that were not cancelled."""
        return self.sent.get((source, target), 0) - self.cancelled.get((source, target), 0)


def fighters(pool: ViolencePool, side: str) -> list[Combatant]:
    """Combatants of ``side`` still fighting."""
    return [c for c in pool.combatants if c.side == side and c.status == "in"]


def fighting_sides(pool: ViolencePool) -> list[Side]:
    """Sides with someone still fighting."""
    return [s for s in pool.sides if fighters(pool, s.id)]


def pushers(state: CampaignState, pool: ViolencePool) -> list[Combatant]:
    """Fighters who may still push to reroll this roll: PCs standing, not rattled, who haven't pushed it yet."""
    return [
        c
        for c in pool.combatants
        if c.pc
        and c.status == "in"
        and not c.pushed
        and (pc := state.find_pc(c.id)) is not None
        and pc.active
        and not pc.rattled
    ]


def side_hits(pool: ViolencePool, side: Side) -> int:
    """Dice showing a hit among the side's fighters and its equipment dice."""
    dice = [d for c in fighters(pool, side.id) for d in c.dice] + list(side.equipment_dice)
    return sum(1 for d in dice if d.value == HIT_FACE)


def clash(pool: ViolencePool, options: VicOptions) -> Clash:
    """Work out the round's clash from the dice and ``pool.decisions`` (see the module docstring)."""
    sides = fighting_sides(pool)
    hits = {s.id: side_hits(pool, s) for s in sides}
    index = {s.id: i for i, s in enumerate(pool.sides)}
    order = tuple(sorted(hits, key=lambda s: (-hits[s], index[s])))
    result = Clash(hits=hits, order=order)
    taken: dict[tuple[str, str, str | None], Cancel | Assign | Aim] = {
        (d.kind, d.side, d.target if isinstance(d, Aim) else None): d for d in pool.decisions
    }
    # With auto_cancel off, cancelling is a real choice only with three or more sides (3.6 #3).
    choose_amount = not options.auto_cancel and len(sides) > 2
    for s in order:
        incoming = {src: result.sent[(src, s)] for src in order if result.sent.get((src, s))}
        most = min(hits[s], sum(incoming.values()))
        cancels: dict[str, int] = {}
        if most:
            decided = taken.get(("cancel", s, None))
            if isinstance(decided, Cancel):
                cancels = dict(decided.cancels)
            elif not choose_amount and most == sum(incoming.values()):
                cancels = incoming
            elif not choose_amount and len(incoming) == 1:
                cancels = {next(iter(incoming)): most}
            else:
                result.need = Need("cancel", s, most, exact=not choose_amount, options=incoming)
                return result
        for src, n in cancels.items():
            result.cancelled[(src, s)] = n
        left = hits[s] - sum(cancels.values())
        targets = [t for t in order if hits[t] < hits[s]]
        if not left or not targets:
            continue
        if len(targets) == 1:
            to = {targets[0]: left}
        else:
            decided = taken.get(("assign", s, None))
            if not isinstance(decided, Assign):
                result.need = Need("assign", s, left, options={t: hits[t] for t in targets})
                return result
            to = dict(decided.to)
        for t, n in to.items():
            if n:
                result.sent[(s, t)] = n
    hit: set[str] = set()
    for s, t in sorted(result.sent, key=lambda k: (order.index(k[0]), order.index(k[1]))):
        landed = result.landed(s, t)
        standing = tuple(c.id for c in fighters(pool, t) if c.id not in hit)
        k = min(landed, len(standing))
        result.wasted += landed - k
        if not k:
            continue
        if k == len(standing):
            at = standing
        else:
            decided = taken.get(("aim", s, t))
            if not isinstance(decided, Aim):
                result.need = Need("aim", s, k, target=t, choices=standing)
                return result
            at = decided.at
        result.aimed[(s, t)] = at
        hit.update(at)
    return result


def violence_pool(w: Work, pool_id: str) -> ViolencePool:
    """The open fight ``pool_id``."""
    pool = w.pool(pool_id)
    if not isinstance(pool, ViolencePool):
        raise IllegalAction(said("That pool is a scheme, not a fight."))
    return pool


def roll_violence(w: Work, pool: ViolencePool) -> None:
    """Clash phase: every side rolls at once (seed L67)."""
    if len(fighting_sides(pool)) < 2:
        raise IllegalAction(said("A fight needs combatants on at least two sides."))
    for c in pool.combatants:
        for due in c.death:
            if due.reason == "wound" and pool.round > due.round + MEDICAL_WINDOW_ROUNDS:
                raise IllegalAction(
                    said("{name}'s death test is due (30 seconds have passed): make it first.", name=c.name)
                )
    # Side by side, as the scenarios list them: each fighter's dice in joining order, then the side's equipment.
    rolled = {c.id: c for c in pool.combatants}
    sides = []
    for side in pool.sides:
        standing = fighters(pool, side.id)
        for c in standing:
            rolled[c.id] = roll_combatant(w, pool, c)
        stem = f"{pool.id}.r{pool.round}.eq-{side.id}"
        n = side.equipment if standing else 0
        dice = tuple(roll_one(w, f"{stem}.{k}", 4, "equipment", False) for k in range(n))
        sides.append(side.model_copy(update={"equipment_dice": dice}))
    pool = pool.model_copy(update={"combatants": tuple(rolled[c.id] for c in pool.combatants)})
    pool = pool.model_copy(update={"sides": tuple(sides), "stage": "rolled", "decisions": (), "landed": ()})
    w.put_pool(pool)
    w.emit("violence_rolled", pool=pool.id, round=pool.round, rule=HIT_RULE, sides=describe_sides(w, pool))
    settle_rolls(w, pool)


def free_rerolls(state: CampaignState, pool: ViolencePool) -> bool:
    """Whether a fallout's free pushes may reroll someone's dice in this fight now (3.6 #15)."""
    lockout = state.company.lockout
    usable = lockout is not None and lockout.free_pushes > 0 and state.options.free_push_use != "immediate"
    return usable and any(c.pc and c.status == "in" for c in pool.combatants)


def settle_rolls(w: Work, pool: ViolencePool) -> None:
    """Once nobody may reroll any more (a push, a fallout's free push), the hits are worked out at once: no choice
    is left to wait for."""
    if not pushers(w.s, pool) and not free_rerolls(w.s, pool):
        work_out(w, pool)


def describe_sides(w: Work, pool: ViolencePool) -> list[dict[str, Any]]:
    """Each fighting side's dice and hits, for an event."""
    return [
        {
            "side": s.id,
            "name": s.name,
            "hits": side_hits(pool, s),
            "combatants": [report(pool, c, is_rattled(w.s, c)) for c in fighters(pool, s.id)],
            "equipment": [{"die": d.id, "value": d.value, "counts": counts(pool, d)} for d in s.equipment_dice],
        }
        for s in fighting_sides(pool)
    ]


def _resolve(w: Work, a: Resolve) -> None:
    pool = violence_pool(w, a.pool)
    if pool.stage != "rolled":
        raise IllegalAction(said("There is no fresh roll to resolve in this fight."))
    work_out(w, pool)


def work_out(w: Work, pool: ViolencePool) -> None:
    """Close the round's rerolls and work out the hits: the clash, as far as it goes without a decision."""
    pool = pool.model_copy(update={"stage": "clash"})
    w.put_pool(pool)
    result = clash(pool, w.s.options)
    w.emit("clash", pool=pool.id, round=pool.round, hits=result.hits, order=list(result.order))
    advance_clash(w, pool)


def advance_clash(w: Work, pool: ViolencePool) -> None:
    """Once no clash decision is open, the hits land: the wound phase."""
    result = clash(pool, w.s.options)
    if result.need is not None:
        return
    landed = tuple(
        Landed(
            side=s, target=t, sent=n, cancelled=result.cancelled.get((s, t), 0), wounded=result.aimed.get((s, t), ())
        )
        for (s, t), n in result.sent.items()
    )
    names = {c.id: c.name for c in pool.combatants}
    for hit in landed:
        w.emit(
            "hits",
            pool=pool.id,
            round=pool.round,
            side=hit.side,
            target=hit.target,
            sent=hit.sent,
            cancelled=hit.cancelled,
            landed=hit.landed,
            wounded=list(hit.wounded),
            names=[names[c] for c in hit.wounded],  # the log names them after the fight too
        )
    wounded = {cid for at in result.aimed.values() for cid in at}
    updated = []
    for c in pool.combatants:
        if c.id in wounded:
            c = c.model_copy(
                update={"status": "wounded", "death": (*c.death, DeathDue(reason="wound", round=pool.round))}
            )
            if c.pc:
                wound(w, c.id, "violence")
            else:
                w.emit("npc_wounded", pool=pool.id, who=c.id, name=c.name)
        updated.append(c)
    pool = pool.model_copy(update={"combatants": tuple(updated), "stage": "wounds", "landed": landed})
    w.put_pool(pool)
    if result.wasted:
        w.emit("hits_wasted", pool=pool.id, n=result.wasted)
    after_wounds(w, pool)


def _pending_tests(pool: ViolencePool) -> bool:
    return any(c.death for c in pool.combatants)


def after_wounds(w: Work, pool: ViolencePool) -> None:
    """Immediate death tests hold the fight in the wound phase; then flight, or the end of the crisis (fewer than
    two sides left, or the GM ended the fight during the round)."""
    if w.s.options.death_test_timing == "immediate" and _pending_tests(pool):
        return
    if len(fighting_sides(pool)) < 2 or pool.ending:
        end_crisis(w, pool)
        return
    w.put_pool(pool.model_copy(update={"stage": "flight"}))
    w.emit("flight", pool=pool.id, round=pool.round)


def end_crisis(w: Work, pool: ViolencePool) -> None:
    """The fight is over: Berzerkers who pushed test for death, wounded or not (3.6 #43); then it closes."""
    updated = tuple(
        c.model_copy(update={"death": (*c.death, DeathDue(reason="berserk", round=pool.round))})
        if c.berserk and c.status != "dead"
        else c
        for c in pool.combatants
    )
    pool = pool.model_copy(update={"combatants": updated, "stage": "ended"})
    w.put_pool(pool)
    if _pending_tests(pool):
        w.emit("fight_ending", pool=pool.id, waiting=[c.id for c in pool.combatants if c.death])
        return
    w.drop_pool(pool.id)
    w.emit("fight_ended", pool=pool.id, rounds=rounds_fought(pool))


def rounds_fought(pool: ViolencePool) -> int:
    """Rounds whose dice were rolled: a round begun but ended before its roll doesn't count."""
    rolled = any(c.dice for c in pool.combatants) or any(s.equipment_dice for s in pool.sides)
    return pool.round if rolled else pool.round - 1


def end_after_round(w: Work, pool: ViolencePool) -> None:
    """The GM ends the fight once its dice are rolled: this round's hits and death tests are made, then it is
    over without a flight phase."""
    if pool.ending:
        raise IllegalAction(said("The fight already ends with this round."))
    w.put_pool(pool.model_copy(update={"ending": True}))
    w.emit("fight_ends_after_round", pool=pool.id, round=pool.round)


def _equip(w: Work, a: Equip) -> None:
    pool = violence_pool(w, a.pool)
    if pool.stage != "gather":
        raise IllegalAction(said("Equipment dice are given before the round's roll."))
    if all(s.id != a.side for s in pool.sides):
        raise IllegalAction(said("There is no such side in this fight."))
    sides = tuple(s.model_copy(update={"equipment": a.n if s.id == a.side else 0}) for s in pool.sides)
    w.put_pool(pool.model_copy(update={"sides": sides}))
    w.emit("equipment", pool=pool.id, side=a.side, n=a.n)


def _decide(w: Work, pool_id: str, side: str, kind: str, decision: Cancel | Assign | Aim) -> None:
    pool = violence_pool(w, pool_id)
    need = clash(pool, w.s.options).need if pool.stage == "clash" else None
    if need is None or need.kind != kind or need.side != side:
        raise IllegalAction(said("The fight isn't waiting for that decision now."))
    _check(need, decision)
    pool = pool.model_copy(update={"decisions": (*pool.decisions, decision)})
    w.put_pool(pool)
    w.emit("clash_decision", pool=pool.id, decision=decision.model_dump(mode="json"))
    advance_clash(w, pool)


def _check(need: Need, d: Cancel | Assign | Aim) -> None:
    if isinstance(d, Aim):
        if d.target != need.target:
            raise IllegalAction(said("Those hits land on another side."))
        if len(set(d.at)) != len(d.at) or not set(d.at) <= set(need.choices):
            raise IllegalAction(said("Pick different combatants still standing on that side."))
        if len(d.at) != need.amount:
            raise IllegalAction(
                said("Pick exactly {n} combatant.", n=need.amount)
                if need.amount == 1
                else said("Pick exactly {n} combatants.", n=need.amount)
            )
        return
    amounts = dict(d.cancels if isinstance(d, Cancel) else d.to)
    if not set(amounts) <= set(need.options):
        raise IllegalAction(
            said("Hits can only be cancelled from sides that sent them.")
            if isinstance(d, Cancel)
            else said("Hits can only be sent to sides with fewer hits (sides with equal hits can't hit each other).")
        )
    if isinstance(d, Cancel) and any(n > need.options[s] for s, n in amounts.items()):
        raise IllegalAction(said("That cancels more hits than that side sent."))
    total = sum(amounts.values())
    if total > need.amount or (need.exact and total != need.amount):
        if not need.exact:
            raise IllegalAction(said("Cancel at most {n} hits.", n=need.amount))
        if isinstance(d, Cancel):
            raise IllegalAction(said("Cancel exactly {n} hits.", n=need.amount))
        raise IllegalAction(said("Send exactly {n} hits.", n=need.amount))


def _cancel(w: Work, a: CancelHits) -> None:
    _decide(w, a.pool, a.side, "cancel", Cancel(side=a.side, cancels=tuple(sorted(a.cancels.items()))))


def _assign(w: Work, a: AssignHits) -> None:
    _decide(w, a.pool, a.side, "assign", Assign(side=a.side, to=tuple(sorted(a.to.items()))))


def _aim(w: Work, a: AimHits) -> None:
    _decide(w, a.pool, a.side, "aim", Aim(side=a.side, target=a.target, at=a.at))


def _death_test(w: Work, a: DeathTest) -> None:
    pool = violence_pool(w, a.pool)
    if a.who is None:
        # Every test waiting, in one step: each still rolled (and told) on its own, without care.
        if a.care != "none" or a.medic is not None:
            raise IllegalAction(said("Care is chosen for one combatant at a time: name who is cared for."))
        waiting = [c.id for c in pool.combatants if c.death]
        if not waiting:
            raise IllegalAction(said("No death test is waiting in this fight."))
    elif a.end:
        raise IllegalAction(said("The fight ends with every death test made at once."))
    else:
        waiting = [a.who]
    if a.end and pool.stage in ("wounds", "ended") and not pool.ending:
        end_after_round(w, pool)
        pool = violence_pool(w, a.pool)
    for who in waiting:
        pool = _test(w, pool, who, a.care, a.medic)
        while a.who is None and combatant(pool, who).death and combatant(pool, who).status != "dead":
            pool = _test(w, pool, who, a.care, a.medic)
    if _pending_tests(pool):
        return
    if pool.stage == "wounds":
        after_wounds(w, pool)
    elif pool.stage == "ended" or a.end:
        end_crisis(w, pool)


def _test(w: Work, pool: ViolencePool, who: str, care: str, medic_id: str | None) -> ViolencePool:
    """One death test of ``who`` (their first one waiting); the pool after it."""
    c = combatant(pool, who)
    if not c.death:
        raise IllegalAction(said("{name} has no death test waiting.", name=c.name))
    due = c.death[0]
    if medic_id is not None:
        medic = w.active_pc(medic_id)
        if care != "medic":
            raise IllegalAction(said("A medic is named only for care by a Medic."))
        if not medic.has_trait("Medic") or medic.wounded or medic.id == c.id:
            raise IllegalAction(
                said("{name} can't attend: it takes an unwounded Medic other than the patient.", name=medic.name)
            )
    roll = None
    died = False
    if care != "medic":
        # A Medic's patient is not in danger of dying (seed L48): no roll at all.
        limit = DEATH.with_medical_attention if care == "attention" else DEATH.dies_on_or_below
        stem = f"{pool.id}.r{due.round}" if due.reason == "wound" else f"{pool.id}.end"
        roll = w.roll(f"{stem}.death.{c.id}", 4)
        died = roll <= limit
    c = c.model_copy(update={"death": () if died else c.death[1:], "status": "dead" if died else c.status})
    pool = pool.model_copy(update={"combatants": tuple(c if x.id == c.id else x for x in pool.combatants)})
    w.put_pool(pool)
    w.emit(
        "death_test",
        pool=pool.id,
        who=c.id,
        name=c.name,
        reason=due.reason,
        care=care,
        medic=medic_id,
        roll=roll,
        died=died,
    )
    if died and c.pc:
        end_pc(w, c.id, "dead", "violence")
    return pool


def _flee(w: Work, a: Flee) -> None:
    pool = violence_pool(w, a.pool)
    if pool.stage != "flight":
        raise IllegalAction(said("Combatants flee in the flight phase, after the wounds."))
    c = combatant(pool, a.who)
    if c.status != "in":
        raise IllegalAction(said("{name} is no longer fighting.", name=c.name))
    c = c.model_copy(update={"status": "fled"})
    w.put_pool(pool.model_copy(update={"combatants": tuple(c if x.id == c.id else x for x in pool.combatants)}))
    w.emit("fled", pool=pool.id, who=c.id, name=c.name)


def _next_round(w: Work, a: NextRound) -> None:
    pool = violence_pool(w, a.pool)
    if pool.stage != "flight":
        raise IllegalAction(said("The next round starts after the flight phase."))
    if len(fighting_sides(pool)) < 2:
        end_crisis(w, pool)
        return
    fresh = tuple(c.model_copy(update={"dice": (), "pushed": False, "rerolls": 0}) for c in pool.combatants)
    sides = tuple(s.model_copy(update={"equipment_dice": ()}) for s in pool.sides)
    pool = pool.model_copy(
        update={
            "round": pool.round + 1,
            "stage": "gather",
            "combatants": fresh,
            "sides": sides,
            "decisions": (),
            "landed": (),
        }
    )
    w.put_pool(pool)
    w.emit("round_started", pool=pool.id, round=pool.round)


HANDLERS: dict[type[Action], Callable[[Work, Any], None]] = {
    Resolve: _resolve,
    Equip: _equip,
    CancelHits: _cancel,
    AssignHits: _assign,
    AimHits: _aim,
    DeathTest: _death_test,
    Flee: _flee,
    NextRound: _next_round,
}
