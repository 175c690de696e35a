"""The ``sheet`` scenario of ``bench/latency.py``: a turn score entered on a live V&V scoresheet.

Each channel gets a four-player sheet (``/vv sheet``, kept by the first member). One interaction is the
keeper's score form being submitted: the score is checked, applied and committed with its log entry,
and the submit is acknowledged (the form closes); then the sheet's picture is drawn again, in a worker
process off the event loop, and the sheet's message edited with it. The round trip measured is the
first part; the next entry in the same channel waits (untimed) for the redraw. The click that opens the
form is not timed either. Every score is 0, so no sheet ever reaches 70 however long the run.

How long the picture itself takes to draw: ``python bench/sheet_picture.py``.
"""

from __future__ import annotations

import asyncio

from localdiscord import Channel, InteractionResult, LocalDiscord, Member

EXTENSION = "cogs.vices"
PLAYERS = "Jordan: Wrath, Taylor: Sloth, Casey: Greed, Avery: Pride"


async def prepare(fake: LocalDiscord, channels: list[Channel]) -> None:
    """A sheet in each channel, set up concurrently."""

    async def one(channel: Channel) -> None:
        res = await fake.slash(channel, fake.members[0], "vv sheet", options={"players": PLAYERS})
        await res.message(timeout=60)

    await asyncio.gather(*(one(c) for c in channels))


_redrawn: dict[int, int] = {}
"""Per sheet message, how many edits it will have once the last score entered is on it."""


async def score_entry(fake: LocalDiscord, channel: Channel, member: Member) -> InteractionResult:
    """The keeper opens the score form of whoever is up (not timed) and submits 0 (timed).

    The previous entry's redraw comes after its form was answered: wait for it first (untimed), so the form
    opened is that of the player up now.
    """
    keeper = fake.members[0]
    sheet = [m for m in fake.messages(channel) if m.custom_ids][-1]
    await fake.wait_for(lambda: sheet.edits >= _redrawn.get(sheet.id, 0), timeout=60, what="the sheet redrawn")
    label = next(b["label"] for b in sheet.buttons if str(b.get("label", "")).startswith("Score for"))
    click = await fake.click(sheet, label, keeper)
    await click.response(timeout=60)
    _redrawn[sheet.id] = sheet.edits + 1
    return await fake.submit_modal(click, {"value": "0"})
