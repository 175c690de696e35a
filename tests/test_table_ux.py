"""Table games that don't bury the channel: one live board, one-line history, pings only for who must act,
few clicks, no tables without people, commands where they belong."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from bot.app import TabletopBot
from bot.models import Status
from localdiscord.messages import Message
from localdiscord.server import LocalDiscord
from rules.dice import ScriptedDice, SeededDice
from tests.conftest import MakeBot
from tests.core.clock import FakeClock
from tests.core.race import current_board, live, open_lobby, race_bot, start_race
from tests.table_play import game_of
from tests.test_e2e_crowns import crowns_bot, open_and_start, per_die

EVERYTHING = ("cogs.meta", "cogs.game", "cogs.dice", "cogs.crowns", "tests.testgame.cog")


def is_retired(message: Message) -> bool:
    """A board shrunk to one line: no embed, no controls, one line of text."""
    return not message.embeds and not message.components and "\n" not in message.content


async def test_a_finished_game_leaves_one_board_and_one_line_per_retired_board(
    fake: LocalDiscord, make_bot: MakeBot
) -> None:
    bot = await race_bot(make_bot)
    alice, bob, carol = fake.members[0], fake.members[1], fake.members[2]
    channel = fake.channels[0]
    bot.service.dice = ScriptedDice([1, 2, 3, 4, 2, 3, 4])  # Alice first; nobody rolls a 1
    await start_race(fake, channel, alice, [bob, carol], target=5)
    clickers: dict[int, int] = {}
    for member in (alice, bob, carol, alice, bob, carol):
        board = await current_board(fake, channel)
        if "game over" in board.content:
            break
        clickers[board.id] = member.id
        await (await fake.click(board, "Roll", member)).message()
    final = await fake.wait_for_message(channel, lambda m: "game over" in m.content)
    await live(bot, channel)
    messages = fake.messages(channel)
    full = [m for m in messages if m.embeds]
    assert full == [final]
    assert all(is_retired(m) for m in messages if m is not final)
    assert any("rolled 3" in m.content for m in messages)  # a retired board says what happened on it
    for message in messages:
        assert len(message.mentions) <= 1
        assert clickers.get(message.id) not in message.mentions  # never the member whose click it was


async def test_the_faces_legend_is_shown_once_per_game_and_in_the_rules(fake: LocalDiscord, make_bot: MakeBot) -> None:
    bot = await crowns_bot(make_bot)
    bot.service.dice = ScriptedDice(
        {"first_player": [1], **per_die(d1="SK", d2="C", d3="K", d4="K", d5="C", d6="D", d7="K")}
    )
    channel = fake.channels[0]
    alice, bob, carol = fake.members[0], fake.members[1], fake.members[2]
    rules = await (await fake.slash(channel, carol, "game rules", options={"game": "crowns"})).message()
    assert rules.ephemeral and "Rightful Heir" in json.dumps(rules.embeds, ensure_ascii=False)  # no game needed
    first = await open_and_start(fake, channel, alice, [bob, carol])
    footer = first.embeds[0]["footer"]["text"]
    assert "Rightful Heir" in footer
    assert "0 to reroll" not in json.dumps(first.embeds, ensure_ascii=False)
    bot.service.dice = SeededDice(2)
    await (await fake.click(first, f"Scroll 1 → {bob.display_name}", alice)).message()
    # Play on until the turn passes and a new board is posted: that one has no legend.
    while True:
        game = await game_of(bot, channel)
        board = fake.message(game.board.message_id)
        assert board is not None
        if board.id != first.id:
            break
        waiting = next(m for m in (alice, bob, carol) if f"<@{m.id}>" in board.content.split("\n")[0])
        await (await fake.click(board, board.buttons[0]["custom_id"], waiting)).message()
    assert "Rightful Heir" not in board.embeds[0]["footer"]["text"]


async def test_the_die_a_rival_rolled_stays_in_sight_while_its_dagger_is_given(
    fake: LocalDiscord, make_bot: MakeBot
) -> None:
    bot = await crowns_bot(make_bot)
    channel = fake.channels[0]
    alice, bob, carol = fake.members[0], fake.members[1], fake.members[2]
    bot.service.dice = ScriptedDice(
        {"first_player": [1], **per_die(d1="SD", d2="C", d3="K", d4="K", d5="C", d6="D", d7="K")}
    )
    board = await open_and_start(fake, channel, alice, [bob, carol])
    await (await fake.click(board, f"Scroll 1 → {bob.display_name}", alice)).message()
    ask = await fake.wait_for_message(channel, lambda m: m.mentions == [bob.id])
    shown = json.dumps(ask.embeds, ensure_ascii=False)
    assert f"Rolled by {bob.display_name}: 🗡️ (die 1)" in shown  # seven dice, all somewhere on the board
    assert f"rolled **{alice.display_name}**'s scroll die 1" in shown


async def test_all_scrolls_to_one_rival_in_one_click(fake: LocalDiscord, make_bot: MakeBot) -> None:
    bot = await crowns_bot(make_bot)
    channel = fake.channels[0]
    alice, bob, carol = fake.members[0], fake.members[1], fake.members[2]
    bot.service.dice = ScriptedDice(
        {"first_player": [1], **per_die(d1="SK", d2="SK", d3="SK", d4="K", d5="C", d6="D", d7="K")}
    )
    board = await open_and_start(fake, channel, alice, [bob, carol])
    await (await fake.click(board, f"All scrolls → {carol.display_name}", alice)).message()
    game = await game_of(bot, channel)
    entries = await bot.store.log_entries(game.id)
    assert entries[-1].action["action"] == {"type": "assign_all", "rival": "P3"}
    assert [e["die"] for e in entries[-1].events if e["type"] == "scroll_rolled"] == ["1", "2", "3"]


async def test_when_the_last_member_leaves_the_computers_dont_play_on(fake: LocalDiscord, make_bot: MakeBot) -> None:
    bot = await crowns_bot(make_bot)
    bot.service.dice = SeededDice(4)
    channel = fake.channels[0]
    alice = fake.members[0]
    lobby = await (await fake.slash(channel, alice, "crowns new", options={"bots": 2})).message()
    await (await fake.click(lobby, "Start", alice)).message()
    confirm = await (await fake.slash(channel, alice, "game leave")).message()
    await (await fake.click(confirm, "Yes, leave", alice)).message()
    await bot.settled()
    assert await bot.service.live_table(channel.id) is None
    (game,) = await bot.store.history(guild_id=fake.guild_id, channel_id=channel.id)
    assert game.status is Status.ABANDONED and game.winners is None
    history = await (await fake.slash(channel, alice, "game history")).message()
    assert "ended early" in history.content


async def test_one_open_lobby_per_member_and_no_thread_loops(fake: LocalDiscord, make_bot: MakeBot) -> None:
    await race_bot(make_bot)
    admin, bob = fake.members[0], fake.members[1]
    await open_lobby(fake, fake.channels[0], bob)
    second = await (await fake.slash(fake.channels[1], bob, "race new")).message()
    assert second.ephemeral and "already have an open lobby" in second.content
    # Eight thread lobbies asked for at once open one thread.
    burst = [await fake.slash(fake.channels[2], admin, "race new", options={"thread": True}) for _ in range(8)]
    answers = await asyncio.gather(*(res.message() for res in burst))
    assert all(a.ephemeral for a in answers)
    assert len(fake.threads) == 1
    saved = await (await fake.slash(fake.channels[1], admin, "settings", options={"lobbies_per_member": 2})).message()
    assert "2** open lobbies" in saved.content
    await open_lobby(fake, fake.channels[1], admin)


async def test_status_from_someone_not_playing_is_private(fake: LocalDiscord, make_bot: MakeBot) -> None:
    bot = await race_bot(make_bot)
    alice, bob, carol = fake.members[0], fake.members[1], fake.members[2]
    channel = fake.channels[0]
    bot.service.dice = ScriptedDice([1])
    await start_race(fake, channel, alice, [bob])
    before = len(fake.messages(channel))
    status = await (await fake.slash(channel, carol, "game status")).message()
    assert status.ephemeral and "Race to" in json.dumps(status.embeds)
    assert len(fake.messages(channel)) == before


async def test_commands_appear_only_where_they_work(fake: LocalDiscord, make_bot: MakeBot) -> None:
    await make_bot(extensions=EVERYTHING)
    by_name: dict[str, dict[str, Any]] = {c["name"]: c for c in fake.commands}
    for name in ("crowns", "game", "race", "settings"):
        assert by_name[name]["contexts"] == [0], name
    assert set(by_name["roll"]["contexts"]) == {0, 1, 2}
    refused = await fake.slash(fake.dm_channel(), fake.dm_user, "game", subcommand="status")
    assert refused.error and "not available in DMs" in refused.error


async def test_kick_autocompletes_seats_computers_included_and_says_who_kicked(
    fake: LocalDiscord, make_bot: MakeBot
) -> None:
    bot = await race_bot(make_bot, clock=FakeClock())
    admin, bob, carol = fake.members[0], fake.members[1], fake.members[2]
    channel = fake.channels[0]
    lobby = await open_lobby(fake, channel, bob, bots=1)
    await (await fake.click(lobby, "Join", carol)).message()
    choices = await (await fake.autocomplete(channel, bob, "game kick", "player", {"player": ""})).choices()
    assert [c["name"] for c in choices] == [bob.display_name, "Computer 1 (computer)", carol.display_name]
    computer = next(c["value"] for c in choices if "computer" in c["name"])
    await (await fake.slash(channel, bob, "game kick", options={"player": computer})).message()
    await fake.wait_for(lambda: "Computer 1" not in json.dumps(lobby.embeds), what="the computer to go")
    bot.service.dice = ScriptedDice([1])
    await (await fake.click(lobby, "Start", bob)).message()
    await (await fake.slash(channel, admin, "game kick", options={"player": str(carol.id)})).message()
    notice = await fake.wait_for_message(channel, lambda m: "was removed" in m.content)
    assert "by a moderator" in notice.content and "host" not in notice.content


async def test_help_says_who_may_end_games_here(fake: LocalDiscord, make_bot: MakeBot) -> None:
    bot: TabletopBot = await race_bot(make_bot)
    assert bot.specs
    admin = fake.members[0]
    channel = fake.channels[0]
    await (await fake.slash(channel, admin, "settings", options={"end_by": "managers"})).message()
    help_text = await (await fake.slash(channel, fake.members[1], "help")).message()
    assert "ended by members with Manage Server" in help_text.content
