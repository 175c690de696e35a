"""A GM with every tool (issue 19, part 3), through the local Discord: house rules at creation and later, shown
where they change play; private notes; editing a rival and a design; a scheme's challenges changed; undo and redo;
handouts to a few players only; a server manager taking a campaign over, never silently; a second action allowed."""

from __future__ import annotations

import json

from bot.controls import decode_action, parse_ui_id
from localdiscord.server import LocalDiscord
from tests.conftest import MakeBot
from tests.seen import text_of
from tests.test_e2e_vic_table import Dice, pick, setup_troupes
from tests.vic_e2e_support import campaign_state, vic_bot

CANARY = "CANARY-handout-51c7"
WALL = "The wall around the counting house"


async def test_house_rules_at_creation_and_later_shown_where_they_change_play(
    fake: LocalDiscord, make_bot: MakeBot
) -> None:
    bot = await vic_bot(make_bot)
    channel, gm, bea = fake.channels[0], fake.members[0], fake.members[1]
    new = await fake.slash(channel, gm, "vic-gm campaign new", options={"company": "Knives"})
    sheet = await new.message()
    panel = (await new.followups(1))[0]
    assert panel.ephemeral and "House rules" in text_of(panel) and "Speed Chess: off" in text_of(panel)
    told = await pick(fake, panel, "Change a house rule", ["Speed Chess: a foiled design"], gm)
    assert "**Speed Chess: a foiled design refunds half its points**" in text_of(told)
    await fake.wait_for_message(channel, lambda m: "📏 House rule: Speed Chess: a foiled design" in m.content)
    await fake.wait_for(lambda: "House rules: Speed Chess" in str(sheet.embeds), what="the house rule on the sheet")
    assert (await campaign_state(bot, channel)).options.speed_chess
    refused = await (await fake.slash(channel, bea, "vic-gm rules")).message()
    assert refused.ephemeral and "Only the GM" in refused.content
    later = await (await fake.slash(channel, gm, "vic-gm rules")).message()
    await pick(fake, later, "Change a house rule", ["Death tests: may wait"], gm)
    fight = await (await fake.slash(channel, gm, "vic-gm violence", options={"sides": "Us vs Them"})).message()
    assert "Death tests: may wait up to 3 rounds" in str(fight.embeds)
    rules = await (await fake.slash(channel, bea, "game rules")).message()
    assert "**Speed Chess: a foiled design refunds half its points**" in str(rules.embeds)
    assert "• Cancelling hits: a side cancels all the hits it can" in str(rules.embeds)


async def test_notes_rivals_and_designs_edited_and_challenges_changed(fake: LocalDiscord, make_bot: MakeBot) -> None:
    bot = await vic_bot(make_bot)
    channel, gm, bea = fake.channels[0], fake.members[0], fake.members[1]
    await (await fake.slash(channel, gm, "vic-gm campaign new")).message()
    refused = await fake.slash(channel, bea, "vic-gm notes")
    assert "Only the GM" in (await refused.message()).content
    form = await fake.slash(channel, gm, "vic-gm notes")
    saved = await (await fake.submit_modal(form, {"text": f"The butler did it {CANARY}"})).message()
    assert saved.ephemeral and "saved" in saved.content
    again = await fake.slash(channel, gm, "vic-gm notes")
    await again.response()
    assert again.modal is not None and CANARY in json.dumps(again.modal)  # the form shows the notes as they are
    await (await fake.slash(channel, gm, "vic-rival add", options={"name": "Vane", "rank": 2})).message()
    await (
        await fake.slash(channel, gm, "vic-rival design", options={"rival": "r1", "text": "Buy the docks"})
    ).message()
    edited = await (
        await fake.slash(channel, gm, "vic-rival edit", options={"rival": "Vane", "name": "Lady Vane", "rank": 4})
    ).message()
    assert edited.ephemeral and "changed" in edited.content
    redesign = {"rival": "r1", "design": "d1", "temperament": "shrewd", "points": 6, "unsubtle": True}
    await (await fake.slash(channel, gm, "vic-rival redesign", options=redesign)).message()
    screen = json.dumps((await (await fake.slash(channel, gm, "vic-gm screen")).message()).embeds, ensure_ascii=False)
    assert "Lady Vane · rank 4" in screen and "**6 pts**" in screen and "shrewd (4-in-4) · unsubtle" in screen
    assert CANARY in screen
    # A scheme's challenges: the GM's tools open a form filled in with them; a clever plan takes one away.
    scheme = await (
        await fake.slash(channel, gm, "vic-gm knavery", options={"challenges": 3, "known": f"Dogs; {WALL}"})
    ).message()
    tools = await (await fake.click(scheme, "GM: dice…", gm)).message()
    opened = await fake.click(tools, "Change the challenges…", gm)
    await opened.response()
    assert opened.modal is not None and f"Dogs\\n{WALL}" in json.dumps(opened.modal)
    # The box of lines takes a line per challenge, not 30 characters (the number of challenges a scheme may have).
    assert '"max_length": 4000' in json.dumps(opened.modal)
    # A form opened before a deploy that changed its route arrives at the button that opens it: told, not failed.
    route = parse_ui_id(opened.modal["custom_id"].partition(":")[2])
    before = f"u:{route.kind}:{route.session_id}:challenges:{decode_action(route.arg)['pool']}"  # its old custom_id
    stale = {**opened.modal, "custom_id": before}
    old = await fake.click(tools, "Change the challenges…", gm)
    await old.response()
    old.modal = stale
    refused = await (await fake.submit_modal(old, {"total": "1", "known[]": ""})).message()
    assert refused.ephemeral and "no longer in use" in refused.content
    await (await fake.submit_modal(opened, {"total": "2", "known[]": WALL})).message()
    await fake.wait_for(lambda: "Challenges: 2 (not prepared)" in str(scheme.embeds), what="the new challenges")
    assert WALL in str(scheme.embeds)
    for member in (gm, bea):
        await (await fake.slash(channel, member, "vic log")).message()
    await bot.settled()
    assert not any(CANARY in text_of(m) for m in fake.messages(channel))
    assert not any(CANARY in text_of(m) for m in fake.ephemerals(bea))


async def test_undo_and_redo_the_latest_changes(fake: LocalDiscord, make_bot: MakeBot) -> None:
    bot = await vic_bot(make_bot)
    channel, gm, bea = fake.channels[0], fake.members[0], fake.members[1]
    await (await fake.slash(channel, gm, "vic-gm campaign new")).message()
    await (await fake.slash(channel, gm, "vic-gm reward", options={"method": "rare", "npc_rank": 3})).message()
    assert (await campaign_state(bot, channel)).company.liquid_at(2) == 3
    refused = await (await fake.slash(channel, bea, "vic-gm undo")).message()
    assert refused.ephemeral and "Only the GM" in refused.content
    undone = await (await fake.slash(channel, gm, "vic-gm undo")).message()
    assert undone.ephemeral and "You took back: Reward for a rare item" in undone.content
    await fake.wait_for_message(channel, lambda m: m.content.startswith("↩️ The GM took back: Reward"))
    assert (await campaign_state(bot, channel)).company.liquid_at(2) == 0
    redone = await (await fake.slash(channel, gm, "vic-gm redo")).message()
    assert "You made again: Reward" in redone.content
    assert (await campaign_state(bot, channel)).company.liquid_at(2) == 3
    # The GM's notes are never taken back by surprise: undo stops there, says why, and tells the channel nothing.
    form = await fake.slash(channel, gm, "vic-gm notes")
    await (await fake.submit_modal(form, {"text": "secret"})).message()
    before = len(fake.messages(channel))
    stopped = await (await fake.slash(channel, gm, "vic-gm undo")).message()
    assert stopped.ephemeral and "at saved GM notes" in stopped.content
    await bot.settled()
    assert len(fake.messages(channel)) == before and (await campaign_state(bot, channel)).notes == "secret"


async def test_a_handout_reaches_only_its_players_and_the_gms(fake: LocalDiscord, make_bot: MakeBot) -> None:
    bot = await vic_bot(make_bot)
    channel, gm, bea, cal = fake.channels[0], fake.members[0], fake.members[1], fake.members[2]
    await (await fake.slash(channel, gm, "vic-gm campaign new", options={"company": "Knives"})).message()
    await setup_troupes(bot, fake, channel)
    handed = await (
        await fake.slash(channel, gm, "vic-gm reveal", options={"text": f"The map is fake {CANARY}", "to": bea})
    ).message()
    assert handed.ephemeral and "Handed to" in handed.content
    # The handout is news for Bea alone, written with the change and told by direct message (through the outbox).
    await fake.wait_for(lambda: bool(fake.messages(fake.dm_channel(bea))), what="Bea's handout")
    dm = fake.messages(fake.dm_channel(bea))
    assert len(dm) == 1 and CANARY in dm[0].content and "Knives" in dm[0].content
    for member in (gm, bea, cal):
        await (await fake.slash(channel, member, "vic log")).message()
    await bot.settled()
    assert not any(CANARY in text_of(m) for m in fake.messages(channel))
    assert not any(CANARY in text_of(m) for m in fake.ephemerals(cal))
    assert not fake.messages(fake.dm_channel(cal))
    assert any(CANARY in text_of(m) for m in fake.ephemerals(bea) if "Handout" in text_of(m))
    assert any(CANARY in text_of(m) for m in fake.ephemerals(gm) if "Handout" in text_of(m))
    public = await (await fake.slash(channel, gm, "vic-gm reveal", options={"text": "The duke is dead."})).message()
    assert public.ephemeral
    await fake.wait_for_message(channel, lambda m: "📜 The duke is dead." in m.content)


async def test_a_handout_to_a_member_whose_direct_messages_are_closed_is_pointed_to_in_the_channel(
    fake: LocalDiscord, make_bot: MakeBot
) -> None:
    bot = await vic_bot(make_bot)
    channel, gm, bea = fake.channels[0], fake.members[0], fake.members[1]
    await (await fake.slash(channel, gm, "vic-gm campaign new", options={"company": "Knives"})).message()
    await setup_troupes(bot, fake, channel)
    bea.accepts_dms = False
    await fake.slash(channel, gm, "vic-gm reveal", options={"text": f"The map is fake {CANARY}", "to": bea})
    line = await fake.wait_for_message(channel, lambda m: "has a handout for you" in m.content)
    assert line.mentions == [bea.id] and CANARY not in text_of(line)
    await bot.settled()
    assert not any(CANARY in text_of(m) for m in fake.messages(channel))


async def test_a_manager_takes_a_campaign_over_never_silently(fake: LocalDiscord, make_bot: MakeBot) -> None:
    bot = await vic_bot(make_bot)
    channel, manager, gm, cal = fake.channels[0], fake.members[0], fake.members[1], fake.members[2]
    await (await fake.slash(channel, gm, "vic-gm campaign new", options={"company": "Knives"})).message()
    refused = await (await fake.slash(channel, cal, "vic-gm campaign takeover")).message()
    assert refused.ephemeral and "Manage Server" in refused.content
    taken = await (await fake.slash(channel, manager, "vic-gm campaign takeover")).message()
    assert taken.ephemeral and "told" in taken.content
    await fake.wait_for_message(channel, lambda m: "a server manager, made themselves GM" in m.content)
    # The GM's direct message is news too (private, for the GMs): sent with the change's, after the channel's.
    await fake.wait_for(lambda: bool(fake.messages(fake.dm_channel(gm))), what="the GM's direct message")
    await bot.settled()
    dm = fake.messages(fake.dm_channel(gm))
    assert len(dm) == 1 and "made themselves GM of your campaign" in dm[0].content and "co-GM" in dm[0].content
    session = await bot.service.campaign(channel.id, fake.guild.id)
    assert session is not None
    assert session.roles == {str(manager.id): ["gm"], str(gm.id): ["co_gm"]}
    log = await (await fake.slash(channel, cal, "vic log")).message()
    assert f"<@{manager.id}> made themselves GM" in str(log.embeds)


async def test_the_gm_lets_a_character_act_twice_and_it_is_logged(fake: LocalDiscord, make_bot: MakeBot) -> None:
    bot = await vic_bot(make_bot)
    bot.service.dice = Dice({})
    channel, gm, bea = fake.channels[0], fake.members[0], fake.members[1]
    await (await fake.slash(channel, gm, "vic-gm campaign new")).message()
    ana, _ = await setup_troupes(bot, fake, channel)
    await (await fake.slash(channel, gm, "vic-gm turn start")).message()
    await (await fake.slash(channel, bea, "vic pc act", options={"pc": ana, "action": "contact"})).message()
    scheme = await (await fake.slash(channel, gm, "vic-gm knavery", options={"challenges": 1})).message()
    assert "Ana" not in json.dumps(scheme.selects)  # she has acted: not offered to join
    tools = await (await fake.click(scheme, "GM: dice…", gm)).message()
    await pick(fake, tools, "who has acted", ["Ana (a second action)"], gm)
    await fake.wait_for(lambda: "Ana" in str(scheme.embeds), what="Ana in the scheme")
    offered = await (await fake.slash(channel, gm, "vic pc act", options={"pc": ana, "action": "rest"})).message()
    assert offered.ephemeral and "already met a strong contact" in offered.content  # her first action stands
    allowed = await (await fake.click(offered, "Allow a second action", gm)).message()
    assert "a second action this turn, by the GM's leave" in allowed.content
    log = json.dumps((await (await fake.slash(channel, bea, "vic log")).message()).embeds, ensure_ascii=False)
    assert log.count("by the GM's leave") == 2
    assert (await campaign_state(bot, channel)).find_pc(ana).action == "rest"  # type: ignore[union-attr]
