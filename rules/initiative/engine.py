"""The initiative tracker's engine: join by a roll or a value, Next / Previous / Delay / Remove, rounds, conditions.

Order (documented in docs/initiative.md): the highest total acts first; a tie goes to the higher modifier (a roll's
total less its dice), then to the higher roll-off d20 (rolled for each entry as it joins), then to whoever joined
first. Entries added together (a group of NPCs) share one roll and keep the order they were added in.

A condition's turns count down when its holder's turn ends (Next moves on from them), once a round; at 0 it
expires and the channel is told. Previous only moves the marker back; Undo takes an action back entirely.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from pydantic import BaseModel, TypeAdapter

from rules.dice import DiceSource
from rules.engine import CO_GM, GM, HOST, MANAGER, IllegalAction, NotPermitted, Outcome, Viewer
from rules.initiative.state import (
    MAX_CONDITIONS,
    MAX_ENTRIES,
    Condition,
    Delay,
    Entry,
    InitAction,
    InitOptions,
    InitState,
    Join,
    Next,
    Previous,
    Remove,
    Reveal,
    SetCondition,
)
from rules.initiative.turns import Event, delay_turn, named, next_turn, previous_turn, secret, start_turn, turn_events
from rules.roll.engine import roll
from rules.roll.errors import RollError
from rules.said import Said, said

RUNS_IT = frozenset({GM, CO_GM, MANAGER, HOST})
"""Roles that run the tracker: whoever started it (its GM), co-GMs, and the server's managers."""
DEFAULT_ROLL = "1d20"
TIEBREAK_SIDES = 20
_ADAPTER: TypeAdapter[BaseModel] = TypeAdapter(InitAction)


class _Prefixed:
    """The injected dice, each die named after the entry it is for, so a log replays a group's rolls die by die."""

    def __init__(self, source: DiceSource, prefix: str) -> None:
        self.source = source
        self.prefix = prefix
        self.ids: list[str] = []
        """Every die rolled, by its full id (for the luck statistics: ``rollers``)."""

    def roll(self, die_id: str, sides: int) -> int:
        self.ids.append(f"{self.prefix}{die_id}")
        return self.source.roll(self.ids[-1], sides)


def said_of(error: Exception) -> str:
    """An error's message as it was said: a ``Said`` stays sayable in the reader's language, else its text."""
    first = error.args[0] if error.args else None
    return first if isinstance(first, Said) else str(error)


# -- joining ---------------------------------------------------------------------------------------


def _rolled(action: Join, dice: _Prefixed) -> tuple[int, int, str | None, list[int]]:
    """The total, the modifier, the notation rolled (None for a value) and the dice kept."""
    if action.value is not None:
        return action.value, action.mod or 0, None, []
    notation = action.roll.strip() if action.roll and action.roll.strip() else DEFAULT_ROLL
    try:
        result = roll(notation, dice)
    except RollError as error:
        raise IllegalAction(said("That roll doesn't work: {error}", error=said_of(error))) from None
    if len(result.sets) != 1:
        raise IllegalAction(said("Roll initiative once (no `6x`): one total orders the entry."))
    rolled = result.sets[0]
    kept = [f.value for g in rolled.groups if g.kept for f in g.faces if f.kept]
    mod = action.mod if action.mod is not None else rolled.total - sum(kept)
    return rolled.total, mod, result.expression, kept


def _insert(order: tuple[str, ...], entries: Mapping[str, Entry], new: Entry) -> tuple[str, ...]:
    """``order`` with ``new`` placed before the first entry it beats (after every equal one: it joined later)."""
    for i, other in enumerate(order):
        if new.key > entries[other].key:
            return (*order[:i], new.id, *order[i:])
    return (*order, new.id)


def _join(state: InitState, actor: str, action: Join, dice: DiceSource) -> Outcome[InitState]:
    member = None if action.npc else action.member or actor
    if member is not None and any(e.owner == member for e in state.entries.values()):
        raise IllegalAction(said("You're in the order already: `/init leave` first to join again."))
    if len(state.entries) + action.count > MAX_ENTRIES:
        raise IllegalAction(said("The order is full ({n} entries): remove someone first.", n=MAX_ENTRIES))
    hidden = action.npc and action.hidden
    counter = state.next_hidden if hidden else state.next_visible
    group = f"{'h' if hidden else 'e'}{counter}"
    prefixed = _Prefixed(dice, f"{group}.")
    total, mod, notation, kept = _rolled(action, prefixed)
    tiebreak = prefixed.roll("tie", TIEBREAK_SIDES)
    base = " ".join(action.name.split())
    if not base:
        raise IllegalAction(said("A name needs more than spaces."))
    names = [base] if action.count == 1 else [f"{base} {n + 1}" for n in range(action.count)]
    taken = {e.name.casefold() for e in state.entries.values()}
    if any(n.casefold() in taken for n in names):
        raise IllegalAction(said("There is a {name} in the order already: pick another name.", name=names[0]))
    entries, order = dict(state.entries), state.order
    added = []
    for n, name in enumerate(names):
        entry = Entry(
            id=f"{group[0]}{counter + n}",
            name=name,
            owner=member,
            group=group,
            total=total,
            mod=mod,
            tiebreak=tiebreak,
            hidden=hidden,
        )
        order = _insert(order, entries, entry)
        entries[entry.id] = entry
        added.append(entry)
    bump = {"next_hidden": counter + len(names)} if hidden else {"next_visible": counter + len(names)}
    new = state.model_copy(update={"entries": entries, "order": order, **bump})
    event: Event = {"type": "joined", "ids": [e.id for e in added], "names": names, "owner": added[0].owner}
    event |= {"total": total, "mod": mod, "roll": notation, "dice": kept, "tiebreak": tiebreak, "die_ids": prefixed.ids}
    return Outcome(new, [secret(added[0], event)])


# -- entries ---------------------------------------------------------------------------------------


def _target(state: InitState, who: str) -> Entry:
    entry = state.find(who)
    if entry is None:
        raise IllegalAction(said("Nobody in the order goes by that name."))
    return entry


def _remove(state: InitState, actor: str, action: Remove, dice: DiceSource) -> Outcome[InitState]:
    gone = _target(state, action.who)
    entries = {k: v for k, v in state.entries.items() if k != gone.id}
    order = tuple(e for e in state.order if e != gone.id)
    events = [secret(gone, {"type": "removed", **named(gone)})]
    current, round_ = state.current, state.round
    if state.current == gone.id:
        index = state.order.index(gone.id)
        new_round = index == len(order)
        current = None if not order else order[0 if new_round else index]
        round_ += new_round and bool(order)
        if current is not None:
            moved = state.model_copy(update={"round": round_})
            events += turn_events(entries[current], start_turn(moved, entries, current, new_round=new_round))
    new = state.model_copy(update={"entries": entries, "order": order, "current": current, "round": round_})
    return Outcome(new, events)


def _reveal(state: InitState, actor: str, action: Reveal, dice: DiceSource) -> Outcome[InitState]:
    shown = _target(state, action.who)
    if not shown.hidden:
        raise IllegalAction(said("{name} isn't hidden.", name=shown.name))
    group = [state.entries[e] for e in state.order if state.entries[e].group == shown.group]
    counter = state.next_visible
    renamed = {e.id: f"e{counter + n}" for n, e in enumerate(group)}
    entries = {
        renamed.get(k, k): e.model_copy(update={"id": renamed[k], "hidden": False}) if k in renamed else e
        for k, e in state.entries.items()
    }
    update = {
        "entries": entries,
        "order": tuple(renamed.get(e, e) for e in state.order),
        "current": renamed.get(state.current, state.current) if state.current else None,
        "next_visible": counter + len(group),
    }
    event: Event = {"type": "revealed", "ids": list(renamed.values()), "names": [e.name for e in group]}
    event |= {"total": shown.total, "current": update["current"] in renamed.values()}
    return Outcome(state.model_copy(update=update), [event])


def _condition(state: InitState, actor: str, action: SetCondition, dice: DiceSource) -> Outcome[InitState]:
    entry = _target(state, action.who)
    folded = action.name.strip().casefold()
    others = tuple(c for c in entry.conditions if c.name.casefold() != folded)
    if action.turns == 0:
        if len(others) == len(entry.conditions):
            raise IllegalAction(said("{name} has no such condition.", name=entry.name))
        event = {"type": "uncondition", **named(entry), "condition": action.name.strip()}
        return Outcome(_with(state, entry.model_copy(update={"conditions": others})), [secret(entry, event)])
    if len(others) >= MAX_CONDITIONS:
        raise IllegalAction(
            said("{name} has {n} conditions already: take one off first.", name=entry.name, n=MAX_CONDITIONS)
        )
    condition = Condition(name=action.name.strip(), turns=action.turns)
    # A condition put on during its holder's own turn lasts from their next turn: this turn's end doesn't count.
    counted = state.round if state.current == entry.id else entry.counted
    updated = entry.model_copy(update={"conditions": (*others, condition), "counted": counted})
    event = {"type": "condition", **named(entry), "condition": condition.name, "turns": action.turns}
    return Outcome(_with(state, updated), [secret(entry, event)])


def _with(state: InitState, entry: Entry) -> InitState:
    return state.model_copy(update={"entries": {**state.entries, entry.id: entry}})


Handler = Callable[[InitState, str, Any, DiceSource], Outcome[InitState]]
HANDLERS: dict[type[BaseModel], Handler] = {
    Join: _join,
    Next: next_turn,
    Previous: previous_turn,
    Delay: delay_turn,
    Remove: _remove,
    Reveal: _reveal,
    SetCondition: _condition,
}


class InitiativeEngine:
    """The tracker as the core runs it: an open session (members by user id), GM-only hidden entries, undo."""

    kind = "init"
    title: str = said("Initiative")  # a Said: the core says it in the channel's language (localize)
    options_model = InitOptions
    state_model = InitState

    def start(self, options: InitOptions, players: Sequence[str], dice: DiceSource) -> Outcome[InitState]:
        """An empty order, waiting for people to join."""
        return Outcome(InitState(), [{"type": "opened"}])

    def parse_action(self, data: Mapping[str, Any]) -> BaseModel:
        """One of the tracker's actions, validated."""
        return _ADAPTER.validate_python(data)

    def apply(self, state: InitState, actor: str, action: BaseModel, dice: DiceSource) -> Outcome[InitState]:
        """Apply ``action`` by the member ``actor``."""
        return HANDLERS[type(action)](state, actor, action, dice)

    def authorize(self, state: InitState, actor: str, roles: frozenset[str], action: BaseModel) -> None:
        """The GM runs the order and the NPCs; a member joins, leaves, delays and ends their own turn, and keeps
        their own conditions. What a member can't see (a hidden entry) they can't name either."""
        if roles & RUNS_IT:
            return
        if isinstance(action, Join):
            if action.npc:
                raise NotPermitted(said("Only the GM adds NPCs."))
            if action.member not in (None, actor):
                raise NotPermitted(said("You can only join for yourself; the GM adds the rest."))
            return
        if isinstance(action, Next | Delay):
            current = state.entries.get(state.current or "")
            if current is None or current.owner != actor or action.of != current.id:
                raise NotPermitted(said("Only the GM (or whoever's turn it is) moves the order on."))
            return
        if isinstance(action, Remove | SetCondition):
            target = self.view(state, Viewer(actor)).find(action.who)
            if target is None or target.owner != actor:
                raise NotPermitted(said("You can only change your own entry; the GM changes the rest."))
            return
        raise NotPermitted(said("Only the GM can do that."))

    def view(self, state: InitState, viewer: Viewer) -> InitState:
        """Hidden entries are the GM's alone: for anyone else they are gone, and their turn is "the GM's"."""
        if viewer.is_gm or not any(e.hidden for e in state.entries.values()):
            return state
        shown = {k: e for k, e in state.entries.items() if not e.hidden}
        current = state.current if state.current in shown else None
        update: dict[str, Any] = {"entries": shown, "order": tuple(e for e in state.order if e in shown)}
        update |= {"current": current}
        update |= {"gm_turn": current is None and state.current is not None, "next_hidden": 1}
        return state.model_copy(update=update)

    def rollers(self, events: Sequence[Mapping[str, Any]]) -> list[tuple[str, str]]:
        """A member's initiative dice (and roll-off) count in their luck statistics; an NPC's are nobody's."""
        return [
            (e["owner"], die)
            for e in events
            if e.get("type") == "joined" and e.get("owner") and not e.get("only")
            for die in e.get("die_ids", ())
        ]

    def undoable(self, action: BaseModel) -> bool:
        """Every change to the order can be taken back."""
        return True


ENGINE = InitiativeEngine()
"""The engine is stateless: one instance serves every tracker."""
