"""Computer strengths head to head: Strong against Normal, and Strong against an independent yardstick player.

Settings: Dice of Crowns quick play, Dice of Crowns with every module, Vices & Vengeance; 2 and 3 players (the
third seat a random filler: uniform over the legal actions, for V&V a random removal). Seats rotate game by game
over every order, so each side sits in each place equally often. ``strong`` and ``normal`` are each side's share
of the wins, ``ci95`` the half-width of the 95 % interval of Strong's share, ``margin_ci95`` that of Strong's share
minus the other side's (Strong is ahead outside the interval when ``strong - normal > margin_ci95``). Two-player
Dice of Crowns without modules is solved (``rules.crowns.duel``): its line also gives ``exact``, the share the best
possible player takes from Normal, worked out rather than sampled. Each setting against Normal is played again
with a Normal computer in Strong's seat, on the same games' dice: ``normal_in_strong_seat`` is that seat's share,
``gain`` Strong's gain over it game by game, ``gain_ci95`` its interval (Strong's own effect, with the seat's and
the dice's luck paired away as far as the dice stay in step). Every computer
decides from its seat's view (``view(state, Viewer(player))`` when the game hides anything; these games hide only
the dice to come). Decision times are of each call to ``computer_action``, on this machine, in one process:
``decision_ms`` in wall time, ``decision_cpu_ms`` in the process's processor time (what a decision costs one
core: on a machine shared with other work, wall time also counts the waits for a core).
Usage: python bench/strength.py [--games N] [--vices-games N] [--yardstick-games N] [--workers W] [--small]
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from itertools import permutations
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.yardstick import crowns_yardstick, vices_yardstick
from rules.crowns import duel
from rules.crowns.engine import ENGINE as CROWNS
from rules.crowns.options import CrownsOptions
from rules.crowns.playout import play as play_crowns
from rules.crowns.playout import random_chooser
from rules.dice import SeededDice
from rules.engine import NORMAL, STRONG
from rules.vices.engine import ENGINE as VICES
from rules.vices.options import VicesOptions
from rules.vices.playout import play as play_vices
from rules.vices.playout import random_player

MODULES = ["fate", "legendary", "overkill", "last_stand"]
SIDES = ("strong", "other", "filler")


@dataclass(frozen=True)
class Setting:
    """One series: a game, its modules, the number of seats, and who Strong plays against."""

    game: str
    modules: tuple[str, ...]
    players: int
    against: str
    """``normal`` or ``yardstick``."""
    baseline: bool = False
    """The same games with a Normal computer in Strong's seat (its share there is the seat's and the dice's luck)."""


@dataclass
class Tally:
    """Wins by side, and every decision's time by strength (ms)."""

    wins: dict[str, float] = field(default_factory=lambda: dict.fromkeys(SIDES, 0.0))
    games: int = 0
    seat: dict[int, float] = field(default_factory=dict)
    """Strong's seat's share of the win in each game, by game number (to pair with the baseline's)."""
    times: dict[str, list[float]] = field(default_factory=lambda: {STRONG: [], NORMAL: []})
    cpu: dict[str, list[float]] = field(default_factory=lambda: {STRONG: [], NORMAL: []})
    """The same decisions' processor time (ms): what they cost one core, however loaded the machine."""

    def add(self, other: Tally) -> None:
        """Fold another worker's tally in."""
        for side in SIDES:
            self.wins[side] += other.wins[side]
        self.games += other.games
        self.seat.update(other.seat)
        for strength, times in other.times.items():
            self.times[strength] += times
        for strength, times in other.cpu.items():
            self.cpu[strength] += times


def _timed(tally: Tally, strength: str, choose: Callable[[], Any]) -> Any:
    started, cpu = time.perf_counter(), time.process_time()
    action = choose()
    tally.times[strength].append((time.perf_counter() - started) * 1000)
    tally.cpu[strength].append((time.process_time() - cpu) * 1000)
    return action


def _crowns_game(setting: Setting, seats: list[str], game: int, tally: Tally) -> list[str]:
    options = CrownsOptions(**dict.fromkeys(setting.modules, True))
    dice = SeededDice(game)
    yardstick = crowns_yardstick()

    def computer(strength: str) -> Any:
        return lambda s, p, legal: _timed(tally, strength, lambda: CROWNS.computer_action(s, p, dice, strength))

    choosers = {
        "strong": computer(NORMAL if setting.baseline else STRONG),
        "other": computer(NORMAL) if setting.against == NORMAL else (lambda s, p, legal: yardstick(s, p)),
        "filler": random_chooser(game),
    }
    final = play_crowns(options, seats, dice, {p: choosers[p] for p in seats}).state
    return [final.winner] if final.winner else []


def _vices_game(setting: Setting, seats: list[str], game: int, tally: Tally) -> list[str]:
    options = VicesOptions(seat_order="join_order", min_players=2)
    dice = SeededDice(game)

    def computer(strength: str) -> Any:
        return lambda s, p: _timed(tally, strength, lambda: VICES.computer_action(s, p, dice, strength))

    choosers = {
        "strong": computer(NORMAL if setting.baseline else STRONG),
        "other": computer(NORMAL) if setting.against == NORMAL else vices_yardstick,
        "filler": random_player(game),
    }
    return list(play_vices(options, seats, dice, {p: choosers[p] for p in seats}).state.winners)


def series(setting: Setting, games: range) -> Tally:
    """Strong against the other side for each game number in ``games``, seats rotated over every order."""
    tally = Tally()
    orders = list(permutations(SIDES[: setting.players]))
    play = _crowns_game if setting.game == "crowns" else _vices_game
    for game in games:
        winners = play(setting, list(orders[game % len(orders)]), game, tally)
        for side in winners:
            tally.wins[side] += 1 / len(winners)
        tally.seat[game] = 1 / len(winners) if "strong" in winners else 0.0
        tally.games += 1
    return tally


def _series(job: tuple[Setting, int, int, int]) -> Tally:
    setting, start, stop, step = job
    return series(setting, range(start, stop, step))


def run(setting: Setting, games: int, workers: int) -> Tally:
    """A series split over ``workers`` processes."""
    tally = Tally()
    jobs = [(setting, i, games, workers) for i in range(workers)]
    if workers == 1:
        tally.add(_series(jobs[0]))
        return tally
    with ProcessPoolExecutor(workers) as pool:
        for part in pool.map(_series, jobs):
            tally.add(part)
    return tally


def summary(setting: Setting, tally: Tally) -> dict[str, Any]:
    """One setting's line of the JSON: shares of the wins with their intervals."""
    n = tally.games
    strong, other = tally.wins["strong"] / n, tally.wins["other"] / n
    margin = 1.96 * math.sqrt(max(strong + other - (strong - other) ** 2, 0.0) / n)
    return {
        "game": setting.game,
        "modules": list(setting.modules),
        "players": setting.players,
        "games": n,
        "strong": round(strong, 4),
        setting.against: round(other, 4),
        "ci95": round(1.96 * math.sqrt(strong * (1 - strong) / n), 4),
        "margin_ci95": round(margin, 4),
    }


def exact_line(setting: Setting) -> dict[str, float] | None:
    """For two-player Dice of Crowns without modules, the solved game's answer (``rules.crowns.duel``): the
    share of the wins the best possible player takes from Normal, seats alternating, exactly (Strong plays that
    player there). None for other settings."""
    if (setting.game, setting.modules, setting.players, setting.against) != ("crowns", (), 2, NORMAL):
        return None
    options = CrownsOptions()
    target, table = options.claim_target, duel.Table(options.allow_voluntary_end, options.auto_end_unreachable)
    normal = duel.normal_policy(table)
    best = (duel.match(target, table, None, normal) + 1 - duel.match(target, table, normal, None)) / 2
    return {"strong": round(best, 6), NORMAL: round(1 - best, 6), "margin": round(2 * best - 1, 6)}


def paired(tally: Tally, baseline: Tally) -> dict[str, float]:
    """Strong's seat against the same games with Normal in it: that seat's share then, and Strong's gain over it
    game by game (game *n* is dealt the same dice in both), with the 95 % interval of the gain. The dice part
    ways once the two choose differently, so the pairing removes only part of the luck; the gain's mean is
    the same as comparing the two shares, its interval is what the pairing narrows."""
    gains = [tally.seat[n] - baseline.seat[n] for n in tally.seat]
    n = len(gains)
    mean = sum(gains) / n
    spread = math.sqrt(sum((g - mean) ** 2 for g in gains) / (n - 1)) if n > 1 else 0.0
    return {
        "normal_in_strong_seat": round(sum(baseline.seat.values()) / n, 4),
        "gain": round(mean, 4),
        "gain_ci95": round(1.96 * spread / math.sqrt(n), 4),
    }


def percentiles(times: list[float]) -> dict[str, float]:
    """p50 and p99 of decision times (ms)."""
    if not times:
        return {"p50": 0.0, "p99": 0.0}
    ordered = sorted(times)
    return {
        "p50": round(ordered[len(ordered) // 2], 2),
        "p99": round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))], 2),
    }


def _name(setting: Setting) -> str:
    """``crowns+modules:3:normal``: how ``--only`` names a setting."""
    game = setting.game + ("+modules" if setting.modules else "")
    return f"{game}:{setting.players}:{setting.against}"


def main() -> None:
    """Play every series and report."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=600, help="games per Dice of Crowns setting against Normal")
    parser.add_argument("--vices-games", type=int, default=None, help="games per V&V setting (default: --games)")
    parser.add_argument("--yardstick-games", type=int, default=None, help="games per yardstick setting")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--only", nargs="*", default=None, help="settings to play, as game:players:against (crowns+modules:3:normal)"
    )
    parser.add_argument("--small", action="store_true", help="CI's run: 2 games a setting, in seconds")
    args = parser.parse_args()
    if args.small:
        args.games, args.vices_games, args.yardstick_games = 1, 1, 1
    vices_games = args.vices_games if args.vices_games is not None else args.games
    yard_games = args.yardstick_games if args.yardstick_games is not None else args.games
    settings = [
        Setting(game, modules, players, against)
        for against in (NORMAL, "yardstick")
        for game, modules in (("crowns", ()), ("crowns", tuple(MODULES)), ("vices", ()))
        for players in (2, 3)
        if against == NORMAL or players == 2
    ]
    if args.only is not None:
        settings = [s for s in settings if _name(s) in args.only]
    total = Tally()
    results: dict[str, list[dict[str, Any]]] = {NORMAL: [], "yardstick": []}
    started = time.perf_counter()
    for setting in settings:
        games = yard_games if setting.against != NORMAL else vices_games if setting.game == "vices" else args.games
        tally = run(setting, games, args.workers)
        total.add(tally)
        line = summary(setting, tally)
        if setting.against == NORMAL:
            line |= paired(tally, run(dataclasses.replace(setting, baseline=True), games, args.workers))
        if (exact := exact_line(setting)) is not None:
            line["exact"] = exact
        results[setting.against].append(line)
        print(json.dumps(line), flush=True)
    print(f"{time.perf_counter() - started:.0f} s")
    decision_ms = {strength: percentiles(times) for strength, times in total.times.items()}
    cpu_ms = {strength: percentiles(times) for strength, times in total.cpu.items()}
    print(
        json.dumps(
            {
                "settings": results[NORMAL],
                "yardstick": results["yardstick"],
                "decision_ms": decision_ms,
                "decision_cpu_ms": cpu_ms,
            }
        )
    )


if __name__ == "__main__":
    main()
