"""What one game costs on disk: games of each kind played into a fresh database (``bench/played_games.py``), the
database's growth per game beside the same games as JSON.

    python bench/storage_size.py [--database postgresql://…] [--games 0.5]

``bytes_per_game`` is the SQLite file's growth per game (its WAL checkpointed), page overhead, indexes, the
session's row and all; with ``--database``, ``postgresql_bytes_per_game`` is the growth of the tables, their
indexes and TOAST after ``VACUUM FULL`` (what the data takes once the dead row versions of every save are gone).
``json_bytes_per_game`` is the same games as JSON: each log entry as ``LogEntry.model_dump_json()`` (what the
log stored before migration 7, field for field) plus the session's row. ``log_bytes_per_game`` is what the log's
entries take as stored (``bot/storage/codec.py``). The last line printed is the JSON of ``measure()``:
``bench/scale.py`` calls it for its own report.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import asyncpg

from bench.played_games import PLAYERS, SMALL_PLAYERS, Table, table
from bot.models import Session
from tests.databases import postgres_database

GAMES = {"crowns": 12, "vices": 24, "vv_sheet": 40, "campaign_50_turns": 2}
"""Games of each kind per measurement: enough that a page more or less is lost in the average."""
PG_TABLES = ("sessions", "session_events", "session_checkpoints")


async def _json_bytes(t: Table, session: Session) -> int:
    """The game as JSON: its log entries and its row."""
    entries = await t.service.store.log_entries(session.id)
    row = session.model_dump_json(exclude={"state_json"})
    return sum(len(e.model_dump_json().encode()) for e in entries) + len(row.encode()) + len(session.state_json or "")


async def _log_bytes(t: Table, session_id: int) -> int:
    """What the session's log entries take as stored (the encoded bytes, without the database's own overhead)."""
    store: Any = t.service.store
    if hasattr(store, "pool"):
        return int(
            await store.pool.fetchval(
                "SELECT COALESCE(SUM(octet_length(entry)), 0) FROM session_events WHERE session_id = $1", session_id
            )
        )
    rows = await store.conn.execute_fetchall(
        "SELECT COALESCE(SUM(length(entry)), 0) FROM session_events WHERE session_id = ?", (session_id,)
    )
    return int(rows[0][0])


async def _disk(t: Table, path: Path) -> int:
    """Bytes the database takes now."""
    store: Any = t.service.store
    if hasattr(store, "pool"):
        async with store.pool.acquire() as conn:
            await conn.execute("VACUUM FULL")
            sizes = [await conn.fetchval("SELECT pg_total_relation_size(to_regclass($1))", name) for name in PG_TABLES]
        return sum(int(s) for s in sizes if s is not None)  # (no checkpoints before migration 7)
    await store.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return (await asyncio.to_thread(path.stat)).st_size


async def _one_kind(
    name: str, count: int, folder: Path, url: str | None, seed: int, players: dict[str, Callable[[Table], Any]]
) -> dict[str, float]:
    path = folder / f"{name}.sqlite3"
    async with table(path, url, seed=seed) as t:
        empty = await _disk(t, path)
        json_total = log_total = 0
        for _ in range(count):
            session = await players[name](t)
            json_total += await _json_bytes(t, session)
            log_total += await _log_bytes(t, session.id)
        grown = await _disk(t, path) - empty
    return {"bytes": grown / count, "json": json_total / count, "log": log_total / count}


async def measure(
    database_url: str | None = None, scale: float = 1.0, seed: int = 7, small: bool = False
) -> dict[str, Any]:
    """Bytes per game of each kind on SQLite (and on PostgreSQL when ``database_url`` names a server whose
    databases may be created and dropped), beside its JSON: ``{"bytes_per_game": {"crowns", "vices", "vv_sheet",
    "campaign_50_turns"}, "json_bytes_per_game": {...}, "log_bytes_per_game": {...}, "ratio": {...},
    ["postgresql_bytes_per_game": {...}]}``. ``scale`` plays that fraction of ``GAMES`` (at least one each);
    ``small`` plays one short game of each kind (``SMALL_PLAYERS``: CI's run, whose figures mean nothing)."""
    counts = {name: 1 if small else max(1, round(n * scale)) for name, n in GAMES.items()}
    players = SMALL_PLAYERS if small else PLAYERS
    result: dict[str, Any] = {"bytes_per_game": {}, "json_bytes_per_game": {}, "log_bytes_per_game": {}}
    with tempfile.TemporaryDirectory() as folder:
        for name, count in counts.items():
            got = await _one_kind(name, count, Path(folder), None, seed, players)
            result["bytes_per_game"][name] = round(got["bytes"])
            result["json_bytes_per_game"][name] = round(got["json"])
            result["log_bytes_per_game"][name] = round(got["log"])
        if database_url:
            os.environ["TEST_DATABASE_URL"] = database_url
            result["postgresql_bytes_per_game"] = {}
            for name, count in counts.items():
                async with postgres_database() as url:
                    got = await _one_kind(name, count, Path(folder), url, seed, players)
                result["postgresql_bytes_per_game"][name] = round(got["bytes"])
    result["ratio"] = {
        name: round(result["bytes_per_game"][name] / result["json_bytes_per_game"][name], 3) for name in counts
    }
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database", help="a PostgreSQL server to measure on too (test databases are made there)")
    parser.add_argument("--games", type=float, default=1.0, help="the fraction of GAMES to play")
    parser.add_argument("--small", action="store_true", help="CI's run: one short game of each kind, in seconds")
    args = parser.parse_args()
    try:
        print(json.dumps(asyncio.run(measure(args.database, args.games, small=args.small))))
    except asyncpg.PostgresError as exc:
        sys.exit(f"PostgreSQL: {exc}")


if __name__ == "__main__":
    main()
