"""Issue 28, part 1: shortcuts that fold a confirmation into the command that starts it, through the local Discord.

A pool the GM opens with ``roll_at`` rolls by itself once that many characters are in, each with their trait dice
(a first-timer picks them first; the GM isn't called to roll it meanwhile), told in the channel as the GM's roll
would be, and never taken back by an undo. ``/vic price buy:`` pays at once when one way to pay is left (else the
price shows every way: which coins is the buyer's choice), with ``modifiers:`` typed; ``/vic-gm reward next_turn:``
rewards and moves the turn on, each change told as its own. A pool's dice count in ``/stats luck`` for the players
whose characters rolled them, whoever's click rolled the pool.
"""

from __future__ import annotations

import json
import re

from localdiscord.server import LocalDiscord
from tests.conftest import MakeBot
from tests.core.clock import FakeClock
from tests.test_e2e_vic_busywork import a_turn, said
from tests.test_e2e_vic_table import setup_troupes
from tests.vic_e2e_support import EXTENSIONS, campaign_state, join_with


class Fives:
    """Every die shows 5."""

    def roll(self, die_id: str, sides: int) -> int:
        return 5


async def test_a_pool_the_gm_set_rolls_by_itself_once_everyone_has_their_dice(
    fake: LocalDiscord, make_bot: MakeBot
) -> None:
    bot, channel, _, _ = await a_turn(fake, make_bot)
    bot.service.dice = Fives()  # the scheme succeeds
    gm, bea, cal = fake.members[0], fake.members[1], fake.members[2]
    options = {"challenges": 1, "title": "Lift the ledger", "roll_at": 2}
    board = await (await fake.slash(channel, gm, "vic-gm knavery", options=options)).message()
    assert "Rolls by itself once 2 characters are in" in json.dumps(board.embeds, ensure_ascii=False)
    first = await join_with(fake, board, "Ana", bea)
    second = await join_with(fake, board, "Bo", cal)
    # Neither has usual dice yet: the scheme waits for their picks, and nobody calls the GM to roll it.
    assert "Pick the trait dice" in first.content and "Pick the trait dice" in second.content
    pool = next(iter((await campaign_state(bot, channel)).pools.values()))
    assert pool.stage == "gather" and not said(fake, channel, "ready to roll")
    menu = first.selects[0]
    await (await fake.select(first, str(menu["custom_id"]), [str(menu["options"][0]["value"])], bea)).message()
    assert (await campaign_state(bot, channel)).pools  # Bo hasn't picked yet
    last = await (await fake.select(second, str(second.selects[0]["custom_id"]), [], cal)).message()
    assert "the pool rolls by itself" in last.content and not last.selects
    told = await fake.wait_for_message(channel, lambda m: "rolls by itself" in m.content)
    assert "2 characters are in, as the GM said" in told.content and "scheme" in told.content
    assert not (await campaign_state(bot, channel)).pools  # rolled, and succeeded
    # A roll is never taken back: the pick that made it is out of undo's reach.
    undo = await (await fake.slash(channel, gm, "vic-gm undo")).message()
    assert undo.ephemeral and "nothing to undo" in undo.content, undo.content
    assert said(fake, channel, "rolls by itself") == [told]


async def test_price_buys_at_once_with_one_way_to_pay_and_reward_moves_the_turn_on(
    fake: LocalDiscord, make_bot: MakeBot
) -> None:
    bot, channel, ana, bo = await a_turn(fake, make_bot)
    gm, bea, cal = fake.members[0], fake.members[1], fake.members[2]
    coins = (await campaign_state(bot, channel)).company.turn_coins
    assert coins is not None
    options = {"rank": 2, "item": "Rope", "pc": ana, "buy": True}
    bought = await (await fake.slash(channel, bea, "vic price", options=options)).message()
    assert bought.ephemeral and "Rope" in bought.content and not bought.buttons, bought.content
    state = await campaign_state(bot, channel)
    assert state.company.turn_coins is not None and state.company.turn_coins.count < coins.count
    assert state.find_pc(ana) is not None and state.find_pc(ana).action_turn == 1  # type: ignore[union-attr]
    # Turn coins and liquid coins both pay: which is the buyer's choice, so the price shows both.
    await (await fake.slash(channel, gm, "vic-gm reward", options={"method": "rare", "npc_rank": 3})).message()
    options = {"rank": 2, "item": "Lamp", "pc": bo, "buy": True}
    both = await (await fake.slash(channel, cal, "vic price", options=options)).message()
    assert "Pay 1 turn coin" in both.describe_buttons() and "liquid coin" in both.describe_buttons()
    priced = await (
        await fake.slash(channel, cal, "vic price", options={"rank": 2, "modifiers": "custom, illegal"})
    ).message()
    assert "Modifiers: Custom-built, Illegal" in json.dumps(priced.embeds, ensure_ascii=False)
    refused = await (await fake.slash(channel, cal, "vic price", options={**options, "modifiers": "shiny"})).message()
    assert refused.ephemeral and "is not one modifier" in refused.content and "Custom-built" in refused.content
    # A reward that moves the turn on: the reward is the answer, the turn's end and next start follow.
    reward = {"method": "rare", "npc_rank": 3, "invest": True, "next_turn": True}
    answer = await (await fake.slash(channel, gm, "vic-gm reward", options=reward)).message()
    assert not answer.ephemeral
    await fake.wait_for_message(channel, lambda m: "**Turn 2** begins" in m.content)
    assert (await campaign_state(bot, channel)).turn.number == 2


async def test_a_pools_dice_count_for_the_players_whose_characters_rolled_them(
    fake: LocalDiscord, make_bot: MakeBot
) -> None:
    """Whoever's click rolls it (here Cal's join, the pool rolling by itself), each character's die is their
    player's in ``/stats luck``; the GM rolled none of them."""
    bot = await make_bot(extensions=(*EXTENSIONS, "cogs.dice"), clock=FakeClock())
    bot.service.dice = Fives()
    channel, gm, bea, cal = fake.channels[0], fake.members[0], fake.members[1], fake.members[2]
    await (await fake.slash(channel, gm, "vic-gm campaign new", options={"company": "The Gilded Knives"})).message()
    await setup_troupes(bot, fake, channel)
    await (await fake.slash(channel, gm, "vic-gm turn start")).message()
    board = await (await fake.slash(channel, gm, "vic-gm knavery", options={"challenges": 1, "roll_at": 2})).message()
    for name, member in (("Ana", bea), ("Bo", cal)):
        joined = await join_with(fake, board, name, member)
        await (await fake.select(joined, str(joined.selects[0]["custom_id"]), [], member)).message()
    await fake.wait_for_message(channel, lambda m: "rolls by itself" in m.content)
    await bot.settled()
    await bot.get_cog("Dice").settled()  # type: ignore[union-attr]
    for member in (bea, cal):
        luck = await (await fake.slash(channel, member, "stats luck")).message()
        assert re.search(r"^d6\s+1\s+5\.0", luck.content, re.MULTILINE), luck.content
    mine = await (await fake.slash(channel, gm, "stats luck")).message()
    assert not re.search(r"^d6\s", mine.content, re.MULTILINE), mine.content
