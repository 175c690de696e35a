"""Migration 4: news, the messages a commit must show besides its boards, logged with the entry (a transactional
outbox); ``news_from`` marks a session whose news may not have reached its channel yet."""

from __future__ import annotations

from bot.storage.dialect import Both, Dialect, Step
from bot.storage.migrations.triggers import PG_APPEND_EVENT_WITH_NEWS


def steps(d: Dialect) -> tuple[Step | Both, ...]:
    """The migration's statements, in ``d``'s SQL."""
    return (
        f"ALTER TABLE session_events ADD COLUMN news {d.json}",
        f"ALTER TABLE sessions ADD COLUMN news_from {d.int}",
        Both(
            sqlite="DROP TRIGGER sessions_append_event",
            postgresql=PG_APPEND_EVENT_WITH_NEWS,
        ),
        Both(
            sqlite="""CREATE TRIGGER sessions_append_event AFTER UPDATE OF version ON sessions
        WHEN NEW.last_event IS NOT NULL AND NEW.version <> OLD.version
        BEGIN
            INSERT INTO session_events (session_id, seq, actor, action, dice, events, at, news) VALUES (
                NEW.id,
                NEW.version,
                json_extract(NEW.last_event, '$.actor'),
                json_extract(NEW.last_event, '$.action'),
                json_extract(NEW.last_event, '$.dice'),
                json_extract(NEW.last_event, '$.events'),
                json_extract(NEW.last_event, '$.at'),
                json_extract(NEW.last_event, '$.news')
            );
        END""",
            postgresql="",
        ),
    )
