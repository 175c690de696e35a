"""Three turns of a campaign end to end: a GM and two players, purchases, rewards, an investment that promotes the
company and a consequence that demotes it, a restart in the middle, two players acting at once, the log, and an
export that imports as the same campaign."""

from __future__ import annotations

import asyncio

from localdiscord.server import LocalDiscord
from tests.conftest import MakeBot
from tests.vic_e2e_support import campaign_state, new_troupe, option_value, pick, vic_bot


async def test_three_turns_with_wealth_and_a_restart(fake: LocalDiscord, make_bot: MakeBot) -> None:
    bot = await vic_bot(make_bot)
    channel, other = fake.channels[0], fake.channels[1]
    gm, bob, carol = fake.members[0], fake.members[1], fake.members[2]
    company = await (await fake.slash(channel, gm, "vic-gm campaign new", options={"company": "Knives"})).message()
    bobs = await new_troupe(fake, channel, bob, "Rats", "Vex", ["Acrobat", "Lurker", "Machinist"], "liquid_coin")
    carols = await new_troupe(fake, channel, carol, "Owls", "Mira", ["Historian", "Duelist", "Medic"])
    refused = await (await fake.slash(channel, bob, "vic-gm company ip", options={"change": 13})).message()
    assert refused.ephemeral and "Only the GM" in refused.content
    await (await fake.slash(channel, gm, "vic-gm company ip", options={"change": 13})).message()
    vex, mira = f"{bob.id}.1", f"{carol.id}.1"

    # Turn 1: the GM starts it on the company sheet; Bob buys a knife for Vex; Carol's Mira rests.
    refused = await (await fake.click(company, "Start turn 1", bob)).message()
    assert refused.ephemeral and "Only the GM" in refused.content
    await (await fake.click(company, "Start turn 1", gm)).message()
    await fake.wait_for(lambda: "2 coins of rank 2" in str(company.embeds), what="the turn's coins on the sheet")
    browse = await (await fake.slash(channel, bob, "vic price", options={"rank": 2, "item": "A knife"})).message()
    assert "say who acquires it" in str(browse.embeds) and "Pay" not in str(browse.components)
    price = await (
        await fake.slash(channel, bob, "vic price", options={"rank": 2, "item": "A knife", "pc": vex})
    ).message()
    assert price.ephemeral and "): 1 → **1 coin**" in str(price.embeds)
    bought = await (await fake.click(price, "Pay 1 turn coin", bob)).message()
    assert "Vex" in bought.content and "A knife" in bought.content
    await fake.wait_for_message(channel, lambda m: "A knife" in m.content and not m.ephemeral)
    await fake.wait_for(lambda: "Rest" not in str(bobs.components), what="Vex's action used up on his sheet")
    await pick(fake, carols, "Mira rests", carol)
    # A reward (GM), then an investment that takes the company to rank 3, announced in the channel.
    reward = await (await fake.slash(channel, gm, "vic-gm reward", options={"method": "rare", "npc_rank": 3})).message()
    assert not reward.ephemeral and "3 coins of rank 2" in reward.content
    invested = await (await fake.slash(channel, gm, "vic-gm invest", options={"coins": 2})).message()
    assert not invested.ephemeral and "rose to **wealth rank 3**" in invested.content
    ended = await (await fake.slash(channel, gm, "vic-gm turn end")).message()
    assert "1 coin of rank 2 went unspent" in ended.content
    state = await campaign_state(bot, channel)
    assert (state.company.ip, state.company.rank, state.company.liquid_at(2)) == (30, 3, 2)
    assert state.troupes[str(bob.id)].assets == ("A knife",)

    # The bot restarts between turns; the posted sheets keep working.
    await bot.close()
    bot = await vic_bot(make_bot)

    # Turn 2: a horse (rank 4) is priced out of reach until it is low quality; a consequence demotes the company.
    await (await fake.click(company, "Start turn 2", gm)).message()
    price = await (
        await fake.slash(channel, carol, "vic price", options={"rank": 4, "item": "A horse", "pc": mira})
    ).message()
    assert "1 + 2 (1 rank above the coins' rank) = 3 → **3 coins**" in str(price.embeds) and "Pay" not in str(
        price.components
    )
    custom_id, _ = option_value(price, "Custom-built")
    cheaper = await (await fake.select(price, custom_id, ["low_quality"], carol)).message()
    assert (
        cheaper.id == price.id
        and "1 + 2 (1 rank above the coins' rank) − 1 (Low quality and secondhand) = 2 → **2 coins**"
        in str(cheaper.embeds)
    )
    await (await fake.click(cheaper, "Pay 2 turn coins", carol)).message()
    demoted = await (await fake.slash(channel, gm, "vic-gm company ip", options={"change": -5})).message()
    assert "fell to **wealth rank 2**" in demoted.content
    await (await fake.slash(channel, gm, "vic-gm turn end")).message()

    # Turn 3: both players pick their characters' actions on their own sheets at the same moment.
    await (await fake.slash(channel, gm, "vic-gm turn start")).message()
    await fake.wait_for(lambda: "Vex rests" in str(bobs.components), what="Bob's sheet to offer turn 3's actions")
    await fake.wait_for(lambda: "Mira rests" in str(carols.components), what="Carol's sheet too")
    picks = [option_value(bobs, "Vex rests"), option_value(carols, "Mira takes another action")]
    clicks = [
        await fake.select(bobs, picks[0][0], [picks[0][1]], bob),
        await fake.select(carols, picks[1][0], [picks[1][1]], carol),
    ]
    answers = await asyncio.gather(*(c.message() for c in clicks))
    assert all(not a.ephemeral for a in answers), [a.content for a in answers]
    divested = await (await fake.slash(channel, gm, "vic-gm divest")).message()
    assert "Divested 2 IP for 1 coin of rank 2" in divested.content
    await (await fake.slash(channel, gm, "vic-gm turn end")).message()
    state = await campaign_state(bot, channel)
    assert state.turn.number == 3 and not state.turn.running
    assert (state.company.ip, state.company.rank, state.company.liquid_at(2)) == (23, 2, 3)
    assert state.find_pc(vex).action_turn == 3 and state.find_pc(mira).action == "other"  # type: ignore[union-attr]

    log = await (await fake.slash(channel, bob, "vic log")).message()
    assert [f["name"] for f in log.embeds[0]["fields"]] == ["Before the first turn", "Turn 1", "Turn 2", "Turn 3"]
    assert "A horse" in str(log.embeds) and "fell to" in str(log.embeds)
    one = await (await fake.slash(channel, bob, "vic log", options={"turn": 2})).message()
    assert one.embeds[0]["title"] == "Turn 2" and "A horse" in str(one.embeds) and "A knife" not in str(one.embeds)
    # A log written before entries were stored with their turn (migration 7) gets them at its first read.
    session = await bot.service.campaign(channel.id, fake.guild_id)
    assert session is not None and await bot.store.chaptered(session.id)
    await bot.store.conn.execute("UPDATE session_events SET chapter = NULL WHERE session_id = ?", (session.id,))
    assert not await bot.store.chaptered(session.id)
    again = await (await fake.slash(channel, bob, "vic log")).message()
    assert again.embeds == log.embeds and await bot.store.chaptered(session.id)

    # Export → archive → import elsewhere: the same campaign.
    exported = await (await fake.slash(channel, gm, "vic-gm campaign export")).message()
    data = fake.attachment_bytes(exported.attachments[0])
    await (await fake.slash(channel, gm, "vic-gm campaign archive")).message()
    imported = await (
        await fake.slash(other, gm, "vic-gm campaign import", options={"file": ("c.json", data)})
    ).message()
    assert "Knives" in str(imported.embeds)
    assert await campaign_state(bot, other) == state
