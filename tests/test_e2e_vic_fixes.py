"""What a GM saw wrong or lost (issue 19, part 1), each through the local Discord: the temperaments' odds on the GM
screen, a fight's board after a side is wiped out, a ninth side, too many NPC dice, a refused form, an archived
campaign, a dissolved troupe's minion."""

from __future__ import annotations

import json

from bot.models import Actor
from localdiscord.server import LocalDiscord
from rules.viciousness.data import PROCEDURES
from tests.conftest import MakeBot
from tests.test_e2e_vic_table import Dice, pick, setup_troupes
from tests.vic_e2e_support import campaign_state, join_with, split_traits, typed_into, vic_bot


async def test_the_gm_screen_gives_each_temperament_the_odds_the_roll_uses(
    fake: LocalDiscord, make_bot: MakeBot
) -> None:
    await vic_bot(make_bot)
    channel, gm = fake.channels[0], fake.members[0]
    await (await fake.slash(channel, gm, "vic-gm campaign new")).message()
    await (await fake.slash(channel, gm, "vic-rival add", options={"name": "Vane", "rank": 3})).message()
    for temperament in ("rash", "default", "shrewd"):
        design = {"rival": "r1", "text": f"A {temperament} plan", "temperament": temperament}
        await (await fake.slash(channel, gm, "vic-rival design", options=design)).message()
    screen = json.dumps((await (await fake.slash(channel, gm, "vic-gm screen")).message()).embeds, ensure_ascii=False)
    for temperament, needed in PROCEDURES.rivals.success_in_4.items():
        assert f"{temperament} ({needed}-in-4)" in screen, screen
    assert "d4 ≤ 1" not in screen


async def test_a_fights_board_shows_the_hits_as_they_landed_after_a_side_is_wiped_out(
    fake: LocalDiscord, make_bot: MakeBot
) -> None:
    bot = await vic_bot(make_bot)
    channel, gm, bea, cal = fake.channels[0], fake.members[0], fake.members[1], fake.members[2]
    await (await fake.slash(channel, gm, "vic-gm campaign new")).message()
    await setup_troupes(bot, fake, channel)
    bot.service.dice = Dice({"t1p1.r1.n1.0": [4]})  # only the Guard hits
    await (await fake.slash(channel, gm, "vic-gm turn start")).message()
    fight = await (
        await fake.slash(channel, gm, "vic-gm violence", options={"sides": "Knives vs Crows vs Guards"})
    ).message()
    for member, label in ((bea, "Ana → Knives"), (cal, "Bo → Crows")):
        await join_with(fake, fight, label, member)
    await (await fake.slash(channel, gm, "vic-gm npc", options={"name": "Guard", "side": "c"})).message()
    await bot.settled()  # the board the GM rolls on shows his Guard (a click drawn before his change is stale)
    await (await fake.click(fight, "Roll", gm)).message()
    # The Guards' choice is the GM's: it is offered at once, and working out the hits comes with it.
    await fake.wait_for(lambda: "GM, work out the hits: Guards: send hits where" in str(fight.selects), what="it")
    told = await pick(fake, fight, "send hits where", ["Guards sends 1 at Crows"], gm)
    assert "Guards → Crows" in told.content and "Bo wounded" in told.content
    await fake.wait_for(lambda: "death tests" in str(fight.selects), what="the death test")
    board = json.dumps(fight.embeds, ensure_ascii=False)
    assert "Guards → Crows: 1 sent, **1 land**" in board, board
    assert "Guards → Knives" not in board


async def test_a_ninth_side_and_too_many_npc_dice_are_refused_with_the_limit(
    fake: LocalDiscord, make_bot: MakeBot
) -> None:
    bot = await vic_bot(make_bot)
    channel, gm = fake.channels[0], fake.members[0]
    await (await fake.slash(channel, gm, "vic-gm campaign new")).message()
    nine = " vs ".join(f"Side {i}" for i in range(1, 10))
    refused = await (await fake.slash(channel, gm, "vic-gm violence", options={"sides": nine})).message()
    assert refused.ephemeral and "8 sides at most" in refused.content, refused.content
    assert not (await campaign_state(bot, channel)).pools
    await (await fake.slash(channel, gm, "vic-gm violence", options={"sides": "Us vs Them"})).message()
    npc = {"name": "Ogre", "dice": "11d4", "side": "Them"}
    refused = await (await fake.slash(channel, gm, "vic-gm npc", options=npc)).message()
    assert refused.ephemeral and "10 dice at most" in refused.content, refused.content
    assert not (await campaign_state(bot, channel)).pools["t0p1"].combatants


async def test_a_form_refused_for_its_traits_reopens_with_what_was_typed(fake: LocalDiscord, make_bot: MakeBot) -> None:
    bot = await vic_bot(make_bot)
    channel, gm, bob = fake.channels[0], fake.members[0], fake.members[1]
    await (await fake.slash(channel, gm, "vic-gm campaign new")).message()
    opened = await fake.slash(channel, bob, "vic troupe new", options={"asset": "favor"})
    await opened.response()
    assert opened.modal is not None
    typed = typed_into(opened.modal, "Rats", name="Vex", concept="A retired acrobat with *flair*")
    values = {**typed, **split_traits(opened.modal, ["Acrobat", "Lurker"])}
    refused = await (await fake.submit_modal(opened, values)).message()
    assert refused.ephemeral and "Pick exactly 3 traits (you picked 2)" in refused.content
    assert str(bob.id) not in (await campaign_state(bot, channel)).troupes
    again = await fake.click(refused, "Fix the form", bob)
    await again.response()
    assert again.modal is not None, again.errors
    inputs = {
        c["custom_id"]: c for row in again.modal["components"] if (c := row.get("component") or {}).get("custom_id")
    }
    for key, text in typed.items():
        assert inputs[key].get("value") == text, inputs[key]
    chosen = [o["value"] for c in inputs.values() for o in c.get("options", []) if o.get("default")]
    assert sorted(chosen) == ["Acrobat", "Lurker"]
    values = {**typed, **split_traits(again.modal, ["Acrobat", "Lurker", "Driver"])}
    sheet = await (await fake.submit_modal(again, values)).message()
    assert "Rats" in str(sheet.embeds)


async def test_an_archived_campaign_stays_readable_and_can_be_restored(fake: LocalDiscord, make_bot: MakeBot) -> None:
    bot = await vic_bot(make_bot)
    channel, gm, bob = fake.channels[0], fake.members[0], fake.members[1]
    await (await fake.slash(channel, gm, "vic-gm campaign new", options={"company": "Gilded Knives"})).message()
    await (await fake.slash(channel, gm, "vic-gm reward", options={"method": "rare", "npc_rank": 3})).message()
    archived = await (await fake.slash(channel, gm, "vic-gm campaign archive")).message()
    assert not archived.ephemeral and "archived" in archived.content and "restore" in archived.content
    refused = await (
        await fake.slash(channel, gm, "vic-gm reward", options={"method": "rare", "npc_rank": 3})
    ).message()
    assert refused.ephemeral and "archived" in refused.content
    log = await (await fake.slash(channel, bob, "vic log")).message()
    assert "3 coins of rank 2" in json.dumps(log.embeds, ensure_ascii=False)
    sheet = await (await fake.slash(channel, bob, "vic-gm company show")).message()
    assert "Gilded Knives" in str(sheet.embeds) and "Archived" in str(sheet.embeds)
    exported = await (await fake.slash(channel, gm, "vic-gm campaign export")).message()
    assert exported.ephemeral and exported.attachments
    history = await (await fake.slash(channel, bob, "game history")).message()
    assert "Viciousness" in history.content and "Gilded Knives" in history.content and "archived" in history.content
    restored = await (await fake.slash(channel, gm, "vic-gm campaign restore")).message()
    assert not restored.ephemeral and "back" in restored.content
    paid = await (await fake.slash(channel, gm, "vic-gm reward", options={"method": "rare", "npc_rank": 3})).message()
    assert "3 coins of rank 2" in paid.content
    assert (await campaign_state(bot, channel)).company.liquid_at(2) == 6


async def test_a_dissolved_troupes_minion_no_longer_acts(fake: LocalDiscord, make_bot: MakeBot) -> None:
    bot = await vic_bot(make_bot)
    channel, gm, bea = fake.channels[0], fake.members[0], fake.members[1]
    await (await fake.slash(channel, gm, "vic-gm campaign new")).message()
    ana, _ = await setup_troupes(bot, fake, channel)
    minion = {"type": "add_pc", "owner": str(bea.id), "pc": {"name": "Mags", "traits": ["Driver", "Hacker"]}}
    session = await bot.service.campaign(channel.id, fake.guild.id)
    assert session is not None
    await bot.service.act(session.id, Actor(bea.id, bea.display_name), minion)
    await (await fake.slash(channel, gm, "vic-gm turn start")).message()
    await (await fake.slash(channel, gm, "vic pc condition", options={"pc": ana, "change": "kill"})).message()
    rest = await (await fake.slash(channel, bea, "vic pc act", options={"pc": "Mags", "action": "rest"})).message()
    assert rest.ephemeral and "troupe has dissolved" in rest.content, rest.content
