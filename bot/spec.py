"""What a game's cog gives the core (a GameSpec), and what the core gives it back to draw a view."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, TypeVar

import discord
from pydantic import BaseModel

from bot.controls import SELECTED_ALL, action_id, core_id, encode_action, ui_id
from bot.errors import UserError
from bot.i18n import _, localize
from bot.models import MAIN_VIEW, Deadline, LogEntry, News, Session, Status
from bot.names import clip, escape_name
from bot.registry import GameKind
from bot.service import Expect
from rules.engine import PUBLIC, Prompt, Viewer

if TYPE_CHECKING:
    from bot.replies import Reply

StateT = TypeVar("StateT", bound=BaseModel)
MAX_SELECT_OPTIONS = 25
ANY_ACTION = "*"
"""The encoded action of a select whose option values are themselves encoded actions."""


@dataclass(frozen=True)
class Picture:
    """An image attached to a view, drawn in a worker process when the view is published.

    ``draw`` must be picklable: a module-level function with its arguments bound
    (``functools.partial(draw_sheet, state)``), not a lambda or a closure.
    """

    filename: str
    draw: Callable[[], bytes]
    description: str
    """Alt text: what the picture shows, for screen readers and when it does not load (the attachment's
    description; cut to Discord's 1,024 characters)."""


@dataclass
class View:
    """A view of a session, minus the core's status line: text, embeds, rows of controls, pictures."""

    embeds: list[discord.Embed] = field(default_factory=list)
    rows: list[list[discord.ui.Item[Any]]] = field(default_factory=list)
    content: str = ""
    pictures: list[Picture] = field(default_factory=list)


@dataclass(frozen=True)
class Choice:
    """One option of a select: what it says and the action it takes."""

    label: str
    action: BaseModel | Mapping[str, Any]
    description: str | None = None
    emoji: str | None = None


@dataclass(frozen=True)
class LobbyOption:
    """A game option the host sets from the lobby's Options menu (one select menu each)."""

    key: str
    """Field of the game's options model."""
    label: str
    choices: tuple[tuple[str, Any], ...]
    """(label, value) pairs; values are JSON scalars."""


def _data(action: BaseModel | Mapping[str, Any]) -> Mapping[str, Any]:
    return action.model_dump(mode="json") if isinstance(action, BaseModel) else action


@dataclass
class ViewContext(Generic[StateT]):
    """Everything a cog needs to draw a view and its controls, for one viewer."""

    session: Session
    state: StateT
    """The state as ``viewer`` may see it (the core removed what they may not)."""
    prompts: list[Prompt]
    events: list[dict[str, Any]]
    """What happened since the view was last drawn anew, as ``viewer`` may see it."""
    viewer: Viewer = PUBLIC
    view: str = MAIN_VIEW
    first: bool = False
    """This is the first board of the game (the place for a legend of the faces, say)."""
    _selects: int = field(default=0, init=False, repr=False)

    @property
    def over(self) -> bool:
        """The session has finished."""
        return self.session.status is Status.FINISHED

    def name(self, player: str) -> str:
        """Escaped display name of a seated player (or the id itself in an open session)."""
        seat = next((s for s in self.session.seats if s.player == player), None)
        return escape_name(seat.name if seat is not None else player)

    def expect(self, record: str | None = None) -> Expect:
        """The version a control drawn now is made against: the session's, or one record's."""
        return Expect.of(self.session, record)

    def button(
        self,
        label: str,
        action: BaseModel | Mapping[str, Any],
        *,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        emoji: str | None = None,
        disabled: bool = False,
        record: str | None = None,
    ) -> discord.ui.Button[Any]:
        """A button that takes ``action`` (an engine action) when clicked."""
        return discord.ui.Button(
            label=clip(localize(label), 80),
            style=style,
            emoji=emoji,
            disabled=disabled,
            custom_id=action_id(self.session.id, self.expect(record), _data(action)),
        )

    def select(
        self, choices: Sequence[Choice], *, placeholder: str, record: str | None = None
    ) -> discord.ui.Select[Any]:
        """A select menu (≤ 25 choices): picking one takes its action."""
        if not 1 <= len(choices) <= MAX_SELECT_OPTIONS:
            raise ValueError("a select needs 1 to 25 choices")
        options = [
            discord.SelectOption(
                label=clip(localize(c.label), 100),
                value=encode_action(_data(c.action))[:100],
                description=clip(localize(c.description), 100) if c.description else None,
                emoji=c.emoji,
            )
            for c in choices
        ]
        # Several such selects may share a message, and custom ids must differ: number them.
        self._selects += 1
        return discord.ui.Select(
            custom_id=action_id(self.session.id, self.expect(record), {"type": ANY_ACTION, "n": self._selects}),
            options=options,
            placeholder=clip(localize(placeholder), 150),
        )

    def multi_select(
        self,
        action: BaseModel | Mapping[str, Any],
        field_name: str,
        options: Sequence[discord.SelectOption],
        *,
        placeholder: str,
        min_values: int = 1,
        record: str | None = None,
    ) -> discord.ui.Select[Any]:
        """A select of several values: the values picked become ``action[field_name]`` (a list)."""
        if not 1 <= len(options) <= MAX_SELECT_OPTIONS:
            raise ValueError("a select needs 1 to 25 options")
        template = {**_data(action), field_name: SELECTED_ALL}
        return discord.ui.Select(
            custom_id=action_id(self.session.id, self.expect(record), template),
            options=list(options),
            placeholder=clip(localize(placeholder), 150),
            min_values=min_values,
            max_values=len(options),
        )

    def ui_button(
        self,
        label: str,
        key: str,
        arg: object = "",
        *,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        emoji: str | None = None,
        disabled: bool = False,
        record: str | None = None,
    ) -> discord.ui.Button[Any]:
        """A button handled by the game's own ``on_ui`` (open a modal, page a sheet…); with ``record``, it says the
        version of that record it was drawn on (``Reply.drawn``)."""
        drawn = self.expect(record).version if record is not None else None
        return discord.ui.Button(
            label=clip(localize(label), 80),
            style=style,
            emoji=emoji,
            disabled=disabled,
            custom_id=ui_id(self.session.kind, self.session.id, key, arg, drawn=drawn),
        )

    def core_button(
        self, label: str, key: str, *, emoji: str | None = None, disabled: bool = False
    ) -> discord.ui.Button[Any]:
        """One of the core's own buttons: ``undo``, ``redo``, ``rematch`` (made on the session's version), or
        ``private``: the board drawn for the member who clicks (``viewer_of``: their seat's secrets), sent to them
        alone."""
        return discord.ui.Button(
            label=clip(localize(label), 80),
            style=discord.ButtonStyle.secondary,
            emoji=emoji,
            disabled=disabled,
            custom_id=core_id(self.session.id, key, self.session.version),
        )


@dataclass(frozen=True)
class FaceLuck:
    """A face whose share of the rolls a game's players care about, told in ``/stats luck`` beside the fair share:
    on dice of ``sides`` sides, or on every die that has the face (``sides`` None)."""

    words: str
    """What the face means, plural, with its emoji: ``👑 crowns``."""
    face: int
    sides: int | None = None


class GameSpec(Generic[StateT]):
    """A game as the core sees it on the Discord side. Implemented by each game's cog.

    ``render`` is the one method every game writes; the rest have sensible defaults.
    """

    kind: GameKind
    command: str = ""
    """The slash command group that starts the game (``crowns`` for ``/crowns new``), or the whole command when
    it is not ``new`` (``vv sheet``); the kind's name if empty."""
    lobby_options: tuple[LobbyOption, ...] = ()
    """Options offered in the lobby's Options menu."""
    legend: str = ""
    """A short key to the board (the dice faces…), shown on the first board and in ``/game rules``."""
    seats_players: bool = False
    """The engine sets the seat order itself when the game starts (a die roll, an option of its own): the
    lobby then promises no seat order of its own."""
    luck_faces: tuple[FaceLuck, ...] = ()
    """Faces whose share ``/stats luck`` tells for this game's dice (every game gets the per-size figures)."""
    board_events: bool = True
    """The main view draws what happened since it was posted (``ctx.events``). A campaign's sheet, posted once
    and kept for months, says False: it is then drawn without reading the log."""

    def render(self, ctx: ViewContext[StateT]) -> View:
        """Draw one view of the session (``ctx.view``), with controls for whoever must act."""
        raise NotImplementedError

    def retired(self, ctx: ViewContext[StateT]) -> str:
        """One line saying what happened on a board that is being replaced (``ctx.events``)."""
        lines = self.narrate(ctx.session, ctx.events)
        return lines[-1] if lines else ""

    def news(self, ctx: ViewContext[StateT], entry: LogEntry) -> list[News]:
        """Messages the channel must see for one log entry besides the boards (a roll's result, a narration),
        from ``ctx.events``: the entry's events the channel may see (``entry`` holds only those, and no dice: a
        secret die is in the log's dice too). Written with the entry when it is committed, and shown exactly
        once, after a crash too. Table games show what happened on their board and say nothing here."""
        return []

    def gm_news(self, ctx: ViewContext[StateT], entry: LogEntry) -> list[News]:
        """Messages for the GMs alone, by direct message (``News.private``), for one log entry: ``ctx`` is what a GM
        sees (the whole state, every event of the entry). The core keeps only private items that ping nobody and
        go to members holding a GM role after the change; the rest is dropped. Written and told as ``news`` is."""
        return []

    def member_news(self, ctx: ViewContext[StateT], entry: LogEntry) -> list[News]:
        """Messages for one member alone, by direct message (``News.private``, with a ``fallback`` the channel may
        say where none can reach them), for a log entry with an event only some may see (``only``): ``ctx`` is that
        member's view (``ctx.viewer``: the state and the events as they see them). The core asks once for each
        member such an event names, and keeps only private items that ping nobody and go to that member alone.
        Written and told as ``news`` is."""
        return []

    def reminder(self, session: Session, deadline: Deadline) -> News | None:
        """What to say when a reminder the game asked for comes due (``rules.engine.Reminders``; the deadline's
        ``player`` and ``decision`` are the reminder's); None says nothing (what it was about is over)."""
        return None

    def narrate(self, session: Session, events: list[dict[str, Any]]) -> list[str]:
        """Plain sentences for events, for boards and ``/game log``."""
        return []

    def describe_options(self, options: BaseModel) -> str:
        """The options in force, one short line each, for the lobby and ``/game rules``."""
        return ""

    def options_of(self, session: Session) -> BaseModel:
        """The options a session plays by now: those it was made with (a game whose options change as it is
        played, a campaign's house rules, reads them from its state)."""
        return self.kind.parse_options(session.engine_options)

    def rules_summary(self) -> str:
        """A few lines on how to play."""
        return ""

    def summary(self, session: Session) -> str:
        """What a long-lived session is at, in a few words (a campaign's name and turn), for ``/game history``."""
        return ""

    async def on_ui(self, reply: Reply, session: Session, key: str, arg: str, values: list[str]) -> None:
        """A click on one of the game's own controls (``ViewContext.ui_button``)."""
        raise UserError(_("That button is no longer in use."))
