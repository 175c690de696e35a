"""The sessions a store read or wrote last, so a click does not wait for the database to read back what this
process just wrote. Every backend uses it the same way; correctness never depends on it.

Why it is safe with several processes on one database: every write is ``… WHERE version = expected``,
and a refused write drops the cached session, so a copy made stale by another process costs one retry
on fresh data, never a wrong write. Sharding keeps it rare: only the process owning a server writes its
sessions.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from bot.models import Board, Deadline, Session

SESSION_CACHE_SIZE = 1024


class SessionCache:
    """Sessions by id, most recently used last. The sessions are shared, not copied: read-only."""

    def __init__(self, size: int = SESSION_CACHE_SIZE) -> None:
        self.size = size
        self._sessions: OrderedDict[int, Session] = OrderedDict()

    def get(self, session_id: int) -> Session | None:
        """The cached session, if any."""
        return self._sessions.get(session_id)

    def keep(self, session: Session) -> None:
        """Keep the session as stored (it is read-only from now on)."""
        self._sessions[session.id] = session
        self._sessions.move_to_end(session.id)
        if len(self._sessions) > self.size:
            self._sessions.popitem(last=False)

    def read(self, session: Session) -> Session:
        """A session just read from the database: cached and returned, unless the cache already holds it at
        that version or a later one. A read can overlap a write of this process (on PostgreSQL's pool, a
        ``SELECT`` may see the row as it was before a ``shown`` that has since updated the cache), so the
        cached copy — which every write of this process goes through — wins at equal versions."""
        cached = self._sessions.get(session.id)
        if cached is not None and cached.version >= session.version:
            self._sessions.move_to_end(session.id)
            return cached
        self.keep(session)
        return session

    def forget(self, session_id: int) -> None:
        """Drop a session: the next read asks the database."""
        self._sessions.pop(session_id, None)

    def clear(self) -> None:
        """Forget everything."""
        self._sessions.clear()

    def saved(self, session: Session, news: int | None) -> None:
        """A save of ``session`` succeeded (logging news at seq ``news``, if not None). Which message shows a
        view and which news reached the channel are written apart from versions (``shown``, ``news_delivered``),
        straight into this cache: the writer's copy may be older there, so the cached values win."""
        cached = self._sessions.get(session.id)
        if cached is not None:
            session.boards = dict(cached.boards)
            session.news_from = cached.news_from
            session.drawn = cached.drawn
        if session.news_from is None:
            session.news_from = news
        self.keep(session)

    def shown(
        self,
        session_id: int,
        board: Board | None,
        deadlines: list[Deadline] | None,
        version: int,
        drawn: int | None = None,
    ) -> None:
        """``Store.shown`` happened: the same change, on a copy (cached sessions are shared and read-only)."""
        cached = self._sessions.get(session_id)
        if cached is None:
            return
        changes: dict[str, Any] = {}
        if drawn is not None and cached.drawn < drawn:
            changes["drawn"] = drawn
        old = cached.boards.get(board.view) if board is not None else None
        if board is not None and (old is None or board.shown_version >= old.shown_version):
            changes["boards"] = {**cached.boards, board.view: board}
        if deadlines is not None and cached.version == version:
            changes["deadlines"] = list(deadlines)
        if changes:
            self._sessions[session_id] = cached.model_copy(update=changes)

    def news_delivered(self, session_id: int, upto: int) -> None:
        """``Store.news_delivered`` happened."""
        cached = self._sessions.get(session_id)
        if cached is not None and cached.news_from is not None and cached.news_from <= upto:
            pending = upto + 1 if cached.version > upto else None
            self._sessions[session_id] = cached.model_copy(update={"news_from": pending})

    def board_dropped(self, session_id: int, view: str, message_id: int) -> None:
        """``Store.drop_board`` happened."""
        cached = self._sessions.get(session_id)
        if cached is not None and (board := cached.boards.get(view)) is not None and board.message_id == message_id:
            boards = {k: v for k, v in cached.boards.items() if k != view}
            self._sessions[session_id] = cached.model_copy(update={"boards": boards})
