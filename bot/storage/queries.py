"""The queries of sessions, their logs and server settings, each written once for both backends (``bot.storage.sql``
says how a text is rendered for each; ``Both`` pairs stand where the two can't say it alike).

A backend provides its connections (``_sql``, ``_sql_transaction``) and what its driver raises for a unique
index's refusal; :class:`SessionTables` does the rest, the dice tables' queries included (``DiceTables``).
Sessions read or written are kept in ``bot.storage.cache`` (correctness never depends on it).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from typing import Any

from bot.models import Board, Deadline, GuildSettings, LogEntry, Scope, Session, Status
from bot.shards import ALL, Shards
from bot.storage.base import ATTENTION_BATCH, DUE_BATCH, Census, Duplicate
from bot.storage.cache import SessionCache
from bot.storage.conditions import ATTENTION
from bot.storage.dialect import POSTGRESQL, Both, Dialect
from bot.storage.dice import CommitCounts, DiceTables
from bot.storage.luck_journal import encode
from bot.storage.ratings import RatingsMoved, RatingTables
from bot.storage.rows import (
    DAY_S,
    ENDED,
    EVENT_COLUMNS,
    LEGACY_EVENT_COLUMNS,
    LIVE,
    SELECT,
    deadline_values,
    encoded_entry,
    entry_from_row,
    legacy_entry,
    news_seq,
    session_from_row,
    session_values,
)
from bot.storage.sql import Sql, any_of, owned
from bot.storage.writes import Tells, writes

BATCH = 2_000
"""Rows a migration's conversion holds at once."""


def view_path(view: str) -> str:
    """The JSON path of a view in the ``boards`` column, for SQLite's JSON functions (a view is a record key such
    as ``troupe:123``)."""
    if '"' in view:
        raise ValueError(f"a view name can't hold a double quote: {view!r}")
    return f'$."{view}"'


async def legacy_log(sql: Sql) -> AsyncIterator[list[tuple[int, int, bytes]]]:
    """Migration 7's conversion, read: the log's JSON rows as (session id, seq, encoded entry), ``BATCH`` at a time
    (a big log never sits in memory)."""
    after: tuple[int, int] = (-1, -1)
    while rows := await sql.fetch(
        f"SELECT {LEGACY_EVENT_COLUMNS} FROM session_events WHERE (session_id, seq) > (:session, :seq) "
        "ORDER BY session_id, seq LIMIT :batch",
        session=after[0],
        seq=after[1],
        batch=BATCH,
    ):
        yield [(sid, row["seq"], entry) for row in rows for sid, entry in [legacy_entry(row)]]
        after = (rows[-1]["session_id"], rows[-1]["seq"])


class SessionTables(DiceTables, RatingTables):
    """Every query of ``Store``, for a backend that provides ``_sql()`` (a statement on its own, committed by
    itself) and ``_sql_transaction()``.

    The sessions it returns are shared, not copied: treat them as read-only and make changes on
    ``Session.successor()`` (or ``clone()``), as the service does.
    """

    dialect: Dialect
    duplicate: type[Exception]
    """What the driver raises when a unique index refuses a row (a live session where there is one)."""
    cache: SessionCache

    # -- sessions ------------------------------------------------------------------------------

    @writes(Tells.OUTBOX)
    async def create_session(self, session: Session, entry: LogEntry | None = None) -> Session:
        values = session_values(session)
        values["news_from"] = news_seq(entry)
        columns = ", ".join(values)
        marks = ", ".join(f":{k}" for k in values)
        try:
            async with self._sql_transaction() as sql:
                rows = await sql.fetch(f"INSERT INTO sessions ({columns}) VALUES ({marks}) RETURNING id", **values)
                session_id = int(rows[0]["id"])
                if entry is not None:
                    await sql.execute(
                        "INSERT INTO session_events (session_id, seq, chapter, entry) VALUES (?, ?, ?, ?)",
                        session_id,
                        entry.seq,
                        session.chapter,
                        encoded_entry(entry, session.version),
                    )
        except self.duplicate as exc:
            raise Duplicate from exc
        created = session.model_copy(update={"id": session_id, "news_from": values["news_from"]})
        self.cache.keep(created)
        return created

    @writes(Tells.OUTBOX)
    async def save(
        self,
        session: Session,
        expected_version: int,
        entry: LogEntry | None = None,
        counts: CommitCounts | None = None,
    ) -> bool:
        # One UPDATE statement: the sessions_append_entry trigger writes the log entry in the same
        # statement, atomically, in one trip to the database.
        values = session_values(session)
        values["last_entry"] = None if entry is None else encoded_entry(entry, session.version)
        assignments = ", ".join(f"{k} = :{k}" for k in values)
        news = news_seq(entry)
        update = (
            f"UPDATE sessions SET {assignments}, news_from = COALESCE(news_from, :news::bigint) "
            "WHERE id = :id AND version = :expected"
        )
        params = {**values, "news": news, "id": session.id, "expected": expected_version}
        if counts is not None and not (counts.ratings or counts.ratings_pending) and self.dialect == POSTGRESQL:
            # Dice a member rolled (or a game's finish) count in the luck statistics, atomically with the change: its
            # journal row is inserted by the same statement, one trip to the server.
            journal = f"WITH saved AS ({update} RETURNING id) INSERT INTO luck_journal (counts) SELECT :c FROM saved"
            changed = await self._sql().execute(journal, **params, c=encode(counts))
        elif counts is not None:
            # A finished game's ratings are written in the same transaction, if each is as it was read.
            try:
                async with self._sql_transaction(quick=True) as sql:
                    changed = await sql.execute(update, **params)
                    if changed == 1:
                        await self.count_commit(sql, counts)
            except RatingsMoved:
                changed = 0  # rolled back: retried on fresh ratings, like a commit another process beat
        else:
            changed = await self._sql().execute(update, **params)
        if changed != 1:
            self.cache.forget(session.id)
            return False
        self.cache.saved(session, news)
        return True

    async def _one(self, where: str, **params: Any) -> Session | None:
        rows = await self._sql().fetch(f"{SELECT} WHERE {where}", **params)
        return self.cache.read(session_from_row(rows[0])) if rows else None

    async def _many(self, where: str, **params: Any) -> list[Session]:
        return [session_from_row(r) for r in await self._sql().fetch(f"{SELECT} WHERE {where}", **params)]

    async def session(self, session_id: int) -> Session | None:
        return self.cache.get(session_id) or await self._one("s.id = :id", id=session_id)

    async def live_session(self, channel_id: int, scope: Scope) -> Session | None:
        return await self._one(
            f"s.channel_id = :channel AND s.scope = :scope AND s.name IS NULL AND {LIVE}",
            channel=channel_id,
            scope=str(scope),
        )

    async def live_named(self, guild_id: int, name: str) -> Session | None:
        where = f"s.guild_id = :guild AND lower(s.name) = lower(:name) AND {LIVE}"
        return await self._one(where, guild=guild_id, name=name)

    async def live_in_guild(self, guild_id: int, scope: Scope) -> list[Session]:
        where = f"s.guild_id = :guild AND s.scope = :scope AND {LIVE}"
        return await self._many(where, guild=guild_id, scope=str(scope))

    @writes(Tells.BOOKS)
    async def shown(
        self,
        session_id: int,
        board: Board | None,
        deadlines: list[Deadline] | None,
        version: int,
        drawn: int | None = None,
    ) -> None:
        # One statement. A view's message only moves forward (an older drawing finishing late never
        # replaces a newer one); deadlines are stored only if the session is still at ``version``.
        boards = Both(
            sqlite="CASE WHEN :path IS NULL THEN boards "
            "WHEN COALESCE(json_extract(boards, :path || '.shown_version'), -1) <= :shown "
            "THEN json_set(boards, :path, json(:board)) ELSE boards END",
            postgresql="CASE WHEN :view::text IS NULL THEN boards "
            "WHEN COALESCE((boards->:view->>'shown_version')::bigint, -1) <= :shown "
            "THEN jsonb_set(boards, ARRAY[:view::text], :board::jsonb) ELSE boards END",
        )
        text, moment = deadline_values(deadlines) if deadlines is not None else (None, None)
        await self._sql().execute(
            f"UPDATE sessions SET boards = {boards.for_dialect(self.dialect)}, "
            "deadlines = CASE WHEN :deadlines::jsonb IS NOT NULL AND version = :version THEN :deadlines::jsonb "
            "ELSE deadlines END, "
            "next_deadline = CASE WHEN :deadlines::jsonb IS NOT NULL AND version = :version THEN :moment "
            "ELSE next_deadline END, "
            "drawn = CASE WHEN :drawn::bigint IS NOT NULL AND drawn < :drawn THEN :drawn ELSE drawn END "
            "WHERE id = :id",
            view=board.view if board is not None else None,
            path=view_path(board.view) if board is not None else None,
            shown=board.shown_version if board is not None else None,
            board=board.model_dump_json() if board is not None else None,
            deadlines=text,
            moment=moment,
            version=version,
            drawn=drawn,
            id=session_id,
        )
        self.cache.shown(session_id, board, deadlines, version, drawn)

    # A claim, not a change: which process sends a reminder (at most once; one lost to a crash is not sent late).
    @writes(Tells.BOOKS)
    async def claim_reminder(self, session_id: int, version: int, index: int, deadlines: list[Deadline]) -> bool:
        pending = Both(sqlite="json_extract(deadlines, :pending)", postgresql="deadlines->:index::int->>'remind_at'")
        text, moment = deadline_values(deadlines)
        changed = await self._sql().execute(
            "UPDATE sessions SET deadlines = :deadlines::jsonb, next_deadline = :moment "
            f"WHERE id = :id AND version = :version AND {pending.for_dialect(self.dialect)} IS NOT NULL",
            deadlines=text,
            moment=moment,
            id=session_id,
            version=version,
            index=index,
            pending=f"$[{int(index)}].remind_at",
        )
        if changed != 1:
            self.cache.forget(session_id)
            return False
        self.cache.shown(session_id, None, deadlines, version)
        return True

    @writes(Tells.BOOKS)
    async def drop_board(self, session_id: int, view: str, message_id: int) -> None:
        drop = Both(
            sqlite="UPDATE sessions SET boards = json_remove(boards, :path) "
            "WHERE id = :id AND json_extract(boards, :path || '.message_id') = :message",
            postgresql="UPDATE sessions SET boards = boards - :view::text "
            "WHERE id = :id AND (boards->:view::text->>'message_id')::bigint = :message",
        )
        await self._sql().execute(
            drop.for_dialect(self.dialect), view=view, path=view_path(view), id=session_id, message=message_id
        )
        self.cache.board_dropped(session_id, view, message_id)

    @writes(Tells.BOOKS)
    async def news_delivered(self, session_id: int, upto: int) -> None:
        # Entries after ``upto`` may have news of their own (committed meanwhile): they stay pending.
        await self._sql().execute(
            "UPDATE sessions SET news_from = CASE WHEN version > :upto THEN :upto + 1 ELSE NULL END "
            "WHERE id = :id AND news_from IS NOT NULL AND news_from <= :upto",
            upto=upto,
            id=session_id,
        )
        self.cache.news_delivered(session_id, upto)

    async def attention(self, shards: Shards = ALL, *, after: int = 0, limit: int = ATTENTION_BATCH) -> list[int]:
        where, params = owned(self.dialect, shards)
        rows = await self._sql().fetch(
            f"SELECT s.id FROM sessions s WHERE {ATTENTION} AND s.id > :after{where} ORDER BY s.id LIMIT :limit",
            after=after,
            limit=limit,
            **params,
        )
        return [int(r["id"]) for r in rows]

    async def due_sessions(self, now: float, shards: Shards = ALL, *, limit: int = DUE_BATCH) -> list[Session]:
        where, params = owned(self.dialect, shards)
        return await self._many(
            f"s.next_deadline IS NOT NULL AND s.next_deadline <= :now AND {LIVE}{where} "
            "ORDER BY s.next_deadline LIMIT :limit",
            now=now,
            limit=limit,
            **params,
        )

    async def earliest_deadline(self, shards: Shards = ALL) -> float | None:
        where, params = owned(self.dialect, shards)
        rows = await self._sql().fetch(
            "SELECT MIN(s.next_deadline) AS soonest FROM sessions s "
            f"WHERE s.next_deadline IS NOT NULL AND {LIVE}{where}",
            **params,
        )
        value = rows[0]["soonest"] if rows else None
        return None if value is None else float(value)

    async def census(self, now: float, shards: Shards = ALL) -> Census:
        where, params = owned(self.dialect, shards)
        rows = await self._sql().fetch(
            f"SELECT (SELECT COUNT(*) FROM sessions s WHERE {LIVE}{where}) AS live, "
            "(SELECT COUNT(*) FROM sessions s "
            f"WHERE s.next_deadline IS NOT NULL AND s.next_deadline <= :now AND {LIVE}{where}) AS due",
            now=now,
            **params,
        )
        return Census(live=int(rows[0]["live"]), due=int(rows[0]["due"]))

    async def ping(self) -> None:
        await self._sql().fetch("SELECT 1 AS one")

    @writes(Tells.BOOKS)
    async def put_off(self, session_id: int, moment: float) -> None:
        # The next real save of the session sets next_deadline from its deadlines again.
        await self._sql().execute("UPDATE sessions SET next_deadline = ? WHERE id = ?", moment, session_id)
        self.cache.forget(session_id)

    async def history(self, *, guild_id: int | None, channel_id: int | None, limit: int = 10) -> list[Session]:
        where = "s.status IN ('finished', 'abandoned') AND s.scope = 'table'"
        if channel_id is not None:
            where += " AND s.channel_id = :channel"
        elif guild_id is None:  # a DM's: ``IS NOT DISTINCT FROM`` would keep PostgreSQL from using the index
            where += " AND s.guild_id IS NULL"
        else:
            where += " AND s.guild_id = :guild"
        return await self._many(
            f"{where} ORDER BY s.updated_at DESC LIMIT :limit", channel=channel_id, guild=guild_id, limit=limit
        )

    async def log_entries(
        self,
        session_id: int,
        *,
        after: int | None = None,
        last: int | None = None,
        chapters: tuple[int, int] | None = None,
    ) -> list[LogEntry]:
        sql = f"SELECT {EVENT_COLUMNS} FROM session_events WHERE session_id = :id"
        if after is not None:
            sql += " AND seq > :after"
        if chapters is not None:
            sql += " AND chapter BETWEEN :low AND :high"
        sql += " ORDER BY seq"
        if last is not None:
            sql = f"SELECT * FROM ({sql} DESC LIMIT :last) AS tail ORDER BY seq"
        low, high = chapters or (None, None)
        rows = await self._sql().fetch(sql, id=session_id, after=after, low=low, high=high, last=last)
        return [entry_from_row(r) for r in rows]

    async def chaptered(self, session_id: int) -> bool:
        rows = await self._sql().fetch(
            "SELECT chapter IS NOT NULL AS chaptered FROM session_events WHERE session_id = ? ORDER BY seq LIMIT 1",
            session_id,
        )
        return bool(rows) and bool(rows[0]["chaptered"])

    @writes(Tells.BOOKS)
    async def stamp_chapters(self, session_id: int, chapters: Mapping[int, int]) -> None:
        async with self._sql_transaction() as sql:
            await sql.executemany(
                "UPDATE session_events SET chapter = ? WHERE session_id = ? AND seq = ? AND chapter IS NULL",
                [(chapter, session_id, seq) for seq, chapter in chapters.items()],
            )

    async def checkpoint(self, session_id: int) -> tuple[int, str] | None:
        rows = await self._sql().fetch("SELECT seq, state FROM session_checkpoints WHERE session_id = ?", session_id)
        return (int(rows[0]["seq"]), str(rows[0]["state"])) if rows else None

    async def member_language(self, user_id: int) -> str | None:
        rows = await self._sql().fetch("SELECT language FROM member_languages WHERE user_id = ?", user_id)
        return str(rows[0]["language"]) if rows else None

    @writes(Tells.AUTHOR)
    async def set_member_language(self, user_id: int, language: str | None) -> None:
        if language is None:
            await self._sql().execute("DELETE FROM member_languages WHERE user_id = ?", user_id)
            return
        await self._sql().execute(
            "INSERT INTO member_languages (user_id, language) VALUES (?, ?) "
            "ON CONFLICT (user_id) DO UPDATE SET language = excluded.language",
            user_id,
            language,
        )

    @writes(Tells.BOOKS)
    async def clear_old_logs(self, now: float, shards: Shards = ALL, limit: int = 100) -> int:
        where, params = owned(self.dialect, shards)
        days = Both(
            sqlite="json_extract(g.data, '$.keep_logs_days')",
            postgresql="(g.data->>'keep_logs_days')::double precision",
        ).for_dialect(self.dialect)
        kept = (
            f"s.guild_id = g.guild_id AND {ENDED} AND s.log_cleared_at IS NULL "
            f"AND s.updated_at < :now - {days} * {DAY_S}{where}"
        )
        # Each server with a retention setting, then its ended sessions by the index on when they ended, whatever
        # the planner guesses of the tables' sizes: SQLite keeps a CROSS JOIN's order (servers outside);
        # PostgreSQL's LATERAL runs inside that loop (and skips a session another process is clearing).
        due = Both(
            sqlite=f"SELECT s.id FROM guild_settings g CROSS JOIN sessions s WHERE {days} IS NOT NULL AND {kept} "
            "LIMIT :limit",
            postgresql=f"SELECT due.id FROM guild_settings g CROSS JOIN LATERAL (SELECT s.id FROM sessions s "
            f"WHERE {kept} LIMIT :limit FOR UPDATE OF s SKIP LOCKED) AS due WHERE g.data ? 'keep_logs_days' "
            "LIMIT :limit",
        )
        async with self._sql_transaction() as sql:
            ids = [int(r["id"]) for r in await sql.fetch(due.for_dialect(self.dialect), now=now, limit=limit, **params)]
            if ids:
                events, chosen = any_of(self.dialect, "session_id", "ids", ids, "bigint")
                await sql.execute(f"DELETE FROM session_events WHERE {events}", **chosen)
                sessions, chosen = any_of(self.dialect, "id", "ids", ids, "bigint")
                await sql.execute(
                    f"UPDATE sessions SET log_cleared_at = :now, last_entry = NULL WHERE {sessions}", now=now, **chosen
                )
        return len(ids)

    async def open_lobbies(self, guild_id: int, host_id: int) -> int:
        rows = await self._sql().fetch(
            "SELECT COUNT(*) AS n FROM sessions WHERE guild_id = ? AND host_id = ? AND status = ?",
            guild_id,
            host_id,
            str(Status.LOBBY),
        )
        return int(rows[0]["n"])

    # -- guild settings ------------------------------------------------------------------------

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        rows = await self._sql().fetch("SELECT data FROM guild_settings WHERE guild_id = ?", guild_id)
        return GuildSettings.model_validate_json(rows[0]["data"]) if rows else GuildSettings()

    @writes(Tells.AUTHOR)
    async def set_guild_settings(self, guild_id: int, settings: GuildSettings) -> None:
        await self._sql().execute(
            "INSERT INTO guild_settings (guild_id, data) VALUES (?, ?) "
            "ON CONFLICT (guild_id) DO UPDATE SET data = excluded.data",
            guild_id,
            settings.model_dump_json(exclude_defaults=True),
        )
