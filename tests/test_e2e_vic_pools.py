"""Viciousness pools through the local Discord: the GM's dice tools, a four-side fight shared through a form,
a prepared group choosing its thwarted challenges, refusals, and the odds under a pool being built."""

from __future__ import annotations

from bot.models import Scope
from localdiscord.server import LocalDiscord
from tests.conftest import MakeBot
from tests.test_e2e_vic_table import Dice, click_when_shown, pick, setup_troupes
from tests.vic_e2e_support import campaign_state, join_with, vic_bot


async def test_gm_tools_and_a_four_side_fight_shared_through_a_form(fake: LocalDiscord, make_bot: MakeBot) -> None:
    bot = await vic_bot(make_bot)
    channel = fake.channels[0]
    gm, bea = fake.members[0], fake.members[1]
    await (await fake.slash(channel, gm, "vic-gm campaign new")).message()
    ana, _ = await setup_troupes(bot, fake, channel)
    # The ogre rolls nine 4s; everyone else misses.
    bot.service.dice = Dice({f"t0p1.r1.n1.{k}": [4] for k in range(9)})
    fight = await (
        await fake.slash(
            channel, gm, "vic-gm violence", options={"sides": "Ogre, Knives, Crows, Rats", "title": "Brawl"}
        )
    ).message()
    assert "Brawl" in str(fight.embeds)
    await (await fake.slash(channel, gm, "vic-gm npc", options={"name": "Ogre", "dice": "8d4", "side": "a"})).message()
    await join_with(fake, fight, "Ana → Knives", bea)
    for side, name in (("c", "Crow"), ("d", "Rat")):
        await (await fake.slash(channel, gm, "vic-gm npc", options={"name": name, "side": side})).message()
    # Ana picks Lurker's gain and add clauses; the GM vetoes Lurker, grants her a d6 and equips the Knives.
    menu = await (await fake.click(fight, "My dice", bea)).message()
    alone = await pick(fake, menu, "trait dice", ["Lurker +1d4"], bea)
    assert alone.ephemeral and "needs its gain" in alone.content
    chosen = await pick(fake, menu, "trait dice", ["Lurker +1d6", "Lurker +1d4"], bea)
    assert "d6 Lurker · d4 Lurker" in chosen.content
    refused = await (await fake.click(fight, "GM: dice…", bea)).message()
    assert refused.ephemeral and "Only the GM" in refused.content
    tools = await (await fake.click(fight, "GM: dice…", gm)).message()
    await pick(fake, tools, "Veto", ["Veto Ana's Lurker"], gm)
    await pick(fake, tools, "Grant", ["Grant Ana +d6"], gm)
    await pick(fake, tools, "Equipment", ["Knives: 2 equipment d4"], gm)
    state = await campaign_state(bot, channel)
    pool = state.pools["t0p1"]
    ana_c = next(c for c in pool.combatants if c.id == ana)
    assert ana_c.picks == () and ana_c.vetoed == ("Lurker",) and ana_c.extra == (6,)
    await fake.wait_for(lambda: "equipment: 2d4" in str(fight.embeds), what="the equipment on the board")
    assert "odds now" in str(fight.embeds) and "for Ogre" in str(fight.embeds)
    not_yours = await (await fake.click(fight, "Roll", bea)).message()
    assert not_yours.ephemeral and "Only the GM" in not_yours.content
    rolled = await (await fake.click(fight, "Roll", gm)).message()
    assert "9 hits" in rolled.content
    await click_when_shown(fake, fight, "Work out the hits", gm)
    await fake.wait_for(lambda: "Share the hits…" in fight.describe_buttons(), what="the share button")
    form = await fake.click(fight, "Share the hits…", gm)
    bad = await (await fake.submit_modal(form, {"to.b": "x", "to.c": "3", "to.d": "3"})).message()
    assert bad.ephemeral and "whole number" in bad.content
    form = await fake.click(fight, "Share the hits…", gm)
    shared = await (await fake.submit_modal(form, {"to.b": "3", "to.c": "3", "to.d": "3"})).message()
    assert "Ana wounded" in shared.content and "Crow wounded" in shared.content
    state = await campaign_state(bot, channel)
    assert state.find_pc(ana).wounded  # type: ignore[union-attr]
    # A Medic's push names the patient; the trait autocompletes from the character's own pushable traits.
    offered = await (await fake.autocomplete(channel, bea, "vic push", "trait", {"pc": ana, "trait": ""})).choices()
    assert [c["value"] for c in offered] == ["Lurker", "Acrobat", "Medic"]
    treated = await (
        await fake.slash(channel, bea, "vic push", options={"pc": ana, "trait": "Medic", "target": ana})
    ).message()
    assert not treated.ephemeral and "Medic" in treated.content and "2 more turns" in treated.content
    state = await campaign_state(bot, channel)
    assert state.find_pc(ana).recovery == 2 and state.find_pc(ana).rattled  # type: ignore[union-attr]


async def test_a_prepared_group_picks_the_thwarted_challenges(fake: LocalDiscord, make_bot: MakeBot) -> None:
    bot = await vic_bot(make_bot)
    channel = fake.channels[0]
    gm, bea, cal = fake.members[0], fake.members[1], fake.members[2]
    await (await fake.slash(channel, gm, "vic-gm campaign new")).message()
    ana, bo = await setup_troupes(bot, fake, channel)
    bot.service.dice = Dice({f"t0p1.{ana}.0": [5], f"t0p1.{bo}.0": [1]})
    scheme = await (
        await fake.slash(channel, gm, "vic-gm knavery", options={"challenges": 2, "known": "Dogs; Wall"})
    ).message()
    assert "(prepared)" in str(scheme.embeds)
    for member, name in ((bea, "Ana"), (cal, "Bo")):
        await join_with(fake, scheme, name, member)
    await bot.settled()  # the board shows them both before Bo leaves
    await (await fake.click(scheme, "Leave", cal)).response()
    await fake.wait_for(lambda: "Bo" not in str(scheme.embeds), what="Bo gone from the board")
    await join_with(fake, scheme, "Bo", cal)
    await fake.wait_for(lambda: "odds now" in str(scheme.embeds), what="the odds on the board")
    await (await fake.click(scheme, "Roll", gm)).message()
    await fake.wait_for(lambda: "the group: the 1 thwarted" in str(scheme.selects), what="the group's select")
    session = await bot.store.live_session(channel.id, Scope.CAMPAIGN)
    assert session is not None
    done = await pick(fake, scheme, "thwarted", ["Wall"], cal)
    assert "Thwarted: Wall. Still in play: Dogs" in done.content
    state = await campaign_state(bot, channel)
    assert state.company.lockout is not None and not state.pools


async def test_a_pool_click_leaves_the_company_sheet_alone(fake: LocalDiscord, make_bot: MakeBot) -> None:
    """The company sheet looks the same after a change to a pool: it is not edited (each edit counts
    against the channel's rate limit, and a fight makes many)."""
    bot = await vic_bot(make_bot)
    channel = fake.channels[0]
    gm = fake.members[0]
    sheet = await (await fake.slash(channel, gm, "vic-gm campaign new")).message()
    fight = await (await fake.slash(channel, gm, "vic-gm violence", options={"sides": "Ogre, Knives"})).message()
    await bot.publisher.idle()
    edits = sheet.edits
    await (await fake.slash(channel, gm, "vic-gm npc", options={"name": "Ogre", "dice": "3d4", "side": "a"})).message()
    await fake.wait_for(lambda: "Ogre" in str(fight.embeds) and "3" in str(fight.embeds), what="the NPC on the board")
    await bot.publisher.idle()
    assert sheet.edits == edits
    state = await campaign_state(bot, channel)
    assert [c.name for c in state.pools["t0p1"].combatants] == ["Ogre"]


async def test_leaving_a_pool_you_are_not_in_says_so(fake: LocalDiscord, make_bot: MakeBot) -> None:
    bot = await vic_bot(make_bot)
    channel = fake.channels[0]
    gm, bea, cal = fake.members[0], fake.members[1], fake.members[2]
    await (await fake.slash(channel, gm, "vic-gm campaign new")).message()
    await setup_troupes(bot, fake, channel)
    fight = await (await fake.slash(channel, gm, "vic-gm violence", options={"sides": "Ogre, Knives"})).message()
    await join_with(fake, fight, "Ana → Knives", bea)
    await fake.wait_for(lambda: "Leave" in fight.describe_buttons(), what="the Leave button")
    refused = await (await fake.click(fight, "Leave", cal)).message()
    assert refused.ephemeral and "None of your characters in this pool" in refused.content
