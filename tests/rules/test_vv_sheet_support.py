"""Helpers for the scoresheet tests: make a sheet, write on it as the keeper, replay a log like the core."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from rules.dice import DiceSource, RecordingDice, ReplayDice, Roll, ScriptedDice
from rules.vices.sheet import SHEET_ENGINE
from rules.vices.sheet_state import SheetOptions, SheetState, progress

KEEPER = "100"
VV14 = (("Wrath", "Jordan"), ("Sloth", "Taylor"), ("Greed", "Casey"), ("Pride", "Avery"))
"""Seats of RULES.md VV-14 (and VV-2): (original Sin, name)."""
NO_DICE = ScriptedDice([])


def new_sheet(
    rows: Sequence[tuple[str, str]] = VV14, members: Sequence[str | None] = (), **settings: Any
) -> SheetState:
    """A started sheet kept by KEEPER (Kim); ``members`` gives the rows' Discord ids, in order."""
    specs = [
        {"sin": sin, "name": name, "member": members[i] if i < len(members) else None}
        for i, (sin, name) in enumerate(rows)
    ]
    options = SheetOptions.model_validate({"keeper": KEEPER, "keeper_name": "Kim", "rows": specs, "settings": settings})
    return SHEET_ENGINE.start(options, [], NO_DICE).state


def act(state: SheetState, data: dict[str, Any], actor: str = KEEPER, dice: DiceSource = NO_DICE) -> SheetState:
    """Apply one action given as JSON, as the keeper by default; return the new state."""
    return SHEET_ENGINE.apply(state, actor, SHEET_ENGINE.parse_action(data), dice).state


def play(state: SheetState, *values: int) -> SheetState:
    """Enter these turn scores in turn, each for whoever is up."""
    for value in values:
        up = progress(state).up
        assert up is not None, "the game is over"
        state = act(state, {"type": "score", "row": up, "value": value})
    return state


class Log:
    """The core's view of a sheet: every action with the dice it used, and undo/redo by replaying."""

    def __init__(self, start: SheetState) -> None:
        self.start = start
        self.entries: list[tuple[str, dict[str, Any], list[Roll]]] = []
        self.undone: list[int] = []
        """Indexes of undone entries, most recent last (redo takes them back in reverse)."""

    def act(self, data: dict[str, Any], actor: str = KEEPER, dice: DiceSource = NO_DICE) -> SheetState:
        """Apply an action on the current state and log it; undone entries can no longer be redone."""
        recording = RecordingDice(dice)
        action = SHEET_ENGINE.parse_action(data)
        new = SHEET_ENGINE.apply(self.state, actor, action, recording).state
        self.entries = [e for i, e in enumerate(self.entries) if i not in self.undone]
        self.undone = []
        self.entries.append((actor, action.model_dump(mode="json"), recording.rolls))
        return new

    def undo(self) -> SheetState:
        """Take back the latest undoable entry that is still in force."""
        live = [i for i in range(len(self.entries)) if i not in self.undone]
        index = next(i for i in reversed(live) if SHEET_ENGINE.undoable(SHEET_ENGINE.parse_action(self.entries[i][1])))
        self.undone.append(index)
        return self.state

    def redo(self) -> SheetState:
        """Put back the most recently undone entry."""
        self.undone.pop()
        return self.state

    @property
    def state(self) -> SheetState:
        """The state rebuilt from the start by replaying every entry not undone, with its recorded dice."""
        return replay(self.start, (e for i, e in enumerate(self.entries) if i not in self.undone))


def replay(start: SheetState, entries: Iterable[tuple[str, dict[str, Any], list[Roll]]]) -> SheetState:
    """What the core does: parse each logged action again and apply it with the dice it recorded."""
    state = start
    for actor, data, rolls in entries:
        dice = ReplayDice(rolls)
        state = SHEET_ENGINE.apply(state, actor, SHEET_ENGINE.parse_action(data), dice).state
        assert dice.exhausted
    return state
