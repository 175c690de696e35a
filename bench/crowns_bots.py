"""One Dice of Crowns computer player against two random players (uniform over legal actions).

Seats rotate game by game, so the computer sits first, second and third equally often; a random
player's baseline is 1/3. Prints the win rate with a 95% interval, then one JSON line.
Usage: python bench/crowns_bots.py [--games N] [--modules]
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.crowns.engine import ENGINE
from rules.crowns.options import CrownsOptions
from rules.crowns.playout import Chooser, play, random_chooser
from rules.dice import SeededDice


def main() -> None:
    """Play the games and report the computer's win rate."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--modules", action="store_true", help="Advanced play: every module on (target 5)")
    parser.add_argument("--small", action="store_true", help="CI's run: 30 games, in seconds")
    args = parser.parse_args()
    if args.small:
        args.games = 30
    options = (
        CrownsOptions(fate=True, legendary=True, overkill=True, last_stand=True) if args.modules else CrownsOptions()
    )
    wins = 0
    started = time.perf_counter()
    for game in range(args.games):
        seats = ["R1", "R2", "R3"]
        seats[game % 3] = "BOT"
        dice = SeededDice(game)
        choosers: dict[str, Chooser] = {p: random_chooser(game * 3 + i) for i, p in enumerate(seats)}
        choosers["BOT"] = lambda state, player, legal, dice=dice: ENGINE.computer_action(state, player, dice)
        final = play(options, seats, dice, choosers).state
        wins += final.winner == "BOT"
    elapsed = time.perf_counter() - started
    rate = wins / args.games
    margin = 1.96 * math.sqrt(rate * (1 - rate) / args.games)
    mode = "advanced (all modules)" if args.modules else "quick play"
    print(f"{mode}: computer player won {wins} of {args.games} games against two random players")
    print(f"win rate {rate:.3f} ± {margin:.3f} (random baseline 0.333), {elapsed:.0f} s")
    print(json.dumps({"win_rate": round(rate, 4), "ci95": round(margin, 4), "games": args.games, "mode": mode}))


if __name__ == "__main__":
    main()
