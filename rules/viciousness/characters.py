"""What happens to a character, whoever causes it: new PCs, turn actions, wounds, death and retirement."""

from __future__ import annotations

from typing import Any

from rules.engine import IllegalAction
from rules.said import Said, said
from rules.viciousness.actions import PCSpec
from rules.viciousness.catalogue import trait_names
from rules.viciousness.data import CHARACTERS, MAX_TRAITS, RECOVERY_TURNS
from rules.viciousness.state import PC, Fate, PCTrait, Role, Troupe, owner_of
from rules.viciousness.work import Work


def new_pc(w: Work, pc_id: str, role: Role, spec: PCSpec, traits: int | None = None) -> PC:
    """PC ``pc_id`` built from ``spec`` with exactly ``traits`` traits (default: the role's count)."""
    wanted = CHARACTERS.traits_at_creation[role] if traits is None else traits
    if len(spec.traits) != wanted:
        counts = {"wanted": wanted, "name": spec.name, "have": len(spec.traits)}
        if role == "captain":
            raise IllegalAction(said("A new captain has {wanted} traits; {name} has {have}.", **counts))
        raise IllegalAction(said("A new minion has {wanted} traits; {name} has {have}.", **counts))
    if wanted > MAX_TRAITS:
        raise IllegalAction(said("A character has {n} traits at most.", n=MAX_TRAITS))
    names = trait_names(w.s, spec.traits)
    return PC(
        id=pc_id,
        name=spec.name,
        concept=spec.concept,
        role=role,
        traits=tuple(PCTrait(name=n) for n in names),
    )


def next_id(troupe: Troupe) -> str:
    """The id the troupe's next PC gets."""
    return f"{troupe.owner}.{troupe.pc_seq + 1}"


def with_pc(troupe: Troupe, pc: PC) -> Troupe:
    """``troupe`` with the new ``pc`` added (and its id used up)."""
    return troupe.model_copy(update={"pcs": (*troupe.pcs, pc), "pc_seq": troupe.pc_seq + 1})


def take_action(
    w: Work, pc: PC, kind: str, note: str = "", *, exception: bool = False, pool: str | None = None
) -> bool:
    """Mark ``pc``'s one turn action as used (seed L100, 3.6 #46); whether a fresh one was spent.

    Resting, acquiring, a scene, a scheme or a fight: each is the character's action, checked here alike. A
    character who has acted may act again only by the GM's ``exception`` (logged). Outside a turn there is no
    action to spend: taking part in ``pool`` costs nothing then, anything else is refused.
    """
    turn = w.s.turn
    told: dict[str, Any] = {"pc": pc.id, "name": pc.name, "kind": kind, "note": note, "turn": turn.number}
    if pool is not None:
        told["pool"] = pool
    if not turn.running:
        if pool is not None:
            return False
        raise IllegalAction(said("No turn is under way: the GM starts the next one."))
    if pc.action_turn == turn.number:
        if not exception:
            what = ACTION_WORDS.get(pc.action or "", ACTION_WORDS["other"])
            raise IllegalAction(
                said(
                    "{name} already {what} this turn: each character takes one action a turn.", name=pc.name, what=what
                )
            )
        # The first action stands and the second is only logged, but a rest among them still calms at the turn's end.
        if kind == "rest":
            w.update_pc(pc.id, action=kind)
        w.emit("action_exception", before=pc.action, **told)
        return False
    w.update_pc(pc.id, action_turn=turn.number, action=kind)
    w.emit("action_taken", **told)
    return True


def give_back_action(w: Work, pc_id: str) -> None:
    """A character leaves a pool before its roll: the action joining it took is theirs again."""
    pc = w.pc(pc_id)
    if pc.action_turn == w.s.turn.number:
        w.update_pc(pc_id, action_turn=None, action=None)
        w.emit("action_returned", pc=pc_id, name=pc.name, turn=w.s.turn.number)


ACTION_WORDS: dict[str, Said] = {
    "rest": said("rested"),
    "knavery": said("took part in a scheme"),
    "violence": said("took part in a fight"),
    "contact": said("met a strong contact"),
    "weak_contact": said("looked for a weak contact"),
    "acquire": said("acquired something"),
    "join_scene": said("joined a scene"),
    "other": said("took an action"),
}
"""What a character did, for each kind of turn action: ``Ana rested`` (each a ``Said``: ``localize`` it)."""


def wound(w: Work, pc_id: str, cause: str) -> None:
    """Wound a PC: 3 turns of bed rest before recovery (seed L71)."""
    pc = w.update_pc(pc_id, wounded=True, recovery=RECOVERY_TURNS)
    w.emit("pc_wounded", pc=pc_id, name=pc.name, recovery=RECOVERY_TURNS, cause=cause)


def rattle(w: Work, pc_id: str, cause: str) -> None:
    """Rattle a PC (seed L22)."""
    pc = w.pc(pc_id)
    if not pc.rattled:
        w.update_pc(pc_id, rattled=True)
        w.emit("pc_rattled", pc=pc_id, name=pc.name, cause=cause)


def shorten_recovery(w: Work, pc_id: str, turns: int, cause: str) -> None:
    """Take ``turns`` off a wounded PC's recovery; at 0 the wound is healed."""
    pc = w.pc(pc_id)
    left = max(0, pc.recovery - turns)
    w.update_pc(pc_id, recovery=left, wounded=left > 0)
    w.emit("recovery", pc=pc_id, name=pc.name, recovery=left, healed=left == 0, cause=cause)


def end_pc(w: Work, pc_id: str, fate: Fate, cause: str) -> None:
    """A PC dies or retires; a captain's end dissolves the troupe (seed L61)."""
    pc = w.update_pc(pc_id, fate=fate)
    w.emit("pc_ended", pc=pc_id, name=pc.name, fate=fate, cause=cause)
    if pc.role == "captain":
        troupe = w.troupe(owner_of(pc_id))
        w.put_troupe(troupe.model_copy(update={"dissolved": True}))
        w.emit("troupe_dissolved", owner=troupe.owner, name=troupe.name)
