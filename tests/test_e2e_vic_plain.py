"""Half the interactions, in plain words (issue 19, part 4), through the local Discord: every option described, no
pool ids or raw data on screen, no public "Done." for a private change, one button per choice, /game status in a
campaign's channel, and the shortcuts of a turn (usual dice, NPCs with the fight, Next turn, a reward invested)."""

from __future__ import annotations

import json
import re
from typing import Any

from localdiscord.messages import Message
from localdiscord.server import LocalDiscord
from tests.conftest import MakeBot
from tests.test_e2e_vic_table import Dice, setup_troupes
from tests.vic_e2e_support import campaign_state, join_with, vic_bot

POOL_ID = re.compile(r"\bt\d+p\d+\b")


def shown(message: Message) -> str:
    """What a message shows (its custom ids left out: nobody reads those)."""
    labels = [(c.get("label"), c.get("placeholder"), c.get("options")) for c in message.walk_components()]
    return json.dumps([message.content, message.embeds, labels], ensure_ascii=False)


def options_of(command: dict[str, Any], path: str = "") -> list[tuple[str, dict[str, Any]]]:
    """Every option of a command, subcommands included, with its path."""
    out = []
    for option in command.get("options", []):
        here = f"{path} {option['name']}"
        out += options_of(option, here) if option["type"] in (1, 2) else [(here, option)]
    return out


async def test_every_option_of_every_vic_command_is_described(fake: LocalDiscord, make_bot: MakeBot) -> None:
    await vic_bot(make_bot)
    commands = [c for c in fake.commands if c["name"].startswith("vic")]
    assert {c["name"] for c in commands} == {"vic", "vic-gm", "vic-rival"}
    bare = [f"/{c['name']}{p}" for c in commands for p, o in options_of(c) if len(o.get("description", "")) < 8]
    assert bare == []


async def test_what_is_on_screen_is_plain(fake: LocalDiscord, make_bot: MakeBot) -> None:
    bot = await vic_bot(make_bot)
    channel, gm, bea, cal = fake.channels[0], fake.members[0], fake.members[1], fake.members[2]
    await (await fake.slash(channel, gm, "vic-gm campaign new", options={"company": "Knives"})).message()
    ana, bo = await setup_troupes(bot, fake, channel)
    bot.service.dice = Dice({f"t1p1.{ana}.0": [5], f"t1p1.{bo}.0": [6]})
    await (await fake.slash(channel, gm, "vic-gm turn start")).message()
    # A change with nothing for the channel is answered privately, not with a public "Done.".
    same = await (await fake.slash(channel, gm, "vic-gm company rank", options={"rank": 2})).message()
    assert same.ephemeral
    scheme = await (await fake.slash(channel, gm, "vic-gm knavery", options={"challenges": 3})).message()
    await join_with(fake, scheme, "Ana", bea)
    await join_with(fake, scheme, "Bo", cal)
    rolled = await (await fake.click(scheme, "Roll", gm)).message()
    assert "2 successes against 3 challenges" in rolled.content and "needed" not in rolled.content
    # One button per choice: a free item is taken with one button, whatever coins the company holds.
    await (await fake.slash(channel, gm, "vic-gm reward", options={"method": "rare", "npc_rank": 2})).message()
    price = await (
        await fake.slash(channel, bea, "vic price", options={"rank": 1, "item": "Boots", "pc": "Ana"})
    ).message()
    assert [b["label"] for b in price.buttons].count("Take it free") == 1
    await (await fake.slash(channel, gm, "vic-rival add", options={"name": "Vane", "rank": 3})).message()
    await (await fake.slash(channel, gm, "vic-rival design", options={"rival": "r1", "text": "Docks"})).message()
    split = await (
        await fake.slash(channel, gm, "vic-rival split", options={"rival": "r1", "points": "d1 3"})
    ).message()
    assert "3 to `d1`" in split.content and "{" not in split.content
    await bot.settled()
    seen = [shown(m) for m in fake.messages(channel)] + [shown(m) for m in fake.ephemerals(gm)]
    assert not [s for s in seen if POOL_ID.search(s)], [POOL_ID.findall(s) for s in seen if POOL_ID.search(s)]


async def test_game_status_brings_the_campaign_sheet_back(fake: LocalDiscord, make_bot: MakeBot) -> None:
    await vic_bot(make_bot)
    channel, gm, bea = fake.channels[0], fake.members[0], fake.members[1]
    nothing = await (await fake.slash(channel, bea, "game status")).message()
    assert nothing.ephemeral and "There is no game" in nothing.content
    await (await fake.slash(channel, gm, "vic-gm campaign new", options={"company": "Knives"})).message()
    status = await (await fake.slash(channel, bea, "game status")).message()
    assert not status.ephemeral and "Knives" in str(status.embeds) and "Wealth" in str(status.embeds)


async def test_a_turns_shortcuts(fake: LocalDiscord, make_bot: MakeBot) -> None:
    bot = await vic_bot(make_bot)
    channel, gm, bea = fake.channels[0], fake.members[0], fake.members[1]
    sheet = await (await fake.slash(channel, gm, "vic-gm campaign new")).message()
    ana, _ = await setup_troupes(bot, fake, channel)
    await (await fake.click(sheet, "Start turn 1", gm)).message()
    # A fight opens with its NPCs; Ana picks her dice once, and they are her usual ones from then on.
    sides = {"sides": "Knives vs Guards (2 Guard d6)"}
    fight = await (await fake.slash(channel, gm, "vic-gm violence", options=sides)).message()
    assert "Guard 1" in str(fight.embeds) and "Guard 2" in str(fight.embeds) and "d4 · d6 extra" in str(fight.embeds)
    joined = await join_with(fake, fight, "Ana → Knives", bea)
    assert "Pick the trait dice" in joined.content
    menu = next(s for s in joined.selects if "trait dice" in s["placeholder"])
    lurker = next(o["value"] for o in menu["options"] if o["label"].startswith("Lurker +1d6"))
    await (await fake.select(joined, menu["custom_id"], [lurker], bea)).message()
    await (await fake.click(fight, "End the fight", gm)).message()
    # Next turn: the turn ends and the next starts in one click.
    await fake.wait_for(lambda: "Next: turn 2" in sheet.describe_buttons(), what="the Next turn button")
    moved = await (await fake.click(sheet, "Next: turn 2", gm)).message()
    assert "Turn 1 is over" in moved.content  # the turn's end answers; the next turn's start follows it
    await fake.wait_for_message(channel, lambda m: "Turn 2** begins" in m.content)
    again = await (
        await fake.slash(channel, gm, "vic-gm violence", options={"sides": "Knives vs Rats (Rat)"})
    ).message()
    joined = await join_with(fake, again, "Ana → Knives", bea)
    assert "their usual dice" in joined.content and "d6 Lurker" in joined.content
    # A reward invested at once.
    paid = await (
        await fake.slash(channel, gm, "vic-gm reward", options={"method": "rare", "npc_rank": 3, "invest": True})
    ).message()
    assert "3 coins of rank 2" in paid.content and "Invested" in paid.content
    state = await campaign_state(bot, channel)
    assert state.company.ip == 18 and state.company.liquid_at(2) == 0 and state.find_pc(ana).usual  # type: ignore[union-attr]
