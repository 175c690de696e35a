"""Rolling off the event loop, with a time cap, so one big roll never holds up other games.

Rolls run in a small process pool: a CPU-bound roll in a thread would still hold the GIL and slow the
event loop down (bench/roll_worst.py measures both). The cap is enforced twice: the roll checks its own
deadline while rolling (so a worker never stays busy past it), and the caller stops waiting shortly after.

Only as many rolls as there are workers are handed to the pool; the rest wait here, in a bounded line.
So the caller's clock starts when a worker is free to start the roll, not when the roll joined the line
(a burst of big rolls used to run out of time while queueing), and a full line is refused at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import threading
from collections.abc import Callable
from concurrent import futures
from concurrent.futures import Executor, Future
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from bot.processes import process_pool
from rules.dice import DiceSource, SystemDice
from rules.roll.engine import check, evaluate, is_light, roll
from rules.roll.errors import RollError
from rules.roll.limits import DEFAULT_LIMITS, RollLimits
from rules.roll.model import RollResult
from rules.roll.notation import check_length, parse_request
from rules.roll.systems import find_preset, push_preset, roll_preset
from rules.said import said

# Time for pickling and the hop between processes on a busy machine, on top of the roll's own cap.
_HANDOFF_GRACE_S = 0.5
_POOL_SIZE = 2
# A big roll takes ~15 ms; the last in a full line waits for 8 others per worker, so ~0.1 s usually and
# 8 time caps (8 s, still within a deferred reply's life) if every roll ahead of it is pathological.
_WAITING_PER_WORKER = 8
BUSY = said("I'm busy rolling for others; try again in a moment.")
T = TypeVar("T")


def load_roll_modules() -> None:
    """In a worker: import what rolls and odds need (this module's own imports compile d20's grammar)."""
    importlib.import_module("rules.roll.odds")


class RollerBusy(RollError):
    """Too many big rolls are already waiting for a worker; the caller should answer at once."""


class RollWorker:
    """Evaluates roll strings away from the event loop.

    By default it owns a process pool of ``workers`` processes (started on first use, so merely loading
    the cog is cheap) and rolls with :class:`SystemDice` inside them. Tests pass a thread pool and
    scripted dice; ``workers`` is then the size of that pool. At most ``max_waiting`` big rolls wait for
    a worker (by default 8 per worker); one more is refused with :class:`RollerBusy`.
    """

    def __init__(
        self,
        source: DiceSource | None = None,
        limits: RollLimits = DEFAULT_LIMITS,
        executor: Executor | None = None,
        *,
        workers: int = _POOL_SIZE,
        max_waiting: int | None = None,
    ) -> None:
        self.source = source or SystemDice()
        self.limits = limits
        self._executor = executor
        self._owns_executor = executor is None
        self.workers = workers
        self.max_waiting = _WAITING_PER_WORKER * workers if max_waiting is None else max_waiting
        self._free = asyncio.Semaphore(workers)
        self._waiting = 0
        self._running = 0
        self._warming: threading.Thread | None = None

    @property
    def waiting(self) -> int:
        """Big rolls waiting for a worker right now."""
        return self._waiting

    @property
    def running(self) -> int:
        """Jobs in the pool right now, one its caller stopped waiting for included (it holds a worker until it ends)."""
        return self._running

    async def roll(self, text: str) -> RollResult:
        """Roll ``text``; raise :class:`RollError` for bad input, a limit, or a roll that runs out of time,
        and :class:`RollerBusy` when too many big rolls are already waiting.

        A light roll (``is_light``: a hundred dice or fewer, nothing open-ended) costs about 0.1 ms and
        is rolled right here; the process hop would cost ten times that. Anything bigger goes to the pool.
        """
        check_length(text, self.limits)
        preset = find_preset(text)
        if preset is not None:  # a handful of dice: rolled right here
            return roll_preset(preset, self.source)
        request = parse_request(text, self.limits)
        if is_light(request):
            return evaluate(request, self.source, self.limits)
        check(text, self.limits)  # a typo or a roll over the limits is answered here, without waiting for a worker
        return await self.compute(roll, text, self.source, self.limits)

    def push(self, expression: str, state: tuple[int, ...]) -> RollResult:
        """Push a preset roll (Year Zero) from the faces it showed: a few dice, rolled right here."""
        preset = find_preset(expression)
        if preset is None:
            raise RollError(said("Only a game-system roll can be pushed."))
        return push_preset(preset, state, self.source)

    async def compute(self, work: Callable[..., T], *args: Any) -> T:
        """Run ``work(*args)`` (picklable, CPU-bound: a big roll, exact odds) in the pool, within the time cap.

        The pool can't stop a job it started, so ``work`` must bound itself: a roll checks its deadline, odds
        count their steps (``rules/roll/odds.py``). Past the cap the caller is answered and the job ends on its own.
        """
        if self._free.locked() and self._waiting >= self.max_waiting:
            raise RollerBusy(BUSY)
        self._waiting += 1
        try:
            await self._warmed()
            await self._free.acquire()
        finally:
            self._waiting -= 1
        try:
            job = self._pool().submit(work, *args)
        except BrokenProcessPool:
            self._free.release()
            raise self._restart() from None
        self._running += 1
        job.add_done_callback(self._release_when_done(asyncio.get_running_loop()))
        try:
            # A worker is free, so the work starts now: the clock counts working, not waiting in line.
            return await asyncio.wait_for(asyncio.wrap_future(job), timeout=self.limits.time_limit_s + _HANDOFF_GRACE_S)
        except TimeoutError:
            raise RollError(said("That roll took too long to work out. Try fewer dice or fewer rerolls.")) from None
        except BrokenProcessPool:
            raise self._restart() from None

    def _release_when_done(self, loop: asyncio.AbstractEventLoop) -> Callable[[Future[Any]], None]:
        # The worker is free again when the roll ends, not when the caller gives up on it (a roll out of
        # time still runs until it notices its own deadline). Called from the executor's thread.
        def release(_: Future[Any]) -> None:
            with contextlib.suppress(RuntimeError):  # the loop has closed: nobody is waiting any more
                loop.call_soon_threadsafe(self._finished)

        return release

    def _finished(self) -> None:
        self._running -= 1
        self._free.release()

    def _restart(self) -> RollError:
        # A worker died (killed by the OS, say); start afresh next time rather than fail forever.
        self.close()
        return RollError(said("The dice roller had a hiccup. Please try again."))

    def warm_up(self) -> None:
        """Start the pool's processes and load the roll modules in each, in the background; doesn't wait.

        The first pool of a process starts the helper process the workers fork from, which imports the roll
        modules (``bot.processes.PRELOAD``): seconds on a busy machine, that the first big roll or odds spent
        inside its time cap and ran out of time. Work handed to the pool waits for this first, before its clock
        starts. (``load_roll_modules`` in each worker costs nothing when the helper preloaded them.)
        """
        if self._warming is None:
            self._warming = threading.Thread(target=self._load_workers, name="roll-worker-warm-up", daemon=True)
            self._warming.start()

    def _load_workers(self) -> None:
        with contextlib.suppress(BrokenProcessPool):  # a worker that died is restarted by the next roll
            futures.wait([self._pool().submit(load_roll_modules) for _ in range(self.workers)])

    async def _warmed(self) -> None:
        if self._warming is not None and self._warming.is_alive():
            await asyncio.to_thread(self._warming.join)

    def close(self) -> None:
        """Stop the pool this worker started and wait for its processes (a pool passed in belongs to the caller)."""
        if self._warming is not None:
            self._warming.join()
        if self._owns_executor and self._executor is not None:
            # Waiting is short: no roll outlives its time cap, and queued ones are cancelled.
            self._executor.shutdown(wait=True, cancel_futures=True)
            self._executor = None

    def _pool(self) -> Executor:
        if self._executor is None:
            self._executor = process_pool(self.workers)
        return self._executor
