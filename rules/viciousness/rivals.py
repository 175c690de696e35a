"""Rivals (RULES.md P8, P9; 3.6 #22–28): designs, ambition points, rival dice, moves and consequences.

Everything here is GM-only: events carry ``only: ["gm"]``, except the effects a consequence has on
the company and the PCs, which everyone can see in their records anyway (they name no rival).

Die ids: ``rival.<id>.t<turn>.d20`` (the rival die at turn end), ``rival.<id>.t<turn>.d4`` (success
of a move), ``rival.<id>.t<turn>.d6`` (a rolled consequence).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules.engine import IllegalAction
from rules.said import said
from rules.text import echo
from rules.viciousness.actions import (
    Action,
    AddDesign,
    AddRival,
    Confirm,
    Deal,
    DropRival,
    EditDesign,
    EditRival,
    Foil,
    Initiate,
    Interfere,
    PickConsequence,
    Split,
)
from rules.viciousness.characters import rattle, wound
from rules.viciousness.commitments import roll_rival_die
from rules.viciousness.data import CONSEQUENCES, PROCEDURES
from rules.viciousness.economy import lower_ranks
from rules.viciousness.state import Design, Move, MoveStage, Rival
from rules.viciousness.work import Work

RULES = PROCEDURES.rivals


def _live(w: Work, rival_id: str) -> Rival:
    rival = w.rival(rival_id)
    if rival.dropped:
        raise IllegalAction(said("{rival} is no longer a rival.", rival=rival.name))
    return rival


def _design(rival: Rival, design_id: str) -> Design:
    design = rival.design(design_id)
    if design is None:
        raise IllegalAction(said("{rival} has no such design.", rival=rival.name))
    return design


def _working(rival: Rival, design_id: str) -> Design:
    design = _design(rival, design_id)
    if design not in rival.working:
        raise IllegalAction(
            said("That design of {rival}'s isn't being built (it is done, foiled or in motion).", rival=rival.name)
        )
    return design


def _with_design(rival: Rival, design: Design) -> Rival:
    return rival.model_copy(update={"designs": tuple(design if d.id == design.id else d for d in rival.designs)})


def _move(w: Work, rival_id: str, stage: MoveStage) -> tuple[Rival, Move, Design]:
    rival = _live(w, rival_id)
    if rival.move is None or rival.move.stage != stage:
        raise IllegalAction(said("{rival} has no move waiting for that.", rival=rival.name))
    return rival, rival.move, _design(rival, rival.move.design)


def top_design(designs: tuple[Design, ...]) -> Design | None:
    """The design with the most points, ties in creation order (the default of 3.6 #22–23)."""
    return max(designs, key=lambda d: d.points, default=None)


def _check_asset(rival: Rival, asset: str | None) -> None:
    if asset and asset.casefold() not in {a.casefold() for a in rival.assets}:
        raise IllegalAction(said("{rival} has no asset called {asset}.", rival=rival.name, asset=echo(asset)))


def _add_rival(w: Work, a: AddRival) -> None:
    number = 1 + max((int(k[1:]) for k in w.s.rivals), default=0)
    minions = a.minions if a.minions is not None else max(a.rank - 2, 0)
    rival = Rival(id=f"r{number}", name=a.name, rank=a.rank, minions=minions, assets=a.assets, notes=a.notes)
    w.put_rival(rival)
    w.emit("rival_added", gm_only=True, rival=rival.id, name=a.name, rank=a.rank, minions=minions)


def _edit_rival(w: Work, a: EditRival) -> None:
    rival = w.rival(a.rival)
    fields = ("name", "rank", "minions", "assets", "notes")
    changes = {f: getattr(a, f) for f in fields if getattr(a, f) is not None}
    if not changes:
        raise IllegalAction(said("Nothing to change."))
    w.put_rival(rival.model_copy(update=changes))
    w.emit("rival_changed", gm_only=True, rival=rival.id, **changes)


def _drop_rival(w: Work, a: DropRival) -> None:
    rival = _live(w, a.rival)
    w.put_rival(rival.model_copy(update={"dropped": True, "move": None}))
    w.emit("rival_dropped", gm_only=True, rival=rival.id, name=rival.name)


def _new_design(w: Work, rival: Rival, a: AddDesign) -> Rival:
    under_way = [d for d in rival.designs if d.status == "building"]
    if len(under_way) >= RULES.max_designs:
        raise IllegalAction(said("{rival} already has {n} designs under way.", rival=rival.name, n=RULES.max_designs))
    _check_asset(rival, a.asset)
    design = Design(
        id=f"d{len(rival.designs) + 1}",
        text=a.text,
        severity=a.severity,
        temperament=a.temperament,
        asset=a.asset,
        unsubtle=a.unsubtle,
    )
    w.emit("design_added", gm_only=True, rival=rival.id, design=design.id, text=a.text, severity=a.severity)
    return rival.model_copy(update={"designs": (*rival.designs, design)})


def _add_design(w: Work, a: AddDesign) -> None:
    w.put_rival(_new_design(w, _live(w, a.rival), a))


def _edit_design(w: Work, a: EditDesign) -> None:
    rival = w.rival(a.rival)
    design = _design(rival, a.design)
    fields = ("text", "severity", "temperament", "unsubtle", "points")
    changes: dict[str, Any] = {f: getattr(a, f) for f in fields if getattr(a, f) is not None}
    if a.asset is not None:
        _check_asset(rival, a.asset)
        changes["asset"] = a.asset or None
    if not changes:
        raise IllegalAction(said("Nothing to change."))
    w.put_rival(_with_design(rival, design.model_copy(update=changes)))
    w.emit("design_changed", gm_only=True, rival=rival.id, design=design.id, **changes)


def _split(w: Work, a: Split) -> None:
    rival = _live(w, a.rival)
    split = None
    if a.points is not None:
        for design_id in a.points:
            _working(rival, design_id)
        if sum(a.points.values()) != rival.rank:
            raise IllegalAction(
                said("The split shares out exactly {n} points, {rival}'s rank.", n=rival.rank, rival=rival.name)
            )
        split = tuple(sorted(a.points.items()))
    w.put_rival(rival.model_copy(update={"split": split}))
    w.emit("split", gm_only=True, rival=rival.id, points=dict(split) if split else None)


def accrue(w: Work, rival: Rival) -> Rival:
    """Turn end: the rank's points go to the designs by the GM's split (or the default), plus asset bonuses."""
    working = rival.working
    if not working:
        return rival
    ids = {d.id for d in working}
    gains = dict.fromkeys(ids, 0)
    split = dict(rival.split) if rival.split else None
    if split is not None and set(split) <= ids:
        gains.update(split)
    else:
        split = None
        top = top_design(working)
        assert top is not None
        gains[top.id] += rival.rank
    helped = [d for d in working if rival.helped(d)]
    if w.s.options.asset_bonus_scope == "per_rival":
        helped = helped[:1]
    for d in helped:
        gains[d.id] += RULES.asset_bonus
    designs = tuple(
        d.model_copy(update={"points": d.points + gains[d.id]}) if d.id in ids else d for d in rival.designs
    )
    rival = rival.model_copy(update={"designs": designs})
    w.emit(
        "ambition_points",
        gm_only=True,
        rival=rival.id,
        gains=gains,
        totals={d.id: d.points for d in rival.working},
        split="gm" if split else "default",
    )
    return rival


def rival_die(w: Work, rival: Rival) -> Rival:
    """Turn end: the d20; designs with at least that many points are eligible, and one is initiated (3.6 #23)."""
    roll = roll_rival_die(w, f"rival.{rival.id}.t{w.s.turn.number}.d20", 20)
    eligible = sorted((d for d in rival.working if d.points >= roll), key=lambda d: -d.points)
    move = (
        Move(design=eligible[0].id, stage="initiated", d20=roll, eligible=tuple(d.id for d in eligible))
        if eligible
        else None
    )
    w.emit(
        "rival_die",
        gm_only=True,
        rival=rival.id,
        roll=roll,
        eligible=[d.id for d in eligible],
        initiated=move.design if move else None,
    )
    return rival.model_copy(update={"move": move})


def make_move(w: Work, rival: Rival) -> None:
    """Turn start: an initiated design moves; an unsubtle one first gives the PCs a chance to interfere."""
    assert rival.move is not None
    design = _design(rival, rival.move.design)
    if design.unsubtle:
        w.put_rival(rival.model_copy(update={"move": rival.move.model_copy(update={"stage": "interference"})}))
        w.emit(
            "rival_moves", gm_only=True, rival=rival.id, design=design.id, unsubtle=True, note="the PCs may interfere"
        )
        return
    w.emit("rival_moves", gm_only=True, rival=rival.id, design=design.id, unsubtle=False, note="")
    _success_roll(w, rival)


def _success_roll(w: Work, rival: Rival) -> None:
    assert rival.move is not None
    design = _design(rival, rival.move.design)
    roll = roll_rival_die(w, f"rival.{rival.id}.t{w.s.turn.number}.d4", 4)
    needed = RULES.success_in_4[design.temperament]
    success = roll <= needed
    w.emit("rival_roll", gm_only=True, rival=rival.id, design=design.id, roll=roll, needed=needed, success=success)
    if success:
        w.put_rival(
            rival.model_copy(update={"move": rival.move.model_copy(update={"stage": "consequence", "d4": roll})})
        )
        return
    # A failed move is not a foiled one (3.6 #25): the design starts again from 0 unless the house rule refunds.
    refund = design.points // 2 if w.s.options.speed_chess and w.s.options.speed_chess_on_failed_roll else 0
    rival = _with_design(rival, design.model_copy(update={"points": 0})).model_copy(update={"move": None})
    w.emit("rival_fallout", gm_only=True, rival=rival.id, design=design.id)
    w.put_rival(_refund(w, rival, design.id, refund, None))


def _refund(w: Work, rival: Rival, source: str, points: int, to: str | None) -> Rival:
    """Speed Chess: reinvest ``points`` in another design (``to``, or the one with the most points)."""
    if not points:
        return rival
    others = tuple(d for d in rival.working if d.id != source)
    target = _working(rival, to) if to is not None else top_design(others)
    if target is not None and target.id == source:
        raise IllegalAction(said("The refund goes to another design."))
    w.emit("speed_chess", gm_only=True, rival=rival.id, design=source, refund=points, to=target.id if target else None)
    if target is None:
        return rival
    return _with_design(rival, target.model_copy(update={"points": target.points + points}))


def _foil_design(w: Work, rival: Rival, design: Design, to: str | None) -> None:
    refund = design.points // 2 if w.s.options.speed_chess else 0
    if to is not None and not refund:
        raise IllegalAction(said("Nothing to refund: Speed Chess is off or the design had no points."))
    moving = rival.move is not None and rival.move.design == design.id
    rival = _with_design(rival, design.model_copy(update={"status": "foiled", "points": 0}))
    if moving:
        rival = rival.model_copy(update={"move": None})
    w.emit("design_foiled", gm_only=True, rival=rival.id, design=design.id, points=design.points)
    w.put_rival(_refund(w, rival, design.id, refund, to))


def _initiate(w: Work, a: Initiate) -> None:
    rival, move, _ = _move(w, a.rival, "initiated")
    if a.design is None:
        w.put_rival(rival.model_copy(update={"move": None}))
    elif a.design not in move.eligible:
        raise IllegalAction(said("The rival die ({d20}) didn't make that design eligible.", d20=move.d20))
    else:
        w.put_rival(rival.model_copy(update={"move": move.model_copy(update={"design": a.design})}))
    w.emit("initiated", gm_only=True, rival=rival.id, design=a.design)


def _interfere(w: Work, a: Interfere) -> None:
    rival, _, design = _move(w, a.rival, "interference")
    if a.foiled:
        _foil_design(w, rival, design, a.to)
        return
    if a.to is not None:
        raise IllegalAction(said("A refund target only applies to a foiled design."))
    w.emit("interference_failed", gm_only=True, rival=rival.id, design=design.id)
    _success_roll(w, rival)


def _consequence(w: Work, a: PickConsequence) -> None:
    rival, move, design = _move(w, a.rival, "consequence")
    severity = a.severity or design.severity
    row = a.row if a.row is not None else roll_rival_die(w, f"rival.{rival.id}.t{w.s.turn.number}.d6", 6)
    entry = CONSEQUENCES.table(severity).rows[row - 1]
    w.put_rival(
        rival.model_copy(
            update={"move": move.model_copy(update={"stage": "confirm", "severity": severity, "row": row})}
        )
    )
    w.emit(
        "consequence",
        gm_only=True,
        rival=rival.id,
        design=design.id,
        severity=severity,
        row=row,
        rolled=a.row is None,
        text=entry.text,
        effect=entry.effect.model_dump() if entry.effect else None,
    )
    # A row the GM picked is their decision made: applied at once, unless it still needs the PC it falls on. A row
    # left to the dice waits for the GM to apply it (the tables are examples, 3.6 #28).
    if a.row is not None and (entry.effect is None or entry.effect.kind not in ON_A_PC):
        _finish(w, Confirm(rival=rival.id))


ON_A_PC = ("rattle", "wound")
"""Consequences that fall on a PC the GM names."""


def _finish(w: Work, a: Confirm) -> None:
    """Apply the chosen consequence's effects (or not) and finish the move: the design is done."""
    rival, move, design = _move(w, a.rival, "confirm")
    assert move.severity is not None and move.row is not None
    effect = CONSEQUENCES.table(move.severity).rows[move.row - 1].effect if a.apply else None
    kind = effect.kind if effect else None
    if a.pc is not None and kind not in ON_A_PC:
        raise IllegalAction(said("This consequence doesn't fall on a PC."))
    rival = _with_design(rival, design.model_copy(update={"status": "done", "points": 0})).model_copy(
        update={"move": None}
    )
    w.emit(
        "design_done",
        gm_only=True,
        rival=rival.id,
        design=design.id,
        severity=move.severity,
        row=move.row,
        applied=a.apply,
    )
    if effect is None:
        w.put_rival(rival)
        return
    if effect.kind == "wealth":
        ip = w.s.company.ip
        ip = lower_ranks(ip, effect.amount) if w.s.options.wealth_track == "rank" else max(0, ip - effect.amount)
        w.set_ip(ip, "consequence")
    elif effect.kind in ON_A_PC:
        if a.pc is None:
            raise IllegalAction(
                said("Name the PC who is rattled.") if effect.kind == "rattle" else said("Name the PC who is wounded.")
            )
        pc = w.active_pc(a.pc)
        (rattle if effect.kind == "rattle" else wound)(w, pc.id, "consequence")
    elif effect.kind == "design":
        assert effect.severity is not None
        text = CONSEQUENCES.table(move.severity).rows[move.row - 1].text
        rival = _new_design(w, rival, AddDesign(rival=rival.id, text=text, severity=effect.severity))
    else:
        w.emit("calamity", gm_only=True, rival=rival.id)
    w.put_rival(rival)


def _foil(w: Work, a: Foil) -> None:
    rival = _live(w, a.rival)
    design = _design(rival, a.design)
    moving = rival.move is not None and rival.move.design == design.id
    if moving and rival.move is not None and rival.move.stage not in ("initiated", "interference"):
        raise IllegalAction(said("That design has already succeeded: its consequence is under way."))
    if not moving:
        _working(rival, a.design)
    _foil_design(w, rival, design, a.to)


def _deal(w: Work, a: Deal) -> None:
    rival = _live(w, a.rival)
    design = _working(rival, a.design)
    gain = w.s.company.rank
    w.put_rival(_with_design(rival, design.model_copy(update={"points": design.points + gain})))
    w.emit("rival_deal", gm_only=True, rival=rival.id, design=design.id, gain=gain, points=design.points + gain)


HANDLERS: dict[type[Action], Callable[[Work, Any], None]] = {
    AddRival: _add_rival,
    EditRival: _edit_rival,
    DropRival: _drop_rival,
    AddDesign: _add_design,
    EditDesign: _edit_design,
    Split: _split,
    Initiate: _initiate,
    Interfere: _interfere,
    PickConsequence: _consequence,
    Confirm: _finish,
    Foil: _foil,
    Deal: _deal,
}
