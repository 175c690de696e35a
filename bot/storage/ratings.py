"""Ratings as stored (``bot.ratings`` computes them): one row per server, game and member, written in the transaction
of the commit that finished a game, and recomputed from every finished game once after migration 12.

A finished game's changes are written only if each member's row is still as it was read (its ``games`` count):
two games with the same member ending at once in two processes can't both rate from the same rating; the later
commit's write is refused and the service retries it on fresh data, as for any commit another process beat.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Protocol

from bot.models import Session
from bot.ratings import Ledger, RatedGame, Rating, RatingChange
from bot.storage.dialect import Dialect
from bot.storage.rows import SELECT, Row, session_from_row
from bot.storage.sql import Sql, any_of
from bot.storage.writes import Tells, writes

RECOMPUTE_BATCH = 500
"""Finished games read at once by the recompute."""
RECHECK_S = 600.0
"""The recompute's last look goes back this far before the last game it read: a game committed meanwhile with an
earlier moment (another process's clock, a commit that took a while) is still rated."""
RATED = "s.status = 'finished' AND s.scope = 'table' AND s.guild_id IS NOT NULL"
_UPSERT = (
    "INSERT INTO ratings (guild_id, kind, user_id, mu, sigma, ordinal, games) VALUES (?, ?, ?, ?, ?, ?, ?) "
    "ON CONFLICT (guild_id, kind, user_id) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, "
    "ordinal = excluded.ordinal, games = excluded.games WHERE ratings.games = excluded.games - 1"
)


class RatingsMoved(Exception):
    """A member's rating changed since it was read (another game of theirs finished first): nothing is written."""


def _rating(row: Row) -> Rating:
    return Rating(float(row["mu"]), float(row["sigma"]), int(row["games"]))


async def write_ratings(sql: Sql, changes: Sequence[RatingChange], *, pending: bool = False) -> None:
    """Store a finished game's changes in its commit's transaction; raise ``RatingsMoved`` (rolling it back) if a
    member's rating is no longer the one they were computed from, or (``pending``: a game left for the recompute)
    if the recompute has run since. The marker's row is written, so a recompute under way (which deletes it first)
    waits for this commit and then reads its game, or this write waits for the recompute and finds it done."""
    if pending and await sql.execute("UPDATE ratings_pending SET id = id WHERE id = 1") != 1:
        raise RatingsMoved()
    for change in changes:
        after = change.after
        written = await sql.execute(
            _UPSERT, change.guild_id, change.kind, change.user_id, after.mu, after.sigma, after.ordinal, after.games
        )
        if written != 1:
            raise RatingsMoved(change.user_id)


class RatingStore(Protocol):
    """The part of ``Store`` that keeps ratings (implemented once, by :class:`RatingTables`)."""

    async def ratings_of(self, guild_id: int, kind: str, user_ids: Sequence[int]) -> dict[int, Rating] | None: ...
    async def rating_top(self, guild_id: int, kind: str, limit: int) -> list[tuple[int, Rating]]: ...
    @writes(Tells.BOOKS)
    async def recompute_ratings(self, rated: Callable[[Session], RatedGame | None]) -> int | None: ...


class RatingTables:
    """The ratings' queries, for any backend that provides ``_sql()`` and ``_sql_transaction()``."""

    dialect: Dialect

    def _sql(self) -> Sql:
        raise NotImplementedError

    def _sql_transaction(self, *, quick: bool = False) -> AbstractAsyncContextManager[Sql]:
        raise NotImplementedError

    async def ratings_of(self, guild_id: int, kind: str, user_ids: Sequence[int]) -> dict[int, Rating] | None:
        """The members' ratings in a game in a server (a member with none is left out); None while the recompute
        after migration 12 is still to run (a game finishing then is rated by the recompute, not twice)."""
        if await self._sql().fetch("SELECT id FROM ratings_pending WHERE id = 1"):
            return None
        members, params = any_of(self.dialect, "user_id", "users", user_ids, "bigint")
        rows = await self._sql().fetch(
            f"SELECT user_id, mu, sigma, games FROM ratings WHERE guild_id = :guild AND kind = :kind AND {members}",
            guild=guild_id,
            kind=kind,
            **params,
        )
        return {int(r["user_id"]): _rating(r) for r in rows}

    async def rating_top(self, guild_id: int, kind: str, limit: int) -> list[tuple[int, Rating]]:
        """A game's best ``limit`` rated members in a server, by ordinal (``mu - 3 sigma``), best first."""
        rows = await self._sql().fetch(
            "SELECT user_id, mu, sigma, games FROM ratings WHERE guild_id = ? AND kind = ? "
            "ORDER BY ordinal DESC LIMIT ?",
            guild_id,
            kind,
            limit,
        )
        return [(int(r["user_id"]), _rating(r)) for r in rows]

    @writes(Tells.BOOKS)
    async def recompute_ratings(self, rated: Callable[[Session], RatedGame | None]) -> int | None:
        """Migration 12's recompute, once, with the games known: every finished table game, in the order they ended,
        replayed through a ``Ledger`` (``rated`` says how each counts; a member who deleted their statistics starts
        afresh from then). How many games were rated; None if it had been done.

        The games are read and replayed first, outside any transaction (other commits go on); then one short
        transaction takes the marker (after it, no finish can be left to the recompute: ``write_ratings``), reads
        what finished since (and anything committed late with an earlier moment, within ``RECHECK_S``), and writes
        every rating."""
        if not await self._sql().fetch("SELECT id FROM ratings_pending WHERE id = 1"):
            return None
        ledger, seen = Ledger(await self._forgot(self._sql())), set[int]()
        upto = await _replay(self._sql(), rated, ledger, seen, float("-inf"))
        async with self._sql_transaction() as sql:
            if await sql.execute("DELETE FROM ratings_pending WHERE id = 1") != 1:
                return None
            ledger.forgot = await self._forgot(sql)
            await _replay(sql, rated, ledger, seen, upto - RECHECK_S)
            await sql.execute("DELETE FROM ratings")
            await sql.executemany(
                "INSERT INTO ratings (guild_id, kind, user_id, mu, sigma, ordinal, games) VALUES (?, ?, ?, ?, ?, ?, ?)",
                [(g, k, u, r.mu, r.sigma, r.ordinal, r.games) for (g, k, u), r in ledger.kept().items()],
            )
        return ledger.played

    @staticmethod
    async def _forgot(sql: Sql) -> dict[int, float]:
        rows = await sql.fetch("SELECT user_id, forgot_at FROM luck_members WHERE forgot_at IS NOT NULL")
        return {int(r["user_id"]): float(r["forgot_at"]) for r in rows}


async def _replay(
    sql: Sql, rated: Callable[[Session], RatedGame | None], ledger: Ledger, seen: set[int], since: float
) -> float:
    """Play every finished table game that ended at ``since`` or later, and that ``seen`` doesn't hold yet, into
    ``ledger``, in the order they ended, ``RECOMPUTE_BATCH`` at a time; the moment the last one ended."""
    after = (since, 0)
    while rows := await sql.fetch(
        f"{SELECT} WHERE {RATED} AND (s.updated_at > :at OR (s.updated_at = :at AND s.id > :id)) "
        "ORDER BY s.updated_at, s.id LIMIT :batch",
        at=after[0],
        id=after[1],
        batch=RECOMPUTE_BATCH,
    ):
        for row in rows:
            session = session_from_row(row)
            game = None if session.id in seen else rated(session)
            seen.add(session.id)
            if game is not None:
                ledger.play(game, session.updated_at)
        after = (float(rows[-1]["updated_at"]), int(rows[-1]["id"]))
    return after[0]
