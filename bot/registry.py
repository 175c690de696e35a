"""The games this bot runs, each an engine with the capabilities the core detected on it."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from pydantic import BaseModel

from bot.errors import NoSession
from bot.i18n import _, localize
from bot.models import Scope
from rules.dice import DiceSource
from rules.engine import (
    NORMAL,
    PUBLIC,
    Chapters,
    ComputerPlayers,
    Engine,
    ForcedMoves,
    HiddenInformation,
    Permissions,
    Places,
    Prompt,
    Records,
    Reminder,
    Reminders,
    Rollers,
    ScoreLuck,
    Seats,
    Turns,
    Undo,
    Viewer,
)


@dataclass(frozen=True)
class GameKind:
    """One game as the core runs it: its engine, the scope its sessions take, and its capabilities.

    Each capability is detected once (an ``isinstance`` check against a runtime protocol costs tens
    of microseconds, and the core asks on every action).
    """

    engine: Engine[Any, Any, Any]
    scope: Scope = Scope.TABLE

    @property
    def kind(self) -> str:
        """The engine's stable short name."""
        return self.engine.kind

    @property
    def title(self) -> str:
        """The game's name for players, in the language being spoken (a tool's name, like "Initiative", is
        translated; a game's stays as it is)."""
        return localize(self.engine.title)

    @cached_property
    def turns(self) -> Turns[Any, Any] | None:
        """The engine, if it waits on named decisions."""
        return self.engine if isinstance(self.engine, Turns) else None

    @cached_property
    def computers(self) -> ComputerPlayers[Any, Any] | None:
        """The engine, if seats can be played by the computer."""
        return self.engine if isinstance(self.engine, ComputerPlayers) else None

    @cached_property
    def seats(self) -> Seats[Any] | None:
        """The engine, if players sit at a table (lobby, leaving, winners)."""
        return self.engine if isinstance(self.engine, Seats) else None

    @cached_property
    def permissions(self) -> Permissions[Any, Any] | None:
        """The engine, if it says who may take which action."""
        return self.engine if isinstance(self.engine, Permissions) else None

    @cached_property
    def records(self) -> Records[Any] | None:
        """The engine, if its state is made of separately versioned records."""
        return self.engine if isinstance(self.engine, Records) else None

    @cached_property
    def forced(self) -> ForcedMoves[Any, Any] | None:
        """The engine, if it can say which decisions have only one real answer."""
        return self.engine if isinstance(self.engine, ForcedMoves) else None

    @cached_property
    def undo(self) -> Undo[Any] | None:
        """The engine, if actions can be undone."""
        return self.engine if isinstance(self.engine, Undo) else None

    @cached_property
    def chapters(self) -> Chapters[Any] | None:
        """The engine, if its sessions are lived in numbered parts (a campaign's turns)."""
        return self.engine if isinstance(self.engine, Chapters) else None

    @cached_property
    def rollers(self) -> Rollers | None:
        """The engine, if it says who rolled each die of an action (for the luck statistics)."""
        return self.engine if isinstance(self.engine, Rollers) else None

    @cached_property
    def score_luck(self) -> ScoreLuck[Any] | None:
        """The engine, if it measures how much dice decided a turn's points (for the luck statistics)."""
        return self.engine if isinstance(self.engine, ScoreLuck) else None

    @cached_property
    def places(self) -> Places[Any] | None:
        """The engine, if it ranks every seat at the end (else winners first, the rest tied)."""
        return self.engine if isinstance(self.engine, Places) else None

    @property
    def rated(self) -> bool:
        """Whether a finished table of this game changes its players' ratings: on for a game with seats, unless its
        engine says ``rated = False``."""
        return self.seats is not None and bool(getattr(self.engine, "rated", True))

    def chapter(self, state: BaseModel) -> int | None:
        """The part of the session ``state`` is in (None for a game without chapters)."""
        chapters = self.chapters
        return chapters.chapter(state) if chapters is not None else None

    def prompts(self, state: BaseModel) -> list[Prompt]:
        """Who must act now (nobody, for an engine without turns)."""
        turns = self.turns
        return turns.prompts(state) if turns is not None else []

    @cached_property
    def timed_reminders(self) -> Reminders[Any] | None:
        """The engine, if it asks for reminders of its own."""
        return self.engine if isinstance(self.engine, Reminders) else None

    def reminders(self, state: BaseModel) -> list[Reminder]:
        """The reminders the game asks for now (none, for an engine without them)."""
        timed = self.timed_reminders
        return timed.reminders(state) if timed is not None else []

    def legal_actions(self, state: BaseModel, player: str) -> Sequence[BaseModel]:
        """What ``player`` may do now (nothing listed, for an engine without turns)."""
        turns = self.turns
        return turns.legal_actions(state, player) if turns is not None else ()

    def view(self, state: BaseModel, viewer: Viewer = PUBLIC) -> BaseModel:
        """The state as ``viewer`` may see it: the only way the Discord side gets a state to draw."""
        if isinstance(self.engine, HiddenInformation):
            return self.engine.view(state, viewer)
        return state

    def computer_action(self, state: BaseModel, player: str, dice: DiceSource, strength: str = NORMAL) -> BaseModel:
        """What the computer in ``player``'s seat does now, decided from what that seat may see: the computer is
        given ``view(state, Viewer(player))``, never the other seats' secrets (nor dice drawn ahead, if a game kept
        any in its state). ``strength`` is the seat's."""
        computers = self.computers
        assert computers is not None, f"{self.kind} has no computer players"
        action: BaseModel = computers.computer_action(self.view(state, Viewer(player)), player, dice, strength)
        return action

    def seat_limits(self, options: BaseModel) -> tuple[int, int]:
        """How many players a table of this game seats with these options."""
        seats = self.seats
        if seats is None:
            return (0, 0)
        limits = getattr(self.engine, "seat_limits", None)
        return limits(options) if limits is not None else (seats.min_players, seats.max_players)

    def parse_options(self, data: dict[str, Any]) -> BaseModel:
        """The engine's options model from stored JSON."""
        model: type[BaseModel] = self.engine.options_model
        return model.model_validate(data)


class Registry:
    """Every game kind loaded (cogs register theirs at load time)."""

    def __init__(self) -> None:
        self._kinds: dict[str, GameKind] = {}

    def add(self, kind: GameKind) -> None:
        """Make a game known to the core."""
        self._kinds[kind.kind] = kind

    def get(self, kind: str) -> GameKind:
        """A registered game kind; a friendly error for a game this bot no longer loads."""
        try:
            return self._kinds[kind]
        except KeyError:
            raise NoSession(_("That game is not available on this bot right now.")) from None

    def __contains__(self, kind: object) -> bool:
        return kind in self._kinds

    def __iter__(self) -> Iterator[GameKind]:
        return iter(self._kinds.values())
