"""The numbered schema migrations (SQLite dialect).

Each migration is a tuple of statements applied in one transaction; its number is its position
(1-based), stored in the database's ``user_version``. Never edit a released migration: add one.
"""

from __future__ import annotations

SQLITE_MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (
        """CREATE TABLE guild_settings (
            guild_id INTEGER PRIMARY KEY,
            data TEXT NOT NULL DEFAULT '{}'
        )""",
    ),
    (
        """CREATE TABLE games (
            id INTEGER PRIMARY KEY,
            guild_id INTEGER,
            channel_id INTEGER NOT NULL,
            kind TEXT NOT NULL,
            status TEXT NOT NULL CHECK (status IN ('lobby', 'active', 'finished', 'abandoned')),
            host_id INTEGER NOT NULL,
            options TEXT NOT NULL,
            seats TEXT NOT NULL,
            state TEXT,
            version INTEGER NOT NULL DEFAULT 0,
            board_message_id INTEGER,
            board_posted_at REAL,
            deadlines TEXT NOT NULL DEFAULT '[]',
            next_deadline REAL,
            created_at REAL NOT NULL,
            updated_at REAL NOT NULL,
            winners TEXT,
            last_event TEXT
        )""",
        # At most one lobby-or-active game per channel; finished games stay for history.
        "CREATE UNIQUE INDEX games_one_live_per_channel ON games(channel_id) WHERE status IN ('lobby', 'active')",
        "CREATE INDEX games_next_deadline ON games(next_deadline) WHERE next_deadline IS NOT NULL",
        "CREATE INDEX games_guild_updated ON games(guild_id, updated_at)",
        """CREATE TABLE game_events (
            game_id INTEGER NOT NULL REFERENCES games(id),
            seq INTEGER NOT NULL,
            actor TEXT,
            action TEXT NOT NULL,
            dice TEXT NOT NULL,
            events TEXT NOT NULL,
            at REAL NOT NULL,
            PRIMARY KEY (game_id, seq)
        ) WITHOUT ROWID""",
        # A game's row carries its latest log entry, and this trigger appends it to the log as part of
        # the same UPDATE: an action and its log entry are written by one statement, atomically, in
        # one trip to the database thread (an explicit transaction would take four).
        """CREATE TRIGGER games_append_event AFTER UPDATE OF version ON games
        WHEN NEW.last_event IS NOT NULL AND NEW.version <> OLD.version
        BEGIN
            INSERT INTO game_events (game_id, seq, actor, action, dice, events, at) VALUES (
                NEW.id,
                NEW.version,
                json_extract(NEW.last_event, '$.actor'),
                json_extract(NEW.last_event, '$.action'),
                json_extract(NEW.last_event, '$.dice'),
                json_extract(NEW.last_event, '$.events'),
                json_extract(NEW.last_event, '$.at')
            );
        END""",
    ),
    # 3: games become sessions (table games, scoresheets, campaigns): a scope, roles, record
    # versions, and the messages that show each view.
    (
        "ALTER TABLE games RENAME TO sessions",
        "ALTER TABLE game_events RENAME TO session_events",
        "ALTER TABLE session_events RENAME COLUMN game_id TO session_id",
        "DROP TRIGGER games_append_event",
        "DROP INDEX games_one_live_per_channel",
        "DROP INDEX games_next_deadline",
        "DROP INDEX games_guild_updated",
        "ALTER TABLE sessions ADD COLUMN scope TEXT NOT NULL DEFAULT 'table'",
        "ALTER TABLE sessions ADD COLUMN name TEXT",
        "ALTER TABLE sessions ADD COLUMN roles TEXT NOT NULL DEFAULT '{}'",
        "ALTER TABLE sessions ADD COLUMN records TEXT NOT NULL DEFAULT '{}'",
        # Which message shows each view, beside the version it shows: written apart from versions.
        "ALTER TABLE sessions ADD COLUMN boards TEXT NOT NULL DEFAULT '{}'",
        """UPDATE sessions SET boards = json_object('board', json_object(
            'view', 'board', 'channel_id', channel_id, 'message_id', board_message_id, 'shown_version', version,
            'posted_at', board_posted_at, 'asked', json('[]'), 'first_seq', version, 'status', status))
        WHERE board_message_id IS NOT NULL AND board_posted_at IS NOT NULL""",
        "ALTER TABLE sessions DROP COLUMN board_message_id",
        "ALTER TABLE sessions DROP COLUMN board_posted_at",
        # Deadlines now carry their length, so one can start when its decision is first shown.
        """UPDATE sessions SET deadlines = (
            SELECT json_group_array(json_set(value, '$.seconds', 0)) FROM json_each(sessions.deadlines)
        ) WHERE deadlines <> '[]'""",
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
        """CREATE TRIGGER sessions_append_event AFTER UPDATE OF version ON sessions
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
    ),
)
