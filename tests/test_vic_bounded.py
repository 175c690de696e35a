"""What the Viciousness cog keeps per channel is bounded: which campaign a channel has is a hint for the most
recently used channels only, dropped when the campaign ends."""

from __future__ import annotations

from cogs.viciousness.common import CampaignOf


def test_the_channel_hint_keeps_only_the_most_recently_used_channels() -> None:
    known = CampaignOf(kept=3)
    for channel in range(1, 5):
        known.remember(channel, channel * 10)
    assert len(known) == 3 and known.get(1) is None  # the oldest went
    assert known.get(2) == 20  # used now: the next one to go is 3
    known.remember(5, 50)
    assert known.get(3) is None and known.get(2) == 20
    assert known.forget(2) == 20 and known.get(2) is None and len(known) == 2
