"""The luck statistics' journal (``bot.storage.luck_journal``) on both backends: a commit's dice are one journal row
(on PostgreSQL written by the commit's own statement), concurrent clicks of one server never wait for each other on
the statistics (they used to deadlock on PostgreSQL: 60 clicks at once answered at 15 a second, some with an
internal error), and every read folds first, so it reads what it read before, streaks in the order rolled."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.models import LogEntry, Seat, Session, Status
from bot.registry import GameKind
from bot.storage import PostgresStore, Store
from bot.storage.dice import LuckFilter, commit_counts
from bot.storage.luck import ROLL_KIND, Where, tally
from bot.storage.luck_journal import LuckBatch, apply, decode, encode
from tests.databases import Database
from tests.testgame.engine import RaceEngine

DAY = 86_400.0
RACE = GameKind(RaceEngine())


@pytest.fixture
async def db(database: Database) -> AsyncIterator[Store]:
    store = database.store()
    await store.open()
    try:
        yield store
    finally:
        await store.close()


def game(channel_id: int) -> Session:
    return Session(
        guild_id=1,
        channel_id=channel_id,
        kind="race",
        status=Status.ACTIVE,
        host_id=7,
        seats=[Seat(player="P1", user_id=7, name="A"), Seat(player="P2", user_id=8, name="B")],
        state_json='{"n": 1}',
    )


def rolled(seq: int, actor: str, faces: list[int]) -> LogEntry:
    """``actor``'s rolls of a d6, as the race logs them."""
    dice = [{"die": "d6", "sides": 6, "value": f} for f in faces]
    events = [{"type": "rolled", "player": actor, "value": f} for f in faces]
    return LogEntry(
        seq=seq, actor=actor, action={"kind": "act", "how": "player"}, dice=dice, events=events, at=10 * DAY
    )


async def journal_rows(db: Store) -> int:
    rows = await db._sql().fetch("SELECT COUNT(*) AS n FROM luck_journal")  # type: ignore[attr-defined]
    return int(rows[0]["n"])


async def test_a_batch_reads_back_as_it_was_written() -> None:
    where = Where(7, 1, 50, "vices", campaign_id=3, hidden=True)
    dice = tally(where, 10 * DAY, [(6, 2), (6, 6), (1000, 999)])
    assert dice is not None
    counts = commit_counts(game(50).successor(1.0, status=Status.FINISHED, winners=["P1"]), rolled(1, "P1", [4]), RACE)
    assert counts is not None
    batch = LuckBatch(tallies=[dice, *counts.tallies], wins=counts.wins, turns=counts.turns)
    assert decode(encode(batch)) == batch


async def test_concurrent_clicks_of_one_server_all_commit_and_all_count(db: Store) -> None:
    """Forty games of one server, the same two members, a die each click, all at once, five times over: every save
    commits (none waits on another's statistics rows, none deadlocks), and the counts are the sum."""
    sessions = [await db.create_session(game(100 + n)) for n in range(40)]

    async def click(session: Session, seq: int) -> Session:
        new = session.successor(float(seq))
        logged = rolled(seq, "P1" if seq % 2 else "P2", [seq % 6 + 1, 6])
        assert await db.save(new, session.version, logged, commit_counts(new, logged, RACE))
        return new

    for seq in range(1, 6):
        sessions = list(await asyncio.gather(*(click(s, seq) for s in sessions)))
    assert await journal_rows(db) == 200  # nothing folded yet: the clicks wrote only their own rows
    members = {t.user_id: t.count for t in await db.luck_in_guild(1)}
    assert members == {7: 3 * 40 * 2, 8: 2 * 40 * 2}
    assert await journal_rows(db) == 0
    sixes = [c.count for c in await db.luck_counts(7, LuckFilter()) if c.bin == 6]
    assert sixes == [3 * 40 + 40]  # member 7 rolled seq 1, 3, 5: a 2, a 4 and a 6, each with a 6


async def test_streaks_run_on_in_the_order_rolled_across_folds(db: Store) -> None:
    where = Where(7, 1, 50, ROLL_KIND)
    for faces in ([6, 5], [4], [1, 2, 1], [6]):
        counted = tally(where, 0.0, [(6, f) for f in faces])
        assert counted is not None
        await db.record_dice([counted])
        if faces == [4]:
            assert await db.fold_luck() == 2
    (streak,) = await db.luck_streaks(7, public_only=True)
    assert (streak.run, streak.best_hot, streak.best_cold) == (1, 3, 3)


async def test_forgetting_counts_what_was_rolled_before_and_deletes_it(db: Store) -> None:
    before = tally(Where(7, 1, 50, ROLL_KIND), 0.0, [(6, 3)])
    assert before is not None
    await db.record_dice([before])
    await db.forget_luck(7, 5.0)
    assert await journal_rows(db) == 0
    after = tally(Where(7, 1, 50, ROLL_KIND), 6.0, [(6, 5)])
    assert after is not None
    await db.record_dice([after])
    assert [(c.bin, c.count) for c in await db.luck_counts(7, LuckFilter())] == [(5, 1)]


@pytest.mark.parametrize("database", ["postgresql"], indirect=True)  # SQLite runs in-process: no trip to save
async def test_a_click_with_dice_is_one_statement_on_postgresql(db: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """The save, its log entry (the trigger) and its journal row: one statement, one trip to the server."""
    assert isinstance(db, PostgresStore)
    session = await db.create_session(game(50))
    sent: list[str] = []
    pool = db.pool

    class Counting:
        async def execute(self, sql: str, *args: Any) -> str:
            sent.append(sql)
            return str(await pool.execute(sql, *args))

        def acquire(self) -> Any:
            sent.append("acquire")
            return pool.acquire()

    monkeypatch.setattr(db, "_pool", Counting())
    new = session.successor(1.0)
    logged = rolled(1, "P1", [6, 2])
    assert await db.save(new, session.version, logged, commit_counts(new, logged, RACE))
    assert len(sent) == 1 and "luck_journal" in sent[0]
    monkeypatch.undo()
    stale, late = new.successor(2.0), rolled(2, "P1", [6])
    assert not await db.save(stale, session.version, late, commit_counts(stale, late, RACE))  # refused
    assert await journal_rows(db) == 1  # and its dice not counted


async def test_logs_written_before_the_journal_fold_into_what_was_counted(db: Store) -> None:
    """Rows counted straight into the statistics (as before the journal) and journal rows add up."""
    first = tally(Where(7, 1, 50, ROLL_KIND), 0.0, [(6, 6)])
    second = tally(Where(7, 1, 50, ROLL_KIND), 0.0, [(6, 6), (6, 1)])
    assert first is not None and second is not None
    async with db._sql_transaction() as sql:  # type: ignore[attr-defined]
        await apply(sql, [LuckBatch([first])])
    await db.record_dice([second])
    assert [(c.bin, c.count) for c in await db.luck_counts(7, LuckFilter())] == [(1, 1), (6, 2)]
    (streak,) = await db.luck_streaks(7, public_only=True)
    assert (streak.run, streak.best_hot, streak.best_cold) == (-1, 2, 1)
