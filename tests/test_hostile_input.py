"""Hostile input through the local Discord: every option of every command, every autocomplete and every form field.

The commands come from the tree the bot synced (``fake.commands``), so a new command or option is covered as soon
as it exists. Each value is sent as a modified client could send it (``client_checks=False``: outside the declared
choices, ranges and lengths, within what Discord's API itself accepts), into a world where every game is under way:
a Viciousness campaign with troupes, a rival and a fight waiting for its hits to be shared, a V&V scoresheet, a Dice
of Crowns game, and an empty channel. For each interaction:

- it is answered, and never with an internal error (no "Something went wrong", nothing logged as an error);
- everything the bot sent is valid for Discord (the local Discord records what it would refuse; with
  ``DISCORD_REQUEST_LOG`` set the requests also go to the spec check);
- a refusal changed nothing: the stored sessions, their logs and the server settings are as they were, and no
  public message was posted.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sqlite3
from collections.abc import AsyncIterator, Awaitable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from bot.app import TabletopBot
from bot.replies import Reply
from localdiscord.guild import Channel, Member
from localdiscord.interactions import InteractionResult
from localdiscord.server import LocalDiscord
from localdiscord.validation import modal_fields
from rules.dice import SeededDice
from rules.text import echo
from tests.conftest import MakeBot
from tests.core.clock import FakeClock
from tests.hostile import MODAL_TEXT_MAX, Leaf, leaves, mixed, option_values, texts
from tests.weather.world import EMPTY, HOME, everything_under_way, fight

HOSTILE = settings(
    deadline=None,
    derandomize=os.environ.get("CI") == "true",
    # The world persists across examples (one bot per test), so a failure is reported as found, not shrunk.
    phases=[Phase.explicit, Phase.generate],
    database=None,
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.large_base_example,
    ],
)
EXAMPLES = os.environ.get("HOSTILE_EXAMPLES")
"""How many sweeps each test makes, to search longer than CI does (each test has its own default)."""


def sweeps(default: int) -> settings:
    """The settings of a test making ``default`` sweeps (``HOSTILE_EXAMPLES`` overrides it)."""
    return settings(HOSTILE, max_examples=int(EXAMPLES or default))


pytestmark = pytest.mark.fake(channels=5)

HANDLER_TASKS = ("CommandTree-invoker", "discord-ui-dynamic-item-", "discord.py: on_interaction")
"""discord.py's names for the tasks that run a command, a click or select, and a form's submission."""
SUMMARY = 100


def form_fields(modal: dict[str, Any]) -> list[dict[str, Any]]:
    """The inputs of a form the bot opened: text inputs and selects."""
    return [item for row in modal["components"] for item in modal_fields(row)]


def summary(value: Any) -> str:
    """A value as a failure message shows it: its repr, cut (a file is shown by its name and size)."""
    if isinstance(value, tuple) and len(value) == 2 and isinstance(value[1], bytes):
        value = f"<file {value[0]!r}, {len(value[1])} bytes: {value[1][:60]!r}…>"
    text = repr(value)
    return text if len(text) <= SUMMARY else f"{text[:SUMMARY]}…({len(text)} chars)"


@dataclass
class World:
    """Every game under way, and the checks made around each hostile interaction."""

    fake: LocalDiscord
    bot: TabletopBot
    database: Path
    caplog: pytest.LogCaptureFixture
    refusals: dict[int, str] = field(default_factory=dict)
    offered: dict[tuple[str, str], list[Any]] = field(default_factory=dict)
    """What the bot's autocomplete offers for each (command, option), asked once the world is set up."""
    forms: dict[str, InteractionResult] = field(default_factory=dict)
    """The forms opened by buttons and selects (commands' forms are opened by the sweep itself)."""
    strategies: dict[tuple[str, str], st.SearchStrategy[Any]] = field(default_factory=dict)
    """Each (command or form, option or field)'s values, and each command's places, built once: building a
    strategy costs more than drawing from it."""
    expected: set[str] = field(default_factory=set)
    """The options and fields the tests meant to fill; ``covered``: those they did fill."""
    covered: set[str] = field(default_factory=set)
    problems: list[str] = field(default_factory=list)

    @property
    def users(self) -> list[Member]:
        """Who may be named in a user option: every member, the bot, and a user who is not a member (left)."""
        return [*self.fake.members, self.fake.guild.bot_member, self.fake.dm_user]

    @property
    def commands(self) -> list[Leaf]:
        """Every command that takes at least one option."""
        return [leaf for leaf in leaves(self.fake.commands) if leaf.options]

    def where(self, leaf: Leaf) -> st.SearchStrategy[tuple[Channel, Member]]:
        """Where and by whom the command is sent: mostly in the channel where its game is, sometimes in any other
        or in a DM (where Discord offers it), by a member Discord shows it to."""
        key = (leaf.path, "")  # no option is named "" (Discord names have 1 to 32 characters): no clash with one
        if key in self.strategies:
            return self.strategies[key]
        channels = self.fake.channels
        home = channels[HOME.get(leaf.top, EMPTY)]
        places = [home, home, home, *channels]
        command = next(c for c in self.fake.commands if c["name"] == leaf.top)
        contexts = command.get("contexts")
        if 1 in contexts if contexts is not None else command.get("dm_permission", True) is not False:
            places.append(self.fake.dm_channel())
        needed = int(command.get("default_member_permissions") or 0)
        members = [m for m in self.fake.members if m.permissions & needed == needed]
        self.strategies[key] = st.sampled_from(places).flatmap(
            lambda c: st.just((c, self.fake.dm_user)) if c.is_dm else st.tuples(st.just(c), st.sampled_from(members))
        )
        return self.strategies[key]

    def values(self, leaf: Leaf, option: dict[str, Any]) -> st.SearchStrategy[Any]:
        """What may be sent for one option of a command."""
        key = (leaf.path, option["name"])
        if key not in self.strategies:
            self.strategies[key] = option_values(option, self.offered.get(key, []), self.users)
        return self.strategies[key]

    def field_values(self, form: str, item: dict[str, Any]) -> st.SearchStrategy[Any]:
        """What may be submitted in one field of a form: any text, or for a select any of its options or text."""
        key = (form, item["custom_id"])
        if key not in self.strategies:
            if item["type"] == 4:
                self.strategies[key] = mixed([item.get("value") or ""], MODAL_TEXT_MAX)
            else:
                offered = [o["value"] for o in item.get("options", [])]
                self.strategies[key] = st.lists(st.one_of(st.sampled_from(offered or [""]), texts(100)), max_size=6)
        return self.strategies[key]

    def snapshot(self) -> tuple[Any, ...]:
        """What a refusal must leave as it was: the stored sessions and their logs, the server settings, and how
        many public messages each channel has."""
        with sqlite3.connect(self.database) as db:
            sessions = db.execute("SELECT * FROM sessions ORDER BY id").fetchall()
            logs = db.execute("SELECT session_id, count(*) FROM session_events GROUP BY session_id").fetchall()
            server = db.execute("SELECT * FROM guild_settings ORDER BY guild_id").fetchall()
        public = [len(self.fake.messages(c)) for c in self.fake.channels]
        return sessions, logs, server, public

    async def finished(self, res: InteractionResult, what: str) -> None:
        """Wait until the bot has answered ``res``, its handler has returned and nothing is being drawn."""
        await self.fake.wait_for(lambda: res.response_type is not None or res.errors, 10, what=f"an answer to {what}")
        async with asyncio.timeout(10):
            while running := [
                t for t in asyncio.all_tasks() if t.get_name().startswith(HANDLER_TASKS) and not t.done()
            ]:
                await asyncio.wait(running)
        await self.bot.settled()

    async def check(self, what: str, send: Awaitable[InteractionResult]) -> InteractionResult:
        """Send one hostile interaction; what went wrong with it goes to ``problems`` (all are reported at once)."""
        await self.bot.settled()
        before = self.snapshot()
        logged = len(self.caplog.records)
        res = await send
        await self.finished(res, what)
        problems = [f"Discord refused the interaction: {e}" for e in res.errors]
        problems += [f"Discord would refuse what the bot sent: {f}" for f in self.fake.failures]
        self.fake.failures.clear()
        errors = [r for r in self.caplog.records[logged:] if r.levelno >= logging.ERROR]
        problems += [f"logged {r.getMessage()!r}: {r.exc_info[1]!r}" if r.exc_info else r.getMessage() for r in errors]
        refusal = self.refusals.get(res.id)
        if refusal is not None:
            if "Something went wrong" in refusal:
                problems.append(f"answered {refusal!r}")
            elif self.snapshot() != before:
                problems.append(f"refused ({refusal!r}), yet it changed something")
        self.problems += [f"{p}\n    ← {what}" for p in problems]
        return res

    def assert_no_problems(self) -> None:
        """Fail with every problem found so far."""
        assert not self.problems, f"{len(self.problems)} problems:\n" + "\n".join(self.problems)

    async def submit(self, data: st.DataObject, name: str, opened: InteractionResult) -> None:
        """Fill every field of the form ``opened`` answered with hostile values, and send it."""
        assert opened.modal is not None
        values: dict[str, Any] = {}
        for item in form_fields(opened.modal):
            key = item["custom_id"]
            values[key] = data.draw(self.field_values(name, item), label=f"{name} {key}")
            self.covered.add(f"form {name} {key}")
        shown = {k: summary(v) for k, v in values.items()}
        await self.check(f"the form {name} with {shown}", self.fake.submit_modal(opened, values, client_checks=False))


@pytest.fixture
async def world(
    fake: LocalDiscord,
    make_bot: MakeBot,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> AsyncIterator[World]:
    """Every game under way: the campaign in channel 0, a scoresheet in 1, Dice of Crowns in 2, a scoresheet at
    its tie-break in 4; channel 3 empty. Refusals are recorded as they are sent. After the test, every option
    and field it meant to fill must have been filled at least once."""
    bot = await make_bot(clock=FakeClock(), dice=SeededDice(17))
    bot.settings.computer_delay = 0
    world = World(fake, bot, tmp_path / "bot.sqlite3", caplog)
    refuse = Reply.refuse

    async def recorded(reply: Reply, text: str) -> None:
        world.refusals[reply.interaction.id] = text
        await refuse(reply, text)

    monkeypatch.setattr(Reply, "refuse", recorded)
    gm, bob, carol, dave = fake.members[0], fake.members[1], fake.members[2], fake.members[4]
    places = await everything_under_way(fake, bot)
    vic, sheet, tie = places.vic, places.sheet_message, places.tie_message
    for leaf in world.commands:
        for option in leaf.options:
            if option.get("autocomplete"):
                channel = fake.channels[HOME.get(leaf.top, EMPTY)]
                asked = await fake.autocomplete(channel, gm, leaf.path, option["name"], {option["name"]: ""})
                world.offered[leaf.path, option["name"]] = [c["value"] for c in await asked.choices()]
    troupe = next(m for m in fake.messages(vic) if "Add a minion" in m.describe_buttons())
    brawl = await fight(fake, bot, vic)
    edit = next(s["custom_id"] for s in sheet.selects if s["custom_id"].endswith(":edit"))
    dice = next(s for s in tie.selects if "rolled physical dice" in str(s.get("placeholder")))
    typed_dice = next(o["value"] for o in dice["options"] if "enter the dice" in o["label"])
    scheme = await (await fake.slash(vic, gm, "vic-gm knavery", options={"challenges": 3, "known": "Dogs"})).message()
    scheme_tools = await (await fake.click(scheme, "GM: dice…", gm)).message()
    world.forms = {
        "score": await fake.click(sheet, next(b["label"] for b in sheet.buttons if "Score for" in b["label"]), gm),
        "rename": await fake.select(sheet, edit, ["name:Sloth"], gm),
        "correct": await fake.select(sheet, edit, ["fix:Wrath"], gm),
        "tie-break dice": await fake.select(tie, dice["custom_id"], [typed_dice], gm),
        "add a minion": await fake.click(troupe, "Add a minion", bob),
        "advance": await fake.click(troupe, "Advance: new minion", bob),
        "share the hits": await fake.click(brawl, "Share the hits…", gm),
        "challenges": await fake.click(scheme_tools, "Change the challenges…", gm),
        "new troupe": await fake.slash(vic, dave, "vic troupe new", options={"asset": "headquarters"}),
        "replacement": await fake.slash(vic, carol, "vic pc replace", options={"pc": f"{carol.id}.2"}),
        "new sheet": await fake.slash(places.empty, gm, "vv sheet"),
    }
    for name, opened in world.forms.items():
        assert (await opened.response())["type"] == 9, f"{name}: {opened.response_data}"
    yield world
    missing = world.expected - world.covered
    assert not missing, f"never filled in: {sorted(missing)}"


@sweeps(15)
@given(data=st.data())
async def test_every_option_of_every_command(world: World, data: st.DataObject) -> None:
    fake = world.fake
    for leaf in world.commands:
        channel, member = data.draw(world.where(leaf), label=f"/{leaf.path} where")
        options: dict[str, Any] = {}
        for option in leaf.options:
            name = f"/{leaf.path} {option['name']}"
            world.expected.add(name)
            # Every option is sent in the first sweep, then each optional one half of the time. Both are drawn
            # every time, so an example draws the same way when hypothesis replays it (what was covered before
            # must not change the draws, or a failure shows as a flaky strategy instead of itself).
            value, send = data.draw(world.values(leaf, option), label=name), data.draw(st.booleans())
            if option.get("required") or name not in world.covered or send:
                options[option["name"]] = value
                world.covered.add(name)
        shown = {k: summary(v) for k, v in options.items()}
        what = f"/{leaf.path} {shown} by {member.name} in #{channel.name}"
        res = await world.check(what, fake.slash(channel, member, leaf.path, options, client_checks=False))
        if res.modal is not None:
            await world.submit(data, f"opened by /{leaf.path}", res)
    world.assert_no_problems()


@sweeps(10)
@given(data=st.data())
async def test_every_autocomplete(world: World, data: st.DataObject) -> None:
    fake = world.fake
    for leaf in world.commands:
        for option in leaf.options:
            if not option.get("autocomplete"):
                continue
            world.expected.add(f"/{leaf.path} {option['name']} (typing)")
            channel, member = data.draw(world.where(leaf))
            typed = data.draw(texts(), label=f"/{leaf.path} {option['name']} (typing)")
            others = {
                o["name"]: data.draw(world.values(leaf, o))
                for o in leaf.options
                if o is not option and o["type"] != 11 and data.draw(st.booleans())
            }
            shown = {k: summary(v) for k, v in others.items()}
            what = f"/{leaf.path} typing {option['name']}={summary(typed)} with {shown} by {member.name}"
            sent = fake.autocomplete(
                channel, member, leaf.path, option["name"], {**others, option["name"]: typed}, client_checks=False
            )
            res = await world.check(what, sent)
            if res.response_type != 8:
                world.problems.append(f"answered with {res.response_type}, not with choices\n    ← {what}")
            world.covered.add(f"/{leaf.path} {option['name']} (typing)")
    world.assert_no_problems()


async def test_an_autocomplete_naming_no_option_is_answered_with_no_choices(world: World) -> None:
    """A modified client asks for choices without saying which option is being typed: the answer is still choices
    (none), the only answer Discord takes to an autocomplete, never a message."""
    fake = world.fake
    for leaf in world.commands:
        if any(option.get("autocomplete") for option in leaf.options):
            channel = fake.channels[HOME.get(leaf.top, EMPTY)]
            what = f"/{leaf.path} asking for choices with no option focused"
            sent = fake.autocomplete(channel, fake.members[0], leaf.path, None, {}, client_checks=False)
            res = await world.check(what, sent)
            if res.response_type != 8 or await res.choices():
                world.problems.append(f"answered with {res.response_type}: {res.response_data}\n    ← {what}")
    world.assert_no_problems()


@sweeps(25)
@given(data=st.data())
async def test_every_form_field(world: World, data: st.DataObject) -> None:
    for name, opened in world.forms.items():
        assert opened.modal is not None
        world.expected |= {f"form {name} {item['custom_id']}" for item in form_fields(opened.modal)}
        await world.submit(data, name, opened)
    world.assert_no_problems()


NESTED = '{"format": "viciousness-campaign", "version": 1, "state": ' + '{"a":' * 100_000 + "1" + "}" * 100_001
LONG = "x" * 2000


async def test_the_refusals_found(world: World) -> None:
    """What the sweeps found, each refused clearly, changing nothing, the echo of what was typed kept short."""
    fake = world.fake
    gm, bob = fake.members[0], fake.members[1]
    vic, sheet = fake.channels[0], fake.channels[1]
    ana = f"{bob.id}.1"
    await (await fake.slash(vic, gm, "vic-gm violence", options={"sides": "Rats vs Knives"})).message()  # for /vic npc
    cases: list[tuple[Channel, str, dict[str, Any], str]] = [
        (sheet, "vv score", {"points": -1}, "`points` must be from 0 to 300 (not -1)."),
        (vic, "vic-gm reward", {"method": "work", "npc_rank": 8}, "`npc_rank` must be from 1 to 7 (not 8)."),
        (vic, "vic price", {"rank": 2**53}, "`rank` must be from 1 to 7 (not 9,007,199,254,740,992)."),
        (vic, "vic-gm reward", {"method": "@everyone", "npc_rank": 1}, "`method` must be one of: Work for someone"),
        (vic, "vic-gm company set", {"name": LONG}, "`name` takes at most 80 characters (that was 2,000)."),
        (vic, "vic push", {"pc": ana, "trait": "Medic", "target": LONG}, f"No character is called {echo(LONG)}:"),
        (vic, "vic-rival foil", {"rival": LONG, "design": "d1"}, f"No rival is called {echo(LONG)}:"),
        (vic, "vic pc retire", {"pc": LONG}, f"No character is called {echo(LONG)}:"),
        (vic, "vic-gm discovery", {"pc": LONG}, f"No character is called {echo(LONG)}:"),
        (vic, "vic troupe edit", {"name": "N" * 500, "member": bob}, "Name: at most 80 characters."),
        (vic, "vic troupe edit", {"henchmen": f"Rat, {LONG}", "member": bob}, "at most 80 characters"),
        (vic, "vic pc advance", {"pc": ana, "trait": "T" * 500}, "Trait: at most 80 characters."),
        (vic, "vic pc forget", {"pc": ana, "contact": "s" + "9" * 5000}, "Index: at most "),
        (vic, "vic-gm npc", {"name": "Rat", "dice": "999999999d6", "side": "a"}, "An NPC rolls 10 dice at most"),
        (vic, "vic-gm campaign import", {"file": ("c.json", NESTED.encode())}, "deeper than a campaign"),
        (vic, "vic troupe show", {"member": fake.dm_user}, f"{echo('Erin')} isn't a member of this server"),
    ]
    for channel, command, options, refusal in cases:
        what = f"/{command} { ({k: summary(v) for k, v in options.items()}) }"
        res = await world.check(what, fake.slash(channel, gm, command, options, client_checks=False))
        assert refusal in world.refusals.get(res.id, ""), (what, world.refusals.get(res.id))
        assert len(world.refusals[res.id]) < 600, (what, world.refusals[res.id])
    world.assert_no_problems()
