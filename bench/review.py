"""How long a game's review takes: a long game played by the computer in every seat, reviewed with the bot's budget.

Reports the review's wall time, the rollout actions it applied, and how many decisions it rated, for Dice of Crowns
(three players, quick play and every module) and Vices & Vengeance (three players). Last line: one JSON object.
Usage: python bench/review.py [--budget N] [--small]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pydantic import BaseModel

from bot.review import BUDGET
from rules.crowns.engine import ENGINE as CROWNS
from rules.crowns.options import CrownsOptions
from rules.dice import SeededDice
from rules.review import Position, review
from rules.vices.engine import ENGINE as VICES

GAMES: dict[str, tuple[Any, BaseModel]] = {
    "crowns": (CROWNS, CrownsOptions()),
    "crowns_modules": (CROWNS, CrownsOptions(fate=True, legendary=True, overkill=True, last_stand=True)),
    "vices": (VICES, VICES.options_model()),
}


def longest(engine: Any, options: BaseModel, tries: int) -> tuple[list[str], list[Position], BaseModel]:
    """The longest of ``tries`` games played by the computer in every seat, as positions."""
    best: tuple[list[str], list[Position], BaseModel] | None = None
    for seed in range(tries):
        players, dice = ["p1", "p2", "p3"], SeededDice(seed)
        state = engine.start(options, players, dice).state
        positions: list[Position] = []
        while engine.winners(state) is None:
            actor = engine.prompts(state)[0].player
            action = engine.computer_action(state, actor, dice)
            positions.append(Position(len(positions) + 1, actor, state, action))
            state = engine.apply(state, actor, action, dice).state
        if best is None or len(positions) > len(best[1]):
            best = (players, positions, state)
    assert best is not None
    return best


def main() -> None:
    """Review the longest game of each kind and report the timings."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--budget", type=int, default=BUDGET)
    parser.add_argument("--small", action="store_true", help="CI's run: a short budget, in seconds")
    args = parser.parse_args()
    budget, tries = (1_000, 1) if args.small else (args.budget, 20)
    games = {"crowns": GAMES["crowns"]} if args.small else GAMES
    results = []
    for name, (engine, options) in games.items():
        players, positions, final = longest(engine, options, tries)
        engine.computer_action(positions[0].state, positions[0].actor, SeededDice(0))  # caches warmed, as in the bot
        started = time.perf_counter()
        reviewed = review(engine, players, positions, final, budget)
        seconds = time.perf_counter() - started
        choices = sum(1 for d in reviewed.decisions if d.choices > 1)
        costly = sum(1 for d in reviewed.decisions if d.cost > 0)
        print(
            f"{name}: {len(positions)} decisions ({choices} with a choice, {costly} costly), "
            f"{reviewed.actions} rollout actions, {seconds:.1f} s"
        )
        results.append(
            {
                "game": name,
                "decisions": len(positions),
                "choices": choices,
                "costly": costly,
                "budget": budget,
                "actions": reviewed.actions,
                "seconds": round(seconds, 2),
            }
        )
    print(json.dumps({"reviews": results}))


if __name__ == "__main__":
    main()
