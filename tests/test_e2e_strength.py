"""Computer strengths end to end: the host adds a Strong computer through the lobby's menu, it is shown as such,
kept with its seat through a restart, and plays its seat to the end of the game."""

from __future__ import annotations

import random
from pathlib import Path

from bot.models import Status
from localdiscord.server import LocalDiscord
from rules.dice import SeededDice
from rules.engine import EASY, NORMAL, STRONG
from tests.conftest import MakeBot
from tests.core.clock import FakeClock
from tests.table_play import game_of, play_with_computers
from tests.test_e2e_crowns import crowns_bot, play_one_click


async def test_a_strong_computer_added_in_the_lobby_plays_to_the_end(
    fake: LocalDiscord, make_bot: MakeBot, tmp_path: Path
) -> None:
    clock = FakeClock()
    db = tmp_path / "strength.sqlite3"
    bot = await crowns_bot(make_bot, clock, db_path=db)
    bot.service.dice = SeededDice(3)
    channel = fake.channels[0]
    alice = fake.members[0]
    lobby = await (await fake.slash(channel, alice, "crowns new")).message()
    menu = next(s for s in lobby.selects if "Add computer" in str(s.get("placeholder")))
    assert [o["value"] for o in menu["options"]] == [EASY, NORMAL, STRONG]
    answer = await (await fake.select(lobby, str(menu["custom_id"]), [STRONG], alice)).message()
    assert "Strong" in str(answer.embeds) or "Strong" in answer.content
    await fake.wait_for(lambda: "Computer 1 (Strong)" in str(lobby.embeds), what="the Strong computer in the lobby")
    game = await game_of(bot, channel)
    assert [(s.computer, s.strength) for s in game.seats] == [(False, NORMAL), (True, STRONG)]
    await (await fake.click(lobby, "Start", alice)).message()
    game = await game_of(bot, channel)
    assert game.status is Status.ACTIVE
    board = fake.message(game.board.message_id)
    assert board is not None
    await fake.wait_for(lambda: "Computer 1 (Strong)" in str(board.embeds) + board.content, what="the board")

    await bot.close()  # a restart: the seat keeps its strength
    bot = await crowns_bot(make_bot, clock, db_path=db)
    bot.service.dice = SeededDice(4)
    game = await game_of(bot, channel)
    assert game.seats[1].strength == STRONG
    game = await play_with_computers(fake, bot, channel, random.Random(7), play_one_click)
    assert game.status is Status.FINISHED
    entries = await bot.store.log_entries(game.id)
    assert any(e.action.get("how") == "computer" for e in entries)


async def test_only_the_host_adds_computers_and_a_full_table_disables_the_menu(
    fake: LocalDiscord, make_bot: MakeBot
) -> None:
    await crowns_bot(make_bot)
    channel = fake.channels[1]
    alice, bob = fake.members[0], fake.members[1]
    lobby = await (await fake.slash(channel, alice, "crowns new")).message()
    menu = next(s for s in lobby.selects if "Add computer" in str(s.get("placeholder")))
    refused = await (await fake.select(lobby, str(menu["custom_id"]), [EASY], bob)).message()
    assert "host" in refused.content.lower()
    for n in range(1, 6):
        menu = next(s for s in lobby.selects if "Add computer" in str(s.get("placeholder")))
        await (await fake.select(lobby, str(menu["custom_id"]), [EASY], alice)).message()
        await fake.wait_for(lambda n=n: f"Computer {n} (Easy)" in str(lobby.embeds), what=f"Easy computer {n}")
    menu = next(s for s in lobby.selects if "Add computer" in str(s.get("placeholder")))
    assert menu.get("disabled") is True
