"""Rivals through the local Discord: the GM's split and a rival deal, accrual with a helpful asset, switching the
initiated design, an unsubtle move foiled with a Speed Chess refund; nothing of it reaches the channel."""

from __future__ import annotations

import json

from localdiscord.server import LocalDiscord
from rules.dice import ScriptedDice
from rules.viciousness.engine import ENGINE
from rules.viciousness.options import VicOptions
from rules.viciousness.transfer import export_campaign
from tests.conftest import MakeBot
from tests.test_e2e_vic_table import Dice, pick
from tests.vic_e2e_support import campaign_state, vic_bot

CANARY = "CANARY-baron-51c"


def speed_chess_campaign(owner: int) -> bytes:
    """A campaign with Speed Chess on and one troupe, as an export file."""
    state = ENGINE.start(VicOptions(speed_chess=True), [], ScriptedDice([])).state
    troupe = {
        "type": "create_troupe",
        "owner": str(owner),
        "name": "Knives",
        "captain": {"name": "Ana", "traits": ["Lurker", "Acrobat", "Medic"]},
        "asset": "headquarters",
    }
    state = ENGINE.apply(state, str(owner), ENGINE.parse_action(troupe), ScriptedDice([])).state
    return export_campaign(state).encode()


async def test_rivals_split_deal_switch_and_speed_chess(fake: LocalDiscord, make_bot: MakeBot) -> None:
    bot = await vic_bot(make_bot)
    bot.service.dice = Dice({"rival.r1.t1.d20": [2], "rival.r1.t2.d20": [20]})
    channel = fake.channels[0]
    gm, bea = fake.members[0], fake.members[1]
    data = speed_chess_campaign(bea.id)
    await (await fake.slash(channel, gm, "vic-gm campaign import", options={"file": ("c.json", data)})).message()
    rival = {"name": f"Baron {CANARY}", "rank": 2, "assets": "Spies; Ledgers"}
    await (await fake.slash(channel, gm, "vic-rival add", options=rival)).message()
    frame = {"rival": "r1", "text": f"Frame {CANARY}", "severity": "medium", "asset": "Spies", "unsubtle": True}
    await (await fake.slash(channel, gm, "vic-rival design", options=frame)).message()
    steal = {"rival": "r1", "text": "Steal the ledger", "temperament": "rash"}
    await (await fake.slash(channel, gm, "vic-rival design", options=steal)).message()
    choices = await (
        await fake.autocomplete(channel, gm, "vic-rival deal", "design", {"rival": "r1", "design": ""})
    ).choices()
    assert [c["value"] for c in choices] == ["d1", "d2"]
    refused = await (await fake.slash(channel, bea, "vic-rival split", options={"rival": "r1"})).message()
    assert refused.ephemeral and "Only the GM" in refused.content
    bad = await (await fake.slash(channel, gm, "vic-rival split", options={"rival": "r1", "points": "d1"})).message()
    assert bad.ephemeral and "d1 2, d2 1" in bad.content
    await (await fake.slash(channel, gm, "vic-rival split", options={"rival": "r1", "points": "d1 1, d2 1"})).message()
    deal = await (await fake.slash(channel, gm, "vic-rival deal", options={"rival": "r1", "design": "d2"})).message()
    assert deal.ephemeral and "+2" in deal.content

    await (await fake.slash(channel, gm, "vic-gm turn start")).message()
    ended = await fake.slash(channel, gm, "vic-gm turn end")
    await ended.message()
    news = (await ended.followups(1))[0].content
    assert "`d1` +2" in news and "`d2` +1" in news and "`d2` initiated" in news  # the asset helps d1
    screen = await (await fake.slash(channel, gm, "vic-gm screen")).message()
    switched = await pick(fake, screen, "which design moves", ["initiate d1"], gm)
    assert "`d1` initiated" in str(switched.embeds)
    started = await fake.slash(channel, gm, "vic-gm turn start")
    await started.message()
    assert "the PCs may interfere" in (await started.followups(1))[0].content
    screen = await (await fake.slash(channel, gm, "vic-gm screen")).message()
    foiled = await (await fake.click(screen, f"Baron {CANARY}: foiled"[:80], gm)).message()
    assert "GM screen" in str(foiled.embeds)
    state = await campaign_state(bot, channel)
    d1, d2 = state.rivals["r1"].designs
    assert d1.status == "foiled" and d2.points == 3 + 1  # Speed Chess: half of d1's 2 points
    await (await fake.slash(channel, gm, "vic-gm reveal", options={"text": "The Baron's men were seen."})).message()
    await fake.wait_for_message(channel, lambda m: "The Baron's men were seen." in m.content)
    await bot.settled()
    assert CANARY not in json.dumps([m.data for m in fake.messages(channel)], ensure_ascii=False)
    assert not any(CANARY in json.dumps(m.data, ensure_ascii=False) for m in fake.ephemerals(bea))
