"""Vices & Vengeance computer players against the reference players: greedy and random.

greedy: removes only the single lowest-scoring die or pair on every roll (effects: the first legal choice).
random: removes a random non-empty legal set of dice (effects: a random legal choice).

Two series of games, three players each, seats rotated game by game (seat order as given, so the
computer sits first, second and third equally often): one computer against two greedy players, then
one computer against two random players. Prints the mean turn score of each kind of player, the
computer's win rate against two greedy players (baseline 1/3) with a 95% interval, then one JSON line.
Usage: python bench/vices_bots.py [--games N] [--workers W]
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.dice import SeededDice
from rules.vices.options import VicesOptions
from rules.vices.playout import Chooser, computer_player, greedy_player, play, random_player

OPTIONS = VicesOptions(seat_order="join_order")


@dataclass
class Tally:
    """Turn scores by kind of player, and the computer's wins."""

    turns: dict[str, list[int]] = field(
        default_factory=lambda: {"computer": [0, 0], "greedy": [0, 0], "random": [0, 0]}
    )
    wins: int = 0
    games: int = 0

    def add(self, other: Tally) -> None:
        for kind, (total, count) in other.turns.items():
            self.turns[kind][0] += total
            self.turns[kind][1] += count
        self.wins += other.wins
        self.games += other.games

    def mean(self, kind: str) -> float:
        total, count = self.turns[kind]
        return total / count if count else float("nan")


def series(rival: str, games: range) -> Tally:
    """One computer against two ``rival`` players, for each game number in ``games``."""
    tally = Tally()
    for game in games:
        seats = ["R1", "R2", "R3"]
        seats[game % 3] = "BOT"
        choosers: dict[str, Chooser] = {
            p: greedy_player if rival == "greedy" else random_player(game * 3 + i) for i, p in enumerate(seats)
        }
        choosers["BOT"] = computer_player
        final = play(OPTIONS, seats, SeededDice(game), choosers).state
        for seat in final.players:
            kind = "computer" if seat.id == "BOT" else rival
            tally.turns[kind][0] += sum(seat.turns)
            tally.turns[kind][1] += len(seat.turns)
        tally.wins += final.winners == ("BOT",)
        tally.games += 1
    return tally


def _series(job: tuple[str, int, int, int]) -> Tally:
    rival, start, stop, step = job
    return series(rival, range(start, stop, step))


def run(rival: str, games: int, workers: int) -> Tally:
    """A series split over ``workers`` processes."""
    tally = Tally()
    jobs = [(rival, i, games, workers) for i in range(workers)]
    with ProcessPoolExecutor(workers) as pool:
        for part in pool.map(_series, jobs):
            tally.add(part)
    return tally


def main() -> None:
    """Play both series and report."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--small", action="store_true", help="CI's run: 12 games a series, in seconds")
    args = parser.parse_args()
    if args.small:
        args.games = 12
    started = time.perf_counter()
    greedy = run("greedy", args.games, args.workers)
    random = run("random", args.games, args.workers)
    elapsed = time.perf_counter() - started
    rate = greedy.wins / greedy.games
    margin = 1.96 * math.sqrt(rate * (1 - rate) / greedy.games)
    computer, greedy_mean, random_mean = greedy.mean("computer"), greedy.mean("greedy"), random.mean("random")
    print(f"{args.games} games per series, 3 players, seats rotated, {elapsed:.0f} s")
    print(f"mean turn score: computer {computer:.2f}, greedy {greedy_mean:.2f}, random {random_mean:.2f}")
    print(f"computer scores {1 - computer / greedy_mean:.1%} fewer points per turn than greedy")
    print(f"computer against two greedy players: won {greedy.wins} of {greedy.games} games")
    print(f"win rate {rate:.3f} ± {margin:.3f} (baseline 0.333)")
    print(f"computer against two random players: won {random.wins} of {random.games} games")
    print(
        json.dumps(
            {
                "games": args.games,
                "computer_turn_score": round(computer, 3),
                "greedy_turn_score": round(greedy_mean, 3),
                "random_turn_score": round(random_mean, 3),
                "computer_turn_score_vs_random": round(random.mean("computer"), 3),
                "fewer_points_than_greedy": round(1 - computer / greedy_mean, 4),
                "win_rate_vs_two_greedy": round(rate, 4),
                "ci95": round(margin, 4),
                "win_rate_vs_two_random": round(random.wins / random.games, 4),
            }
        )
    )


if __name__ == "__main__":
    main()
