"""A table that calls its players, through the local Discord: whoever the table waits on is called once when the
wait begins (a new turn, a pool gathering, a failed scheme's thwarted challenges, the fallout for the GM), by a
ping or a direct message as they chose, never the member who caused it; a player who asked is reminded once after
the hours they chose (the clock moved by hand); the turn's end tells a recap the channel may read."""

from __future__ import annotations

from bot.app import TabletopBot
from localdiscord.guild import Channel, Member
from localdiscord.messages import Message
from localdiscord.server import LocalDiscord
from tests.conftest import MakeBot
from tests.core.clock import FakeClock
from tests.test_e2e_vic_table import Dice, pick, setup_troupes
from tests.vic_e2e_support import join_with, vic_bot

CANARY = "CANARY-calls-77e"
HOUR = 3600.0


def calls(fake: LocalDiscord, channel: Channel) -> list[Message]:
    """The channel's messages that call someone (🔔) or remind them (⏰)."""
    return [m for m in fake.messages(channel) if "🔔" in m.content or "⏰" in m.content]


def pinged(fake: LocalDiscord, channel: Channel, member: Member) -> list[Message]:
    """The channel's messages that notified ``member``."""
    return [m for m in fake.messages(channel) if member.id in m.mentions]


async def a_campaign(fake: LocalDiscord, make_bot: MakeBot) -> tuple[TabletopBot, str, str]:
    bot = await vic_bot(make_bot)
    channel, gm = fake.channels[0], fake.members[0]
    await (await fake.slash(channel, gm, "vic-gm campaign new", options={"company": "The Gilded Knives"})).message()
    ana, bo = await setup_troupes(bot, fake, channel)
    return bot, ana, bo


async def test_the_table_calls_whoever_it_waits_on_once_by_ping_or_direct_message(
    fake: LocalDiscord, make_bot: MakeBot
) -> None:
    bot, ana, bo = await a_campaign(fake, make_bot)
    channel, gm, bea, cal = fake.channels[0], fake.members[0], fake.members[1], fake.members[2]
    chose = await (await fake.slash(channel, cal, "vic calls", options={"how": "dm"})).message()
    assert chose.ephemeral and "direct message" in chose.content
    dms = fake.dm_channel(cal)
    bot.service.dice = Dice({f"t1p1.{ana}.0": [5], f"t1p1.{bo}.0": [1]})

    # A new turn: each player whose characters have an action left, never the GM who started it.
    started = await (await fake.slash(channel, gm, "vic-gm turn start")).message()
    assert "**Turn 1** begins" in started.content and f"🔔 <@{bea.id}>, <@{cal.id}>: turn 1" in started.content
    assert started.mentions == [bea.id]  # Cal asked for direct messages
    await fake.wait_for(lambda: any("turn 1 is under way" in m.content for m in fake.messages(dms)), what="Cal's DM")

    # A scheme gathering: both are called to it (the board itself is the command's answer).
    scheme = await (
        await fake.slash(channel, gm, "vic-gm knavery", options={"challenges": 2, "known": "The patrol; The lock"})
    ).message()
    await fake.wait_for(lambda: len(pinged(fake, channel, bea)) == 2, what="Bea called to the scheme")
    assert "is gathering" in pinged(fake, channel, bea)[-1].content
    await join_with(fake, scheme, "Ana", bea)
    await join_with(fake, scheme, "Bo", cal)
    await bot.settled()
    assert len(pinged(fake, channel, bea)) == 2  # joining began no new wait: nobody is called again

    # The roll fails: the group (prepared) chooses the thwarted challenge; the GM who rolled is not called.
    rolled = await (await fake.click(scheme, "Roll", gm)).message()
    assert "The scheme fails" in rolled.content and "choose the 1 thwarted challenges" in rolled.content
    assert rolled.mentions == [bea.id] and gm.id not in rolled.mentions
    await fake.wait_for(lambda: len(fake.messages(dms)) == 3, what="Cal's third direct message")
    assert "thwarted" in fake.messages(dms)[-1].content
    # Bea chooses: the fallout waits for the GM now, who is called (Bea caused it); Bea is not.
    await fake.wait_for(lambda: "the group: the 1 thwarted" in str(scheme.selects), what="the thwart select")
    chosen = await pick(fake, scheme, "thwarted", ["The lock"], bea)
    assert f"🔔 <@{gm.id}>: the failed scheme's fallout" in chosen.content and chosen.mentions == [gm.id]
    await bot.settled()
    assert len(fake.messages(dms)) == 3
    assert all(m.mentions.count(bea.id) <= 1 for m in calls(fake, channel))


async def test_a_player_who_asked_is_reminded_once_when_the_table_still_waits(
    fake: LocalDiscord, make_bot: MakeBot
) -> None:
    bot, _, bo = await a_campaign(fake, make_bot)
    clock = bot.service.clock
    assert isinstance(clock, FakeClock)
    channel, gm, bea, cal = fake.channels[0], fake.members[0], fake.members[1], fake.members[2]
    await (await fake.slash(channel, bea, "vic calls", options={"remind_after": 2})).message()
    await (await fake.slash(channel, cal, "vic calls", options={"how": "dm", "remind_after": 3})).message()
    await (await fake.slash(channel, gm, "vic-gm turn start")).message()
    await (await fake.slash(channel, cal, "vic pc act", options={"pc": bo, "action": "rest"})).message()
    await bot.settled()
    clock.advance(2 * HOUR - 60)
    await bot.settled()
    assert [m for m in fake.messages(channel) if "⏰" in m.content] == []
    clock.advance(61)
    reminded = await fake.wait_for_message(channel, lambda m: "⏰" in m.content)
    assert reminded.mentions == [bea.id] and "turn 1 is under way" in reminded.content
    clock.advance(10 * HOUR)  # once per wait; and Cal acted, so nothing waits on him
    await bot.settled()
    assert len([m for m in fake.messages(channel) if "⏰" in m.content]) == 1
    assert not any("⏰" in m.content for m in fake.messages(fake.dm_channel(cal)))


async def test_the_turns_end_tells_a_recap_the_channel_may_read(fake: LocalDiscord, make_bot: MakeBot) -> None:
    bot, ana, bo = await a_campaign(fake, make_bot)
    channel, gm, bea = fake.channels[0], fake.members[0], fake.members[1]
    await (await fake.slash(channel, gm, "vic-rival add", options={"name": f"Baron {CANARY}", "rank": 3})).message()
    design = {"rival": "r1", "text": f"Ruin them {CANARY}"}
    await (await fake.slash(channel, gm, "vic-rival design", options=design)).message()
    bot.service.dice = Dice({f"t1p1.{ana}.0": [5], f"t1p1.{bo}.0": [5]})
    await (await fake.slash(channel, gm, "vic-gm turn start")).message()
    scheme = await (
        await fake.slash(channel, gm, "vic-gm knavery", options={"challenges": 1, "title": "Lift the ledger"})
    ).message()
    await join_with(fake, scheme, "Ana", bea)
    await (await fake.click(scheme, "Roll", gm)).message()
    await fake.wait_for(lambda: "Its results are in the messages below it" in str(scheme.embeds), what="the board")
    await (await fake.slash(channel, gm, "vic-gm reward", options={"method": "rare", "npc_rank": 3})).message()
    await (await fake.slash(channel, gm, "vic-gm reveal", options={"text": "The Baron's seal was forged"})).message()
    early = await (await fake.slash(channel, bea, "vic recap")).message()
    assert early.ephemeral and "Lift the ledger" in early.content
    not_gm = await (await fake.slash(channel, bea, "vic recap", options={"post": True})).message()
    assert not_gm.ephemeral and "Only the GM" in not_gm.content
    ended = await (await fake.slash(channel, gm, "vic-gm turn end")).message()
    assert "Turn 1 is over" in ended.content and "📜 **Recap** · turn 1" in ended.content
    for part in ("*Lift the ledger*: succeeded", "a reward of 3 coins of rank 2", "The Baron's seal was forged"):
        assert part in ended.content
    assert all(CANARY not in m.content for m in fake.messages(channel))
    # The recap starts again: nothing new to tell; and it is in the log.
    empty = await (await fake.slash(channel, gm, "vic recap", options={"post": True})).message()
    assert empty.ephemeral and "Nothing has happened since the last recap" in empty.content


async def test_a_pool_called_off_says_so_not_that_results_are_below(fake: LocalDiscord, make_bot: MakeBot) -> None:
    await a_campaign(fake, make_bot)
    channel, gm = fake.channels[0], fake.members[0]
    sides = {"sides": "Knives vs Rats (Rat)"}
    fight = await (await fake.slash(channel, gm, "vic-gm violence", options=sides)).message()
    await (await fake.click(fight, "End the fight", gm)).message()
    await fake.wait_for(lambda: "called off before its roll" in str(fight.embeds), what="the closed board")
    assert "results are in the messages below" not in str(fight.embeds)


async def test_the_journal_is_the_campaigns_story_as_markdown_and_the_gms_has_the_secrets(
    fake: LocalDiscord, make_bot: MakeBot
) -> None:
    bot, ana, _ = await a_campaign(fake, make_bot)
    channel, gm, bea = fake.channels[0], fake.members[0], fake.members[1]
    await (await fake.slash(channel, gm, "vic-rival add", options={"name": f"Baron {CANARY}", "rank": 3})).message()
    await (await fake.slash(channel, gm, "vic-gm turn start")).message()
    await (await fake.slash(channel, bea, "vic pc act", options={"pc": ana, "action": "rest"})).message()
    handout = {"text": f"Secret map {CANARY}", "to": bea}
    await (await fake.slash(channel, gm, "vic-gm reveal", options=handout)).message()
    start = int(bot.service.clock.now()) + 86400
    await (await fake.slash(channel, gm, "vic-gm session schedule", options={"start": f"<t:{start}>"})).message()
    public = await (await fake.slash(channel, bea, "vic journal")).message()
    assert public.ephemeral and public.attachments[0]["filename"] == "the-gilded-knives-journal.md"
    text = fake.attachment_bytes(public.attachments[0]).decode()
    assert text.startswith("# The Gilded Knives") and "## Before the first turn" in text and "## Turn 1" in text
    assert "**Ana** rested" in text and "2030-03-18" in text and "<t:" not in text  # dates in UTC, no Discord markup
    assert CANARY not in text  # neither the rival nor Bea's own handout: the journal is what the table saw
    refused = await (await fake.slash(channel, bea, "vic journal", options={"gm_parts": True})).message()
    assert refused.ephemeral and "Only the GM" in refused.content and not refused.attachments
    secret = await (await fake.slash(channel, gm, "vic journal", options={"gm_parts": True})).message()
    full = fake.attachment_bytes(secret.attachments[0]).decode()
    assert f"Baron {CANARY}" in full and f"Secret map {CANARY}" in full and "with what only the GMs saw" in full
