"""LocalDiscord: a local Discord (HTTP API + Gateway) that the unmodified bot connects to, plus the test driver API."""

from __future__ import annotations

import asyncio
import contextlib
import copy
import logging
import os
import re
import time
from collections.abc import Callable, MutableMapping
from typing import Any, Protocol, TypeVar

from aiohttp import web

from localdiscord.cdn import Cdn
from localdiscord.gateway import Connection, Op, Session, SessionStarts, handle_gateway
from localdiscord.guild import MEMBER_NAMES, Channel, ChannelType, Guild, Member, Perm
from localdiscord.installs import InstallWorld, authorising, context_of, unavailable
from localdiscord.interactions import (
    InteractionResult,
    InteractionType,
    OptionRejected,
    build_command_data,
    find_command,
    modal_submit_components,
    now,
)
from localdiscord.limits import FILE_LIMIT
from localdiscord.messages import SETTABLE_FLAGS, Message, compute_mentions
from localdiscord.routes import build_app
from localdiscord.snowflakes import Snowflakes, timestamp_of

log = logging.getLogger(__name__)
T = TypeVar("T")

DEFAULT_DEADLINE = 3.0
NONCE_WINDOW_S = 300.0
"""How long Discord remembers a message's nonce (``enforce_nonce``): "the past few minutes"."""
INTERACTION_LIFETIME = 15 * 60  # seconds: Discord's interaction tokens last 15 minutes


class Observer(Protocol):
    """Something kept up to date with the world (the play file, the web client): told after each change."""

    def message_changed(self, message: Message) -> None:
        """A message was created, edited or deleted (``message.deleted``)."""

    def channel_changed(self, channel: Channel) -> None:
        """A channel, thread or DM was created or changed."""

    def world_changed(self) -> None:
        """The synced commands, the members or their roles changed."""

    def member_added(self, member: Member) -> None:
        """Someone joined the guild."""


class Hold:
    """Requests the fake keeps waiting (``LocalDiscord.hold``) until the test releases or drops them."""

    def __init__(self, fake: LocalDiscord, pattern: str, count: int, *, after_effect: bool = False) -> None:
        self.fake = fake
        self.pattern = pattern
        self.count = count
        self.after_effect = after_effect
        """Discord does what the request asks at once and only its answer is held (it is lost if dropped)."""
        self.caught = 0
        self.dropped = False
        self._gate = asyncio.Event()

    def matches(self, method: str, path: str) -> bool:
        """Whether this hold takes the request (it takes ``count`` of them, then lets everything pass)."""
        return self.caught < self.count and self.pattern in f"{method} {path}"

    async def arrived(self, timeout: float = 5.0) -> None:
        """Wait until a request is being held."""
        await self.fake.wait_for(lambda: self.caught > 0, timeout, what=f"a request matching {self.pattern!r}")

    def release(self) -> None:
        """Let the held requests (and any later ones) through, as if the network had been slow."""
        self.count = self.caught
        self._gate.set()

    def drop(self) -> None:
        """Fail the held requests without doing anything, as if the connection had died with the bot."""
        self.dropped = True
        self.release()

    async def wait(self) -> bool:
        """Called by the server for a held request: block until released; False if it was dropped."""
        self.caught += 1
        self.fake.notify()
        await self._gate.wait()
        return not self.dropped


class LocalDiscord(InstallWorld):
    """A protocol-level fake of Discord for end-to-end tests and benchmarks.

    Start it, point discord.py at ``base_url`` (``bot.endpoint.use_api_base``), then drive the bot with
    ``slash``/``click``/``select``/``submit_modal`` and read what it did through messages and ``InteractionResult``.
    Anything Discord would reject is answered as Discord would *and* appended to ``failures``.
    """

    def __init__(
        self,
        *,
        channels: int = 4,
        response_deadline: float | None = None,
        token: str = "fake-token",
        privileged_intents: int = 0,
        guilds: int = 1,
        shards: int = 1,
        max_concurrency: int | None = None,
        member_names: tuple[str, ...] = MEMBER_NAMES,
        guild_name: str = "Tabletop Test Server",
    ) -> None:
        if channels < 3:
            raise ValueError("the fake needs at least 3 channels")
        self.shard_count = shards
        """The shard count /gateway/bot recommends; guild ``i`` is made to fall on shard ``i % shards``."""
        self.session_starts = SessionStarts(max_concurrency)
        """Discord's limits on IDENTIFY (``max_concurrency``: enforced only when given) and what was identified."""
        self.duplicate_interactions = False
        """Deliver every interaction to every connected session, whatever its shard (a duplicated delivery)."""
        env_deadline = os.environ.get("FAKE_DISCORD_DEADLINE")
        # A loaded machine may raise the deadline through the environment, never lower it.
        self.response_deadline = max(
            response_deadline if response_deadline is not None else DEFAULT_DEADLINE,
            float(env_deadline) if env_deadline else 0.0,
        )
        self.token = token
        self.privileged_intents = privileged_intents
        self.identify_close_code: int | None = None
        self.heartbeat_interval = 41.25
        """Seconds between a bot's heartbeats, as HELLO tells it (Discord's is 41.25 s)."""
        self.round_trip = 0.05
        """Seconds a HEARTBEAT_ACK takes to reach the bot, as over a network (see ``gateway``)."""
        self.identify_deadline = 20.0
        """Seconds a Gateway connection has to IDENTIFY (or RESUME) before it is closed with 4009."""
        self.ids = Snowflakes()
        self.application_id = self.ids.next()
        self.application_flags = 1 << 23  # APPLICATION_COMMAND_BADGE, as any bot with slash commands has
        self.bot_user = Member(self.application_id, "tabletop-bot", "Tabletop Bot", bot=True)
        self.guilds = [
            Guild(
                self.ids,
                self.bot_user,
                channels=channels,
                guild_id=self.ids.on_shard(index % shards, shards) if shards > 1 else None,
                name=guild_name if index == 0 else f"{guild_name} {index + 1}",
                member_names=member_names,
            )
            for index in range(guilds)
        ]
        self.guild = self.guilds[0]
        self.dm_user = Member(self.ids.next(), "erin", "Erin")
        self.threads: list[Channel] = []
        self.dm_channels: dict[int, Channel] = {}
        self.user_installs: set[int] = set()
        """Members who added the app to their own account (``install_for_user``)."""
        self.guilds_without_bot: list[Guild] = []
        """Servers the bot was never added to (``server_without_bot``): a member's install is all that reaches them."""
        self.private_channels: dict[int, Channel] = {}
        """DMs and group DMs between users (``private_dm``, ``group_dm``): the bot is in none of them."""
        self.global_commands: list[dict[str, Any]] = []
        self.guild_commands: dict[int, list[dict[str, Any]]] = {}
        self.requests: list[dict[str, Any]] = []
        self.failures: list[str] = []
        self.tolerated: list[str] = []
        self._tolerate: list[str] = []
        self.rejections: list[str] = []
        self.sessions: list[Session] = []
        self.connections: list[Connection] = []
        self.interactions: dict[int, InteractionResult] = {}
        self.interactions_by_token: dict[str, InteractionResult] = {}
        self.ready_count = 0
        self.resume_count = 0
        self.gateway_open = asyncio.Event()
        """Cleared by ``hold_gateway``: IDENTIFY and RESUME wait for it (a Gateway outage)."""
        self.gateway_open.set()
        self._resume_count_at_drop = 0
        self._messages: dict[int, Message] = {}
        self.uploads: MutableMapping[int, bytes] = {}
        """The bytes of every file the bot uploaded, by attachment id (see ``attachment_bytes``)."""
        self.cdn = Cdn(self)
        """Signs the files' URLs and serves them to who may have them."""
        self._channel_messages: dict[int, list[Message]] = {}
        self._nonces: dict[tuple[int, str], tuple[Message, float]] = {}
        self._slow: list[tuple[re.Pattern[str], float, bool]] = []
        self._limit_every_route: tuple[float, float] | None = None
        """``rate_limit_every_route``'s waits: (other routes, interaction callbacks)."""
        self._limited_once: dict[str, bool] = {}
        self._injected_429: list[list[Any]] = []
        self.holds: list[Hold] = []
        self._callback_500s = 0
        self._changed = asyncio.Event()
        self._runner: web.AppRunner | None = None
        self.base_url = ""
        self.hosting = False
        """Listening beyond this machine (``--host``): a request may then name the server by any address."""
        self.observers: list[Observer] = []
        """Told of every change to messages, channels, members and commands (``Observer``)."""
        self.long_running = False
        """A server people play on for hours (``python -m localdiscord``), not a test's: it keeps no requests in
        ``requests``, forgets a file once no message shows it, and an interaction once its token has expired."""

    # -- lifecycle ---------------------------------------------------------------------------------------------

    async def start(
        self, host: str = "127.0.0.1", port: int = 0, *, extend: Callable[[web.Application], None] | None = None
    ) -> LocalDiscord:
        """Listen on ``host``:``port`` (default: 127.0.0.1, a free port); sets ``base_url``, which the bot on this
        machine uses. ``extend`` may add routes (the web client) before the server starts."""
        app = build_app(self)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_get("/gateway/resume", self._gateway)
        app.router.add_get("/attachments/{channel}/{attachment}/{filename}", self.cdn.download)
        if extend is not None:
            extend(app)
        self._runner = web.AppRunner(app, handle_signals=False, access_log=None)
        await self._runner.setup()
        await web.TCPSite(self._runner, host, port).start()
        port = self._runner.addresses[0][1]
        if host == "::":
            # Every address is both families: asyncio binds "::" to IPv6 alone, so IPv4 gets a socket of its own.
            with contextlib.suppress(OSError):
                await web.TCPSite(self._runner, "0.0.0.0", port).start()
        self.hosting = host not in LOOPBACK_HOSTS
        self.base_url = f"http://{bot_address(host)}:{port}"
        return self

    async def stop(self) -> None:
        """Close every Gateway connection and the server; record interactions the bot never answered."""
        for connection in list(self.connections):
            await connection.close(1001, "Going away.")
        if self._runner is not None:
            await self._runner.cleanup()
        for res in self.interactions.values():
            late = now() > res.deadline
            if late and res.response_type is None and not res.errors and not res.no_response_expected:
                self.fail(
                    f"interaction {res.id} ({describe(res)}) was never answered (Discord: application did not respond)"
                )

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        return await handle_gateway(self, request)

    @property
    def resume_gateway_url(self) -> str:
        """Where READY tells the bot to RESUME (a distinct path, so tests can see it was used)."""
        return self.base_url.replace("http://", "ws://", 1) + "/gateway/resume"

    # -- world -------------------------------------------------------------------------------------------------

    @property
    def guild_id(self) -> int:
        """The first guild's id."""
        return self.guild.id

    def guild_of(self, channel: Channel) -> Guild | None:
        """The guild a channel or thread is in (None for a DM)."""
        return next((g for g in (*self.guilds, *self.guilds_without_bot) if g.id == channel.guild_id), None)

    @property
    def channels(self) -> list[Channel]:
        """The first guild's text channels."""
        return self.guild.channels

    @property
    def members(self) -> list[Member]:
        """The first guild's members (not the bot); ``members[0]`` has Manage Server, one is shown as "@everyone"."""
        return self.guild.members

    @property
    def bot_user_id(self) -> int:
        """The bot's user id (equal to the application id, as for every modern bot)."""
        return self.bot_user.id

    @property
    def users(self) -> dict[int, Member]:
        """Every user the fake knows, by id."""
        everyone = (m for g in (*self.guilds, *self.guilds_without_bot) for m in g.members)
        return {u.id: u for u in (self.bot_user, self.dm_user, *everyone)}

    @property
    def commands(self) -> list[dict[str, Any]]:
        """The synced command schema: guild commands first, then global ones."""
        return [c for cmds in self.guild_commands.values() for c in cmds] + self.global_commands

    def channel(self, channel_id: int) -> Channel | None:
        """Any channel, thread or DM by id (also those the bot isn't in: see ``bot_sees``)."""
        private = self.private_channels.get(channel_id)
        if private is not None:
            return private
        guilds = (*self.guilds, *self.guilds_without_bot)
        for channel in (*(c for g in guilds for c in g.channels), *self.threads, *self.dm_channels.values()):
            if channel.id == channel_id:
                return channel
        return None

    def dm_channel(self, user: Member | None = None) -> Channel:
        """The DM channel between ``user`` (default ``dm_user``) and the bot, created on first use."""
        user = user or self.dm_user
        if user.id not in self.dm_channels:
            self.dm_channels[user.id] = Channel(self.ids.next(), "", type=ChannelType.DM, recipient=user)
            self.channel_changed(self.dm_channels[user.id])
        return self.dm_channels[user.id]

    def bot_permissions(self, channel: Channel) -> int:
        """What the bot may do in ``channel`` (what Discord sends as ``app_permissions``)."""
        if channel.is_dm:
            return Perm.DM
        if not self.bot_sees(channel):
            return Perm.USER_APP
        guild = self.guild_of(channel)
        assert guild is not None
        if channel.type in ChannelType.THREADS:
            parent = self.channel(channel.parent_id or 0)
            assert parent is not None
            return guild.bot_permissions(parent)
        return guild.bot_permissions(channel)

    def set_channel_permissions(self, channel: Channel, *, bot_allow: int = 0, bot_deny: int = 0) -> None:
        """Set the bot's member overwrite in ``channel`` (e.g. ``bot_deny=Perm.SEND_MESSAGES``) and tell the bot."""
        channel.bot_allow, channel.bot_deny = bot_allow, bot_deny
        self.broadcast("CHANNEL_UPDATE", channel.to_json(), guild_id=channel.guild_id)
        self.channel_changed(channel)

    def broadcast(self, event: str, data: dict[str, Any], *, guild_id: int | None = None) -> None:
        """Dispatch a Gateway event to every live session of the shard owning ``guild_id`` (DMs: shard 0)."""
        for session in self._target_sessions(guild_id):
            session.dispatch(event, data)

    def _target_sessions(self, guild_id: int | None) -> list[Session]:
        # Sessions of the guild's shard: the connected ones; while none is connected, the ones waiting to
        # RESUME keep the events for replay.
        live = [s for s in self.sessions if not s.ended and (s.shard is None or s.owns(guild_id))]
        connected = [s for s in live if s.connection is not None]
        return connected or live

    # -- state changes and waiting -----------------------------------------------------------------------------

    def notify(self) -> None:
        """Wake everything waiting in ``wait_for``: call after every state change."""
        self._changed.set()
        self._changed = asyncio.Event()

    def message_changed(self, message: Message) -> None:
        """Tell the observers about a created, edited or deleted message, and wake the waiters."""
        for observer in self.observers:
            observer.message_changed(message)
        self.notify()

    def channel_changed(self, channel: Channel) -> None:
        """Tell the observers about a created or changed channel, and wake the waiters."""
        for observer in self.observers:
            observer.channel_changed(channel)
        self.notify()

    def world_changed(self) -> None:
        """Tell the observers that commands, members or roles changed, and wake the waiters."""
        for observer in self.observers:
            observer.world_changed()
        self.notify()

    def fail(self, problem: str) -> bool:
        """Record something Discord would have refused or that no real bot may do; the fixture fails on it.

        Returns False if the test declared the problem expected (``tolerate``).
        """
        expected = any(pattern in problem for pattern in self._tolerate)
        if expected:
            log.info("fake Discord (expected by the test): %s", problem)
            self.tolerated.append(problem)
        else:
            log.error("fake Discord: %s", problem)
            self.failures.append(problem)
        self.notify()
        return not expected

    def tolerate(self, pattern: str) -> None:
        """Record problems containing ``pattern`` in ``tolerated`` instead of ``failures`` (for tests of them).

        Requests that caused a tolerated problem stay out of the DISCORD_REQUEST_LOG: they are wrong on purpose.
        """
        self._tolerate.append(pattern)

    async def wait_for(
        self, predicate: Callable[[], T | None], timeout: float = 5.0, *, what: str = "the condition"
    ) -> T:
        """Wait until ``predicate()`` is truthy (re-checked on every state change) and return its value."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            result = predicate()
            if result:
                return result
            changed = self._changed
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(f"timed out after {timeout}s waiting for {what}; failures so far: {self.failures}")
            try:
                await asyncio.wait_for(changed.wait(), remaining)
            except TimeoutError:
                continue  # one last look at the predicate, then the deadline check raises

    # -- messages ----------------------------------------------------------------------------------------------

    def forget_history(self) -> None:
        """Drop every message, upload, finished interaction and logged request (a long benchmark keeps its memory
        flat; the bot's own state is not touched)."""
        self._messages.clear()
        self._channel_messages.clear()
        self.uploads.clear()
        self.cdn.places.clear()
        self._nonces.clear()
        self.requests.clear()
        self.interactions.clear()
        self.interactions_by_token.clear()

    def messages(self, channel: Channel) -> list[Message]:
        """Messages everyone sees in ``channel``, oldest first (no ephemeral, no deleted ones)."""
        return [m for m in self._channel_messages.get(channel.id, []) if not m.deleted and not m.ephemeral]

    def messages_seen_by(self, channel: Channel, member: Member) -> list[Message]:
        """Messages ``member`` sees in ``channel``, oldest first: everyone's and the ephemeral ones sent to them."""
        return [
            m
            for m in self._channel_messages.get(channel.id, [])
            if not m.deleted and (not m.ephemeral or m.viewer_id == member.id)
        ]

    def add_member(self, name: str) -> Member:
        """A new member of the first guild; the first one to join owns the server and manages it."""
        guild = self.guild
        member = guild.add_member(self.ids.next(), name)
        if len(guild.members) == 1:
            guild.owner_id = member.id
            guild.set_manager(member, True)
        for observer in self.observers:
            observer.member_added(member)
        self.notify()
        return member

    def ephemerals(self, member: Member) -> list[Message]:
        """Ephemeral messages only ``member`` sees, oldest first."""
        return [m for m in self._messages.values() if m.viewer_id == member.id and m.ephemeral and not m.deleted]

    def message(self, message_id: int) -> Message | None:
        """Any stored message by id (including ephemeral and deleted ones)."""
        return self._messages.get(message_id)

    async def wait_for_message(
        self, channel: Channel, predicate: Callable[[Message], bool] | None = None, timeout: float = 5.0
    ) -> Message:
        """The first visible message in ``channel`` matching ``predicate``, waiting for it if needed."""

        def find() -> Message | None:
            return next((m for m in self.messages(channel) if predicate is None or predicate(m)), None)

        return await self.wait_for(find, timeout, what=f"a message in #{channel.name}")

    def attachment_bytes(self, attachment: dict[str, Any]) -> bytes:
        """The content of an attachment of a stored message (``message.attachments[i]``), as the bot uploaded it."""
        return self.uploads[int(attachment["id"])]

    def store_upload(
        self,
        channel: Channel,
        filename: str,
        content: bytes,
        content_type: str | None = None,
        description: str | None = None,
    ) -> dict[str, Any]:
        """Keep an uploaded file (the bot's, or a user's for an attachment option); its attachment object,
        with a signed URL this fake serves the bytes from, like Discord's CDN."""
        attachment_id = self.ids.next()
        self.uploads[attachment_id] = content
        return self.cdn.uploaded(attachment_id, channel.id, filename, content, content_type, description)

    def delete_message(self, channel: Channel, message_id: int) -> None:
        """A user (a moderator) deletes a message; the bot is not told (it has no message intents)."""
        message = self._messages.get(message_id)
        if message is None or message.channel is not channel:
            raise LookupError(f"no message {message_id} in #{channel.name}")
        self.remove_message(message)

    def remove_message(self, message: Message) -> None:
        """Delete a stored message (everyone stops seeing it); its uploads are no longer served."""
        message.deleted = True
        self._forget_uploads(message.attachments)
        self.message_changed(message)

    def _forget_uploads(self, attachments: list[dict[str, Any]]) -> None:
        # A long-running server keeps only the files some message still shows; tests keep them all to read them.
        if self.long_running:
            for attachment in attachments:
                self.uploads.pop(int(attachment["id"]), None)
                self.cdn.forget(int(attachment["id"]))

    def adopt_message(self, message: Message) -> None:
        """Take in a message kept from an earlier run (see ``WorldFile``), without telling anyone."""
        self._messages[message.id] = message
        self._channel_messages.setdefault(message.channel.id, []).append(message)
        self.cdn.shown(message)

    def message_with_nonce(self, channel: Channel, nonce: str) -> Message | None:
        """The message the bot made in ``channel`` with ``nonce`` in the past few minutes, if any."""
        made = self._nonces.get((channel.id, nonce))
        if made is None or time.monotonic() - made[1] > NONCE_WINDOW_S or made[0].deleted:
            return None
        return made[0]

    def remember_nonce(self, channel: Channel, nonce: str, message: Message) -> None:
        """``message`` was made with ``nonce``: for a few minutes, the same nonce returns it."""
        self._nonces[(channel.id, nonce)] = (message, time.monotonic())

    def create_message(
        self,
        channel: Channel,
        payload: dict[str, Any],
        *,
        attachments: list[dict[str, Any]] | None = None,
        interaction: InteractionResult | None = None,
        message_type: int = 0,
        extra_flags: int = 0,
    ) -> Message:
        """Store a message the bot sent (already validated) and return it."""
        message_id = self.ids.next()
        flags = ((payload.get("flags") or 0) & SETTABLE_FLAGS) | extra_flags
        data: dict[str, Any] = {
            "id": str(message_id),
            "channel_id": str(channel.id),
            "author": self.bot_user.user_json(),
            "content": payload.get("content") or "",
            "timestamp": timestamp_of(message_id),
            "edited_timestamp": None,
            "tts": bool(payload.get("tts")),
            "attachments": attachments or [],
            "embeds": [{"type": "rich"} | e for e in payload.get("embeds") or []],
            "components": payload.get("components") or [],
            "pinned": False,
            "type": message_type,
            "flags": flags,
            "reactions": [],
        }
        data |= self._mentions(data["content"], payload.get("allowed_mentions"))
        if interaction is not None:
            data["webhook_id"] = str(self.application_id)
            data["application_id"] = str(self.application_id)
            data["interaction_metadata"] = interaction_metadata(interaction)
            if interaction.original is not None and not interaction.original.loading:
                data["interaction_metadata"]["original_response_message_id"] = str(interaction.original.id)
        if payload.get("message_reference"):
            data["message_reference"] = {"type": 0, "channel_id": str(channel.id)} | payload["message_reference"]
            data["type"] = 19  # REPLY
        message = Message(
            data,
            channel,
            interaction_id=interaction.id if interaction else None,
            viewer_id=interaction.member.id if interaction and flags & 64 else None,
        )
        message.allowed_mentions = payload.get("allowed_mentions")
        if interaction is not None and interaction.type == InteractionType.APPLICATION_COMMAND:
            message.invoked = command_line(interaction.payload.get("data", {}))
        self._messages[message_id] = message
        self._channel_messages.setdefault(channel.id, []).append(message)
        self.cdn.shown(message)
        self.message_changed(message)
        return message

    def edit_message(
        self, message: Message, payload: dict[str, Any], attachments: list[dict[str, Any]] | None = None
    ) -> Message:
        """Apply an edit the bot sent (already validated); a deferred response's first edit fills it in."""
        data = message.data
        for key in ("content", "components"):
            if key in payload:
                data[key] = payload[key] or ([] if key == "components" else "")
        if "embeds" in payload:
            data["embeds"] = [{"type": "rich"} | e for e in payload["embeds"] or []]
        if "flags" in payload and payload["flags"] is not None:
            # Only SUPPRESS_EMBEDS may change on edit; ephemerality is fixed at creation.
            data["flags"] = (data["flags"] & ~4) | (payload["flags"] & 4)
        if "attachments" in payload:
            keep = {str(a.get("id")) for a in payload["attachments"] or []}
            self._forget_uploads([a for a in data["attachments"] if a["id"] not in keep])
            data["attachments"] = [a for a in data["attachments"] if a["id"] in keep] + (attachments or [])
        if "allowed_mentions" in payload:
            message.allowed_mentions = payload["allowed_mentions"]
        data |= self._mentions(data["content"], message.allowed_mentions)
        if message.loading:
            data["flags"] &= ~(1 << 7)
        else:
            data["edited_timestamp"] = timestamp_of(self.ids.next())
        message.edits += 1
        self.cdn.shown(message)
        self.message_changed(message)
        return message

    def _mentions(self, content: str, allowed: dict[str, Any] | None) -> dict[str, Any]:
        return compute_mentions(content, allowed, self.users, {r.id: r for g in self.guilds for r in g.roles})

    # -- interactions ------------------------------------------------------------------------------------------

    async def slash(
        self,
        channel: Channel,
        member: Member,
        command: str,
        options: dict[str, Any] | None = None,
        *,
        subcommand: str | None = None,
        client_checks: bool = True,
    ) -> InteractionResult:
        """Run ``/command`` (a path like "crowns new" for subcommands) as ``member`` in ``channel``.

        Options are typed per the synced schema (pass Member/Channel/Role objects for those kinds). If Discord's
        client would refuse the invocation, nothing is sent and ``res.error`` says why. With ``client_checks``
        False the values go out as a modified client (or one with an out-of-date copy of the commands) would
        send them: outside the schema's choices, ranges and lengths, within what Discord's API itself accepts.
        """
        parts = command.split() + (subcommand.split() if subcommand else [])
        schema = find_command(self.commands_for(channel), parts[0])
        if schema is None:
            self.fail(f"/{parts[0]} is not a synced command (synced: {[c['name'] for c in self.commands]})")
            raise LookupError(f"/{parts[0]} is not a synced command")
        res = self._new_interaction(InteractionType.APPLICATION_COMMAND, channel, member)
        refusal = self._command_refusal(schema, channel, member)
        if refusal:
            res.errors.append(refusal)
            return res
        try:
            data = build_command_data(self, schema, parts[1:], options or {}, channel, client_checks=client_checks)
        except OptionRejected as exc:
            res.errors.append(f"Discord refused /{' '.join(parts)}: {exc}")
            return res
        self._dispatch(res, data)
        return res

    async def autocomplete(
        self,
        channel: Channel,
        member: Member,
        command: str,
        focused: str | None,
        options: dict[str, Any] | None = None,
        *,
        client_checks: bool = True,
    ) -> InteractionResult:
        """``member`` is typing option ``focused`` of ``/command`` (its partial text in ``options``):
        the client asks the bot for choices. ``await res.choices()`` gives them. ``client_checks``: as for
        ``slash``, for the options already filled in; without them ``focused`` may be None, a request that says
        of no option that it is being typed (Discord passes it on)."""
        if focused is None and client_checks:
            raise ValueError("Discord's client always says which option is being typed")
        parts = command.split()
        schema = find_command(self.commands_for(channel), parts[0])
        if schema is None:
            raise LookupError(f"/{parts[0]} is not a synced command")
        res = self._new_interaction(InteractionType.AUTOCOMPLETE, channel, member)
        data = build_command_data(
            self,
            schema,
            parts[1:],
            options or {},
            channel,
            focused=focused,
            autocomplete=True,
            client_checks=client_checks,
        )
        self._dispatch(res, data)
        return res

    def commands_for(self, channel: Channel) -> list[dict[str, Any]]:
        """The commands synced for ``channel``: the guild's own, then the global ones (``offered``: which a given
        member sees there)."""
        guild_commands = [] if channel.guild_id is None else self.guild_commands.get(channel.guild_id, [])
        return guild_commands + self.global_commands

    def offered(self, channel: Channel, member: Member) -> list[str]:
        """The commands Discord's client offers ``member`` in ``channel``, by name (``localdiscord.installs``)."""
        return [c["name"] for c in self.commands_for(channel) if self._command_refusal(c, channel, member) is None]

    def _command_refusal(self, schema: dict[str, Any], channel: Channel, member: Member) -> str | None:
        name = schema["name"]
        missing = unavailable(schema, self, channel, member)
        if missing is not None or channel.guild_id is None:
            return missing
        required = schema.get("default_member_permissions")
        if required is not None and member.permissions & int(required) != int(required):
            return f"/{name} is hidden from {member.name}: needs permissions {required}"
        return None

    async def click(self, message: Message, custom_id_or_label: str, member: Member) -> InteractionResult:
        """``member`` clicks the button with this custom_id (or label) on ``message``."""
        source = self._clickable(message, member)
        button = source.button(custom_id_or_label)
        if button.get("disabled"):
            raise ValueError(f"button {custom_id_or_label!r} is disabled; Discord would not let anyone click it")
        if "custom_id" not in button:
            raise ValueError(f"button {custom_id_or_label!r} is a link button; clicking it opens a URL")
        res = self._new_interaction(InteractionType.MESSAGE_COMPONENT, source.channel, member, source)
        self._dispatch(res, {"custom_id": button["custom_id"], "component_type": 2})
        return res

    async def select(self, message: Message, custom_id: str, values: list[Any], member: Member) -> InteractionResult:
        """``member`` picks ``values`` in the select menu ``custom_id`` on ``message``."""
        source = self._clickable(message, member)
        menu = next((s for s in source.selects if s.get("custom_id") == custom_id), None)
        if menu is None:
            raise LookupError(f"no select {custom_id!r} on message {source.id}")
        if menu.get("disabled"):
            raise ValueError(f"select {custom_id!r} is disabled")
        res = self._new_interaction(InteractionType.MESSAGE_COMPONENT, source.channel, member, source)
        chosen = [str(v.id) if isinstance(v, Member | Channel) else str(v) for v in values]
        low, high = menu.get("min_values", 1), menu.get("max_values", 1)
        options = [o["value"] for o in menu.get("options", [])]
        if not low <= len(chosen) <= high or (menu["type"] == 3 and not set(chosen) <= set(options)):
            res.errors.append(f"Discord refused the selection {chosen}: options {options}, {low}..{high} values")
            return res
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": menu["type"], "values": chosen}
        users = [v for v in values if isinstance(v, Member)]
        if users:
            data["resolved"] = {"users": {str(u.id): u.user_json() for u in users}}
        self._dispatch(res, data)
        return res

    async def submit_modal(
        self,
        res: InteractionResult,
        values: dict[str, Any],
        member: Member | None = None,
        *,
        client_checks: bool = True,
    ) -> InteractionResult:
        """Fill in and submit the modal the bot opened in answer to ``res`` (inputs by custom_id: text for a text
        input, a list of values for a select).

        Waits for the bot's response to ``res`` first. With ``client_checks`` False, what Discord's client would
        not submit goes out too (lengths out of range, empty required fields, select values not offered).
        """
        await res.response()
        if res.modal is None:
            raise ValueError(f"the bot did not answer interaction {res.id} with a modal")
        member = member or res.member
        submit = self._new_interaction(InteractionType.MODAL_SUBMIT, res.channel, member, res.source)
        submit.trigger = res
        try:
            components = modal_submit_components(res.modal, values, client_checks=client_checks)
        except OptionRejected as exc:
            submit.errors.append(f"Discord refused the modal: {exc}")
            return submit
        self._dispatch(submit, {"custom_id": res.modal["custom_id"], "components": components})
        return submit

    def _clickable(self, message: Message, member: Member) -> Message:
        source = self._messages.get(message.id)
        if source is None or source.deleted:
            raise LookupError(f"message {message.id} does not exist (deleted?)")
        if source.ephemeral and source.viewer_id != member.id:
            raise ValueError(f"{member.name} cannot see ephemeral message {message.id}")
        return source

    def _new_interaction(
        self, kind: int, channel: Channel, member: Member, source: Message | None = None
    ) -> InteractionResult:
        return InteractionResult(self, self.ids.next(), kind, channel, member, source=source)

    def _dispatch(self, res: InteractionResult, data: dict[str, Any]) -> None:
        res.payload = self._interaction_payload(res, data)
        for attachment_id in (data.get("resolved") or {}).get("attachments") or {}:
            self.cdn.attached_by(int(attachment_id), res.member)  # the member's file: theirs and the bot's alone
        if self.duplicate_interactions:
            targets = [s for s in self.sessions if s.connection is not None and not s.ended]
        else:
            targets = self._target_sessions(res.channel.guild_id)
        if not targets:
            raise RuntimeError("no bot is connected to the fake Discord")
        self._forget_old_interactions()
        self.interactions[res.id] = res
        self.interactions_by_token[res.token] = res
        res.sent_at = now()
        res.deadline = res.sent_at + self.response_deadline
        for session in targets:
            session.dispatch("INTERACTION_CREATE", res.payload)

    def _forget_old_interactions(self) -> None:
        # Oldest first (dicts keep insertion order): stop at the first one still young enough.
        if not self.long_running:
            return
        cutoff = now() - INTERACTION_LIFETIME
        while self.interactions:
            oldest = next(iter(self.interactions.values()))
            if oldest.sent_at > cutoff:
                return
            del self.interactions[oldest.id]
            self.interactions_by_token.pop(oldest.token, None)

    def _owners(self, res: InteractionResult, data: dict[str, Any]) -> dict[str, str]:
        """``authorizing_integration_owners``: a command's from the installs that reach its member there, a click's
        (or a form's) those of the interaction that made its message, as Discord carries them over."""
        if res.trigger is not None:
            return dict(res.trigger.payload["authorizing_integration_owners"])
        metadata = res.source.data.get("interaction_metadata") if res.source is not None else None
        if metadata is not None:
            return dict(metadata["authorizing_integration_owners"])
        name = data.get("name")
        schema = find_command(self.commands_for(res.channel), name) if name else None
        if schema is not None:
            return authorising(schema, self, res.channel, res.member)
        return {"0": str(res.channel.guild_id or 0)}  # a message the bot posted itself: where it is installed

    def _interaction_payload(self, res: InteractionResult, data: dict[str, Any]) -> dict[str, Any]:
        channel, member = res.channel, res.member
        owners = self._owners(res, data)
        payload: dict[str, Any] = {
            "id": str(res.id),
            "application_id": str(self.application_id),
            "type": res.type,
            "data": data,
            "token": res.token,
            "version": 1,
            "channel_id": str(channel.id),
            "locale": "en-US",
            "entitlements": [],
            "entitlement_sku_ids": [],
            "attachment_size_limit": FILE_LIMIT,
            "app_permissions": str(self.bot_permissions(channel)),
        }
        payload |= {"context": context_of(channel), "authorizing_integration_owners": owners}
        if channel.guild_id is None:
            payload |= {"user": member.user_json(), "channel": channel.to_json()}
        else:
            guild = self.guild_of(channel)
            assert guild is not None
            payload |= {
                "guild_id": str(guild.id),
                "guild": {"id": str(guild.id), "locale": "en-US", "features": []},
                "guild_locale": "en-US",
                "member": member.member_json(),
                "channel": channel.to_json() | {"permissions": str(member.permissions)},
            }
        if res.source is not None:
            # The message as it is when the click is made: an edit on its way to the bot mustn't change it.
            payload["message"] = self.cdn.for_bot(copy.deepcopy(res.source.data))
        return payload

    def acknowledge(
        self, res: InteractionResult, callback_type: int, data: dict[str, Any], message: Message | None
    ) -> None:
        """Record the bot's accepted initial response and the message it created or updated."""
        res.callback_at = now()
        res.original = message
        res.edits_at_ack = message.edits if message else 0
        res.response_type = callback_type
        res.response_data = data
        self.notify()

    # -- fault injection ---------------------------------------------------------------------------------------

    def inject_429(self, route_substring: str, retry_after: float = 0.05, count: int = 1) -> None:
        """Answer the next ``count`` requests whose "METHOD /api/v10/path" contains ``route_substring`` with 429."""
        self._injected_429.append([route_substring, retry_after, count])

    def take_429(self, method: str, path: str) -> float | None:
        """If a 429 is injected for this request, consume it and return its retry_after."""
        if self._limit_every_route is not None:
            key = f"{method} {path}"
            # Every other try of a route is refused: a request's first try, then its retry goes through.
            if self._limited_once.pop(key, None) is None:
                self._limited_once[key] = True
                routes, callbacks = self._limit_every_route
                return callbacks if path.endswith("/callback") else routes
        for entry in self._injected_429:
            if entry[0] in f"{method} {path}" and entry[2] > 0:
                entry[2] -= 1
                return entry[1]
        return None

    def slow_down(self, pattern: str, seconds: float, *, uploads_only: bool = False) -> None:
        """Make every request whose "METHOD /api/v10/path" matches the regex ``pattern`` (and that uploads a
        file, if ``uploads_only``) wait ``seconds`` before Discord takes it (a rate limit's wait, a slow upload),
        until ``clear_weather``."""
        self._slow.append((re.compile(pattern), seconds, uploads_only))

    def rate_limit_every_route(self, retry_after: float, *, callbacks: float | None = None) -> None:
        """Answer every request with a 429 once: its first try waits ``retry_after`` (an interaction's callback
        ``callbacks``, if given: a sub-limit's wait can be a few milliseconds), its retry goes through (until
        ``clear_weather``)."""
        self._limit_every_route = (retry_after, retry_after if callbacks is None else callbacks)

    def clear_weather(self) -> None:
        """End ``slow_down`` and ``rate_limit_every_route``."""
        self._slow.clear()
        self._limit_every_route = None
        self._limited_once.clear()

    def delay_for(self, method: str, path: str, *, uploads: bool) -> float:
        """How long ``slow_down`` makes this request wait."""
        key = f"{method} {path}"
        slow = (seconds for pattern, seconds, only in self._slow if pattern.search(key) and (uploads or not only))
        return max(slow, default=0.0)

    def hold(self, route_substring: str, count: int = 1, *, after_effect: bool = False) -> Hold:
        """Keep the next ``count`` requests whose "METHOD /api/v10/path" contains ``route_substring`` waiting.

        The test then releases them (a slow network) or drops them (the bot died while they were in flight).
        With ``after_effect``, Discord does what they ask at once and holds only its answer (the bot dies after
        Discord took the request, before it heard back).
        """
        hold = Hold(self, route_substring, count, after_effect=after_effect)
        self.holds.append(hold)
        return hold

    def take_hold(self, method: str, path: str) -> Hold | None:
        """The hold that catches this request, if any."""
        return next((h for h in self.holds if h.matches(method, path)), None)

    def inject_500_on_next_callback(self, count: int = 1) -> None:
        """Answer the next ``count`` interaction callbacks with 500 (not acknowledging them)."""
        self._callback_500s += count

    def take_callback_500(self) -> bool:
        """Consume one injected callback 500, if any."""
        if self._callback_500s:
            self._callback_500s -= 1
            return True
        return False

    async def drop_gateway(self) -> None:
        """Drop every Gateway connection (close 4000, resumable); the bot must come back with RESUME."""
        self._resume_count_at_drop = self.resume_count
        for connection in list(self.connections):
            await connection.close(4000, "Connection dropped by the test.")

    def hold_gateway(self) -> None:
        """Leave every IDENTIFY and RESUME unanswered until ``release_gateway``: a bot whose connection drops
        (``drop_gateway``) connects again but stays without a session, as in an outage of Discord's Gateway."""
        self.gateway_open.clear()

    def release_gateway(self) -> None:
        """Answer the IDENTIFY and RESUME held by ``hold_gateway``, and every one after."""
        self.gateway_open.set()

    def request_reconnect(self) -> None:
        """Send RECONNECT (op 7) on every connection: the bot must reconnect and RESUME."""
        self._resume_count_at_drop = self.resume_count
        for connection in self.connections:
            connection.send({"op": Op.RECONNECT, "d": None, "s": None, "t": None})

    def invalidate_sessions(self) -> None:
        """Send INVALID_SESSION (op 9, not resumable) to every session: the bot must IDENTIFY anew."""
        for session in self.sessions:
            if session.connection is not None:
                session.connection.send({"op": Op.INVALID_SESSION, "d": False, "s": None, "t": None})
            session.ended = True

    async def wait_for_resume(self, timeout: float = 10.0) -> None:
        """Wait until a session has RESUMEd since the last ``drop_gateway``."""
        await self.wait_for(lambda: self.resume_count > self._resume_count_at_drop, timeout, what="a RESUME")

    def close_on_identify(self, code: int) -> None:
        """Close the next IDENTIFYing connections with this Gateway close code (e.g. 4014 disallowed intents)."""
        self.identify_close_code = code


LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")


def bot_address(host: str) -> str:
    """Where the bot, on this machine, reaches a server listening on ``host``: the loopback of that family when it
    listens on every address, else that one address (an IPv6 one in brackets)."""
    if host in ("0.0.0.0", "", "127.0.0.1", "localhost"):
        return "127.0.0.1"
    if host in ("::", "::1"):
        return "[::1]"
    return f"[{host}]" if ":" in host else host


def command_line(data: dict[str, Any]) -> str:
    """``/name sub`` for the data of a slash command (its subcommand group and subcommand, no option values)."""
    words = [data.get("name", "")]
    options = data.get("options") or []
    while options and options[0].get("type") in (1, 2):
        words.append(options[0]["name"])
        options = options[0].get("options") or []
    return "/" + " ".join(words)


def interaction_metadata(res: InteractionResult) -> dict[str, Any]:
    """A message's ``interaction_metadata``: the interaction that made it, with the installs that authorised it."""
    metadata: dict[str, Any] = {
        "id": str(res.id),
        "type": res.type,
        "user": res.member.user_json(),
        "authorizing_integration_owners": res.payload.get("authorizing_integration_owners", {}),
    }
    if res.type == InteractionType.MESSAGE_COMPONENT and res.source is not None:
        metadata["interacted_message_id"] = str(res.source.id)
    if res.type == InteractionType.MODAL_SUBMIT and res.trigger is not None:
        metadata["triggering_interaction_metadata"] = interaction_metadata(res.trigger)
    return metadata


def describe(res: InteractionResult) -> str:
    """A short description of an interaction for failure messages."""
    data = res.payload.get("data", {})
    what = f"/{data['name']}" if "name" in data else f"component {data.get('custom_id')}"
    return f"{what} by {res.member.name} in #{res.channel.name or 'DM'}"
