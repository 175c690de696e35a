"""What the contract suite needs of a game: a table (options, seats, members), random legal play, and what the
game keeps secret. Each game says it in its own file in ``tests/contract/games/`` (``GAME = Game(…)``).

A game with ``Turns`` is played by picking among its ``legal_actions``; an open session (a scoresheet, a
campaign) gives ``move``, a random action someone might try, legal or not. A game with hidden information says
whose secrets a state holds (``owners``) and whether a state as someone may see it shows an owner's secret
(``shows``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from bot.models import MAIN_VIEW, Actor, Seat, Session, Status
from bot.registry import GameKind
from bot.spec import GameSpec
from rules.engine import Viewer

LONG_NAME = "Ｗ" * 31  # display names are at most 32 characters; wide ones take the most room
FIRST_USER = 10**18


@dataclass
class Table:
    """A session of one game, as the core stores it, and the members who play it."""

    session: Session
    options: BaseModel
    players: list[str]
    """Seated player ids in seat order (empty for an open session)."""
    members: list[Actor]
    """Everyone the suite draws private views for: each player, the GM, the keeper."""


Move = tuple[str, dict[str, Any]]


@dataclass(frozen=True, eq=False)  # one of each: the suite caches a game's plays by it
class Game:
    """One game kind in the suite."""

    name: str
    spec: GameSpec[Any]
    table: Callable[[random.Random], Table]
    move: Callable[[random.Random, BaseModel], Move] | None = None
    """Open sessions: an action someone might try now (who, the action's JSON), legal or not."""
    steps: int = 150
    """At most this many actions a game (a table game usually ends sooner)."""
    games: int = 3
    """How many games (seeds) the suite plays: more where random tables differ most (modules, house rules)."""
    owners: Callable[[BaseModel], Sequence[str]] = lambda state: ()
    """The players (or role names) whose secrets ``state`` holds."""
    shows: Callable[[BaseModel, str], bool] = lambda viewed, owner: False
    """Whether ``viewed`` (a state as someone may see it) shows ``owner``'s secret."""
    views: Callable[[BaseModel], Sequence[str]] = lambda state: (MAIN_VIEW,)
    """Every view of the session the game draws (the main board, a troupe's sheet, a pool…)."""
    narrator: Callable[[Session, BaseModel, list[dict[str, Any]]], list[str]] | None = None
    """How the spec tells events with the session's state, for a spec that reads the state through the bot (the
    suite runs none); None: the spec's ``narrate``."""
    exports: Callable[[BaseModel, Viewer], str | None] = lambda state, viewer: None
    """What ``viewer`` may take away as a file (a campaign's export); None where they may not."""

    @property
    def kind(self) -> GameKind:
        """The game as the core runs it."""
        return self.spec.kind

    def narrate(self, session: Session, state: BaseModel, events: list[dict[str, Any]]) -> list[str]:
        """The sentences boards and ``/game log`` tell of ``events``, the session being at ``state``."""
        if self.narrator is not None:
            return self.narrator(session, state, events)
        return self.spec.narrate(session, events)

    def __str__(self) -> str:
        return self.name


def seated(kind: str, options: BaseModel, players: int) -> Table:
    """A running table of ``players`` members with the longest names, on a session far into its life."""
    seats = [Seat(player=f"P{i}", user_id=FIRST_USER + i, name=f"{LONG_NAME}{i}") for i in range(1, players + 1)]
    session = Session(
        id=987654321,
        guild_id=1,
        channel_id=2,
        kind=kind,
        status=Status.ACTIVE,
        host_id=seats[0].user_id,
        options=options.model_dump(mode="json"),
        seats=seats,
        version=123456,
    )
    members = [Actor(s.user_id, s.name) for s in seats if s.user_id is not None]
    return Table(session, options, [s.player for s in seats], members)


def open_session(kind: str, options: BaseModel, host: int, roles: dict[str, list[str]], others: list[int]) -> Table:
    """A session without seats (a campaign, a scoresheet): its players act as their user ids."""
    session = Session(
        id=987654321,
        guild_id=1,
        channel_id=2,
        kind=kind,
        status=Status.ACTIVE,
        host_id=host,
        options=options.model_dump(mode="json"),
        roles=roles,
        version=123456,
    )
    return Table(session, options, [], [Actor(u, f"{LONG_NAME}{u % 10}") for u in (host, *others)])
