"""What ``python -m bot.restore`` reads and changes in a database it puts in place (both backends).

Channels still show what happened after the backup was made: boards drawn at versions the restored database
never reached, buttons made on them, posts of moves it doesn't have. So each live session is marked restored:

- every view is marked as drawn at no version, so the bot redraws it at startup (``Store.attention``) and the
  channel shows the game as restored;
- the time of the restore is kept (``Session.restored_at``): a control on a message drawn before it is out of
  date whatever version it names (the versions after the backup are made again, by other moves);
- a game's turn clocks start again when its board is redrawn (a decision nobody has been shown doesn't time
  out); a lobby keeps its closing time.

None of this changes what happened: no version, state or log entry is written.
"""

from __future__ import annotations

import json

from bot.models import RESTORED_AT, Session, Status
from bot.storage.postgres import PostgresStore
from bot.storage.queries import SessionTables
from bot.storage.rows import LIVE, deadline_values

BATCH = 500
"""Live sessions read at once."""
NOT_DRAWN = -1
"""A view's ``shown_version`` (and a session's ``drawn``) below every version: drawn at none of them."""


async def live_ids(store: SessionTables, *, after: int = 0, limit: int = BATCH) -> list[int]:
    """The ids after ``after`` (at most ``limit``, in order) of the lobbies and sessions in progress."""
    rows = await store._sql().fetch(
        f"SELECT s.id FROM sessions s WHERE {LIVE} AND s.id > :after ORDER BY s.id LIMIT :limit",
        after=after,
        limit=limit,
    )
    return [int(r["id"]) for r in rows]


def restored(session: Session, at: float) -> Session:
    """``session`` as the restore leaves it (see the module's docstring); not a new version."""
    new = session.clone()
    new.options = {**session.options, RESTORED_AT: at}
    new.boards = {view: board.model_copy(update={"shown_version": NOT_DRAWN}) for view, board in new.boards.items()}
    new.drawn = NOT_DRAWN
    if session.status is Status.ACTIVE:
        unstarted = {"at": None, "remind_at": None}
        new.deadlines = [d.model_copy(update=unstarted) if d.expires else d for d in new.deadlines]
    return new


async def mark_restored(store: SessionTables, session: Session, at: float) -> None:
    """Store ``restored(session, at)`` if the session is still at its version."""
    new = restored(session, at)
    deadlines, moment = deadline_values(new.deadlines)
    data = new.model_dump(mode="json", include={"options", "boards"})
    await store._sql().execute(
        "UPDATE sessions SET options = :options::jsonb, boards = :boards::jsonb, deadlines = :deadlines::jsonb, "
        "next_deadline = :moment, drawn = :drawn WHERE id = :id AND version = :version",
        options=json.dumps(data["options"], separators=(",", ":")),
        boards=json.dumps(data["boards"], separators=(",", ":")),
        deadlines=deadlines,
        moment=moment,
        drawn=NOT_DRAWN,
        id=session.id,
        version=session.version,
    )
    store.cache.forget(session.id)


async def mark_all_restored(store: SessionTables, at: float) -> int:
    """Mark every live session restored at ``at`` (a batch at a time); how many."""
    marked, after = 0, 0
    while ids := await live_ids(store, after=after):
        for session_id in ids:
            session = await store.session(session_id)
            if session is not None:
                await mark_restored(store, session, at)
                marked += 1
        after = ids[-1]
    return marked


async def other_clients(store: PostgresStore) -> int:
    """How many other connections the PostgreSQL database has (a bot running on it holds some)."""
    count = await store.pool.fetchval(
        "SELECT COUNT(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() "
        "AND backend_type = 'client backend'"  # not autovacuum, busy after a pg_restore
    )
    return int(count)
