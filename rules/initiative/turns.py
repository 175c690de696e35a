"""Turns: Next, Previous and Delay move the marker; a member is called once a round; conditions count down when
their holder's turn ends. An event about a hidden entry is the GM's alone, and its turn is "the GM's" for the rest."""

from __future__ import annotations

from typing import Any

from rules.dice import DiceSource
from rules.engine import IllegalAction, Outcome
from rules.initiative.state import Delay, Entry, InitState, Next, Previous
from rules.said import said

Event = dict[str, Any]


def secret(entry: Entry, event: Event) -> Event:
    """An event about a hidden entry is the GM's alone."""
    return {**event, "only": ["gm"]} if entry.hidden else event


def named(entry: Entry) -> Event:
    """Who an event is about: the entry's id, name and member."""
    return {"id": entry.id, "name": entry.name, "owner": entry.owner}


def start_turn(state: InitState, entries: dict[str, Entry], who: str, *, new_round: bool, back: bool = False) -> Event:
    """Make ``who`` the current entry (in ``entries``) and say so; a member is called once a round."""
    entry = entries[who]
    ping = not back and entry.owner is not None and state.round > entry.pinged
    if ping:
        entries[who] = entry.model_copy(update={"pinged": state.round})
    event = {"type": "turn", "round": state.round, **named(entry), "ping": ping, "new_round": new_round}
    return event | ({"back": True} if back else {})


def turn_events(entry: Entry, event: Event) -> list[Event]:
    """A hidden entry's turn: the GM sees whose it is, everyone else that it is the GM's."""
    if not entry.hidden:
        return [event]
    public = {"type": "turn", "round": event["round"], "hidden": True, "new_round": event["new_round"]}
    return [{**event, "only": ["gm"]}, public | ({"back": True} if event.get("back") else {})]


def _count_down(entry: Entry, round_: int) -> tuple[Entry, list[Event]]:
    """The end of ``entry``'s turn in ``round_``: its conditions' turns count down once, and those at 0 expire."""
    if round_ <= entry.counted:
        return entry, []
    kept, events = [], []
    for condition in entry.conditions:
        if condition.turns is None:
            kept.append(condition)
        elif condition.turns <= 1:
            events.append(secret(entry, {"type": "expired", **named(entry), "condition": condition.name}))
        else:
            kept.append(condition.model_copy(update={"turns": condition.turns - 1}))
    return entry.model_copy(update={"conditions": tuple(kept), "counted": round_}), events


def _ended(state: InitState, action: Next | Delay) -> None:
    """A turn ends once: a click made for a turn that is over is refused."""
    if action.of is not None and action.of != state.current:
        raise IllegalAction(said("That turn is over already."))


def next_turn(state: InitState, actor: str, action: Next, dice: DiceSource) -> Outcome[InitState]:
    _ended(state, action)
    if not state.order:
        raise IllegalAction(said("Nobody is in the order yet: `/init join` first."))
    entries = dict(state.entries)
    events: list[Event] = []
    if state.current is None:
        index, new_round = 0, True
        round_ = max(state.round, 1)
    else:
        entries[state.current], events = _count_down(entries[state.current], state.round)
        index = state.order.index(state.current) + 1
        new_round = index == len(state.order)
        index, round_ = (0, state.round + 1) if new_round else (index, state.round)
    moved = state.model_copy(update={"round": round_})
    who = state.order[index]
    turn = start_turn(moved, entries, who, new_round=new_round)
    events += turn_events(entries[who], turn)
    return Outcome(moved.model_copy(update={"entries": entries, "current": who}), events)


def previous_turn(state: InitState, actor: str, action: Previous, dice: DiceSource) -> Outcome[InitState]:
    if state.current is None:
        raise IllegalAction(said("The first round hasn't started: Next starts it."))
    index = state.order.index(state.current) - 1
    round_ = state.round
    if index < 0:
        if round_ == 1:
            raise IllegalAction(said("This is the first turn of the first round."))
        index, round_ = len(state.order) - 1, round_ - 1
    moved = state.model_copy(update={"round": round_})
    entries = dict(state.entries)
    who = state.order[index]
    events = turn_events(entries[who], start_turn(moved, entries, who, new_round=False, back=True))
    return Outcome(moved.model_copy(update={"entries": entries, "current": who}), events)


def delay_turn(state: InitState, actor: str, action: Delay, dice: DiceSource) -> Outcome[InitState]:
    _ended(state, action)
    if state.current is None:
        raise IllegalAction(said("The first round hasn't started: there is no turn to delay."))
    if len(state.order) < 2:
        raise IllegalAction(said("There is nobody to wait for."))
    waiting = state.entries[state.current]
    index = state.order.index(state.current)
    new_round = index == len(state.order) - 1
    after = state.order[0] if new_round else state.order[index + 1]
    rest = [e for e in state.order if e != waiting.id]
    cut = rest.index(after) + 1
    order = (*rest[:cut], waiting.id, *rest[cut:])
    moved = state.model_copy(update={"round": state.round + new_round, "order": order})
    entries = dict(state.entries)
    delayed = secret(waiting, {"type": "delayed", **named(waiting), "after": entries[after].name})
    if entries[after].hidden and not waiting.hidden:
        delayed = {**delayed, "after": None}  # players see the wait, not who it is for
    turn = start_turn(moved, entries, after, new_round=new_round)
    events = [delayed, *turn_events(entries[after], turn)]
    return Outcome(moved.model_copy(update={"entries": entries, "current": after}), events)
