"""Game-system presets, timed (not a test; run ``python bench/presets.py``): for each system, its heaviest
accepted roll (the largest pool its limits allow), the time of ``/dice odds`` (worked out in the roll worker) and
of one roll. Prints a line per system; the last line is one JSON object. ``--small`` takes each system's first
example instead (seconds in all)."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules.dice import SeededDice
from rules.roll import roll
from rules.roll.odds import odds_table
from rules.roll.systems import SYSTEMS

HEAVIEST = {
    "dh": "dh +2 adv vs 15",
    "bitd": "bitd 10",
    "pbta": "pbta +2 adv",
    "vtm": "vtm 30 h5 vs 5",
    "yz": "yz 10 10 10",
    "fate": "20dF +2",
    "sw": "sw d4 +1",
    "coc": "coc 60 p2",
    "cpr": "cpr +12 vs 15",
    "sr": "sr 50 vs 5",
    "is": "is +2",
    "gen": "gen 8y 8r 4b",
}
"""The costliest roll each system accepts: its biggest pool, its most dice."""


def timed(work: object, repeat: int) -> float:
    """Best of ``repeat`` runs, in milliseconds."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        work()  # type: ignore[operator]
        best = min(best, time.perf_counter() - start)
    return best * 1000


def main() -> None:
    """Time every system; print one JSON object last."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--small", action="store_true", help="each system's first example (seconds)")
    args = parser.parse_args()
    dice = SeededDice(1)
    figures = {}
    for system in SYSTEMS:
        text = system.examples[0] if args.small else HEAVIEST[system.key]
        odds_ms = timed(lambda text=text: odds_table(text), 1 if args.small else 3)
        roll_ms = timed(lambda text=text: roll(text, dice), 5 if args.small else 50)
        figures[system.key] = {"roll": text, "odds_ms": round(odds_ms, 2), "roll_ms": round(roll_ms, 3)}
        print(f"{system.key:>5}  {text:<18} odds {odds_ms:8.2f} ms  roll {roll_ms:7.3f} ms")
    slowest = max(figures.values(), key=lambda f: f["odds_ms"])
    print(json.dumps({"presets": figures, "slowest_odds_ms": slowest["odds_ms"], "slowest_odds": slowest["roll"]}))


if __name__ == "__main__":
    main()
