"""A big database of played games, and the check that every one of its games still replays after the bot opened
it (and so ran its pending migrations).

    python bench/big_database.py make big.sqlite3 [--sessions 10000]
    python bench/big_database.py check big.sqlite3          # or: check --database postgresql://…/name
    python bench/big_database.py --small                    # CI: one game of each kind, made and checked

``make`` plays 40 games through the Service (``bench/played_games.py``: 45 % Dice of Crowns, 40 % V&V tables,
10 % V&V sheets, 5 % 50-turn campaigns, as the issue's clones of real games) and clones them, rows as stored,
in 50 servers until the database holds ``--sessions`` sessions. It works with the code of any schema (it
copies whatever columns the tables have), so a database made by an older version of the bot tests the
migrations to this one. ``check`` opens the database with this version (migrating it), then replays the log
of every started session to its stored state (``bot.migrate.verify_replays``), and prints as JSON how long
opening took, the file's size before and after, and how many sessions replayed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sqlite3
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.played_games import GAMES, PLAYERS, SMALL_PLAYERS, table
from bot.app import TabletopBot
from bot.settings import Settings

BASE = {"crowns": 18, "vices": 16, "vv_sheet": 4, "campaign_50_turns": 2}
"""The games played; every other session is a copy of one of them."""
SMALL_BASE = dict.fromkeys(BASE, 1)
"""The games ``--small`` plays (``SMALL_PLAYERS``: CI's run, seconds; its figures mean nothing)."""
SMALL_SESSIONS = 8
"""Two copies of each: the cloning runs too."""
SERVERS = 50
ID_STEP = 1000
"""Clone ``k`` of session ``id`` is ``id + k * ID_STEP`` (the games played number far fewer)."""


async def play(path: Path, small: bool = False) -> None:
    """Play ``BASE``'s games into ``path`` (``SMALL_BASE``'s short ones when ``small``)."""
    players = SMALL_PLAYERS if small else PLAYERS
    async with table(path) as t:
        for name, count in (SMALL_BASE if small else BASE).items():
            for _ in range(count):
                await players[name](t)


def make(path: Path, sessions: int, small: bool = False) -> dict[str, Any]:
    """Play ``BASE``'s games (``small``: ``SMALL_BASE``'s) into ``path``, then clone them up to ``sessions``."""
    started = time.perf_counter()
    asyncio.run(play(path, small))
    result = clone(path, sessions)
    return {**result, "seconds": round(time.perf_counter() - started, 1)}


def clone(path: Path, sessions: int) -> dict[str, Any]:
    """Clone the games played into ``path`` (and nothing else) until it holds at least ``sessions`` sessions."""
    conn = sqlite3.connect(path)
    try:
        played = conn.execute("SELECT max(id) FROM sessions").fetchone()[0]
        assert played < ID_STEP
        columns = {t: [r[1] for r in conn.execute(f"PRAGMA table_info({t})")] for t in ("sessions", "session_events")}
        copies = -(-sessions // played)
        for k in range(1, copies):
            shifted = {"id": f"id + {k * ID_STEP}", "channel_id": f"channel_id + {k * ID_STEP}"}
            shifted["guild_id"] = f"guild_id + {k % SERVERS}"
            select = ", ".join(shifted.get(c, c) for c in columns["sessions"])
            conn.execute(
                f"INSERT INTO sessions ({', '.join(columns['sessions'])}) SELECT {select} FROM sessions "
                f"WHERE id <= {played}"
            )
            select = ", ".join(
                f"session_id + {k * ID_STEP}" if c == "session_id" else c for c in columns["session_events"]
            )
            conn.execute(
                f"INSERT INTO session_events ({', '.join(columns['session_events'])}) SELECT {select} "
                f"FROM session_events WHERE session_id <= {played}"
            )
            conn.commit()
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        total = conn.execute("SELECT count(*) FROM sessions").fetchone()[0]
        entries = conn.execute("SELECT count(*) FROM session_events").fetchone()[0]
    finally:
        conn.close()
    return {"sessions": total, "log_entries": entries, "bytes": path.stat().st_size}


async def check(path: Path, database_url: str | None) -> dict[str, Any]:
    """Open (migrating) and replay every started session; what it took."""
    from bot.migrate import verify_replays  # this version's

    before = (await asyncio.to_thread(path.stat)).st_size if database_url is None else None
    settings = Settings(
        discord_token="unused", database_path=path, database_url=database_url, skip_sync=True, _env_file=None
    )
    bot = TabletopBot(settings, extensions=GAMES)
    for name in GAMES:
        await bot.load_extension(name)
    started = time.perf_counter()
    await bot.open_storage()
    opened = time.perf_counter() - started
    store: Any = bot.store
    try:
        if database_url is None:
            ids = [int(r[0]) for r in await store.conn.execute_fetchall("SELECT id FROM sessions ORDER BY id")]
            await store.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            size = (await asyncio.to_thread(path.stat)).st_size
        else:
            ids = [int(r["id"]) for r in await store.pool.fetch("SELECT id FROM sessions ORDER BY id")]
            size = int(await store.pool.fetchval("SELECT pg_database_size(current_database())"))
        started = time.perf_counter()
        replayed = await verify_replays(store, bot.registry, ids)
        replaying = time.perf_counter() - started
    finally:
        await store.close()
    return {
        "sessions": len(ids),
        "replayed": replayed,
        "open_and_migrate_s": round(opened, 1),
        "replay_s": round(replaying, 1),
        "bytes_before": before,
        "bytes_after": size,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=("make", "check"), nargs="?")
    parser.add_argument("path", type=Path, nargs="?", default=Path("big.sqlite3"))
    parser.add_argument("--sessions", type=int, default=10_000)
    parser.add_argument("--database", help="check this PostgreSQL database instead of the SQLite file")
    parser.add_argument("--small", action="store_true", help="CI's run: make and check a tiny database, in seconds")
    args = parser.parse_args()
    if args.small:
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "small.sqlite3"
            made = make(path, SMALL_SESSIONS, small=True)
            result = {"make": made, "check": asyncio.run(check(path, None))}
    elif args.what is None:
        parser.error("say make or check")
    elif args.what == "make":
        if args.path.exists():
            sys.exit(f"{args.path} exists")
        result = make(args.path, args.sessions)
    else:
        result = asyncio.run(check(args.path, args.database))
    print(json.dumps(result))


if __name__ == "__main__":
    main()
