"""Issue 28, part 1: the GM's clicks that carry no decision, through the local Discord.

A fight's death tests are made in one click (each still rolled and told on its own), the hits are worked out with
the roll (or the last push) once nobody may reroll, *Push* names who may push and nobody else is offered it, the GM
is called when a pool is ready to roll (never for their own click), "flee, or fight on" is called only when the
fight goes on, and a rival's consequence is picked on the GM's private answer to the turn's start.
"""

from __future__ import annotations

from bot.app import TabletopBot
from localdiscord.guild import Channel
from localdiscord.messages import Message
from localdiscord.server import LocalDiscord
from tests.conftest import MakeBot
from tests.test_e2e_vic_table import Dice, click_when_shown, pick, setup_troupes
from tests.vic_e2e_support import campaign_state, join_with, vic_bot

NO_PUSH = "None of your characters can push now"


async def a_turn(fake: LocalDiscord, make_bot: MakeBot) -> tuple[TabletopBot, Channel, str, str]:
    """A campaign with Bea's Ana and Cal's Bo, and turn 1 under way."""
    bot = await vic_bot(make_bot)
    channel, gm = fake.channels[0], fake.members[0]
    await (await fake.slash(channel, gm, "vic-gm campaign new", options={"company": "The Gilded Knives"})).message()
    ana, bo = await setup_troupes(bot, fake, channel)
    await (await fake.slash(channel, gm, "vic-gm turn start")).message()
    return bot, channel, ana, bo


async def open_fight(fake: LocalDiscord, channel: Channel, sides: str) -> Message:
    """The GM opens a fight; its board."""
    return await (await fake.slash(channel, fake.members[0], "vic-gm violence", options={"sides": sides})).message()


def said(fake: LocalDiscord, channel: Channel, text: str) -> list[Message]:
    """The channel's messages that say ``text``."""
    return [m for m in fake.messages(channel) if text in m.content]


async def test_the_hits_are_worked_out_with_the_roll_when_nobody_may_push(
    fake: LocalDiscord, make_bot: MakeBot
) -> None:
    bot, channel, ana, bo = await a_turn(fake, make_bot)
    gm, bea, cal = fake.members[0], fake.members[1], fake.members[2]
    for pc in (ana, bo):
        await (await fake.slash(channel, gm, "vic pc condition", options={"pc": pc, "change": "rattle"})).message()
    # Both are rattled (their dice come in pairs): two hits for the Knives; the guards miss.
    bot.service.dice = Dice({f"t1p1.r1.{pc}.0{second}": [4] for pc in (ana, bo) for second in ("", ".2")})
    fight = await open_fight(fake, channel, "Knives vs Guards (2)")
    await join_with(fake, fight, "Ana → Knives", bea)
    await join_with(fake, fight, "Bo → Knives", cal)
    rolled = await click_when_shown(fake, fight, "Roll", gm)
    # Nobody may push (both rattled): the roll's own message tells where its hits landed; no Push is offered.
    assert "Knives → Guards: 2 sent, **2 land**: Guards 1, Guards 2 wounded" in rolled.content, rolled.content
    await fake.wait_for(lambda: "death tests" in str(fight.selects), what="the death tests")
    assert "Push" not in fight.describe_buttons() and "Work out the hits" not in fight.describe_buttons()


async def test_a_fights_death_tests_take_one_click_each_rolled_on_its_own(
    fake: LocalDiscord, make_bot: MakeBot
) -> None:
    bot, channel, ana, _ = await a_turn(fake, make_bot)
    gm, bea = fake.members[0], fake.members[1]
    # Ana's two hits wound both guards; Guard 1 dies, Guard 2 survives.
    script = {f"t1p1.r1.{ana}.0": [4], "t1p1.r1.eq-a.0": [4], "t1p1.r1.death.n1": [2], "t1p1.r1.death.n2": [3]}
    bot.service.dice = Dice(script)
    fight = await open_fight(fake, channel, "Knives vs Guards (2)")
    await join_with(fake, fight, "Ana → Knives", bea)
    tools = await (await fake.click(fight, "GM: dice…", gm)).message()
    await pick(fake, tools, "Equipment", ["Knives: 1 equipment d4"], gm)
    await fake.wait_for(lambda: "equipment" in str(fight.embeds), what="the equipment die")
    await click_when_shown(fake, fight, "Roll", gm)
    await click_when_shown(fake, fight, "Work out the hits", gm)
    await fake.wait_for(lambda: "death tests" in str(fight.selects), what="the death tests")
    assert str(fight.selects).count("death test (d4") == 2  # the GM may still choose each one's care
    tested = await click_when_shown(fake, fight, "Roll the death tests", gm)
    assert "Death test for Guards 1" in tested.content and "💀 dies" in tested.content
    assert "Death test for Guards 2" in tested.content and "survives" in tested.content
    assert "The fight is over after 1 round." in tested.content
    assert not (await campaign_state(bot, channel)).pools


async def test_push_names_who_may_and_flight_is_called_only_when_the_fight_goes_on(
    fake: LocalDiscord, make_bot: MakeBot
) -> None:
    bot, channel, ana, _ = await a_turn(fake, make_bot)
    gm, bea, cal = fake.members[0], fake.members[1], fake.members[2]
    bot.service.dice = Dice({f"t1p1.r1.{ana}.0": [4], f"t1p1.r1.{ana}.re1.0": [4]})
    fight = await open_fight(fake, channel, "Knives vs Guards (2)")
    await join_with(fake, fight, "Ana → Knives", bea)
    await join_with(fake, fight, "Bo → Knives", cal)
    await click_when_shown(fake, fight, "Roll", gm)
    pushed = await click_when_shown(fake, fight, "Push: reroll (Ana, Bo)", bea)
    assert "Ana pushes and rerolls" in pushed.content
    # Ana has pushed: the button names only Bo, and Bea, who has nobody left to push, is told so.
    await fake.wait_for(lambda: "Push: reroll (Bo)" in fight.describe_buttons(), what="Push for Bo only")
    again = await (await fake.click(fight, "Push: reroll (Bo)", bea)).message()
    assert again.ephemeral and NO_PUSH in again.content
    # Bo's push is the last one anyone may make: the hits are worked out with it, and the Knives choose whom.
    last = await click_when_shown(fake, fight, "Push: reroll (Bo)", cal)
    assert "Bo pushes and rerolls" in last.content and "choose" in last.content.casefold()
    await fake.wait_for(lambda: "who does the hit wound" in str(fight.selects), what="the aim select")
    await pick(fake, fight, "who does the hit wound", ["Guards 1"], bea)
    await fake.wait_for(lambda: "Roll them and end the fight" in fight.describe_buttons(), what="the end")
    ended = await click_when_shown(fake, fight, "Roll them and end the fight", gm)
    assert "Death test for Guards 1" in ended.content and "The fight is over after 1 round." in ended.content
    await bot.settled()
    assert said(fake, channel, "flee, or fight on") == []  # the GM ended it at once: nobody is called to flee

    # Next turn, a fight the GM ends once its dice are cast and nobody is hurt: no flight either.
    await (await fake.slash(channel, gm, "vic-gm turn next")).message()
    await (await fake.slash(channel, gm, "vic pc condition", options={"pc": ana, "change": "calm"})).message()
    fight = await open_fight(fake, channel, "Knives vs Rats (Rat)")
    await join_with(fake, fight, "Ana → Knives", bea)
    await click_when_shown(fake, fight, "Roll", gm)
    await click_when_shown(fake, fight, "End after this round", gm)
    await fake.wait_for(lambda: "ends the fight with this round" in fight.embeds[0]["description"], what="🏁")
    worked = await click_when_shown(fake, fight, "Work out the hits", gm)
    assert "The fight is over after 1 round." in worked.content
    await bot.settled()
    assert said(fake, channel, "flee, or fight on") == []


async def test_the_gm_is_called_when_a_pool_is_ready_to_roll_never_for_their_own_click(
    fake: LocalDiscord, make_bot: MakeBot
) -> None:
    bot, channel, _, _ = await a_turn(fake, make_bot)
    gm, bea, cal = fake.members[0], fake.members[1], fake.members[2]
    # A fight: the players join one side; the GM's own NPCs make it ready, so nobody calls the GM.
    fight = await open_fight(fake, channel, "Knives vs Guards")
    await join_with(fake, fight, "Ana → Knives", bea)
    await join_with(fake, fight, "Bo → Knives", cal)
    await (await fake.slash(channel, gm, "vic-gm npc", options={"name": "Guard", "side": "b"})).message()
    await bot.settled()
    assert said(fake, channel, "is ready to roll") == []
    await click_when_shown(fake, fight, "End the fight", gm)
    # A scheme: once Cal brings the last character anyone could, the GM is pinged (Cal is not).
    scheme = await (await fake.slash(channel, gm, "vic-gm knavery", options={"challenges": 1})).message()
    await join_with(fake, scheme, "Ana", bea)
    await bot.settled()
    assert said(fake, channel, "is ready to roll") == []
    await join_with(fake, scheme, "Bo", cal)
    ready = await fake.wait_for_message(channel, lambda m: "is ready to roll" in m.content)
    assert ready.content.startswith(f"🔔 <@{gm.id}>: the scheme is ready to roll") and ready.mentions == [gm.id]
    # A GM who asked for direct messages gets the call there instead.
    await (await fake.slash(channel, gm, "vic calls", options={"how": "dm"})).message()
    await click_when_shown(fake, scheme, "Abandon", gm)
    again = await (await fake.slash(channel, gm, "vic-gm knavery", options={"challenges": 1})).message()
    await join_with(fake, again, "Ana", bea)
    await join_with(fake, again, "Bo", cal)
    dms = fake.dm_channel(gm)
    await fake.wait_for(lambda: any("is ready to roll" in m.content for m in fake.messages(dms)), what="the DM")
    assert all(gm.id not in m.mentions for m in said(fake, channel, "is ready to roll")[1:])


async def test_a_rivals_consequence_is_picked_on_the_turns_private_answer_and_applied_with_the_pick(
    fake: LocalDiscord, make_bot: MakeBot
) -> None:
    bot, channel, _, _ = await a_turn(fake, make_bot)
    gm, bea = fake.members[0], fake.members[1]
    for name in ("Baron Vex", "Countess Ilse"):
        await (await fake.slash(channel, gm, "vic-rival add", options={"name": name, "rank": 3})).message()
    for rival in ("r1", "r2"):
        await (await fake.slash(channel, gm, "vic-rival design", options={"rival": rival, "text": "Squeeze"})).message()
    # Both designs are initiated at the turn's end (d20 1) and succeed at the next start (d4 1).
    script = {f"rival.r{n}.t1.d20": [1] for n in (1, 2)} | {f"rival.r{n}.t2.d4": [1] for n in (1, 2)}
    bot.service.dice = Dice(script | {"rival.r2.t2.d6": [5]})  # the Countess's d6: an unfriendly NPC emerges
    await (await fake.slash(channel, gm, "vic-gm turn end")).message()
    ip = (await campaign_state(bot, channel)).company.ip
    started = await fake.slash(channel, gm, "vic-gm turn start")
    assert "**Turn 2** begins" in (await started.message()).content
    prompt = (await started.followups(1))[0]
    assert prompt.ephemeral and "Only you see this" in prompt.content
    # The consequence is picked right there, a select per rival, each naming its rival.
    placeholders = [str(s.get("placeholder")) for s in prompt.selects]
    assert placeholders == ["Baron Vex: the consequence", "Countess Ilse: the consequence"]
    done = await pick(fake, prompt, "Baron Vex: the consequence", ["light 1. The wealth track lowers by 1"], gm)
    assert "GM screen" in str(done.embeds) and "apply the consequence" not in done.describe_buttons()
    told = await fake.wait_for_message(channel, lambda m: "Investment points −1" in m.content)
    assert "Baron" not in told.content and (await campaign_state(bot, channel)).company.ip == ip - 1
    # A rolled row waits for the GM to apply it, its buttons naming the rival.
    rolled = await pick(fake, done, "Countess Ilse: the consequence", ["Roll the d6 on the light table"], gm)
    assert "Countess Ilse: apply the consequence" in rolled.describe_buttons()
    assert "Countess Ilse: don't apply" in rolled.describe_buttons()
    assert all("Baron" not in m.content and "Countess" not in m.content for m in fake.messages(channel))
    refused = await (await fake.slash(channel, bea, "vic-gm screen")).message()
    assert refused.ephemeral and "Only the GM" in refused.content


async def test_a_rivals_move_a_co_gm_began_calls_the_gm_by_direct_message_alone(
    fake: LocalDiscord, make_bot: MakeBot
) -> None:
    """A rival's move waits on the GM; when a co-GM's click began it, the GM is called by direct message (the wait
    is the GM's secret: nothing of it in the channel), and never for their own click."""
    bot, channel, _, _ = await a_turn(fake, make_bot)
    gm, dan = fake.members[0], fake.members[3]
    await (await fake.slash(channel, gm, "vic-gm campaign cogm", options={"member": dan})).message()
    await (await fake.slash(channel, gm, "vic-rival add", options={"name": "Baron Vex", "rank": 3})).message()
    await (await fake.slash(channel, gm, "vic-rival design", options={"rival": "r1", "text": "Squeeze"})).message()
    bot.service.dice = Dice({"rival.r1.t1.d20": [1], "rival.r1.t2.d4": [1]})  # initiated, then it succeeds
    await (await fake.slash(channel, gm, "vic-gm turn end")).message()
    started = await fake.slash(channel, dan, "vic-gm turn start")
    assert "**Turn 2** begins" in (await started.message()).content
    dms = fake.dm_channel(gm)
    await fake.wait_for(lambda: any("Baron Vex" in m.content for m in fake.messages(dms)), what="the GM's call")
    call = next(m for m in fake.messages(dms) if "Baron Vex" in m.content)
    assert "move waits for you" in call.content and "/vic-gm screen" in call.content
    await bot.settled()
    assert not any("Baron" in m.content for m in fake.messages(channel))
    assert not any("Baron" in m.content for m in fake.messages(fake.dm_channel(dan)))
    # The GM's own turn start is answered privately with the move's controls: no call for their own click.
    before = len(fake.messages(dms))
    await (await fake.slash(channel, gm, "vic-gm turn end")).message()
    await (await fake.slash(channel, gm, "vic-gm turn start")).message()
    await bot.settled()
    assert len(fake.messages(dms)) == before
