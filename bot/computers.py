"""Computer seats: after every commit, a computer whose move it is takes it (after a short delay)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable

from bot.errors import UserError
from bot.models import Applied, Session, Status
from bot.service import Expect, Service
from bot.shards import ALL, Shards

log = logging.getLogger(__name__)


class ComputerSeats:
    """Plays computer seats. Collaborators: the service, and how long a computer waits."""

    def __init__(self, service: Service, delay: Callable[[], float]) -> None:
        self.service = service
        self.delay = delay
        """Seconds a computer waits before moving, so people can follow (read at each move)."""
        self._tasks: set[asyncio.Task[None]] = set()
        self.pauses = 0
        """Moves made after the pause so far (a benchmark's measure of how long people wait)."""

    def on_commit(self, applied: Applied) -> None:
        """Commit hook: if a computer must act in the new version, schedule its move."""
        self.consider(applied.session)

    def consider(self, session: Session) -> None:
        """Schedule a computer's move in ``session`` if one is due."""
        if session.status is not Status.ACTIVE or session.kind not in self.service.registry:
            return
        if self.service.kind_of(session).computers is None:
            return
        if any(session.seat_of_player(p.player).computer for p in self.service.prompts(session)):
            task = asyncio.get_running_loop().create_task(self._move(session.id, session.version))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def resume(self, shards: Shards = ALL) -> None:
        """After a restart, every game (in the servers of ``shards``) waiting for a computer player gets its move."""
        for session in await self.service.store.active_sessions(shards):
            self.consider(session)

    async def _move(self, session_id: int, version: int) -> None:
        self.pauses += 1
        await asyncio.sleep(self.delay())
        session = await self.service.store.session(session_id)
        if session is None or session.version != version or session.status is not Status.ACTIVE:
            return
        kind = self.service.kind_of(session)
        computers = kind.computers
        assert computers is not None
        state = self.service.state_of(session)
        player = next((p.player for p in kind.prompts(state) if session.seat_of_player(p.player).computer), None)
        if player is None:
            return
        action = computers.computer_action(state, player, self.service.dice)
        try:
            await self.service.act(session_id, None, action, expect=Expect(version), how="computer", player=player)
        except UserError as exc:
            log.debug("Session %s: computer move for %s not applied (%s)", session_id, player, exc.code)

    async def close(self) -> None:
        """Stop pending moves (a cancelled move is simply made again after a restart)."""
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(BaseException):
                await task
