"""Scale: ``python bench/scale.py [--sizes 1000 10000 100000] [--database postgresql://…/scratch] [--clicks 200]``.

How the bot starts and runs at 1,000 to 100,000 stored sessions. For each size, a database is seeded with sessions
cloned from games played through the Service (``bench/big_database.py``: 45 % Dice of Crowns, 40 % V&V tables,
10 % V&V sheets, 5 % 50-turn campaigns); 1 % of them have a stale board (a live session drawn behind its version,
in a channel of the local Discord) and 1 % a past deadline (a lobby that expired while the bot was down). Then the
real bot (``python -m bot``, a process of its own) starts against the local Discord, and this measures:

- ``first_answer_s``: from starting the process to the first ``/ping`` answered;
- ``all_handled_s``: until every stale board is drawn and every past deadline handled (read in the database);
- ``rss_after_start_mib`` (and ``rss_peak_mib``): the process's memory then;
- ``click_p50_ms`` / ``click_p99_ms``: a persisted click (a roll in the core's race game) once it has settled.

``SCALE_PROFILE=samples.txt`` records the bot's first 20 seconds with py-spy (raw, folded stacks).

With ``--database`` the same runs on PostgreSQL (the scratch database is emptied first). The last line is JSON:
``{"sqlite": {"1000": {...}, …}, "postgresql": {...}, "bytes_per_game": {...}, "json_bytes_per_game": {...}}``,
the bytes from ``bench/storage_size.py`` (``--no-bytes`` skips them).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import shutil
import signal
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import asyncpg

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.big_database import clone, play
from bench.soak import rss_mib
from bench.storage_size import measure
from bot.storage import PostgresStore, SqliteStore
from bot.storage.copy import copy_sqlite_to_postgres
from bot.storage.dialect import POSTGRESQL, SQLITE
from bot.storage.sql import bind
from localdiscord import Channel, LocalDiscord
from tests.bot_process import process_exit, spawn_bot_process

ENV = {
    "EXTENSIONS": "cogs.meta,cogs.game,cogs.crowns,cogs.vices,cogs.viciousness,tests.testgame.cog",
    "COMPUTER_DELAY": "0",
    "LOG_LEVEL": "WARNING",
    "SKIP_SYNC": "false",
}
SHARE = 0.01
"""Of the stored sessions, the share with a stale board, and the share with a past deadline."""
ATTENTION = "(drawn < version OR computer_due OR news_from IS NOT NULL)"
PAST = "status IN ('lobby', 'active') AND next_deadline IS NOT NULL AND next_deadline <= {now}"


def quantile(values: list[float], q: float) -> float:
    """The ``q`` quantile of ``values`` (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def marks(ids: list[int], channels: list[Channel], guild_id: int, now: float) -> list[tuple[str, tuple[Any, ...]]]:
    """What turns the chosen sessions into the ones needing attention, each in a channel of the local Discord:
    the first half drawn behind their version, the second half lobbies whose deadline passed (written once for
    both backends, ``bot.storage.sql.bind`` renders them)."""
    half = len(ids) // 2
    deadline = json.dumps([{"player": "", "decision": "lobby", "seconds": 900, "at": now, "remind": False}])
    statements: list[tuple[str, tuple[Any, ...]]] = []
    for index, (session_id, channel) in enumerate(zip(ids, channels, strict=False)):
        if index < half:
            # Its board was retired and the bot stopped before posting the next one (a table's board is posted
            # anew; a campaign's sheet waits for /game status).
            statements.append(
                (
                    "UPDATE sessions SET drawn = 0, status = 'active', boards = '{}', channel_id = ?, guild_id = ? "
                    "WHERE id = ?",
                    (channel.id, guild_id, session_id),
                )
            )
        else:
            statements.append(
                (
                    "UPDATE sessions SET status = 'lobby', deadlines = ?::jsonb, next_deadline = ?, channel_id = ?, "
                    "guild_id = ? WHERE id = ?",
                    (deadline, now, channel.id, guild_id, session_id),
                )
            )
    return statements


def seed_sqlite(template: Path, path: Path, size: int, fake: LocalDiscord, now: float) -> None:
    """``template``'s games cloned to ``size`` sessions in ``path``, 2 % of them needing attention."""
    shutil.copy(template, path)
    clone(path, size)
    conn = sqlite3.connect(path)
    try:
        # As a bot that ran cleanly leaves them: everything drawn and told, nothing for a computer to do.
        conn.execute("UPDATE sessions SET drawn = version, news_from = NULL, computer_due = 0")
        chosen = [
            r[0]
            for r in conn.execute(
                "SELECT id FROM sessions WHERE status IN ('active', 'finished') ORDER BY random() LIMIT ?",
                (int(size * SHARE) * 2,),
            )
        ]
        for sql, params in marks(chosen, fake.channels[1:-1], fake.guild_id, now):
            conn.execute(*bind(SQLITE, sql, params, {}))
        conn.commit()
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        conn.close()
    asyncio.run(closed_cleanly(path))


async def closed_cleanly(path: Path) -> None:
    """Open and close the file as the bot does, so it starts as after a clean stop (the whole-file check is only
    for a file the bot did not close: ``SqliteStore._closed_cleanly``)."""
    store = SqliteStore(path)
    await store.open()
    await store.close()


async def seed_postgres(template: Path, url: str, size: int, fake: LocalDiscord, now: float) -> None:
    """The same in PostgreSQL: the played games copied there (``bot.migrate``), then cloned in SQL."""
    admin = await asyncpg.connect(url)
    try:
        await admin.execute("DROP SCHEMA public CASCADE; CREATE SCHEMA public")
    finally:
        await admin.close()
    source, target = SqliteStore(template), PostgresStore(url)
    await source.open()
    await target.open()
    try:
        await copy_sqlite_to_postgres(source, target)
    finally:
        await source.close()
        await target.close()
    conn = await asyncpg.connect(url)
    try:
        played = await conn.fetchval("SELECT max(id) FROM sessions")
        columns = {
            t: [
                r["column_name"]
                for r in await conn.fetch(
                    "SELECT column_name FROM information_schema.columns WHERE table_name = $1 "
                    "ORDER BY ordinal_position",
                    t,
                )
            ]
            for t in ("sessions", "session_events")
        }
        for k in range(1, -(-size // played)):
            shifted = {
                "id": f"id + {k * 1000}",
                "channel_id": f"channel_id + {k * 1000}",
                "guild_id": f"guild_id + {k % 50}",
            }
            select = ", ".join(shifted.get(c, c) for c in columns["sessions"])
            await conn.execute(
                f"INSERT INTO sessions ({', '.join(columns['sessions'])}) SELECT {select} "
                f"FROM sessions WHERE id <= {played}"
            )
            select = ", ".join(
                f"session_id + {k * 1000}" if c == "session_id" else c for c in columns["session_events"]
            )
            await conn.execute(
                f"INSERT INTO session_events ({', '.join(columns['session_events'])}) SELECT {select} "
                f"FROM session_events WHERE session_id <= {played}"
            )
        await conn.execute("SELECT setval(pg_get_serial_sequence('sessions', 'id'), max(id) + 1, false) FROM sessions")
        await conn.execute("UPDATE sessions SET drawn = version, news_from = NULL, computer_due = false")
        chosen = [
            r["id"]
            for r in await conn.fetch(
                "SELECT id FROM sessions WHERE status IN ('active', 'finished') ORDER BY random() LIMIT $1",
                int(size * SHARE) * 2,
            )
        ]
        for sql, params in marks(chosen, fake.channels[1:-1], fake.guild_id, now):
            text, values = bind(POSTGRESQL, sql, params, {})
            await conn.execute(text, *values)
        await conn.execute("ANALYZE")
    finally:
        await conn.close()


async def pending(path: Path, url: str | None, now: float) -> int:
    """Sessions still needing attention, and past deadlines not handled yet."""
    counts = (
        f"SELECT count(*) FROM sessions WHERE {ATTENTION}",
        f"SELECT count(*) FROM sessions WHERE {PAST.format(now=now)}",
    )
    if url is None:
        with contextlib.closing(sqlite3.connect(path, timeout=30)) as conn:
            return sum(conn.execute(sql).fetchone()[0] for sql in counts)
    conn = await asyncpg.connect(url)
    try:
        return sum([await conn.fetchval(sql) for sql in counts])
    finally:
        await conn.close()


async def clicks(fake: LocalDiscord, channel: Channel, count: int) -> list[float]:
    """Round trips (ms) of ``count`` persisted moves in a long race, the two players taking turns."""
    alice, bob = fake.members[0], fake.members[1]
    lobby = await (await fake.slash(channel, alice, "race new", options={"target": 100})).message(timeout=30)
    await (await fake.click(lobby, "Join", bob)).response(timeout=30)
    await (await fake.click(lobby, "Start", alice)).response(timeout=30)
    times = []
    for _ in range(count):
        board = await fake.wait_for(lambda: next((m for m in reversed(fake.messages(channel)) if m.buttons), None), 30)
        if "Rematch" in board.describe_buttons():
            break
        mover = alice if f"<@{alice.id}>" in board.content.split("\n")[0] else bob
        # A roll of 1 lets the next player take a point: whichever the board asks, its first button.
        res = await fake.click(board, board.buttons[0]["custom_id"], mover)
        await res.response(timeout=30)
        assert res.latency is not None
        times.append(res.latency * 1000)
        await fake.wait_for(lambda b=board: b.edits > 0 or b.deleted or not b.buttons, 30, what="the board to move")
    return times


async def one_size(template: Path, size: int, url: str | None, click_count: int) -> dict[str, float]:
    """Seed ``size`` sessions, start the bot, measure."""
    fake = LocalDiscord(channels=int(size * SHARE) * 2 + 4, response_deadline=60.0)
    await fake.start()
    folder = Path(tempfile.mkdtemp(prefix=f"scale-{size}-"))
    path = folder / "bot.sqlite3"
    now = time.time() - 60
    try:
        if url is None:
            await asyncio.to_thread(seed_sqlite, template, path, size, fake, now)
        else:
            await seed_postgres(template, url, size, fake, now)
        started = time.monotonic()
        proc = await spawn_bot_process(fake, path, {**ENV, "DATABASE_URL": url}, timeout=120)
        profile = os.environ.get("SCALE_PROFILE")  # a file for py-spy's samples of the bot catching up, if wanted
        if profile:
            spy = ["py-spy", "record", "-d", "20", "-r", "250", "-p", str(proc.pid), "-o", profile, "--format", "raw"]
            await asyncio.create_subprocess_exec(*spy, "--nonblocking")
        try:
            answered = None
            while answered is None:
                res = await fake.slash(fake.channels[0], fake.members[0], "ping")
                await res.response(timeout=60)
                answered = time.monotonic() - started
            # Another process's database: polled, as nothing signals it.
            while True:
                if not await pending(path, url, now):
                    break
                await asyncio.sleep(0.05)
            handled = time.monotonic() - started
            rss = rss_mib(proc.pid)
            times = await clicks(fake, fake.channels[-1], click_count)
            peak = rss_mib(proc.pid, "VmHWM")
        finally:
            exited = process_exit(proc)
            os.kill(proc.pid, signal.SIGTERM)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(exited, 60)
            if proc.poll() is None:
                proc.kill()
        return {
            "first_answer_s": round(answered, 2),
            "all_handled_s": round(handled, 2),
            "rss_after_start_mib": round(rss, 1),
            "rss_peak_mib": round(peak, 1),
            "click_p50_ms": round(statistics.median(times), 2),
            "click_p99_ms": round(quantile(times, 0.99), 2),
        }
    finally:
        await fake.stop()
        shutil.rmtree(folder, ignore_errors=True)


async def run(sizes: list[int], url: str | None, click_count: int, with_bytes: bool, small: bool) -> dict[str, Any]:
    folder = Path(tempfile.mkdtemp(prefix="scale-template-"))
    template = folder / "template.sqlite3"
    await play(template, small)
    result: dict[str, Any] = {}
    backends: list[tuple[str, str | None]] = [("sqlite", None)] + ([("postgresql", url)] if url else [])
    try:
        for name, backend_url in backends:
            result[name] = {}
            for size in sizes:
                figures = await one_size(template, size, backend_url, click_count)
                result[name][str(size)] = figures
                print(f"{name:<10} {size:>7} sessions  {figures}", flush=True)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    if with_bytes:
        result |= {k: v for k, v in (await measure()).items() if k in ("bytes_per_game", "json_bytes_per_game")}
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10_000, 100_000])
    parser.add_argument("--database", help="also on this scratch PostgreSQL database (emptied first)")
    parser.add_argument("--clicks", type=int, default=200)
    parser.add_argument("--no-bytes", action="store_true", help="skip the bytes per game")
    parser.add_argument("--small", action="store_true", help="CI's run: 100 sessions of short games, in seconds")
    args = parser.parse_args()
    if args.small:
        args.sizes, args.clicks, args.no_bytes = [100], 5, True
    print(json.dumps(asyncio.run(run(args.sizes, args.database, args.clicks, not args.no_bytes, args.small))))


if __name__ == "__main__":
    main()
