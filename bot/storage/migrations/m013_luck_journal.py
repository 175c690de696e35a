"""Migration 13: the luck statistics' journal (``bot.storage.luck_journal``). A commit adds one row of what it counts
instead of adding to the statistics' rows, which concurrent clicks of one server all wrote (a member's totals in the
server, their streaks) and so queued, and on PostgreSQL deadlocked, on; the rows are folded into the statistics
later, oldest first."""

from __future__ import annotations

from bot.storage.dialect import Both, Dialect, Step


def steps(d: Dialect) -> tuple[Step | Both, ...]:
    """The migration's statements, in ``d``'s SQL."""
    return (
        f"""CREATE TABLE luck_journal (
            id {d.key},
            counts TEXT NOT NULL
        )""",
    )
