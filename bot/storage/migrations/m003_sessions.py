"""Migration 3: games become sessions (table games, scoresheets, campaigns): a scope, roles, record versions, and the
messages that show each view."""

from __future__ import annotations

from bot.storage.dialect import EMPTY_OBJECT, Both, Dialect, Step
from bot.storage.migrations.triggers import PG_APPEND_EVENT, PG_TRIGGER


def steps(d: Dialect) -> tuple[Step | Both, ...]:
    """The migration's statements, in ``d``'s SQL."""
    return (
        "ALTER TABLE games RENAME TO sessions",
        "ALTER TABLE game_events RENAME TO session_events",
        "ALTER TABLE session_events RENAME COLUMN game_id TO session_id",
        Both(sqlite="DROP TRIGGER games_append_event", postgresql="DROP TRIGGER games_append_event ON sessions"),
        Both(sqlite="", postgresql="DROP FUNCTION games_append_event()"),
        "DROP INDEX games_one_live_per_channel",
        "DROP INDEX games_next_deadline",
        "DROP INDEX games_guild_updated",
        "ALTER TABLE sessions ADD COLUMN scope TEXT NOT NULL DEFAULT 'table'",
        "ALTER TABLE sessions ADD COLUMN name TEXT",
        f"ALTER TABLE sessions ADD COLUMN roles {d.json} NOT NULL DEFAULT {EMPTY_OBJECT}",
        f"ALTER TABLE sessions ADD COLUMN records {d.json} NOT NULL DEFAULT {EMPTY_OBJECT}",
        # Which message shows each view, beside the version it shows: written apart from versions.
        f"ALTER TABLE sessions ADD COLUMN boards {d.json} NOT NULL DEFAULT {EMPTY_OBJECT}",
        Both(
            sqlite="""UPDATE sessions SET boards = json_object('board', json_object(
            'view', 'board', 'channel_id', channel_id, 'message_id', board_message_id, 'shown_version', version,
            'posted_at', board_posted_at, 'asked', json('[]'), 'first_seq', version, 'status', status))
        WHERE board_message_id IS NOT NULL AND board_posted_at IS NOT NULL""",
            postgresql="""UPDATE sessions SET boards = jsonb_build_object('board', jsonb_build_object(
            'view', 'board', 'channel_id', channel_id, 'message_id', board_message_id, 'shown_version', version,
            'posted_at', board_posted_at, 'asked', '[]'::jsonb, 'first_seq', version, 'status', status))
        WHERE board_message_id IS NOT NULL AND board_posted_at IS NOT NULL""",
        ),
        "ALTER TABLE sessions DROP COLUMN board_message_id",
        "ALTER TABLE sessions DROP COLUMN board_posted_at",
        # Deadlines now carry their length, so one can start when its decision is first shown.
        Both(
            sqlite="""UPDATE sessions SET deadlines = (
            SELECT json_group_array(json_set(value, '$.seconds', 0)) FROM json_each(sessions.deadlines)
        ) WHERE deadlines <> '[]'""",
            postgresql="""UPDATE sessions SET deadlines = (
            SELECT jsonb_agg(value || '{"seconds": 0}'::jsonb) FROM jsonb_array_elements(sessions.deadlines)
        ) WHERE deadlines <> '[]'""",
        ),
        # At most one live session per channel and scope; a named campaign is unique in its server.
        """CREATE UNIQUE INDEX sessions_one_live_per_channel ON sessions(channel_id, scope)
        WHERE status IN ('lobby', 'active') AND name IS NULL""",
        """CREATE UNIQUE INDEX sessions_named_live ON sessions(guild_id, lower(name))
        WHERE status IN ('lobby', 'active') AND name IS NOT NULL""",
        "CREATE INDEX sessions_next_deadline ON sessions(next_deadline) WHERE next_deadline IS NOT NULL",
        "CREATE INDEX sessions_guild_updated ON sessions(guild_id, updated_at)",
        "CREATE INDEX sessions_lobby_host ON sessions(guild_id, host_id) WHERE status = 'lobby'",
        # A session's row carries its latest log entry, and this trigger appends it to the log as part
        # of the same UPDATE: an action and its log entry are written by one statement, atomically.
        Both(
            sqlite="""CREATE TRIGGER sessions_append_event AFTER UPDATE OF version ON sessions
        WHEN NEW.last_event IS NOT NULL AND NEW.version <> OLD.version
        BEGIN
            INSERT INTO session_events (session_id, seq, actor, action, dice, events, at) VALUES (
                NEW.id,
                NEW.version,
                json_extract(NEW.last_event, '$.actor'),
                json_extract(NEW.last_event, '$.action'),
                json_extract(NEW.last_event, '$.dice'),
                json_extract(NEW.last_event, '$.events'),
                json_extract(NEW.last_event, '$.at')
            );
        END""",
            postgresql=PG_APPEND_EVENT.format(
                name="sessions_append_event", events="session_events", owner="session_id"
            ),
        ),
        Both(sqlite="", postgresql=PG_TRIGGER.format(name="sessions_append_event", table="sessions")),
    )
