"""Worst-case /roll time within the limits (not a test; run ``python bench/roll_worst.py``).

1. Times hand-built adversarial rolls (parse, roll and render), each several times, with no time cap.
   Rolls stopped by a limit count too: hitting the roll budget is the worst case for runaway rerolls.
2. Runs the slowest successful roll 4 at a time, in threads and then in the process pool, while a probe
   measures how late the event loop wakes up: the cost a big roll imposes on every other game.

Prints a table; the last line is one JSON object.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.roll_worker import RollWorker
from rules.dice import SystemDice
from rules.roll import DEFAULT_LIMITS, RollError, render, roll

REPEATS = 5
UNCAPPED = replace(DEFAULT_LIMITS, time_limit_s=3600.0)
CANDIDATES = [
    "4d6kh3",
    "1000d6",
    "1000d10000kh999",
    "1000d10000kl1",
    "1000d10000" + "kh1" * 163,  # 499 chars: 163 selectors, one sort of 1000 dice each
    "1000d10000" + "ph1kh999" * 61,  # separate operators, each a pass over the dice
    "1000d10000rr<9999",
    "1000d10000rr<10000",
    "1d2e>0",
    "1d10000e>1",
    "1d10000rr>0",
    "1000d6eh1000",
    "1000d2e2",
    "1000d10000ro<10000ra>1",
    "20x 50d10000kh25e>1",
    "(" + ",".join(["1d6"] * 98) + ")kh1",
    "1000d6 t4 f1",
    "20x 50d6e6kh40mi2 t4 f1",
]


def time_roll(expression: str, repeats: int) -> tuple[float, str]:
    """Slowest of ``repeats`` runs in milliseconds, and how the roll ended."""
    worst = 0.0
    outcome = "ok"
    for _ in range(repeats):
        start = time.perf_counter()
        try:
            render(roll(expression, SystemDice(), UNCAPPED))
        except RollError as error:
            outcome = f"limit: {error}"
        worst = max(worst, (time.perf_counter() - start) * 1000)
    return worst, outcome


async def loop_lag_ms(worker: RollWorker, expression: str, waves: int) -> float:
    """Worst event-loop wake-up delay while ``waves`` waves of 4 concurrent rolls run in ``worker``."""
    stop = asyncio.Event()

    async def probe() -> float:
        worst = 0.0
        while not stop.is_set():
            start = time.perf_counter()
            await asyncio.sleep(0.001)
            worst = max(worst, time.perf_counter() - start - 0.001)
        return worst

    await worker.roll("1d6")  # pool started before measuring
    task = asyncio.create_task(probe())
    for _ in range(waves):
        await asyncio.gather(*(worker.roll(expression) for _ in range(4)))
    stop.set()
    lag = await task
    worker.close()
    return lag * 1000


async def lag_table(expression: str, waves: int) -> dict[str, float]:
    """Loop lag with rolls in threads versus in the process pool."""
    with ThreadPoolExecutor(4) as threads:
        thread_lag = await loop_lag_ms(RollWorker(limits=UNCAPPED, executor=threads), expression, waves)
    process_lag = await loop_lag_ms(RollWorker(limits=UNCAPPED), expression, waves)
    return {"loop_lag_thread_ms": round(thread_lag, 1), "loop_lag_process_ms": round(process_lag, 1)}


def main() -> None:
    """Print the table and the JSON line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--small", action="store_true", help="CI's run: each roll once, one wave, in seconds")
    small = parser.parse_args().small
    rows = sorted(
        ((expr, *time_roll(expr, 1 if small else REPEATS)) for expr in CANDIDATES), key=lambda row: row[1], reverse=True
    )
    for expr, ms, outcome in rows:
        shown = expr if len(expr) <= 40 else expr[:37] + "..."
        print(f"{ms:9.1f} ms  {shown:<40}  {outcome[:60]}")
    slowest_ok = next(expr for expr, _, outcome in rows if outcome == "ok")
    lags = asyncio.run(lag_table(slowest_ok, 1 if small else 3))
    print(
        f"\nEvent-loop lag while 4 x '{slowest_ok[:30]}...' run at once: "
        f"threads {lags['loop_lag_thread_ms']} ms, process pool {lags['loop_lag_process_ms']} ms"
    )
    expr, ms, outcome = rows[0]
    print(json.dumps({"roll_worst_ms": round(ms, 1), "roll_worst_expression": expr, "outcome": outcome, **lags}))


if __name__ == "__main__":
    main()
