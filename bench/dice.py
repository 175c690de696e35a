"""Around /roll, timed (not a test; run ``python bench/dice.py``).

- ``stats``: ``/stats luck`` for a member with 100,000 recorded dice (a year of /roll and game dice, seven die
  sizes, two channels) and ~10,000 Vices & Vengeance turns on SQLite, through the local Discord: slash sent →
  answer with its chart received. The data part alone (queries and figures, no picture) is timed too.
- ``board``: a dice board clicked 25 times at once by five members, with Discord answering the first five
  callbacks with a 429 (retry after 1 s): how many clicks were answered within Discord's 3 s.
- ``odds``: ``/dice odds`` for heavy expressions at the limits of what it accepts (time and counted steps); the
  slowest; how soon expressions over the work budget are refused; and the ``/vic odds`` pools of bench/odds.py on
  the same machine for comparison.

Prints a table; the last line is one JSON object.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.app import TabletopBot
from bot.endpoint import use_api_base
from bot.settings import Settings
from bot.storage.dice import CommitCounts, LuckFilter
from bot.storage.luck import DAY_S, TurnTally, Where, tally
from cogs.dice.stats import alt_text, per_size, server_rank
from localdiscord import LocalDiscord
from rules.dice import SeededDice
from rules.engine import TurnLuck
from rules.roll.odds import WORK_LIMIT, OverBudget, odds
from rules.viciousness.odds import violence_odds
from rules.viciousness.odds_parse import parse_violence

SIZES = (20, 20, 20, 6, 6, 8, 4, 10, 12, 100)
DAYS = 365
TURNS_A_DAY = 27
"""Vices & Vengeance turns a day (about 10,000 in the year) besides the dice."""
BURST = 25
DEADLINE_S = 3.0
TARGET_STATS_MS = 200.0
HEAVY_ODDS = (
    "1000d2",
    "200d6",
    "100d10",
    "50d20",
    "20d10kh10",
    "12d20kh6",
    "20d6kh10 + 20d6kh10",
    "(1d20, 1d20, 1d20)kh1",
    "1d100*1d100",
    "10d10e10",
    "40d10 t7 f1",
    "4d6kh3",
    "1d1000/1d100",
    "1d1000*1d200",
    "1d20mi10+5 adv",
)
"""Near the limits of what /dice odds accepts (one step more is refused: 1000d6, 50d6kh25, four d20s in a set)."""
OVER_BUDGET_ODDS = ("1d1000/1d1000", "1d100/1d99/1d98", "200d6+200d6")
"""Accepted by the per-step limits, refused by the work budget: how soon (1d1000/1d1000 used to take 13.5 s)."""


@dataclass(frozen=True)
class Size:
    """How much the bench does: the full run, or ``SMALL`` (``--small``, CI's run: seconds; figures that mean
    nothing)."""

    dice: int = 100_000
    """Dice recorded for the member whose luck is asked for."""
    repeats: int = 21
    """Runs of each timed /stats request and of the /vic odds comparison (medians)."""
    odds_repeats: int = 5
    """Runs of each heavy /dice odds expression (median)."""


SMALL = Size(dice=3650, repeats=1, odds_repeats=1)


async def bot_on(fake: LocalDiscord, workdir: Path) -> tuple[TabletopBot, asyncio.Task[None]]:
    """The bot with /roll, /dice and /stats on a fresh SQLite file."""
    use_api_base(fake.base_url)
    settings = Settings(
        discord_token=fake.token, database_path=workdir / "bench.sqlite3", dev_guild_id=None, _env_file=None
    )
    bot = TabletopBot(settings, extensions=("cogs.meta", "cogs.dice"), guild_ready_timeout=0.1)
    await bot.login(fake.token)
    task = asyncio.create_task(bot.connect())
    await bot.wait_until_ready()
    return bot, task


async def record_a_year(bot: TabletopBot, user_id: int, guild_id: int, channels: list[int], dice: int) -> None:
    """``dice`` dice for one member over DAYS days: a roll of a few dice at a time, as play would record them."""
    source = SeededDice(22)
    per_day = dice // DAYS
    left = dice
    tallies = []
    for day in range(DAYS):
        count = per_day if day < DAYS - 1 else left
        left -= count
        faces = []
        for i in range(count):
            sides = SIZES[i % len(SIZES)]
            faces.append((sides, source.roll("d", sides)))
        for channel, kind in ((channels[0], "roll"), (channels[1], "crowns")):
            half = faces[: len(faces) // 2] if kind == "roll" else faces[len(faces) // 2 :]
            counted = tally(Where(user_id, guild_id, channel, kind), day * DAY_S + 3600.0, half)
            if counted is not None:
                tallies.append(counted)
    for start in range(0, len(tallies), 50):
        await bot.store.record_dice(tallies[start : start + 50])
    # Vices & Vengeance turns with their luck in points, TURNS_A_DAY a day in the game channel.
    turns = CommitCounts()
    for day in range(DAYS):
        luck = TurnLuck("P1", TURNS_A_DAY, 22 * TURNS_A_DAY, (source.roll("l", 13) - 7) / 2, 40.0 * TURNS_A_DAY)
        turns.turns.append(TurnTally(Where(user_id, guild_id, channels[1], "vices"), day, luck))
    async with bot.store._sql_transaction() as sql:  # the store's commit path, as a game's commits count them
        await bot.store.count_commit(sql, turns)


def median_ms(times: list[float]) -> float:
    return round(statistics.median(times) * 1000, 2)


async def bench_stats(fake: LocalDiscord, bot: TabletopBot, size: Size) -> dict[str, float]:
    member = fake.members[1]
    channel = fake.channels[0]
    assert fake.guild_id is not None
    await record_a_year(bot, member.id, fake.guild_id, [fake.channels[0].id, fake.channels[1].id], size.dice)
    counts = await bot.store.luck_counts(member.id, LuckFilter(public_only=False))
    assert sum(c.count for c in counts) == size.dice, sum(c.count for c in counts)
    data_times = []
    for _ in range(size.repeats):
        start = time.perf_counter()
        counts = await bot.store.luck_counts(member.id, LuckFilter(public_only=False))
        sizes = per_size(counts)
        server_rank(await bot.store.luck_in_guild(fake.guild_id), member.id, sizes[0].sides)
        await bot.store.luck_streaks(member.id, public_only=False)
        await bot.store.luck_turns(member.id, LuckFilter(kind="vices", public_only=False))
        alt_text(member.name, sizes)
        data_times.append(time.perf_counter() - start)
    year_times = []
    for _ in range(size.repeats):
        start = time.perf_counter()
        per_size(await bot.store.luck_counts(member.id, LuckFilter(since_day=0, public_only=False)))
        year_times.append(time.perf_counter() - start)
    times = []
    for _ in range(size.repeats):
        start = time.perf_counter()
        message = await (await fake.slash(channel, member, "stats luck")).message(timeout=30)
        times.append(time.perf_counter() - start)
        assert message.attachments, message.content
    return {
        "stats_p50_ms": median_ms(times),
        "stats_data_p50_ms": median_ms(data_times),
        "stats_period_year_data_p50_ms": median_ms(year_times),
    }


async def bench_board(fake: LocalDiscord) -> dict[str, float]:
    channel, owner = fake.channels[2], fake.members[2]
    for name, expression in (("attack", "1d20+5"), ("damage", "2d6+3"), ("heal", "1d8+2")):
        await (
            await fake.slash(channel, owner, "dice save", options={"name": name, "expression": expression})
        ).message()
    board = await (await fake.slash(channel, owner, "dice board")).message()
    fake.inject_429("/callback", retry_after=1.0, count=5)
    clicks = [
        await fake.click(board, ("attack", "damage", "heal")[i % 3], fake.members[i % len(fake.members)])
        for i in range(BURST)
    ]
    await asyncio.gather(*(click.response(timeout=15) for click in clicks))
    latencies = [click.latency for click in clicks if click.latency is not None]
    within = sum(latency <= DEADLINE_S for latency in latencies)
    return {
        "board_burst_answered_within_3s": within,
        "board_burst_slowest_ms": round(max(latencies) * 1000, 1),
    }


def bench_odds(size: Size) -> dict[str, object]:
    per_expression = {}
    work = {}
    for expression in HEAVY_ODDS:
        times = []
        for _ in range(size.odds_repeats):
            start = time.perf_counter()
            work[expression] = odds(expression).work
            times.append(time.perf_counter() - start)
        per_expression[expression] = median_ms(times)
    refused = {}
    for expression in OVER_BUDGET_ODDS:
        times = []
        for _ in range(5):
            start = time.perf_counter()
            try:
                odds(expression)
            except OverBudget:
                times.append(time.perf_counter() - start)
        refused[expression] = median_ms(times)
    slowest = max(per_expression, key=lambda e: per_expression[e])
    vic = parse_violence("28d4 4d6 r4d4 r4d6 vs 28d4 4d4 r4d4 r4d4")
    vic_times = []
    for _ in range(size.repeats):
        start = time.perf_counter()
        violence_odds(*vic)
        vic_times.append(time.perf_counter() - start)
    return {
        "odds_ms": per_expression,
        "odds_work": work,
        "odds_work_limit": WORK_LIMIT,
        "odds_slowest": slowest,
        "odds_slowest_ms": per_expression[slowest],
        "odds_over_budget_refused_ms": refused,
        "vic_odds_40_dice_ms": median_ms(vic_times),
    }


async def main(size: Size) -> None:
    """Run the three parts and print the table and the JSON line."""
    with tempfile.TemporaryDirectory() as folder:
        fake = LocalDiscord(channels=4)
        await fake.start()
        bot, task = await bot_on(fake, Path(folder))
        try:
            figures: dict[str, object] = {}
            figures |= await bench_stats(fake, bot, size)
            figures |= await bench_board(fake)
        finally:
            await bot.close()
            await task
            await fake.stop()
    figures |= bench_odds(size)
    print(f"/stats luck, {size.dice:,} dice, through the local Discord: p50 {figures['stats_p50_ms']} ms")
    print(f"  queries and figures alone: p50 {figures['stats_data_p50_ms']} ms (target < {TARGET_STATS_MS:.0f} ms)")
    print(f"  a period (the whole year, day by day): p50 {figures['stats_period_year_data_p50_ms']} ms")
    print(f"board burst: {figures['board_burst_answered_within_3s']} of {BURST} answered within 3 s")
    print(f"  slowest first answer: {figures['board_burst_slowest_ms']} ms")
    print(f"/dice odds (compute, median of {size.odds_repeats}):")
    for expression, ms in figures["odds_ms"].items():  # type: ignore[attr-defined]
        print(f"  {expression:<30} {ms:>8.2f} ms  {figures['odds_work'][expression]:>9,} steps")  # type: ignore[index]
    print(f"/dice odds over the budget of {WORK_LIMIT:,} steps, refused after:")
    for expression, ms in figures["odds_over_budget_refused_ms"].items():  # type: ignore[attr-defined]
        print(f"  {expression:<30} {ms:>8.2f} ms")
    print(f"/vic odds, 40 dice a side: {figures['vic_odds_40_dice_ms']} ms")
    print(json.dumps(figures))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--small", action="store_true", help="CI's run: 3,650 dice, each request once")
    asyncio.run(main(SMALL if parser.parse_args().small else Size()))
