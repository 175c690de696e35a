"""Sending every kind of interaction under bad weather, and checking each: answered in time, applied once.

The kinds come from the bot itself: its commands from the tree it synced (``tests.hostile.leaves``), the options
that autocomplete from the same tree, the owners of controls from the DynamicItems it registered and the
namespaces of its Router (``bot.controls``), a game's own controls (``u:<kind>``) for every game that has them.
Controls are reached as a member would: what is on screen is clicked, and what those clicks show in turn.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from bot.app import MODAL_NAMESPACES, TabletopBot
from bot.controls import decode_action, parse_ui_id
from bot.forms import FORM
from bot.spec import GameSpec
from localdiscord.guild import Channel, Member
from localdiscord.interactions import InteractionResult
from localdiscord.messages import USER_MENTION, Message
from localdiscord.server import LocalDiscord
from localdiscord.validation import modal_fields
from tests.hostile import Leaf, leaves
from tests.weather.world import home_of

DEADLINE_S = 3.0
"""Discord's time for a first answer."""
CHANNEL_WRITES = r"^(POST|PATCH|PUT|DELETE) /api/v10/channels/"
HELD_S = 5.0
RETRY_AFTER_S = 0.9
"""The 429 on every route: the first try of each route waits this long before its retry (an answer behind a few
refused requests reaches the bot's 2 s watchdog, whose deferral may be refused once: it is left 1 s)."""
CALLBACK_RETRY_AFTER_S = 0.05
"""The first try of an interaction's callback waits this long (a sub-limit's wait can be that short): refused and
retried all the same, it no longer costs every interaction of the sweep half a second of real time."""
FINISH_S = 60.0
"""How long everything may take to come through once the weather has cleared."""

SAMPLE_TEXT = {
    "expression": "2d6+1",
    "sides": "Rats, Knives",
    "players": "Alice: Wrath, Bob: Sloth, Carol: Greed",
    "dice": "3",
    "start": "2030-06-01 20:00",
    "name": "Nell",
    "text": "A quiet word",
    "buttons": "2d6, 1d20",
    "rolls": "2d6, 1d20",
    "change": "1",
    "points": "3",
    "pair": "Alice, Bob",
    "known": "1",
    "commitment": "00",
    "result": "7",
    "salt": "00",
    "confirm": "yes",
}
"""Plausible text for a string option by its name, so that most commands get past their first check (an option
not named here gets ``"x"``; a refusal is an answer too)."""


def weather(fake: LocalDiscord, kind: str) -> None:
    """Bad weather: ``held`` (every channel write held 5 s) or ``429`` (every route refused once)."""
    if kind == "held":
        fake.slow_down(CHANNEL_WRITES, HELD_S)
    else:
        fake.rate_limit_every_route(RETRY_AFTER_S, callbacks=CALLBACK_RETRY_AFTER_S)


def control_owners(bot: TabletopBot) -> set[str]:
    """Who the bot routes clicks and selects to: each DynamicItem it registered outside the Router, each namespace
    of the Router that isn't only for forms, and each game with controls of its own (``u:<kind>``)."""
    registered = bot._connection._view_store._dynamic_items.values()  # discord.py keeps no public list
    owners = {item.__name__ for item in registered}
    forms_only = {ns.rstrip(":") for ns in MODAL_NAMESPACES} - {"u"}
    owners |= {f"{ns}:" for ns in bot.router.namespaces if ns not in forms_only | {"u"}}
    owners |= {f"u:{kind}" for kind, spec in bot.specs.items() if type(spec).on_ui is not GameSpec.on_ui}
    return owners


def owner_of(bot: TabletopBot, custom_id: str) -> str:
    """The owner of a control (see :func:`control_owners`); a form's is its namespace, or its class."""
    for pattern, item in bot._connection._view_store._dynamic_items.items():
        if pattern.fullmatch(custom_id):
            return item.__name__
    namespace, _, rest = custom_id.partition(":")
    if namespace == "u":
        return f"u:{rest.partition(':')[0]}"
    return f"{namespace}:"


def kind_of(bot: TabletopBot, custom_id: str) -> str:
    """What a control does, without where (its session, version, arguments): ``a:roll``, ``u:vic:pg``, ``c:undo``.
    One control of each kind is used."""
    owner = owner_of(bot, custom_id)
    fields = custom_id.split(":")
    if owner in ("a:", "m:"):
        return owner + fields[3].partition(";")[0]
    if owner in ("c:", "l:"):
        return owner + fields[2]
    if owner.startswith("u:"):
        route = parse_ui_id(custom_id.partition(":")[2])
        # Every form of a game has the key FORM: the action it submits tells them apart.
        return f"{owner}:{route.key}" + (f":{decode_action(route.arg)['type']}" if route.key == FORM else "")
    return owner


@dataclass
class Sent:
    """One interaction sent, and what it was."""

    what: str
    res: InteractionResult


@dataclass
class Sweep:
    """The interactions of one test, the checks made on each, and the kinds covered."""

    fake: LocalDiscord
    bot: TabletopBot
    database: Path
    caplog: pytest.LogCaptureFixture
    sent: list[Sent] = field(default_factory=list)
    covered: dict[str, set[str]] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    used: set[str] = field(default_factory=set)
    """The kinds of control used (one of each is clicked)."""

    # -- what there is --------------------------------------------------------------------------------------------

    def commands(self) -> list[Leaf]:
        """Every command of the synced tree (each leaf of each group)."""
        return leaves(self.fake.commands)

    def autocompletes(self) -> list[tuple[Leaf, dict[str, Any]]]:
        """Every option that autocompletes."""
        return [(leaf, option) for leaf in self.commands() for option in leaf.options if option.get("autocomplete")]

    def cover(self, kind: str, key: str) -> None:
        """Count ``key`` as covered among the ``kind``s."""
        self.covered.setdefault(kind, set()).add(key)

    # -- sending and checking -------------------------------------------------------------------------------------

    async def log(self) -> set[tuple[int, int, str | None, str]]:
        """Every session's log: (session, seq, actor, action)."""
        with sqlite3.connect(self.database) as db:
            sessions = [row[0] for row in db.execute("SELECT id FROM sessions")]
        return {
            (session, entry.seq, entry.actor, json.dumps(entry.action, sort_keys=True))
            for session in sessions
            for entry in await self.bot.store.log_entries(session)
        }

    async def send(self, what: str, send: Callable[[], Awaitable[InteractionResult]], *, repeat: bool = False) -> None:
        """Send one interaction (twice at once with ``repeat``: a double-click, a client's retry); each must be
        answered in time, and together they must not apply the same thing twice."""
        await self.bot.service.idle(FINISH_S)
        before = await self.log()
        results = [await send()]
        if repeat:
            results.append(await send())
        for res in results:
            self.sent.append(Sent(what, res))
        await asyncio.gather(*(self.answered(what, res) for res in results))
        await self.bot.service.idle(FINISH_S)
        added = [(s, actor, action) for s, seq, actor, action in await self.log() - before]
        twice = [entry for entry, n in Counter(added).items() if n > 1]
        if twice:
            self.problems.append(f"{what}: applied twice: {twice}")

    async def answered(self, what: str, res: InteractionResult) -> None:
        """Check that ``res`` was answered (or deferred) within Discord's 3 s."""
        try:
            await res.response(timeout=DEADLINE_S + HELD_S)
        except (AssertionError, TimeoutError) as exc:
            self.problems.append(f"{what}: not answered ({exc})")
            return
        if res.latency is None or res.latency >= DEADLINE_S:
            self.problems.append(f"{what}: answered after {res.latency:.2f} s")

    async def finish(self) -> None:
        """Clear the weather and let everything come through: every deferred answer is filled in, Discord refused
        nothing the bot sent, and nothing was logged as an error."""
        self.fake.clear_weather()
        await self.bot.settled(FINISH_S)
        for sent in self.sent:
            res = sent.res
            if res.errors:
                self.problems.append(f"{sent.what}: Discord refused {res.errors}")
            elif res.response_type == 5 and (res.original is None or res.original.loading):
                try:
                    await res.message(timeout=FINISH_S)
                except (AssertionError, TimeoutError):
                    self.problems.append(f"{sent.what}: deferred, never answered")
        errors = [r for r in self.caplog.records if r.levelno >= logging.ERROR]
        self.problems += [
            f"logged {r.getMessage()!r}: {r.exc_info[1]!r}" if r.exc_info else r.getMessage() for r in errors
        ]
        self.problems += [f"Discord would refuse: {f}" for f in self.fake.failures]
        self.fake.failures.clear()
        assert not self.problems, f"{len(self.problems)} problems:\n" + "\n".join(self.problems)

    # -- commands and autocompletes --------------------------------------------------------------------------------

    def where(self, leaf: Leaf) -> tuple[Channel, Member]:
        """The channel of the command's game, and a member Discord shows the command to (the GM if it can)."""
        command = next(c for c in self.fake.commands if c["name"] == leaf.top)
        needed = int(command.get("default_member_permissions") or 0)
        member = next(m for m in self.fake.members if m.permissions & needed == needed)
        return self.fake.channels[home_of(leaf.top)], member

    async def value(self, leaf: Leaf, option: dict[str, Any], channel: Channel, member: Member) -> Any:
        """A plausible value: the first the bot offers (its choices, its autocomplete), else one of its type."""
        if option.get("choices"):
            return option["choices"][0]["value"]
        if option.get("autocomplete"):
            asked = await self.fake.autocomplete(channel, member, leaf.path, option["name"], {option["name"]: ""})
            offered = await asked.choices()
            if offered:
                return offered[0]["value"]
        kind = option["type"]
        if kind == 3:
            return SAMPLE_TEXT.get(option["name"], "x")
        if kind in (4, 10):
            return option.get("min_value", 1)
        if kind == 5:
            return False
        if kind == 6:
            return self.fake.members[1]
        if kind == 11:
            return ("c.json", b"{}")
        raise NotImplementedError(f"no value for option type {kind} ({option['name']}): add one here")

    async def every_command(self) -> None:
        """Every command once, with every option filled in; a form one opens is filled in and sent too."""
        for leaf in self.commands():
            channel, member = self.where(leaf)
            options = {o["name"]: await self.value(leaf, o, channel, member) for o in leaf.options}
            what = f"/{leaf.path} {options}"
            await self.send(what, partial(self.fake.slash, channel, member, leaf.path, options, client_checks=False))
            self.cover("commands", leaf.path)
            res = self.sent[-1].res
            if res.modal is not None:
                await self.fill(what, res)

    async def every_autocomplete(self) -> None:
        """Every option that autocompletes, typed into: answered with choices in time."""
        for leaf, option in self.autocompletes():
            channel, member = self.where(leaf)
            name = option["name"]
            what = f"/{leaf.path} typing {name}"
            await self.send(what, partial(self.fake.autocomplete, channel, member, leaf.path, name, {name: "a"}))
            if self.sent[-1].res.response_type != 8:
                self.problems.append(f"{what}: answered {self.sent[-1].res.response_type}, not with choices")
            self.cover("autocompletes", f"{leaf.path} {name}")

    # -- controls and forms --------------------------------------------------------------------------------------

    def on_screen(self) -> list[tuple[Message, dict[str, Any]]]:
        """Every control a member sees: in every channel, in every member's private answers."""
        messages = [m for c in self.fake.channels for m in self.fake.messages(c)]
        messages += [m for member in self.fake.members for m in self.fake.ephemerals(member)]
        found = []
        for message in messages:
            for component in message.walk_components():
                usable = "custom_id" in component and not component.get("disabled")
                if component.get("type") in (2, 3, 5, 6, 7, 8) and usable:
                    found.append((message, component))
        return found

    def clicker(self, message: Message) -> Member:
        """Who clicks: whoever sees a private message, else the first member the message names, else the GM."""
        members = {m.id: m for m in self.fake.members}
        if message.ephemeral and message.viewer_id in members:
            return members[message.viewer_id]
        named = [int(i) for i in USER_MENTION.findall(message.content) if int(i) in members]
        return members[named[0]] if named else self.fake.members[0]

    async def every_control(self, rounds: int = 8) -> None:
        """One control of each kind on screen used (twice at once: a double-click), and what that shows in turn,
        for ``rounds`` rounds; a form one opens is filled in and sent (twice)."""
        for _ in range(rounds):
            fresh = [(m, c) for m, c in self.on_screen() if kind_of(self.bot, c["custom_id"]) not in self.used]
            if not fresh:
                return
            for message, control in fresh:
                kind = kind_of(self.bot, control["custom_id"])
                if kind in self.used or message.deleted or control["custom_id"] not in message.custom_ids:
                    continue  # used already, or gone since (an earlier click changed it)
                self.used.add(kind)
                await self.use(message, control, kind)

    async def use(self, message: Message, control: dict[str, Any], kind: str) -> None:
        """Click a button, or pick in a select (its first options, or a member), twice at once."""
        member = self.clicker(message)
        custom_id = control["custom_id"]
        what = f"{kind} ({custom_id}) by {member.name}"
        if control["type"] == 2:
            await self.send(what, lambda: self.fake.click(message, custom_id, member), repeat=True)
            self.cover("buttons", kind)
        else:
            options = [o["value"] for o in control.get("options", [])]
            wanted = max(control.get("min_values", 1), 1)
            values: list[Any] = options[:wanted] if control["type"] == 3 else [self.fake.members[1]]
            await self.send(what, lambda: self.fake.select(message, custom_id, values, member), repeat=True)
            self.cover("selects", kind)
        self.cover("owners", owner_of(self.bot, custom_id))
        for sent in self.sent[-2:]:
            if sent.res.modal is not None:
                await self.fill(what, sent.res)
                break

    async def fill(self, what: str, opened: InteractionResult) -> None:
        """Fill in the form ``opened`` answered with (what it shows, else a small number) and send it twice."""
        assert opened.modal is not None
        values: dict[str, Any] = {}
        for row in opened.modal["components"]:
            for item in modal_fields(row):
                if item["type"] == 4:
                    values[item["custom_id"]] = item.get("value") or "3" * max(item.get("min_length", 1), 1)
                else:
                    offered = [o["value"] for o in item.get("options", [])]
                    values[item["custom_id"]] = offered[: max(item.get("min_values", 1), 1)]
        custom_id = opened.modal["custom_id"]
        routed = custom_id.startswith(MODAL_NAMESPACES)
        # A form discord.py keeps (its own class with on_submit) has a custom_id of discord.py's making.
        kind = kind_of(self.bot, custom_id) if routed else f"{what.split()[0]} (its own form)"
        await self.send(
            f"the form {kind} opened by {what}", lambda: self.fake.submit_modal(opened, values), repeat=True
        )
        self.cover("forms", kind)
        self.cover("form owners", custom_id[: custom_id.index(":") + 1] if routed else "discord.py")
