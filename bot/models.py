"""Records the core keeps for every session (a table game, a scoresheet or a campaign), whatever the game."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, Field

from bot.names import escape_name
from rules.engine import HOST, MANAGER, NORMAL, PLAYER, Viewer


class Status(StrEnum):
    """Where a session is in its life."""

    LOBBY = "lobby"
    ACTIVE = "active"
    FINISHED = "finished"
    ABANDONED = "abandoned"


LIVE_STATUSES = (Status.LOBBY, Status.ACTIVE)
RESTORED_AT = "_restored_at"
"""The core's option holding when a restore put the session back (``Session.restored_at``)."""


class Scope(StrEnum):
    """What a session occupies: a channel has at most one live session per scope."""

    TABLE = "table"
    """A table game or a scoresheet: one per channel."""
    CAMPAIGN = "campaign"
    """A long-lived campaign: one per channel (or a named one per server), beside any table game."""
    TRACKER = "tracker"
    """A tool kept beside whatever is played in a channel (a turn order): one per channel, beside both."""


How = Literal["player", "timeout", "computer", "auto", "core"]
"""Who decided an action: a player, a deadline's default, a computer seat, the bot taking the only
legal answer, or the core itself (start, leave, undo)."""


class Seat(BaseModel):
    """A seat at the table. ``player`` is the id the engine knows (``P1``…); the rest is Discord's."""

    player: str = ""
    user_id: int | None = None
    name: str
    computer: bool = False
    strength: str = NORMAL
    """How well the computer plays this seat (``rules.engine.STRENGTHS``), chosen in the lobby."""
    timeouts: int = 0
    """Consecutive decisions this seat let time out."""
    left: bool = False

    @property
    def human(self) -> bool:
        """A member plays this seat now (not a computer, not gone)."""
        return self.user_id is not None and not self.computer and not self.left

    @property
    def mention(self) -> str:
        """A user mention for a member's seat, the escaped name in bold for a computer seat."""
        if self.user_id is not None and not self.computer:
            return f"<@{self.user_id}>"
        return f"**{escape_name(self.name)}**"


class Deadline(BaseModel):
    """When a pending decision times out, and when its reminder is due.

    A deadline starts (``at`` is set) only once the decision has been shown in the channel: a
    decision nobody was ever shown never times out.
    """

    player: str
    decision: str
    seconds: float
    at: float | None = None
    remind_at: float | None = None
    remind: bool = True
    """Whether the half-time reminder pings (not for computer seats or optional windows)."""
    expires: bool = True
    """False for a reminder a game asked for (``Reminders``): due at ``remind_at``, nothing happens at an end."""

    def started(self, now: float) -> Deadline:
        """This deadline, counting from ``now`` if it had not started yet."""
        if self.at is not None or not self.expires:
            return self
        return self.model_copy(
            update={"at": now + self.seconds, "remind_at": now + self.seconds / 2 if self.remind else None}
        )


class Board(BaseModel):
    """A message that shows one view of a session in a channel (the table's board, a campaign's sheet)."""

    view: str
    channel_id: int
    message_id: int
    shown_version: int
    """The version (of the session, or of the view's record) the message shows."""
    posted_at: float
    asked: list[str] = Field(default_factory=list)
    """Players the message asked to act (they were pinged, or did not need to be)."""
    first_seq: int = 0
    """Log sequence number when the message was posted: what happened on it is the log from there on."""
    status: Status = Status.ACTIVE
    """The session's status when the message was last drawn (a lobby, a game in progress…)."""


class Session(BaseModel):
    """One table game, scoresheet or campaign in one channel (a thread counts as a channel)."""

    id: int = 0
    guild_id: int | None
    channel_id: int
    kind: str
    scope: Scope = Scope.TABLE
    name: str | None = None
    """A campaign's name, unique among the server's live campaigns; None for the channel's own."""
    status: Status
    host_id: int
    roles: dict[str, list[str]] = Field(default_factory=dict)
    """Roles beyond host and player, by user id (as text): ``{"123": ["gm"]}``."""
    options: dict[str, Any] = Field(default_factory=dict)
    seats: list[Seat] = Field(default_factory=list)
    state_json: str | None = None
    """The engine state as stored (JSON text); parsed once per version by the service."""
    version: int = 0
    records: dict[str, int] = Field(default_factory=dict)
    """For engines with records: the session version at which each record last changed."""
    deadlines: list[Deadline] = Field(default_factory=list)
    boards: dict[str, Board] = Field(default_factory=dict)
    """The live message of each view, stored beside the session (its changes don't bump the version)."""
    drawn: int = 0
    """The version every view of the session was drawn at, as far as is known (``Store.shown`` moves it): a live
    session drawn behind its version needs drawing, after a restart too. A save never writes it."""
    computer_due: bool = False
    """A computer seat must act in this version (set by the service with each commit)."""
    news_from: int | None = None
    """The first log entry whose news (``LogEntry.news``) may not have reached the channel yet; None when all
    of it did. Set by the write that logs news, cleared by ``Store.news_delivered``: a save never writes it."""
    created_at: float = 0.0
    updated_at: float = 0.0
    winners: list[str] | None = None
    chapter: int | None = None
    """The part of a long session its state is in (a campaign's turn: ``Chapters``); each log entry is stored
    with it, so one part of the log is read without the rest. None for games without chapters."""
    undo_from: int | None = None
    """The latest log entry undo can't go back past (an action that can't be undone): the store keeps the state
    after it, and undo folds the log from there. None: from the start."""
    log_cleared_at: float | None = None
    """When this ended session's log was cleared, as the server's ``keep_logs_days`` asks (its row, result and
    players stay for history)."""

    def clone(self) -> Session:
        """A copy that can be changed without touching this one (cheaper than a deep copy).

        Seats, deadlines, roles, records and boards are the parts the core changes in place; options,
        state text and winners are replaced whole when they change.
        """
        return self.model_copy(
            update={
                "seats": [s.model_copy() for s in self.seats],
                "deadlines": list(self.deadlines),
                "roles": {k: list(v) for k, v in self.roles.items()},
                "records": dict(self.records),
                "boards": dict(self.boards),
            }
        )

    def successor(self, now: float, **changes: Any) -> Session:
        """The next version of this session (a changeable copy), with ``changes`` applied."""
        new = self.clone()
        for name, value in changes.items():
            setattr(new, name, value)
        new.version = self.version + 1
        new.updated_at = now
        return new

    def ended(self, now: float) -> Session:
        """The next version, abandoned: kept for history, with nothing pending."""
        return self.successor(now, status=Status.ABANDONED, deadlines=[])

    @property
    def live(self) -> bool:
        """A lobby or a session in progress."""
        return self.status in LIVE_STATUSES

    @property
    def state(self) -> dict[str, Any] | None:
        """The engine state as plain JSON data (for logs and tests; the service parses ``state_json``)."""
        return None if self.state_json is None else json.loads(self.state_json)

    @property
    def restored_at(self) -> float | None:
        """When ``python -m bot.restore`` put this session back as a backup had it (``bot.storage.restored``): a
        control on a message drawn before then is out of date."""
        at = self.options.get(RESTORED_AT)
        return float(at) if isinstance(at, int | float) else None

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
    def humans(self) -> list[Seat]:
        """Seats a member plays now."""
        return [s for s in self.seats if s.human]

    @property
    def board(self) -> Board | None:
        """The table's board message (the main view)."""
        return self.boards.get(MAIN_VIEW)

    @property
    def next_deadline(self) -> float | None:
        """The earliest moment the timer loop has something to do for this session."""
        moments = [m for d in self.deadlines for m in (d.at, d.remind_at) if m is not None]
        return min(moments, default=None)

    def view_version(self, view: str) -> int:
        """The version a message showing ``view`` must be at to be current: the session's for the main view,
        else that of the record it shows, or the latest of the records it follows (``troupe:7+turn``)."""
        if view == MAIN_VIEW:
            return self.version
        return max(self.records.get(record, 0) for record in view.split(VIEW_RECORDS_JOIN))


MAIN_VIEW = "board"
"""The view every session has: the table's board, the sheet, the campaign's overview."""
VIEW_RECORDS_JOIN = "+"
"""Joins the records a view follows, when it shows more than one (``troupe:7+turn``)."""


@dataclass(frozen=True, slots=True)
class Actor:
    """A Discord user acting on a session, as the Discord-free core needs to know them."""

    user_id: int
    name: str
    manager: bool = False
    """Holds Manage Server where the session is."""


def roles_of(session: Session, actor: Actor) -> frozenset[str]:
    """Every role ``actor`` holds in ``session``."""
    roles = set(session.roles.get(str(actor.user_id), ()))
    if actor.user_id == session.host_id:
        roles.add(HOST)
    if session.seat_of_user(actor.user_id) is not None:
        roles.add(PLAYER)
    if actor.manager:
        roles.add(MANAGER)
    return frozenset(roles)


def viewer_of(session: Session, actor: Actor) -> Viewer:
    """Who ``actor`` is to the game when something is drawn for them alone (a private view, ``/game log``): the
    player of their seat at a table (``P1``…, as the engine knows them), else their user id (an open session's
    players, or anyone watching), with their roles. The engine's ``view`` and the ``only`` of its events speak of
    players, so a secret of a seat reaches the member sitting in it, and no one else."""
    seat = session.seat_of_user(actor.user_id)
    return Viewer(seat.player if seat is not None else str(actor.user_id), roles_of(session, actor))


class News(BaseModel):
    """A message a committed change must show in the channel besides its boards (a roll's result, a
    narration, an announcement), written with the change's log entry so it is shown after a crash too."""

    text: str
    pings: list[int] = Field(default_factory=list)
    """Members this message calls (users only)."""
    dms: list[int] = Field(default_factory=list)
    """Members it calls by a direct message instead of a ping (they asked for that)."""
    private: bool = False
    """Said only by direct message to ``dms``, never in the channel: news for the GMs alone (``GameSpec.gm_news``),
    such as a rival's move that waits on the GM or a takeover told to the GMs it concerns, or for one member alone
    (``GameSpec.member_news``), such as a handout."""
    fallback: str | None = None
    """Private news only: what the channel says instead, pinging the member, where a direct message can't reach
    them (it must say nothing of the secret: "the GM has a handout for you in `/vic log`")."""


class Told(BaseModel):
    """One message a commit outside any session produces (``Outgoing``): news to post, or something stored to
    show (``draw``: a kind of message a cog draws, such as a secret roll's commitment; ``ref``: which one), posted
    the first time and edited after, always drawn from what is stored when it is delivered."""

    news: News | None = None
    draw: str | None = None
    ref: int = 0


class Outgoing(BaseModel):
    """What a commit outside any session must show in a channel, written in the commit's transaction (a row of
    the outbox, ``bot.outbox``) and deleted once it is shown."""

    id: int = 0
    channel_id: int
    guild_id: int | None = None
    told: list[Told]


class LogEntry(BaseModel):
    """One entry of a session's append-only event log."""

    seq: int
    actor: str | None
    action: dict[str, Any]
    dice: list[dict[str, Any]] = Field(default_factory=list)
    events: list[dict[str, Any]] = Field(default_factory=list)
    at: float
    news: list[News] = Field(default_factory=list)
    """What the channel must be told of this entry, as it was told (``News``)."""


class GuildSettings(BaseModel):
    """A server's defaults for games (``/settings``)."""

    lobby_timeout_s: int = 900
    turn_timeout_s: int | None = None
    """Default seconds per decision in new games; None: each game's own default."""
    max_timeouts: int = 3
    threads: bool = False
    end_by: Literal["host", "players", "managers"] = "host"
    lobbies_per_member: int = 1
    """Open lobbies one member may host at once in this server."""
    keep_logs_days: int | None = None
    """Days an ended game keeps its move-by-move log (``/game log``, replays); None: forever. Its result, players
    and winners stay for ``/game history`` either way (``bot.retention``)."""
    language: str | None = None
    """The language of what the channels show (boards, a game's news): a catalog's (``bot.i18n.LANGUAGES``), or
    None: the server's own Discord language."""
    games: dict[str, Any] = Field(default_factory=dict)
    """The games' own settings (``bot.server_settings.game_setting``), by name."""

    def game(self, name: str, default: Any) -> Any:
        """A game's own setting, or ``default`` if the server never set it."""
        return self.games.get(name, default)


@dataclass
class Applied:
    """A committed change: the session before and after, and what happened."""

    before: Session
    session: Session
    state: BaseModel | None
    events: list[dict[str, Any]] = field(default_factory=list)
    how: How = "core"
    actor: str | None = None
    """The engine player (or actor id) who acted, if anyone."""
    user_id: int | None = None
    """The member whose click or command caused it, if any: they are never pinged for it."""
    origin: Any = None
    """Opaque to the service: the Discord side's handle on the interaction to answer (a Reply)."""
    touched: frozenset[str] = frozenset()
    """Records whose value changed (engines with records)."""
    entries: list[LogEntry] = field(default_factory=list)
    """The log entries this change wrote, in order (its own, then its forced moves')."""
