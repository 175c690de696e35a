"""Ratings as stored, on both backends: migration 12 on a database that already has finished games, its recompute,
the leaderboard's order, forgetting, and a finish whose ratings moved meanwhile being refused (then retried)."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bot.models import Actor, Scope, Seat, Session, Status
from bot.ratings import Ledger, RatedGame, Rating, rate, rated_game
from bot.registry import GameKind, Registry
from bot.service import Service
from bot.storage import PostgresStore, SqliteStore, Store
from bot.storage import ratings as ratings_storage
from bot.storage.copy import copy_sqlite_to_postgres
from bot.storage.dice import CommitCounts
from bot.storage.ratings import write_ratings
from rules.crowns.engine import ENGINE as CROWNS
from rules.dice import ScriptedDice
from tests.core.clock import FakeClock
from tests.databases import Database, postgres_database
from tests.testgame.engine import RaceEngine, RaceOptions

KIND = GameKind(CROWNS)
GUILD = 1
RESULTS: list[
    tuple[list[int | None], int]
] = [  # (members at the table, the winner's seat), in the order the games ended
    ([1, 2], 0),
    ([1, 2, 3], 2),
    ([2, 3], 0),
    ([1, 3, None], 2),  # None: a computer seat
    ([1, 2, 3], 1),
    ([3, 1], 0),
]
FORGOT = (3, 3.5)
"""Member 3 deleted their statistics after the fourth game."""


def game(n: int, members: list[int | None], winner: int, *, guild: int | None = GUILD) -> Session:
    seats = [Seat(player=f"P{i}", user_id=m, name=f"M{m}", computer=m is None) for i, m in enumerate(members, start=1)]
    return Session(
        guild_id=guild,
        channel_id=100 + n,
        kind=KIND.kind,
        scope=Scope.TABLE,
        status=Status.FINISHED,
        host_id=members[0] or 0,
        seats=seats,
        winners=[f"P{winner + 1}"],
        version=9,
        created_at=float(n),
        updated_at=float(n),
    )


def rated(session: Session) -> RatedGame | None:
    return rated_game(session, KIND, None)


async def back_to_migration_11(store: Store) -> None:
    """The database as the bot before ratings left it (migrations 12 and 13 undone: the one before them applied)."""
    await store.fold_luck()
    if isinstance(store, SqliteStore):
        await store.conn.execute("DROP TABLE luck_journal")
        await store.conn.execute("DROP TABLE member_languages")
        await store.conn.execute("DROP TABLE ratings")
        await store.conn.execute("DROP TABLE ratings_pending")
        await store.conn.execute("PRAGMA user_version = 11")
        return
    assert isinstance(store, PostgresStore)
    async with store.pool.acquire() as conn:
        await conn.execute("DROP TABLE luck_journal")
        await conn.execute("DROP TABLE member_languages")
        await conn.execute("DROP TABLE ratings")
        await conn.execute("DROP TABLE ratings_pending")
        await conn.execute("UPDATE schema_version SET version = 11")


async def test_migration_12_rates_every_finished_game_once(database: Database) -> None:
    store = database.store()
    await store.open()
    try:
        assert await store.recompute_ratings(rated) == 0  # a new database: nothing to rate
        for n, (members, winner) in enumerate(RESULTS):
            await store.create_session(game(n, members, winner))
        await store.create_session(game(50, [1, 2], 0, guild=None))  # in a DM: never rated
        abandoned = game(51, [1, 2], 0).model_copy(update={"status": Status.ABANDONED})
        await store.create_session(abandoned)
        await store.forget_luck(*FORGOT)
        await back_to_migration_11(store)
    finally:
        await store.close()

    store = database.store()
    await store.open()
    try:
        assert await store.ratings_of(GUILD, KIND.kind, [1, 2, 3]) is None  # the recompute is still to run
        assert await store.recompute_ratings(rated) == len(RESULTS)
        assert await store.recompute_ratings(rated) is None  # once
        ledger = Ledger(forgot=dict([FORGOT]))
        for n, (members, winner) in enumerate(RESULTS):
            expected = rated(game(n, members, winner))
            assert expected is not None
            ledger.play(expected, float(n))
        stored = await store.ratings_of(GUILD, KIND.kind, [1, 2, 3])
        assert stored is not None
        assert stored == {user: rating for (_, _, user), rating in ledger.kept().items()}
        assert stored[3].games == 2 and stored[1].games == 5  # member 3's count starts again after forgetting
        top = await store.rating_top(GUILD, KIND.kind, 10)
        assert [u for u, _ in top] == sorted(stored, key=lambda u: -stored[u].ordinal)
        assert await store.rating_top(GUILD + 1, KIND.kind, 10) == []
        await store.forget_luck(1, 100.0)
        assert 1 not in (await store.ratings_of(GUILD, KIND.kind, [1, 2, 3]) or {})
    finally:
        await store.close()


async def test_a_finish_whose_ratings_moved_is_refused_and_writes_nothing(database: Database) -> None:
    store = database.store()
    await store.open()
    try:
        await store.recompute_ratings(rated)
        live = []
        for n in range(2):
            active = game(n, [1, 2], 0).model_copy(update={"status": Status.ACTIVE, "winners": None, "version": 1})
            live.append(await store.create_session(active))
        before = await store.ratings_of(GUILD, KIND.kind, [1, 2])
        assert before == {}
        for n, session in enumerate(live):  # both computed from the ratings read before either finished
            ended = session.successor(10.0 + n, status=Status.FINISHED, winners=["P1"])
            found = rated(ended)
            assert found is not None
            counts = CommitCounts(ratings=rate(found, before))
            assert await store.save(ended, 1, None, counts) is (n == 0)
        stored = await store.ratings_of(GUILD, KIND.kind, [1, 2])
        assert stored is not None and {r.games for r in stored.values()} == {1}
        second = await store.session(live[1].id)
        assert second is not None and second.status is Status.ACTIVE  # the refused finish was rolled back whole
    finally:
        await store.close()


async def test_a_finish_left_for_the_recompute_commits_only_before_it(database: Database) -> None:
    """While migration 12's recompute is still to run, a game that finishes is left to it (its commit writes the
    marker's row, so the recompute waits for it and reads it); once the recompute has run, such a commit is refused
    and retried, rated on the ratings as recomputed."""
    store = database.store()
    await store.open()
    try:
        live = []
        for n in range(2):
            active = game(n, [1, 2], 0).model_copy(update={"status": Status.ACTIVE, "winners": None, "version": 1})
            live.append(await store.create_session(active))
        first = live[0].successor(10.0, status=Status.FINISHED, winners=["P1"])
        assert await store.ratings_of(GUILD, KIND.kind, [1, 2]) is None
        assert await store.save(first, 1, None, CommitCounts(ratings_pending=True))
        assert await store.recompute_ratings(rated) == 1  # the game committed while pending is rated by it
        second = live[1].successor(11.0, status=Status.FINISHED, winners=["P1"])
        assert not await store.save(second, 1, None, CommitCounts(ratings_pending=True))
        stored = await store.ratings_of(GUILD, KIND.kind, [1, 2])
        assert stored is not None and {r.games for r in stored.values()} == {1}
    finally:
        await store.close()


async def test_the_service_rates_a_finish_and_retries_when_a_rating_moved(database: Database) -> None:
    """A game that finishes through the service writes its ratings and tells them in its last entry's news; when
    another game of the same member is rated between the read and the commit (another process), the commit is
    refused and made again on the ratings as they are now."""
    store = database.store()
    await store.open()
    try:
        await store.recompute_ratings(rated)
        registry = Registry()
        registry.add(GameKind(RaceEngine()))
        service = Service(
            store, registry, FakeClock(), ScriptedDice([1, 6, 6])
        )  # a refused commit is made again: it rolls again
        alice, bob = Actor(user_id=11, name="Alice"), Actor(user_id=12, name="Bob")
        seats = [Seat(user_id=a.user_id, name=a.name) for a in (alice, bob)]
        created = await service.create(
            "race", guild_id=GUILD, channel_id=10, host=alice, options=RaceOptions(target=2), seats=seats
        )
        sid = (await service.start(created.session.id, alice)).session.id
        reads = 0
        real = store.ratings_of

        async def ratings_of(guild_id: int, kind: str, user_ids: Sequence[int]) -> dict[int, Rating] | None:
            nonlocal reads
            reads += 1
            found = await real(guild_id, kind, user_ids)
            if reads == 1:  # meanwhile Bob's other game ends, in another process
                other = rate(RatedGame(GUILD, kind, ((bob.user_id, 1), ("normal", 2))), {})
                async with store._sql_transaction() as sql:  # type: ignore[attr-defined]
                    await write_ratings(sql, other)
            return found

        store.ratings_of = ratings_of  # type: ignore[method-assign]
        applied = await service.act(sid, alice, {"type": "roll"})
        assert applied.session.status is Status.FINISHED and reads == 2
        stored = await real(GUILD, "race", [alice.user_id, bob.user_id])
        assert stored is not None and stored[alice.user_id].games == 1 and stored[bob.user_id].games == 2
        (news,) = [n for n in applied.entries[-1].news if n.text.startswith("📈")]
        assert f"<@{bob.user_id}> " in news.text and f"now {stored[bob.user_id].shown:,}" in news.text
    finally:
        await store.close()


async def test_ratings_move_to_postgresql_with_the_rest(tmp_path: Path) -> None:
    """``python -m bot.migrate``'s copy carries the ratings; a source whose recompute has run leaves none to run."""
    source = SqliteStore(tmp_path / "bot.sqlite3")
    await source.open()
    try:
        for n, (members, winner) in enumerate(RESULTS):
            await source.create_session(game(n, members, winner))
        await source.recompute_ratings(rated)
        expected = await source.ratings_of(GUILD, KIND.kind, [1, 2, 3])
        async with postgres_database() as url:
            target = PostgresStore(url, pool_size=1)
            await target.open()
            try:
                assert await target.ratings_of(GUILD, KIND.kind, [1]) is None  # a new database: to recompute
                await copy_sqlite_to_postgres(source, target)
                assert await target.ratings_of(GUILD, KIND.kind, [1, 2, 3]) == expected
                assert await target.recompute_ratings(rated) is None
            finally:
                await target.close()
    finally:
        await source.close()


async def test_the_recompute_rates_a_game_committed_while_it_read(database: Database) -> None:
    """The recompute reads the games outside any transaction: one that commits meanwhile, even with an earlier moment
    than the last one read (another process's clock), is rated by its last look, in the transaction."""
    store = database.store()
    await store.open()
    try:
        for n, (members, winner) in enumerate(RESULTS):
            await store.create_session(game(n, members, winner))
        late = game(40, [1, 2], 1).model_copy(update={"updated_at": 0.5})
        added = False

        def rated_while_a_game_commits(session: Session) -> RatedGame | None:
            nonlocal added
            if not added and session.updated_at == len(RESULTS) - 1:  # the last game read: one commits now
                added = True
                task = asyncio.get_running_loop().create_task(store.create_session(late))
                pending.append(task)
            return rated(session)

        pending: list[asyncio.Task[Session]] = []
        real_replay = ratings_storage._replay

        async def replay_then_wait(*args: Any) -> float:
            moment = await real_replay(*args)
            await asyncio.gather(*pending)  # the late game is committed before the recompute's transaction
            return moment

        ratings_storage._replay = replay_then_wait  # type: ignore[assignment]
        try:
            assert await store.recompute_ratings(rated_while_a_game_commits) == len(RESULTS) + 1
        finally:
            ratings_storage._replay = real_replay  # type: ignore[assignment]
        stored = await store.ratings_of(GUILD, KIND.kind, [2])
        assert stored is not None and stored[2].games == 5
    finally:
        await store.close()
