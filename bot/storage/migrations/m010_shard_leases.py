"""Migration 10: shard leases (``bot.storage.leases``): processes started with SHARD_COUNT and no SHARD_IDS share the
shards through these rows, and take turns to IDENTIFY. PostgreSQL only: one SQLite file has one process."""

from __future__ import annotations

from bot.storage.dialect import Both, Dialect, Step


def steps(d: Dialect) -> tuple[Step | Both, ...]:
    """The migration's statements, in ``d``'s SQL."""
    return (
        Both(
            sqlite="",
            postgresql="""CREATE TABLE shard_processes (
            owner TEXT PRIMARY KEY,
            shard_count INTEGER NOT NULL,
            joined_at DOUBLE PRECISION NOT NULL,
            expires_at DOUBLE PRECISION NOT NULL
        )""",
        ),
        Both(
            sqlite="",
            postgresql="""CREATE TABLE shard_leases (
            shard INTEGER PRIMARY KEY,
            owner TEXT NOT NULL REFERENCES shard_processes(owner) ON DELETE CASCADE,
            expires_at DOUBLE PRECISION NOT NULL
        )""",
        ),
        Both(sqlite="", postgresql="CREATE INDEX shard_processes_expiry ON shard_processes(expires_at)"),
        Both(sqlite="", postgresql="CREATE INDEX shard_leases_owner ON shard_leases(owner)"),
        Both(
            sqlite="",
            postgresql="""CREATE TABLE identify_buckets (
            bucket INTEGER PRIMARY KEY,
            next_at DOUBLE PRECISION NOT NULL
        )""",
        ),
    )
