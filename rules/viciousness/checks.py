"""A character's own moves outside the pools' dice (RULES.md P5–P7): pushes, knowledge, discovery.

Die ids: ``knowledge.<pc>.t<turn>`` (and ``.2`` for a rattled PC's second roll with
vic.rattled_affects_knowledge), ``discovery.t<turn>``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules.engine import IllegalAction
from rules.said import said
from rules.viciousness.actions import Action, Discovery, Knowledge, Push
from rules.viciousness.catalogue import trait
from rules.viciousness.characters import rattle, shorten_recovery
from rules.viciousness.data import PROCEDURES
from rules.viciousness.dicepool import combatant, spend_free_push, with_combatant
from rules.viciousness.state import ViolencePool
from rules.viciousness.work import Work

KNOW = PROCEDURES.knowledge


def _push(w: Work, a: Push) -> None:
    pc = w.acting_pc(a.pc)
    t = trait(w.s, a.trait)
    if not pc.has_trait(t.name):
        raise IllegalAction(said("{name} doesn't have {trait}.", name=pc.name, trait=t.name))
    if not t.pushable:
        raise IllegalAction(
            said("{trait} is a 💡 knowledge trait: it can't be pushed (roll a knowledge d6 instead).", trait=t.name)
        )
    if not a.free and pc.rattled:
        raise IllegalAction(said("You can't push while rattled."))
    effects = {**(t.effects or {}), **(t.push_effect or {})}
    if "push_recovery_minus" in effects:
        if a.target is None:
            raise IllegalAction(said("Name the wounded character {name} treats (`target`).", name=pc.name))
        patient = w.active_pc(a.target)
        if not patient.wounded:
            raise IllegalAction(said("{name} isn't wounded.", name=patient.name))
        shorten_recovery(w, patient.id, int(str(effects["push_recovery_minus"])), "medic")
    if "adds_die" in effects:
        pool = w.pool(a.pool) if a.pool is not None else None
        if not isinstance(pool, ViolencePool):
            raise IllegalAction(
                said("{trait}'s push adds a die to a fight, and {name} is in none.", trait=t.name, name=pc.name)
            )
        c = combatant(pool, pc.id)
        if pool.stage != "gather" or c.status != "in":
            raise IllegalAction(said("{trait}'s push is made before the round's roll, while fighting.", trait=t.name))
        if c.berserk:
            raise IllegalAction(said("{name} already pushed {trait} in this crisis.", name=pc.name, trait=t.name))
        w.put_pool(with_combatant(pool, c.model_copy(update={"berserk": True})))
    source = spend_free_push(w, None) if a.free else "push"
    spell = next((x.spell for x in pc.traits if x.name == t.name and x.spell), None)
    w.emit(
        "pushed",
        pc=pc.id,
        name=pc.name,
        trait=t.name,
        text=spell or t.push_text,
        free=a.free,
        source=source,
        target=a.target,
        note=a.note,
    )
    if not a.free:
        rattle(w, pc.id, "push")


def _knowledge(w: Work, a: Knowledge) -> None:
    pc = w.acting_pc(a.pc)
    t = trait(w.s, a.trait)
    if t.kind != "knowledge":
        raise IllegalAction(said("{trait} isn't a 💡 knowledge trait: only those roll knowledge.", trait=t.name))
    if not pc.has_trait(t.name):
        raise IllegalAction(said("{name} doesn't have {trait}.", name=pc.name, trait=t.name))
    turn = w.s.turn.number
    per_company = w.s.options.knowledge_limit == "per_company"
    if per_company and w.s.company.knowledge_turn == turn:
        raise IllegalAction(said("The company has already rolled its knowledge d6 this turn."))
    if not per_company and pc.knowledge_turn == turn:
        raise IllegalAction(said("{name} has already rolled a knowledge d6 this turn.", name=pc.name))
    die = f"knowledge.{pc.id}.t{turn}"
    rolls = [w.roll(die, 6)]
    if pc.rattled and w.s.options.rattled_affects_knowledge:
        rolls.append(w.roll(f"{die}.2", 6))
    value = min(rolls)
    result = "answer" if value >= KNOW.answer_at_or_above else "where" if value == KNOW.partial_on else "nothing"
    if per_company:
        w.company(knowledge_turn=turn)
    else:
        w.update_pc(pc.id, knowledge_turn=turn)
    w.emit(
        "knowledge", pc=pc.id, name=pc.name, trait=t.name, question=a.question, rolls=rolls, value=value, result=result
    )


def _discovery(w: Work, a: Discovery) -> None:
    if len(set(a.conditions)) != len(a.conditions):
        raise IllegalAction(said("Each condition counts once."))
    if a.pc is not None:
        pc = w.active_pc(a.pc)
        if a.traits > len(pc.traits):
            raise IllegalAction(said("{name} has only {n} traits to help.", name=pc.name, n=len(pc.traits)))
    value = a.traits + len(a.conditions)
    roll = None
    if value <= 0:
        found = False
    elif value >= 6:
        found = True
    else:
        roll = w.roll(f"discovery.t{w.s.turn.number}", 6)
        found = roll <= value
    w.emit("discovery", pc=a.pc, value=value, roll=roll, found=found, automatic=roll is None)


HANDLERS: dict[type[Action], Callable[[Work, Any], None]] = {Push: _push, Knowledge: _knowledge, Discovery: _discovery}
