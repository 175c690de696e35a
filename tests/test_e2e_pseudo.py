"""The end-to-end flows in the pseudo-language (``bot.i18n``: every message accented, ~40 % longer, bracketed):
nothing the bot sends is left untranslated, and every payload still fits Discord's limits (the local Discord
refuses one that doesn't, as Discord would: the flow would fail). Played by custom ids and by the pseudo labels."""

from __future__ import annotations

import random
from pathlib import Path

import yaml

from bot.app import TabletopBot
from bot.i18n import PSEUDO, pseudo
from bot.models import Status
from localdiscord.guild import Member
from localdiscord.messages import Message
from localdiscord.server import LocalDiscord
from rules.dice import SeededDice
from tests.conftest import MakeBot
from tests.pseudo import untranslated
from tests.table_play import play_with_computers, table_bot
from tests.test_e2e_crowns import play_one_click as crowns_click
from tests.test_e2e_vic_table import Dice as VicDice
from tests.test_e2e_vic_table import setup_troupes
from tests.test_e2e_vices import play_one_click as vices_click
from tests.vic_e2e_support import join_with, vic_bot

DATA = Path(__file__).resolve().parent.parent / "data"


SINS = ("Wrath", "Sloth", "Pride", "Lust", "Greed", "Gluttony", "Envy")
VICES_NAMES = [
    *SINS,
    *(sin[:2] for sin in SINS),
    *("Mirror", "Medusa", "David", "Goliath", "Silver Bullet", "Werewolf", "Nemesis"),
]
"""What Vices & Vengeance keeps in English in every language (docs/i18n.md): the Sins, their letters on the board,
the Mythical dice."""


CROWNS_NAMES = [
    *("Rightful Heir", "Betrayal", "Fickle Fate", "Scrolls of Intrigue", "Fate", "Claims", "Claim", "Quick Play"),
    *("The Birthright", "Twists of Fate", "The Messenger", "Crimson Feast", "Last Stand", "Overkill", "Cascading"),
]
"""What Dice of Crowns keeps in English in every language (docs/i18n.md): the faces' and legendary rolls' names,
its tokens and modules."""


def names(fake: LocalDiscord) -> list[str]:
    """Names members gave (shown as they are in every language)."""
    return [m.name for m in fake.members] + [c.name for c in fake.channels] + ["Tabletop Bot"]


async def pseudo_bot(make_bot: MakeBot, extensions: tuple[str, ...]) -> TabletopBot:
    bot = await table_bot(make_bot, extensions)
    bot.languages.forced = PSEUDO
    bot.service.dice = SeededDice(11)
    return bot


def control(message: Message, part: str) -> str:
    """The custom id of the message's button whose id has ``part`` (its label is in the pseudo-language)."""
    return next(b["custom_id"] for b in message.buttons if part in b["custom_id"])


def assert_all_translated(fake: LocalDiscord, typed: list[str] | None = None) -> None:
    """Every text the bot sent was translated (outside names members gave, and what they typed: ``typed``)."""
    left = untranslated(fake.requests, names(fake) + (typed or []))
    assert not left, "\n".join(f"{words}: {text!r}" for text, words in left.items())


async def test_a_game_of_dice_of_crowns_in_the_pseudo_language(fake: LocalDiscord, make_bot: MakeBot) -> None:
    bot = await pseudo_bot(make_bot, ("cogs.meta", "cogs.game", "cogs.crowns"))
    channel, alice = fake.channels[1], fake.members[0]
    lobby = await (await fake.slash(channel, alice, "crowns new", options={"bots": 1})).message()
    await (await fake.click(lobby, pseudo("Add computer"), alice)).message()
    await (await fake.click(lobby, pseudo("Start"), alice)).message()
    game = await play_with_computers(fake, bot, channel, random.Random(5), crowns_click)
    assert game.status is Status.FINISHED
    await (await fake.slash(channel, alice, "game history")).message()
    assert_all_translated(fake, CROWNS_NAMES)


async def test_a_game_of_vices_and_vengeance_in_the_pseudo_language(fake: LocalDiscord, make_bot: MakeBot) -> None:
    bot = await pseudo_bot(make_bot, ("cogs.meta", "cogs.game", "cogs.vices"))
    channel, alice = fake.channels[1], fake.members[0]
    lobby = await (await fake.slash(channel, alice, "vv new", options={"bots": 2})).message()
    await (await fake.click(lobby, pseudo("Start"), alice)).message()
    game = await play_with_computers(fake, bot, channel, random.Random(5), vices_click)
    assert game.status is Status.FINISHED
    assert_all_translated(fake, VICES_NAMES)


async def test_the_dice_in_the_pseudo_language(fake: LocalDiscord, make_bot: MakeBot) -> None:
    bot = await make_bot(extensions=("cogs.meta", "cogs.dice"))
    bot.languages.forced = PSEUDO
    channel, (alice, bob) = fake.channels[0], fake.members[:2]

    async def say(member: Member, command: str, **options: object) -> Message:
        return await (await fake.slash(channel, member, command, options=dict(options))).message()

    rolled = await say(alice, "roll", expression="4d6kh3 + 2 # Strength")
    assert not rolled.ephemeral, rolled.content
    assert "4d6kh3" in rolled.content  # notation is copied as typed: never translated
    await (await fake.click(rolled, pseudo("Roll again"), bob)).message()
    await say(alice, "roll", expression="1d20+5 adv")
    await say(alice, "roll", expression="nonsense((")  # a refusal
    await say(alice, "dice save", name="attack", expression="1d20+5 # Sword")
    await say(alice, "dice list")
    await say(alice, "dice odds", expression="attack", at_least=15)
    await say(alice, "dice board")
    committed = await say(alice, "dice secret", expression="2d6", label="Trap")
    await (await fake.click(committed, pseudo("Show me"), bob)).message()
    await (await fake.click(committed, pseudo("Reveal"), alice)).message()
    await say(alice, "stats luck")
    await say(alice, "dice presets")
    for preset in ("dh +1 vs 14", "bitd 3", "pbta +1", "4dF+2", "gen 2g 1y 2p", "vtm 5 h2 vs 3", "yz 3 1 0", "is +2"):
        await say(alice, "roll", expression=preset)
    await bot.settled()
    assert_all_translated(fake, ["Strength", "attack", "Sword", "Trap"])


async def test_initiative_in_the_pseudo_language(fake: LocalDiscord, make_bot: MakeBot) -> None:
    bot = await make_bot(extensions=("cogs.meta", "cogs.initiative"), dice=SeededDice(3))
    bot.languages.forced = PSEUDO
    channel, (gm, alice, bob) = fake.channels[0], fake.members[:3]
    board = await (await fake.slash(channel, gm, "init start")).message()
    await (await fake.slash(channel, alice, "init join", options={"roll": "1d20+3", "name": "Alia"})).message()
    await (await fake.slash(channel, bob, "init join", options={"value": 12})).message()
    npc = {"name": "Ogre", "roll": "1d20", "hidden": True}
    await (await fake.slash(channel, gm, "init npc", options=npc)).message()
    stunned = {"who": "Alia", "condition": "Stunned", "turns": 1}
    await (await fake.slash(channel, gm, "init condition", options=stunned)).message()
    for _turn in range(5):  # Start, then Next
        await (await fake.click(board, control(board, ":next"), gm)).message()
    await (await fake.click(board, pseudo("Undo"), gm)).message()
    await (await fake.slash(channel, gm, "init end")).message()
    await bot.settled()
    assert_all_translated(fake, ["Alia", "Ogre", "Stunned"])


async def test_a_viciousness_turn_in_the_pseudo_language(fake: LocalDiscord, make_bot: MakeBot) -> None:
    bot = await vic_bot(make_bot)
    bot.languages.forced = PSEUDO
    channel, gm, bea, cal = fake.channels[0], fake.members[0], fake.members[1], fake.members[2]

    async def say(member: Member, command: str, **options: object) -> Message:
        return await (await fake.slash(channel, member, command, options=dict(options))).message()

    await say(gm, "vic-gm campaign new", company="Knives")
    ana, bo = await setup_troupes(bot, fake, channel)
    bot.service.dice = VicDice({f"t1p1.{ana}.0": [5], f"t1p1.{bo}.0": [6]})
    await say(gm, "vic-gm turn start")
    await say(gm, "vic-gm company rank", rank=2)
    scheme = await say(gm, "vic-gm knavery", challenges=3)
    await join_with(fake, scheme, "Ana", bea)
    await join_with(fake, scheme, "Bo", cal)
    await (await fake.click(scheme, pseudo("Roll"), gm)).message()
    await say(gm, "vic-gm reward", method="rare", npc_rank=2)
    await say(bea, "vic price", rank=1, item="Boots", pc="Ana")
    await say(gm, "vic-rival add", name="Vane", rank=3)
    await say(gm, "vic-rival design", rival="r1", text="Docks")
    await say(gm, "vic-rival split", rival="r1", points="d1 3")
    await say(bea, "vic me")
    await say(bea, "game status")
    await say(gm, "vic recap", post=True)
    await say(gm, "vic-gm screen")
    await bot.settled()
    traits = [t["name"] for t in yaml.safe_load((DATA / "viciousness" / "traits.yaml").read_text())]
    assert_all_translated(fake, ["Knives", "Crows", "Ana", "Bo", "Vane", "Docks", "Boots", *traits])
