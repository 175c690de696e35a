"""Migration 11: preset rolls that may be pushed once (Year Zero): the dice they showed, what their message shows,
and whether they were pushed. A push is an UPDATE of one row that only the first click makes (``pushed_at IS
NULL``), with the message's new drawing in the outbox, in the same transaction. Ids are never reused (SQLite's
AUTOINCREMENT): a Push button on a forgotten roll's message must not find another roll by its id."""

from __future__ import annotations

from bot.storage.dialect import Both, Dialect, Step


def steps(d: Dialect) -> tuple[Step | Both, ...]:
    """The migration's statements, in ``d``'s SQL."""
    return (
        f"""CREATE TABLE pushable_rolls (
            id {Both(sqlite="INTEGER PRIMARY KEY AUTOINCREMENT", postgresql=d.key).for_dialect(d)},
            channel_id {d.int} NOT NULL,
            guild_id {d.int},
            roller_id {d.int} NOT NULL,
            expression TEXT NOT NULL,
            state TEXT NOT NULL,
            shown TEXT NOT NULL,
            pushed TEXT,
            message_id {d.int},
            created_at {d.real} NOT NULL,
            pushed_at {d.real}
        )""",
        "CREATE INDEX pushable_rolls_created ON pushable_rolls(created_at)",
    )
