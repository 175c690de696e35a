"""Migration 2: Games."""

from __future__ import annotations

from bot.storage.dialect import EMPTY_LIST, Both, Dialect, Step
from bot.storage.migrations.triggers import PG_APPEND_EVENT, PG_TRIGGER


def steps(d: Dialect) -> tuple[Step | Both, ...]:
    """The migration's statements, in ``d``'s SQL."""
    return (
        f"""CREATE TABLE games (
            id {d.key},
            guild_id {d.int},
            channel_id {d.int} NOT NULL,
            kind TEXT NOT NULL,
            status TEXT NOT NULL CHECK (status IN ('lobby', 'active', 'finished', 'abandoned')),
            host_id {d.int} NOT NULL,
            options {d.json} NOT NULL,
            seats {d.json} NOT NULL,
            state {d.json},
            version {d.int} NOT NULL DEFAULT 0,
            board_message_id {d.int},
            board_posted_at {d.real},
            deadlines {d.json} NOT NULL DEFAULT {EMPTY_LIST},
            next_deadline {d.real},
            created_at {d.real} NOT NULL,
            updated_at {d.real} NOT NULL,
            winners {d.json},
            last_event {d.json}
        )""",
        # At most one lobby-or-active game per channel; finished games stay for history.
        "CREATE UNIQUE INDEX games_one_live_per_channel ON games(channel_id) WHERE status IN ('lobby', 'active')",
        "CREATE INDEX games_next_deadline ON games(next_deadline) WHERE next_deadline IS NOT NULL",
        "CREATE INDEX games_guild_updated ON games(guild_id, updated_at)",
        f"""CREATE TABLE game_events (
            game_id {d.int} NOT NULL REFERENCES games(id),
            seq {d.int} NOT NULL,
            actor TEXT,
            action {d.json} NOT NULL,
            dice {d.json} NOT NULL,
            events {d.json} NOT NULL,
            at {d.real} NOT NULL,
            PRIMARY KEY (game_id, seq)
        ){d.without_rowid}""",
        # A game's row carries its latest log entry, and this trigger appends it to the log as part of
        # the same UPDATE: an action and its log entry are written by one statement, atomically, in
        # one trip to the database (an explicit transaction would take four).
        Both(
            sqlite="""CREATE TRIGGER games_append_event AFTER UPDATE OF version ON games
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
            postgresql=PG_APPEND_EVENT.format(name="games_append_event", events="game_events", owner="game_id"),
        ),
        Both(sqlite="", postgresql=PG_TRIGGER.format(name="games_append_event", table="games")),
    )
