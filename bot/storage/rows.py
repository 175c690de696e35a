"""How sessions and log entries become rows and back: shared by every backend (the columns are the same)."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any, Protocol

from bot.models import Deadline, LogEntry, Session
from bot.storage.codec import decode_entry, encode_entry

COLUMNS = (
    "s.id, s.guild_id, s.channel_id, s.kind, s.scope, s.name, s.status, s.host_id, s.roles, s.options, s.seats, "
    "s.state AS state_json, s.version, s.records, s.deadlines, s.created_at, s.updated_at, s.winners, s.boards, "
    "s.news_from, s.drawn, s.computer_due, s.chapter, s.undo_from, s.log_cleared_at"
)
SELECT = f"SELECT {COLUMNS} FROM sessions s"
LIVE = "s.status IN ('lobby', 'active')"
ENDED = "s.status IN ('finished', 'abandoned')"
DAY_S = 86_400
# Stored as JSON and read back as text with the row; the state stays text until the service needs it.
JSON_FIELDS = ("roles", "options", "seats", "records", "deadlines", "winners", "boards")
EVENT_COLUMNS = "seq, entry"
LEGACY_EVENT_COLUMNS = "session_id, seq, actor, action, dice, events, at, news"
"""The log's columns up to migration 6: JSON for each part of an entry."""


def shard_of(alias: str) -> str:
    """The shard of the server of the row ``alias`` names, before ``% count`` (bot.shards.shard_of in SQL; a DM is
    shard 0)."""
    return f"(COALESCE({alias}.guild_id, 0) >> 22)"


class Row(Protocol):
    """A database row readable by column name (sqlite3.Row, asyncpg.Record)."""

    def keys(self) -> Iterable[str]: ...

    def __getitem__(self, key: str) -> Any: ...


def session_from_row(row: Row) -> Session:
    """A session from a row of ``SELECT``."""
    data = {key: row[key] for key in row.keys()}  # noqa: SIM118 (a sqlite3.Row iterates its values)
    for key in JSON_FIELDS:
        if data[key] is not None:
            data[key] = json.loads(data[key])
    return Session.model_validate(data)


def encoded_entry(entry: LogEntry, version: int) -> bytes:
    """A log entry as stored (``bot.storage.codec``), checked to be the entry of session version ``version``."""
    if entry.seq != version:
        raise ValueError(f"log entry {entry.seq} does not match session version {version}")
    return encode_entry(entry)


def news_seq(entry: LogEntry | None) -> int | None:
    """The entry's seq if it has news for the channel (a save then marks the session's news pending)."""
    return entry.seq if entry is not None and entry.news else None


def entry_from_row(row: Row) -> LogEntry:
    """A log entry from a row of ``EVENT_COLUMNS``."""
    return decode_entry(row["seq"], row["entry"])


def legacy_entry(row: Row) -> tuple[int, bytes]:
    """A row of ``LEGACY_EVENT_COLUMNS`` as its session id and encoded entry (migration 7)."""
    entry = LogEntry(
        seq=row["seq"],
        actor=row["actor"],
        action=json.loads(row["action"]),
        dice=json.loads(row["dice"]),
        events=json.loads(row["events"]),
        at=row["at"],
        news=json.loads(row["news"]) if row["news"] is not None else [],
    )
    return row["session_id"], encode_entry(entry)


def session_values(session: Session) -> dict[str, Any]:
    """The columns a save writes, by name (JSON as text)."""
    # Boards and drawn are written only by ``shown`` and ``drop_board``, news_from by the SQL of ``save`` and
    # by ``news_delivered``, a log's clearing only by ``clear_old_logs``: a writer's copy may hold older ones.
    data = session.model_dump(mode="json", exclude={"id", "boards", "news_from", "drawn", "log_cleared_at"})
    for key in JSON_FIELDS:
        if data.get(key) is not None:
            data[key] = json.dumps(data[key], separators=(",", ":"))
    data["state"] = data.pop("state_json")
    data["next_deadline"] = session.next_deadline
    return data


def deadline_values(deadlines: list[Deadline]) -> tuple[str, float | None]:
    """Deadlines as JSON text, and the soonest moment among them (the ``next_deadline`` column)."""
    text = json.dumps([d.model_dump(mode="json") for d in deadlines], separators=(",", ":"))
    moments = [m for d in deadlines for m in (d.at, d.remind_at) if m is not None]
    return text, min(moments, default=None)
