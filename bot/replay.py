"""Rebuild a session's state from its log: the proof that the log is complete, and how undo works.

Undo and redo are entries of the log like any other, so a replay of the whole log gives the
current state. ``fold`` keeps, beside the state, the stack of undoable actions (with the state
before each) and the stack of undone ones; an action that can't be undone (a player leaving, a
keeper handing over) is a barrier that clears both. So undo needs the log only from the latest
barrier on, folded from the state after it (``Session.undo_from``, ``Store.checkpoint``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from bot.models import LogEntry
from bot.registry import GameKind
from rules.dice import ReplayDice, Roll


class ReplayMismatch(AssertionError):
    """The log does not reproduce the stored state."""


@dataclass
class Folded:
    """A state rebuilt from the log, with what undo and redo would act on."""

    state: BaseModel | None = None
    done: list[tuple[LogEntry, BaseModel]] = field(default_factory=list)
    """Undoable action entries, oldest first, each with the state before it."""
    undone: list[LogEntry] = field(default_factory=list)
    """Undone action entries, the next one to redo last."""


def _undoable(kind: GameKind, entry: LogEntry, action: BaseModel) -> bool:
    """A player's own action that the game lets them take back."""
    undo = kind.undo
    return undo is not None and undo.undoable(action) and entry.action.get("how") == "player"


def is_barrier(kind: GameKind, entry: LogEntry) -> bool:
    """Whether undo never goes back past this entry: it starts or replaces the state, removes a player, or is an
    action that can't be taken back (or that no player took). ``fold`` clears both stacks there."""
    what = entry.action.get("kind")
    if what == "act":
        return not _undoable(kind, entry, kind.engine.parse_action(entry.action["action"]))
    return what in ("start", "import", "leave")


def fold(
    kind: GameKind,
    options: dict[str, Any],
    entries: Iterable[LogEntry],
    start: BaseModel | None = None,
    watch: Callable[[LogEntry, Folded], None] | None = None,
) -> Folded:
    """Apply every logged start, action, departure, undo and redo with the recorded dice; from the state
    ``start`` (the state after a barrier, the entries being those after it) if given. ``watch`` is shown each
    entry with what has been folded before it (a review reads every decision's position so).

    Raises ReplayMismatch if an entry does not use exactly the dice it recorded. The seating
    shuffle's own rolls are kept apart in the start entry; its outcome is the recorded player order.
    """
    engine = kind.engine
    result = Folded(state=start)
    parsed_options = kind.parse_options(options)
    for entry in entries:
        dice = ReplayDice(Roll.model_validate(r) for r in entry.dice)
        what = entry.action.get("kind")
        state = result.state
        if watch is not None:
            watch(entry, result)
        if what == "start":
            result = Folded(state=engine.start(parsed_options, entry.action["players"], dice).state)
        elif what == "import":
            result = Folded(state=engine.state_model.model_validate(entry.action["state"]))
        elif what == "act":
            if state is None or entry.actor is None:
                raise ReplayMismatch(f"entry {entry.seq} acts before the session started")
            action = engine.parse_action(entry.action["action"])
            result.state = engine.apply(state, entry.actor, action, dice).state
            if _undoable(kind, entry, action):
                result.done.append((entry, state))
                result.undone.clear()
            else:
                result.done.clear()
                result.undone.clear()
        elif what == "leave":
            seats = kind.seats
            if state is None or entry.actor is None or seats is None:
                raise ReplayMismatch(f"entry {entry.seq} removes a player from a session without seats")
            result.state = seats.remove_player(state, entry.actor, dice).state
            result.done.clear()
            result.undone.clear()
        elif what == "undo":
            if not result.done or result.done[-1][0].seq != entry.action["target"]:
                raise ReplayMismatch(f"entry {entry.seq} undoes something that is not the latest action")
            target, before = result.done.pop()
            result.state = before
            result.undone.append(target)
        elif what == "redo":
            if state is None or not result.undone or result.undone[-1].seq != entry.action["target"]:
                raise ReplayMismatch(f"entry {entry.seq} redoes something that was not undone last")
            target = result.undone.pop()
            assert target.actor is not None
            action = engine.parse_action(target.action["action"])
            result.state = engine.apply(state, target.actor, action, dice).state
            result.done.append((target, state))
        if not dice.exhausted:
            raise ReplayMismatch(f"entry {entry.seq} recorded dice that replay did not use")
    return result


def replay(kind: GameKind, options: dict[str, Any], entries: Iterable[LogEntry]) -> BaseModel | None:
    """The state a log leads to."""
    return fold(kind, options, entries).state
