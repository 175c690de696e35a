"""``python -m bot.migrate``: a SQLite database with finished, active and waiting sessions of every kind copied to
PostgreSQL; then the bot, on PostgreSQL, carries on the active ones where they were."""

from __future__ import annotations

import asyncio
import random
import sys
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from bot.models import Actor, GuildSettings, Scope, Seat, Status
from bot.registry import GameKind, Registry
from bot.replay import replay
from bot.service import Service
from bot.storage import PostgresStore, SqliteStore, Store
from bot.storage.copy import copy_sqlite_to_postgres, counts_postgres
from localdiscord.server import LocalDiscord
from rules.dice import ScriptedDice, SeededDice
from tests.bot_process import REPO, bot_environment
from tests.conftest import MakeBot
from tests.core.clock import FakeClock
from tests.databases import postgres_database
from tests.table_play import game_of
from tests.test_e2e_crowns import open_and_start, play_one_click
from tests.test_e2e_vices import open_and_start as vices_start
from tests.test_e2e_vices import play_one_click as vices_click
from tests.test_e2e_vv_sheet_support import enter_all, new_sheet, state_of
from tests.testgame.engine import RaceEngine, RaceOptions
from tests.vic_e2e_support import campaign_state, new_troupe

EXTENSIONS = ("cogs.meta", "cogs.game", "cogs.crowns", "cogs.vices", "cogs.viciousness")


async def run_migrate(
    fake: LocalDiscord, db_path: Path, *args: str, env: dict[str, str | None] | None = None
) -> tuple[int, str]:
    """``python -m bot.migrate`` with the bot's environment; its exit status and output."""
    child_env = bot_environment(fake, db_path, env or {"EXTENSIONS": ",".join(EXTENSIONS)})
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot.migrate", *args, cwd=REPO, env=child_env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
    )  # fmt: skip
    out, _ = await asyncio.wait_for(proc.communicate(), 60)
    assert proc.returncode is not None
    return proc.returncode, out.decode()


@pytest.mark.fake(channels=6)
async def test_a_sqlite_database_moves_to_postgresql_and_its_games_go_on(
    fake: LocalDiscord, make_bot: MakeBot, tmp_path: Path
) -> None:
    """Every kind: Dice of Crowns (finished, active, a lobby), a Vices & Vengeance table game, a V&V sheet and
    a Viciousness campaign."""
    db_path = tmp_path / "bot.sqlite3"
    alice, bob, carol = fake.members[0], fake.members[1], fake.members[2]
    finished, active, sheet, lobby, vices, campaign = fake.channels[:6]
    rng = random.Random(21)
    bot = await make_bot(db_path=db_path, extensions=EXTENSIONS)
    bot.settings.computer_delay = 0
    bot.service.dice = SeededDice(21)
    await open_and_start(fake, finished, alice, [bob])
    game = await game_of(bot, finished)
    while game.status is Status.ACTIVE:
        game = await play_one_click(fake, bot, finished, rng)
    await open_and_start(fake, active, bob, [carol])
    for _ in range(5):
        await play_one_click(fake, bot, active, rng)
    await new_sheet(fake, sheet, alice, member1=bob, member2=carol, self_scoring=True)
    await enter_all(bot, fake, sheet, alice, 14, 9)
    await (await fake.slash(lobby, carol, "crowns new")).message()
    await vices_start(fake, vices, fake.members[4], [alice, bob])
    for _ in range(3):
        await vices_click(fake, bot, vices, rng)
    await (await fake.slash(campaign, alice, "vic-gm campaign new", options={"company": "Knives"})).message()
    await new_troupe(fake, campaign, bob, "Rats", "Vex", ["Acrobat", "Lurker", "Machinist"])
    before = {c.id: await game_of(bot, c) for c in (finished, active, sheet, vices)}
    before[campaign.id] = await bot.store.live_session(campaign.id, Scope.CAMPAIGN)  # type: ignore[assignment]
    await bot.store.set_guild_settings(fake.guild_id, GuildSettings(max_timeouts=2))
    await bot.close()

    async with postgres_database() as url:
        status, output = await run_migrate(fake, db_path, "--to", url)
        assert status == 0, output
        assert "counts match" in output and "5 game logs replay" in output, output
        again, output = await run_migrate(fake, db_path, "--to", url)
        assert (
            again != 0 and "already holds 1 guild_settings, 6 sessions" in output and len(output.splitlines()) == 1
        ), output

        bot = await make_bot(db_path=tmp_path / "unused.sqlite3", extensions=EXTENSIONS, database_url=url)
        bot.settings.computer_delay = 0
        bot.service.dice = SeededDice(22)
        for old in before.values():
            moved = await bot.store.session(old.id)
            assert moved is not None and moved.version == old.version and moved.state == old.state
        assert (await bot.service.live_table(lobby.id)) is not None  # the open lobby came along
        assert (await bot.store.guild_settings(fake.guild_id)).max_timeouts == 2
        game = await game_of(bot, active)
        clicks = 0
        while game.status is Status.ACTIVE:
            game = await play_one_click(fake, bot, active, rng)
            clicks += 1
        assert clicks and game.winners
        entries = await bot.store.log_entries(game.id)
        assert replay(bot.registry.get("crowns"), game.engine_options, entries).model_dump(mode="json") == game.state
        await enter_all(bot, fake, sheet, alice, 22)
        assert [r.scores for r in (await state_of(bot, sheet)).rows][:3] == [(14,), (9,), (22,)]
        vices_game = await game_of(bot, vices)
        while vices_game.status is Status.ACTIVE:
            vices_game = await vices_click(fake, bot, vices, rng)
        assert vices_game.winners
        await new_troupe(fake, campaign, carol, "Owls", "Mira", ["Historian", "Duelist", "Medic"])
        assert set((await campaign_state(bot, campaign)).troupes) == {str(bob.id), str(carol.id)}
        created = await (await fake.slash(finished, alice, "crowns new")).message()  # new ids follow the copied ones
        assert created.buttons
        await bot.close()


async def races(path: Path, count: int) -> SqliteStore:
    """A SQLite store (open) with ``count`` races of the test game, each started and one roll in."""
    store = SqliteStore(path)
    await store.open()
    await play_races(store, count)
    return store


async def play_races(store: Store, count: int) -> None:
    """``count`` races of the test game in ``store`` (open), in channels 10, 11…, each started and one roll in."""
    registry = Registry()
    registry.add(GameKind(RaceEngine()))
    service = Service(store, registry, FakeClock(), ScriptedDice([1] * 10 * count))
    alice = Actor(1, "Alice")
    seats = [Seat(user_id=1, name="Alice"), Seat(user_id=2, name="Bob")]
    for channel in range(10, 10 + count):
        created = await service.create(
            "race", guild_id=1, channel_id=channel, host=alice, options=RaceOptions(), seats=seats
        )
        await service.start(created.session.id, alice)
        await service.act(created.session.id, alice, {"type": "roll"})


async def test_a_copy_whose_log_does_not_replay_is_refused(fake: LocalDiscord, tmp_path: Path) -> None:
    """A stored state its log does not lead to (here: edited by hand) stops the migration with one line."""
    db_path = tmp_path / "bot.sqlite3"
    store = await races(db_path, 1)
    await store.conn.execute("UPDATE sessions SET state = json_set(state, '$.target', 99)")
    await store.close()
    async with postgres_database() as url:
        env = {"EXTENSIONS": "cogs.meta,cogs.game,tests.testgame.cog"}
        status, output = await run_migrate(fake, db_path, "--to", url, env=env)
    assert status != 0 and output.startswith("Migration failed: session 1: its log replays to another state"), output
    assert len(output.splitlines()) == 1, output


async def test_tables_are_streamed_a_batch_at_a_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No table is ever read whole: at most ``batch`` rows are in memory (``python -m bot.migrate`` at 10,000
    sessions held 678 MB when it read each table at once)."""
    store = await races(tmp_path / "bot.sqlite3", 5)
    copied: list[tuple[str, int]] = []
    async with postgres_database() as url:
        target = PostgresStore(url)
        await target.open()
        real = asyncpg.connection.Connection.copy_records_to_table

        async def counted(conn: Any, table: str, *, records: Any, **options: Any) -> Any:
            copied.append((table, len(records)))
            return await real(conn, table, records=records, **options)

        monkeypatch.setattr(asyncpg.connection.Connection, "copy_records_to_table", counted)
        try:
            counts = await copy_sqlite_to_postgres(store, target, batch=2)
            assert counts == await counts_postgres(target)
        finally:
            await target.close()
    await store.close()
    assert counts.tables["sessions"] == 5 and counts.tables["session_events"] == 10
    assert max(n for _, n in copied) == 2 and sum(n for t, n in copied if t == "session_events") == 10
