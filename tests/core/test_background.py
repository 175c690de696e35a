"""``Background``: the one task behind the timer loop, the log sweep, the loop monitor and the shard heartbeat."""

from __future__ import annotations

import asyncio

from bot.background import Background


async def test_started_once_and_stopped_by_cancelling() -> None:
    runs: list[str] = []
    cancelled = asyncio.Event()

    async def run() -> None:
        runs.append("run")
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            cancelled.set()
            raise

    task = Background("test-task", run)
    await task.stop()  # stopping what never started does nothing
    assert task.start() and not task.start()
    await asyncio.sleep(0)
    assert task.running and runs == ["run"]
    await task.stop()
    assert cancelled.is_set() and not task.running
    assert task.start()  # and it can start again
    await asyncio.sleep(0)
    await task.stop()
    assert runs == ["run", "run"]
