"""The contract every rules engine keeps, so the bot core can run any game without naming it.

An engine is a stateless object. Its state and actions are pydantic models that round-trip
exactly through JSON. ``apply`` never mutates the state it is given; it returns a new state and
the events that explain what happened, or raises :class:`IllegalAction` with a reason a player can
read. All randomness (including first player or seat order) comes from the dice source passed in.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

from pydantic import BaseModel, ConfigDict

from rules.dice import DiceSource


class IllegalAction(Exception):
    """The action is not allowed now; ``reason`` is shown to the player as is."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class Prompt(BaseModel):
    """Someone who must decide something before the game can go on."""

    model_config = ConfigDict(frozen=True)

    player: str
    """Player id (as given to ``start``)."""
    decision: str
    """Machine name of the decision, e.g. ``roll`` or ``assign_scroll``."""
    label: str
    """Short text for the board: "roll the dice", "give a scroll die to a rival"."""
    timer: str | None = "turn"
    """Which of the game's timeouts applies (``Options.timeouts[timer]`` seconds); None = no deadline."""
    ping: bool = True
    """Whether asking for this decision should mention the player (a fate window pings nobody)."""


StateT = TypeVar("StateT", bound=BaseModel)
OptionsT = TypeVar("OptionsT", bound=BaseModel)


@dataclass(slots=True)
class Outcome(Generic[StateT]):
    """What an action did: the new state and the events (JSON-able dicts with a ``type``), oldest first."""

    state: StateT
    events: list[dict[str, Any]] = field(default_factory=list)


class GameEngine(Protocol[OptionsT, StateT]):
    """What the bot core needs from a game."""

    kind: str
    """Stable short name stored with each game (``crowns``)."""
    title: str
    """Name shown to players (``Dice of Crowns``)."""
    min_players: int
    max_players: int
    options_model: type[OptionsT]
    state_model: type[StateT]

    def start(self, options: OptionsT, players: Sequence[str], dice: DiceSource) -> Outcome[StateT]:
        """Set up a new game for ``players`` in seat order."""
        ...

    def parse_action(self, data: dict[str, Any]) -> BaseModel:
        """Validate a JSON action into the game's action model."""
        ...

    def apply(self, state: StateT, actor: str, action: BaseModel, dice: DiceSource) -> Outcome[StateT]:
        """Apply ``action`` by ``actor``; raise IllegalAction if it is not allowed now."""
        ...

    def prompts(self, state: StateT) -> list[Prompt]:
        """Who must act now, and on what. Empty when the game is over."""
        ...

    def legal_actions(self, state: StateT, player: str) -> list[BaseModel]:
        """Every action ``player`` may take now (empty if none)."""
        ...

    def default_action(self, state: StateT, player: str) -> BaseModel:
        """The documented default taken for ``player`` when their decision times out."""
        ...

    def computer_action(self, state: StateT, player: str, dice: DiceSource) -> BaseModel:
        """The action a computer player in ``player``'s seat takes now."""
        ...

    def remove_player(self, state: StateT, player: str, dice: DiceSource) -> Outcome[StateT]:
        """``player`` leaves mid-game; the game decides what happens to their seat."""
        ...

    def winners(self, state: StateT) -> list[str] | None:
        """None while the game goes on; the winning player ids once it is over."""
        ...


def seat_after(players: Sequence[str], player: str, step: int = 1) -> str:
    """The player ``step`` seats clockwise after ``player``."""
    return players[(players.index(player) + step) % len(players)]
