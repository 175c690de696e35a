"""Interactions a Viciousness turn takes: ``python bench/campaign_ux.py [-v]``.

A GM and two players run a campaign through the local Discord the way they would remotely. Each player's troupe
has a captain and two minions (the GM gave a second minion place). Two turns are played with the same script, the
"typical turn" of the issue on Viciousness over weeks:

- a 2-character scheme (one character of each player; 2 challenges, the roll succeeds);
- a 3-side fight with 2 NPCs and a death test (``Company vs Guards vs Rats``: one minion of each player on the
  company's side, a Guard and a Rat; the Guards' one hit goes at the Rats, the Rat is wounded and tested);
- a push (a player rerolls their fighter's dice: turn 1 one player, turn 2 the other);
- a rest (a player's second minion);
- a price (a player prices an item for their other minion and buys it);
- a reward and an investment (the GM);
- the turn's end and the next turn's start (the GM).

The script runs twice: the long way (every step its own click: the GM rolls each pool, the price is paid with its
button, *Next: turn N* on the sheet) and with the shortcuts that fold a confirmation into the command that starts
it (``roll_at:2`` on each pool, ``buy:true`` on the price, ``next_turn:true`` on the reward). Each decision is still
taken by whoever the seed gives it to.

The dice are scripted by die id (the scheme's dice succeed, only the Guard's die hits, the Rat survives), so the
same script gives the same figures on every machine. Turn 1 is the campaign's first turn (nobody has picked dice
before); turn 2 is the typical turn of a campaign under way, and its figures are the ones the issue compares.

Counted per turn, from what the local Discord saw: ``interactions`` (slash commands, clicks, select picks and form
submissions sent, per actor; autocomplete is not counted), ``messages`` (messages the bot created in the channel,
not ephemeral), ``pings`` (notifying mentions of a created message, per member) and ``calls``: every message that
called someone (a ping in the channel, or a direct message for a member who asked for those), to whom and why
(the call's own line). The setup (the campaign, the troupes, their characters) is not counted.

Prints a table per way and the calls of both turns with the shortcuts, then as the last line one JSON object:
``turn_interactions`` (all actors, turn 2, with the shortcuts), ``per_actor`` (turn 2: gm, bea, cal),
``messages``, ``pings``, ``calls``, the same figures of turn 1 under ``first_turn``, and all of them the long way
under ``long_way``.

The steps below are "intents" (join a pool with a character and these trait dice, push, rest…) carried out with
what is on screen: they follow the bot's controls, so the same script measures the bot before and after a change
of its interface.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import re
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from table_ux import FrozenClock, WatchedDiscord, connect

from bot.app import TabletopBot
from bot.endpoint import use_api_base
from bot.settings import Settings
from localdiscord import Channel, InteractionResult, Member, Message
from tests.vic_e2e_support import fill_form

BOT_EXTENSIONS = ("cogs.meta", "cogs.game", "cogs.viciousness")
STEP_TIMEOUT_S = 30.0
QUIET_S = 0.15
"""How long the bot must stay quiet before a step is taken as done (boards redrawn, follow-ups sent)."""
ACTORS = ("gm", "bea", "cal")


class TurnDice:
    """The bench's dice by die id: schemes succeed, the first NPC of a fight (the Guard) hits, nothing else does.

    Pool ids are ``t<turn>p<n>``: every die of a scheme shows 5; in a fight the NPC ``n1`` rolls 4, everyone else 2
    (rerolls 1); a death test shows 3 (the Rat survives). Anything else (none is expected) shows 2.
    """

    def roll(self, die_id: str, sides: int) -> int:
        """One die."""
        if ".death." in die_id:
            return 3
        if ".re" in die_id:
            return 1
        if ".r1.n1." in die_id:
            return 4
        if ".r" in die_id:
            return 2
        return 5 if die_id.startswith("t") else 2


def build_bot(fake: WatchedDiscord, db_path: Path) -> TabletopBot:
    """A TabletopBot for ``fake`` with the bench's dice and a frozen clock."""
    use_api_base(fake.base_url)
    settings = Settings(discord_token=fake.token, database_path=db_path, dev_guild_id=None, _env_file=None)
    return TabletopBot(
        settings, extensions=BOT_EXTENSIONS, clock=FrozenClock(), dice=TurnDice(), guild_ready_timeout=0.1
    )


async def start_bot(fake: WatchedDiscord, db_path: Path) -> Callable[[], Awaitable[None]]:
    """Build the bot, connect it to ``fake`` and wait until it is ready; return a coroutine that stops it."""
    return await connect(fake, build_bot(fake, db_path))


# -- counting ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Call:
    """A message that called someone: to whom (names), how (a ping, a direct message), and why."""

    to: list[str]
    how: str
    why: str


MENTION = re.compile(r"<@!?(\d+)>")


@dataclass
class Figures:
    """What one turn took."""

    interactions: Counter[str] = field(default_factory=Counter)
    messages: int = 0
    pings: Counter[str] = field(default_factory=Counter)
    steps: list[str] = field(default_factory=list)
    calls: list[Call] = field(default_factory=list)

    @property
    def total(self) -> int:
        """Interactions of every actor."""
        return sum(self.interactions.values())

    def as_json(self) -> dict[str, Any]:
        """The figures as the JSON line reports them."""
        return {
            "turn_interactions": self.total,
            "per_actor": {a: self.interactions[a] for a in ACTORS},
            "messages": self.messages,
            "pings": {a: self.pings[a] for a in ACTORS},
            "calls": [{"to": c.to, "how": c.how, "why": c.why} for c in self.calls],
        }


"""The character form's text inputs by label (their custom_ids are action paths, which depend on the form)."""


class Campaign:
    """The campaign's channel as its three people use it: every interaction they send goes through here."""

    def __init__(self, fake: WatchedDiscord, channel: Channel, people: dict[str, Member], shortcuts: bool) -> None:
        self.shortcuts = shortcuts
        """Whether the script takes the commands' shortcuts (``roll_at``, ``buy``, ``next_turn``), or the long way."""
        self.fake = fake
        self.channel = channel
        self.people = people
        self.names = {m.id: name for name, m in people.items()}
        self.figures: Figures | None = None
        """The turn being counted (None during the setup)."""
        self.sheet: Message | None = None
        fake.watcher = self  # type: ignore[assignment]

    # -- the watcher's side: messages and pings ----------------------------------------------------------

    def created(self, message: Message) -> None:
        """A message the bot created: counted if it is in the channel and public (or a direct message that calls)."""
        if self.figures is not None and message.channel.is_dm and message.channel.recipient is not None:
            name = self.names.get(message.channel.recipient.id, "?")
            self.figures.calls.append(Call([name], "direct message", self._why(message.content, [])))
        if self.figures is None or message.channel is not self.channel or message.ephemeral:
            return
        self.figures.messages += 1
        if not message.loading:
            self._pings(message)

    def edited(self, message: Message, was_loading: bool) -> None:
        """A deferred message's first edit is when its mentions notify."""
        if self.figures is not None and was_loading and message.channel is self.channel and not message.ephemeral:
            self._pings(message)

    def _pings(self, message: Message) -> None:
        assert self.figures is not None
        for user in message.mentions:
            self.figures.pings[self.names.get(user, str(user))] += 1
        if message.mentions:
            to = [self.names.get(u, str(u)) for u in message.mentions]
            self.figures.calls.append(Call(to, "ping", self._why(message.content, message.mentions)))

    def _why(self, content: str, mentions: list[int]) -> str:
        """The line of ``content`` that calls (its mentions as names), or its first line."""
        lines = content.splitlines() or [""]
        called = [line for line in lines if line.startswith(("🔔", "⏰", "📅"))]
        line = next((ln for ln in called if any(f"<@{u}>" in ln for u in mentions)), called[0] if called else lines[0])
        return MENTION.sub(lambda m: "@" + self.names.get(int(m[1]), m[1]), line)

    # -- sending -------------------------------------------------------------------------------------------

    def _count(self, who: str, what: str) -> None:
        if self.figures is not None:
            self.figures.interactions[who] += 1
            self.figures.steps.append(f"{who}: {what}")

    async def slash(self, who: str, command: str, **options: Any) -> Message:
        """``who`` runs ``/command``; its answer."""
        self._count(who, f"/{command}")
        res = await self.fake.slash(self.channel, self.people[who], command, options=options)
        return await self.answer(res)

    async def click(self, who: str, message: Message, label: str) -> Message:
        """``who`` clicks the button ``label`` once ``message`` shows it; the answer."""
        await self.fake.wait_for(lambda: label in message.describe_buttons(), what=f"the {label!r} button")
        self._count(who, f"click {label}")
        return await self.answer(await self.fake.click(message, label, self.people[who]))

    async def pick(self, who: str, message: Message, placeholder: str, labels: list[str]) -> Message:
        """``who`` picks the options whose labels start with ``labels`` in the select whose placeholder holds
        ``placeholder``, once ``message`` shows it; the answer."""
        await self.fake.wait_for(lambda: select_on(message, placeholder) is not None, what=f"a {placeholder!r} select")
        menu = select_on(message, placeholder)
        assert menu is not None
        values = [option_value(menu, label) for label in labels]
        self._count(who, f"pick {', '.join(labels)} in {placeholder!r}")
        return await self.answer(await self.fake.select(message, menu["custom_id"], values, self.people[who]))

    async def form(
        self, who: str, opened: InteractionResult, name: str, traits: list[str], troupe: str | None = None
    ) -> Message:
        """``who`` fills in and sends the character form ``opened`` was answered with (``troupe``'s name too when
        the form makes one), as the campaign tests fill it in."""
        self._count(who, "send a form")
        return await self.answer(await fill_form(self.fake, opened, name, traits, STEP_TIMEOUT_S, troupe=troupe))

    async def answer(self, res: InteractionResult) -> Message:
        """The interaction's answer; it must not be a refusal the script did not expect."""
        message = await res.message(STEP_TIMEOUT_S)
        assert not res.errors, res.errors
        return message

    async def settle(self) -> None:
        """Wait until the bot has been quiet for a moment (boards redrawn, follow-ups sent)."""
        deadline = time.perf_counter() + STEP_TIMEOUT_S
        while (idle := self.fake.idle_for()) < QUIET_S:
            if time.perf_counter() > deadline:
                raise TimeoutError(f"the bot was still busy after {STEP_TIMEOUT_S:.0f} s")
            await asyncio.sleep(QUIET_S - idle)


def select_on(message: Message, placeholder: str) -> dict[str, Any] | None:
    """The select of ``message`` whose placeholder holds ``placeholder``."""
    return next((s for s in message.selects if placeholder in str(s.get("placeholder", ""))), None)


def option_label(menu: dict[str, Any], label: str) -> str:
    """The whole label of the option whose label starts with ``label``."""
    found = [str(o["label"]) for o in menu.get("options", []) if str(o["label"]).startswith(label)]
    assert found, f"no option {label!r} in {[o['label'] for o in menu.get('options', [])]}"
    return found[0]


def option_value(menu: dict[str, Any], label: str) -> str:
    """The value of the option whose label starts with ``label``."""
    found = [o["value"] for o in menu.get("options", []) if str(o["label"]).startswith(label)]
    assert found, f"no option {label!r} in {[o['label'] for o in menu.get('options', [])]}"
    return str(found[0])


# -- the intents ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Troupe:
    """A player's troupe: its captain and two minions, each with their traits."""

    player: str
    name: str
    asset: str
    characters: tuple[tuple[str, tuple[str, ...]], ...]


KNIVES = Troupe(
    "bea",
    "Knives",
    "headquarters",
    (
        ("Ana", ("Lurker", "Acrobat", "Honeytrap")),
        ("Ash", ("Daggertwist", "Strongman")),
        ("Abe", ("Chameleon", "Engineer")),
    ),
)
CROWS = Troupe(
    "cal",
    "Crows",
    "favor",
    (
        ("Bo", ("Machinist", "Streetsmart", "Marksman")),
        ("Bryn", ("Pikeman", "Defender")),
        ("Bix", ("Medic", "Driver")),
    ),
)


async def setup(c: Campaign) -> None:
    """The campaign, the two troupes and their minions (not counted)."""
    c.sheet = await c.slash("gm", "vic-gm campaign new", company="The Gilded Knives")
    for troupe in (KNIVES, CROWS):
        player = c.people[troupe.player]
        (captain, traits), *minions = troupe.characters
        opened = await c.fake.slash(c.channel, player, "vic troupe new", options={"asset": troupe.asset})
        await c.form(troupe.player, opened, captain, list(traits), troupe=troupe.name)
        await c.slash("gm", "vic troupe minions", member=player, places=len(minions))
        for name, traits in minions:
            opened = await c.fake.slash(c.channel, player, "vic pc new")
            await c.form(troupe.player, opened, name, list(traits))
    await c.settle()


async def join(c: Campaign, who: str, board: Message, pc: str, dice: list[str], side: str | None = None) -> None:
    """``who`` puts ``pc`` in the pool of ``board`` (on ``side`` in a fight) with the trait dice ``dice``: by the
    board's *Join with…* select, whose answer offers the character's trait dice (changed only if they differ from
    the dice the character brings)."""
    label = f"{pc} → {side}" if side else pc
    answer = await c.pick(who, board, "Join with", [label])
    menu = select_on(answer, "the trait dice")
    brought = sorted(str(o["label"]) for o in (menu or {}).get("options", []) if o.get("default"))
    if menu is not None and brought != sorted(option_label(menu, d) for d in dice):
        await c.pick(who, answer, "the trait dice", dice)


async def scheme(c: Campaign) -> None:
    """A 2-character scheme: Ana (Lurker) and Bo (Machinist) against 2 known challenges; it succeeds. With the
    shortcuts the GM says as it is opened that it rolls once both are in (``roll_at``)."""
    options = {"roll_at": 2} if c.shortcuts else {}
    known, title = "The patrol; The lock", "Lift the ledger"
    board = await c.slash("gm", "vic-gm knavery", challenges=2, known=known, title=title, **options)
    await join(c, "bea", board, "Ana", ["Lurker +1d6"])
    await join(c, "cal", board, "Bo", ["Machinist +1d6"])
    if not c.shortcuts:
        await c.click("gm", board, "Roll")
    await c.settle()


async def fight(c: Campaign, pusher: str) -> None:
    """Company (Ash, Bryn) vs Guards (a Guard) vs Rats (a Rat): the Guard's hit goes at the Rat, who is tested, and
    the GM ends the fight.

    The NPCs come with the fight (in brackets after their side); the Guards' choice of target is the GM's, offered
    with the roll (working out the hits and choosing are one pick); the Rat's death test and the fight's end are
    one click."""
    sides = "Company vs Guards (Guard) vs Rats (Rat)"
    options = {"roll_at": 2} if c.shortcuts else {}
    board = await c.slash("gm", "vic-gm violence", sides=sides, title="Ambush at the docks", **options)
    await join(c, "bea", board, "Ash", ["Daggertwist +1d4"], side="Company")
    await join(c, "cal", board, "Bryn", ["Pikeman +1d4"], side="Company")
    if not c.shortcuts:
        await c.click("gm", board, "Roll")
    await c.fake.wait_for(lambda: "Push: reroll" in board.describe_buttons(), what="the Push button")
    await c.click(pusher, board, push_label(board))
    await c.pick("gm", board, "send hits where", ["Guards sends 1 at Rats"])
    await c.click("gm", board, "Roll them and end the fight")
    await c.settle()


def push_label(board: Message) -> str:
    """The fight's *Push* button as it is labelled now (it names who may push)."""
    return next(str(b["label"]) for b in board.buttons if str(b.get("label", "")).startswith("Push: reroll"))


async def rest(c: Campaign, who: str, pc: str) -> None:
    """``pc`` rests this turn."""
    await c.slash(who, "vic pc act", pc=pc, action="rest")


async def buy(c: Campaign, who: str, pc: str) -> None:
    """``who`` prices a rank-2 crowbar for ``pc`` and pays for it with a turn coin (with the shortcuts, in the same
    command: ``buy``, the one way to pay left)."""
    if c.shortcuts:
        await c.slash(who, "vic price", rank=2, item="Crowbar", pc=pc, buy=True)
        return
    price = await c.slash(who, "vic price", rank=2, item="Crowbar", pc=pc)
    await c.click(who, price, "Pay 1 turn coin")


async def wealth_and_next_turn(c: Campaign, number: int) -> None:
    """A reward (a rare item from a rank-3 NPC: 3 coins of rank 2), invested at once; then the GM ends turn
    ``number`` and starts the next one, from the company sheet (with the shortcuts, in the reward's command:
    ``next_turn``)."""
    reward = {"method": "rare", "npc_rank": 3, "invest": True}
    if c.shortcuts:
        await c.slash("gm", "vic-gm reward", **reward, next_turn=True)
    else:
        await c.slash("gm", "vic-gm reward", **reward)
        assert c.sheet is not None
        await c.click("gm", c.sheet, f"Next: turn {number + 1}")
    await c.settle()


async def turn(c: Campaign, number: int) -> Figures:
    """One turn of the script, counted; the pusher alternates between the players."""
    c.figures = figures = Figures()
    await scheme(c)
    await fight(c, "bea" if number % 2 else "cal")
    await rest(c, "cal", "Bix")
    await buy(c, "bea", "Abe")
    await wealth_and_next_turn(c, number)
    c.figures = None
    return figures


async def run(verbose: bool, shortcuts: bool) -> tuple[list[Figures], list[str]]:
    """Set up a campaign and play two counted turns (with the shortcuts or the long way); their figures and the
    fake's recorded problems."""
    fake = WatchedDiscord(channels=3, response_deadline=60.0)
    await fake.start()
    try:
        with tempfile.TemporaryDirectory() as workdir:
            stop = await start_bot(fake, Path(workdir) / "bench.sqlite3")
            try:
                people = dict(zip(ACTORS, fake.members[:3], strict=True))
                c = Campaign(fake, fake.channels[1], people, shortcuts)
                await setup(c)
                await c.click("gm", c.sheet, "Start turn 1")  # type: ignore[arg-type]
                await c.settle()
                turns = [await turn(c, 1), await turn(c, 2)]
                if verbose:
                    for number, figures in enumerate(turns, 1):
                        print(f"-- turn {number} ({'with the shortcuts' if shortcuts else 'the long way'})")
                        print("\n".join(f"  {s}" for s in figures.steps))
            finally:
                await stop()
    finally:
        await fake.stop()
    return turns, list(fake.failures)


def calls_report(turns: list[Figures]) -> str:
    """Every call of both turns: to whom, how, why."""
    lines = []
    for number, figures in enumerate(turns, 1):
        lines.append(f"calls in turn {number}:")
        lines += [f"  {', '.join(c.to)} ({c.how}): {c.why}" for c in figures.calls] or ["  none"]
    return "\n".join(lines)


def report(turns: list[Figures]) -> str:
    """The table: one column per turn."""
    rows = [("interactions, all actors", [f.total for f in turns])]
    rows += [(f"  {a}", [f.interactions[a] for f in turns]) for a in ACTORS]
    rows += [("messages posted", [f.messages for f in turns])]
    rows += [(f"pings {a}", [f.pings[a] for f in turns]) for a in ACTORS]
    lines = [f"{'':<28}{'turn 1 (first)':>16}{'turn 2 (typical)':>18}"]
    lines += [f"{label:<28}{values[0]:>16}{values[1]:>18}" for label, values in rows]
    return "\n".join(lines)


def main() -> int:
    """Run the script both ways (the long way, then with the shortcuts); print the tables and the JSON line."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-v", "--verbose", action="store_true", help="print every counted interaction")
    parser.add_argument("--small", action="store_true", help="CI's run: the same (two turns take seconds)")
    args = parser.parse_args()
    long_way, long_failures = asyncio.run(run(args.verbose, shortcuts=False))
    turns, failures = asyncio.run(run(args.verbose, shortcuts=True))
    print("A Viciousness turn through the local Discord: a GM (gm) and two players (bea, cal)")
    for title, figures in (("the long way (every step its own click)", long_way), ("with the shortcuts", turns)):
        print(f"-- {title}")
        print(report(figures))
    print(calls_report(turns))
    failures += long_failures
    if failures:
        print("fake Discord recorded problems:", *failures, sep="\n  ")
    long_json = {**long_way[1].as_json(), "first_turn": long_way[0].as_json()}
    print(json.dumps({**turns[1].as_json(), "first_turn": turns[0].as_json(), "long_way": long_json}))
    return 1 if failures else 0


if __name__ == "__main__":
    logging.basicConfig(level=logging.WARNING)
    sys.exit(main())
