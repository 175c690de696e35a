"""What violence and knavery pools share: which dice a combatant brings, rolling them, free pushes.

Die ids (every die comes from the dice source under one of these names):

==============================================  ================================================
``<pool>.r<round>.<who>.<k>``                   a fighter's k-th die (0 = the base d4) in a round
``<pool>.<who>.<k>``                            a schemer's k-th die (0 = the base d6)
``<pool>.r<round>.eq-<side>.<k>``               the GM's equipment d4s for a side
``<die id>.2``                                  the second roll of a rattled PC's die (lower kept)
``<pool>[.r<round>].<who>.re<n>.<k>``           the n-th reroll of that PC's k-th die
``<pool>.r<round>.death.<who>``                 the death test after a wound in that round
``<pool>.end.death.<who>``                      a Berzerker's death test at the end of the crisis
==============================================  ================================================

``<who>`` is the PC id (``<owner>.<n>``) or an NPC's ``n<k>``; a combatant's dice are in the order
base die, picked trait clauses (in the PC's trait order), granted extras, the Berzerker push die.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules.engine import IllegalAction
from rules.said import said
from rules.viciousness.catalogue import find_trait
from rules.viciousness.data import PROCEDURES, SIDES
from rules.viciousness.state import CampaignState, Combatant, KnaveryPool, Pool, PoolDie, ViolencePool, owner_of
from rules.viciousness.work import Work

VIOLENCE_BASE = SIDES[PROCEDURES.violence.base_die]
KNAVERY_BASE = SIDES[PROCEDURES.knavery.base_die]
HIT_FACE = PROCEDURES.violence.hit_face
SUCCESS_AT = PROCEDURES.knavery.success_at_or_above
FREE_PUSH_FACE = PROCEDURES.knavery.free_push_face


def prefix(pool: Pool, who: str) -> str:
    """The stem of the die ids of ``who`` in ``pool`` this round."""
    if isinstance(pool, ViolencePool):
        return f"{pool.id}.r{pool.round}.{who}"
    return f"{pool.id}.{who}"


def dice_plan(state: CampaignState, pool: Pool, c: Combatant) -> list[tuple[int, str]]:
    """Sides and source of each die ``c`` puts in ``pool``, in rolling order."""
    plan = [(VIOLENCE_BASE if isinstance(pool, ViolencePool) else KNAVERY_BASE, "base")]
    for pick in c.picks:
        trait = find_trait(state, pick.trait)
        assert trait is not None, "picks are checked when they are made"
        clause = trait.dice[pick.clause]
        plan += [(SIDES[clause.die], trait.name)] * clause.n
    plan += [(sides, "extra") for sides in c.extra]
    if c.berserk:
        plan.append((SIDES["d4"], "push"))
    return plan


def roll_one(w: Work, die_id: str, sides: int, source: str, rattled: bool) -> PoolDie:
    """Roll one pool die; a rattled PC's die is rolled twice (``<id>.2``) and the lower counts."""
    first = w.roll(die_id, sides)
    rolls = (first, w.roll(f"{die_id}.2", sides)) if rattled else (first,)
    return PoolDie(id=die_id, sides=sides, source=source, rolls=rolls)


def is_rattled(state: CampaignState, c: Combatant) -> bool:
    """Whether the combatant is a rattled PC."""
    pc = state.find_pc(c.id) if c.pc else None
    return bool(pc and pc.rattled)


def roll_combatant(w: Work, pool: Pool, c: Combatant) -> Combatant:
    """Roll every die ``c`` brings (fresh for this roll: no push used yet)."""
    rattled = is_rattled(w.s, c)
    stem = prefix(pool, c.id)
    dice = tuple(roll_one(w, f"{stem}.{k}", s, src, rattled) for k, (s, src) in enumerate(dice_plan(w.s, pool, c)))
    return c.model_copy(update={"dice": dice, "pushed": False, "rerolls": 0})


def counts(pool: Pool, die: PoolDie) -> bool:
    """Whether a die counts: a hit shows exactly 4 in violence (3.6 #1); a success shows 4+ in knavery."""
    return die.value == HIT_FACE if isinstance(pool, ViolencePool) else die.value >= SUCCESS_AT


def report(pool: Pool, c: Combatant, rattled: bool) -> dict[str, Any]:
    """A combatant's dice for an event: both values of a rattled die, the kept one, whether it counts."""
    return {
        "who": c.id,
        "name": c.name,
        "rattled": rattled,
        "dice": [
            {"die": d.id, "sides": d.sides, "source": d.source, "rolls": list(d.rolls), "value": d.value}
            | {"counts": counts(pool, d)}
            | ({"free_push": d.value == FREE_PUSH_FACE} if isinstance(pool, KnaveryPool) else {})
            for d in c.dice
        ],
    }


def combatant(pool: Pool, who: str) -> Combatant:
    """The combatant ``who`` of ``pool``."""
    found = next((c for c in pool.combatants if c.id == who), None)
    if found is None:
        raise IllegalAction(said("That character isn't in this pool."))
    return found


def with_combatant(pool: Pool, c: Combatant) -> Pool:
    """``pool`` with combatant ``c`` replaced."""
    return pool.model_copy(update={"combatants": tuple(c if x.id == c.id else x for x in pool.combatants)})


def spend_free_push(w: Work, pool: Pool | None) -> str:
    """Spend one free push (3.6 #15): the failed scheme's own right after its roll, else the fallout's.

    Returns where it came from: ``scheme`` or ``fallout``.
    """
    use = w.s.options.free_push_use
    if isinstance(pool, KnaveryPool) and pool.stage == "failed" and pool.free_pushes and use != "fallout":
        w.put_pool(pool.model_copy(update={"free_pushes": pool.free_pushes - 1}))
        return "scheme"
    lockout = w.s.company.lockout
    if lockout is not None and lockout.free_pushes and use != "immediate":
        w.company(lockout=lockout.model_copy(update={"free_pushes": lockout.free_pushes - 1}))
        return "fallout"
    if use == "immediate" and lockout is not None and lockout.free_pushes:
        raise IllegalAction(
            said("Free pushes are only spent right after the failed roll (vic.free_push_use=immediate).")
        )
    raise IllegalAction(said("There is no free push to spend."))


def rollers(events: Sequence[Mapping[str, Any]]) -> list[tuple[str, str]]:
    """Who rolled each die of a pool, for the luck statistics: a PC's dice (a rattled die's second roll too, and
    every reroll) are their player's, whoever's click rolled them (the GM's *Roll*, the join that made the pool roll
    by itself); an NPC's and a side's equipment dice are nobody's. Every one of them is shown to the table as it is
    rolled; the GM's secret dice (a rival's) are in no such event."""
    rolled: list[tuple[str, str]] = []
    for event in events:
        kind = event.get("type")
        if kind == "knavery_rolled":
            reports = list(event.get("combatants", []))
        elif kind == "violence_rolled":
            reports = [c for side in event.get("sides", []) for c in side.get("combatants", [])]
        elif kind == "rerolled":  # the dice it rolled again (all of them, or those picked): a new id each
            before = {str(d["die"]) for d in event.get("before", [])}
            reports = [{"who": event["who"], "dice": [d for d in event.get("after", []) if d["die"] not in before]}]
        else:
            continue
        for c in reports:
            player = owner_of(str(c["who"]))
            if not player:
                continue  # an NPC
            for d in c.get("dice", []):
                rolled.append((player, str(d["die"])))
                if len(d.get("rolls", ())) == 2:
                    rolled.append((player, f"{d['die']}.2"))
    return rolled
