"""Rolling off the event loop, with a time cap, so one big roll never holds up other games.

Rolls run in a small process pool: a CPU-bound roll in a thread would still hold the GIL and slow the
event loop down (bench/roll_worst.py measures both). The cap is enforced twice: the roll checks its own
deadline while rolling (so a worker never stays busy past it), and the caller stops waiting shortly after.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import multiprocessing.connection
import os
import threading
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from rules.dice import DiceSource, SystemDice
from rules.roll.engine import evaluate, is_light, roll
from rules.roll.errors import RollError
from rules.roll.limits import DEFAULT_LIMITS, RollLimits
from rules.roll.model import RollResult
from rules.roll.notation import parse_request

# Time for pickling and the hop between processes on a busy machine, on top of the roll's own cap.
_HANDOFF_GRACE_S = 0.5
_POOL_SIZE = 2


class RollWorker:
    """Evaluates roll strings away from the event loop.

    By default it owns a process pool (started on first use, so merely loading the cog is cheap)
    and rolls with :class:`SystemDice` inside the workers. Tests pass a thread pool and scripted dice.
    """

    def __init__(
        self,
        source: DiceSource | None = None,
        limits: RollLimits = DEFAULT_LIMITS,
        executor: Executor | None = None,
    ) -> None:
        self.source = source or SystemDice()
        self.limits = limits
        self._executor = executor
        self._owns_executor = executor is None

    async def roll(self, text: str) -> RollResult:
        """Roll ``text``; raise :class:`RollError` for bad input, a limit, or a roll that runs out of time.

        A light roll (``is_light``: a hundred dice or fewer, nothing open-ended) costs about 0.1 ms and
        is rolled right here; the process hop would cost ten times that. Anything bigger goes to the pool.
        """
        request = parse_request(text, self.limits)
        if is_light(request):
            return evaluate(request, self.source, self.limits)
        loop = asyncio.get_running_loop()
        future = loop.run_in_executor(self._pool(), roll, text, self.source, self.limits)
        try:
            return await asyncio.wait_for(future, timeout=self.limits.time_limit_s + _HANDOFF_GRACE_S)
        except TimeoutError:
            raise RollError("That roll took too long to work out. Try fewer dice or fewer rerolls.") from None
        except BrokenProcessPool:
            # A worker died (killed by the OS, say); start afresh next time rather than fail forever.
            self.close()
            raise RollError("The dice roller had a hiccup. Please try again.") from None

    def warm_up(self) -> None:
        """Start the pool's processes now, so the first roll doesn't pay for it (~0.25 s); doesn't wait."""
        pool = self._pool()
        for _ in range(_POOL_SIZE):
            pool.submit(int)

    def close(self) -> None:
        """Stop the pool this worker started and wait for its processes (a pool passed in belongs to the caller)."""
        if self._owns_executor and self._executor is not None:
            # Waiting is short: no roll outlives its time cap, and queued ones are cancelled.
            self._executor.shutdown(wait=True, cancel_futures=True)
            self._executor = None

    def _pool(self) -> Executor:
        if self._executor is None:
            # forkserver: workers fork from a clean helper process, not from this one with its threads.
            context = multiprocessing.get_context("forkserver")
            self._executor = ProcessPoolExecutor(
                max_workers=_POOL_SIZE, mp_context=context, initializer=_exit_with_parent
            )
        return self._executor


def _exit_with_parent() -> None:
    """Worker initializer: end this worker when the bot's process ends, even if it was killed outright.

    A pool shut down normally stops its workers, but after a SIGKILL or a crash they would wait for work
    forever. The parent's sentinel becomes readable the moment the parent is gone.
    """
    parent = multiprocessing.parent_process()
    if parent is None:
        return

    def watch() -> None:
        multiprocessing.connection.wait([parent.sentinel])
        os._exit(0)

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()
