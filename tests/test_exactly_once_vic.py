"""A click never applies twice, on a Viciousness pool's board: N identical clicks, picks or form submits on each of
its controls (join, leave, the dice, the GM's tools, roll, push, the clash, flight, the end) apply once, and every
one is answered. Players building a pool together don't make each other's controls stale
(``tests/test_exactly_once.py`` has the rule)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from bot.app import TabletopBot
from bot.models import Scope, Session
from localdiscord.guild import Channel, Member
from localdiscord.interactions import InteractionResult
from localdiscord.messages import Message
from localdiscord.server import LocalDiscord
from tests.conftest import MakeBot
from tests.exactly_once import CLICKS, answered, at_once, chosen, entries_after
from tests.test_e2e_vic_table import Dice, option, select_on, setup_troupes
from tests.vic_e2e_support import join_with, vic_bot


async def campaign(bot: TabletopBot, channel: Channel) -> Session:
    await bot.settled()
    session = await bot.store.live_session(channel.id, Scope.CAMPAIGN)
    assert session is not None
    return session


async def applied_once(
    bot: TabletopBot, channel: Channel, send: Callable[[], Awaitable[InteractionResult]], kind: str
) -> list[str]:
    """``send`` N times at once: every one answered, one ``kind`` action committed; what they were told."""
    before = (await campaign(bot, channel)).version
    texts = await answered(bot, await at_once(CLICKS, send))
    made = chosen(await entries_after(bot, await campaign(bot, channel), before))
    assert [e.action["action"]["type"] for e in made] == [kind], [e.action for e in made]
    return texts


def picking(
    fake: LocalDiscord, message: Message, placeholder: str, labels: list[str], member: Member
) -> Callable[[], Awaitable[InteractionResult]]:
    """``member``'s pick of the options ``labels`` in the select ``placeholder`` of ``message``, to send N times."""
    menu = select_on(message, placeholder)
    values = [option(menu, label) for label in labels]
    return lambda: fake.select(message, str(menu["custom_id"]), values, member)


async def scheme(fake: LocalDiscord, bot: TabletopBot, channel: Channel, script: dict[str, list[int]]) -> Message:
    """A campaign, two troupes, and a scheme of two challenges on the board (nobody in it yet)."""
    gm = fake.members[0]
    await (await fake.slash(channel, gm, "vic-gm campaign new")).message()
    await setup_troupes(bot, fake, channel)
    bot.service.dice = Dice(script)
    return await (await fake.slash(channel, gm, "vic-gm knavery", options={"challenges": 2})).message()


async def test_n_clicks_on_each_control_of_a_scheme_apply_once(fake: LocalDiscord, make_bot: MakeBot) -> None:
    bot = await vic_bot(make_bot)
    channel = fake.channels[0]
    gm, bea, cal = fake.members[0], fake.members[1], fake.members[2]
    ana = f"{bea.id}.1"
    board = await scheme(fake, bot, channel, {f"t0p1.{ana}.0": [6], f"t0p1.{ana}.re1.0": [6]})
    await fake.wait_for(lambda: bool(board.selects), what="the join select")
    await applied_once(bot, channel, picking(fake, board, "Join with", ["Ana"], bea), "join")
    await applied_once(bot, channel, lambda: fake.click(board, "Leave", bea), "leave")
    answer = await join_with(fake, board, "Ana", bea)
    await applied_once(bot, channel, picking(fake, answer, "trait dice", ["Lurker"], bea), "pick")
    await join_with(fake, board, "Bo", cal)
    tools = await (await fake.click(board, "GM: dice…", gm)).message()
    await applied_once(bot, channel, picking(fake, tools, "Grant", ["Grant Ana +d6"], gm), "grant")
    await applied_once(bot, channel, picking(fake, tools, "Veto", ["Veto Ana's Lurker"], gm), "veto")
    await fake.wait_for(lambda: "Roll" in board.describe_buttons(), what="the Roll button")
    await applied_once(bot, channel, lambda: fake.click(board, "Roll", gm), "roll")
    await fake.wait_for(lambda: "Push: reroll (Ana, Bo)" in board.describe_buttons(), what="the push button")
    await applied_once(bot, channel, lambda: fake.click(board, "Push: reroll (Ana, Bo)", bea), "reroll")
    await fake.wait_for(lambda: "thwarted" in str(board.selects), what="the thwart select")
    menu = next(s for s in board.selects if "thwarted" in str(s.get("placeholder")))
    picker = gm if str(menu["placeholder"]).startswith("GM") else cal  # a prepared group picks its own
    values = [o["value"] for o in menu["options"]][: menu["min_values"]]
    await applied_once(bot, channel, lambda: fake.select(board, menu["custom_id"], values, picker), "thwart")


async def test_n_clicks_on_each_control_of_a_fight_apply_once(fake: LocalDiscord, make_bot: MakeBot) -> None:
    bot = await vic_bot(make_bot)
    channel = fake.channels[0]
    gm, bea, cal = fake.members[0], fake.members[1], fake.members[2]
    await (await fake.slash(channel, gm, "vic-gm campaign new")).message()
    await setup_troupes(bot, fake, channel)
    bot.service.dice = Dice({})  # every die shows 3: nobody hits
    await (await fake.slash(channel, gm, "vic-gm turn start")).message()
    fight = await (await fake.slash(channel, gm, "vic-gm violence", options={"sides": "Knives vs Guards"})).message()
    await join_with(fake, fight, "Ana → Knives", bea)
    await join_with(fake, fight, "Bo → Knives", cal)
    await (await fake.slash(channel, gm, "vic-gm npc", options={"name": "Guard", "side": "b"})).message()
    await bot.settled()
    tools = await (await fake.click(fight, "GM: dice…", gm)).message()
    await applied_once(bot, channel, picking(fake, tools, "Equipment", ["Knives: 2 equipment d4"], gm), "equip")
    await applied_once(bot, channel, lambda: fake.click(fight, "Roll", gm), "roll")
    await applied_once(bot, channel, lambda: fake.click(fight, "Push: reroll (Ana, Bo)", bea), "reroll")
    await applied_once(bot, channel, lambda: fake.click(fight, "Work out the hits", gm), "resolve")
    await applied_once(bot, channel, lambda: fake.click(fight, "Flee", cal), "flee")
    await applied_once(bot, channel, lambda: fake.click(fight, "Next round", gm), "next_round")
    await applied_once(bot, channel, lambda: fake.click(fight, "End the fight", gm), "close")


async def test_a_pool_click_passes_other_players_changes_never_the_clickers_own(
    fake: LocalDiscord, make_bot: MakeBot
) -> None:
    """While the scheme's board still shows it as it was before Bea picked her dice (its redraw on its way), her
    Leave drawn on it is refused (it would act on what she hasn't seen of her own change); Cal's Join on it is
    applied (Bea's pick changed nothing of his)."""
    bot = await vic_bot(make_bot)
    channel = fake.channels[0]
    bea, cal = fake.members[1], fake.members[2]
    board = await scheme(fake, bot, channel, {})
    dice = await join_with(fake, board, "Ana", bea)
    await bot.settled()
    before = (await campaign(bot, channel)).version
    redraw = fake.hold(f"PATCH /api/v10/channels/{channel.id}/messages/{board.id}")
    await (await picking(fake, dice, "trait dice", ["Lurker"], bea)()).message()
    await redraw.arrived()
    late = await fake.click(board, "Leave", bea)
    refused = await late.message()
    joined = await picking(fake, board, "Join with", ["Bo"], cal)()
    await joined.response()
    redraw.release()
    await answered(bot, [late, joined])
    assert refused.ephemeral and "out of date" in refused.content, refused.content
    made = chosen(await entries_after(bot, await campaign(bot, channel), before))
    assert [e.action["action"]["type"] for e in made] == ["pick", "join"]


async def test_n_picks_of_a_death_test_roll_it_once(fake: LocalDiscord, make_bot: MakeBot) -> None:
    bot = await vic_bot(make_bot)
    channel = fake.channels[0]
    gm, bea = fake.members[0], fake.members[1]
    await (await fake.slash(channel, gm, "vic-gm campaign new")).message()
    await setup_troupes(bot, fake, channel)
    bot.service.dice = Dice({"t1p1.r1.n1.0": [4]})  # the Guard's die hits Ana
    await (await fake.slash(channel, gm, "vic-gm turn start")).message()
    fight = await (await fake.slash(channel, gm, "vic-gm violence", options={"sides": "Knives vs Guards"})).message()
    await join_with(fake, fight, "Ana → Knives", bea)
    await (await fake.slash(channel, gm, "vic-gm npc", options={"name": "Guard", "side": "b"})).message()
    await bot.settled()
    await (await fake.click(fight, "Roll", gm)).message()
    await bot.settled()
    await (await fake.click(fight, "Work out the hits", gm)).message()
    await bot.settled()
    tests = select_on(fight, "death tests")
    first = [tests["options"][0]["value"]]  # type: ignore[index]
    await applied_once(bot, channel, lambda: fake.select(fight, str(tests["custom_id"]), first, gm), "death_test")
