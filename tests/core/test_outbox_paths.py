"""Every message a commit produces goes through an outbox, held structurally rather than remembered:

- every method of the store that writes declares what it tells (``bot.storage.writes``): each method is driven
  against a real database and its statements recorded, so one that writes without a declaration (or declares and
  doesn't write) fails; an ``OUTBOX`` method writes its messages in its own transaction, the others never do;
- every commit path of ``bot/`` and ``cogs/`` is found by reading the code (``tests/core/outbox_paths.py``): calls
  of those store methods and of the Service's commit methods (found in ``bot/service.py``), and of any function
  that makes one; after a commit, nothing may be said outside the outbox but a private answer. A new feature that
  commits and then posts, edits a public message or sends a direct message itself fails here.
"""

from __future__ import annotations

import ast
import functools
import textwrap
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from bot.models import News
from bot.storage import SqliteStore, Store
from bot.storage.base import Store as StoreProtocol
from bot.storage.dice import BoardButton, DiceBoard, DiceStore, LuckFilter, SavedRoll, SecretRoll
from bot.storage.luck import ROLL_KIND, Where, tally
from bot.storage.pushes import PushableRoll
from bot.storage.ratings import RatingStore
from bot.storage.writes import Tells, tells_of
from tests.core.outbox_paths import Scanner, functions, module_functions, service_commits
from tests.core.test_query_plans import drive

WRITES = ("INSERT", "UPDATE", "DELETE")


def store_methods() -> set[str]:
    """Every method of the ``Store`` protocol, its dice and ratings parts included (not ``open`` and ``close``)."""
    names: set[str] = set()
    for protocol in (StoreProtocol, DiceStore, RatingStore):
        names |= {name for name, value in vars(protocol).items() if callable(value) and not name.startswith("_")}
    return names - {"open", "close"}


class Statements:
    """Every statement a store sends, and each ``BEGIN``/``COMMIT`` of its transactions, by the store method (the
    outermost) that was running."""

    def __init__(self, store: Any) -> None:
        self.by_method: dict[str, list[str]] = {}
        self.running: str | None = None
        plain, transaction = store._sql, store._sql_transaction
        statements = self

        class Spy:
            def __init__(self, inner: Any) -> None:
                self.inner = inner

            async def fetch(self, sql: str, *args: Any, **named: Any) -> Any:
                statements.add(sql)
                return await self.inner.fetch(sql, *args, **named)

            async def execute(self, sql: str, *args: Any, **named: Any) -> int:
                statements.add(sql)
                return int(await self.inner.execute(sql, *args, **named))

            async def executemany(self, sql: str, rows: Any) -> None:
                statements.add(sql)
                await self.inner.executemany(sql, rows)

        @asynccontextmanager
        async def spied_transaction(**options: Any) -> AsyncIterator[Spy]:
            statements.add("BEGIN")
            async with transaction(**options) as sql:
                yield Spy(sql)
            statements.add("COMMIT")

        store._sql = lambda: Spy(plain())
        store._sql_transaction = spied_transaction
        for name in store_methods():
            setattr(store, name, self.running_as(name, getattr(store, name)))

    def running_as(self, name: str, method: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
        async def run(*args: Any, **kwargs: Any) -> Any:
            outer = self.running is None
            if outer:
                self.running = name
                self.by_method.setdefault(name, [])
            try:
                return await method(*args, **kwargs)
            finally:
                if outer:
                    self.running = None

        return run

    def add(self, sql: str) -> None:
        if self.running is not None:
            self.by_method[self.running].append(" ".join(sql.split()))

    def writes(self, name: str) -> list[str]:
        return [s for s in self.by_method.get(name, []) if s.upper().startswith(WRITES)]


async def drive_dice(store: Store) -> None:
    """Every method of the dice part of the store, the ways the cogs call them."""
    roll = SavedRoll("member", 7, "attack", "1d20+5", created_by=7, updated_at=1.0)
    await store.put_saved_roll(roll, new=True)
    await store.put_saved_roll(roll, new=False)
    await store.saved_rolls("member", 7)
    await store.saved_roll("member", 7, "attack")
    await store.saved_in_guild(1)
    board, _ = await store.create_dice_board(
        DiceBoard(0, 50, 1, 7, "member", 7, False, (BoardButton("attack", "A"),), created_at=1.0)
    )
    await store.dice_board_shown(board.id, 99)
    await store.update_dice_board(board, 2.0)
    await store.dice_board(board.id)
    await store.dice_boards_in(50)
    await store.delete_dice_board(board.id)
    secret, _ = await store.create_secret(SecretRoll(0, 50, 1, 7, False, "1d6 → 2", "ab", "cd", created_at=3.0))
    await store.secret(secret.id)
    await store.secret_shown(secret.id, 98)
    await store.reveal_secret(secret.id, 4.0, News(text="revealed"))
    pushable, _ = await store.create_pushable(PushableRoll(0, 50, 1, 7, "yz 1 0 0", (3,), "🎲", created_at=3.0))
    await store.pushable(pushable.id)
    await store.pushable_shown(pushable.id, 97)
    await store.push_roll(pushable.id, (6,), "Pushed", 4.0)
    await store.delete_saved_roll("member", 7, "attack")
    counted = tally(Where(user_id=7, guild_id=1, channel_id=50, kind=ROLL_KIND), 5.0, [(6, 4)])
    assert counted is not None
    await store.record_dice([counted])
    await store.fold_luck()  # the readers below fold too, with nothing left to fold: they only read
    await store.luck_counts(7, LuckFilter())
    await store.luck_turns(7, LuckFilter())
    await store.luck_streaks(7, public_only=True)
    await store.luck_in_guild(1)
    await store.turns_in_guild(1, "vices")
    await store.wins_in_guild(1)
    await store.set_leaderboard(7, shown=False)
    await store.set_member_language(7, "de")
    await store.member_language(7)
    await store.leaderboard_hidden([7])
    await store.recompute_ratings(lambda session: None)
    await store.ratings_of(1, "race", [7])
    await store.rating_top(1, "race", 10)
    await store.forget_luck(7, 6.0)
    assert isinstance(store, SqliteStore)
    await store.conn.execute("INSERT INTO luck_pending (session_id, upto, dice_upto) VALUES (1, 1, 1)")  # an old log
    await store.backfill_luck(store.session, store.log_entries, lambda kind: None)


async def test_every_store_method_that_writes_declares_what_it_tells(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "writes.sqlite3")
    await store.open()
    try:
        statements = Statements(store)
        await drive(store)
        await drive_dice(store)
    finally:
        await store.close()
    assert set(statements.by_method) == store_methods(), "drive every method of the store here"
    declared = {name: tells_of(getattr(SqliteStore, name)) for name in store_methods()}
    writing = {name for name in store_methods() if statements.writes(name)}
    assert writing == {name for name, tells in declared.items() if tells is not None}
    for name in writing:
        said = statements.by_method[name]
        outbox = [i for i, s in enumerate(said) if s.startswith("INSERT INTO outbox")]
        news = [s for s in said if s.startswith(("UPDATE sessions", "INSERT INTO sessions")) and "news_from" in s]
        if declared[name] is Tells.OUTBOX:
            # In the commit's own transaction: a BEGIN before it, its COMMIT after it; or, for a session, in the
            # one statement that writes the change and its log entry (which carries the news).
            in_transaction = all("BEGIN" in said[:i] and "COMMIT" in said[i:] for i in outbox)
            assert (outbox and in_transaction) or news, f"{name} writes no messages with its change: {said}"
        else:
            assert not outbox, f"{name} ({declared[name]}) writes the outbox"


@functools.cache
def scanned() -> tuple[Scanner, frozenset[str], frozenset[str]]:
    """The scan of ``bot/`` and ``cogs/``, with the store's and the Service's commit methods."""
    commits = {n for n in store_methods() if tells_of(getattr(SqliteStore, n)) in (Tells.OUTBOX, Tells.AUTHOR)}
    service = service_commits(store_commits=commits)
    return Scanner(functions(), commits, service), frozenset(commits), frozenset(service)


def test_nothing_is_told_after_a_commit_outside_the_outbox() -> None:
    scanner, _, _ = scanned()
    told = [f"{t.where} line {t.line}: {t.call} after {t.after}" for t in scanner.paths().told]
    assert not told, "told outside the outbox (write it with the commit, or answer privately):\n" + "\n".join(told)


def test_every_commit_path_is_found() -> None:
    """The scan sees the commit paths it is meant to (a sample of each kind), so an empty result means something."""
    scanner, commits, service = scanned()
    assert {"act", "create", "update", "start", "remove_player", "end", "set_role", "undo"} <= service
    assert {"save", "create_session", "reveal_secret", "create_secret", "put_saved_roll"} <= commits
    sites = scanner.paths().commits
    assert sites["cogs/dice/secret.py:_reveal"] == {"store.reveal_secret"}
    assert sites["cogs/dice/secret.py:secret_roll"] == {"store.create_secret"}
    assert sites["cogs/dice/boards.py:board_edit"] == {"store.update_dice_board"}
    assert sites["bot/interactions.py:Interactions._act"] == {"service.act"}
    assert sites["cogs/viciousness/common.py:VicBase.act"] == {"service.act"}


def scan(code: str) -> list[str]:
    """What the check finds in ``code``, a module of its own."""
    _, commits, service = scanned()
    fns = module_functions("cogs/example.py", ast.parse(textwrap.dedent(code)))
    return [f"{t.where.split(':')[1]}: {t.call}" for t in Scanner(fns, commits, service).paths().told]


def test_the_check_finds_a_commit_told_outside_the_outbox() -> None:
    """The check itself, on the Reveal as it was (commit, then edit and post) and on ways around it."""
    assert scan("""
        async def reveal(interaction, reply, secret):
            if not await store_of(interaction).reveal_secret(secret.id, now(interaction)):
                await reply.refuse("This roll was revealed already.")
                return
            await reply.update(content="revealed below", view=None)
            await reply.send("Result", ephemeral=False)
    """) == ["reveal: reply.update", "reveal: reply.send"]
    assert scan("""
        async def save(bot, channel, roll):
            await bot.store.put_saved_roll(roll, new=True)

        async def command(bot, channel, roll):
            for _ in range(2):
                await channel.send("saved")  # the second pass comes after the first one's commit
                await save(bot, channel, roll)
    """) == ["command: channel.send"]
    assert scan("""
        async def handler(bot, reply, session, action):
            applied = await bot.service.act(session.id, None, action)
            user = await bot.fetch_user(7)
            await user.send("you were named")
    """) == ["handler: user.send"]


def test_the_check_lets_private_answers_and_the_outbox_through() -> None:
    assert (
        scan("""
        async def reveal(interaction, reply, secret, news):
            await reply.send("before the commit", ephemeral=False)
            outgoing = await store_of(interaction).reveal_secret(secret.id, now(interaction), news)
            if outgoing is None:
                await reply.refuse("This roll was revealed already.")
                return
            await bot_of(interaction).outbox.tell(outgoing, reply)
            await reply.send("only you see this", ephemeral=True)
            await reply.update(content="your menu", ephemeral=True)

        async def branches(bot, reply, session, action):
            if action:
                await bot.service.act(session.id, None, action)
                return
            await reply.send("nothing was committed on this way", ephemeral=False)

        async def later(bot, reply, session, action):
            await bot.service.act(session.id, None, action)
            reply.callback = lambda: reply.send("runs later, if at all")
    """)
        == []
    )
