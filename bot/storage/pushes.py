"""Storage of preset rolls that may be pushed once (Year Zero's push), on the outbox like secret rolls.

A pushable roll's message is drawn from its row (``PUSH_DRAWING``): the roll, and once pushed the push under it.
The push is one conditional UPDATE: only the first click finds ``pushed_at`` empty, so a double click, two
members' clicks or a retry after a restart push once; the loser is told it was pushed already."""

from __future__ import annotations

import dataclasses
import json
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass

from bot.models import Outgoing, Told
from bot.storage.outbox import OutboxTables, add_outgoing
from bot.storage.rows import Row
from bot.storage.sql import Sql
from bot.storage.writes import Tells, writes

PUSH_DRAWING = "dice-push"
"""The outbox's name for a pushable roll's message."""
PUSHABLE_KEPT_S = 30 * 86_400
"""A roll may be pushed for this long; older ones are forgotten (a push belongs to the moment of the roll)."""
_COLUMNS = "id, channel_id, guild_id, roller_id, expression, state, shown, pushed, message_id, created_at, pushed_at"


@dataclass(frozen=True, slots=True)
class PushableRoll:
    """A preset roll its roller may push once: the notation, the faces it showed, and the text of its message."""

    id: int
    channel_id: int
    guild_id: int | None
    roller_id: int
    expression: str
    state: tuple[int, ...]
    shown: str
    """The message as rolled (header and dice)."""
    pushed: str | None = None
    """The push, once made (its dice and the game's words)."""
    message_id: int | None = None
    created_at: float = 0.0
    pushed_at: float | None = None


def _pushable(row: Row) -> PushableRoll:
    return PushableRoll(
        id=int(row["id"]),
        channel_id=int(row["channel_id"]),
        guild_id=row["guild_id"],
        roller_id=int(row["roller_id"]),
        expression=row["expression"],
        state=tuple(json.loads(row["state"])),
        shown=row["shown"],
        pushed=row["pushed"],
        message_id=row["message_id"],
        created_at=float(row["created_at"]),
        pushed_at=None if row["pushed_at"] is None else float(row["pushed_at"]),
    )


class PushTables(OutboxTables):
    """Pushable rolls' queries, for any backend that provides ``_sql()`` and ``_sql_transaction()``."""

    def _sql(self) -> Sql:
        raise NotImplementedError

    def _sql_transaction(self, *, quick: bool = False) -> AbstractAsyncContextManager[Sql]:
        raise NotImplementedError

    @writes(Tells.OUTBOX)
    async def create_pushable(self, roll: PushableRoll) -> tuple[PushableRoll, Outgoing]:
        """Store a pushable roll and its message to post (in the outbox, in the same transaction), forgetting those
        past ``PUSHABLE_KEPT_S``; returns it with its id."""
        async with self._sql_transaction(quick=True) as sql:
            await sql.execute(
                "DELETE FROM pushable_rolls WHERE created_at < ?", float(roll.created_at - PUSHABLE_KEPT_S)
            )
            rows = await sql.fetch(
                "INSERT INTO pushable_rolls (channel_id, guild_id, roller_id, expression, state, shown, created_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id",
                roll.channel_id,
                roll.guild_id,
                roll.roller_id,
                roll.expression,
                json.dumps(list(roll.state)),
                roll.shown,
                float(roll.created_at),
            )
            stored = dataclasses.replace(roll, id=int(rows[0]["id"]))
            told = [Told(draw=PUSH_DRAWING, ref=stored.id)]
            outgoing = await add_outgoing(
                sql, Outgoing(channel_id=roll.channel_id, guild_id=roll.guild_id, told=told), roll.created_at
            )
        return stored, outgoing

    async def pushable(self, roll_id: int) -> PushableRoll | None:
        """A pushable roll by id."""
        rows = await self._sql().fetch(f"SELECT {_COLUMNS} FROM pushable_rolls WHERE id = ?", roll_id)
        return _pushable(rows[0]) if rows else None

    @writes(Tells.BOOKS)
    async def pushable_shown(self, roll_id: int, message_id: int) -> None:
        """Record the message that shows a pushable roll."""
        await self._sql().execute("UPDATE pushable_rolls SET message_id = ? WHERE id = ?", message_id, roll_id)

    @writes(Tells.OUTBOX)
    async def push_roll(self, roll_id: int, state: tuple[int, ...], pushed: str, at: float) -> Outgoing | None:
        """Record the push (its dice and text) with the message's new drawing in the outbox, in one transaction.
        Only the one call that pushed gets the outbox row; the others (a double click) get None."""
        async with self._sql_transaction(quick=True) as sql:
            rows = await sql.fetch(
                "UPDATE pushable_rolls SET state = ?, pushed = ?, pushed_at = ? WHERE id = ? AND pushed_at IS NULL "
                "RETURNING channel_id, guild_id",
                json.dumps(list(state)),
                pushed,
                float(at),
                roll_id,
            )
            if not rows:
                return None
            told = [Told(draw=PUSH_DRAWING, ref=roll_id)]
            outgoing = Outgoing(channel_id=int(rows[0]["channel_id"]), guild_id=rows[0]["guild_id"], told=told)
            return await add_outgoing(sql, outgoing, at)
