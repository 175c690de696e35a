"""Server settings, help, games in threads, and a channel the bot can no longer post in."""

from __future__ import annotations

import pytest

from bot.models import Status
from localdiscord.guild import Perm
from localdiscord.server import LocalDiscord
from rules.dice import ScriptedDice
from tests.conftest import MakeBot
from tests.core.clock import FakeClock
from tests.core.race import current_board, live, race_bot, start_race
from tests.databases import Database, on_database


@pytest.fixture
def make_bot(database: Database, make_bot: MakeBot) -> MakeBot:
    """Every bot of this module on both backends (SQLite, PostgreSQL).

    ``database`` comes first: set up before the bots, it is torn down after they are closed."""
    return on_database(make_bot, database)


async def test_settings_are_for_managers_and_change_the_defaults(fake: LocalDiscord, make_bot: MakeBot) -> None:
    clock = FakeClock()
    bot = await race_bot(make_bot, clock)
    admin, member = fake.members[0], fake.members[1]
    channel = fake.channels[0]
    hidden = await fake.slash(channel, member, "settings")
    assert hidden.error and "hidden" in hidden.error  # Discord hides it from members without Manage Server
    reply = await (await fake.slash(channel, admin, "settings", options={"lobby_minutes": 2})).message()
    assert reply.ephemeral and "2 min" in reply.content
    assert (await bot.store.guild_settings(fake.guild_id)).lobby_timeout_s == 120
    res = await fake.slash(channel, admin, "race new")
    lobby = await res.message()
    clock.advance(121)
    await fake.wait_for(lambda: "expired" in lobby.content, what="the 2-minute lobby to expire")


async def test_help_lists_the_games_and_commands(fake: LocalDiscord, make_bot: MakeBot) -> None:
    await race_bot(make_bot)
    reply = await (await fake.slash(fake.channels[0], fake.members[2], "help")).message()
    assert reply.ephemeral and "/race new" in reply.content and "/roll" in reply.content


async def test_game_in_its_own_thread(fake: LocalDiscord, make_bot: MakeBot) -> None:
    bot = await race_bot(make_bot)
    alice, bob = fake.members[0], fake.members[1]
    channel = fake.channels[0]
    reply = await (await fake.slash(channel, alice, "race new", options={"thread": True})).message()
    assert reply.ephemeral and "Lobby opened in <#" in reply.content
    thread = fake.threads[-1]
    lobby = await fake.wait_for_message(thread, lambda m: bool(m.buttons))
    await (await fake.click(lobby, "Join", bob)).message()
    bot.service.dice = ScriptedDice([1])
    await (await fake.click(lobby, "Start", alice)).message()
    board = await fake.wait_for_message(thread, lambda m: any(b.get("label") == "Roll" for b in m.buttons))
    assert board.channel_id == thread.id and board.mentions == []  # Alice clicked Start: no ping for her
    assert await bot.service.live_table(channel.id) is None  # the parent channel stays free
    assert (await bot.service.live_table(thread.id)) is not None


async def test_lost_channel_access_abandons_instead_of_stalling(fake: LocalDiscord, make_bot: MakeBot) -> None:
    clock = FakeClock()
    bot = await race_bot(make_bot, clock)
    alice, bob = fake.members[0], fake.members[1]
    channel = fake.channels[0]
    bot.service.dice = ScriptedDice([1, 2])
    await start_race(fake, channel, alice, [bob], timeout=60)
    fake.set_channel_permissions(channel, bot_deny=Perm.SEND_MESSAGES | Perm.VIEW_CHANNEL)
    seen = len(fake.requests)
    clock.advance(61)  # the default roll can't be shown anywhere: the game is abandoned, not stuck
    posted = f"/channels/{channel.id}/messages"
    await fake.wait_for(
        lambda: any(r["method"] == "POST" and r["path"].endswith(posted) for r in fake.requests[seen:]),
        what="the refused post",
    )
    game = await live(bot, channel)  # live() waits for the lock, which the timer holds until it is done
    assert game.status is Status.ABANDONED


async def test_lobby_options_menu_is_for_the_host_and_updates_the_lobby(fake: LocalDiscord, make_bot: MakeBot) -> None:
    bot = await race_bot(make_bot)
    alice, bob = fake.members[0], fake.members[1]
    channel = fake.channels[0]
    lobby = await (await fake.slash(channel, alice, "race new")).message()
    refused = await (await fake.click(lobby, "Options…", bob)).message()
    assert refused.ephemeral and "Only the host" in refused.content
    menu = await (await fake.click(lobby, "Options…", alice)).message()
    assert menu.ephemeral
    select = menu.selects[0]
    await (await fake.select(menu, select["custom_id"], ["20"], alice)).message()
    await fake.wait_for(lambda: "Target: 20" in str(lobby.embeds), what="the lobby to show the new target")
    game = await bot.service.live_table(channel.id)
    assert game is not None and game.options["target"] == 20 and game.options["_seating"] == "join"


async def test_settings_end_by_players_turn_seconds_and_threads(fake: LocalDiscord, make_bot: MakeBot) -> None:
    bot = await race_bot(make_bot)
    admin, alice, bob = fake.members[0], fake.members[1], fake.members[2]
    channel = fake.channels[0]
    options = {"end_by": "players", "turn_seconds": 300, "threads": False}
    reply = await (await fake.slash(channel, admin, "settings", options=options)).message()
    assert "Saved." in reply.content and "any player" in reply.content and "300 s" in reply.content
    lobby = await (await fake.slash(channel, alice, "race new")).message()
    game = await bot.service.live_table(channel.id)
    assert game is not None and game.options["timeouts"]["turn"] == 300  # the server's default
    await (await fake.click(lobby, "Join", bob)).message()
    bot.service.dice = ScriptedDice([1])
    await (await fake.click(lobby, "Start", alice)).message()
    confirm = await (await fake.slash(channel, bob, "game end")).message()  # a player, not the host
    await (await fake.click(confirm, "Yes, end it", bob)).message()
    assert (await live(bot, channel)).status is Status.ABANDONED


async def test_kicking_the_host_passes_the_lobby_on(fake: LocalDiscord, make_bot: MakeBot) -> None:
    bot = await race_bot(make_bot)
    admin, alice, bob = fake.members[0], fake.members[1], fake.members[2]
    channel = fake.channels[0]
    lobby = await (await fake.slash(channel, alice, "race new")).message()
    await (await fake.click(lobby, "Join", bob)).message()
    await (await fake.slash(channel, admin, "game kick", options={"player": str(alice.id)})).message()
    await fake.wait_for(lambda: f"<@{bob.id}>" in lobby.content, what="Bob to host the lobby")
    game = await bot.service.live_table(channel.id)
    assert game is not None and game.host_id == bob.id
    await (await fake.slash(channel, admin, "game kick", options={"player": str(bob.id)})).message()
    await fake.wait_for(lambda: "closed" in lobby.content, what="the empty lobby to close")
    assert await bot.service.live_table(channel.id) is None


async def test_a_deadline_that_keeps_failing_is_put_off(fake: LocalDiscord, make_bot: MakeBot, tmp_path) -> None:
    clock = FakeClock()
    db = tmp_path / "orphan.sqlite3"
    bot = await race_bot(make_bot, clock, db_path=db)
    bot.service.dice = ScriptedDice([1])
    await start_race(fake, fake.channels[0], fake.members[0], [fake.members[1]], timeout=60)
    await bot.close()
    # Restarted without the game's cog: its deadline can't be handled, and must not spin the timer loop.
    orphan = await make_bot(db_path=db, extensions=("cogs.meta", "cogs.game"), clock=clock)
    put_off: list[float] = []
    original = orphan.store.put_off

    async def recording(game_id: int, moment: float) -> None:
        await original(game_id, moment)
        put_off.append(moment)
        fake.notify()

    orphan.store.put_off = recording  # type: ignore[method-assign]
    clock.advance(61)
    await fake.wait_for(lambda: put_off, what="the failing deadline to be put off")
    assert put_off == [clock.now() + 60]
    assert await orphan.store.earliest_deadline() == clock.now() + 60


async def test_old_games_logs_are_cleared_as_the_server_asks_and_their_results_stay(
    fake: LocalDiscord, make_bot: MakeBot
) -> None:
    clock = FakeClock()
    bot = await race_bot(make_bot, clock)
    admin, bob = fake.members[0], fake.members[1]
    channel = fake.channels[0]
    reply = await (await fake.slash(channel, admin, "settings")).message()
    assert "keep their move-by-move log **forever**" in reply.content  # the default keeps them
    reply = await (await fake.slash(channel, admin, "settings", options={"keep_logs_days": 30})).message()
    assert "**for 30 days**" in reply.content and "/game history" in reply.content
    bot.service.dice = ScriptedDice([1, 6, 2, 5])
    board = await start_race(fake, channel, admin, [bob], target=10)
    for member in (admin, bob, admin):
        board = await current_board(fake, channel)
        await (await fake.click(board, "Roll", member)).message()
    game = await live(bot, channel)
    assert game.status is Status.FINISHED
    clock.advance(29 * 86_400)
    assert await bot.retention.sweep(pause=0) == 0  # not yet
    clock.advance(2 * 86_400)
    assert await bot.retention.sweep(pause=0) == 1
    assert await bot.store.log_entries(game.id) == []
    log = await (await fake.slash(channel, bob, "game log")).message()
    assert "log was cleared" in log.content
    history = await (await fake.slash(channel, bob, "game history")).message()
    assert "won by" in history.content
    reply = await (await fake.slash(channel, admin, "settings", options={"keep_logs_days": 0})).message()
    assert "**forever**" in reply.content
