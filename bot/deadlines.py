"""What a deadline does when it comes: a reminder at half time, the default move at the end, a lobby closing.

Discord-free: reminders and notices go through the callbacks it is given.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from bot.errors import UserError
from bot.models import Deadline, Session, Status
from bot.service import LOBBY_DECISION, Expect, Service
from rules.said import said

log = logging.getLogger(__name__)

MAX_STEPS = 100
"""Defaults taken in a row for one session at most (a default can lead straight to another due decision)."""


class Deadlines:
    """``on_due`` for the timer loop. Collaborators: the service and two callbacks."""

    def __init__(
        self,
        service: Service,
        *,
        remind: Callable[[Session, Deadline], Awaitable[None]],
        close_lobby: Callable[[int], Awaitable[None]],
    ) -> None:
        self.service = service
        self.remind = remind
        self.close_lobby = close_lobby

    async def __call__(self, session_id: int) -> None:
        """Handle every default and reminder now due for one session."""
        store = self.service.store
        for _ in range(MAX_STEPS):
            session = await store.session(session_id)
            if session is None or not session.live:
                return
            now = self.service.clock.now()
            expired = next((d for d in session.deadlines if d.at is not None and d.at <= now), None)
            if expired is not None:
                await self._expire(session, expired)
                continue
            due = next((d for d in session.deadlines if d.remind_at is not None and d.remind_at <= now), None)
            if due is None:
                return
            reminded = [d.model_copy(update={"remind_at": None}) if d is due else d for d in session.deadlines]
            # One reminder per deadline, whichever process gets there first; the others look again.
            claimed = await store.claim_reminder(session.id, session.version, session.deadlines.index(due), reminded)
            if claimed and due.remind:
                await self.remind(session, due)

    async def _expire(self, session: Session, deadline: Deadline) -> None:
        if session.status is Status.LOBBY or deadline.decision == LOBBY_DECISION:
            await self.close_lobby(session.id)
            return
        service = self.service
        kind = service.kind_of(session)
        turns = kind.turns
        assert turns is not None
        state = service.state_of(session)
        prompt = next((p for p in kind.prompts(state) if p.player == deadline.player), None)
        if prompt is None:
            # The decision went away without a commit clearing its deadline (an older version's): drop it.
            remaining = [d for d in session.deadlines if d is not deadline]
            await service.store.shown(session.id, None, remaining, session.version)
            return
        settings = await service.store.guild_settings(session.guild_id) if session.guild_id else None
        limit = settings.max_timeouts if settings is not None else 3
        # Only a decision the game waits for counts as a missed turn; letting an optional window
        # (one that pings nobody, like spending Fate) close is just passing.
        counts = limit if prompt.ping else None
        action = turns.default_action(state, deadline.player)
        try:
            applied = await service.act(
                session.id,
                None,
                action,
                expect=Expect(session.version),
                how="timeout",
                player=deadline.player,
                takeover_after=counts,
            )
        except UserError as exc:
            log.info("Session %s: default for %s not applied (%s)", session.id, deadline.player, exc.code)
            return
        # A computer taking the seat is told with the commit (its news); a game without computers loses the seat.
        seat = applied.session.seat_of_player(deadline.player)
        if counts and seat.timeouts >= limit and applied.session.status is Status.ACTIVE and not seat.computer:
            # Said, so the channel is told it in its own language (the log keeps the message and its values).
            why = said("missed {limit} decisions in a row and leaves the game", limit=limit)
            await service.remove_player(session.id, deadline.player, how="timeout", why=why)
