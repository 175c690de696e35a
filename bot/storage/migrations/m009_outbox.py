"""Migration 9: the outbox of commits outside any session (a secret roll's reveal, a dice board's drawing): each row is
what one commit must show in a channel, written in its transaction and deleted once shown, so the table holds only
what a restart must still tell. Its id makes each post's nonce: never reused (SQLite's AUTOINCREMENT), or a nonce
Discord still remembers could stand for another message."""

from __future__ import annotations

from bot.storage.dialect import Both, Dialect, Step


def steps(d: Dialect) -> tuple[Step | Both, ...]:
    """The migration's statements, in ``d``'s SQL."""
    return (
        f"""CREATE TABLE outbox (
            id {Both(sqlite="INTEGER PRIMARY KEY AUTOINCREMENT", postgresql=d.key).for_dialect(d)},
            channel_id {d.int} NOT NULL,
            guild_id {d.int},
            told {d.json} NOT NULL,
            created_at {d.real} NOT NULL
        )""",
    )
