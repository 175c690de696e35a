"""Measures how Normal computers' Vices & Vengeance turns end by how far they start from 70, and writes the table
that :mod:`rules.vices.turn_law` reads (``python -m rules.vices.measured_turns``: a few minutes)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from rules.dice import SeededDice
from rules.vices.data import EXACT_TARGET
from rules.vices.options import VicesOptions
from rules.vices.playout import computer_player, play
from rules.vices.turn_law import BUCKET, MEASURED, MEASURED_PLAYERS

MEASURED_GAMES = 4_000
"""Normal games played per player count."""


def measure(players: int, games: range) -> list[list[float]]:
    """Play Normal computers' games (seeded by ``games``) and return, for each distance bucket, the chances that a turn
    started that far from 70 ends it on exactly 70, and past it."""
    seats = [f"P{i}" for i in range(1, players + 1)]
    turns, exact, past = Counter[int](), Counter[int](), Counter[int]()
    for game in games:
        options = VicesOptions(seat_order="join_order", min_players=2)
        state = play(options, seats, SeededDice(game), dict.fromkeys(seats, computer_player)).state
        for seat in state.players:
            total = 0
            for score in seat.turns:
                away = EXACT_TARGET - total
                if away > 0:
                    bucket = (away - 1) // BUCKET
                    turns[bucket] += 1
                    exact[bucket] += score == away
                    past[bucket] += score > away
                total += score
    buckets = range((EXACT_TARGET - 1) // BUCKET + 1)
    return [[round(exact[b] / turns[b], 4), round(past[b] / turns[b], 4)] if turns[b] else [0.0, 0.0] for b in buckets]


def write(path: Path) -> None:
    """Measure every player count and write the table to ``path``."""
    data = {str(n): measure(n, range(MEASURED_GAMES)) for n in MEASURED_PLAYERS}
    path.write_text(json.dumps(data) + "\n", encoding="utf-8")


if __name__ == "__main__":
    write(Path(str(MEASURED)))
