"""Soak: ``python bench/soak.py [--games 20000] [--every 1000] [--channels 8] [--database postgresql://…]``.

Plays short games, one after another in several channels at once, through one bot process (``python -m bot``
against the local Discord, as in production) and prints the process's resident memory (RSS, from
``/proc/<pid>/status``) every ``--every`` games. Memory that is flat after warm-up means the bot keeps nothing per
finished game; one that climbs means something per session is never released.

A game is the core's race test game: ``/race new``, a second member joins, the host starts, both roll until one
reaches 4 (three to five clicks), so every part a table game goes through is exercised: lobby, service, publisher,
deadlines, the session cache. The local Discord forgets its own history between batches, so only the bot is
measured. Last line: ``{"games": N, "rss_mib": [...], "peak_mib": …, "seconds": …}``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import signal
import sys
import tempfile
import time
from pathlib import Path

# Run as a script from anywhere: the bot and the local Discord are imported from the repository.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from localdiscord import Channel, LocalDiscord, Member
from tests.bot_process import process_exit, spawn_bot_process

ENV = {"EXTENSIONS": "cogs.meta,cogs.game,tests.testgame.cog", "COMPUTER_DELAY": "0", "LOG_LEVEL": "WARNING"}
TARGET = 4


def rss_mib(pid: int, field: str = "VmRSS") -> float:
    """A process's resident memory (``VmRSS``) or its peak (``VmHWM``), in MiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    raise LookupError(field)


async def play_one(fake: LocalDiscord, channel: Channel, host: Member, guest: Member) -> None:
    """One race from its lobby to its end, by clicks."""
    lobby = await (await fake.slash(channel, host, "race new", options={"target": TARGET})).message(timeout=30)
    if lobby.ephemeral:
        raise RuntimeError(f"no lobby in #{channel.name}: {lobby.content}")
    await (await fake.click(lobby, "Join", guest)).response(timeout=30)
    # Join may be answered with a deferral, the lobby edited after it: Start is enabled once the edit is in.
    await fake.wait_for(lambda: not lobby.button("Start").get("disabled"), 30, what="Start to be enabled")
    await (await fake.click(lobby, "Start", host)).response(timeout=30)
    players = {host.id: host, guest.id: guest}
    for _ in range(20):
        # This game's board: the newest message with buttons from its lobby on (not a past game's).
        board = await fake.wait_for(
            lambda: next((m for m in reversed(fake.messages(channel)) if m.buttons and m.id >= lobby.id), None), 30
        )
        if "Rematch" in board.describe_buttons():
            return
        # The board's first line says whom it waits for (a mention, which pings only when the asker changes).
        mover = next(m for i, m in players.items() if f"<@{i}>" in board.content.split("\n")[0])
        # A roll of 1 lets the next player take a point: whichever the board asks, its first button.
        await (await fake.click(board, board.buttons[0]["custom_id"], mover)).response(timeout=30)
        await fake.wait_for(lambda b=board: b.edits > 0 or b.deleted or not b.buttons, 30, what="the board to move")
    raise RuntimeError("a race did not end")


async def soak(games: int, every: int, channels: int, database: str | None) -> dict[str, object]:
    """Play ``games`` races over ``channels`` channels; RSS of the bot process every ``every`` games."""
    fake = LocalDiscord(channels=max(channels, 3), response_deadline=30.0)
    await fake.start()
    folder = Path(tempfile.mkdtemp(prefix="soak-"))
    env: dict[str, str | None] = {**ENV, "DATABASE_URL": database}
    proc = await spawn_bot_process(fake, folder / "bot.sqlite3", env)
    members = fake.members
    if channels > len(members):
        raise SystemExit(f"--channels: at most {len(members)} (a host per lane: one opens one lobby at a time)")
    samples: list[float] = []
    started = time.monotonic()
    try:
        played = 0
        while played < games:
            batch = min(every, games - played)
            lanes = fake.channels[:channels]
            per_lane = [batch // len(lanes) + (1 if i < batch % len(lanes) else 0) for i in range(len(lanes))]

            async def lane(index: int, channel: Channel, count: int) -> None:
                host, guest = members[index], members[(index + 1) % len(members)]
                for _ in range(count):
                    await play_one(fake, channel, host, guest)

            await asyncio.gather(*(lane(i, c, n) for i, (c, n) in enumerate(zip(lanes, per_lane, strict=True))))
            played += batch
            fake.forget_history()
            samples.append(round(rss_mib(proc.pid), 1))
            print(f"{played:>7} games  RSS {samples[-1]:7.1f} MiB  ({time.monotonic() - started:6.0f} s)", flush=True)
        peak = round(rss_mib(proc.pid, "VmHWM"), 1)
    finally:
        if proc.poll() is None:
            exited = process_exit(proc)
            os.kill(proc.pid, signal.SIGTERM)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(exited, 30)
            if proc.poll() is None:
                proc.kill()
        await fake.stop()
    return {"games": games, "rss_mib": samples, "peak_mib": peak, "seconds": round(time.monotonic() - started)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--every", type=int, default=1000)
    parser.add_argument("--channels", type=int, default=4, help="lanes played at once (a host each)")
    parser.add_argument("--database", help="a scratch PostgreSQL database URL (default: a fresh SQLite file)")
    parser.add_argument("--small", action="store_true", help="CI's run: 16 games on 2 lanes, in seconds")
    args = parser.parse_args()
    if args.small:
        args.games, args.every, args.channels = 16, 8, 2
    result = asyncio.run(soak(args.games, args.every, args.channels, args.database))
    print(json.dumps(result))


if __name__ == "__main__":
    main()
