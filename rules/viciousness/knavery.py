"""Knavery (RULES.md P4, 3.6 #15–18): challenges, the roll, and a failed scheme's thwarted challenges and fallout."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules.engine import IllegalAction
from rules.said import said
from rules.viciousness.actions import Action, SetChallenges, Thwart
from rules.viciousness.dicepool import FREE_PUSH_FACE, is_rattled, report, roll_combatant
from rules.viciousness.state import CampaignState, Challenge, Combatant, KnaveryPool, Lockout
from rules.viciousness.work import Work

SUCCESS_RULE = said("A success is a die showing 4 or more; each 6 is a free push if the scheme fails.")


def challenges(total: int, known: tuple[str, ...]) -> tuple[Challenge, ...]:
    """``total`` challenges, the known ones first (labelled), the rest unknown to the group."""
    if len(known) > total:
        raise IllegalAction(said("{known} known challenges, but only {total} in all.", known=len(known), total=total))
    return tuple(Challenge(label=k, known=True) for k in known) + (Challenge(),) * (total - len(known))


def label(pool: KnaveryPool, index: int) -> str:
    """A challenge as the group knows it."""
    c = pool.challenges[index]
    return c.label if c.known else said("unknown challenge {n}", n=index + 1)


def knavery_pool(w: Work, pool_id: str) -> KnaveryPool:
    """The open scheme ``pool_id``."""
    pool = w.pool(pool_id)
    if not isinstance(pool, KnaveryPool):
        raise IllegalAction(said("That pool is a fight, not a scheme."))
    return pool


def check_group(w: Work, participants: int) -> None:
    """While a fallout lasts, each PC rolls alone (seed L86, 3.6 #17)."""
    if w.s.company.lockout is not None and participants > 1:
        raise IllegalAction(said("Group rolls are locked until the GM clears the fallout: each PC rolls solo."))


def roll_knavery(w: Work, pool: KnaveryPool) -> None:
    """The roll (seed L86): successes thwart challenges; 6s are free pushes if it fails."""
    if not pool.combatants:
        raise IllegalAction(said("Nobody has joined the scheme yet."))
    check_group(w, len(pool.combatants))
    if not pool.challenges:
        w.drop_pool(pool.id)
        w.emit(
            "scheme_succeeded",
            pool=pool.id,
            successes=0,
            challenges=0,
            free_pushes=0,
            note=said("no challenges: no roll needed"),
        )
        return
    rolled = tuple(roll_combatant(w, pool, c) for c in pool.combatants)
    pool = pool.model_copy(update={"combatants": rolled})
    sixes = sum(1 for c in rolled for d in c.dice if d.value == FREE_PUSH_FACE)
    w.emit(
        "knavery_rolled",
        pool=pool.id,
        rule=SUCCESS_RULE,
        combatants=[report(pool, c, is_rattled(w.s, c)) for c in rolled],
        successes=pool.successes,
        challenges=len(pool.challenges),
        free_pushes=sixes,
    )
    settle(w, pool.model_copy(update={"free_pushes": sixes}))


def settle(w: Work, pool: KnaveryPool) -> None:
    """After a roll or a reroll: success closes the scheme; a failure waits for its thwarted challenges."""
    if pool.successes >= len(pool.challenges):
        w.drop_pool(pool.id)
        w.emit(
            "scheme_succeeded",
            pool=pool.id,
            successes=pool.successes,
            challenges=len(pool.challenges),
            free_pushes=pool.free_pushes,
            note="",
        )
        return
    first = pool.stage != "failed"
    pool = pool.model_copy(update={"stage": "failed"})
    w.put_pool(pool)
    if first:
        w.emit(
            "scheme_failing",
            pool=pool.id,
            successes=pool.successes,
            challenges=len(pool.challenges),
            free_pushes=pool.free_pushes,
            chooser="group" if pool.prepared else "gm",
        )
    if pool.successes == 0 and not can_reroll(w.s, pool):
        fail(w, pool, ())


def scheme_pushers(state: CampaignState, pool: KnaveryPool) -> list[Combatant]:
    """Schemers who may still push to reroll: active PCs, not rattled, who haven't pushed in this scheme."""
    return [
        c
        for c in pool.combatants
        if c.pc and (pc := state.find_pc(c.id)) is not None and pc.active and not pc.rattled and not c.pushed
    ]


def free_push_left(state: CampaignState, pool: KnaveryPool) -> bool:
    """Whether a free push may be spent now: the failed scheme's own, or a fallout's (3.6 #15)."""
    use = state.options.free_push_use
    lockout = state.company.lockout
    return bool(pool.free_pushes and use != "fallout") or bool(
        lockout is not None and lockout.free_pushes and use != "immediate"
    )


def can_reroll(state: CampaignState, pool: KnaveryPool) -> bool:
    """Whether anyone could still reroll in the failed scheme (a push, or a free push)."""
    return free_push_left(state, pool) or bool(scheme_pushers(state, pool))


def fail(w: Work, pool: KnaveryPool, thwarted: tuple[int, ...]) -> None:
    """The scheme has failed: group rolls lock and the free pushes are kept for the fallout."""
    kept = pool.free_pushes if w.s.options.free_push_use != "immediate" else 0
    old = w.s.company.lockout
    w.company(lockout=Lockout(free_pushes=(old.free_pushes if old else 0) + kept))
    w.drop_pool(pool.id)
    w.emit(
        "scheme_failed",
        pool=pool.id,
        thwarted=[label(pool, i) for i in thwarted],
        active=[label(pool, i) for i in range(len(pool.challenges)) if i not in thwarted],
        free_pushes=kept,
        group_rolls_locked=True,
    )


def _thwart(w: Work, a: Thwart) -> None:
    pool = knavery_pool(w, a.pool)
    if pool.stage != "failed":
        raise IllegalAction(said("Challenges are thwarted after a failed roll."))
    n = pool.successes
    if len(set(a.picks)) != len(a.picks) or any(not 0 <= i < len(pool.challenges) for i in a.picks):
        raise IllegalAction(said("Pick different challenges, numbered 0 to {last}.", last=len(pool.challenges) - 1))
    if len(a.picks) != n:
        raise IllegalAction(
            said("{n} success: pick exactly {n} thwarted challenge.", n=n)
            if n == 1
            else said("{n} successes: pick exactly {n} thwarted challenges.", n=n)
        )
    fail(w, pool, tuple(sorted(a.picks)))


def _challenges(w: Work, a: SetChallenges) -> None:
    pool = knavery_pool(w, a.pool)
    if pool.stage != "gather":
        raise IllegalAction(said("The scheme's dice are rolled already."))
    w.put_pool(pool.model_copy(update={"challenges": challenges(a.total, a.known)}))
    w.emit("challenges", pool=pool.id, total=a.total, known=list(a.known), prepared=len(a.known) == a.total)


HANDLERS: dict[type[Action], Callable[[Work, Any], None]] = {Thwart: _thwart, SetChallenges: _challenges}
