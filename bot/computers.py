"""Computer seats: after every commit, a computer whose move it is takes it.

A computer pauses (``COMPUTER_DELAY``) before the first move of its turn, so people see a move coming, and
then makes the rest of its turn without pausing: the board shows its whole turn at once, and a human waits a
pause per computer turn, not per roll (a V&V turn is a dozen removals)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable

from bot.errors import UserError
from bot.models import Applied, Session, Status
from bot.service import Expect, Service

log = logging.getLogger(__name__)


class ComputerSeats:
    """Plays computer seats. Collaborators: the service, how long a computer waits, and whether a server is this
    process's to look after (when it runs some shards of several processes' bot)."""

    def __init__(
        self, service: Service, delay: Callable[[], float], owns: Callable[[int | None], bool] = lambda _: True
    ) -> None:
        self.service = service
        self.delay = delay
        """Seconds a computer waits before moving, so people can follow (read at each move)."""
        self.owns = owns
        """Whether the server is this process's now: a move waiting in a shard it gave up is the new holder's."""
        self._tasks: set[asyncio.Task[None]] = set()
        self.pauses = 0
        """Moves made after the pause so far (a benchmark's measure of how long people wait)."""

    def on_commit(self, applied: Applied) -> None:
        """Commit hook: if a computer must act in the new version, schedule its move (at once if it is the
        computer that just moved, going on with its turn)."""
        self.consider(applied.session, going_on=applied.actor if applied.how == "computer" else None)

    def consider(self, session: Session, going_on: str | None = None) -> None:
        """Schedule a computer's move in ``session`` if one is due (``Session.computer_due``); it pauses first
        unless it is ``going_on``."""
        if not session.computer_due or session.status is not Status.ACTIVE or session.kind not in self.service.registry:
            return
        computer = next(
            (p.player for p in self.service.prompts(session) if session.seat_of_player(p.player).computer), None
        )
        if computer is not None:
            move = self._move(session.id, session.version, pause=computer != going_on)
            task = asyncio.get_running_loop().create_task(move)
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _move(self, session_id: int, version: int, *, pause: bool) -> None:
        if pause:
            self.pauses += 1
            await asyncio.sleep(self.delay())
        session = await self.service.store.session(session_id)
        if session is None or session.version != version or session.status is not Status.ACTIVE:
            return
        if not self.owns(session.guild_id):  # its shard went to another process meanwhile
            return
        kind = self.service.kind_of(session)
        state = self.service.state_of(session)
        player = next((p.player for p in kind.prompts(state) if session.seat_of_player(p.player).computer), None)
        if player is None:
            return
        action = kind.computer_action(state, player, self.service.dice, session.seat_of_player(player).strength)
        try:
            await self.service.act(session_id, None, action, expect=Expect(version), how="computer", player=player)
        except UserError as exc:
            log.debug("Session %s: computer move for %s not applied (%s)", session_id, player, exc.code)

    @property
    def pending(self) -> int:
        """Computer moves scheduled and not yet made (for the metrics)."""
        return len(self._tasks)

    async def close(self) -> None:
        """Stop pending moves (a cancelled move is simply made again after a restart)."""
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(BaseException):
                await task
