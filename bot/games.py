"""What a game cog gives the core (a GameSpec), and what the core gives it back to render a board."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import discord
from pydantic import BaseModel

from bot.models import Game, Seat
from bot.names import escape_name
from rules.engine import Prompt

CUSTOM_ID_MAX = 100
BUTTON_PREFIX = "g"
SELECT_PREFIX = "gs"


def custom_id(prefix: str, game: Game, key: str, arg: str = "") -> str:
    """``prefix:game:version:key[:arg]``; the version makes clicks on an old board detectable."""
    value = f"{prefix}:{game.id}:{game.version}:{key}"
    if arg:
        value += f":{arg}"
    if len(value) > CUSTOM_ID_MAX:
        raise ValueError(f"custom_id too long: {value!r}")
    return value


@dataclass
class Board:
    """A game's message, minus the core's status line: embeds and rows of components."""

    embeds: list[discord.Embed] = field(default_factory=list)
    rows: list[list[discord.ui.Item[Any]]] = field(default_factory=list)


@dataclass
class BoardContext:
    """Everything a cog needs to draw a board and its controls."""

    game: Game
    state: BaseModel
    prompts: list[Prompt]
    events: list[dict[str, Any]]
    """Events of the latest action, to narrate what just happened."""

    def name(self, player: str) -> str:
        """Escaped display name of an engine player."""
        return escape_name(self.game.name_of(player))

    @property
    def seats(self) -> list[Seat]:
        """Seats in order."""
        return self.game.seats

    def button(
        self,
        key: str,
        label: str,
        *,
        arg: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        emoji: str | None = None,
        disabled: bool = False,
    ) -> discord.ui.Button[Any]:
        """A button that the core routes back to the game as ``(key, arg)``."""
        return discord.ui.Button(
            label=label[:80],
            style=style,
            emoji=emoji,
            disabled=disabled,
            custom_id=custom_id(BUTTON_PREFIX, self.game, key, arg),
        )

    def select(
        self, key: str, options: Sequence[discord.SelectOption], *, placeholder: str, max_values: int = 1
    ) -> discord.ui.Select[Any]:
        """A select menu (≤ 25 options) routed back as ``(key, chosen values)``."""
        if not 1 <= len(options) <= 25:
            raise ValueError("a select needs 1 to 25 options")
        return discord.ui.Select(
            custom_id=custom_id(SELECT_PREFIX, self.game, key),
            options=list(options),
            placeholder=placeholder[:150],
            max_values=min(max_values, len(options)),
        )


@dataclass(frozen=True)
class LobbyOption:
    """A game option the host sets from the lobby's Options menu (one select menu each)."""

    key: str
    """Field of the game's options model."""
    label: str
    choices: tuple[tuple[str, Any], ...]
    """(label, value) pairs; values are JSON scalars."""


class GameSpec(Protocol):
    """A game as the core sees it. Implemented by each game's cog."""

    engine: Any
    has_computer_players: bool
    lobby_options: tuple[LobbyOption, ...]
    """Options offered in the lobby's Options menu (empty for none)."""

    def render(self, ctx: BoardContext) -> Board:
        """Draw the board for the current state, with controls for whoever must act."""
        ...

    def action_for(self, ctx: BoardContext, player: str, key: str, arg: str, values: list[str]) -> dict[str, Any]:
        """Turn a click (``key``, ``arg``) or a select (``values``) into the engine's action JSON."""
        ...

    def narrate(self, game: Game, events: list[dict[str, Any]]) -> list[str]:
        """Plain sentences for events, for the board and ``/game log``."""
        ...

    def describe_options(self, options: BaseModel) -> str:
        """The options in force, one short line each, for the lobby and ``/game rules``."""
        ...

    def rules_summary(self) -> str:
        """A few lines on how to play."""
        ...
