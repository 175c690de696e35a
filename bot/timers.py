"""The timer loop: reminders at half time, defaults at the deadline, lobby expiry."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING

from bot.models import Deadline, Game, Status
from bot.names import escape_name
from bot.storage import Database

if TYPE_CHECKING:
    from bot.runner import GameRunner

log = logging.getLogger(__name__)

DEFAULT_MAX_TIMEOUTS = 3
RETRY_S = 60


class TimerLoop:
    """Sleeps until the earliest stored deadline (or a wake-up) and handles what is due.

    Deadlines live in the database, so after a restart the loop picks them up again; one that
    passed while the bot was down gets its default at once, without a reminder.
    """

    def __init__(self, runner: GameRunner) -> None:
        self.runner = runner
        self._task: asyncio.Task[None] | None = None
        self._next: float | None = None
        """The earliest moment something may be due; the database is asked again only then."""
        self._wake = asyncio.Event()

    @property
    def db(self) -> Database:
        """The bot's database."""
        return self.runner.db

    def start(self) -> None:
        """Start the loop (idempotent)."""
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run(), name="game-timers")

    async def stop(self) -> None:
        """Stop the loop."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    def schedule(self, moment: float | None) -> None:
        """A commit set a deadline or reminder at ``moment``: wake earlier if it is sooner than planned.

        Keeping the next moment in memory means a commit costs no timer query; a deadline that went
        away just causes one early look at the database.
        """
        if moment is not None and (self._next is None or moment < self._next):
            self._next = moment
            self._wake.set()

    async def _run(self) -> None:
        self._next = await self.db.earliest_deadline()
        while True:
            self._wake.clear()
            if self._next is not None and self._next <= self.runner.clock.now():
                try:
                    await self.tick()
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.exception("Timer loop failed; retrying shortly")
                    await asyncio.sleep(1)
                self._next = await self.db.earliest_deadline()
                continue
            await self.runner.clock.wait_until(self._next, self._wake)

    async def tick(self) -> None:
        """Handle everything due now. A game whose deadline fails is put off, so it can't spin the loop."""
        now = self.runner.clock.now()
        for game in await self.db.due_games(now):
            try:
                await self.handle(game.id)
            except Exception:
                log.exception("Deadline handling failed for game %s; retrying in %d s", game.id, RETRY_S)
                await self.db.put_off(game.id, now + RETRY_S)

    async def handle(self, game_id: int) -> None:
        """Apply every default and reminder due for one game, under its channel lock."""
        async with self.runner.lock(await self.runner.channel_of(game_id)):
            for _ in range(100):  # a default can lead straight to another due decision; stay bounded
                game = await self.db.game(game_id)
                if game is None or game.status not in (Status.LOBBY, Status.ACTIVE):
                    return
                now = self.runner.clock.now()
                expired = next((d for d in game.deadlines if d.at <= now), None)
                if expired is not None:
                    await self._expire(game, expired)
                    continue
                reminder = next((d for d in game.deadlines if d.remind_at is not None and d.remind_at <= now), None)
                if reminder is None:
                    return
                reminder.remind_at = None  # one reminder per deadline
                if await self.db.save_game(game, game.version):
                    await self.runner.remind(game, reminder)

    async def _expire(self, game: Game, deadline: Deadline) -> None:
        if game.status is Status.LOBBY:
            await self.runner.lobby.expire(game)
            return
        runner = self.runner
        spec = runner.spec(game.kind)
        state = runner.state_of(game)
        # Only a decision the game waits for counts as a missed turn; letting an optional window
        # (one that pings nobody, like spending Fate) close is just passing.
        required = any(p.player == deadline.player and p.ping for p in runner.prompts_of(game, state))
        settings = await self.db.guild_settings(game.guild_id) if game.guild_id else {}
        limit = settings.get("max_timeouts", DEFAULT_MAX_TIMEOUTS)
        action = spec.engine.default_action(state, deadline.player).model_dump(mode="json")
        applied = await runner.apply(
            game, deadline.player, action, how="timeout", takeover_after=limit, counts=required
        )
        await runner.show(applied, None)
        seat = applied.game.seat_of_player(deadline.player)
        name = escape_name(seat.name)
        if seat.computer and not game.seat_of_player(deadline.player).computer:
            await runner.announce(
                applied.game,
                f"{name} missed {limit} decisions in a row; a computer player takes their seat until they act again.",
            )
        elif seat.timeouts >= limit and applied.game.status is Status.ACTIVE and not seat.computer:
            await runner.announce(applied.game, f"{name} missed {limit} decisions in a row and leaves the game.")
            await runner.remove_player(applied.game, deadline.player, how="timeout", interaction=None)
