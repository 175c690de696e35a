"""Channel readability and clicks per game: ``python bench/table_ux.py [-n 5] [--seed 1] [--only quick3 …] [-v]``.

Plays seeded games of Dice of Crowns (and Vices & Vengeance) through the local fake Discord the way people
would: ``/crowns new`` (``/vv new``), the other players click Join, the host clicks Start, and from then on
only what is on screen is clicked. The
board says whom it waits for (its mentions / "waiting for" text); one of those members picks, with a seeded
random generator, one of the enabled buttons or select menus they can see (the channel's live board and their
own ephemeral messages). When several may act at once (a Fate window) each of them acts or passes in turn. A
control the bot refuses ("Not your move", an illegal choice) is remembered and not tried again on that board.
If a board ever names nobody, each seated member tries its controls in turn. The game is played to its end.

Scenarios: ``quick3`` (Quick Play, 3 humans), ``modules4`` (every module: fate, legendary, overkill,
last_stand; 4 humans), ``vs_cpu`` (1 human against 2 computer players, the bot's computer delay set to 0);
``vices`` (Vices & Vengeance with default options, 3 humans) and ``vices_cpu`` (1 human against 2
computers). A V&V removal picked in the menu opens a private preview whose Confirm is one more click; the
shortcuts people mostly take are "Suggested", "Remove the lowest" and "Remove all zeros".
Each runs ``-n`` games (default 5); game ``i`` uses seed ``--seed`` + ``i`` for the bot's dice and the players.

Per game it measures, from what the fake Discord saw:
- ``messages``: messages the bot created in the game's channel (and threads of it), not ephemeral;
- ``boards_visible``: messages still showing a full board at the end (an embed; the lobby message counts only
  if it was turned into a board, i.e. its embed changed after Start);
- ``history_lines``: lines a reader scrolls through at the end: content lines plus embed title, description and
  field (name + value) lines of every visible message;
- ``pings_per_player``: notifying mentions (the fake's ``mentions`` when a message is created; edits never
  notify) per human player, and ``stray_pings``: those that went to the member whose interaction caused the
  message, or to someone the message (or, for a message without controls, the live board) does not wait for;
- ``clicks``: every component interaction sent (lobby Join/Start included, refused ones included),
  ``refused_clicks`` (answered privately with nothing changed) and ``scroll_clicks`` (scroll-die hand-outs).
Prints a table of means (min–max), then as the last line one JSON object (``quick3_messages`` …).

The benchmark relies only on the slash commands, what the fake Discord shows (messages, buttons, selects,
mentions, ephemerals) and :func:`build_bot`, the one function that knows how the bot is constructed. The bot
runs in this process, on the fake's event loop; there is no subprocess mode, because a ``python -m bot``
process cannot be given seeded dice. The bot's clock is frozen (no reminder or timeout fires) and the driver
acts only once the screen shows the next decision, so the figures do not depend on the machine's speed: the
same seeds give the same numbers. A default run (15 games) takes about 15 s on 2 cores; ``-v`` prints each
game's channel and pings.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import random
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# Run as a script from anywhere: the bot and the fake are imported from the repository.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.app import TabletopBot
from bot.endpoint import use_api_base
from bot.settings import Settings
from localdiscord import Channel, ChannelType, InteractionResult, LocalDiscord, Member, Message

# =====================================================================================================
# The one place that knows how the bot is built. If the bot's constructor changes, adapt build_bot (and
# the two small helpers it uses); nothing else in this file touches the bot's internals (start_bot below
# uses only discord.py's Client API: login, connect, wait_until_ready, close).
# =====================================================================================================

BOT_EXTENSIONS = ("cogs.meta", "cogs.game", "cogs.crowns", "cogs.vices")
BOT_READY_TIMEOUT_S = 15.0


class SeededDice:
    """A dice source (``roll(die_id, sides)`` → 1..sides) backed by ``random.Random(seed)``."""

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def roll(self, die_id: str, sides: int) -> int:
        """One die: a value in ``1..sides``."""
        return self._rng.randint(1, sides)


class FrozenClock:
    """A clock that never moves: no reminder, turn timeout or lobby expiry can fire while a game is measured.

    The driver clicks at once, so on the real clock timers fire only on a slow machine (a Fate window lasts
    20 s); freezing time keeps the figures the same on every machine.
    """

    def __init__(self, start: float = 1_900_000_000.0) -> None:
        self._now = start

    def now(self) -> float:
        """Always the same moment."""
        return self._now

    async def wait_until(self, moment: float | None, wake: asyncio.Event) -> None:
        """Return at once for a moment already due; otherwise only when woken (time never reaches it)."""
        if moment is not None and moment <= self._now:
            return
        await wake.wait()


def build_bot(fake: LocalDiscord, db_path: Path, seed: int) -> TabletopBot:
    """ADAPT HERE: a TabletopBot for ``fake`` with dice seeded by ``seed`` and computer players without delay."""
    use_api_base(fake.base_url)
    settings = Settings(
        discord_token=fake.token,
        database_path=db_path,
        dev_guild_id=None,
        computer_delay=0,
        _env_file=None,  # a developer's .env must not change the figures
    )
    return TabletopBot(
        settings, extensions=BOT_EXTENSIONS, clock=FrozenClock(), dice=SeededDice(seed), guild_ready_timeout=0.1
    )


def computer_wait_s(bot: TabletopBot) -> float:
    """ADAPT HERE: how long people would have waited for computer players at the default COMPUTER_DELAY
    (the bot counts the pauses it takes; the benchmark runs without them)."""
    default = Settings.model_fields["computer_delay"].default
    return float(bot.computers.pauses * default)


# =====================================================================================================


@dataclass
class Running:
    """A started bot: how to stop it, and how long its computer players made people wait."""

    stop: Callable[[], Awaitable[None]]
    computer_wait_s: Callable[[], float]


async def start_bot(fake: LocalDiscord, db_path: Path, seed: int) -> Running:
    """Build the bot, connect it to ``fake`` and wait until it is ready."""
    bot = build_bot(fake, db_path, seed)
    return Running(await connect(fake, bot), lambda: computer_wait_s(bot))


async def connect(fake: LocalDiscord, bot: TabletopBot) -> Callable[[], Awaitable[None]]:
    """Log ``bot`` in to ``fake`` and wait until it is ready; return a coroutine that stops it."""
    await bot.login(fake.token)  # runs setup_hook: database, cogs, command sync
    task = asyncio.create_task(bot.connect(), name="bot.connect")
    ready = asyncio.create_task(bot.wait_until_ready())
    done, _ = await asyncio.wait({task, ready}, timeout=BOT_READY_TIMEOUT_S, return_when=asyncio.FIRST_COMPLETED)
    if ready not in done:
        ready.cancel()
        await bot.close()
        if task in done:
            task.result()  # re-raises why the bot stopped
        raise TimeoutError("the bot did not become ready")

    async def stop() -> None:
        await bot.close()
        await task

    return stop


# -- what is on screen ------------------------------------------------------------------------------------

USER_MENTION = re.compile(r"<@!?(\d+)>")
BOLD_NAME = re.compile(r"\*\*(.+?)\*\*")
WAITING_FOR = re.compile(r"waiting for (.*)", re.IGNORECASE)
# Controls that start something new rather than play this game on.
NEW_GAME = re.compile(r"rematch|play again|new game", re.IGNORECASE)
# What a finished game's messages say (the status line, the final standings, the winner's trophy).
GAME_OVER = re.compile(r"game over|final standings|🏆", re.IGNORECASE)
# A scroll die given to a rival: "Scroll 3 → Bob", "give scroll die 3 to …"; rerolling scrolls is no hand-out.
SCROLL_HANDOUT = re.compile(r"scroll.*(→|\bto\b)|assign_scroll", re.IGNORECASE)
REROLL = re.compile(r"reroll", re.IGNORECASE)
BUTTON, STRING_SELECT, USER_SELECT, MENTIONABLE_SELECT = 2, 3, 5, 7
STEP_TIMEOUT_S = 30.0
# How long the fake must stay quiet before a screen without controls (and without game-over text) is taken
# as the end, and before the final count; the bot is still drawing the next board for a few ms at most.
IDLE_S = 0.3
# How often the driver looks again when nothing changes, and how long a screen whose controls name nobody
# must stay as it is before the members try them.
POLL_S = 0.05
# A refusal is one private answer; a moment's quiet shows the board did not change after it.
REFUSAL_QUIET_S = 0.02
MAX_CLICKS = 3000
SHORTCUT_SHARE = 0.8
"""How often a player takes the shortcut a board offers for the usual choice instead of a control at random."""
OWN_INTERACTION = "own interaction"
NOTHING_TO_DO = "nothing to do"


def actionable(component: dict[str, Any]) -> bool:
    """An enabled button or select that plays the game on (not a link, not Rematch)."""
    if component.get("disabled") or "custom_id" not in component:
        return False
    kind = component.get("type")
    if kind == BUTTON:
        return not NEW_GAME.search(f"{component.get('label') or ''} {component['custom_id']}")
    return kind in (STRING_SELECT, USER_SELECT, MENTIONABLE_SELECT)


def controls_of(message: Message) -> list[dict[str, Any]]:
    """The message's actionable controls, in reading order."""
    return [c for c in (*message.buttons, *message.selects) if actionable(c)]


@dataclass(frozen=True)
class Waiting:
    """Whom a board waits for: human members (by mention) and named seats without a member (computers)."""

    users: tuple[int, ...] = ()
    names: tuple[str, ...] = ()

    def __or__(self, other: Waiting) -> Waiting:
        """Everyone either waits for, in order, without repeats."""
        users = self.users + tuple(u for u in other.users if u not in self.users)
        names = self.names + tuple(n for n in other.names if n not in self.names)
        return Waiting(users, names)


def plain(name: str) -> str:
    """A name as displayed, without the escapes a bot adds (``\\*``, a zero-width space after ``@``)."""
    return name.replace("\\", "").replace("\u200b", "")


def waiting_of(message: Message, humans: dict[str, int]) -> Waiting:
    """Parse "waiting for <@A> to roll; **Computer 1** to …" (else: every mention in a board's content).

    ``humans`` maps seated members' display names to their ids, so a board that names a member in bold
    instead of mentioning them still counts as waiting for that member.
    """
    content = message.content
    match = WAITING_FOR.search(content)
    if match is None:
        return Waiting(tuple(dict.fromkeys(int(u) for u in USER_MENTION.findall(content))))
    users: list[int] = []
    names: list[str] = []
    # A part may name several players asked the same thing: "<@A> and **Computer 1** to pick a pair".
    for part in match.group(1).split(";"):
        for user in USER_MENTION.findall(part):
            if int(user) not in users:
                users.append(int(user))
        for name in BOLD_NAME.findall(part):
            member = humans.get(plain(name))
            if member is not None:
                if member not in users:
                    users.append(member)
            elif name not in names:
                names.append(name)
    return Waiting(tuple(users), tuple(names))


def embed_lines(embed: dict[str, Any]) -> int:
    """Lines of an embed a reader sees: title, description, and each field's name and value."""
    lines = 1 if embed.get("title") else 0
    if embed.get("description"):
        lines += len(embed["description"].splitlines())
    for item in embed.get("fields", []):
        lines += 1 + len(str(item.get("value", "")).splitlines())
    return lines


def history_lines(message: Message) -> int:
    """Lines of channel history one message takes: content lines plus its embeds' lines."""
    return len(message.content.splitlines()) + sum(embed_lines(e) for e in message.embeds)


PHONE_COLUMNS = 38
"""Characters a line of an embed holds on a phone (a 390-point-wide screen) before it wraps."""
PHONE_SCREEN_LINES = 24
"""Lines of a message that fit one phone screen, under the status bar and above the message box."""


def board_text(message: Message) -> list[str]:
    """What a reader reads of a board, line by line: the content, then each embed's title, description,
    fields (name, then value) and footer."""
    lines = message.content.splitlines()
    for embed in message.embeds:
        lines += [embed["title"]] if embed.get("title") else []
        lines += str(embed.get("description") or "").splitlines()
        for item in embed.get("fields", []):
            lines += [str(item.get("name", "")), *str(item.get("value", "")).splitlines()]
        lines += str((embed.get("footer") or {}).get("text") or "").splitlines()
    return lines


def board_size(message: Message) -> tuple[int, int, float]:
    """A board's characters, lines, and phone screens (its lines wrapped at PHONE_COLUMNS)."""
    lines = board_text(message)
    wrapped = sum(max(1, -(-len(line) // PHONE_COLUMNS)) for line in lines)
    return sum(len(line) for line in lines), len(lines), wrapped / PHONE_SCREEN_LINES


def has_board(message: Message) -> bool:
    """Shows a full board: an embed with something in it (a board retired to one line has none)."""
    return any(e.get("title") or e.get("description") or e.get("fields") for e in message.embeds)


def is_scroll_handout(text: str) -> bool:
    """True for a control (its label or placeholder, the options picked, its custom_id) that gives a scroll away."""
    return bool(SCROLL_HANDOUT.search(text)) and not REROLL.search(text)


def option_label(menu: dict[str, Any], value: str) -> str:
    """The label of a string select's option."""
    return next((str(o.get("label", "")) for o in menu.get("options", []) if o.get("value") == value), value)


# -- the fake, watched ------------------------------------------------------------------------------------


class WatchedDiscord(LocalDiscord):
    """The fake Discord, telling a watcher about every message as it is created or edited.

    Discord notifies mentions only when a message is created, and the fake's messages are live objects that
    later edits overwrite (a board loses its mentions when it is redrawn), so pings must be read right there.
    """

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.watcher: Table | None = None
        self.observers.append(MessageWatch(self))

    def idle_for(self) -> float:
        """Seconds since the last state change."""
        return time.perf_counter() - self.changes.last_change


class MessageWatch:
    """Observes the fake's messages for its watcher: a message seen for the first time was created, else edited
    (and whether it was still a deferred "thinking…" one until then)."""

    def __init__(self, fake: WatchedDiscord) -> None:
        self.fake = fake
        self.loading: dict[int, bool] = {}

    def message_changed(self, message: Message) -> None:
        """Tell the watcher about a created or edited message (deleted ones are not its business)."""
        was_loading = self.loading.get(message.id)
        self.loading[message.id] = message.loading
        watcher = self.fake.watcher
        if watcher is None or message.deleted:
            return
        if was_loading is None:
            watcher.created(message)
        else:
            watcher.edited(message, was_loading)

    def channel_changed(self, channel: Channel) -> None:
        """Channels are not watched."""

    def world_changed(self) -> None:
        """Nor commands and members."""

    def member_added(self, member: Member) -> None:
        """Nor who joins."""


@dataclass
class Ping:
    """One notifying mention."""

    user_id: int
    message_id: int
    stray: str = ""
    """Why it was not needed ("" if it was): "own interaction" or "nothing to do"."""


@dataclass
class View:
    """What is on screen at one moment: live messages with controls, and whom they wait for."""

    channel_live: list[Message]
    ephemeral_live: dict[int, list[Message]]
    waiting: Waiting
    over: bool
    signature: str


@dataclass
class GameFigures:
    """The figures of one game."""

    messages: int = 0
    boards_visible: int = 0
    history_lines: int = 0
    pings: int = 0
    pings_per_player: float = 0.0
    stray_pings: int = 0
    stray_own_interaction: int = 0
    stray_nothing_to_do: int = 0
    clicks: int = 0
    refused_clicks: int = 0
    scroll_clicks: int = 0
    probes: int = 0
    """Clicks made by trying members because no board said whom it waited for."""
    board_chars: float = 0.0
    board_chars_max: int = 0
    board_lines: float = 0.0
    board_lines_max: int = 0
    board_screens_max: float = 0.0
    computer_wait_s: float = 0.0


class Table:
    """One game in one channel: the players, what the bot posted, and the clicks sent."""

    def __init__(
        self,
        fake: WatchedDiscord,
        channel: Channel,
        humans: list[Member],
        rng: random.Random,
        shortcuts: tuple[str, ...] = ("All ",),
    ) -> None:
        self.fake = fake
        self.shortcuts = shortcuts
        self.channel = channel
        self.humans = humans
        self.names = {m.name: m.id for m in humans}
        self.rng = rng
        self.created_messages: list[Message] = []
        self.pings: list[Ping] = []
        self.figures = GameFigures()
        self.live_waiting = Waiting()
        self.cause: int | None = None
        """The member whose interaction the bot is answering; None once a computer player has moved since."""
        self.lobby: Message | None = None
        self.lobby_embeds_at_start = ""
        self.refused: dict[str, set[tuple[int, str]]] = {}
        self.boards: list[tuple[int, int, float]] = []
        """(characters, lines, phone screens) of each live board a player decided on."""
        fake.watcher = self

    # -- watching the bot's messages -------------------------------------------------------------------

    def in_game(self, channel: Channel) -> bool:
        """The game's channel, or a thread opened from it."""
        if channel is self.channel:
            return True
        return channel.type in ChannelType.THREADS and channel.parent_id == self.channel.id

    def created(self, message: Message) -> None:
        """A new message: count it, and read its pings now (unless it is a deferred "thinking…" message)."""
        if not self.in_game(message.channel) or message.ephemeral:
            return
        self.created_messages.append(message)
        if not message.loading:
            self._read_pings(message)
        self._follow_board(message)

    def edited(self, message: Message, was_loading: bool) -> None:
        """An edit: a deferred message's first edit is when its content (and pings) arrive."""
        if not self.in_game(message.channel) or message.ephemeral:
            return
        if was_loading:
            self._read_pings(message)
        self._follow_board(message)

    def _read_pings(self, message: Message) -> None:
        human_ids = {m.id for m in self.humans}
        live = controls_of(message)
        waits = waiting_of(message, self.names) if live else self.live_waiting
        for user_id in message.mentions:
            if user_id not in human_ids:
                continue
            stray = ""
            if user_id == self.cause:
                stray = OWN_INTERACTION
            elif user_id not in waits.users:
                stray = NOTHING_TO_DO
            self.pings.append(Ping(user_id, message.id, stray))

    def _follow_board(self, message: Message) -> None:
        # The live board's waiting list, as it was just before the next message: retiring a board (no
        # controls left) does not change whom the game waits for.
        if controls_of(message):
            self.live_waiting = waiting_of(message, self.names)
            if self.live_waiting.names:
                self.cause = None  # a computer player moves next: what follows is not the clicker's doing

    # -- what a player sees ----------------------------------------------------------------------------

    def visible_messages(self) -> list[Message]:
        """Every message a reader of the channel (and its threads) sees now, oldest first."""
        channels = [self.channel, *(t for t in self.fake.threads if self.in_game(t))]
        return sorted((m for c in channels for m in self.fake.messages(c)), key=lambda m: m.id)

    def view(self) -> View:
        """The live messages with controls, whom they wait for, and whether the game looks over."""
        visible = self.visible_messages()
        channel_live = [m for m in reversed(visible) if controls_of(m)]
        ephemeral_live = {
            member.id: [m for m in reversed(self.fake.ephemerals(member)) if self.in_game(m.channel) and controls_of(m)]
            for member in self.humans
        }
        waiting = Waiting()
        for message in channel_live:
            waiting = waiting | waiting_of(message, self.names)
        started = self.lobby is not None and any(m.id > self.lobby.id for m in visible)
        over = (
            started
            and not channel_live
            and any(GAME_OVER.search(m.content + json.dumps(m.embeds, ensure_ascii=False)) for m in visible[-3:])
        )
        live = channel_live + [m for ms in ephemeral_live.values() for m in ms]
        signature = json.dumps(
            [(m.id, m.content, m.embeds, m.components) for m in live], ensure_ascii=False, sort_keys=True
        )
        return View(channel_live, ephemeral_live, waiting, over, signature)

    def controls_for(self, view: View, member: Member) -> list[tuple[Message, dict[str, Any]]]:
        """The controls ``member`` can use now, minus those the bot already refused them on this board."""
        refused = self.refused.get(view.signature, set())
        found = []
        for message in (*view.ephemeral_live.get(member.id, []), *view.channel_live):
            for control in controls_of(message):
                if (member.id, control["custom_id"]) not in refused:
                    found.append((message, control))
        return found

    # -- acting ----------------------------------------------------------------------------------------

    async def slash(self, member: Member, command: str, **options: Any) -> InteractionResult:
        """Run a slash command as ``member``; its answer is caused by them."""
        self.cause = member.id
        res = await self.fake.slash(self.channel, member, command, options=options)
        await res.response(timeout=STEP_TIMEOUT_S)
        return res

    async def press(self, message: Message, control: dict[str, Any], member: Member) -> InteractionResult:
        """Click a button or pick in a select menu as ``member`` (a seeded pick of its options)."""
        self.cause = member.id
        self.figures.clicks += 1
        if control["type"] == BUTTON:
            text = f"{control.get('label') or ''} {control['custom_id']}"
            res = await self.fake.click(message, control["custom_id"], member)
        else:
            low = max(1, control.get("min_values", 1))
            if control["type"] == STRING_SELECT:
                values: list[Any] = [o["value"] for o in self.rng.sample(control["options"], low)]
                picked = " ".join(option_label(control, v) for v in values)
            else:  # a user (or mentionable) select: pick seated members
                values = self.rng.sample(self.humans, min(low, len(self.humans)))
                picked = " ".join(m.name for m in values)
            text = f"{control.get('placeholder') or ''} {picked} {control['custom_id']}"
            res = await self.fake.select(message, control["custom_id"], values, member)
        if is_scroll_handout(text):
            self.figures.scroll_clicks += 1
        await res.response(timeout=STEP_TIMEOUT_S)
        return res

    async def press_label(self, message: Message, label: str, member: Member) -> InteractionResult:
        """Click the button with this label (the lobby's Join and Start)."""
        return await self.press(message, message.button(label), member)

    async def quiet(self, seconds: float) -> None:
        """Wait until nothing has changed in the fake for ``seconds`` (the bot has finished what it was doing)."""
        deadline = time.perf_counter() + STEP_TIMEOUT_S
        while (idle := self.fake.idle_for()) < seconds:
            if time.perf_counter() > deadline:
                raise TimeoutError(f"the bot was still busy after {STEP_TIMEOUT_S:.0f} s")
            await asyncio.sleep(seconds - idle)

    async def refused_answer(self, res: InteractionResult, before: str) -> bool:
        """True if the bot answered only privately (no controls) and nothing on screen changed."""
        answer = res.original
        if answer is None or not answer.ephemeral or controls_of(answer):
            return False
        await self.quiet(REFUSAL_QUIET_S)
        return self.view().signature == before

    async def next_decision(self, previous: str) -> View:
        """Wait until the screen has changed since ``previous`` and waits for humans only, or the game is over.

        While a computer player is named the driver waits for it to move. A screen with controls that names
        nobody, or with no controls and no game-over text, is taken as it is once the bot has been quiet
        for a moment (it may still be drawing the next board).
        """

        def decided() -> View | None:
            view = self.view()
            if view.over:
                return view
            if view.signature == previous or view.waiting.names:
                return None
            return view if view.waiting.users else None

        deadline = time.perf_counter() + STEP_TIMEOUT_S
        while True:
            try:
                return await self.fake.wait_for(decided, timeout=POLL_S, what="the next decision")
            except TimeoutError:
                view = self.view()
                idle = self.fake.idle_for()
                if view.signature != previous and not view.waiting.names:
                    if view.channel_live or any(view.ephemeral_live.values()):
                        if idle >= POLL_S:
                            return view  # controls that name nobody: the members will try them
                    elif idle >= IDLE_S:
                        view.over = True  # no controls anywhere and a quiet bot: nothing is left to play
                        return view
                if time.perf_counter() > deadline:
                    raise TimeoutError(
                        f"no decision after {STEP_TIMEOUT_S:.0f} s; waiting for {view.waiting}"
                    ) from None

    def pick(self, controls: list[tuple[Message, dict[str, Any]]]) -> tuple[Message, dict[str, Any]]:
        """The control a player clicks: a one-click shortcut for the usual choice when the board offers
        one ("All scrolls → Bob", "Remove the lowest"), as people mostly do (SHORTCUT_SHARE of the time),
        else any at random."""
        shortcuts = [c for c in controls if str(c[1].get("label", "")).startswith(self.shortcuts)]
        if shortcuts and self.rng.random() < SHORTCUT_SHARE:
            return self.rng.choice(shortcuts)
        return self.rng.choice(controls)

    async def play(self) -> None:
        """Click what the board offers, as whoever it waits for, until the game is over."""
        previous = ""  # the first board counts as a change
        while True:
            view = await self.next_decision(previous)
            if view.over:
                return
            self.boards += [board_size(m) for m in view.channel_live if has_board(m)]
            if self.figures.clicks > MAX_CLICKS:
                raise RuntimeError(f"the game did not end after {MAX_CLICKS} clicks")
            by_id = {m.id: m for m in self.humans}
            waited = [by_id[u] for u in view.waiting.users if u in by_id]
            probing = not waited
            # Everyone the board waits for may act (a Fate window): one of them, chosen at random, goes first.
            candidates = (
                self.rng.sample(waited, len(waited)) if waited else self.rng.sample(self.humans, len(self.humans))
            )
            for member in candidates:
                controls = self.controls_for(view, member)
                if not controls:
                    continue
                message, control = self.pick(controls)
                if probing:
                    self.figures.probes += 1
                res = await self.press(message, control, member)
                if await self.refused_answer(res, view.signature):
                    self.figures.refused_clicks += 1
                    self.refused.setdefault(view.signature, set()).add((member.id, control["custom_id"]))
                    break  # look again: the same board, one control fewer for this member
                previous = view.signature
                break
            else:
                raise RuntimeError(f"nobody can act: waiting for {view.waiting}, controls on {view.channel_live}")

    # -- the end ---------------------------------------------------------------------------------------

    async def settle(self) -> None:
        """Wait until the bot has finished its last edits."""
        await self.quiet(IDLE_S)

    def measure(self) -> GameFigures:
        """The figures, read from the channel as it is now."""
        figures = self.figures
        visible = self.visible_messages()
        figures.messages = len(self.created_messages)
        lobby_changed = self.lobby is not None and json.dumps(self.lobby.embeds) != self.lobby_embeds_at_start
        figures.boards_visible = sum(
            has_board(m) and (self.lobby is None or m.id != self.lobby.id or lobby_changed) for m in visible
        )
        figures.history_lines = sum(history_lines(m) for m in visible)
        figures.pings = len(self.pings)
        figures.pings_per_player = figures.pings / len(self.humans)
        figures.stray_pings = sum(bool(p.stray) for p in self.pings)
        figures.stray_own_interaction = sum(p.stray == OWN_INTERACTION for p in self.pings)
        figures.stray_nothing_to_do = sum(p.stray == NOTHING_TO_DO for p in self.pings)
        if self.boards:
            figures.board_chars = statistics.fmean(c for c, _, _ in self.boards)
            figures.board_chars_max = max(c for c, _, _ in self.boards)
            figures.board_lines = statistics.fmean(n for _, n, _ in self.boards)
            figures.board_lines_max = max(n for _, n, _ in self.boards)
            figures.board_screens_max = max(screens for _, _, screens in self.boards)
        return figures


# -- scenarios --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Scenario:
    """A kind of table: the game's command, how many humans, the command's options, and the labels of the
    board's shortcuts for the usual choice."""

    name: str
    humans: int
    options: dict[str, Any] = field(default_factory=dict)
    description: str = ""
    command: str = "crowns new"
    shortcuts: tuple[str, ...] = ("All ",)


VICES_SHORTCUTS = ("Suggested", "Remove the lowest", "Remove all zeros", "Keep the rest")
SCENARIOS = {
    s.name: s
    for s in (
        Scenario("quick3", 3, {}, "Quick Play, 3 humans"),
        Scenario(
            "modules4",
            4,
            {"fate": True, "legendary": True, "overkill": True, "last_stand": True},
            "every module, 4 humans",
        ),
        Scenario("vs_cpu", 1, {"bots": 2}, "1 human vs 2 computers"),
        Scenario("vices", 3, {}, "V&V, 3 humans", "vv new", VICES_SHORTCUTS),
        Scenario("vices6", 6, {}, "V&V, 6 humans", "vv new", VICES_SHORTCUTS),
        Scenario("vices_cpu", 1, {"bots": 2}, "V&V, 1 human vs 2 computers", "vv new", VICES_SHORTCUTS),
    )
}


async def play_game(scenario: Scenario, seed: int, verbose: bool = False) -> tuple[GameFigures, list[str]]:
    """One seeded game from ``/crowns new`` (or the scenario's command) to the final board; its figures and
    the fake's recorded problems."""
    fake = WatchedDiscord(channels=3, response_deadline=60.0)
    await fake.start()
    try:
        with tempfile.TemporaryDirectory() as workdir:
            running = await start_bot(fake, Path(workdir) / "bench.sqlite3", seed)
            try:
                # The players' choices get a generator of their own: sharing the dice's seed would tie them together.
                players = random.Random(f"players-{seed}")
                table = Table(fake, fake.channels[1], fake.members[: scenario.humans], players, scenario.shortcuts)
                host, others = table.humans[0], table.humans[1:]
                lobby = await (await table.slash(host, scenario.command, **scenario.options)).message(
                    timeout=STEP_TIMEOUT_S
                )
                table.lobby = lobby
                for member in others:
                    await table.press_label(lobby, "Join", member)
                table.lobby_embeds_at_start = json.dumps(lobby.embeds)
                await table.press_label(lobby, "Start", host)
                await table.play()
                await table.settle()
                figures = table.measure()
                figures.computer_wait_s = running.computer_wait_s()
                if verbose:
                    dump(table)
            finally:
                await running.stop()
    finally:
        await fake.stop()
    return figures, list(fake.failures)


def dump(table: Table) -> None:
    """The channel as a reader sees it at the end, and every ping (for ``-v``)."""
    names = {m.id: m.name for m in table.humans}
    for message in table.visible_messages():
        board = " [board]" if has_board(message) else ""
        print(f"--- {message.id}{board} {history_lines(message)} lines")
        print(message.content)
        for embed in message.embeds:
            print(f"  embed: {embed.get('title')!r}, {len(embed.get('fields', []))} fields")
    for ping in table.pings:
        print(f"ping {names[ping.user_id]} on {ping.message_id}" + (f" (stray: {ping.stray})" if ping.stray else ""))


# -- report -----------------------------------------------------------------------------------------------

METRICS = (
    ("messages", "messages posted"),
    ("boards_visible", "full boards visible at end"),
    ("history_lines", "lines of channel history"),
    ("pings_per_player", "pings per player"),
    ("stray_pings", "stray pings per game"),
    ("stray_own_interaction", "  to whoever caused it"),
    ("stray_nothing_to_do", "  with nothing to do"),
    ("clicks", "clicks per game"),
    ("refused_clicks", "  of which refused"),
    ("scroll_clicks", "  of which scroll hand-outs"),
    ("board_chars", "characters per board"),
    ("board_chars_max", "  the longest board"),
    ("board_lines", "lines per board"),
    ("board_lines_max", "  the longest board"),
    ("board_screens_max", "phone screens, longest board"),
    ("computer_wait_s", "s waited for computers"),
)


def number(value: float) -> str:
    """An integer as such, anything else with one decimal."""
    return f"{value:.0f}" if value == int(value) else f"{value:.1f}"


def cell(values: list[float]) -> str:
    """``mean (min–max)``."""
    low, high = min(values), max(values)
    spread = f" ({number(low)}–{number(high)})" if low != high else ""
    return f"{statistics.fmean(values):.1f}{spread}"


def table_text(results: dict[str, list[GameFigures]]) -> str:
    """The human-readable report: one row per figure, one column per scenario."""
    names = list(results)
    width = 22
    lines = [f"{'per game (mean, min–max)':<28}" + "".join(f"{n:>{width}}" for n in names)]
    for key, label in METRICS:
        row = "".join(f"{cell([float(getattr(g, key)) for g in results[n]]):>{width}}" for n in names)
        lines.append(f"{label:<28}{row}")
    lines.append(f"{'games':<28}" + "".join(f"{len(results[n]):>{width}}" for n in names))
    return "\n".join(lines)


def summary(results: dict[str, list[GameFigures]]) -> dict[str, float | int]:
    """The JSON line: the mean of every figure per scenario, as ``<scenario>_<figure>``."""
    out: dict[str, float | int] = {}
    for name, games in results.items():
        for key, _ in METRICS:
            out[f"{name}_{key}"] = round(statistics.fmean(float(getattr(g, key)) for g in games), 2)
        out[f"{name}_games"] = len(games)
    return out


async def main(args: argparse.Namespace) -> int:
    """Play every scenario's games; print the table and the JSON line."""
    results: dict[str, list[GameFigures]] = {}
    failures: list[str] = []
    probes = 0
    started = time.perf_counter()
    for name, scenario in SCENARIOS.items():
        if args.only and name not in args.only:
            continue
        results[name] = []
        for i in range(args.n):
            figures, problems = await play_game(scenario, args.seed + i, args.verbose)
            results[name].append(figures)
            failures += [f"{name} game {i}: {p}" for p in problems]
            probes += figures.probes
    elapsed = time.perf_counter() - started
    seeds = f"seeds {args.seed}–{args.seed + args.n - 1}"
    print(f"Table games played by clicks through the local Discord; in-process bot; {seeds}")
    print("; ".join(f"{n}: {SCENARIOS[n].description}" for n in results) + f"; {elapsed:.1f} s")
    print(table_text(results))
    if probes:
        print(f"{probes} clicks were made by trying members: no board said whom it waited for")
    if failures:
        print("fake Discord recorded problems:", *failures, sep="\n  ")
    print(json.dumps(summary(results)))
    return 1 if failures else 0


def parse_args() -> argparse.Namespace:
    """Command-line options."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", type=int, default=5, help="games per scenario (default 5)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first game; game i uses seed + i")
    parser.add_argument("--only", nargs="*", choices=list(SCENARIOS), help="run only these scenarios")
    parser.add_argument("-v", "--verbose", action="store_true", help="print each game's channel and pings")
    parser.add_argument("--small", action="store_true", help="CI's run: one game per scenario")
    args = parser.parse_args()
    if args.small:
        args.n = 1
    return args


if __name__ == "__main__":
    logging.basicConfig(level=logging.WARNING)
    sys.exit(asyncio.run(main(parse_args())))
