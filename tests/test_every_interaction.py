"""Every kind of interaction the bot has, under bad weather: every command (each leaf of each group, from the tree
the bot synced), every option that autocompletes, every owner of buttons and selects and every form reached from
what is on screen. Once with every channel write held 5 s, once with a 429 on every route. Each interaction is
answered or deferred within Discord's 3 s, a deferred one is answered in the end, and nothing is applied twice:
each control is used twice at once (a double-click, a client's retry) and each form sent twice.

The kinds covered are counted and must be all there are (``tests/weather/sweep.py``), so a new command, option or
owner of controls is covered as soon as it exists, or fails here.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.app import TabletopBot
from localdiscord.guild import Channel
from localdiscord.server import LocalDiscord
from rules.dice import SeededDice
from tests.conftest import MakeBot
from tests.core.clock import FakeClock
from tests.table_play import start_table
from tests.weather.sweep import Sweep, control_owners, weather
from tests.weather.world import everything_under_way, fight

pytestmark = pytest.mark.fake(channels=7)
WEATHERS = ["held", "429"]
FORMS = 7
"""The kinds of form reached from the controls on screen."""


async def world(
    fake: LocalDiscord, make_bot: MakeBot, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> tuple[TabletopBot, Sweep]:
    """Every game under way (``everything_under_way``), in fine weather."""
    bot = await make_bot(clock=FakeClock(), dice=SeededDice(17))
    bot.settings.computer_delay = 0
    await everything_under_way(fake, bot)
    return bot, Sweep(fake, bot, tmp_path / "bot.sqlite3", caplog)


@pytest.mark.parametrize("kind", WEATHERS)
async def test_every_command_and_autocomplete(
    fake: LocalDiscord, make_bot: MakeBot, tmp_path: Path, caplog: pytest.LogCaptureFixture, kind: str
) -> None:
    _, sweep = await world(fake, make_bot, tmp_path, caplog)
    weather(fake, kind)
    await sweep.every_autocomplete()
    await sweep.every_command()
    await sweep.finish()
    print(f"{kind}: {len(sweep.covered['commands'])} commands, {len(sweep.covered['autocompletes'])} autocompletes")
    assert sweep.covered["commands"] == {leaf.path for leaf in sweep.commands()}
    assert sweep.covered["autocompletes"] == {f"{leaf.path} {o['name']}" for leaf, o in sweep.autocompletes()}


async def until_dice_to_pick(fake: LocalDiscord, bot: TabletopBot, sweep: Sweep, channel: Channel) -> None:
    """Play the V&V table (whoever it waits for takes the first choice offered) until dice are to be picked: the
    game's own controls are on screen."""
    for _ in range(20):
        await bot.settled()
        board = [m for m in fake.messages(channel) if m.custom_ids][-1]
        if any(str(s.get("placeholder", "")).startswith("Pick dice") for s in board.selects):
            return
        member = sweep.clicker(board)
        await (await fake.click(board, board.buttons[0]["custom_id"], member)).response()
    raise AssertionError("the V&V table never asked for dice to be picked")


@pytest.mark.parametrize("kind", WEATHERS)
async def test_every_control_and_form(
    fake: LocalDiscord, make_bot: MakeBot, tmp_path: Path, caplog: pytest.LogCaptureFixture, kind: str
) -> None:
    bot, sweep = await world(fake, make_bot, tmp_path, caplog)
    gm, bob = fake.members[0], fake.members[1]
    vic, crowns, dice, table, lobby = (
        fake.channels[0],
        fake.channels[2],
        fake.channels[3],
        fake.channels[5],
        fake.channels[6],
    )
    await fight(fake, bot, vic)
    bot.service.dice = SeededDice(18)  # the fight's scripted dice would tie V&V's seating roll for ever
    await (await fake.slash(vic, gm, "vic-gm knavery", options={"challenges": 2})).message()
    await (await fake.slash(dice, bob, "dice save", options={"name": "attack", "expression": "1d20+5"})).message()
    await (await fake.slash(dice, bob, "dice board")).message()
    await (await fake.slash(dice, bob, "roll", options={"expression": "2d6"})).message()
    await (await fake.slash(dice, bob, "roll", options={"expression": "yz 3 1 1"})).message()  # Push
    await (await fake.slash(dice, bob, "dice secret", options={"expression": "2d6"})).message()
    await start_table(fake, "vv new", table, gm, [bob, fake.members[2]])
    await until_dice_to_pick(fake, bot, sweep, table)
    await (await fake.slash(lobby, gm, "crowns new")).message()
    await (await fake.slash(crowns, gm, "game end")).message()
    await (await fake.slash(crowns, bob, "game leave")).message()
    await bot.settled()
    weather(fake, kind)
    await sweep.every_control()
    await sweep.finish()
    counts = {name: len(keys) for name, keys in sorted(sweep.covered.items())}
    print(f"{kind}: {counts}")
    assert sweep.covered["owners"] == control_owners(bot)
    # Forms can't be listed before they open (no game opens an ``m:`` form today): their count must not shrink.
    assert len(sweep.covered["forms"]) >= FORMS
