"""The game core end to end: the real bot, the local fake Discord, the race test game."""

from __future__ import annotations

import asyncio
import json

import pytest

from bot.models import Status
from bot.replay import replay
from localdiscord.messages import Message
from localdiscord.server import LocalDiscord
from rules.dice import ScriptedDice
from tests.conftest import MakeBot
from tests.core.clock import FakeClock
from tests.core.race import current_board, live, open_lobby, race_bot, start_race
from tests.databases import Database, on_database


@pytest.fixture
def make_bot(database: Database, make_bot: MakeBot) -> MakeBot:
    """Every bot of this module on both backends (SQLite, PostgreSQL).

    ``database`` comes first: set up before the bots, it is torn down after they are closed."""
    return on_database(make_bot, database)


def has_button(message: Message, label: str) -> bool:
    return any(b.get("label") == label for b in message.buttons)


async def test_lobby_to_winner_by_clicks_with_rematch_and_history(fake: LocalDiscord, make_bot: MakeBot) -> None:
    bot = await race_bot(make_bot)
    alice, bob = fake.members[0], fake.members[1]
    channel = fake.channels[0]
    bot.service.dice = ScriptedDice([1, 6, 2, 5])  # Alice first; 6, 2, then Alice's 5 reaches 11
    board = await start_race(fake, channel, alice, [bob], target=10)
    assert board.mentions == []  # Alice clicked Start and rolls first: she is not pinged for her own click
    assert "waiting for" in board.content and "<t:" in board.content
    for member in (alice, bob, alice):
        board = await current_board(fake, channel)
        await (await fake.click(board, "Roll", member)).message()
    final = await fake.wait_for_message(channel, lambda m: "game over" in m.content and bool(m.buttons))
    assert "🏆" in final.content and final.button("Rematch")
    game = await live(bot, channel)
    assert game.status is Status.FINISHED and game.winners == ["P1"]
    history = await (await fake.slash(channel, bob, "game history")).message()
    assert history.ephemeral and "won by" in history.content
    rematch = await (await fake.click(final, "Rematch", bob)).message()
    assert "lobby" in rematch.content
    new = await bot.service.live_table(channel.id)
    assert new is not None and new.host_id == bob.id and [s.user_id for s in new.seats] == [bob.id, alice.id]


async def test_wrong_player_is_told_who_must_act_and_nothing_changes(fake: LocalDiscord, make_bot: MakeBot) -> None:
    bot = await race_bot(make_bot)
    alice, bob, carol = fake.members[0], fake.members[1], fake.members[2]
    channel = fake.channels[0]
    bot.service.dice = ScriptedDice([1])
    board = await start_race(fake, channel, alice, [bob])
    before = await live(bot, channel)
    for member, text in ((bob, "Not your move"), (carol, "not playing")):
        reply = await (await fake.click(board, "Roll", member)).message()
        assert reply.ephemeral and text in reply.content and f"<@{alice.id}>" in reply.content
        assert reply.mentions == []
    after = await live(bot, channel)
    assert after.version == before.version and after.state == before.state


async def test_stale_board_click_is_refused_with_a_link(fake: LocalDiscord, make_bot: MakeBot) -> None:
    clock = FakeClock()
    bot = await race_bot(make_bot, clock)
    alice, bob = fake.members[0], fake.members[1]
    channel = fake.channels[0]
    bot.service.dice = ScriptedDice([1, 4, 3])
    old = await start_race(fake, channel, alice, [bob], timeout=3600)
    await live(bot, channel)  # the board is stored, with its deadline started, once the bot is done
    # Retiring the old board fails, so it keeps its buttons: the new board is posted anyway.
    retire = fake.hold(f"PATCH /api/v10/channels/{channel.id}/messages/{old.id}")
    clock.advance(3601)  # the deadline passes and the bot rolls for Alice; a new board asks Bob
    await retire.arrived()
    retire.drop()
    await fake.wait_for_message(channel, lambda m: m.mentions == [bob.id] and bool(m.buttons))
    await live(bot, channel)
    assert old.button("Roll")
    reply = await (await fake.click(old, "Roll", alice)).message()
    assert reply.ephemeral and "out of date" in reply.content and "current board" in reply.content
    game = await live(bot, channel)
    entries = await bot.store.log_entries(game.id)
    assert [e.action.get("how") for e in entries] == ["core", "timeout"]


async def test_concurrent_clicks_apply_exactly_once(fake: LocalDiscord, make_bot: MakeBot) -> None:
    bot = await race_bot(make_bot)
    alice, bob = fake.members[0], fake.members[1]
    channel = fake.channels[0]
    bot.service.dice = ScriptedDice([1, 3])
    board = await start_race(fake, channel, alice, [bob])
    version = (await live(bot, channel)).version
    clicks = [await fake.click(board, "Roll", alice) for _ in range(20)]
    replies = await asyncio.gather(*(c.message() for c in clicks))
    refused = [r for r in replies if r.ephemeral]
    assert len(refused) == 19
    assert all("out of date" in r.content for r in refused)
    game = await live(bot, channel)
    assert game.version == version + 1
    assert len(await bot.store.log_entries(game.id)) == 2  # start + one roll


async def test_timeout_reminds_at_half_time_then_rolls_for_the_player(fake: LocalDiscord, make_bot: MakeBot) -> None:
    clock = FakeClock()
    bot = await race_bot(make_bot, clock)
    alice, bob = fake.members[0], fake.members[1]
    channel = fake.channels[0]
    bot.service.dice = ScriptedDice([1, 4])
    await start_race(fake, channel, alice, [bob], timeout=60)
    clock.advance(31)
    reminder = await fake.wait_for_message(channel, lambda m: "reminder" in m.content)
    assert reminder.mentions == [alice.id]
    clock.advance(30)
    board = await fake.wait_for_message(channel, lambda m: m.mentions == [bob.id] and bool(m.buttons))
    assert "rolled 4" in str(board.embeds)
    game = await live(bot, channel)
    assert game.seat_of_player("P1").timeouts == 1
    assert [e.action["how"] for e in await bot.store.log_entries(game.id)] == ["core", "timeout"]


async def test_timeout_that_passed_while_down_is_applied_at_start_without_reminder(
    fake: LocalDiscord, make_bot: MakeBot
) -> None:
    clock = FakeClock()
    bot = await race_bot(make_bot, clock)
    alice, bob = fake.members[0], fake.members[1]
    channel = fake.channels[0]
    bot.service.dice = ScriptedDice([1])
    await start_race(fake, channel, alice, [bob], timeout=60)
    await bot.close()
    clock.advance(600)
    restarted = await race_bot(make_bot, clock)
    restarted.service.dice = ScriptedDice([2])
    await fake.wait_for_message(channel, lambda m: m.mentions == [bob.id] and bool(m.buttons))
    assert not [m for m in fake.messages(channel) if "reminder" in m.content]
    game = await live(restarted, channel)
    assert [e.action["how"] for e in await restarted.store.log_entries(game.id)] == ["core", "timeout"]


async def test_repeated_timeouts_hand_the_seat_to_a_computer(fake: LocalDiscord, make_bot: MakeBot) -> None:
    clock = FakeClock()
    bot = await race_bot(make_bot, clock)
    alice, bob = fake.members[0], fake.members[1]
    channel = fake.channels[0]
    bot.service.dice = ScriptedDice([1, 2, 2, 2, 2, 2, 2, 2, 2])
    await start_race(fake, channel, alice, [bob], target=100, timeout=60)
    seen: set[int] = set()
    for _ in range(3):  # Alice sleeps; Bob plays
        clock.advance(61)
        board = await fake.wait_for_message(
            channel, lambda m: m.mentions == [bob.id] and bool(m.buttons) and m.id not in seen
        )
        seen.add(board.id)
        await (await fake.click(board, "Roll", bob)).message()
        await live(bot, channel)
    notice = await fake.wait_for_message(channel, lambda m: "computer player takes their seat" in m.content)
    assert notice.mentions == []
    game = await live(bot, channel)
    assert game.seat_of_player("P1").computer


async def test_mentions_ping_only_who_must_act_and_names_never_ping_everyone(
    fake: LocalDiscord, make_bot: MakeBot
) -> None:
    bot = await race_bot(make_bot)
    alice, everyone = fake.members[0], fake.members[3]
    assert everyone.display_name == "@everyone"
    channel = fake.channels[0]
    bot.service.dice = ScriptedDice([2, 3])  # the member called "@everyone" goes first
    board = await start_race(fake, channel, alice, [everyone])
    assert board.mentions == [everyone.id]
    await (await fake.click(board, "Roll", everyone)).message()
    next_board = await fake.wait_for_message(channel, lambda m: m.mentions == [alice.id])
    # The name shows, made inert by a zero-width space after the @.
    assert "@\u200beveryone" in json.dumps(next_board.embeds, ensure_ascii=False)
    for message in fake.messages(channel):
        assert not message.mention_everyone and message.mention_roles == []
        assert len(message.mentions) <= 1


async def test_restart_keeps_old_buttons_working(fake: LocalDiscord, make_bot: MakeBot, tmp_path) -> None:
    db = tmp_path / "restart.sqlite3"
    bot = await race_bot(make_bot, db_path=db)
    alice, bob = fake.members[0], fake.members[1]
    channel = fake.channels[0]
    bot.service.dice = ScriptedDice([1])
    board = await start_race(fake, channel, alice, [bob])
    await bot.close()
    again = await race_bot(make_bot, db_path=db)
    again.service.dice = ScriptedDice([5])
    await (await fake.click(board, "Roll", alice)).message()
    await fake.wait_for_message(channel, lambda m: m.mentions == [bob.id])
    game = await live(again, channel)
    assert game.state["scores"]["P1"] == 5
    assert (
        replay(again.registry.get("race"), game.engine_options, await again.store.log_entries(game.id)).model_dump(
            mode="json"
        )
        == game.state
    )


async def test_two_channels_hold_independent_games(fake: LocalDiscord, make_bot: MakeBot) -> None:
    bot = await race_bot(make_bot)
    alice, bob, carol, dave = fake.members[0], fake.members[1], fake.members[2], fake.members[4]
    one, two = fake.channels[0], fake.channels[1]
    bot.service.dice = ScriptedDice([1, 1, 6])
    first = await start_race(fake, one, alice, [bob])
    second = await start_race(fake, two, carol, [dave])
    await (await fake.click(second, "Roll", carol)).message()
    game_one, game_two = await live(bot, one), await live(bot, two)
    assert game_one.state["scores"] == {"P1": 0, "P2": 0}
    assert game_two.state["scores"]["P1"] == 6
    reply = await (await fake.click(first, "Roll", carol)).message()
    assert reply.ephemeral and "not playing" in reply.content


async def test_second_lobby_in_a_channel_is_refused(fake: LocalDiscord, make_bot: MakeBot) -> None:
    await race_bot(make_bot)
    channel = fake.channels[0]
    await open_lobby(fake, channel, fake.members[0])
    reply = await (await fake.slash(channel, fake.members[1], "race new")).message()
    assert reply.ephemeral and "already has a game" in reply.content


async def test_missing_permissions_are_named_before_a_lobby_opens(fake: LocalDiscord, make_bot: MakeBot) -> None:
    from localdiscord.guild import Perm

    await race_bot(make_bot)
    channel = fake.channels[0]
    fake.set_channel_permissions(channel, bot_deny=Perm.EMBED_LINKS)
    reply = await (await fake.slash(channel, fake.members[0], "race new")).message()
    assert reply.ephemeral and "Embed Links" in reply.content


async def test_lobby_host_passes_on_and_lobby_expires(fake: LocalDiscord, make_bot: MakeBot) -> None:
    clock = FakeClock()
    bot = await race_bot(make_bot, clock)
    alice, bob = fake.members[0], fake.members[1]
    channel = fake.channels[0]
    lobby = await open_lobby(fake, channel, alice)
    await (await fake.click(lobby, "Join", bob)).message()
    updated = await (await fake.click(lobby, "Leave", alice)).message()
    assert f"<@{bob.id}> is the host now" in updated.content
    refused = await (await fake.click(lobby, "Cancel", alice)).message()
    assert refused.ephemeral and "Only the host" in refused.content
    clock.advance(901)
    await fake.wait_for(lambda: "expired" in lobby.content, what="the lobby to expire")
    assert not lobby.buttons
    assert await bot.service.live_table(channel.id) is None


async def test_game_commands_status_log_rules_leave_end(fake: LocalDiscord, make_bot: MakeBot) -> None:
    bot = await race_bot(make_bot)
    alice, bob, carol = fake.members[0], fake.members[1], fake.members[2]
    channel = fake.channels[0]
    bot.service.dice = ScriptedDice([1, 3])
    board = await start_race(fake, channel, alice, [bob, carol])
    await (await fake.click(board, "Roll", alice)).message()
    log = await (await fake.slash(channel, bob, "game log")).message()
    assert log.ephemeral and "rolled 3" in log.content
    rules = await (await fake.slash(channel, bob, "game rules")).message()
    assert rules.ephemeral and "Target: 10" in str(rules.embeds)
    status = await (await fake.slash(channel, carol, "game status")).message()
    assert not status.ephemeral and status.button("Roll") and status.mentions == []
    old_board = await current_board(fake, channel)
    assert old_board.id == status.id
    confirm = await (await fake.slash(channel, carol, "game leave")).message()
    assert confirm.ephemeral
    await (await fake.click(confirm, "Yes, leave", carol)).message()
    await fake.wait_for(lambda: any("left the game" in str(m.embeds) for m in fake.messages(channel)))
    game = await live(bot, channel)
    assert game.seat_of_player("P3").left and game.state["players"] == ["P1", "P2"]
    denied = await (await fake.slash(channel, bob, "game end")).message()
    assert denied.ephemeral and "ended by the host or members with Manage Server" in denied.content
    confirm = await (await fake.slash(channel, alice, "game end")).message()
    await (await fake.click(confirm, "Yes, end it", alice)).message()
    await fake.wait_for_message(channel, lambda m: "ended the game" in m.content)
    assert (await live(bot, channel)).status is Status.ABANDONED


async def test_kick_and_computer_player(fake: LocalDiscord, make_bot: MakeBot) -> None:
    bot = await race_bot(make_bot)
    alice, bob = fake.members[0], fake.members[1]
    channel = fake.channels[0]
    lobby = await open_lobby(fake, channel, alice, bots=1)
    await (await fake.click(lobby, "Join", bob)).message()
    kicked = await (await fake.slash(channel, alice, "game kick", options={"player": str(bob.id)})).message()
    assert kicked.ephemeral and "removed" in kicked.content
    await fake.wait_for(lambda: bob.display_name not in str(lobby.embeds), what="the lobby to drop Bob")
    bot.service.dice = ScriptedDice([2, 4, 3, 5])  # the computer goes first, then Alice, then the computer
    await (await fake.click(lobby, "Start", alice)).message()
    board = await fake.wait_for_message(channel, lambda m: m.mentions == [alice.id])
    assert "Computer 1 rolled 4" in str(board.embeds)
    await (await fake.click(board, "Roll", alice)).message()
    await fake.wait_for_message(channel, lambda m: m.mentions == [alice.id] and "Computer 1 rolled 5" in str(m.embeds))
    game = await live(bot, channel)
    assert game.state["scores"] == {"P1": 3, "P2": 9}
    assert [e.action["how"] for e in await bot.store.log_entries(game.id)] == ["core", "computer", "player", "computer"]


async def test_deleted_board_is_posted_again(fake: LocalDiscord, make_bot: MakeBot) -> None:
    clock = FakeClock()
    bot = await race_bot(make_bot, clock)
    alice, bob = fake.members[0], fake.members[1]
    channel = fake.channels[0]
    bot.service.dice = ScriptedDice([1, 1])  # Alice rolls a 1: Bob decides whether to take a point
    board = await start_race(fake, channel, alice, [bob], timeout=60)
    await (await fake.click(board, "Roll", alice)).message()
    steal = await fake.wait_for_message(channel, lambda m: m.mentions == [bob.id])
    await live(bot, channel)  # the first board has lost its buttons by now
    fake.delete_message(channel, steal.id)
    clock.advance(61)  # Bob's decision times out; his roll comes next, on a board that no longer exists
    reposted = await fake.wait_for_message(channel, lambda m: m.id != steal.id and has_button(m, "Roll"))
    assert "left a point" in str(reposted.embeds)


async def test_unexpected_error_shows_an_id_and_changes_nothing(fake: LocalDiscord, make_bot: MakeBot, caplog) -> None:
    bot = await race_bot(make_bot)
    alice, bob = fake.members[0], fake.members[1]
    channel = fake.channels[0]
    bot.service.dice = ScriptedDice([1])  # the roll itself will find the script empty and raise
    board = await start_race(fake, channel, alice, [bob])
    before = await live(bot, channel)
    reply = await (await fake.click(board, "Roll", alice)).message()
    assert reply.ephemeral and "error `" in reply.content
    error_id = reply.content.split("`")[1]
    assert any(error_id in r.getMessage() for r in caplog.records)
    after = await live(bot, channel)
    assert after.version == before.version


async def test_rate_limit_and_dropped_gateway_mid_game_lose_nothing(fake: LocalDiscord, make_bot: MakeBot) -> None:
    bot = await race_bot(make_bot)
    alice, bob = fake.members[0], fake.members[1]
    channel = fake.channels[0]
    bot.service.dice = ScriptedDice([1, 4, 5])
    board = await start_race(fake, channel, alice, [bob])
    posts = f"/channels/{channel.id}/messages"
    before = sum(r["method"] == "POST" and r["path"].endswith(posts) for r in fake.requests)
    fake.inject_429(f"POST /api/v10{posts}")  # the next board hits a rate limit and is sent again
    await (await fake.click(board, "Roll", alice)).message()
    board = await fake.wait_for_message(channel, lambda m: m.mentions == [bob.id] and bool(m.buttons))
    assert sum(r["method"] == "POST" and r["path"].endswith(posts) for r in fake.requests) == before + 2
    await fake.drop_gateway()
    await fake.wait_for_resume()
    await (await fake.click(board, "Roll", bob)).message()
    game = await live(bot, channel)
    assert game.state["scores"] == {"P1": 4, "P2": 5}
    assert (
        replay(bot.registry.get("race"), game.engine_options, await bot.store.log_entries(game.id)).model_dump(
            mode="json"
        )
        == game.state
    )
