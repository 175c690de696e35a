"""Committing a change: under the session's lock, on the session as stored, with its log entry and news in the
same write, retried on fresh data when another process got there first; then the moves nobody has a choice
about, and only then anyone told (the commit hooks). Creation goes through the same telling.

The lock is per session, so a campaign never waits on the table game in the same channel; it is never held across
anything but the engine and the database.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

from pydantic import BaseModel

from bot.clock import Clock
from bot.errors import Conflict, SessionOver
from bot.i18n import N_, _, current, speaking
from bot.locks import KeyedLocks
from bot.models import Actor, Applied, How, LogEntry, News, Session, Status
from bot.once import OnceGuard
from bot.ratings import RatingChange, rate, rated_game, rating_news
from bot.registry import GameKind, Registry
from bot.replay import is_barrier
from bot.states import StateCache
from bot.storage import Store
from bot.storage.dice import CommitCounts, commit_counts
from bot.successor import successor
from rules.dice import RecordingDice

log = logging.getLogger(__name__)

CORE = ""
"""Who committed a change the core made itself (a lobby seat, a role): no player."""
COMMIT_ATTEMPTS = 3
MAX_FORCED_MOVES = 50
"""Forced moves taken in a row after one action, at most (a guard against an engine that loops)."""
GAME_OVER = N_("This game is over; start a new one any time.")
"""The refusal of anything done to a game that has ended."""

Hook = Callable[[Applied], None]
NewsOf = Callable[[Session, BaseModel | None, LogEntry], list[News]]
"""What the channel must be told of a log entry besides the boards (the Discord side knows how to say it)."""
Change = Callable[[Session], Awaitable[tuple[Applied, LogEntry | None]]]
ForcedMove = Callable[[Session, BaseModel, str, BaseModel], tuple[Applied, LogEntry]]
"""Applies a forced move (``how="auto"``): the session, its state, the player, the action."""


class Committer:
    """Commits changes and tells the hooks. Collaborators: the store, the registry, the clock, the state cache and
    the once-only guard."""

    def __init__(self, store: Store, registry: Registry, clock: Clock, states: StateCache, onces: OnceGuard) -> None:
        self.store = store
        self.registry = registry
        self.clock = clock
        self.states = states
        self.onces = onces
        self.locks: KeyedLocks[int] = KeyedLocks()
        self.hooks: list[Hook] = []
        self.news_of: NewsOf | None = None
        """Turns a log entry into its news, written with the entry in the same commit (set by the bot)."""
        self.channel_language: Callable[[Session], Awaitable[str]] | None = None
        """The language of what a session's channel shows (set by the bot): its news is written in it."""

    def advance(
        self, session: Session, before: BaseModel | None, state: BaseModel, actor: str | None = None
    ) -> Session:
        """The session record after ``state`` replaced ``before`` (``bot.successor``), now."""
        kind = self.registry.get(session.kind)
        return successor(kind, session, before, state, now=self.clock.now(), actor=actor)

    def step(
        self,
        before: Session,
        new: Session,
        state: BaseModel | None,
        action: dict[str, Any],
        *,
        actor: str | None = None,
        dice: RecordingDice | None = None,
        events: list[dict[str, Any]] | None = None,
        how: How = "core",
        user: Actor | None = None,
        origin: Any = None,
        touched: frozenset[str] = frozenset(),
    ) -> tuple[Applied, LogEntry]:
        """A change as it is committed: its log entry, and what the commit hooks hear of it (one shape for every
        step, from a click to a game's creation)."""
        events = events or []
        entry = LogEntry(
            seq=new.version,
            actor=actor,
            action=action,
            dice=[r.model_dump() for r in dice.rolls] if dice is not None else [],
            events=events,
            at=self.clock.now(),
        )
        applied = Applied(
            before=before,
            session=new,
            state=state,
            events=events,
            how=how,
            actor=actor,
            user_id=user.user_id if user is not None else None,
            origin=origin,
            touched=touched,
        )
        return applied, entry

    async def change(self, session_id: int, change: Change, *, forced: ForcedMove | None = None) -> Applied:
        """Run ``change`` under the session's lock on the session as stored, commit it, take the forced moves
        after it (with ``forced``), then tell the hooks. A write refused because another process committed first
        is tried again on fresh data."""
        async with self.locks[session_id]:
            once = self.onces.check(session_id)
            for _attempt in range(COMMIT_ATTEMPTS):
                session = await self.store.session(session_id)
                if session is None:
                    raise SessionOver(_(GAME_OVER))
                applied, entry = await change(session)
                with speaking(await self._language(session)):
                    self._prepare(applied, entry)
                    saved = await self._save(applied.session, session.version, entry)
                if saved:
                    break
                log.info("Session %s changed in another process; retrying on fresh data", session_id)
            else:
                raise Conflict()
            self.onces.applied(once)
            if applied.state is not None:
                self.states.remember(applied.session, applied.state, applied.actor or CORE)
            if forced is not None:
                applied = await self._forced_moves(applied, forced)
        self.notify(applied)
        return applied

    async def create(self, applied: Applied, entry: LogEntry | None) -> Applied:
        """Write a new session (``applied.session``, with its first entry if it starts at once) and tell the hooks;
        ``Duplicate`` if its channel (or its name) is taken."""
        with speaking(await self._language(applied.session)):
            self._prepare(applied, entry)
        created = await self.store.create_session(applied.session, entry)
        if applied.state is not None:
            self.states.remember(created, applied.state, CORE)
        applied = replace(applied, before=created, session=created)
        self.notify(applied)
        return applied

    async def _language(self, session: Session) -> str:
        return await self.channel_language(session) if self.channel_language is not None else current()

    def _prepare(self, applied: Applied, entry: LogEntry | None) -> None:
        """What is written with a version: whether a computer must act, the entry's news."""
        self._stamp(applied.session, applied.state)
        if entry is not None:
            entry.news = self._news(applied.session, applied.state, entry)
            applied.entries = [entry]

    async def _save(self, session: Session, expected_version: int, entry: LogEntry | None) -> bool:
        """``Store.save``, the entry marked as where undo starts folding if undo can't go back past it."""
        kind = self.registry.get(session.kind)
        if entry is not None and kind.undo is not None and is_barrier(kind, entry):
            session.undo_from = entry.seq
        counts = commit_counts(session, entry, kind)
        if entry is not None and session.status is Status.FINISHED:
            changes = await self._rate(session, kind, entry)
            if changes != []:
                counts = counts or CommitCounts()
                counts.ratings = changes or []
                counts.ratings_pending = changes is None
        return await self.store.save(session, expected_version, entry, counts)

    async def _rate(self, session: Session, kind: GameKind, entry: LogEntry) -> list[RatingChange] | None:
        """A finished game's rating changes (``bot.ratings``), told with its entry's news; written with it, or not at
        all if a member's rating moved meanwhile (the save fails, and the change is tried again on fresh ratings).
        None while migration 12's recompute is still to run: that recompute will rate the game."""
        state = kind.engine.state_model.model_validate_json(session.state_json) if session.state_json else None
        game = rated_game(session, kind, state)
        if game is None:
            return []
        current = await self.store.ratings_of(game.guild_id, game.kind, game.members)
        if current is None:
            return None
        changes = rate(game, current)
        news = rating_news(kind.title, changes, await self.store.leaderboard_hidden(game.members))
        if news is not None:
            entry.news.append(news)
        return changes

    async def _forced_moves(self, applied: Applied, forced_move: ForcedMove) -> Applied:
        """Take every move nobody has a real choice about, each committed with its own log entry."""
        kind = self.registry.get(applied.session.kind)
        forced = kind.forced
        if forced is None:
            return applied
        language = await self._language(applied.session)
        for _move in range(MAX_FORCED_MOVES):
            session, state = applied.session, applied.state
            if session.status is not Status.ACTIVE or state is None:
                return applied
            prompts = kind.prompts(state)
            move = next(((p.player, a) for p in prompts if (a := forced.forced_action(state, p.player))), None)
            if move is None:
                return applied
            try:
                step, entry = forced_move(session, state, move[0], move[1])
                self._stamp(step.session, step.state)
                with speaking(language):
                    entry.news = self._news(step.session, step.state, entry)
                    saved = await self._save(step.session, session.version, entry)
            except Exception:
                # What is committed stays committed and is drawn; the move waits for the next change.
                log.exception("Session %s: a forced move for %s failed", session.id, move[0])
                return applied
            if not saved:
                return applied  # another process moved on; whatever it did will be drawn
            assert step.state is not None
            self.states.remember(step.session, step.state, move[0])
            applied = replace(
                applied,
                session=step.session,
                state=step.state,
                events=[*applied.events, *({**e, "forced": True} for e in step.events)],
                touched=applied.touched | step.touched,
                entries=[*applied.entries, entry],
            )
        log.warning("Session %s: stopped after %d forced moves in a row", applied.session.id, MAX_FORCED_MOVES)
        return applied

    def _stamp(self, session: Session, state: BaseModel | None) -> None:
        """What a restart must find about a version about to be written: whether a computer seat must act."""
        kind = self.registry.get(session.kind)
        session.computer_due = (
            session.status is Status.ACTIVE
            and state is not None
            and kind.computers is not None
            and any(session.seat_of_player(p.player).computer for p in kind.prompts(state))
        )

    def _news(self, session: Session, state: BaseModel | None, entry: LogEntry) -> list[News]:
        """The entry's news (``NewsOf``), or none if the bot gave no way to say it."""
        return self.news_of(session, state, entry) if self.news_of is not None else []

    def notify(self, applied: Applied) -> None:
        """Tell every hook of a committed change (a failing hook is logged; the others still hear)."""
        for hook in self.hooks:
            try:
                hook(applied)
            except Exception:
                log.exception("A commit hook failed for session %s", applied.session.id)

    async def idle(self, timeout: float) -> None:
        """Wait (up to ``timeout`` seconds) until no change is being made: for a clean shutdown."""
        async with asyncio.timeout(timeout):
            for lock in self.locks.held():
                async with lock:
                    pass

    @property
    def busy(self) -> bool:
        """A change is being made."""
        return any(lock.locked() for lock in self.locks.held())
