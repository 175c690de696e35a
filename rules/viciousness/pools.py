"""Building dice pools together (RULES.md P3.1, P4.2, P5): open, join, pick trait dice, roll, reroll, close."""

from __future__ import annotations

from collections.abc import Callable
from string import ascii_lowercase
from typing import Any

from rules.engine import IllegalAction
from rules.said import Said, said
from rules.viciousness.actions import (
    Action,
    AddNPC,
    ClosePool,
    Grant,
    Join,
    Leave,
    OpenKnavery,
    OpenViolence,
    Pick,
    Reroll,
    RollPool,
    Veto,
)
from rules.viciousness.catalogue import find_trait, trait
from rules.viciousness.characters import give_back_action, rattle, take_action
from rules.viciousness.dicepool import (
    FREE_PUSH_FACE,
    combatant,
    prefix,
    report,
    roll_one,
    spend_free_push,
    with_combatant,
)
from rules.viciousness.knavery import challenges, check_group, roll_knavery, settle
from rules.viciousness.state import (
    PC,
    CampaignState,
    Combatant,
    KnaveryPool,
    Pool,
    PoolKind,
    Side,
    Sides,
    TraitPick,
    ViolencePool,
)
from rules.viciousness.violence import (
    describe_sides,
    end_after_round,
    end_crisis,
    fighting_sides,
    roll_violence,
    settle_rolls,
)
from rules.viciousness.work import Work


def _new_id(w: Work) -> str:
    turn = w.s.turn
    w.put(turn=turn.model_copy(update={"pools": turn.pools + 1}))
    return f"t{turn.number}p{turn.pools + 1}"


def _open_violence(w: Work, a: OpenViolence) -> None:
    sides = tuple(Side(id=ascii_lowercase[i], name=name) for i, name in enumerate(a.sides))
    if any(group.side >= len(sides) for group in a.npcs):
        raise IllegalAction(said("Those NPCs are on a side the fight doesn't have."))
    pool = ViolencePool(id=_new_id(w), title=a.title, sides=sides, roll_at=a.roll_at)
    w.put_pool(pool)
    w.emit(
        "pool_opened",
        pool=pool.id,
        kind="violence",
        title=a.title,
        sides=[{"side": s.id, "name": s.name} for s in sides],
        roll_at=a.roll_at,
    )
    for group in a.npcs:
        add_npcs(w, w.pool(pool.id), sides[group.side].id, group.name, group.count, group.dice)


def _open_knavery(w: Work, a: OpenKnavery) -> None:
    pool = KnaveryPool(id=_new_id(w), title=a.title, challenges=challenges(a.total, a.known), roll_at=a.roll_at)
    w.put_pool(pool)
    w.emit(
        "pool_opened",
        pool=pool.id,
        kind="knavery",
        title=a.title,
        total=a.total,
        known=list(a.known),
        prepared=pool.prepared,
        roll_at=a.roll_at,
    )


def _gathering(pool: Pool) -> None:
    if pool.stage != "gather":
        raise IllegalAction(
            said("This round's dice are rolled: wait for the next round.")
            if isinstance(pool, ViolencePool)
            else said("The scheme's dice are rolled already.")
        )


def _side(pool: Pool, side: str | None) -> str | None:
    if isinstance(pool, KnaveryPool):
        if side is not None:
            raise IllegalAction(said("A scheme has no sides."))
        return None
    if side is None:
        raise IllegalAction(said("Choose a side."))
    if all(s.id != side for s in pool.sides):
        raise IllegalAction(said("There is no such side in this fight."))
    return side


def _already_in(name: str, fight: bool, this: bool) -> Said:
    """The refusal for joining a pool while in one (``this`` one, or another; a ``fight`` or a scheme)."""
    if fight:
        return (
            said("{name} is already in this fight.", name=name)
            if this
            else said("{name} is already in another fight.", name=name)
        )
    return (
        said("{name} is already in this scheme.", name=name)
        if this
        else said("{name} is already in another scheme.", name=name)
    )


def _join(w: Work, a: Join) -> None:
    pool = w.pool(a.pool)
    pc = w.acting_pc(a.pc)
    _gathering(pool)
    side = _side(pool, a.side)
    for other in w.s.pools.values():
        if any(c.id == pc.id for c in other.combatants):
            raise IllegalAction(_already_in(pc.name, other.kind == "violence", other.id == pool.id))
    if isinstance(pool, ViolencePool) and pc.wounded:
        raise IllegalAction(said("{name} is wounded: a wounded character can't fight.", name=pc.name))
    if isinstance(pool, KnaveryPool):
        check_group(w, len(pool.combatants) + 1)
    # The dice the PC picked last time in such a pool, as far as they still hold (a trait may be gone).
    picks = usual_picks(w.s, pc, pool.kind)
    w.emit("joined", pool=pool.id, who=pc.id, name=pc.name, side=side, picks=[p.model_dump() for p in picks])
    # Taking part is the character's action for the turn (3.6 #46), told after the joining itself.
    spent = take_action(w, pc, pool.kind, exception=a.exception, pool=pool.id)
    c = Combatant(id=pc.id, name=pc.name, pc=True, side=side, spent=spent, picks=picks)
    w.put_pool(pool.model_copy(update={"combatants": (*pool.combatants, c)}))
    _roll_when_due(w, pool.id, a.may_roll)


def can_roll(pool: Pool) -> bool:
    """Whether a gathering pool has what a roll needs: two sides fighting, or a schemer."""
    return len(fighting_sides(pool)) > 1 if isinstance(pool, ViolencePool) else bool(pool.combatants)


def due(state: CampaignState, pool: Pool) -> bool:
    """Whether a pool the GM set to roll by itself should roll now: in its first round, with as many characters as
    the GM said, each with their trait dice (picked once for such a pool: their usual dice, or none to pick)."""
    if pool.roll_at is None or pool.stage != "gather" or (isinstance(pool, ViolencePool) and pool.round > 1):
        return False
    pcs = [pc for c in pool.combatants if c.pc and (pc := state.find_pc(c.id)) is not None]
    chosen = all(pool.kind in pc.usual or not _has_dice(state, pc) for pc in pcs)
    return len(pcs) >= pool.roll_at and chosen and can_roll(pool)


def _has_dice(state: CampaignState, pc: PC) -> bool:
    """Whether any of ``pc``'s traits gives dice."""
    return any((t := find_trait(state, held.name)) is not None and t.dice for held in pc.traits)


def _roll_when_due(w: Work, pool_id: str, may_roll: bool) -> None:
    """A join or a pick that completes a pool the GM set to roll by itself rolls it (such a change says it may roll:
    a roll is never taken back by an undo)."""
    pool = w.pool(pool_id)
    if pool.roll_at is not None and not may_roll:
        raise IllegalAction(
            said("This pool rolls by itself once {n} characters are in: this change may roll.", n=pool.roll_at)
        )
    if due(w.s, pool):
        w.emit("rolls_by_itself", pool=pool.id, n=pool.roll_at)
        _roll(w, RollPool(pool=pool.id))


def usual_picks(state: CampaignState, pc: PC, kind: PoolKind) -> tuple[TraitPick, ...]:
    """``pc``'s usual dice for a ``kind`` pool that still hold: their traits held, each add with its gain."""
    held: list[tuple[TraitPick, str]] = []
    for p in pc.usual.get(kind, ()):
        t = find_trait(state, p.trait)
        if t is not None and pc.has_trait(t.name) and p.clause < len(t.dice):
            held.append((p, t.dice[p.clause].when))
    gained = {p.trait for p, when in held if when == "gain"}
    return tuple(p for p, when in held if when == "gain" or p.trait in gained)


def joinable(state: CampaignState, pool: Pool, *, acted: bool = False) -> list[PC]:
    """The characters who may join ``pool`` now, of every troupe: active, in no pool, their troupe whole, not
    wounded for a fight, and with their action for the turn left (``acted``: only those who have acted)."""
    busy = {c.id for p in state.pools.values() for c in p.combatants}
    turn = state.turn
    return [
        pc
        for troupe in state.troupes.values()
        if not troupe.dissolved
        for pc in troupe.pcs
        if pc.active
        and pc.id not in busy
        and not (isinstance(pool, ViolencePool) and pc.wounded)
        and (turn.running and pc.action_turn == turn.number) == acted
    ]


def _add_npc(w: Work, a: AddNPC) -> None:
    pool = w.pool(a.pool)
    _gathering(pool)
    add_npcs(w, pool, _side(pool, a.side), a.name, a.count, a.dice)


def add_npcs(w: Work, pool: Pool, side: str | None, name: str, count: int, dice: tuple[Sides, ...]) -> None:
    """``count`` NPCs alike (``Guard 1``, ``Guard 2``… or just ``Guard``), each with its base die plus ``dice``."""
    if isinstance(pool, KnaveryPool):
        check_group(w, len(pool.combatants) + count)
    names = [name] if count == 1 else [f"{name} {i}" for i in range(1, count + 1)]
    new = tuple(Combatant(id=f"n{pool.npcs + i}", name=n, side=side, extra=dice) for i, n in enumerate(names, 1))
    w.put_pool(pool.model_copy(update={"combatants": pool.combatants + new, "npcs": pool.npcs + count}))
    w.emit("npcs_added", pool=pool.id, side=side, npcs=[{"who": c.id, "name": c.name} for c in new], dice=list(dice))


def _leave(w: Work, a: Leave) -> None:
    pool = w.pool(a.pool)
    c = combatant(pool, a.who)
    _gathering(pool)
    if c.death:
        raise IllegalAction(said("{name}'s death test comes first.", name=c.name))
    w.put_pool(pool.model_copy(update={"combatants": tuple(x for x in pool.combatants if x.id != c.id)}))
    w.emit("left_pool", pool=pool.id, who=c.id, name=c.name)
    if c.spent:
        give_back_action(w, c.id)


def _pick(w: Work, a: Pick) -> None:
    pool = w.pool(a.pool)
    c = combatant(pool, a.who)
    _gathering(pool)
    if not c.pc:
        raise IllegalAction(said("NPCs have no traits: the GM grants their dice."))
    pc = w.pc(c.id)
    picks: list[TraitPick] = []
    for p in a.picks:
        t = trait(w.s, p.trait)
        if not pc.has_trait(t.name):
            raise IllegalAction(said("{name} doesn't have {trait}.", name=pc.name, trait=t.name))
        if not t.dice:
            raise IllegalAction(said("{trait} gives no dice.", trait=t.name))
        if p.clause >= len(t.dice):
            raise IllegalAction(
                said("{trait} has {n} dice clause.", trait=t.name, n=1)
                if len(t.dice) == 1
                else said("{trait} has {n} dice clauses.", trait=t.name, n=len(t.dice))
            )
        picks.append(TraitPick(trait=t.name, clause=p.clause))
    if len(set(picks)) != len(picks):
        raise IllegalAction(said("Each dice clause counts once."))
    for p in picks:
        t = trait(w.s, p.trait)
        gains = {i for i, cl in enumerate(t.dice) if cl.when == "gain"}
        if t.dice[p.clause].when == "add" and not any(q.trait == p.trait and q.clause in gains for q in picks):
            raise IllegalAction(
                said(
                    "{trait}'s add die needs its gain die: "
                    "a gain condition must be met before an add condition applies.",
                    trait=t.name,
                )
            )
    order = [t.name for t in pc.traits]
    picks.sort(key=lambda p: (order.index(p.trait), p.clause))
    # The GM choosing a trait the GM vetoed lifts the veto (players are stopped by the permission check).
    vetoed = tuple(v for v in c.vetoed if all(p.trait != v for p in picks))
    w.put_pool(with_combatant(pool, c.model_copy(update={"picks": tuple(picks), "vetoed": vetoed})))
    w.emit("picked", pool=pool.id, who=c.id, picks=[p.model_dump() for p in picks])
    if pc.usual.get(pool.kind) != tuple(picks):  # remembered for the next pool of the kind
        w.update_pc(pc.id, usual={**pc.usual, pool.kind: tuple(picks)})
    _roll_when_due(w, pool.id, a.may_roll)


def _veto(w: Work, a: Veto) -> None:
    pool = w.pool(a.pool)
    c = combatant(pool, a.who)
    name = trait(w.s, a.trait).name
    picks = tuple(p for p in c.picks if p.trait != name)
    w.put_pool(with_combatant(pool, c.model_copy(update={"picks": picks, "vetoed": (*{*c.vetoed, name},)})))
    w.emit("vetoed", pool=pool.id, who=c.id, trait=name)


def _grant(w: Work, a: Grant) -> None:
    pool = w.pool(a.pool)
    c = combatant(pool, a.who)
    _gathering(pool)
    w.put_pool(with_combatant(pool, c.model_copy(update={"extra": a.dice})))
    w.emit("granted", pool=pool.id, who=c.id, dice=list(a.dice))


def _roll(w: Work, a: RollPool) -> None:
    pool = w.pool(a.pool)
    _gathering(pool)
    if isinstance(pool, ViolencePool):
        roll_violence(w, pool)
    else:
        roll_knavery(w, pool)


def _reroll(w: Work, a: Reroll) -> None:
    pool = w.pool(a.pool)
    c = combatant(pool, a.who)
    if isinstance(pool, ViolencePool) and pool.stage != "rolled":
        raise IllegalAction(said("Dice are rerolled right after the roll, before the hits are worked out."))
    if isinstance(pool, KnaveryPool) and pool.stage != "failed":
        raise IllegalAction(said("A scheme's dice are rerolled after a failed roll."))
    if not c.pc:
        raise IllegalAction(said("Only PCs push to reroll."))
    pc = w.acting_pc(c.id)
    if not a.free:
        if pc.rattled:
            raise IllegalAction(said("You can't push while rattled."))
        if c.pushed:
            raise IllegalAction(said("{name} has already pushed to reroll in this pool.", name=pc.name))
    indexes = list(range(len(c.dice)))
    if a.dice is not None:
        if not w.s.options.push_reroll_subset:
            raise IllegalAction(said("A push rerolls all of the PC's dice in the pool."))
        if not a.dice or len(set(a.dice)) != len(a.dice) or not set(a.dice) <= set(indexes):
            raise IllegalAction(
                said("Pick different dice of {name}'s, numbered 0 to {last}.", name=pc.name, last=len(c.dice) - 1)
            )
        indexes = sorted(a.dice)
    source = spend_free_push(w, pool) if a.free else "push"
    pool = w.pool(pool.id)
    # The push reroll is normal and the rattle follows it (3.6 #13); a free push leaves a rattled PC's dice doubled.
    doubled = pc.rattled if a.free else w.s.options.push_reroll_rattled
    n = c.rerolls + 1
    stem = f"{prefix(pool, c.id)}.re{n}"
    dice = list(c.dice)
    for k in indexes:
        dice[k] = roll_one(w, f"{stem}.{k}", dice[k].sides, dice[k].source, doubled)
    before = report(pool, c, pc.rattled)["dice"]
    c = c.model_copy(update={"dice": tuple(dice), "pushed": c.pushed or not a.free, "rerolls": n})
    pool = with_combatant(pool, c)
    w.put_pool(pool)
    after = report(pool, c, doubled)["dice"]
    w.emit("rerolled", pool=pool.id, who=c.id, name=c.name, free=a.free, source=source, before=before, after=after)
    if not a.free:
        rattle(w, pc.id, "push")
    if isinstance(pool, ViolencePool):
        w.emit("violence_rerolled", pool=pool.id, sides=describe_sides(w, pool))
        settle_rolls(w, pool)
        return
    if w.s.options.free_push_from_rerolls:
        sixes = sum(1 for k in indexes if dice[k].value == FREE_PUSH_FACE)
        pool = pool.model_copy(update={"free_pushes": pool.free_pushes + sixes})
        w.put_pool(pool)
    settle(w, pool)


def _close(w: Work, a: ClosePool) -> None:
    pool = w.pool(a.pool)
    if isinstance(pool, ViolencePool):
        _close_fight(w, pool, a.after_round)
        return
    if a.after_round:
        raise IllegalAction(said("A scheme has no rounds."))
    if pool.stage == "failed":
        raise IllegalAction(said("Choose the thwarted challenges first: the scheme has failed."))
    w.drop_pool(pool.id)
    w.emit("pool_closed", pool=pool.id, kind=pool.kind, names=[c.name for c in pool.combatants])
    _give_back(w, pool)


def _close_fight(w: Work, pool: ViolencePool, after_round: bool) -> None:
    if pool.stage == "ended":
        raise IllegalAction(said("The fight is over: make the death tests that are waiting."))
    if after_round:
        if pool.stage not in ("rolled", "clash", "wounds"):
            raise IllegalAction(said("A fight ends after its round once the round's dice are rolled."))
        end_after_round(w, pool)  # the round's dice are cast: its hits land and its wounded are tested first
        return
    if pool.stage == "gather" and pool.round == 1:
        _give_back(w, pool)
    end_crisis(w, pool)


def _give_back(w: Work, pool: Pool) -> None:
    """Nobody took part in a pool closed before its first roll: the actions joining it took are given back (a second
    action the GM allowed took none)."""
    for c in pool.combatants:
        if c.spent:
            give_back_action(w, c.id)


HANDLERS: dict[type[Action], Callable[[Work, Any], None]] = {
    OpenViolence: _open_violence,
    OpenKnavery: _open_knavery,
    Join: _join,
    AddNPC: _add_npc,
    Leave: _leave,
    Pick: _pick,
    Veto: _veto,
    Grant: _grant,
    RollPool: _roll,
    Reroll: _reroll,
    ClosePool: _close,
}
