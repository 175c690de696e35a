"""Engine speed: random complete games per second on one core, Dice of Crowns then Vices & Vengeance.

Random players (uniform over legal actions) play complete games through the engine's public API
(prompts, legal_actions, apply), with a seeded dice source. Vices & Vengeance: 4 players, default
options; a random player's removal is a random non-empty set of removable units (``vices_4p``), or one
of ``legal_actions`` (``vices_4p_legal``: mostly a single unit, so many more rolls per turn). Every
action goes through ``apply`` with its legality checks, as in play. Prints tables, then one JSON line.
Usage: python bench/engine.py [--games N] [--vices-games N]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.crowns.options import CrownsOptions
from rules.crowns.playout import play, random_chooser, random_options
from rules.dice import SeededDice
from rules.vices import playout as vices_playout
from rules.vices.options import VicesOptions

PLAYERS = ("P1", "P2", "P3", "P4", "P5", "P6")


def run(name: str, games: int, pick_options: object) -> dict[str, float]:
    """Play ``games`` random games and time them."""
    rng = random.Random(name)
    actions = 0
    started = time.perf_counter()
    for seed in range(games):
        options, count = pick_options(rng)  # type: ignore[operator]
        players = PLAYERS[:count]
        choosers = {p: random_chooser(seed * 7 + i) for i, p in enumerate(players)}
        actions += play(options, players, SeededDice(seed), choosers).actions
    elapsed = time.perf_counter() - started
    return {
        "games_per_s": games / elapsed,
        "actions_per_game": actions / games,
        "us_per_action": elapsed / actions * 1e6,
    }


SCENARIOS = {
    "quick_3p": lambda rng: (CrownsOptions(), 3),
    "quick_2to6p": lambda rng: (CrownsOptions(), rng.randint(2, 6)),
    "all_modules_4p": lambda rng: (CrownsOptions(fate=True, legendary=True, overkill=True, last_stand=True), 4),
    "random_options": lambda rng: (random_options(rng), rng.randint(2, 6)),
}


def vices_run(games: int, legal_only: bool) -> dict[str, float]:
    """Play ``games`` random 4-player Vices & Vengeance games and time them."""
    players = PLAYERS[:4]
    actions = 0
    started = time.perf_counter()
    for seed in range(games):
        kind = vices_playout.uniform_player if legal_only else vices_playout.random_player
        choosers = {p: kind(seed * 7 + i) for i, p in enumerate(players)}
        actions += vices_playout.play(VicesOptions(), players, SeededDice(seed), choosers).actions
    elapsed = time.perf_counter() - started
    return {
        "games_per_s": games / elapsed,
        "actions_per_game": actions / games,
        "us_per_action": elapsed / actions * 1e6,
    }


def _table(results: dict[str, dict[str, float]]) -> None:
    print(f"{'scenario':<16} {'games/s':>9} {'actions/game':>13} {'µs/action':>10}")
    for name, r in results.items():
        print(f"{name:<16} {r['games_per_s']:>9.0f} {r['actions_per_game']:>13.1f} {r['us_per_action']:>10.1f}")


def main() -> None:
    """Run every scenario and report."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--vices-games", type=int, default=2000)
    parser.add_argument("--small", action="store_true", help="CI's run: 20 games of each, in seconds")
    args = parser.parse_args()
    if args.small:
        args.games = args.vices_games = 20
    results = {name: run(name, args.games, pick) for name, pick in SCENARIOS.items()}
    _table(results)
    vices = {
        "vices_4p": vices_run(args.vices_games, legal_only=False),
        "vices_4p_legal": vices_run(args.vices_games // 4, legal_only=True),
    }
    print()
    _table(vices)
    headline = results["quick_3p"]
    print(
        json.dumps(
            {
                "games_per_s": round(headline["games_per_s"], 1),
                "scenario": "quick_3p",
                "target": 500,
                "stretch": 1000,
                "games": args.games,
                **{f"{k}_games_per_s": round(v["games_per_s"], 1) for k, v in results.items()},
                "vices_games_per_s": round(vices["vices_4p"]["games_per_s"], 1),
                "vices_scenario": "vices_4p",
                "vices_target": 200,
                "vices_games": args.vices_games,
                "vices_actions_per_game": round(vices["vices_4p"]["actions_per_game"], 1),
                "vices_4p_legal_games_per_s": round(vices["vices_4p_legal"]["games_per_s"], 1),
            }
        )
    )


if __name__ == "__main__":
    main()
