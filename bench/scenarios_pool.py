"""The ``pool`` scenario of ``bench/latency.py``: a character joining a Viciousness dice pool, and the GM rolling it.

Each channel gets a campaign (imported from a file: the GM is member 0, member 1 leads a troupe whose
captain is Ana). The timed interactions alternate, per channel: member 1 picks Ana in the *Join with…* select
of an open scheme's board (Ana joins: checked, applied, committed with its log entry, the board redrawn), then
the GM clicks **Roll** (every die rolled from the recorded dice, committed, answered with the dice as faces
in a message of their own). Untimed in between: the GM opens the next scheme (``/vic-gm knavery``) and, when
a roll failed, accepts the failure and clears the fallout, so every cycle starts alike.
"""

from __future__ import annotations

import asyncio

from localdiscord import Channel, InteractionResult, LocalDiscord, Member, Message
from rules.dice import ScriptedDice
from rules.viciousness.engine import ENGINE
from rules.viciousness.options import VicOptions
from rules.viciousness.transfer import export_campaign
from tests.vic_e2e_support import option_value

EXTENSION = "cogs.viciousness"
TIMEOUT_S = 60.0

_boards: dict[int, Message] = {}
"""Per channel, the board of the scheme the next interaction joins or rolls."""
_joined: dict[int, bool] = {}


def campaign_file(owner: int) -> bytes:
    """A campaign whose one troupe belongs to ``owner``, as ``/vic-gm campaign export`` writes it."""
    state = ENGINE.start(VicOptions(), [], ScriptedDice([])).state
    action = ENGINE.parse_action(
        {
            "type": "create_troupe",
            "owner": str(owner),
            "name": "Knives",
            "captain": {"name": "Ana", "traits": ["Lurker", "Acrobat", "Medic"]},
            "asset": "headquarters",
        }
    )
    return export_campaign(ENGINE.apply(state, str(owner), action, ScriptedDice([])).state).encode()


async def prepare(fake: LocalDiscord, channels: list[Channel]) -> None:
    """A campaign in each channel, imported concurrently."""
    data = campaign_file(fake.members[1].id)

    async def one(channel: Channel) -> None:
        res = await fake.slash(channel, fake.members[0], "vic-gm campaign import", options={"file": ("c.json", data)})
        await res.message(timeout=TIMEOUT_S)

    await asyncio.gather(*(one(c) for c in channels))


async def _open(fake: LocalDiscord, channel: Channel) -> Message:
    res = await fake.slash(channel, fake.members[0], "vic-gm knavery", options={"challenges": 1})
    return await res.message(timeout=TIMEOUT_S)


async def _settle_failure(fake: LocalDiscord, board: Message) -> None:
    """After a failed roll: accept it (or thwart with the one success… there is none), then clear the fallout."""
    gm = fake.members[0]
    await fake.wait_for(lambda: "Accept the failure" in board.describe_buttons(), timeout=TIMEOUT_S, what="accept")
    await (await fake.click(board, "Accept the failure", gm)).message(timeout=TIMEOUT_S)
    label = "GM: clear the fallout"
    await fake.wait_for(lambda: label in board.describe_buttons(), timeout=TIMEOUT_S, what="clear the fallout")
    await (await fake.click(board, label, gm)).message(timeout=TIMEOUT_S)


async def join_or_roll(fake: LocalDiscord, channel: Channel, member: Member) -> InteractionResult:
    """The next timed interaction of this channel's cycle: Ana joins, or the GM rolls."""
    if not _joined.get(channel.id):
        if channel.id not in _boards:
            _boards[channel.id] = await _open(fake, channel)
        _joined[channel.id] = True
        custom_id, value = option_value(_boards[channel.id], "Ana")
        return await fake.select(_boards[channel.id], custom_id, [value], fake.members[1])
    board = _boards.pop(channel.id)
    _joined[channel.id] = False
    res = await fake.click(board, "Roll", fake.members[0])
    answer = await res.message(timeout=TIMEOUT_S)
    if "The scheme fails" in answer.content:
        await _settle_failure(fake, board)
    return res
