"""The one interface every storage backend implements; games and the rest of the core see only this.

Guarantees every backend keeps:
- an action, its log entry and the new version are one atomic write, made only if the session is
  still at the expected version (``save``); a refused write changes nothing;
- finished sessions stay for history; their whole log too, unless the server's ``keep_logs_days`` clears it;
- several processes may share one database: a cached copy never lets a write succeed on a version
  another process has moved past (the write is refused, the copy dropped, the change retried);
- writes that don't change what happened (which message shows a view, when a shown deadline
  started) never bump a session's version;
- a change's messages are written in its transaction: a session's news in its log entry, any other commit's in
  the outbox (``Outgoing``); each writing method declares which it does (``bot.storage.writes``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol

from bot.models import Board, Deadline, GuildSettings, LogEntry, Outgoing, Scope, Session
from bot.shards import ALL, Shards
from bot.storage.dice import CommitCounts, DiceStore
from bot.storage.outbox import OUTBOX_BATCH
from bot.storage.ratings import RatingStore

ATTENTION_BATCH = 500
"""Sessions needing attention read at once at startup (a backlog is read in batches, never all at once)."""
DUE_BATCH = 100
"""Sessions with something due read at once by the timer loop."""


@dataclass(frozen=True, slots=True)
class Census:
    """How many sessions are live, and how many have a deadline or reminder that has come (for the metrics: a due
    count that stays up means the timer loop is behind)."""

    live: int
    due: int


class Duplicate(Exception):
    """The channel (or server, for a named campaign) already has a live session of that scope."""


class StorageError(Exception):
    """The database can't be used; ``str(error)`` is one line saying what to do."""


class Store(DiceStore, RatingStore, Protocol):
    """Sessions, their logs, the messages that show them, server settings, and what's kept around ``/roll``."""

    async def open(self) -> None:
        """Connect and bring the schema up to date; raise StorageError with advice if that fails."""
        ...

    async def close(self) -> None:
        """Close the connection(s), if open."""
        ...

    async def create_session(self, session: Session, entry: LogEntry | None = None) -> Session:
        """Insert a new session (and its first log entry) and return it with its id; raise Duplicate."""
        ...

    async def session(self, session_id: int) -> Session | None:
        """The session with this id, read-only (change a ``successor()``)."""
        ...

    async def live_session(self, channel_id: int, scope: Scope) -> Session | None:
        """The channel's own live session of ``scope`` (not a named campaign), if any."""
        ...

    async def live_named(self, guild_id: int, name: str) -> Session | None:
        """The server's live campaign called ``name`` (case-insensitive), if any."""
        ...

    async def live_in_guild(self, guild_id: int, scope: Scope) -> list[Session]:
        """Every live session of ``scope`` in a server (for autocomplete)."""
        ...

    async def save(
        self,
        session: Session,
        expected_version: int,
        entry: LogEntry | None = None,
        counts: CommitCounts | None = None,
    ) -> bool:
        """Write ``session`` (and its log entry) if it is still at ``expected_version``; False if not. ``counts``
        (``commit_counts``: the entry's dice, turns and a finished game's win) go into the luck statistics in the
        same transaction.

        ``session.version`` is already the new version, and ``entry.seq`` equals it.
        """
        ...

    async def shown(
        self,
        session_id: int,
        board: Board | None,
        deadlines: list[Deadline] | None,
        version: int,
        drawn: int | None = None,
    ) -> None:
        """Record that ``board`` shows its view, store ``deadlines`` (started, or reminded) if the session is
        still at ``version``, and that every view is drawn at version ``drawn`` (if given); none bumps the
        version."""
        ...

    async def claim_reminder(self, session_id: int, version: int, index: int, deadlines: list[Deadline]) -> bool:
        """Store ``deadlines`` (deadline ``index``'s reminder cleared) if the session is still at ``version`` and
        that reminder is still pending; True if this call did it. Of several processes timing one session,
        exactly one gets True, so a reminder is sent once."""
        ...

    async def drop_board(self, session_id: int, view: str, message_id: int) -> None:
        """Forget a view's message (it was retired or deleted), if it is still that message."""
        ...

    async def news_delivered(self, session_id: int, upto: int) -> None:
        """The news of every log entry up to seq ``upto`` reached the channel: the session's pending news now
        starts after it (``Session.news_from``), if any entry came after."""
        ...

    async def outbox(self, shards: Shards = ALL, *, after: int = 0, limit: int = OUTBOX_BATCH) -> list[Outgoing]:
        """What commits outside any session still have to show (in the servers of ``shards``): the outbox rows after
        id ``after``, oldest first, at most ``limit``."""
        ...

    async def outbox_told(self, outgoing_id: int) -> None:
        """Everything of one outbox row is shown: it goes."""
        ...

    async def attention(self, shards: Shards = ALL, *, after: int = 0, limit: int = ATTENTION_BATCH) -> list[int]:
        """Ids after ``after`` (at most ``limit``, in order) of the sessions in the servers of ``shards`` that need
        the bot after a restart: drawn behind their version, a computer seat to move, or news not yet told."""
        ...

    async def due_sessions(self, now: float, shards: Shards = ALL, *, limit: int = DUE_BATCH) -> list[Session]:
        """Live sessions in the servers of ``shards`` with a deadline or reminder at or before ``now``, the
        soonest first, at most ``limit`` (the rest come in the next batch)."""
        ...

    async def earliest_deadline(self, shards: Shards = ALL) -> float | None:
        """The soonest deadline or reminder of any live session in the servers of ``shards``."""
        ...

    async def put_off(self, session_id: int, moment: float) -> None:
        """Look at a session's deadlines again only at ``moment`` (after handling them failed)."""
        ...

    async def history(self, *, guild_id: int | None, channel_id: int | None, limit: int = 10) -> list[Session]:
        """Most recent finished or abandoned table sessions of a channel (or a whole server)."""
        ...

    async def log_entries(
        self,
        session_id: int,
        *,
        after: int | None = None,
        last: int | None = None,
        chapters: tuple[int, int] | None = None,
    ) -> list[LogEntry]:
        """The session's log, oldest first: all of it, the entries after seq ``after``, the ``last`` ones, those
        written in chapters ``lo`` to ``hi`` (``Session.chapter``; entries from before chapters were kept have
        none), or what several of these allow together."""
        ...

    async def chaptered(self, session_id: int) -> bool:
        """Whether the session's log is stored with chapters from its first entry on (not for a log begun before
        chapters were kept, nor for a game without chapters)."""
        ...

    async def stamp_chapters(self, session_id: int, chapters: Mapping[int, int]) -> None:
        """Store the chapter of each entry (by seq) that has none: a log begun before chapters were kept."""
        ...

    async def checkpoint(self, session_id: int) -> tuple[int, str] | None:
        """The state (JSON) after the log entry ``Session.undo_from`` names, with that entry's seq, if kept."""
        ...

    async def clear_old_logs(self, now: float, shards: Shards = ALL, limit: int = 100) -> int:
        """Clear the logs of up to ``limit`` ended sessions (in the servers of ``shards``) that ended longer ago than
        their server's ``keep_logs_days``, oldest first; their rows stay, marked ``log_cleared_at``. How many."""
        ...

    async def open_lobbies(self, guild_id: int, host_id: int) -> int:
        """How many lobbies ``host_id`` has open in the server."""
        ...

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        """The server's settings (defaults if none were stored)."""
        ...

    async def set_guild_settings(self, guild_id: int, settings: GuildSettings) -> None:
        """Replace the server's settings."""
        ...

    async def member_language(self, user_id: int) -> str | None:
        """The language a member chose (``/language``), or None: their Discord's."""
        ...

    async def set_member_language(self, user_id: int, language: str | None) -> None:
        """Keep the language a member chose; None: their Discord's again."""
        ...

    async def ping(self) -> None:
        """Return once the database answers a trivial query through the store's own connections; raise if it can't
        (the health check, with a timeout around it)."""
        ...

    async def census(self, now: float, shards: Shards = ALL) -> Census:
        """The sessions in the servers of ``shards`` that are live, and those with something due at ``now``: counted
        on partial indexes, at each metrics scrape (never on a click's path)."""
        ...
