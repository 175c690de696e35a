"""Shard leases in PostgreSQL: which process runs which shard, and whose turn it is to IDENTIFY.

Three small tables (migration 10; PostgreSQL only, where several processes share one database):

- ``shard_processes``: every running process (``owner``), with its ``SHARD_COUNT``, when it joined and until when
  it counts as alive; each heartbeat moves that on by a lease period;
- ``shard_leases``: one row per shard held, by its owner, until when; renewed by the same heartbeat, gone with its
  owner's row (a process that stops, or whose row expired);
- ``identify_buckets``: per rate-limit bucket of shards (``shard_id % max_concurrency``), the earliest moment the
  next IDENTIFY may be sent, whichever process sends it.

Every moment is the database's clock (``now()``, in seconds since the epoch), so the processes' own clocks never
have to agree. The tables hold a row per process and per shard: each statement reads them by their keys.

A process that has joined (once it has been known for a while: ``settled``), gives shards up or stops says so on the
channel ``LEASE_CHANNEL`` (``NOTIFY``), so the others beat at once instead of at their next heartbeat: a shard given
up is taken over in moments.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Protocol

from bot.storage.sql import Sql
from bot.storage.writes import Tells, writes

NOW = "EXTRACT(EPOCH FROM now())::float8"
"""The database's time (the transaction's start: the same moment throughout a statement)."""
LEASE_CHANNEL = "shard_leases"
"""What the processes say on it: the name of the one whose leases changed (delivered when its transaction commits)."""


@dataclass(frozen=True)
class Holder:
    """A live process: its ``SHARD_COUNT``, the shards it holds, and whether it has been known long enough to be
    given its share (processes starting together all count each other before any takes shards)."""

    owner: str
    shard_count: int
    shards: frozenset[int]
    settled: bool = True


@dataclass(frozen=True)
class Heartbeat:
    """What one heartbeat found: the shards this process still holds (renewed), and every live process."""

    held: frozenset[int]
    processes: tuple[Holder, ...]


class Listening(Protocol):
    """A connection listening on ``LEASE_CHANNEL``."""

    def is_closed(self) -> bool:
        """Whether it was closed (or lost)."""
        ...

    async def close(self) -> None:
        """Stop listening."""
        ...


class LeaseStore(Protocol):
    """The lease queries (``LeaseTables``), as the shard leases use them."""

    async def heartbeat(self, owner: str, shard_count: int, lease_s: float, settle_s: float) -> Heartbeat:
        """Renew this process and its leases for ``lease_s`` seconds; forget processes whose time has passed; a
        process known for ``settle_s`` is settled."""
        ...

    async def announce(self, owner: str) -> None:
        """Tell the others that ``owner`` settled: they count it in now."""
        ...

    async def claim_shards(self, owner: str, shards: list[int], lease_s: float) -> frozenset[int]:
        """Take the leases of ``shards`` that nobody holds; the ones taken."""
        ...

    async def release_shards(self, owner: str, shards: list[int]) -> None:
        """Give up the leases of ``shards``."""
        ...

    async def leave(self, owner: str) -> None:
        """This process stops: its row and every lease it holds go at once."""
        ...

    async def identify_turn(self, bucket: int, spacing_s: float) -> float:
        """Take the next IDENTIFY of ``bucket`` if it is due (0.0), else the seconds until it is."""
        ...

    async def listen(self, heard: Callable[[str], None]) -> Listening:
        """Hear, on a connection of its own, the name of each process whose leases changed."""
        ...


class LeaseTables:
    """The lease queries, for a backend that provides ``_sql()`` and ``_sql_transaction()`` (PostgreSQL)."""

    def _sql(self) -> Sql:
        raise NotImplementedError

    def _sql_transaction(self, *, quick: bool = False) -> AbstractAsyncContextManager[Sql]:
        raise NotImplementedError

    @writes(Tells.BOOKS)
    async def heartbeat(self, owner: str, shard_count: int, lease_s: float, settle_s: float) -> Heartbeat:
        """Renew this process and its leases for ``lease_s`` seconds; forget processes whose time has passed (their
        leases go with them); what is held now, by whom, and which processes have been known for ``settle_s``."""
        async with self._sql_transaction() as sql:
            await sql.execute(
                "INSERT INTO shard_processes (owner, shard_count, joined_at, expires_at) "
                f"VALUES (:owner, :count, {NOW}, {NOW} + :lease) "
                "ON CONFLICT (owner) DO UPDATE SET shard_count = EXCLUDED.shard_count, "
                "expires_at = EXCLUDED.expires_at",
                owner=owner,
                count=shard_count,
                lease=lease_s,
            )
            held = await sql.fetch(
                f"UPDATE shard_leases SET expires_at = {NOW} + :lease WHERE owner = :owner RETURNING shard",
                owner=owner,
                lease=lease_s,
            )
            await sql.execute(f"DELETE FROM shard_processes WHERE expires_at < {NOW}")
            rows = await sql.fetch(
                "SELECT p.owner, p.shard_count, array_remove(array_agg(l.shard ORDER BY l.shard), NULL) AS shards, "
                f"p.joined_at <= {NOW} - :settle AS settled "
                "FROM shard_processes p LEFT JOIN shard_leases l ON l.owner = p.owner "
                "GROUP BY p.owner, p.shard_count, p.joined_at ORDER BY p.owner",
                settle=settle_s,
            )
        return Heartbeat(
            frozenset(int(r["shard"]) for r in held),
            tuple(
                Holder(str(r["owner"]), int(r["shard_count"]), frozenset(r["shards"]), bool(r["settled"])) for r in rows
            ),
        )

    @writes(Tells.BOOKS)
    async def announce(self, owner: str) -> None:
        """Tell the others that ``owner`` settled (they count it in, and give it its share, at once)."""
        await _notify(self._sql(), owner)

    @writes(Tells.BOOKS)
    async def claim_shards(self, owner: str, shards: list[int], lease_s: float) -> frozenset[int]:
        """Take the leases of ``shards`` that nobody holds (or whose time has passed); the ones taken."""
        rows = await self._sql().fetch(
            "INSERT INTO shard_leases AS l (shard, owner, expires_at) "
            f"SELECT s, :owner, {NOW} + :lease FROM unnest(:shards::int[]) AS s "
            "ON CONFLICT (shard) DO UPDATE SET owner = EXCLUDED.owner, expires_at = EXCLUDED.expires_at "
            f"WHERE l.expires_at < {NOW} RETURNING l.shard",
            owner=owner,
            shards=shards,
            lease=lease_s,
        )
        return frozenset(int(r["shard"]) for r in rows)

    @writes(Tells.BOOKS)
    async def release_shards(self, owner: str, shards: list[int]) -> None:
        """Give up the leases of ``shards`` (another process may take them at once)."""
        async with self._sql_transaction() as sql:
            await sql.execute(
                "DELETE FROM shard_leases WHERE owner = :owner AND shard = ANY(:shards::int[])",
                owner=owner,
                shards=shards,
            )
            await _notify(sql, owner)

    @writes(Tells.BOOKS)
    async def leave(self, owner: str) -> None:
        """This process stops: its row, and with it every lease it holds, go at once."""
        async with self._sql_transaction() as sql:
            await sql.execute("DELETE FROM shard_processes WHERE owner = :owner", owner=owner)
            await _notify(sql, owner)

    @writes(Tells.BOOKS)
    async def identify_turn(self, bucket: int, spacing_s: float) -> float:
        """Take the next IDENTIFY of ``bucket`` if it is due (0.0: send it now; the next one is due ``spacing_s``
        later), else the seconds until it is due (ask again then)."""
        rows = await self._sql().fetch(
            "WITH taken AS ("
            "INSERT INTO identify_buckets AS b (bucket, next_at) "
            f"VALUES (:bucket, {NOW} + :spacing) "
            f"ON CONFLICT (bucket) DO UPDATE SET next_at = EXCLUDED.next_at WHERE b.next_at <= {NOW} "
            "RETURNING b.bucket) "
            "SELECT EXISTS (SELECT 1 FROM taken) AS taken, "
            f"(SELECT next_at FROM identify_buckets WHERE bucket = :bucket) - {NOW} AS wait",
            bucket=bucket,
            spacing=spacing_s,
        )
        row = rows[0]
        return 0.0 if row["taken"] else max(0.0, float(row["wait"] or 0.0))


async def _notify(sql: Sql, owner: str) -> None:
    """Tell the processes listening that ``owner``'s leases changed (when the transaction commits)."""
    await sql.execute(f"SELECT pg_notify('{LEASE_CHANNEL}', :owner)", owner=owner)
