"""Dice of Crowns timers, restarts and seating end to end: the cases a first review found wrong."""

from __future__ import annotations

import json

from bot.replay import replay
from localdiscord.server import LocalDiscord
from rules.dice import ScriptedDice, SeededDice
from tests.conftest import MakeBot
from tests.core.clock import FakeClock
from tests.table_play import game_of
from tests.test_e2e_crowns import crowns_bot, open_and_start, open_fate_window, per_die


async def test_timeout_one_missed_decision_applies_one_default(fake: LocalDiscord, make_bot: MakeBot) -> None:
    clock = FakeClock()
    bot = await crowns_bot(make_bot, clock)
    channel = fake.channels[0]
    alice, bob, carol = fake.members[0], fake.members[1], fake.members[2]
    bot.service.dice = ScriptedDice(
        {"first_player": [1], **per_die(d1="S", d2="S", d3="S", d4="K", d5="K", d6="C", d7="D")}
    )
    await open_and_start(fake, channel, alice, [bob, carol], timeout=60)  # rolled: three scrolls to hand out
    clock.advance(61)  # Alice misses one decision
    await fake.wait_for(lambda: any("Time ran out" in m.content for m in fake.messages(channel)), what="a default")
    game = await game_of(bot, channel)
    timeouts = [e for e in await bot.store.log_entries(game.id) if e.action.get("how") == "timeout"]
    assert [e.action["action"]["type"] for e in timeouts] == ["assign_scroll"]
    seat = game.seat_of_player("P1")
    assert seat.timeouts == 1 and not seat.computer
    assert [d.at for d in game.deadlines if d.player == "P1"] == [clock.now() + 60]  # a fresh minute for the next


async def test_timeout_of_an_optional_fate_window_is_not_a_missed_turn(fake: LocalDiscord, make_bot: MakeBot) -> None:
    clock = FakeClock()
    bot = await crowns_bot(make_bot, clock)
    channel = fake.channels[0]
    alice, bob = fake.members[0], fake.members[1]
    # Alice took 2 Fate; on Bob's turn she may spend them in a fate window, and lets it close.
    window = await open_fate_window(fake, bot, channel, alice, bob)
    bot.service.dice = SeededDice(5)  # the turns after the window roll by themselves
    clock.advance(21)
    # The window closes and Bob's dice count: three crowns, a Claim.
    await fake.wait_for(lambda: "**Bob** 🎖️ 1/3" in json.dumps(window.embeds, ensure_ascii=False), what="Bob's Claim")
    game = await game_of(bot, channel)
    passed = [e for e in await bot.store.log_entries(game.id) if e.action.get("how") == "timeout"]
    assert [(e.actor, e.action["action"]["type"]) for e in passed] == [("P1", "pass_fate")]
    assert game.seat_of_player("P1").timeouts == 0


async def test_random_seating_replays_exactly(fake: LocalDiscord, make_bot: MakeBot) -> None:
    bot = await crowns_bot(make_bot)
    bot.service.dice = SeededDice(3)
    channel = fake.channels[0]
    await open_and_start(fake, channel, fake.members[0], [fake.members[1], fake.members[2]], seating="random")
    game = await game_of(bot, channel)
    entries = await bot.store.log_entries(game.id)
    assert entries[0].action["seating_dice"]  # the shuffle's own rolls, apart from the engine's
    assert replay(bot.registry.get("crowns"), game.engine_options, entries).model_dump(mode="json") == game.state


async def test_restart_resumes_a_computer_players_move(fake: LocalDiscord, make_bot: MakeBot, tmp_path) -> None:
    clock = FakeClock()
    db = tmp_path / "cpu.sqlite3"
    bot = await crowns_bot(make_bot, clock, db_path=db)
    bot.settings.computer_delay = 3600  # the bot stops before the computer gets to move
    bot.service.dice = ScriptedDice({"first_player": [2]})
    channel = fake.channels[0]
    alice = fake.members[0]
    lobby = await (await fake.slash(channel, alice, "crowns new", options={"bots": 1})).message()
    await (await fake.click(lobby, "Start", alice)).message()
    await bot.close()
    restarted = await crowns_bot(make_bot, clock, db_path=db)
    restarted.service.dice = SeededDice(2)
    await fake.wait_for_message(channel, lambda m: "rolled **Computer 1**'s" in str(m.embeds), timeout=10)
    game = await game_of(restarted, channel)
    assert [e.action["how"] for e in await restarted.store.log_entries(game.id)][:2] == ["core", "computer"]


async def test_a_returning_player_takes_their_seat_back(fake: LocalDiscord, make_bot: MakeBot) -> None:
    bot = await crowns_bot(make_bot)
    bot.service.dice = ScriptedDice(
        {"first_player": [1], **per_die(d1="SK", d2="C", d3="K", d4="K", d5="D", d6="D", d7="K")}
    )
    channel = fake.channels[0]
    alice, bob, carol = fake.members[0], fake.members[1], fake.members[2]
    board = await open_and_start(fake, channel, alice, [bob, carol])
    game = await game_of(bot, channel)
    game.seat_of_player("P1").computer = True  # as after missed turns (stored without waking the computer)
    assert await bot.store.save(game, game.version)
    await (await fake.click(board, f"Scroll 1 → {bob.display_name}", alice)).message()
    game = await game_of(bot, channel)
    seat = game.seat_of_player("P1")
    assert not seat.computer and seat.timeouts == 0
