"""Migration 7: the log stored small and read by what is needed. Each entry is encoded (bot.storage.codec: compact,
compressed with a preset dictionary; 5 to 10 times smaller than its JSON) in a table with rowids: a WITHOUT ROWID
table spilled every entry over ~1 KB into overflow pages, most of each page empty. An entry carries the chapter its
session was in (a campaign's turn), so one turn is read by an index. Undo folds the log from a checkpoint, not from
the start. Indexes for every query of a hot or user-facing path (tests/core/test_query_plans.py), and for clearing
the logs of old finished games (``log_cleared_at``)."""

from __future__ import annotations

from bot.storage.conditions import ENDED_TABLE, LOG_KEPT
from bot.storage.dialect import REENCODE_LOG, Both, Dialect, Step
from bot.storage.migrations.triggers import (
    PG_APPEND_ENTRY,
    PG_TRIGGER,
    SQLITE_APPEND_ENTRY,
    SQLITE_DROP_CHECKPOINT,
    SQLITE_KEEP_CHECKPOINT,
)


def steps(d: Dialect) -> tuple[Step | Both, ...]:
    """The migration's statements, in ``d``'s SQL."""
    return (
        Both(sqlite="DROP TRIGGER sessions_append_event", postgresql="DROP TRIGGER sessions_append_event ON sessions"),
        Both(sqlite="", postgresql="DROP FUNCTION sessions_append_event()"),
        f"""CREATE TABLE session_log (
            session_id {d.int} NOT NULL REFERENCES sessions(id),
            seq {d.int} NOT NULL,
            chapter {d.int},
            entry {d.blob} NOT NULL,
            PRIMARY KEY (session_id, seq)
        )""",
        REENCODE_LOG,
        "DROP TABLE session_events",
        "ALTER TABLE session_log RENAME TO session_events",
        Both(sqlite="", postgresql="ALTER INDEX session_log_pkey RENAME TO session_events_pkey"),
        "CREATE INDEX session_events_chapter ON session_events(session_id, chapter) WHERE chapter IS NOT NULL",
        "ALTER TABLE sessions DROP COLUMN last_event",
        f"ALTER TABLE sessions ADD COLUMN last_entry {d.blob}",
        f"ALTER TABLE sessions ADD COLUMN chapter {d.int}",
        f"ALTER TABLE sessions ADD COLUMN undo_from {d.int}",
        f"ALTER TABLE sessions ADD COLUMN log_cleared_at {d.real}",
        f"""CREATE TABLE session_checkpoints (
            session_id {d.int} PRIMARY KEY REFERENCES sessions(id),
            seq {d.int} NOT NULL,
            state {d.json} NOT NULL
        )""",
        "DROP INDEX sessions_guild_updated",
        f"CREATE INDEX sessions_history_channel ON sessions(channel_id, updated_at) WHERE {ENDED_TABLE}",
        f"CREATE INDEX sessions_history_guild ON sessions(guild_id, updated_at) WHERE {ENDED_TABLE}",
        f"CREATE INDEX sessions_log_kept ON sessions(guild_id, updated_at) WHERE {LOG_KEPT}",
        "CREATE INDEX sessions_live_in_guild ON sessions(guild_id, scope) WHERE status IN ('lobby', 'active')",
        Both(sqlite=SQLITE_APPEND_ENTRY, postgresql=PG_APPEND_ENTRY),
        Both(
            sqlite=SQLITE_KEEP_CHECKPOINT,
            postgresql=PG_TRIGGER.format(name="sessions_append_entry", table="sessions"),
        ),
        Both(sqlite=SQLITE_DROP_CHECKPOINT, postgresql=""),
    )
