"""The outbox of commits outside any session: what each must show in a channel, written in its transaction.

A session's commit carries its news in its log entry (``LogEntry.news``); a commit outside any session (a secret
roll revealed, a dice board changed) writes an ``Outgoing`` row with its changes instead (``add_outgoing``, in the
same transaction). The row is deleted once everything in it is shown (``outbox_told``), so the table holds only
what a restart must still tell, read in batches by the primary key (``outbox``). ``bot.outbox`` delivers it.
"""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager

from pydantic import TypeAdapter

from bot.models import Outgoing, Told
from bot.shards import ALL, Shards
from bot.storage.dialect import Dialect
from bot.storage.rows import Row
from bot.storage.sql import Sql, owned
from bot.storage.writes import Tells, writes

OUTBOX_BATCH = 200
"""Rows of the outbox read at once at startup."""
_TOLD = TypeAdapter(list[Told])


async def add_outgoing(sql: Sql, outgoing: Outgoing, at: float) -> Outgoing:
    """Write ``outgoing`` in the transaction ``sql`` is in (the commit whose messages it holds); returns it with its
    id."""
    rows = await sql.fetch(
        "INSERT INTO outbox (channel_id, guild_id, told, created_at) VALUES (:channel, :guild, :told::jsonb, :at) "
        "RETURNING id",
        channel=outgoing.channel_id,
        guild=outgoing.guild_id,
        told=_TOLD.dump_json(outgoing.told, exclude_defaults=True).decode(),
        at=float(at),
    )
    return outgoing.model_copy(update={"id": int(rows[0]["id"])})


def _outgoing(row: Row) -> Outgoing:
    return Outgoing(
        id=int(row["id"]),
        channel_id=int(row["channel_id"]),
        guild_id=row["guild_id"],
        told=_TOLD.validate_json(row["told"]),
    )


class OutboxTables:
    """The outbox's own queries, for a backend that provides ``_sql()`` and a ``dialect``."""

    dialect: Dialect

    def _sql(self) -> Sql:
        raise NotImplementedError

    def _sql_transaction(self, *, quick: bool = False) -> AbstractAsyncContextManager[Sql]:
        raise NotImplementedError

    async def outbox(self, shards: Shards = ALL, *, after: int = 0, limit: int = OUTBOX_BATCH) -> list[Outgoing]:
        """What commits outside any session still have to show (in the servers of ``shards``): the rows after id
        ``after``, oldest first, at most ``limit``."""
        where, params = owned(self.dialect, shards, "o")
        rows = await self._sql().fetch(
            f"SELECT o.id, o.channel_id, o.guild_id, o.told FROM outbox o WHERE o.id > :after{where} "
            "ORDER BY o.id LIMIT :limit",
            after=after,
            limit=limit,
            **params,
        )
        return [_outgoing(r) for r in rows]

    @writes(Tells.BOOKS)
    async def outbox_told(self, outgoing_id: int) -> None:
        """Everything of one outbox row is shown: it goes."""
        await self._sql().execute("DELETE FROM outbox WHERE id = :id", id=outgoing_id)
