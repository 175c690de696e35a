"""Worker processes for CPU-heavy work (big rolls, pictures), so it never holds the event loop's GIL."""

from __future__ import annotations

import multiprocessing
import multiprocessing.connection
import os
import threading
from concurrent.futures import ProcessPoolExecutor

PRELOAD = ("rules.roll.odds",)
"""What the helper process imports once, before it forks any worker, so that every worker of every pool starts with
it: the dice roller (its import compiles d20's grammar, ~0.8 s of CPU that each worker paid on its first roll)."""


def process_pool(workers: int) -> ProcessPoolExecutor:
    """A pool whose workers fork from a clean helper process (not from this one, with its threads),
    and end when the bot's process ends, even if it was killed outright."""
    context = multiprocessing.get_context("forkserver")
    # Read when the helper process starts (the first pool of this process): later pools fork from the same one.
    context.set_forkserver_preload(["__main__", *PRELOAD])
    return ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=_exit_with_parent)


def _exit_with_parent() -> None:
    """Worker initializer: end this worker when the parent is gone.

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
