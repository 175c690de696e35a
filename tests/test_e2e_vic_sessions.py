"""A campaign's sessions through the local Discord: ``/vic-gm session schedule`` makes a Discord Scheduled Event (an
external one at the campaign's channel, checked as Discord checks it), the channel is told with ``<t:…>``
timestamps, and the players are reminded at the times the GM set — by a ping or a direct message as each chose —
with the clock moved by hand; ``reschedule`` moves the event and its reminders, ``cancel`` deletes it."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from localdiscord.guild import Perm
from localdiscord.messages import Message
from localdiscord.server import LocalDiscord
from tests.conftest import MakeBot
from tests.core.clock import FakeClock
from tests.test_e2e_vic_table import setup_troupes
from tests.vic_e2e_support import vic_bot

HOUR, DAY = 3600, 86400


def reminders(fake: LocalDiscord) -> list[Message]:
    return [
        m for m in fake.messages(fake.channels[0]) if m.content.startswith("📅") and "the session starts" in m.content
    ]


async def test_a_session_is_a_scheduled_event_and_the_players_are_reminded(
    fake: LocalDiscord, make_bot: MakeBot
) -> None:
    bot = await vic_bot(make_bot)
    clock = bot.service.clock
    assert isinstance(clock, FakeClock)
    channel, gm, bea, cal = fake.channels[0], fake.members[0], fake.members[1], fake.members[2]
    sheet = await (await fake.slash(channel, gm, "vic-gm campaign new", options={"company": "The Knives"})).message()
    await setup_troupes(bot, fake, channel)
    await (await fake.slash(channel, cal, "vic calls", options={"how": "dm"})).message()
    start = int(clock.now()) + 2 * DAY
    refused = await (
        await fake.slash(channel, bea, "vic-gm session schedule", options={"start": f"<t:{start}>"})
    ).message()
    assert refused.ephemeral and "Only the GM" in refused.content
    for bad, why in (
        ({"start": "next tuesday"}, "isn't a date"),
        ({"start": "2031-01-01 19:00", "timezone": "Mars/Olympus"}, "isn't one"),
        ({"start": f"<t:{start}>", "reminders": "soonish"}, "Reminders"),
    ):
        answer = await (await fake.slash(channel, gm, "vic-gm session schedule", options=bad)).message()
        assert answer.ephemeral and why in answer.content, answer.content
    zones = await (
        await fake.autocomplete(channel, gm, "vic-gm session schedule", "timezone", {"start": "x", "timezone": "paris"})
    ).choices()
    assert [c["value"] for c in zones] == ["Europe/Paris"]

    options = {"start": f"<t:{start}>", "hours": 3, "description": "The heist at the docks"}
    told = await (await fake.slash(channel, gm, "vic-gm session schedule", options=options)).message()
    assert not told.ephemeral and f"<t:{start}:F>" in told.content and f"<t:{start}:R>" in told.content
    assert "reminded 24 h and 1 h before" in told.content and told.mentions == []
    (event,) = fake.guild.scheduled_events.values()
    assert event["entity_type"] == 3 and event["privacy_level"] == 2 and event["name"] == "The Knives: next session"
    assert datetime.fromisoformat(event["scheduled_start_time"]).timestamp() == start
    assert datetime.fromisoformat(event["scheduled_end_time"]).timestamp() == start + 3 * HOUR
    assert event["entity_metadata"]["location"] == f"https://discord.com/channels/{fake.guild.id}/{channel.id}"
    assert f"https://discord.com/events/{fake.guild.id}/{event['id']}" in told.content
    await fake.wait_for(lambda: f"<t:{start}:F>" in str(sheet.embeds), what="the session on the company sheet")

    # The day before: the players are reminded (Bea here, Cal by direct message); an hour before, again.
    clock.advance(DAY - 60)
    await bot.settled()
    assert reminders(fake) == []
    clock.advance(120)
    first = await fake.wait_for_message(channel, lambda m: "the session starts" in m.content)
    assert first.mentions == [bea.id] and f"<t:{start}:R>" in first.content and "The heist" in first.content
    await fake.wait_for(
        lambda: any("the session starts" in m.content for m in fake.messages(fake.dm_channel(cal))), what="Cal's DM"
    )

    # Moved a day later, in Paris time: the event moves, the reminders follow the new start.
    later = start + DAY
    paris = datetime.fromtimestamp(later, ZoneInfo("Europe/Paris")).strftime("%Y-%m-%d %H:%M:%S")
    options = {"start": paris, "timezone": "Europe/Paris"}
    moved = await (await fake.slash(channel, gm, "vic-gm session reschedule", options=options)).message()
    assert "The session moved" in moved.content and f"<t:{later}:F>" in moved.content
    (event,) = fake.guild.scheduled_events.values()
    assert datetime.fromisoformat(event["scheduled_start_time"]).timestamp() == later
    clock.advance(DAY)
    await fake.wait_for(lambda: len(reminders(fake)) == 2, what="the day-before reminder of the new date")
    clock.advance(DAY - HOUR - 60)
    await fake.wait_for(lambda: len(reminders(fake)) == 3, what="the hour-before reminder")
    clock.advance(2 * HOUR)
    await bot.settled()
    assert len(reminders(fake)) == 3 and all(f"<t:{later}:R>" in m.content for m in reminders(fake)[1:])

    # The session has begun: it can't be moved any more, only followed by the next one.
    late = await (await fake.slash(channel, gm, "vic-gm session reschedule", options={"hours": 2})).message()
    assert late.ephemeral and "has begun" in late.content and "session schedule" in late.content
    # The next one is a new session and a new event (not "moved"); the past one's event is completed.
    nxt = int(clock.now()) + 7 * DAY
    planned = await (
        await fake.slash(channel, gm, "vic-gm session schedule", options={"start": str(nxt), "reminders": "none"})
    ).message()
    assert "**Next session**" in planned.content and "moved" not in planned.content
    past, new = sorted(fake.guild.scheduled_events.values(), key=lambda e: int(e["id"]))
    assert (past["status"], new["status"]) == (3, 1)  # completed; scheduled
    cancelled = await (await fake.slash(channel, gm, "vic-gm session cancel")).message()
    assert "called off" in cancelled.content and list(fake.guild.scheduled_events.values()) == [past]


async def test_without_create_events_the_plan_and_its_reminders_stand(fake: LocalDiscord, make_bot: MakeBot) -> None:
    bot = await vic_bot(make_bot)
    clock = bot.service.clock
    assert isinstance(clock, FakeClock)
    fake.guild.bot_role.permissions &= ~Perm.CREATE_EVENTS
    channel, gm = fake.channels[0], fake.members[0]
    await (await fake.slash(channel, gm, "vic-gm campaign new")).message()
    await setup_troupes(bot, fake, channel)
    start = int(clock.now()) + DAY
    res = await fake.slash(channel, gm, "vic-gm session schedule", options={"start": f"<t:{start}>", "reminders": "1h"})
    told = await res.message()
    assert "Next session" in told.content and fake.guild.scheduled_events == {}
    warned = (await res.followups(1))[0]
    assert warned.ephemeral and "Create Events" in warned.content
    clock.advance(DAY - HOUR + 1)
    await fake.wait_for(lambda: len(reminders(fake)) == 1, what="the reminder")
