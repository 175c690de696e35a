"""Worst-case /roll evaluation time within the limits (not a test; run ``python bench/roll_worst.py``).

Times a list of hand-built adversarial rolls, each several times, and prints a table; the last line is
one JSON object with the slowest roll and its time. Rolls stopped by a limit count too: reaching a limit
is the worst case for runaway rerolls, and the time to hit it is what a user can make the bot spend.
"""

from __future__ import annotations

import json
import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules.dice import SystemDice
from rules.roll import DEFAULT_LIMITS, RollError, render, roll

REPEATS = 5
# No time limit here: we want the raw cost of each roll, not the cap.
LIMITS = replace(DEFAULT_LIMITS, time_limit_s=3600.0)
KEEP_CHAIN = "1000d10000" + "kh999" * 98
CANDIDATES = [
    "4d6kh3",
    "1000d6",
    "1000d10000kh999",
    "1000d10000kl1",
    KEEP_CHAIN,
    "1000d10000rr<9999",
    "1d10000e>1",
    "1d2e>0",
    "1d10000rr>0",
    "1000d6eh1000",
    "1000d6eh1",
    "1000d2e2",
    "1000d10000ro<10000ra>1",
    "1000d10000rr<10000",
    "20x 50d10000kh25e>1",
    "(" + ",".join(["1d6"] * 98) + ")kh1",
    "1000d6 t4 f1",
    "20x 50d6e6kh40mi2 t4 f1",
]


def time_roll(expression: str) -> tuple[float, str]:
    """Slowest of REPEATS runs in milliseconds (parse, roll and render), and how the roll ended."""
    worst = 0.0
    outcome = "ok"
    for _ in range(REPEATS):
        start = time.perf_counter()
        try:
            render(roll(expression, SystemDice(), LIMITS))
        except RollError as error:
            outcome = f"limit: {error}"
        worst = max(worst, (time.perf_counter() - start) * 1000)
    return worst, outcome


def main() -> None:
    """Print the table and the JSON line."""
    rows = [(expr, *time_roll(expr)) for expr in CANDIDATES]
    rows.sort(key=lambda row: row[1], reverse=True)
    for expr, ms, outcome in rows:
        shown = expr if len(expr) <= 40 else expr[:37] + "..."
        print(f"{ms:9.1f} ms  {shown:<40}  {outcome[:70]}")
    expr, ms, outcome = rows[0]
    print(json.dumps({"roll_worst_ms": round(ms, 1), "roll_worst_expression": expr, "outcome": outcome}))


if __name__ == "__main__":
    main()
