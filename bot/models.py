"""Records the core keeps for every game, whatever the game."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, Field


class Status(StrEnum):
    """Where a game is in its life."""

    LOBBY = "lobby"
    ACTIVE = "active"
    FINISHED = "finished"
    ABANDONED = "abandoned"


LIVE_STATUSES = (Status.LOBBY, Status.ACTIVE)


class Seat(BaseModel):
    """A seat at the table. ``player`` is the id the engine knows (``P1``…); the rest is Discord's."""

    player: str = ""
    user_id: int | None = None
    name: str
    computer: bool = False
    timeouts: int = 0
    """Consecutive decisions this seat let time out."""
    left: bool = False


class Deadline(BaseModel):
    """When a pending decision times out, and when its reminder is due."""

    player: str
    decision: str
    at: float
    remind_at: float | None = None


class Game(BaseModel):
    """One game in one channel (a thread counts as a channel)."""

    id: int = 0
    guild_id: int | None
    channel_id: int
    kind: str
    status: Status
    host_id: int
    options: dict[str, Any] = Field(default_factory=dict)
    seats: list[Seat] = Field(default_factory=list)
    state_json: str | None = None
    """The engine state as stored (JSON text); parsed by the runner, which caches it per version."""
    version: int = 0
    board_message_id: int | None = None
    board_posted_at: float | None = None
    deadlines: list[Deadline] = Field(default_factory=list)
    created_at: float = 0.0
    updated_at: float = 0.0
    winners: list[str] | None = None

    def clone(self) -> Game:
        """A copy that can be changed without touching this one (cheaper than a deep copy).

        Seats and deadlines are the only parts the core changes in place; options, state text and
        winners are replaced whole when they change.
        """
        return self.model_copy(
            update={
                "seats": [s.model_copy() for s in self.seats],
                "deadlines": [d.model_copy() for d in self.deadlines],
            }
        )

    def successor(self, now: float, **changes: Any) -> Game:
        """The next version of this game (a changeable copy), with ``changes`` applied."""
        new = self.clone()
        for name, value in changes.items():
            setattr(new, name, value)
        new.version = self.version + 1
        new.updated_at = now
        return new

    def ended(self, now: float) -> Game:
        """The next version, abandoned: kept for history, with nothing pending."""
        return self.successor(now, status=Status.ABANDONED, deadlines=[])

    @property
    def state(self) -> dict[str, Any] | None:
        """The engine state as plain JSON data (for logs and tests; the runner parses ``state_json``)."""
        return None if self.state_json is None else json.loads(self.state_json)

    @property
    def engine_options(self) -> dict[str, Any]:
        """The options that belong to the engine (the core keeps its own under ``_`` keys)."""
        return {k: v for k, v in self.options.items() if not k.startswith("_")}

    def seat_of_user(self, user_id: int) -> Seat | None:
        """The seat ``user_id`` sits in and has not left, if any."""
        return next((s for s in self.seats if s.user_id == user_id and not s.left), None)

    def seat_of_player(self, player: str) -> Seat:
        """The seat of engine player ``player``."""
        return next(s for s in self.seats if s.player == player)

    def name_of(self, player: str) -> str:
        """Display name of engine player ``player``."""
        return self.seat_of_player(player).name

    @property
    def next_deadline(self) -> float | None:
        """The earliest moment the timer loop has something to do for this game."""
        moments = [m for d in self.deadlines for m in (d.at, d.remind_at) if m is not None]
        return min(moments, default=None)


class LogEntry(BaseModel):
    """One entry of a game's append-only event log."""

    seq: int
    actor: str | None
    action: dict[str, Any]
    dice: list[dict[str, Any]] = Field(default_factory=list)
    events: list[dict[str, Any]] = Field(default_factory=list)
    at: float


@dataclass
class Applied:
    """A committed change: the game before and after, and what happened."""

    before: Game
    game: Game
    state: BaseModel
    events: list[dict[str, Any]] = field(default_factory=list)
    how: str = "core"
    """Who decided: ``player``, ``timeout``, ``computer`` or ``core`` (start, leave)."""
    actor: str | None = None
