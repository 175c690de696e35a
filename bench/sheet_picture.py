"""How long drawing a V&V scoresheet picture takes: 6 players with 32-character names × 12 rounds.

Draws the same sheet many times (after one warm-up) and reports the median, the 90th percentile and
the fastest draw; the target is a median of at most 50 ms. Prints a line, then one JSON line.
``--example PATH`` also writes the documented example (4 players, someone on exactly 70) to PATH.
Usage: python bench/sheet_picture.py [--repeats N] [--example docs/vv-sheet.png]
"""

from __future__ import annotations

import argparse
import io
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PIL import Image

from cogs.vices.picture import draw_sheet
from rules.dice import ScriptedDice
from rules.vices.sheet import SHEET_ENGINE
from rules.vices.sheet_state import SheetOptions, SheetState, progress

NO_DICE = ScriptedDice([])


def sheet(rows: list[tuple[str, str]], scores: list[int], moves: list[dict[str, object]]) -> SheetState:
    """A sheet with these (Sin, name) rows, turn scores entered in turn, then these Sin moves."""
    options = SheetOptions.model_validate(
        {"keeper": "1", "keeper_name": "Keeper", "rows": [{"sin": s, "name": n} for s, n in rows]}
    )
    state = SHEET_ENGINE.start(options, [], NO_DICE).state
    for value in scores:
        state = _keep(state, {"type": "score", "row": progress(state).up, "value": value})
    for move in moves:
        state = _keep(state, move)
    return state


def _keep(state: SheetState, data: dict[str, object]) -> SheetState:
    """Write one action on the sheet as its keeper."""
    return SHEET_ENGINE.apply(state, "1", SHEET_ENGINE.parse_action(data), NO_DICE).state


def worst_case() -> SheetState:
    """Six long names, twelve rounds, the next player up."""
    sins = ["Wrath", "Sloth", "Pride", "Lust", "Greed", "Gluttony"]
    rows = [(sin, f"{sin} Bartholomew Fitzgerald-Wolfgang"[:32]) for sin in sins]
    return sheet(rows, [1, 2, 3, 4, 5, 2] * 11 + [3, 1], [{"type": "sin", "sin": "Envy", "to": "Lust"}])


def example() -> SheetState:
    """RULES.md VV-14 after Jordan's round-4 turn: Jordan on exactly 70, the round to finish, Sins moved."""
    rows = [("Wrath", "Jordan"), ("Sloth", "Taylor"), ("Greed", "Casey"), ("Pride", "Avery")]
    moves: list[dict[str, object]] = [
        {"type": "sin", "sin": "Greed", "to": "Pride"},
        {"type": "sin", "sin": "Lust", "to": "out"},
        {"type": "sloth", "removed": True},
    ]
    return sheet(rows, [14, 9, 22, 11, 17, 8, 19, 15, 20, 21, 15, 30, 19], moves)


def main() -> None:
    """Time the drawing and report."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=50)
    parser.add_argument("--example", type=Path, help="also write the documented example picture here")
    parser.add_argument("--small", action="store_true", help="CI's run: 3 draws, in seconds")
    args = parser.parse_args()
    if args.small:
        args.repeats = 3
    if args.example:
        args.example.write_bytes(draw_sheet(example()))
    state = worst_case()
    png = draw_sheet(state)  # warm-up: first use of the font and the encoder
    times = []
    for _ in range(args.repeats):
        started = time.perf_counter()
        draw_sheet(state)
        times.append((time.perf_counter() - started) * 1000)
    width, height = Image.open(io.BytesIO(png)).size
    median = statistics.median(times)
    p90 = statistics.quantiles(times, n=10)[-1]
    print(f"6 players × 12 rounds, {width}×{height} px, {len(png)} bytes: median {median:.1f} ms, p90 {p90:.1f} ms")
    print(
        json.dumps(
            {
                "median_ms": round(median, 2),
                "p90_ms": round(p90, 2),
                "min_ms": round(min(times), 2),
                "target_ms": 50,
                "repeats": args.repeats,
                "players": 6,
                "rounds": 12,
                "width": width,
                "height": height,
                "png_bytes": len(png),
            }
        )
    )


if __name__ == "__main__":
    main()
