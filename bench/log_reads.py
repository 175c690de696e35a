"""What reading a long campaign's log costs: ``/vic log`` and undo on a campaign of ``--turns`` turns, reading
the whole log (as before migration 7) beside reading only what is needed, in one run.

    python bench/log_reads.py [--turns 200] [--database postgresql://…]

- ``whole_log_ms``: every entry read and decoded (what ``/vic log`` and undo did for any request);
- ``latest_turns_ms`` / ``one_turn_ms``: the entries of the last four turns / of one turn (by their chapter);
- ``undo_whole_ms`` / ``undo_ms``: ``Service.undo`` of the GM's latest correction, folding the whole log
  (no checkpoint) / from the checkpoint after the latest entry it can't go back past.

Medians of ``--repeat`` runs; JSON as the last line.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.played_games import Campaign, play_campaign, table
from bot.models import Actor


async def _median_ms(repeat: int, run: Callable[[], Awaitable[Any]]) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        await run()
        times.append(time.perf_counter() - started)
    return round(statistics.median(times) * 1000, 2)


async def measure(turns: int = 200, repeat: int = 15, database_url: str | None = None) -> dict[str, Any]:
    """The figures of the module's docstring for one campaign of ``turns`` turns."""
    with tempfile.TemporaryDirectory() as folder:
        async with table(Path(folder) / "bot.sqlite3", database_url) as t:
            session = await play_campaign(t, turns)
            store, service = t.service.store, t.service
            gm = Actor(session.host_id, "GM")
            run = Campaign(t, session, gm, [])
            current = session.chapter or 0
            entries = len(await store.log_entries(session.id))
            result: dict[str, Any] = {"turns": turns, "log_entries": entries}
            result["whole_log_ms"] = await _median_ms(repeat, lambda: store.log_entries(session.id))
            result["latest_turns_ms"] = await _median_ms(
                repeat, lambda: store.log_entries(session.id, chapters=(current - 3, current))
            )
            result["one_turn_ms"] = await _median_ms(
                repeat, lambda: store.log_entries(session.id, chapters=(current // 2, current // 2))
            )

            async def undo_and_redo() -> None:
                await service.undo(session.id, gm)
                await service.undo(session.id, gm, redo=True)

            await run.act(gm, {"type": "liquid", "rank": 2, "delta": 1})  # a correction the GM can take back
            result["undo_ms"] = await _median_ms(repeat, undo_and_redo) / 2
            real = store.checkpoint

            async def none(session_id: int) -> None:
                return None

            store.checkpoint = none  # type: ignore[method-assign]
            result["undo_whole_ms"] = await _median_ms(repeat, undo_and_redo) / 2
            store.checkpoint = real  # type: ignore[method-assign]
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--database", help="an empty PostgreSQL database to play in instead of a SQLite file")
    parser.add_argument("--small", action="store_true", help="CI's run: 5 turns read once, in seconds")
    args = parser.parse_args()
    if args.small:
        args.turns, args.repeat = 5, 1
    print(json.dumps(asyncio.run(measure(args.turns, args.repeat, args.database))))


if __name__ == "__main__":
    main()
