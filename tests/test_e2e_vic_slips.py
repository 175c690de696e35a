"""Issue 28, part 2: the slips a GM and a new player tripped on, through the local Discord.

Undo names what it takes back and never takes back the GM's notes; GM-only commands refused to a player say what
was refused; a rest stands through a second action in a scheme called off (which names everyone in it); ``/game
log`` reads a campaign; the journal and the log name members and NPCs as the channel did; the recap tells the right
turns, a fight's rounds as announced, unspent coins in good grammar and who made a purchase; a pool's Join list
follows who may still join; the character form says how many traits it needs.
"""

from __future__ import annotations

import json

from localdiscord.server import LocalDiscord
from tests.conftest import MakeBot
from tests.test_e2e_vic_busywork import a_turn, open_fight
from tests.test_e2e_vic_table import Dice, click_when_shown, pick
from tests.vic_e2e_support import campaign_state, join_with, vic_bot


async def test_undo_names_what_it_takes_back_and_stops_at_the_gms_notes(fake: LocalDiscord, make_bot: MakeBot) -> None:
    bot = await vic_bot(make_bot)
    channel, gm = fake.channels[0], fake.members[0]
    await (await fake.slash(channel, gm, "vic-gm campaign new")).message()
    form = await fake.slash(channel, gm, "vic-gm notes")
    await (await fake.submit_modal(form, {"text": "The Baron owns the docks"})).message()
    await (await fake.slash(channel, gm, "vic-gm company set", options={"name": "The Gilded Knives"})).message()
    first = await (await fake.slash(channel, gm, "vic-gm undo")).message()
    assert first.ephemeral and "You took back: The company is **The Gilded Knives**" in first.content
    second = await (await fake.slash(channel, gm, "vic-gm undo")).message()
    assert second.ephemeral and "nothing to undo" in second.content and "at saved GM notes" in second.content
    assert (await campaign_state(bot, channel)).notes == "The Baron owns the docks"
    screen = await (await fake.slash(channel, gm, "vic-gm screen")).message()
    assert "The Baron owns the docks" in json.dumps(screen.embeds)


async def test_a_player_refused_a_gm_tool_is_told_which(fake: LocalDiscord, make_bot: MakeBot) -> None:
    await vic_bot(make_bot)
    channel, gm, bea = fake.channels[0], fake.members[0], fake.members[1]
    await (await fake.slash(channel, gm, "vic-gm campaign new")).message()
    for command, options, refused in (
        ("vic-gm notes", {}, "read and write the GM's notes"),
        ("vic-gm undo", {}, "take changes back"),
        ("vic-gm reveal", {"text": "Hello"}, "reveal things to the channel"),
    ):
        answer = await (await fake.slash(channel, bea, command, options=options)).message()
        assert answer.ephemeral and refused in answer.content and "rivals" not in answer.content, answer.content


async def test_a_rest_stands_through_a_second_action_in_a_scheme_called_off(
    fake: LocalDiscord, make_bot: MakeBot
) -> None:
    bot, channel, ana, _ = await a_turn(fake, make_bot)
    gm, bea, cal = fake.members[0], fake.members[1], fake.members[2]
    await (await fake.slash(channel, gm, "vic pc condition", options={"pc": ana, "change": "rattle"})).message()
    await (await fake.slash(channel, bea, "vic pc act", options={"pc": ana, "action": "rest"})).message()
    scheme = await (await fake.slash(channel, gm, "vic-gm knavery", options={"challenges": 1})).message()
    tools = await (await fake.click(scheme, "GM: dice…", gm)).message()
    await pick(fake, tools, "who has acted", ["Ana (a second action)"], gm)
    await join_with(fake, scheme, "Bo", cal)
    abandoned = await click_when_shown(fake, scheme, "Abandon", gm)
    assert "The scheme was called off before its roll: Ana and Bo took no part in it" in abandoned.content
    ended = await (await fake.slash(channel, gm, "vic-gm turn end")).message()
    assert "**Ana** is no longer rattled" in ended.content
    assert not (await campaign_state(bot, channel)).find_pc(ana).rattled  # type: ignore[union-attr]


async def test_the_log_and_journal_name_people_as_the_channel_did(fake: LocalDiscord, make_bot: MakeBot) -> None:
    bot, channel, _, _ = await a_turn(fake, make_bot)
    gm, bea, cal = fake.members[0], fake.members[1], fake.members[2]
    bot.service.dice = Dice({f"t1p1.r1.{bea.id}.1.0": [4]})  # Ana's hit; the rest miss
    fight = await open_fight(fake, channel, "Knives vs Watch (2)")
    await join_with(fake, fight, "Ana → Knives", bea)
    await join_with(fake, fight, "Bo → Knives", cal)
    await click_when_shown(fake, fight, "Roll", gm)
    await click_when_shown(fake, fight, "Work out the hits", gm)
    await fake.wait_for(lambda: "who does the hit wound" in str(fight.selects), what="the aim select")
    await pick(fake, fight, "who does the hit wound", ["Watch 1"], bea)
    told = await fake.wait_for_message(channel, lambda m: "wounded" in m.content and "→" in m.content)
    assert "Watch 1 wounded" in told.content
    await fake.wait_for(lambda: "death tests" in str(fight.selects), what="the death test")
    await pick(fake, fight, "death tests", ["Watch 1: death test"], gm)
    await click_when_shown(fake, fight, "End the fight", gm)
    log = json.dumps((await (await fake.slash(channel, bea, "vic log")).message()).embeds, ensure_ascii=False)
    assert "Watch 1 wounded" in log and "n1 wounded" not in log
    journal = await (await fake.slash(channel, bea, "vic journal")).message()
    text = fake.attachment_bytes(journal.attachments[0]).decode()
    assert "Watch 1 wounded" in text and "(@Bob)" in text and "member " not in text and "<@" not in text


async def test_game_log_reads_the_campaign_running_in_the_channel(fake: LocalDiscord, make_bot: MakeBot) -> None:
    _, channel, ana, _ = await a_turn(fake, make_bot)
    bea, cal = fake.members[1], fake.members[2]
    await (await fake.slash(channel, bea, "vic pc act", options={"pc": ana, "action": "rest"})).message()
    recent = await (await fake.slash(channel, cal, "game log")).message()
    assert recent.ephemeral and "no game in this channel" not in recent.content
    assert "**Turn 1** begins" in recent.content and "**Ana** rested." in recent.content


async def test_the_recap_tells_the_right_turns_rounds_coins_and_buyers(fake: LocalDiscord, make_bot: MakeBot) -> None:
    bot, channel, ana, _ = await a_turn(fake, make_bot)
    bot.service.dice = Dice({})  # nobody hits
    gm, bea, cal = fake.members[0], fake.members[1], fake.members[2]
    await (await fake.slash(channel, gm, "vic-gm reward", options={"method": "rare", "npc_rank": 2})).message()
    await (await fake.slash(channel, gm, "vic-gm turn next")).message()
    # Turn 2: a fight of one round (a second begun, then ended), a purchase by Ana, a coin left unspent.
    fight = await open_fight(fake, channel, "Crows vs Rats (Rat)")
    await join_with(fake, fight, "Bo → Crows", cal)
    await click_when_shown(fake, fight, "Roll", gm)
    await click_when_shown(fake, fight, "Work out the hits", gm)
    await click_when_shown(fake, fight, "Next round", gm)
    await fake.wait_for(lambda: "round 2" in fight.embeds[0]["title"], what="round 2 on the board")
    over = await click_when_shown(fake, fight, "End the fight", gm)
    assert "The fight is over after 1 round." in over.content
    price = await (
        await fake.slash(channel, bea, "vic price", options={"rank": 2, "item": "Crowbar", "pc": ana})
    ).message()
    await click_when_shown(fake, price, "Pay 1 turn coin", bea)
    ended = await (await fake.slash(channel, gm, "vic-gm turn end")).message()
    assert "📜 **Recap** · turn 2" in ended.content and "turns 1–2" not in ended.content
    assert "⚔️ The fight: 1 round, over" in ended.content
    assert "**Ana**: *Crowbar* (rank 2)" in ended.content and "The company: *Crowbar*" not in ended.content
    assert "1 coin of rank 2 went unspent and is gone." in ended.content


async def test_a_pools_join_list_follows_who_may_still_join(fake: LocalDiscord, make_bot: MakeBot) -> None:
    _, channel, ana, _ = await a_turn(fake, make_bot)
    gm, bea = fake.members[0], fake.members[1]
    scheme = await (await fake.slash(channel, gm, "vic-gm knavery", options={"challenges": 1})).message()
    assert '"label": "Ana"' in json.dumps(scheme.selects)
    await (await fake.slash(channel, bea, "vic pc act", options={"pc": ana, "action": "rest"})).message()
    await fake.wait_for(lambda: '"label": "Ana"' not in json.dumps(scheme.selects), what="Ana gone from the list")
    assert '"label": "Bo"' in json.dumps(scheme.selects)


async def test_the_character_form_says_how_many_traits_it_needs(fake: LocalDiscord, make_bot: MakeBot) -> None:
    await vic_bot(make_bot)
    channel, gm, bea = fake.channels[0], fake.members[0], fake.members[1]
    await (await fake.slash(channel, gm, "vic-gm campaign new")).message()
    opened = await fake.slash(channel, bea, "vic troupe new", options={"asset": "headquarters"})
    await opened.response()
    assert opened.modal is not None
    lists = [row for row in opened.modal["components"] if (row.get("component") or {}).get("type") == 3]
    assert len(lists) == 2
    for row in lists:
        assert row["description"] == "Pick exactly 3 traits in all, from the 2 lists together.", row
