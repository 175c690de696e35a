"""Interaction round-trip benchmark: ``python bench/latency.py [--subprocess] [-n 200] [-c 50] [--channels 200]
[--database postgresql://…]``.

Starts the local fake Discord and the bot, then for each scenario sends interactions one at a time (latency)
and in concurrent bursts spread over many channels (throughput), timing INTERACTION_CREATE sent → initial
response (callback) received. Prints a table, then as the last line one JSON object.

By default the bot runs in this process, on the same event loop as the fake, so the numbers include the fake's
own cost; ``--subprocess`` runs ``python -m bot`` as a separate process instead (as in production). The bot
stores into a fresh SQLite file, or with ``--database`` into that PostgreSQL database (a scratch one: the run
adds its games to it).

``LATENCY_PROFILE=samples.txt`` (with ``--subprocess``) records the bot process with py-spy while it runs (raw,
folded stacks): where a click's time goes.

Adding a scenario: write ``async def f(fake, channel, member) -> InteractionResult`` that sends one interaction
and decorate it with ``@scenario("name")``; it gets ``name_p50_ms`` etc. in the JSON, and ratios against ping.
A scenario that needs a live game in each channel passes ``prepare=``, a coroutine that sets the games up in
the channels it is given (each such scenario gets its own channels).

Scenarios: ``ping`` (baseline), ``roll`` (/roll 4d6kh3), ``core`` (a persisted move in a live game of the core's
test game: load, lock, apply, commit, new board, answer), ``crowns`` (a click on a live Dice of Crowns game),
``command`` (a persisted slash-command action on a campaign-like session, the core's ledger test game),
``sheet`` (a score entered on a V&V scoresheet, its picture redrawn: ``bench/scenarios_sheet.py``), ``vices``
(a persisted removal click on a live Vices & Vengeance table game), ``campaign`` (a persisted slash-command
action on a Viciousness campaign, a reward paid: ``bench/scenarios_campaign.py``), ``pool`` (a character
joining a Viciousness dice pool, then the GM rolling it, each persisted: ``bench/scenarios_pool.py``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import re
import signal
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

# Run as a script from anywhere: the bot and the fake are imported from the repository.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench import scenarios_campaign, scenarios_pool, scenarios_sheet
from bot.app import TabletopBot
from bot.endpoint import use_api_base
from bot.settings import Settings
from localdiscord import Channel, InteractionResult, LocalDiscord, Member, Message
from tests.bot_process import spawn_bot_process

Scenario = Callable[[LocalDiscord, Channel, Member], Awaitable[InteractionResult]]
Prepare = Callable[[LocalDiscord, list[Channel]], Awaitable[None]]
SCENARIOS: dict[str, Scenario] = {}
PREPARE: dict[str, Prepare] = {}
BASELINE = "ping"
DISCORD_DEADLINE_S = 3.0
# The core's test game lives in tests/; the benchmark loads it beside the real cogs.
EXTENSIONS = (
    "cogs.meta",
    "cogs.game",
    "cogs.dice",
    "cogs.crowns",
    "cogs.vices",
    scenarios_campaign.EXTENSION,
    "tests.testgame.cog",
    "tests.testgame.ledger_cog",
)
USER_MENTION = re.compile(r"<@(\d+)>")


def scenario(name: str, prepare: Prepare | None = None) -> Callable[[Scenario], Scenario]:
    """Register a scenario: a coroutine that sends one interaction and returns its InteractionResult."""

    def register(function: Scenario) -> Scenario:
        SCENARIOS[name] = function
        if prepare is not None:
            PREPARE[name] = prepare
        return function

    return register


@scenario("ping")
async def ping(fake: LocalDiscord, channel: Channel, member: Member) -> InteractionResult:
    """The cheapest round trip: the baseline."""
    return await fake.slash(channel, member, "ping")


@scenario("roll")
async def roll(fake: LocalDiscord, channel: Channel, member: Member) -> InteractionResult:
    """A typical roll."""
    return await fake.slash(channel, member, "roll", options={"expression": "4d6kh3"})


async def open_games(
    fake: LocalDiscord, channels: list[Channel], command: str, players: int = 2, **options: object
) -> None:
    """A started game of ``players`` members (member 0 hosts) in each channel, one after the other: a member
    may host one open lobby at a time."""
    host, guests = fake.members[0], fake.members[1:players]
    for channel in channels:
        lobby = await (await fake.slash(channel, host, command, options=options)).message(timeout=60)
        for guest in guests:
            await (await fake.click(lobby, "Join", guest)).message(timeout=60)
        await (await fake.click(lobby, "Start", host)).message(timeout=60)


async def board_move(fake: LocalDiscord, channel: Channel, prefer: str = "") -> tuple[Message, Member, str]:
    """The channel's current board, the member it waits for (first mention of its status line), and a control:
    the first whose label starts with ``prefer`` if there is one, else the first. A click that passed the turn
    is answered before the next board is posted: wait (untimed) until it is there."""

    def live() -> list[Message]:
        return [m for m in fake.messages(channel) if any(not b.get("disabled") for b in m.buttons)]

    board = (await fake.wait_for(live, timeout=60, what="a board"))[-1]
    user_id = int(USER_MENTION.search(board.content)[1])  # type: ignore[index]
    buttons = [b for b in board.buttons if not b.get("disabled") and b.get("label") != "Rematch"]
    button = next((b for b in buttons if prefer and str(b.get("label", "")).startswith(prefer)), buttons[0])
    return board, fake.users[user_id], button["custom_id"]


async def prepare_race(fake: LocalDiscord, channels: list[Channel]) -> None:
    """Race games (the core's test game) with a target no game reaches during the run."""
    await open_games(fake, channels, "race new", target=100)


async def prepare_crowns(fake: LocalDiscord, channels: list[Channel]) -> None:
    """Dice of Crowns games with every module, played to 5 Claims."""
    await open_games(fake, channels, "crowns new", target=5, fate=True, legendary=True, overkill=True)


@scenario("core", prepare=prepare_race)
async def core(fake: LocalDiscord, channel: Channel, member: Member) -> InteractionResult:
    """A persisted move by the player whose turn it is (the turn passes: a new board pings the next player)."""
    board, actor, control = await board_move(fake, channel)
    return await fake.click(board, control, actor)


@scenario("crowns", prepare=prepare_crowns)
async def crowns(fake: LocalDiscord, channel: Channel, member: Member) -> InteractionResult:
    """A click on a live Dice of Crowns board by whoever it waits for (roll, hand out a scroll, reroll, …)."""
    board, actor, control = await board_move(fake, channel)
    return await fake.click(board, control, actor)


async def prepare_vices(fake: LocalDiscord, channels: list[Channel]) -> None:
    """Three-player Vices & Vengeance table games (Sins dealt at random: the first board is a removal)."""
    await open_games(fake, channels, "vv new", players=3, sins="random")


@scenario("vices", prepare=prepare_vices)
async def vices(fake: LocalDiscord, channel: Channel, member: Member) -> InteractionResult:
    """A removal on a live V&V board by the defender ("Remove the lowest": scored, the rest rolled again,
    committed, the board redrawn); an attacker's effect choice when the board waits for one."""
    board, actor, control = await board_move(fake, channel, prefer="Remove the lowest")
    return await fake.click(board, control, actor)


async def prepare_ledger(fake: LocalDiscord, channels: list[Channel]) -> None:
    """A campaign-like session (the core's ledger test game) in each channel, with member 1's page open."""

    async def one_ledger(channel: Channel) -> None:
        await (await fake.slash(channel, fake.members[0], "ledger new")).message(timeout=60)
        await (await fake.slash(channel, fake.members[1], "ledger join", options={"name": "Bob"})).message(timeout=60)

    await asyncio.gather(*(one_ledger(c) for c in channels))


@scenario("command", prepare=prepare_ledger)
async def command(fake: LocalDiscord, channel: Channel, member: Member) -> InteractionResult:
    """A persisted slash-command action on a campaign-like session: it edits a record, and its sheet is redrawn."""
    return await fake.slash(channel, fake.members[1], "ledger add", options={"amount": 1})


scenario("sheet", prepare=scenarios_sheet.prepare)(scenarios_sheet.score_entry)
scenario("campaign", prepare=scenarios_campaign.prepare)(scenarios_campaign.reward)
scenario("pool", prepare=scenarios_pool.prepare)(scenarios_pool.join_or_roll)


@dataclass
class Measurement:
    """Latencies (seconds) of one scenario, sequential and concurrent, and the burst wall time."""

    sequential: list[float] = field(default_factory=list)
    concurrent: list[float] = field(default_factory=list)
    burst_seconds: float = 0.0

    @property
    def per_second(self) -> float:
        """Throughput of the concurrent burst."""
        return len(self.concurrent) / self.burst_seconds if self.burst_seconds else 0.0


def percentile(values: list[float], p: float) -> float:
    """Nearest-rank percentile."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered) + 0.5) - 1))]


async def one(fake: LocalDiscord, run: Scenario, index: int, channels: list[Channel]) -> float:
    """Send one interaction (channel and member chosen by ``index``) and return its round trip."""
    channel = channels[index % len(channels)]
    member = fake.members[index % len(fake.members)]
    res = await run(fake, channel, member)
    await res.response(timeout=60)
    assert res.latency is not None
    return res.latency


async def measure(fake: LocalDiscord, run: Scenario, n: int, concurrency: int, channels: list[Channel]) -> Measurement:
    """Warm up, then ``n`` sequential interactions and ``n`` more in bursts of ``concurrency``.

    A burst never sends two interactions to one channel, so game scenarios always click a current board.
    """
    concurrency = min(concurrency, len(channels))
    for i in range(5):
        await one(fake, run, i, channels)
    result = Measurement()
    for i in range(n):
        result.sequential.append(await one(fake, run, i, channels))
    started = time.perf_counter()
    for first in range(0, n, concurrency):
        burst = range(first, min(n, first + concurrency))
        result.concurrent += await asyncio.gather(*(one(fake, run, i, channels) for i in burst))
    result.burst_seconds = time.perf_counter() - started
    return result


async def start_bot(
    fake: LocalDiscord, workdir: Path, subprocess_bot: bool, database_url: str | None = None
) -> Callable[[], Awaitable[None]]:
    """Start the bot (in process or as ``python -m bot``) on SQLite in ``workdir`` or on ``database_url``;
    return a coroutine function that stops it."""
    db_path = workdir / "bench.sqlite3"
    if subprocess_bot:
        env = {"LOG_LEVEL": "WARNING", "EXTENSIONS": ",".join(EXTENSIONS), "DATABASE_URL": database_url}
        proc = await spawn_bot_process(fake, db_path, env)
        profile = os.environ.get("LATENCY_PROFILE")  # a file for py-spy's samples of the bot, if wanted
        if profile:
            spy = ["py-spy", "record", "-r", "1000", "-p", str(proc.pid), "-o", profile, "--format", "raw"]
            await asyncio.create_subprocess_exec(*spy, "--nonblocking")

        async def stop_process() -> None:
            os.kill(proc.pid, signal.SIGTERM)
            await asyncio.to_thread(proc.wait)

        return stop_process
    use_api_base(fake.base_url)
    settings = Settings(
        discord_token=fake.token, database_path=db_path, database_url=database_url, dev_guild_id=None, _env_file=None
    )
    bot = TabletopBot(settings, extensions=EXTENSIONS, guild_ready_timeout=0.1)
    await bot.login(fake.token)
    task = asyncio.create_task(bot.connect())
    await bot.wait_until_ready()

    async def stop_bot() -> None:
        await bot.close()
        await task

    return stop_bot


def table(results: dict[str, Measurement], skipped: dict[str, str]) -> str:
    """The human-readable report."""
    lines = [
        f"{'scenario':<10} {'mode':<11} {'n':>5} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8} {'max ms':>8} {'/s':>8}"
    ]
    for name, m in results.items():
        for mode, values in (("sequential", m.sequential), ("concurrent", m.concurrent)):
            stats = [percentile(values, p) * 1000 for p in (50, 95, 99, 100)]
            rate = f"{m.per_second:8.0f}" if mode == "concurrent" else f"{len(values) / sum(values):8.0f}"
            lines.append(f"{name:<10} {mode:<11} {len(values):>5} " + " ".join(f"{s:8.2f}" for s in stats) + f" {rate}")
        late = sum(v > DISCORD_DEADLINE_S for v in m.sequential + m.concurrent)
        if late:
            lines.append(f"{name:<10} {late} interactions over Discord's {DISCORD_DEADLINE_S:.0f} s deadline")
    lines += [f"{name:<10} skipped: {why}" for name, why in skipped.items()]
    return "\n".join(lines)


def summary(results: dict[str, Measurement]) -> dict[str, float | None]:
    """The JSON line: p50/p99/throughput per scenario and ratios against the baseline."""
    out: dict[str, float | None] = {}
    base = results.get(BASELINE)
    for name in SCENARIOS:
        m = results.get(name)
        p50 = percentile(m.sequential, 50) if m else None
        p99 = percentile(m.sequential, 99) if m else None
        out[f"{name}_p50_ms"] = None if p50 is None else round(p50 * 1000, 3)
        out[f"{name}_p99_ms"] = None if p99 is None else round(p99 * 1000, 3)
        out[f"{name}_per_s"] = round(m.per_second, 1) if m else None
        if name != BASELINE:
            ok = m is not None and base is not None
            out[f"{name}_ratio_p50"] = round(p50 / percentile(base.sequential, 50), 3) if ok else None  # type: ignore[operator,union-attr]
            out[f"{name}_ratio_p99"] = round(p99 / percentile(base.sequential, 99), 3) if ok else None  # type: ignore[operator,union-attr]
    return out


def split_channels(channels: list[Channel], reserved: int) -> tuple[list[Channel], list[Channel]]:
    """The channels the plain scenarios share, and the last ``reserved`` ones, kept for the games."""
    if reserved >= len(channels):
        raise SystemExit(f"{len(channels)} channels are too few for {reserved} game channels: give more --channels")
    return channels[: len(channels) - reserved], channels[len(channels) - reserved :]


async def main(args: argparse.Namespace) -> int:
    """Run every scenario whose command the bot synced; print the table and the JSON line."""
    fake = LocalDiscord(channels=args.channels, response_deadline=60.0)
    await fake.start()
    results: dict[str, Measurement] = {}
    skipped: dict[str, str] = {}
    try:
        with tempfile.TemporaryDirectory() as workdir:
            stop = await start_bot(fake, Path(workdir), args.subprocess, args.database)
            try:
                synced = {c["name"] for c in fake.commands}
                chosen = [name for name in SCENARIOS if not args.only or name in args.only]
                # Games need channels of their own, where no other scenario left a button (a roll's "Roll again").
                shared, free = split_channels(fake.channels, args.game_channels * len(set(chosen) & set(PREPARE)))
                for name in chosen:
                    run, channels = SCENARIOS[name], shared
                    if name in PREPARE:
                        channels, free = free[: args.game_channels], free[args.game_channels :]
                        await PREPARE[name](fake, channels)
                    try:
                        results[name] = await measure(fake, run, args.n, args.concurrency, channels)
                    except LookupError as exc:
                        if "is not a synced command" not in str(exc):
                            raise  # a scenario the bot's controls no longer fit: fix the scenario
                        fake.failures.clear()  # a bot from before the scenario's command: skipped
                        skipped[name] = f"{exc} (synced: {sorted(synced)})"
            finally:
                await stop()
    finally:
        await fake.stop()
    mode = "subprocess bot" if args.subprocess else "in-process bot (same event loop as the fake)"
    database = "postgresql" if args.database else "sqlite"
    print(
        f"Round trip INTERACTION_CREATE → callback; {mode}; {database}; "
        f"{args.channels} channels, bursts of {args.concurrency}"
    )
    print(table(results, skipped))
    if fake.failures:
        print("fake Discord recorded problems:", *fake.failures, sep="\n  ")
    print(json.dumps({"database": database} | summary(results)))
    return 1 if fake.failures else 0


def parse_args() -> argparse.Namespace:
    """Command-line options."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", type=int, default=200, help="interactions per scenario and mode (default 200)")
    parser.add_argument("-c", "--concurrency", type=int, default=50, help="interactions per burst (default 50)")
    parser.add_argument("--channels", type=int, default=1000, help="text channels in the fake guild (default 1000)")
    parser.add_argument(
        "--game-channels", type=int, default=100, help="channels with a live game per game scenario (default 100)"
    )
    parser.add_argument("--subprocess", action="store_true", help="run the bot as `python -m bot`")
    parser.add_argument("--only", nargs="*", help="run only these scenarios (the baseline is needed for ratios)")
    parser.add_argument(
        "--database", metavar="URL", help="store into this (scratch) PostgreSQL database instead of a SQLite file"
    )
    parser.add_argument("--small", action="store_true", help="CI's run: every scenario, a few interactions each")
    args = parser.parse_args()
    if args.small:
        args.n, args.concurrency, args.channels, args.game_channels = 3, 3, 30, 3
    return args


if __name__ == "__main__":
    logging.basicConfig(level=logging.WARNING)
    sys.exit(asyncio.run(main(parse_args())))
