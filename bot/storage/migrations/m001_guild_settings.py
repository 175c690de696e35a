"""Migration 1: Guild settings."""

from __future__ import annotations

from bot.storage.dialect import EMPTY_OBJECT, Both, Dialect, Step


def steps(d: Dialect) -> tuple[Step | Both, ...]:
    """The migration's statements, in ``d``'s SQL."""
    return (
        f"""CREATE TABLE guild_settings (
            guild_id {d.int} PRIMARY KEY,
            data {d.json} NOT NULL DEFAULT {EMPTY_OBJECT}
        )""",
    )
