"""Time for exact Viciousness odds (not a test; run ``python bench/odds.py``).

For pools of 5, 10, 20 and 40 dice a side, the median over REPEATS runs of
- the whole request, as ``/vic odds`` would run it: parse the text, compute, render the table and the summary;
- the computation alone (``violence_odds`` / ``knavery_odds``).

Pools mix plain and rattled d4s and d6s, so each side holds four groups of identical dice; the "distinct" rows
give every die its own size, the worst case for grouping (one convolution per die). The target is under 50 ms
for 20 dice a side, whole request included.

Prints a table; the last line is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules.viciousness.odds import knavery_odds, render_knavery, render_violence, summary, violence_odds
from rules.viciousness.odds_parse import parse_knavery, parse_violence

REPEATS = 31
SIZES = (5, 10, 20, 40)
TARGET_MS = 50.0


def mixed(n: int, first: str, second: str) -> str:
    """``n`` dice: a quarter each of ``first``, ``second`` and their rattled forms, the rest ``first``."""
    quarter = n // 4
    return f"{n - 3 * quarter}{first} {quarter}{second} r{quarter}{first} r{quarter}{second}"


def distinct(n: int) -> str:
    """``n`` dice of ``n`` different sizes, alternately rattled: no two dice group together."""
    return " ".join(f"{'r' if faces % 2 else ''}d{faces}" for faces in range(4, 4 + n))


def median_ms(run: Callable[[], object], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def violence_request(text: str) -> str:
    odds = violence_odds(*parse_violence(text))
    return render_violence(odds) + summary(odds)


def knavery_request(text: str) -> str:
    odds = knavery_odds(*parse_knavery(text))
    return render_knavery(odds) + summary(odds)


def main() -> None:
    """Print the table and the JSON line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--small", action="store_true", help="CI's run: each case once, in seconds")
    repeats = 1 if parser.parse_args().small else REPEATS
    rows: list[tuple[str, int, float, float]] = []
    for n in SIZES:
        for kind, text in (
            ("violence", f"{mixed(n, 'd4', 'd6')} vs {mixed(n, 'd4', 'd4')}"),
            ("violence, distinct", f"{distinct(n)} vs {distinct(n)}"),
            ("violence, 6 sides", " vs ".join([mixed(n, "d4", "d6")] * 6)),
            ("knavery", f"{mixed(n, 'd6', 'd4')} vs {n // 2}"),
            ("knavery, distinct", f"{distinct(n)} vs {n // 2}"),
        ):
            if kind.startswith("violence"):
                sides = parse_violence(text)
                request = median_ms(partial(violence_request, text), repeats)
                compute = median_ms(partial(violence_odds, *sides), repeats)
            else:
                pool, challenges = parse_knavery(text)
                request = median_ms(partial(knavery_request, text), repeats)
                compute = median_ms(partial(knavery_odds, pool, challenges), repeats)
            rows.append((kind, n, request, compute))

    print(f"{'case':<20} {'dice/side':>9} {'request ms':>11} {'compute ms':>11}")
    for kind, n, request, compute in rows:
        print(f"{kind:<20} {n:>9} {request:>11.2f} {compute:>11.2f}")
    at_20 = max(request for _, n, request, _ in rows if n == 20)
    print(f"\nslowest request at 20 dice a side: {at_20:.2f} ms (target < {TARGET_MS:.0f} ms)")
    print(
        json.dumps(
            {
                "request_ms": {f"{kind} {n}": round(request, 2) for kind, n, request, _ in rows},
                "compute_ms": {f"{kind} {n}": round(compute, 2) for kind, n, _, compute in rows},
                "slowest_request_20_ms": round(at_20, 2),
                "target_met": at_20 < TARGET_MS,
            }
        )
    )


if __name__ == "__main__":
    main()
