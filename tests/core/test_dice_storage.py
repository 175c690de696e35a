"""Storage around /roll on both backends: saved rolls, dice boards, secret rolls, luck statistics counted at commit
time, forgetting, the backfill of older logs; and every query of bot/storage/dice.py on an index (EXPLAIN)."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from bot.models import LogEntry, News, Seat, Session, Status, Told
from bot.registry import GameKind
from bot.storage import PostgresStore, SqliteStore, Store
from bot.storage.dialect import POSTGRESQL, SQLITE
from bot.storage.dice import (
    BOARD_DRAWING,
    SECRET_DRAWING,
    BoardButton,
    DiceBoard,
    LuckFilter,
    SavedRoll,
    SecretRoll,
    commit_counts,
)
from bot.storage.luck import ROLL_KIND, Where, tally
from bot.storage.migrations import SQLITE_MIGRATIONS
from bot.storage.pushes import PUSH_DRAWING, PUSHABLE_KEPT_S, PushableRoll
from bot.storage.sql import bind
from rules.vices.engine import ENGINE as VICES_ENGINE
from tests.databases import Database
from tests.secret.engine import SecretEngine
from tests.testgame.engine import RaceEngine

DAY = 86_400.0


@pytest.fixture
async def db(database: Database) -> AsyncIterator[Store]:
    store = database.store()
    await store.open()
    yield store
    await store.close()


def table(guild_id: int = 1) -> Session:
    return Session(
        guild_id=guild_id,
        channel_id=50,
        kind="race",
        status=Status.ACTIVE,
        host_id=7,
        seats=[Seat(player="P1", user_id=7, name="A"), Seat(player="P2", user_id=None, name="Bot", computer=True)],
    )


RACE = GameKind(RaceEngine())
"""The sessions' game: it says who rolled each die (``Rollers``: each roll is the roller's)."""


def no_kind(name: str) -> GameKind | None:
    """The backfill's game kinds when no game is loaded."""
    return None


def race(name: str) -> GameKind | None:
    """The backfill's game kinds with the race loaded."""
    return RACE if name == "race" else None


def entry(seq: int, actor: str, faces: list[int], how: str = "player", at: float = 10 * DAY) -> LogEntry:
    """``actor``'s rolls of a d6, as the race logs them."""
    dice = [{"die": "d6", "sides": 6, "value": f} for f in faces]
    events = [{"type": "rolled", "player": actor, "value": f} for f in faces]
    return LogEntry(seq=seq, actor=actor, action={"kind": "act", "how": how}, dice=dice, events=events, at=at)


async def test_saved_rolls_by_scope_and_name(db: Store) -> None:
    roll = SavedRoll("member", 7, "Attack", "1d20+5", created_by=7, updated_at=1.0)
    assert await db.put_saved_roll(roll, new=True)
    assert not await db.put_saved_roll(SavedRoll("member", 7, "ATTACK", "1d20", created_by=7), new=True)
    assert await db.put_saved_roll(SavedRoll("channel", 50, "attack", "1d20+2", guild_id=1, created_by=7), new=True)
    assert (await db.saved_roll("member", 7, "attack")) == roll
    assert [r.name for r in await db.saved_rolls("member", 7)] == ["Attack"]
    assert await db.saved_in_guild(1) == 1
    assert await db.put_saved_roll(SavedRoll("member", 7, "attack", "1d20+6", created_by=7, updated_at=2.0), new=False)
    saved = await db.saved_roll("member", 7, "Attack")
    assert saved is not None and saved.expression == "1d20+6"
    assert await db.delete_saved_roll("member", 7, "ATTACK")
    assert not await db.delete_saved_roll("member", 7, "attack")


async def test_boards_and_secrets_write_what_they_show_with_them(db: Store) -> None:
    board, posted = await db.create_dice_board(
        DiceBoard(0, 50, 1, 7, "member", 7, False, (BoardButton("attack", "Attack ⚔️"),), created_at=1.0)
    )
    assert board.id > 0
    assert posted.id > 0 and posted.channel_id == 50 and posted.told == [Told(draw=BOARD_DRAWING, ref=board.id)]
    await db.dice_board_shown(board.id, 99)
    redrawn = await db.update_dice_board(dataclasses.replace(board, hidden=True), 2.0)
    assert redrawn.id > posted.id and redrawn.told == posted.told
    stored = await db.dice_board(board.id)
    assert stored is not None and stored.message_id == 99 and stored.hidden and stored.buttons[0].label == "Attack ⚔️"
    assert [b.id for b in await db.dice_boards_in(50)] == [board.id]
    secret, committed = await db.create_secret(SecretRoll(0, 50, 1, 7, True, "1d20 → 14", "ab", "cd", created_at=5.0))
    assert committed.told == [Told(draw=SECRET_DRAWING, ref=secret.id)]
    await db.secret_shown(secret.id, 123)
    news = News(text="revealed")
    revealed = await db.reveal_secret(secret.id, 6.0, news)
    assert revealed is not None and revealed.told == [Told(draw=SECRET_DRAWING, ref=secret.id), Told(news=news)]
    assert await db.reveal_secret(secret.id, 7.0, news) is None  # once
    again = await db.secret(secret.id)
    assert again is not None and again.message_id == 123 and again.revealed_at == 6.0 and again.for_gm
    # What is still to be shown, oldest first, until it is told.
    assert [o.id for o in await db.outbox()] == [posted.id, redrawn.id, committed.id, revealed.id]
    assert await db.outbox(after=redrawn.id, limit=1) == [committed]
    for told in (posted, redrawn, committed):
        await db.outbox_told(told.id)
    assert await db.outbox() == [revealed]
    await db.outbox_told(revealed.id)
    assert await db.outbox() == []


async def test_a_roll_is_pushed_once_with_its_message_redrawn(db: Store) -> None:
    roll, posted = await db.create_pushable(PushableRoll(0, 50, 1, 7, "yz 2 0 0", (1, 3), "🎲 yz", created_at=5.0))
    assert roll.id > 0 and posted.told == [Told(draw=PUSH_DRAWING, ref=roll.id)]
    await db.pushable_shown(roll.id, 321)
    pushed = await db.push_roll(roll.id, (1, 6), "Pushed: Success", 6.0)
    assert pushed is not None and pushed.told == posted.told and pushed.id > posted.id
    assert await db.push_roll(roll.id, (1, 2), "Pushed: Failure", 7.0) is None  # a second click: once
    stored = await db.pushable(roll.id)
    assert stored is not None and stored.state == (1, 6) and stored.pushed == "Pushed: Success"
    assert stored.message_id == 321 and stored.pushed_at == 6.0 and stored.roller_id == 7
    # A month later, the next roll forgets it.
    await db.create_pushable(PushableRoll(0, 50, 1, 7, "yz 1 0 0", (2,), "🎲 yz", created_at=5.0 + PUSHABLE_KEPT_S + 1))
    assert await db.pushable(roll.id) is None


async def test_an_outbox_id_is_never_used_again(db: Store) -> None:
    """A row's id makes its posts' nonces: a new row must not take the id of one just told (Discord would answer
    its post with the old message)."""
    _, first = await db.create_secret(SecretRoll(0, 50, 1, 7, False, "1d6 → 2", "ab", "cd", created_at=5.0))
    await db.outbox_told(first.id)
    _, second = await db.create_secret(SecretRoll(0, 50, 1, 7, False, "1d6 → 3", "ab", "ce", created_at=6.0))
    assert second.id > first.id


async def test_a_members_game_dice_count_at_commit_and_a_computers_do_not(db: Store) -> None:
    session = await db.create_session(table())
    for seq, (actor, faces, how) in enumerate(
        [("P1", [6, 6, 1], "player"), ("P2", [5, 5], "computer"), ("P1", [2], "timeout")], start=1
    ):
        new = session.successor(float(seq))
        logged = entry(seq, actor, faces, how)
        assert await db.save(new, session.version, logged, commit_counts(new, logged, RACE))
        session = new
    counts = await db.luck_counts(7, LuckFilter())
    assert {(c.sides, c.bin): c.count for c in counts} == {(6, 6): 2, (6, 1): 1, (6, 2): 1}  # a timeout's too
    assert await db.luck_counts(7, LuckFilter(kind="race", guild_id=1, since_day=10)) == counts
    assert await db.luck_counts(7, LuckFilter(since_day=11)) == []
    (streak,) = await db.luck_streaks(7, public_only=True)
    assert (streak.run, streak.best_hot, streak.best_cold) == (-2, 2, 2)


def test_a_game_that_does_not_say_who_rolled_counts_no_die() -> None:
    """Without ``Rollers`` the core can't tell a secret die from one everyone saw: it counts none (it used to credit
    every die of an action to whoever acted, a hand of hidden dice with it)."""
    secret = GameKind(SecretEngine())
    logged = entry(1, "P1", [6, 6, 1])
    assert commit_counts(table(), logged, secret) is None and commit_counts(table(), logged, None) is None


async def test_a_finished_game_counts_its_winner(db: Store) -> None:
    session = await db.create_session(table())
    done = session.successor(1.0, status=Status.FINISHED, winners=["P1"])
    logged = entry(1, "P1", [3])
    assert await db.save(done, session.version, logged, commit_counts(done, logged, None))
    assert [(w.user_id, w.games, w.wins) for w in await db.wins_in_guild(1)] == [(7, 1, 1)]


async def test_private_and_gm_dice_stay_out_of_what_others_see(db: Store) -> None:
    public = tally(Where(7, 1, 50, ROLL_KIND), 0.0, [(20, 20)])
    hidden = tally(Where(7, 1, 50, ROLL_KIND, hidden=True), 0.0, [(20, 1)])
    assert public is not None and hidden is not None
    await db.record_dice([public, hidden])
    assert [c.bin for c in await db.luck_counts(7, LuckFilter())] == [20]
    assert [c.bin for c in await db.luck_counts(7, LuckFilter(public_only=False))] == [1, 20]
    assert [(t.user_id, t.count, t.total) for t in await db.luck_in_guild(1)] == [(7, 1, 20)]


async def test_forget_deletes_statistics_and_leaderboard_choice_is_kept(db: Store) -> None:
    counted = tally(Where(7, 1, 50, ROLL_KIND), 0.0, [(6, 3)])
    assert counted is not None
    await db.record_dice([counted])
    await db.set_leaderboard(7, shown=False)
    await db.forget_luck(7, 5.0)
    assert await db.luck_counts(7, LuckFilter(public_only=False)) == []
    assert await db.luck_in_guild(1) == []
    assert await db.leaderboard_hidden([7, 8]) == {7}
    await db.set_leaderboard(7, shown=True)
    assert await db.leaderboard_hidden([7]) == set()


async def test_big_dice_are_binned_with_exact_sums(db: Store) -> None:
    counted = tally(Where(7, 1, 50, ROLL_KIND), 0.0, [(1000, 1), (1000, 1000), (1000, 999)])
    assert counted is not None
    await db.record_dice([counted])
    counts = await db.luck_counts(7, LuckFilter())
    assert [(c.bin, c.count, c.total) for c in counts] == [(0, 1, 1), (19, 2, 1999)]


async def test_logs_written_before_the_statistics_are_counted_once(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    old = SqliteStore(path)
    await old.open()  # migrate fully, then pretend the statistics step had not run yet when the log was written
    session = await old.create_session(table())
    new = session.successor(1.0)
    await old.conn.execute("DELETE FROM luck_dice")
    await old.conn.execute("DELETE FROM luck_faces")
    await old.save(new, session.version, entry(1, "P1", [4, 4]))  # counted by nobody: the statistics didn't exist
    await old.conn.execute("DELETE FROM luck_dice")
    await old.conn.execute("DELETE FROM luck_faces")
    await old.conn.execute("DELETE FROM luck_streaks")
    await old.conn.execute("DELETE FROM luck_totals")
    await old.conn.execute("INSERT INTO luck_pending (session_id, upto, dice_upto) VALUES (?, 1, 1)", (session.id,))
    assert await old.backfill_luck(old.session, old.log_entries, race) == 1
    assert await old.backfill_luck(old.session, old.log_entries, race) == 0
    assert [(c.bin, c.count) for c in await old.luck_counts(7, LuckFilter())] == [(4, 2)]
    assert len(SQLITE_MIGRATIONS) >= 4
    await old.close()


# -- every query on an index -----------------------------------------------------------------------------


class Recording:
    """Wraps a store's SQL adapter and keeps every statement it ran."""

    def __init__(self, store: Any) -> None:
        self.statements: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = []
        plain, transaction = store._sql, store._sql_transaction
        recording = self

        class Spy:
            def __init__(self, inner: Any) -> None:
                self.inner = inner

            async def fetch(self, sql: str, *params: Any, **named: Any) -> Any:
                recording.statements.append((sql, params, named))
                return await self.inner.fetch(sql, *params, **named)

            async def execute(self, sql: str, *params: Any, **named: Any) -> int:
                recording.statements.append((sql, params, named))
                return int(await self.inner.execute(sql, *params, **named))

        @asynccontextmanager
        async def spied_transaction(**options: Any) -> AsyncIterator[Spy]:
            async with transaction(**options) as sql:
                yield Spy(sql)

        store._sql = lambda: Spy(plain())
        store._sql_transaction = spied_transaction


async def test_every_dice_query_uses_an_index(db: Store) -> None:
    recording = Recording(db)
    await test_saved_rolls_by_scope_and_name(db)
    await test_boards_and_secrets_write_what_they_show_with_them(db)
    await test_a_roll_is_pushed_once_with_its_message_redrawn(db)
    await test_private_and_gm_dice_stay_out_of_what_others_see(db)
    await test_forget_deletes_statistics_and_leaderboard_choice_is_kept(db)
    await db.wins_in_guild(1)
    await db.luck_streaks(7, public_only=False)
    await db.luck_counts(7, LuckFilter(guild_id=1, kind="roll", campaign_id=0, since_day=3))
    await db.luck_turns(7, LuckFilter(guild_id=1, kind="vices", campaign_id=0, since_day=3))
    await db.luck_turns(7, LuckFilter(public_only=False))
    await db.turns_in_guild(1, "vices")
    await db.luck_counts(7, LuckFilter(guild_id=1, channel_id=50))
    await db.backfill_luck(db.session, db.log_entries, no_kind)
    checked = 0
    for sql, params, named in recording.statements:
        verb = sql.lstrip().split()[0].upper()
        if verb == "INSERT" and "SELECT" not in sql.upper():
            continue  # an insert by key: nothing to search
        plan = await _plan(db, sql, params, named)
        assert not _full_scan(db, plan, sql), f"{sql}\n{plan}"
        checked += 1
    assert checked >= 20


async def _plan(db: Store, sql: str, params: tuple[Any, ...], named: dict[str, Any]) -> str:
    if isinstance(db, SqliteStore):
        text, values = bind(SQLITE, sql, params, named)
        rows = await db.conn.execute_fetchall(f"EXPLAIN QUERY PLAN {text}", values)
        return "\n".join(str(row[3]) for row in rows)
    assert isinstance(db, PostgresStore)
    async with db.pool.acquire() as conn, conn.transaction():
        await conn.execute("SET LOCAL enable_seqscan = off")  # empty tables: the planner would scan anyway
        text, values = bind(POSTGRESQL, sql, params, named)
        rows = await conn.fetch(f"EXPLAIN {text}", *values)
        return "\n".join(r[0] for r in rows)


def _full_scan(db: Store, plan: str, sql: str) -> bool:
    if "FROM luck_pending ORDER BY session_id LIMIT" in sql:
        return False  # the backfill walks its queue in key order, a batch at a time (a rowid table in SQLite)
    if isinstance(db, SqliteStore):
        return any(line.startswith("SCAN") and "USING" not in line for line in plan.splitlines())
    return "Seq Scan" in plan


VICES = GameKind(VICES_ENGINE)


def vices_table() -> Session:
    return Session(
        guild_id=1,
        channel_id=50,
        kind="vices",
        status=Status.ACTIVE,
        host_id=7,
        seats=[
            Seat(player="P1", user_id=7, name="A"),
            Seat(player="P2", user_id=8, name="B"),
            Seat(player="P3", user_id=None, name="Bot", computer=True),
        ],
    )


def turn_end(seq: int, how: str = "computer") -> LogEntry:
    """P1's last roll (a d8 alone: 8) while P2 and the computer roll their dice, P1's turn ends on 7 points."""
    events = [
        {
            "type": "rolled",
            "groups": [
                {"player": "P1", "role": "defender", "dice": [{"die": "d8", "value": 8}]},
                {"player": "P2", "role": "attacker", "dice": [{"die": "L.Wrath", "value": 2}]},
                {"player": "P3", "role": "attacker", "dice": [{"die": "N.Envy", "value": 3}]},
            ],
        },
        {"type": "turn_ended", "player": "P1", "turn_score": 7, "abandoned": False},
    ]
    dice = [{"die": "d8", "sides": 8, "value": 8}, {"die": "L.Wrath", "sides": 6, "value": 2}]
    dice.append({"die": "N.Envy", "sides": 20, "value": 3})
    return LogEntry(seq=seq, actor="P3", action={"kind": "act", "how": how}, dice=dice, events=events, at=10 * DAY)


async def test_each_die_counts_for_whoever_rolled_it_and_turns_count_their_luck(db: Store) -> None:
    session = await db.create_session(vices_table())
    new = session.successor(1.0)
    logged = turn_end(1)
    assert await db.save(new, session.version, logged, commit_counts(new, logged, VICES))
    assert [(c.sides, c.bin, c.count) for c in await db.luck_counts(7, LuckFilter())] == [(8, 8, 1)]
    assert [(c.sides, c.bin, c.count) for c in await db.luck_counts(8, LuckFilter())] == [(6, 2, 1)]
    turns = await db.luck_turns(7, LuckFilter(kind="vices", guild_id=1, since_day=10))
    assert turns is not None and (turns.turns, turns.points) == (1, 7)
    assert turns.luck == pytest.approx(3.5) and turns.variance == pytest.approx(63 / 12)
    assert await db.luck_turns(7, LuckFilter(since_day=11)) is None
    assert await db.luck_turns(8, LuckFilter()) is None
    (ranked,) = (await db.turns_in_guild(1, "vices")).items()
    assert ranked[0] == 7 and (ranked[1].turns, ranked[1].points) == (1, 7)
    await db.forget_luck(7, 20 * DAY)
    assert await db.luck_turns(7, LuckFilter(public_only=False)) is None
    assert await db.turns_in_guild(1, "vices") == {}


async def test_logs_counted_before_turns_were_count_their_turns_alone(db: Store) -> None:
    session = await db.create_session(vices_table())
    new = session.successor(1.0)
    logged = turn_end(1)
    dice_only = commit_counts(new, logged, VICES)
    assert dice_only is not None
    dice_only.turns = []  # what an older version counted at commit time: the dice, no turns
    assert await db.save(new, session.version, logged, dice_only)
    await _pending(db, session.id, dice=False)
    assert await db.backfill_luck(db.session, db.log_entries, {"vices": VICES}.get) == 1
    assert await db.backfill_luck(db.session, db.log_entries, {"vices": VICES}.get) == 0
    assert [c.count for c in await db.luck_counts(7, LuckFilter())] == [1]  # not counted twice
    turns = await db.luck_turns(7, LuckFilter())
    assert turns is not None and (turns.turns, turns.points) == (1, 7)


async def _pending(db: Store, session_id: int, *, dice: bool) -> None:
    sql = db._sql()  # type: ignore[attr-defined]
    await sql.execute("INSERT INTO luck_pending (session_id, upto, dice_upto) VALUES (?, 1, ?)", session_id, int(dice))


async def test_migration_8_on_a_database_with_games_counts_their_turns_once(
    database: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A database at schema 7 with a V&V game counted at commit (dice, a finished game's win) and one whose older
    log was still waiting for the backfill: after migration 8 and the backfill, each turn counts once, and no die
    or win counts twice."""
    import bot.storage.postgres as pg
    import bot.storage.sqlite as lite

    monkeypatch.setattr(lite, "SQLITE_MIGRATIONS", lite.SQLITE_MIGRATIONS[:7])
    monkeypatch.setattr(pg, "POSTGRES_MIGRATIONS", pg.POSTGRES_MIGRATIONS[:7])
    old = database.store()
    await old.open()
    counted = await old.create_session(vices_table())
    new = counted.successor(1.0, status=Status.FINISHED, winners=["P1"])
    logged = turn_end(1)
    dice_only = commit_counts(new, logged, VICES)
    assert dice_only is not None and dice_only.wins
    dice_only.turns = []  # schema 7 counted dice and wins at commit, not turns
    assert await old.save(new, counted.version, logged, dice_only)
    waiting = await old.create_session(vices_table().model_copy(update={"channel_id": 51}))
    new = waiting.successor(1.0)
    assert await old.save(new, waiting.version, turn_end(1))  # written before the statistics: not counted
    sql = old._sql()  # type: ignore[attr-defined]
    await sql.execute("INSERT INTO luck_pending (session_id, upto) VALUES (?, 1)", waiting.id)
    # The bot at schema 7 went on with that game before its backfill came to it: the dice counted at commit.
    later, logged = new.successor(2.0), turn_end(2)
    dice_only = commit_counts(later, logged, VICES)
    assert dice_only is not None
    dice_only.turns = []
    assert await old.save(later, new.version, logged, dice_only)
    await old.close()
    monkeypatch.undo()
    store = database.store()
    await store.open()
    try:
        while await store.backfill_luck(store.session, store.log_entries, {"vices": VICES}.get):
            pass
        assert [c.count for c in await store.luck_counts(7, LuckFilter())] == [3]  # one d8 in each turn
        turns = await store.luck_turns(7, LuckFilter())
        assert turns is not None and (turns.turns, turns.points) == (3, 21)
        ranked = await store.turns_in_guild(1, "vices")
        assert (ranked[7].turns, ranked[7].points) == (3, 21)
        assert [(w.user_id, w.games, w.wins) for w in await store.wins_in_guild(1)] == [(7, 1, 1), (8, 1, 0)]
    finally:
        await store.close()
