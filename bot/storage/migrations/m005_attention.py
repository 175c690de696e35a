"""Migration 5: what needs attention at startup, found through one small index instead of reading every session: a live
session drawn behind its version, a computer seat to move, news not yet told."""

from __future__ import annotations

from bot.storage.conditions import ATTENTION
from bot.storage.dialect import Both, Dialect, Step


def steps(d: Dialect) -> tuple[Step | Both, ...]:
    """The migration's statements, in ``d``'s SQL."""
    return (
        f"ALTER TABLE sessions ADD COLUMN drawn {d.int} NOT NULL DEFAULT 0",
        "ALTER TABLE sessions ADD COLUMN computer_due BOOLEAN NOT NULL DEFAULT FALSE",
        # Finished sessions were drawn; a live one is looked at once after this migration.
        "UPDATE sessions SET drawn = version WHERE status NOT IN ('lobby', 'active')",
        f"CREATE INDEX sessions_attention ON sessions(id) WHERE {ATTENTION}",
    )
