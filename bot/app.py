"""The bot object: wires storage, the service, the publisher and the cogs together, and syncs commands."""

from __future__ import annotations

import asyncio
import importlib
import logging
import pkgutil
import time
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.attention import attend
from bot.clock import Clock, SystemClock
from bot.command_input import check_options, transform_refusal
from bot.command_language import CatalogTranslator
from bot.computers import ComputerSeats
from bot.controls import CONTROL_NAMESPACES, Router
from bot.deadlines import Deadlines
from bot.i18n import use
from bot.interactions import Interactions
from bot.languages import Languages
from bot.liveness import GatewayWatch, LoopMonitor
from bot.lobby import Lobby
from bot.metrics import Metrics
from bot.models import Applied, Deadline, Session
from bot.outbox import Outbox
from bot.publisher import Publisher
from bot.registry import Registry
from bot.replies import Reply, offer_nothing, report_error
from bot.retention import LogRetention
from bot.server_settings import CORE as CORE_SETTINGS
from bot.server_settings import ServerSetting, settings_command
from bot.service import Service
from bot.settings import Settings
from bot.shards import Assignment, Shards
from bot.spec import GameSpec
from bot.status import Check, StatusServer
from bot.storage import open_store
from bot.storage.postgres import redacted
from bot.timers import TimerLoop
from rules.dice import DiceSource

log = logging.getLogger(__name__)

CORE_COGS = ("cogs.meta", "cogs.game", "cogs.dice")
"""The bot's own commands, loaded first; every other module or package in ``cogs/`` is a game's (or a tool's)."""
SHUTDOWN_GRACE_S = 5.0
MODAL_NAMESPACES = ("m:", "u:")
INVITE_SCOPES = ("bot", "applications.commands")
INVITE_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    embed_links=True,
    attach_files=True,
    read_message_history=True,
    create_public_threads=True,
    send_messages_in_threads=True,
    create_events=True,
)
"""What the bot needs (README's list): boards, the scoresheet's picture, games in threads, a campaign's sessions
as Scheduled Events."""


async def speak_to(interaction: discord.Interaction) -> None:
    """Answer the member in their language from here to the end of the interaction's handling."""
    client = interaction.client
    if isinstance(client, TabletopBot):
        use(await client.languages.member(interaction.user.id, interaction.locale))


class Tree(app_commands.CommandTree[Any]):
    """The command tree: every command's answer goes through a Reply that defers it if it runs late, and its
    options are checked against what the command declares before it runs (``bot.command_input``)."""

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        if interaction.type is discord.InteractionType.autocomplete:
            await speak_to(interaction)  # the choices' names are the member's to read
            return True  # answered with choices alone: never deferred, never with a message (``offer_nothing``)
        command = interaction.command
        # PUBLIC_ANSWER (bot.replies) marks a command answered in the channel; the others answer privately.
        private = bool(command.extras.get("private", True)) if command is not None else True
        Reply.of(interaction, private=private)
        await speak_to(interaction)
        if (
            isinstance(command, app_commands.Command)
            and interaction.type is discord.InteractionType.application_command
        ):
            check_options(command, interaction.data or {})
        return True


class TabletopBot(commands.Bot):
    """A discord.py bot with the game core and the game cogs (one process, one shard; the sharded ones are
    ``bot.sharding``'s)."""

    syncs_commands_at_start = True
    """Publish the slash commands in ``setup_hook`` (a bot sharing its shards through leases leaves it to the
    holder of shard 0)."""

    def __init__(
        self,
        settings: Settings,
        *,
        extensions: tuple[str, ...] | None = None,
        clock: Clock | None = None,
        dice: DiceSource | None = None,
        **options: Any,
    ) -> None:
        # The bot has no voice: discord.py's warnings about its optional voice libraries would only puzzle.
        discord.VoiceClient.warn_nacl = False
        discord.VoiceClient.warn_dave = False
        # No privileged intents: everything happens through interactions.
        intents = discord.Intents.none()
        intents.guilds = True
        self.metrics = Metrics()
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True, replied_user=False),
            help_command=None,
            tree_cls=Tree,
            http_trace=self.metrics.discord_trace(),
            **options,
        )
        self.settings = settings
        self.extensions_to_load = extensions if extensions is not None else default_extensions()
        self.clock = clock = clock or SystemClock()
        self.assignment = Assignment(self.starting_shards(settings))
        """The shards whose servers this process looks after (answers, times, plays computers and catches up in)."""
        store = open_store(
            settings.database_path,
            settings.database_url,
            settings.database_pool_size,
            synchronous_commit=settings.database_synchronous_commit,
        )
        self.store = self.metrics.timed(store)
        self.registry = Registry()
        self.specs: dict[str, GameSpec[Any]] = {}
        self.game_settings: list[ServerSetting] = []
        self.service = Service(self.store, self.registry, clock, dice)
        self.lobby = Lobby(self.service, self.specs)
        self.timers = TimerLoop(self.store, clock, self._on_due, self.assignment)
        self.retention = LogRetention(self.store, clock, self.assignment)
        self.languages = Languages(self.store, clock, self._guild_locale, settings.force_language)
        """Who reads in which language (``bot.i18n`` says it)."""
        self.publisher = Publisher(
            self,
            self.service,
            self.specs,
            clock,
            lobby=self.lobby.payload,
            lobby_line=self.lobby.retired_line,
            deadlines_started=self.timers.schedule,
            languages=self.languages,
        )
        self.outbox = Outbox(self.publisher.news.teller, self.store, self.languages)
        """What commits outside any session show (``bot.outbox``): cogs register what they draw with it."""
        self.deadlines = Deadlines(self.service, remind=self._remind, close_lobby=self.lobby.close)
        self.computers = ComputerSeats(self.service, lambda: self.settings.computer_delay, self.assignment.owns)
        self.router = Router()
        self.interactions = Interactions(self.service, self.publisher, self.lobby, self.specs)
        self.interactions.register(self.router)
        self.service.news_of = self.publisher.news.compose
        self.service.committer.channel_language = lambda session: self.languages.channel(session.guild_id)
        self.service.on_commit(self.publisher.on_commit)
        self.service.on_commit(self._schedule)
        self.service.on_commit(self.computers.on_commit)
        self._storage_open = False
        self._attending: set[asyncio.Task[int]] = set()
        self.tree.error(self.on_app_command_error)
        self._watch()

    def _watch(self) -> None:
        """What ``METRICS_PORT`` serves: the gauges read when scraped, and the checks of ``/healthz``."""
        sharded = isinstance(self, commands.AutoShardedBot)
        self.loop_monitor = LoopMonitor(self.metrics.loop_lag.observe)
        self.gateway = GatewayWatch(self, self.assignment.shards.ids if sharded else None)
        self.status_server = StatusServer(self.metrics.registry, before_scrape=self._census)
        self.status_server.add_check("event_loop", self.loop_monitor.check)
        self.status_server.add_check("gateway", self.gateway.check)
        self.status_server.add_check("database", self._database_answers)
        metrics = self.metrics
        metrics.queued_drawings.set_function(lambda: self.publisher.queue()[0])
        metrics.oldest_drawing.set_function(lambda: self.publisher.queue()[1])
        metrics.retrying.set_function(lambda: self.publisher.retrying)
        metrics.computer_turns.set_function(lambda: self.computers.pending)
        metrics.shards_held.set_function(lambda: len(self.assignment.shards.ids))
        metrics.gateway_down.set_function(self.gateway.down_for)
        metrics.gateway_latency.set_function(lambda: self.latency)

    async def _census(self) -> None:
        self.metrics.count(await self.store.census(self.clock.now(), self.assignment.shards))

    @staticmethod
    def starting_shards(settings: Settings) -> Shards:
        """The shards this process looks after from the start: ``SHARD_IDS``, or every shard."""
        return settings.shards

    async def _database_answers(self) -> Check:
        start = time.perf_counter()
        await self.store.ping()
        return Check(True, {"took_s": round(time.perf_counter() - start, 4)})

    async def serve_status(self, port: int) -> int:
        """Serve ``/metrics`` and ``/healthz`` on ``port`` (0: a free one), and measure the loop's lag; the port."""
        self.loop_monitor.start()
        return await self.status_server.start(port)

    def register(self, spec: GameSpec[Any]) -> None:
        """Make a game known to the core (called by its cog)."""
        self.registry.add(spec.kind)
        self.specs[spec.kind.kind] = spec

    def add_setting(self, setting: ServerSetting) -> None:
        """A game's own ``/settings`` option (called by its cog when it loads)."""
        self.game_settings.append(setting)

    async def _on_due(self, session_id: int) -> None:
        await self.deadlines(session_id)

    async def _remind(self, session: Session, deadline: Deadline) -> None:
        """A reminder came due: one the game asked for is said in its words, a turn's by the publisher."""
        spec = self.specs.get(session.kind)
        if deadline.expires or spec is None:
            await self.publisher.remind(session, deadline)
            return
        said = spec.reminder(session, deadline)
        if said is not None:
            await self.publisher.news.tell(session, said)

    def _schedule(self, applied: Applied) -> None:
        self.timers.schedule(applied.session.next_deadline)

    def _guild_locale(self, guild_id: int) -> str | None:
        guild = self.get_guild(guild_id)
        return str(guild.preferred_locale) if guild is not None else None

    async def build_commands(self) -> None:
        """Load every extension (each adds its commands) and build ``/settings`` from every setting declared."""
        for name in self.extensions_to_load:
            await self.load_extension(name)
        # Built once every game has added its own settings.
        self.tree.add_command(
            settings_command(
                [*CORE_SETTINGS, *self.game_settings],
                self.store,
                saved=lambda guild_id, s: self.languages.server_changed(guild_id, s.language),
            )
        )

    async def open_storage(self) -> None:
        """Open and migrate the database (before logging in, so a bad database stops the bot at once)."""
        if not self._storage_open:
            await self.store.open()
            self._storage_open = True
            log.info("Database: %s", database_location(self.settings))

    async def on_ready(self) -> None:
        """Say who the bot is, where it is, and how to invite it (again after a new Gateway session)."""
        user = self.user
        if user is None or self.application_id is None:
            return
        servers = len(self.guilds)
        log.info("Logged in as %s (%d) in %d server%s", user, user.id, servers, "" if servers == 1 else "s")
        log.info("Invite it to a server: %s", invite_url(self.application_id))
        log.info("Or add it to your own account (dice everywhere): %s", user_install_url(self.application_id))

    async def setup_hook(self) -> None:
        await self.open_storage()
        await self.tree.set_translator(CatalogTranslator())
        await self.build_commands()
        if not self.settings.skip_sync and self.syncs_commands_at_start:
            await self.sync_commands()
        if self.settings.metrics_port is not None:
            await self.serve_status(self.settings.metrics_port)
        self.timers.start()
        self.retention.start()
        if self.assignment.shards.ids:
            self.attend_to(self.assignment.shards)

    def attend_to(self, shards: Shards) -> None:
        """Catch up with what the servers of ``shards`` need (``bot.attention``): at startup, or when this process
        takes shards on. Only this process's servers (another process looks after the rest), and in the
        background: the bot answers interactions while it catches up."""
        task = asyncio.get_running_loop().create_task(
            attend(self.store, self.publisher, self.computers, self.outbox, shards), name="attention"
        )
        self._attending.add(task)
        task.add_done_callback(self._attending.discard)

    async def settled(self, timeout: float = 10.0) -> None:
        """Wait until no change is being made or drawn (tests read the database after this)."""
        async with asyncio.timeout(timeout):
            while self._attending:  # what a restart (or a shard taken on) found to do is handed on
                task = next(iter(self._attending))
                await task
                self._attending.discard(task)
            while True:
                await self.service.idle(timeout)
                await self.publisher.idle()
                await self.outbox.idle()
                await asyncio.sleep(0)
                if not self.service.busy and not self.publisher.busy and not self.outbox.busy:
                    return

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Clicks, selects and modal submits on the bot's controls, routed by their custom_id (``bot.controls``)
        as they arrive: discord.py keeps no View of ours to look them up in."""
        namespaces: tuple[str, ...]
        if interaction.type is discord.InteractionType.component:
            namespaces = CONTROL_NAMESPACES
        elif interaction.type is discord.InteractionType.modal_submit:
            namespaces = MODAL_NAMESPACES
        else:
            return
        data: dict[str, Any] = dict(interaction.data or {})
        custom_id = str(data.get("custom_id", ""))
        if custom_id.startswith(namespaces):
            await speak_to(interaction)
            values = [str(v) for v in data.get("values", [])]
            await self.router.dispatch(interaction, custom_id, values)

    async def on_app_command_error(
        self, interaction: discord.Interaction, error: discord.app_commands.AppCommandError
    ) -> None:
        """Slash command errors: a short private reason, or an error id for the unexpected. An autocomplete that
        failed (a request naming no option being typed, or no command we have) offers no choices."""
        if interaction.type is discord.InteractionType.autocomplete:
            log.info("Autocomplete %s offered nothing: %s", interaction.id, error)
            await offer_nothing(interaction)
            return
        if isinstance(error, app_commands.TransformerError):
            await report_error(interaction, transform_refusal(error))
            return
        await report_error(interaction, error)

    async def sync_commands(self) -> None:
        """Publish the slash commands: to the dev guild instantly if set, else globally."""
        if self.settings.dev_guild_id:
            guild = discord.Object(self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("Synced %d slash commands to the server DEV_GUILD_ID %d", len(synced), guild.id)
        else:
            synced = await self.tree.sync()
            log.info("Synced %d slash commands everywhere (new ones may take a while to show)", len(synced))

    async def close(self) -> None:
        """Stop timers and computer moves, let changes and drawings in flight finish, then disconnect.

        A computer move that is cancelled is simply made again after a restart; a player's click that
        has started is allowed to commit and be drawn before the database closes.
        """
        await self.timers.stop()
        await self.retention.stop()
        for task in list(self._attending):
            task.cancel()
        await self.computers.close()
        try:
            await self.service.idle(SHUTDOWN_GRACE_S)
        except TimeoutError:
            log.warning("Shutting down with changes still in flight")
        await self.publisher.drain(SHUTDOWN_GRACE_S)
        await self.outbox.drain(SHUTDOWN_GRACE_S)
        await super().close()
        await self.status_server.stop()
        await self.loop_monitor.stop()
        await self.store.close()


def invite_url(application_id: int) -> str:
    """The OAuth2 link that adds the bot to a server with its slash commands and the permissions it needs."""
    return discord.utils.oauth_url(application_id, permissions=INVITE_PERMISSIONS, scopes=INVITE_SCOPES)


def user_install_url(application_id: int) -> str:
    """The OAuth2 link that adds the app to a member's own account (a user install: its user-installable commands,
    in any server, DM or group DM, answered through their interactions; needs User Install enabled on the
    application's Installation page)."""
    return f"https://discord.com/oauth2/authorize?client_id={application_id}&integration_type=1&scope=applications.commands"


def database_location(settings: Settings) -> str:
    """Where the data is kept, for the startup log: the SQLite file's full path, or the PostgreSQL URL
    without its password."""
    if settings.database_url:
        return f"PostgreSQL at {redacted(settings.database_url)}"
    return f"SQLite file {settings.database_path.resolve()}"


def default_extensions() -> tuple[str, ...]:
    """The core's cogs, then every other module or package in ``cogs/``: a game is loaded by being there, so adding
    one touches no file outside its own."""
    cogs = importlib.import_module("cogs")
    found = sorted(f"cogs.{module.name}" for module in pkgutil.iter_modules(cogs.__path__))
    return CORE_COGS + tuple(name for name in found if name not in CORE_COGS)


def extensions_of(settings: Settings) -> tuple[str, ...]:
    """The extensions to load: ``EXTENSIONS`` (the setting) if given, else the default cogs."""
    named = tuple(e.strip() for e in (settings.extensions or "").split(",") if e.strip())
    return named or default_extensions()
