"""The working copy an action is applied to: the latest state, the dice source and the events so far."""

from __future__ import annotations

from typing import Any

from rules.dice import DiceSource
from rules.vices.data import SIDES
from rules.vices.state import Seat, Turn, VicesState


class Table:
    """A state being changed by one action. Every change replaces frozen models with updated copies, so
    the state the action started from is never touched."""

    def __init__(self, state: VicesState, dice: DiceSource) -> None:
        self.s = state
        self.dice = dice
        self.events: list[dict[str, Any]] = []

    @property
    def turn(self) -> Turn:
        """The defender's turn in progress."""
        turn = self.s.turn
        assert turn is not None, "no turn in progress"
        return turn

    def emit(self, event: str, /, **fields: Any) -> None:
        """Record an event for the narrator."""
        self.events.append({"type": event, **fields})

    def put(self, **changes: Any) -> None:
        """Replace fields of the state (the engine only writes values of the declared types)."""
        self.s = self.s.model_copy(update=changes)

    def put_turn(self, **changes: Any) -> None:
        """Replace fields of the turn in progress."""
        self.put(turn=self.turn.model_copy(update=changes))

    def put_seat(self, player: str, **changes: Any) -> None:
        """Replace fields of ``player``'s seat."""
        self.put(players=tuple(p.model_copy(update=changes) if p.id == player else p for p in self.s.players))

    def move_sin(self, sin: str, to: str) -> None:
        """Move a Sin, with its token and dice, to a player, the reserves or out of play."""
        self.put(sins={**self.s.sins, sin: to})

    def roll(self, die_id: str, sides: int | None = None) -> int:
        """Roll one die of the game (or a setup die of ``sides`` sides) through the dice source."""
        return self.dice.roll(die_id, SIDES[die_id] if sides is None else sides)

    def seat(self, player: str) -> Seat:
        """The seat of ``player`` now."""
        return self.s.seat(player)
