"""What ratings cost: migration 12's recompute of ``--games`` finished games (2 to 4 seats, members drawn from
``--members``, a computer seat in some), one game's rating (``bot.ratings.rate``), and ``/stats top``'s query.

    python bench/ratings.py [--games 20000] [--members 500] [--database postgresql://…]

- ``recompute_s``: the whole recompute (once per database, at first start), and ``transaction_s`` the part of it
  that holds a transaction (SQLite's write lock: other commits wait meanwhile);
- ``rate_us_p50`` / ``rate_us_p99``: one finished game's update, as the commit that finishes it computes it;
- ``top_ms``: the top 30 of a game in a server, by ordinal (median of 20).

JSON as the last line.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.models import Scope, Seat, Session, Status
from bot.ratings import RatedGame, rate, rated_game
from bot.registry import GameKind
from bot.storage import Store, open_store
from rules.crowns.engine import ENGINE

KIND = GameKind(ENGINE)
GUILDS = 4


def finished_game(rng: random.Random, n: int, members: int) -> Session:
    """A finished table game of 2 to 4 seats, one of them a computer one time in three."""
    size = rng.randint(2, 4)
    users: list[int | None] = list(rng.sample(range(1, members + 1), size))
    if rng.random() < 1 / 3:
        users[-1] = None
    seats = [Seat(player=f"P{i}", user_id=u, name=f"M{u}", computer=u is None) for i, u in enumerate(users, 1)]
    return Session(
        guild_id=1 + n % GUILDS,
        channel_id=1000 + n,
        kind=KIND.kind,
        scope=Scope.TABLE,
        status=Status.FINISHED,
        host_id=users[0] or 1,
        seats=seats,
        winners=[f"P{rng.randint(1, size)}"],
        version=40,
        created_at=float(n),
        updated_at=float(n),
    )


def watch_transactions(store: Store) -> list[float]:
    """How long each transaction of ``store`` lasts from now on (other commits wait while one holds SQLite's lock)."""
    lasted: list[float] = []
    real = store._sql_transaction  # type: ignore[attr-defined]

    @contextlib.asynccontextmanager
    async def timed(**options: Any) -> AsyncIterator[Any]:
        started = time.perf_counter()
        async with real(**options) as sql:
            yield sql
        lasted.append(time.perf_counter() - started)

    store._sql_transaction = timed  # type: ignore[attr-defined]
    return lasted


def rated(session: Session) -> RatedGame | None:
    return rated_game(session, KIND, None)


async def measure(games: int, members: int, database: str | None) -> dict[str, object]:
    rng = random.Random(11)
    sessions = [finished_game(rng, n, members) for n in range(games)]
    with tempfile.TemporaryDirectory() as folder:
        store = open_store(Path(folder) / "ratings.sqlite3", database)
        await store.open()
        try:
            for session in sessions:
                await store.create_session(session)
            transaction_s = watch_transactions(store)
            started = time.perf_counter()
            counted = await store.recompute_ratings(rated)
            recompute_s = time.perf_counter() - started
            tops = []
            for _ in range(20):
                started = time.perf_counter()
                await store.rating_top(1, KIND.kind, 30)
                tops.append(time.perf_counter() - started)
        finally:
            await store.close()
    rates = []
    for session in sessions[:2000]:
        game = rated(session)
        assert game is not None
        started = time.perf_counter()
        rate(game, {})
        rates.append((time.perf_counter() - started) * 1e6)
    rates.sort()
    return {
        "games": counted,
        "members": members,
        "backend": "postgresql" if database else "sqlite",
        "recompute_s": round(recompute_s, 3),
        "transaction_s": round(max(transaction_s, default=0.0), 3),
        "rate_us_p50": round(rates[len(rates) // 2], 1),
        "rate_us_p99": round(rates[int(len(rates) * 0.99)], 1),
        "top_ms": round(statistics.median(tops) * 1000, 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--members", type=int, default=500)
    parser.add_argument("--database", default=None, help="a PostgreSQL URL (default: a SQLite file)")
    parser.add_argument("--small", action="store_true", help="CI's run: 300 games, in seconds")
    args = parser.parse_args()
    games = 300 if args.small else args.games
    print(json.dumps(asyncio.run(measure(games, args.members, args.database))))


if __name__ == "__main__":
    main()
