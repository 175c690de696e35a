"""A click never applies twice: N simultaneous clicks on a repeatable decision apply exactly once, and every one is
answered. A click made on an older version may pass commits by *other* players that left its decision as it was,
never the clicker's own (a double-click, or a client's retry)."""

from __future__ import annotations

import asyncio

from localdiscord.server import LocalDiscord
from rules.dice import ScriptedDice
from tests.conftest import MakeBot
from tests.table_play import game_of
from tests.test_e2e_crowns import crowns_bot, open_and_start, per_die

CLICKS = 20


async def test_twenty_clicks_on_reroll_skulls_reroll_once(fake: LocalDiscord, make_bot: MakeBot) -> None:
    bot = await crowns_bot(make_bot)
    channel = fake.channels[0]
    alice, bob = fake.members[0], fake.members[1]
    # Alice rolls K K C C D D K: three skulls to reroll (or settle, with Fate); they come up skulls again and
    # again, so the same decision ("reroll skulls (3)") is asked after each reroll: twenty clicks reroll once.
    script = per_die(d1="K" * 30, d2="K" * 30, d3="C", d4="C", d5="D", d6="D", d7="K" * 30)
    bot.service.dice = ScriptedDice({"first_player": [1], **script})
    board = await open_and_start(fake, channel, alice, [bob], fate=True)
    label = next(b["label"] for b in board.buttons if str(b.get("label", "")).startswith("Reroll skulls"))
    before = (await game_of(bot, channel)).version
    clicks = [await fake.click(board, label, alice) for _ in range(CLICKS)]
    answers = await asyncio.gather(*(c.response() for c in clicks))
    assert len(answers) == CLICKS  # every click answered
    await bot.settled()
    game = await game_of(bot, channel)
    entries = [e for e in await bot.store.log_entries(game.id) if e.seq > before]
    rerolls = [e for e in entries if e.action.get("how") == "player" and e.action["action"]["type"] == "reroll"]
    assert len(rerolls) == 1, [e.action for e in entries]
