"""The ``campaign`` scenario of ``bench/latency.py``: a persisted slash-command action on a Viciousness campaign.

Each channel gets a campaign (``/vic-gm campaign new``, run by the first member) with the second member's troupe
and a turn under way, so the company sheet has something to draw. One interaction is the GM's
``/vic-gm reward method:rare npc_rank:1``: checked, applied and committed with its log entry, answered in the
channel with what happened; the company sheet is then redrawn in place (after the answer, not timed).
A reward can be paid again and again, so no campaign runs out of anything however long the run.
"""

from __future__ import annotations

import asyncio

from localdiscord import Channel, InteractionResult, LocalDiscord, Member
from tests.vic_e2e_support import new_troupe

EXTENSION = "cogs.viciousness"
PREPARING = 10
"""Campaigns set up at once (the setting up is not measured)."""


async def prepare(fake: LocalDiscord, channels: list[Channel]) -> None:
    """A campaign in each channel, set up ``PREPARING`` at a time: a troupe, and turn 1 started."""
    gm, player = fake.members[0], fake.members[1]
    # A hundred at once is more than a loaded 2-core machine answers within Discord's 3 s: the bot rightly defers
    # the late ones, and a deferred ``/vic troupe new`` can no longer open its form.
    preparing = asyncio.Semaphore(PREPARING)

    async def one(channel: Channel) -> None:
        async with preparing:
            await (await fake.slash(channel, gm, "vic-gm campaign new", options={"company": "Knives"})).message(60)
            traits = ["Acrobat", "Lurker", "Machinist"]
            await new_troupe(fake, channel, player, "Rats", "Vex", traits, "liquid_coin", timeout=60)
            await (await fake.slash(channel, gm, "vic-gm turn start")).message(timeout=60)

    await asyncio.gather(*(one(c) for c in channels))


async def reward(fake: LocalDiscord, channel: Channel, member: Member) -> InteractionResult:
    """The GM pays a reward: liquid coins for the company, its sheet redrawn."""
    return await fake.slash(channel, fake.members[0], "vic-gm reward", options={"method": "rare", "npc_rank": 1})
