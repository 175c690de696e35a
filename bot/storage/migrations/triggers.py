"""The triggers' SQL that more than one released migration writes (frozen with them: never edit, add)."""

from __future__ import annotations

from bot.storage.conditions import ENDED

# PostgreSQL's version of the log-append trigger (SQLite's is inline in its migration): a row-level
# function doing the same INSERT from the row's latest entry.
PG_APPEND_EVENT = """CREATE FUNCTION {name}() RETURNS trigger LANGUAGE plpgsql AS $body$
BEGIN
    IF NEW.last_event IS NOT NULL AND NEW.version <> OLD.version THEN
        INSERT INTO {events} ({owner}, seq, actor, action, dice, events, at) VALUES (
            NEW.id,
            NEW.version,
            NEW.last_event->>'actor',
            NEW.last_event->'action',
            NEW.last_event->'dice',
            NEW.last_event->'events',
            (NEW.last_event->>'at')::double precision
        );
    END IF;
    RETURN NULL;
END
$body$"""
# From migration 4 the log entry also carries its news (the messages the channel must be shown).
PG_APPEND_EVENT_WITH_NEWS = """CREATE OR REPLACE FUNCTION sessions_append_event() RETURNS trigger
LANGUAGE plpgsql AS $body$
BEGIN
    IF NEW.last_event IS NOT NULL AND NEW.version <> OLD.version THEN
        INSERT INTO session_events (session_id, seq, actor, action, dice, events, at, news) VALUES (
            NEW.id,
            NEW.version,
            NEW.last_event->>'actor',
            NEW.last_event->'action',
            NEW.last_event->'dice',
            NEW.last_event->'events',
            (NEW.last_event->>'at')::double precision,
            NEW.last_event->'news'
        );
    END IF;
    RETURN NULL;
END
$body$"""
PG_TRIGGER = "CREATE TRIGGER {name} AFTER UPDATE OF version ON {table} FOR EACH ROW EXECUTE FUNCTION {name}()"
# From migration 7 a session's row carries its latest entry encoded (bot.storage.codec) and the chapter it is in;
# one trigger appends the entry with its chapter, keeps the state after an entry undo can't go back past (the
# row's ``undo_from`` names it), and lets that state go when the session ends.
PG_APPEND_ENTRY = f"""CREATE FUNCTION sessions_append_entry() RETURNS trigger LANGUAGE plpgsql AS $body$
BEGIN
    IF NEW.version <> OLD.version THEN
        IF NEW.last_entry IS NOT NULL THEN
            INSERT INTO session_events (session_id, seq, chapter, entry)
            VALUES (NEW.id, NEW.version, NEW.chapter, NEW.last_entry);
        END IF;
        IF NEW.{ENDED} THEN
            DELETE FROM session_checkpoints WHERE session_id = NEW.id;
        ELSIF NEW.undo_from = NEW.version AND NEW.state IS NOT NULL THEN
            INSERT INTO session_checkpoints (session_id, seq, state) VALUES (NEW.id, NEW.version, NEW.state)
            ON CONFLICT (session_id) DO UPDATE SET seq = EXCLUDED.seq, state = EXCLUDED.state;
        END IF;
    END IF;
    RETURN NULL;
END
$body$"""
SQLITE_APPEND_ENTRY = """CREATE TRIGGER sessions_append_entry AFTER UPDATE OF version ON sessions
        WHEN NEW.last_entry IS NOT NULL AND NEW.version <> OLD.version
        BEGIN
            INSERT INTO session_events (session_id, seq, chapter, entry)
            VALUES (NEW.id, NEW.version, NEW.chapter, NEW.last_entry);
        END"""
SQLITE_KEEP_CHECKPOINT = f"""CREATE TRIGGER sessions_keep_checkpoint AFTER UPDATE OF version ON sessions
        WHEN NEW.undo_from = NEW.version AND NEW.version <> OLD.version AND NEW.state IS NOT NULL
            AND NOT NEW.{ENDED}
        BEGIN
            INSERT OR REPLACE INTO session_checkpoints (session_id, seq, state) VALUES (NEW.id, NEW.version, NEW.state);
        END"""
SQLITE_DROP_CHECKPOINT = f"""CREATE TRIGGER sessions_drop_checkpoint AFTER UPDATE OF version ON sessions
        WHEN NEW.{ENDED} AND NEW.version <> OLD.version
        BEGIN
            DELETE FROM session_checkpoints WHERE session_id = NEW.id;
        END"""
