"""Troupes and their PCs (RULES.md P1, P11; 3.6 #39–46): creation, traits, contacts, advancement, replacement."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules.engine import IllegalAction
from rules.said import said
from rules.viciousness.actions import (
    Act,
    Action,
    AddAsset,
    AddContact,
    AddPC,
    AddTrait,
    AddWeakContact,
    Advance,
    Condition,
    CreateTroupe,
    DropAsset,
    DropContact,
    EditPC,
    EditTroupe,
    GMControl,
    GrantAdvancements,
    MinionPlaces,
    Promote,
    Replace,
    Retire,
    SetSpell,
)
from rules.viciousness.catalogue import trait
from rules.viciousness.characters import end_pc, new_pc, next_id, rattle, take_action, with_pc, wound
from rules.viciousness.data import CHARACTERS, MAX_TRAITS, told
from rules.viciousness.economy import replacement_cost
from rules.viciousness.state import PC, Contact, PCTrait, Troupe, owner_of
from rules.viciousness.work import Work, gone

ASSET_LABELS = {a.key: a.label for a in CHARACTERS.starting_assets}


def _live_troupe(w: Work, owner: str) -> Troupe:
    troupe = w.troupe(owner)
    if troupe.dissolved:
        raise IllegalAction(said("{troupe} has dissolved: its player creates a new troupe.", troupe=troupe.name))
    return troupe


def _create_troupe(w: Work, a: CreateTroupe) -> None:
    owner = a.owner or w.actor
    old = w.s.troupes.get(owner)
    if old is not None and not old.dissolved:
        raise IllegalAction(said("That player already has a troupe: {troupe}.", troupe=old.name))
    # A new troupe after a dissolved one keeps numbering its PCs where the old one stopped, so ids stay unique.
    seq = (old.pc_seq if old else 0) + 1
    captain = new_pc(w, f"{owner}.{seq}", "captain", a.captain)
    troupe = Troupe(owner=owner, name=a.name, pcs=(captain,), starting_asset=a.asset, pc_seq=seq)
    label = ASSET_LABELS[a.asset]
    if a.asset == "liquid_coin":
        rank = w.s.company.rank
        w.add_liquid(rank, 1)
        w.emit("liquid_changed", rank=rank, delta=1, count=w.s.company.liquid_at(rank), reason="starting_asset")
    else:
        troupe = troupe.model_copy(update={"assets": (f"{label}: {a.asset_note}" if a.asset_note else label,)})
    w.put_troupe(troupe)
    w.emit("troupe_created", owner=owner, name=a.name, captain=captain.id, asset=a.asset, asset_label=told(label))


def _edit_troupe(w: Work, a: EditTroupe) -> None:
    troupe = w.troupe(a.owner)
    changes: dict[str, Any] = {k: v for k, v in (("name", a.name), ("henchmen", a.henchmen)) if v is not None}
    if not changes:
        raise IllegalAction(said("Nothing to change: give a name or the henchmen."))
    w.put_troupe(troupe.model_copy(update=changes))
    w.emit("troupe_changed", owner=a.owner, **changes)


def _add_asset(w: Work, a: AddAsset) -> None:
    troupe = w.troupe(a.owner)
    if len(troupe.assets) >= 50:
        raise IllegalAction(said("{troupe} has 50 assets already: drop one first.", troupe=troupe.name))
    w.put_troupe(troupe.model_copy(update={"assets": (*troupe.assets, a.text)}))
    w.emit("asset_gained", owner=a.owner, text=a.text)


def _drop_asset(w: Work, a: DropAsset) -> None:
    troupe = w.troupe(a.owner)
    if a.index >= len(troupe.assets):
        raise IllegalAction(said("{troupe} has no asset number {n}.", troupe=troupe.name, n=a.index + 1))
    text = troupe.assets[a.index]
    w.put_troupe(troupe.model_copy(update={"assets": troupe.assets[: a.index] + troupe.assets[a.index + 1 :]}))
    w.emit("asset_lost", owner=a.owner, text=text)


def _minion_places(w: Work, a: MinionPlaces) -> None:
    troupe = w.troupe(a.owner)
    if a.n < troupe.original_minions:
        raise IllegalAction(said("{troupe} already has {n} minions.", troupe=troupe.name, n=troupe.original_minions))
    w.put_troupe(troupe.model_copy(update={"minion_places": a.n}))
    w.emit("minion_places", owner=a.owner, n=a.n)


def _grant_advancements(w: Work, a: GrantAdvancements) -> None:
    troupe = _live_troupe(w, a.owner)
    w.put_troupe(troupe.model_copy(update={"pending_advancements": troupe.pending_advancements + a.n}))
    w.emit("advancements_granted", owner=a.owner, n=a.n, pending=troupe.pending_advancements + a.n)


def _add_pc(w: Work, a: AddPC) -> None:
    troupe = _live_troupe(w, a.owner)
    if troupe.original_minions >= troupe.minion_places:
        raise IllegalAction(
            said(
                "Every minion place of {troupe} is taken: a new minion comes from an advancement, "
                "a dead or retired one is replaced for IP.",
                troupe=troupe.name,
            )
        )
    pc = new_pc(w, next_id(troupe), "minion", a.pc)
    w.put_troupe(with_pc(troupe, pc))
    w.emit("pc_added", owner=a.owner, pc=pc.id, name=pc.name, role="minion", traits=[t.name for t in pc.traits])


def _edit_pc(w: Work, a: EditPC) -> None:
    changes: dict[str, Any] = {k: v for k, v in (("name", a.name), ("concept", a.concept)) if v is not None}
    if not changes:
        raise IllegalAction(said("Nothing to change: give a name or a concept."))
    w.pc(a.pc)
    w.update_pc(a.pc, **changes)
    w.emit("pc_changed", pc=a.pc, **changes)


def _give_trait(w: Work, pc: PC, name: str, cause: str) -> None:
    """A new trait for an active PC, up to 4 (seed L59)."""
    if not pc.active:
        raise IllegalAction(gone(pc))
    found = trait(w.s, name)
    if pc.has_trait(found.name):
        raise IllegalAction(said("{name} already has {trait}.", name=pc.name, trait=found.name))
    if len(pc.traits) >= MAX_TRAITS:
        raise IllegalAction(
            said("{name} already has {n} traits, the most a character can have.", name=pc.name, n=MAX_TRAITS)
        )
    w.update_pc(pc.id, traits=(*pc.traits, PCTrait(name=found.name)))
    w.emit("trait_gained", pc=pc.id, name=pc.name, trait=found.name, cause=cause)


def _add_trait(w: Work, a: AddTrait) -> None:
    _give_trait(w, w.pc(a.pc), a.trait, "gm")


def _spell(w: Work, a: SetSpell) -> None:
    pc = w.pc(a.pc)
    found = trait(w.s, a.trait)
    if found.kind != "magic":
        raise IllegalAction(said("{trait} isn't a magic trait: only magic traits have spells.", trait=found.name))
    if not pc.has_trait(found.name):
        raise IllegalAction(said("{name} doesn't have {trait}.", name=pc.name, trait=found.name))
    traits = tuple(t.model_copy(update={"spell": a.text}) if t.name == found.name else t for t in pc.traits)
    w.update_pc(pc.id, traits=traits)
    w.emit("spell_changed", pc=pc.id, trait=found.name, spell=a.text)


def _contact(w: Work, a: AddContact) -> None:
    pc = w.active_pc(a.pc)
    if len(pc.strong) >= len(pc.traits):
        raise IllegalAction(
            said(
                "{name} has {n} strong contacts, one per trait: drop one to make room.", name=pc.name, n=len(pc.strong)
            )
        )
    source = None
    if a.trait is not None:
        source = trait(w.s, a.trait).name
        if not pc.has_trait(source):
            raise IllegalAction(said("{name} doesn't have {trait}.", name=pc.name, trait=source))
        if any(c.trait == source for c in pc.strong):
            raise IllegalAction(said("{name}'s {trait} already gave a strong contact.", name=pc.name, trait=source))
    w.update_pc(pc.id, strong=(*pc.strong, Contact(name=a.name, note=a.note, trait=source)))
    w.emit("contact_added", pc=pc.id, strength="strong", contact=a.name, trait=source)


def _weak_contact(w: Work, a: AddWeakContact) -> None:
    pc = w.active_pc(a.pc)
    if len(pc.weak) >= 50:
        raise IllegalAction(said("{name} has 50 weak contacts already: drop one first.", name=pc.name))
    w.update_pc(pc.id, weak=(*pc.weak, Contact(name=a.name, note=a.note)))
    w.emit("contact_added", pc=pc.id, strength="weak", contact=a.name, trait=None)


def _promote(w: Work, a: Promote) -> None:
    pc = w.active_pc(a.pc)
    if a.weak >= len(pc.weak):
        raise IllegalAction(said("{name} has no weak contact number {n}.", name=pc.name, n=a.weak + 1))
    strong = pc.strong
    dropped = None
    if a.drop is not None:
        if a.drop >= len(strong):
            raise IllegalAction(said("{name} has no strong contact number {n}.", name=pc.name, n=a.drop + 1))
        dropped = strong[a.drop].name
        strong = strong[: a.drop] + strong[a.drop + 1 :]
    if len(strong) >= len(pc.traits):
        raise IllegalAction(
            said(
                "{name} has {n} strong contacts, one per trait: name the strong contact to drop.",
                name=pc.name,
                n=len(strong),
            )
        )
    contact = pc.weak[a.weak]
    weak = pc.weak[: a.weak] + pc.weak[a.weak + 1 :]
    w.update_pc(pc.id, strong=(*strong, contact), weak=weak)
    w.emit("contact_promoted", pc=pc.id, contact=contact.name, dropped=dropped)


def _drop_contact(w: Work, a: DropContact) -> None:
    pc = w.pc(a.pc)
    field = "strong" if a.strong else "weak"
    contacts: tuple[Contact, ...] = getattr(pc, field)
    if a.index >= len(contacts):
        raise IllegalAction(
            said("{name} has no strong contact number {n}.", name=pc.name, n=a.index + 1)
            if a.strong
            else said("{name} has no weak contact number {n}.", name=pc.name, n=a.index + 1)
        )
    w.update_pc(pc.id, **{field: contacts[: a.index] + contacts[a.index + 1 :]})
    w.emit("contact_dropped", pc=pc.id, strength=field, contact=contacts[a.index].name)


def _gm_control(w: Work, a: GMControl) -> None:
    pc = w.pc(a.pc)
    if pc.gm_controlled == a.on:
        raise IllegalAction(
            said("{name} is already portrayed by the GM.", name=pc.name)
            if a.on
            else said("{name} is not portrayed by the GM.", name=pc.name)
        )
    w.update_pc(pc.id, gm_controlled=a.on)
    w.emit("gm_control", pc=pc.id, name=pc.name, on=a.on)


def _condition(w: Work, a: Condition) -> None:
    pc = w.active_pc(a.pc)
    if a.change == "rattle":
        if pc.rattled:
            raise IllegalAction(said("{name} is already rattled.", name=pc.name))
        rattle(w, pc.id, "gm")
    elif a.change == "calm":
        if not pc.rattled:
            raise IllegalAction(said("{name} isn't rattled.", name=pc.name))
        w.update_pc(pc.id, rattled=False)
        w.emit("pc_calmed", pc=pc.id, name=pc.name, cause="gm")
    elif a.change == "wound":
        if pc.wounded:
            raise IllegalAction(said("{name} is already wounded.", name=pc.name))
        wound(w, pc.id, "gm")
    elif a.change == "heal":
        if not pc.wounded:
            raise IllegalAction(said("{name} isn't wounded.", name=pc.name))
        w.update_pc(pc.id, wounded=False, recovery=0)
        w.emit("recovery", pc=pc.id, name=pc.name, recovery=0, healed=True, cause="gm")
    else:
        end_pc(w, pc.id, "dead", "gm")


def _retire(w: Work, a: Retire) -> None:
    end_pc(w, w.active_pc(a.pc).id, "retired", "retired")


def _replace(w: Work, a: Replace) -> None:
    old = w.pc(a.old)
    troupe = _live_troupe(w, owner_of(old.id))
    if old.role != "minion" or old.active:
        raise IllegalAction(said("Only a dead or retired minion is replaced (a captain's troupe dissolves)."))
    if any(p.replaces == old.id for p in troupe.pcs):
        raise IllegalAction(said("{name} has been replaced already.", name=old.name))
    base = CHARACTERS.traits_at_creation["minion"]
    most = max(base, len(old.traits))
    if not base <= len(a.pc.traits) <= most:
        raise IllegalAction(
            said(
                "{name}'s replacement has {base} traits, up to {most} carrying over the extra ones.",
                name=old.name,
                base=base,
                most=most,
            )
            if most > base
            else said("{name}'s replacement has {base} traits.", name=old.name, base=base)
        )
    cost = replacement_cost(len(a.pc.traits))
    ip = w.s.company.ip
    if ip < cost:
        raise IllegalAction(
            said("Replacing {name} costs {cost} IP and the company has {ip}.", name=old.name, cost=cost, ip=ip)
        )
    pc = new_pc(w, next_id(troupe), "minion", a.pc, traits=len(a.pc.traits)).model_copy(update={"replaces": old.id})
    w.put_troupe(with_pc(troupe, pc))
    w.emit("pc_replaced", owner=troupe.owner, old=old.id, pc=pc.id, name=pc.name, cost=cost)
    w.set_ip(ip - cost, "replacement")


def _advance(w: Work, a: Advance) -> None:
    troupe = _live_troupe(w, a.owner)
    if troupe.pending_advancements < 1:
        raise IllegalAction(said("{troupe} has no advancement to take.", troupe=troupe.name))
    if (a.minion is None) == (a.pc is None or a.trait is None):
        raise IllegalAction(said("Advance either one PC with a new trait, or add a new minion."))
    if a.minion is not None:
        pc = new_pc(w, next_id(troupe), "minion", a.minion)
        troupe = with_pc(troupe, pc).model_copy(update={"minion_places": troupe.minion_places + 1})
        w.put_troupe(troupe)
        w.emit("pc_added", owner=a.owner, pc=pc.id, name=pc.name, role="minion", traits=[t.name for t in pc.traits])
    else:
        assert a.pc is not None and a.trait is not None
        pc_ = troupe.pc(a.pc)
        if pc_ is None:
            raise IllegalAction(said("That character isn't in {troupe}.", troupe=troupe.name))
        _give_trait(w, pc_, a.trait, "advancement")
        troupe = w.troupe(a.owner)
    pending = troupe.pending_advancements - 1
    w.put_troupe(troupe.model_copy(update={"pending_advancements": pending, "advancements": troupe.advancements + 1}))
    w.emit("advanced", owner=a.owner, pending=pending)


def _act(w: Work, a: Act) -> None:
    take_action(w, w.acting_pc(a.pc), a.kind, a.note, exception=a.exception)


HANDLERS: dict[type[Action], Callable[[Work, Any], None]] = {
    CreateTroupe: _create_troupe,
    EditTroupe: _edit_troupe,
    AddAsset: _add_asset,
    DropAsset: _drop_asset,
    MinionPlaces: _minion_places,
    GrantAdvancements: _grant_advancements,
    AddPC: _add_pc,
    EditPC: _edit_pc,
    AddTrait: _add_trait,
    SetSpell: _spell,
    AddContact: _contact,
    AddWeakContact: _weak_contact,
    Promote: _promote,
    DropContact: _drop_contact,
    GMControl: _gm_control,
    Condition: _condition,
    Retire: _retire,
    Replace: _replace,
    Advance: _advance,
    Act: _act,
}
