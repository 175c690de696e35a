"""Every game under way in one guild: shared by the hostile-input test and the fault-injection test."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.app import TabletopBot
from bot.models import Actor
from localdiscord.guild import Channel
from localdiscord.messages import Message
from localdiscord.server import LocalDiscord
from rules.viciousness import ENGINE, CampaignState, VicOptions
from rules.viciousness.transfer import export_campaign
from tests.table_play import start_table
from tests.test_e2e_vic_table import Dice

HOME = {"vic": 0, "vv": 1, "crowns": 2, "game": 2}
"""The channel of the world where each game's commands find their session."""
EMPTY = 3
"""The channel where nothing is under way (for the commands that start something)."""
PLAYERS = "Alice: Wrath, Bob: Sloth, Carol: Greed"


def home_of(top: str) -> int:
    """The index of the channel where the top-level command ``top`` finds its game (``vic-gm`` that of ``vic``)."""
    return HOME.get(top, HOME.get(top.split("-")[0], EMPTY))


def campaign(bob: str, carol: str) -> CampaignState:
    """Two troupes (Bob's with free minion places and advancements to take, Carol's with a retired minion), and a
    rival with a design."""
    state = ENGINE.start(VicOptions(), [], Dice({})).state
    dice = Dice({})

    def act(data: dict[str, Any]) -> None:
        nonlocal state
        state = ENGINE.apply(state, "gm", ENGINE.parse_action(data), dice).state

    act({"type": "company", "name": "The Gilded Knives", "ambition": "Own the docks"})
    for owner, troupe, captain, traits in (
        (bob, "Knives", "Ana", ["Lurker", "Acrobat", "Medic"]),
        (carol, "Crows", "Bo", ["Duelist", "Historian", "Marksman"]),
    ):
        spec = {"name": captain, "concept": "A *sharp* one", "traits": traits}
        act({"type": "create_troupe", "owner": owner, "name": troupe, "captain": spec, "asset": "headquarters"})
        act(
            {
                "type": "add_pc",
                "owner": owner,
                "pc": {"name": f"{captain}'s minion", "traits": ["Strongman", "Wizard of Shadows"]},
            }
        )
        act({"type": "contact", "pc": f"{owner}.1", "name": "Fence", "note": "owes us"})
        act({"type": "weak_contact", "pc": f"{owner}.1", "name": "Beggar", "note": ""})
        act({"type": "add_asset", "owner": owner, "text": "A boat"})
    act({"type": "minion_places", "owner": bob, "n": 4})
    act({"type": "grant_advancements", "owner": bob, "n": 2})
    act({"type": "retire", "pc": f"{carol}.2"})
    act({"type": "add_rival", "name": "The Baron", "rank": 2, "assets": ["Spies"]})
    act({"type": "add_design", "rival": "r1", "text": "Frame the Knives", "severity": "medium"})
    return state


async def fight(fake: LocalDiscord, bot: TabletopBot, channel: Channel) -> Message:
    """A four-side fight whose 9 hits on one side wait to be shared through a form; its board."""
    gm, bob = fake.members[0], fake.members[1]
    bot.service.dice = Dice({f"t0p1.r1.n1.{k}": [4] for k in range(9)})
    sides = {"sides": "Ogre, Knives, Crows, Rats", "title": "Brawl"}
    board = await (await fake.slash(channel, gm, "vic-gm violence", options=sides)).message()
    session = await bot.service.campaign(channel.id, fake.guild_id)
    assert session is not None
    for action in (
        {"type": "add_npc", "pool": "t0p1", "side": "a", "name": "Ogre", "dice": [4] * 8},
        {"type": "join", "pool": "t0p1", "pc": f"{bob.id}.1", "side": "b"},
        {"type": "add_npc", "pool": "t0p1", "side": "c", "name": "Crow"},
        {"type": "add_npc", "pool": "t0p1", "side": "d", "name": "Rat"},
    ):
        await bot.service.act(session.id, Actor(gm.id, gm.name), action)
    await bot.settled()
    await (await fake.click(board, "Roll", gm)).message()
    await fake.wait_for(lambda: "Work out the hits" in board.describe_buttons(), what="the resolve button")
    await (await fake.click(board, "Work out the hits", gm)).message()
    await fake.wait_for(lambda: "Share the hits…" in board.describe_buttons(), what="the share button")
    return board


@dataclass
class Places:
    """Where each game of :func:`everything_under_way` is."""

    vic: Channel
    sheet: Channel
    crowns: Channel
    empty: Channel
    tied: Channel
    sheet_message: Message
    tie_message: Message


async def everything_under_way(fake: LocalDiscord, bot: TabletopBot) -> Places:
    """The campaign in channel 0 (Bob's troupe shown) with an initiative tracker beside it (Bob and a hidden NPC,
    round 1), a scoresheet in 1, Dice of Crowns in 2, a scoresheet at its tie-break in 4; channel 3 empty."""
    gm, bob, carol = fake.members[0], fake.members[1], fake.members[2]
    vic, sheet_channel, crowns, tied = fake.channels[0], fake.channels[1], fake.channels[2], fake.channels[4]
    data = export_campaign(campaign(str(bob.id), str(carol.id))).encode()
    await (await fake.slash(vic, gm, "vic-gm campaign import", options={"file": ("c.json", data)})).message()
    await (await fake.slash(vic, gm, "vic troupe show", options={"member": bob})).message()
    tracker = await (await fake.slash(vic, gm, "init start")).message()
    await (await fake.slash(vic, bob, "init join", options={"value": 14})).message()
    await (await fake.slash(vic, gm, "init npc", options={"name": "Ogre", "value": 9, "hidden": True})).message()
    await (await fake.click(tracker, "Start", gm)).message()
    sheet = await (await fake.slash(sheet_channel, gm, "vv sheet", options={"players": PLAYERS})).message()
    await (await fake.slash(sheet_channel, gm, "vv score", options={"points": 12})).message()
    tie = await (await fake.slash(tied, gm, "vv sheet", options={"players": PLAYERS})).message()
    for _ in range(3):
        await (await fake.slash(tied, gm, "vv score", options={"points": 70})).message()
    await start_table(fake, "crowns new", crowns, gm, [bob])
    await bot.settled()
    return Places(vic, sheet_channel, crowns, fake.channels[EMPTY], tied, sheet, tie)
