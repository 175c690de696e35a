"""LocalDiscord: a local Discord (HTTP API + Gateway) that the unmodified bot connects to, plus the test driver API.

It is the world (``World``: guilds, channels, members, installs, commands) served over HTTP (``routes``) and the
Gateway (``gateway``), composed of parts that each own one thing: ``Changes`` (waking waiters, telling observers,
recording failures), ``MessageStore`` (messages and files), ``Client`` (what members do, sent as interactions),
``Weather`` (the faults a test injects) and ``Cdn`` (signed file URLs). Its public face is theirs: ``fake.slash``
is ``fake.client.slash``, ``fake.messages`` is ``fake.store.messages``, and so on.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import Callable
from typing import Any

from aiohttp import web

from localdiscord.cdn import Cdn
from localdiscord.changes import Changes
from localdiscord.client import Client
from localdiscord.gateway import Connection, Op, Session, SessionStarts, handle_gateway
from localdiscord.guild import MEMBER_NAMES, Channel
from localdiscord.interactions import describe, now
from localdiscord.routes import ApiParts, build_app
from localdiscord.state import World
from localdiscord.store import MessageStore
from localdiscord.weather import Weather

DEFAULT_DEADLINE = 3.0


class LocalDiscord(World):
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
        changes = Changes()
        super().__init__(
            changes, channels=channels, guilds=guilds, shards=shards, member_names=member_names, guild_name=guild_name
        )
        self.token = token
        self.requests: list[dict[str, Any]] = []
        self._runner: web.AppRunner | None = None
        self._gateway_settings(shards, max_concurrency, privileged_intents)
        env_deadline = os.environ.get("FAKE_DISCORD_DEADLINE")
        # A loaded machine may raise the deadline through the environment, never lower it.
        deadline = max(
            response_deadline if response_deadline is not None else DEFAULT_DEADLINE,
            float(env_deadline) if env_deadline else 0.0,
        )
        self.cdn = Cdn(self)
        """Signs the files' URLs and serves them to who may have them."""
        self.store = MessageStore(self, self.cdn, changes)
        self.weather = Weather(changes)
        self.client = Client(
            self, self.store, self.cdn, changes, sessions_for=self._interaction_sessions, response_deadline=deadline
        )
        self._show(changes)

    def _gateway_settings(self, shards: int, max_concurrency: int | None, privileged_intents: int) -> None:
        self.shard_count = shards
        """The shard count /gateway/bot recommends; guild ``i`` is made to fall on shard ``i % shards``."""
        self.session_starts = SessionStarts(max_concurrency)
        """Discord's limits on IDENTIFY (``max_concurrency``: enforced only when given) and what was identified."""
        self.duplicate_interactions = False
        """Deliver every interaction to every connected session, whatever its shard (a duplicated delivery)."""
        self.privileged_intents = privileged_intents
        self.identify_close_code: int | None = None
        self.heartbeat_interval = 41.25
        """Seconds between a bot's heartbeats, as HELLO tells it (Discord's is 41.25 s)."""
        self.round_trip = 0.05
        """Seconds a HEARTBEAT_ACK takes to reach the bot, as over a network (see ``gateway``)."""
        self.identify_deadline = 20.0
        """Seconds a Gateway connection has to IDENTIFY (or RESUME) before it is closed with 4009."""
        self.sessions: list[Session] = []
        self.connections: list[Connection] = []
        self.ready_count = 0
        self.resume_count = 0
        self.gateway_open = asyncio.Event()
        """Cleared by ``hold_gateway``: IDENTIFY and RESUME wait for it (a Gateway outage)."""
        self.gateway_open.set()
        self._resume_count_at_drop = 0

    def _show(self, changes: Changes) -> None:
        """The parts' methods and records, on the fake itself as the tests, the benches and the web client use them
        (each is the part's own: change a part's behaviour in the part)."""
        self.changes = changes
        self.observers = self.changes.observers
        self.failures = self.changes.failures
        self.tolerated = self.changes.tolerated
        self.rejections = self.changes.rejections
        self.notify = self.changes.notify
        self.message_changed = self.changes.message_changed
        self.fail = self.changes.fail
        self.tolerate = self.changes.tolerate
        self.wait_for = self.changes.wait_for
        self.messages = self.store.messages
        self.messages_seen_by = self.store.messages_seen_by
        self.ephemerals = self.store.ephemerals
        self.message = self.store.message
        self.wait_for_message = self.store.wait_for_message
        self.attachment_bytes = self.store.attachment_bytes
        self.create_message = self.store.create_message
        self.edit_message = self.store.edit_message
        self.store_upload = self.store.store_upload
        self.delete_message = self.store.delete_message
        self.remove_message = self.store.remove_message
        self.adopt_message = self.store.adopt_message
        self.interactions = self.client.interactions
        self.slash = self.client.slash
        self.autocomplete = self.client.autocomplete
        self.click = self.client.click
        self.select = self.client.select
        self.submit_modal = self.client.submit_modal
        self.offered = self.client.offered
        self.hold = self.weather.hold
        self.inject_429 = self.weather.inject_429
        self.slow_down = self.weather.slow_down
        self.rate_limit_every_route = self.weather.rate_limit_every_route
        self.clear_weather = self.weather.clear_weather
        self.inject_500_on_next_callback = self.weather.inject_500_on_next_callback

    @property
    def response_deadline(self) -> float:
        """Seconds the bot has to answer an interaction before Discord gives up on it."""
        return self.client.response_deadline

    # -- lifecycle ---------------------------------------------------------------------------------------------

    async def start(
        self, host: str = "127.0.0.1", port: int = 0, *, extend: Callable[[web.Application], None] | None = None
    ) -> LocalDiscord:
        """Listen on ``host``:``port`` (default: 127.0.0.1, a free port); sets ``base_url``, which the bot on this
        machine uses. ``extend`` may add routes (the web client) before the server starts."""
        parts = ApiParts(self, self.store, self.client, self.cdn, self, self.weather, self.changes, self.requests)
        app = build_app(parts)
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

    def forget_history(self) -> None:
        """Drop every message, upload, finished interaction and logged request (a long benchmark keeps its memory
        flat; the bot's own state is not touched)."""
        self.store.forget()
        self.client.forget()
        self.requests.clear()

    # -- the Gateway -------------------------------------------------------------------------------------------

    @property
    def resume_gateway_url(self) -> str:
        """Where READY tells the bot to RESUME (a distinct path, so tests can see it was used)."""
        return self.base_url.replace("http://", "ws://", 1) + "/gateway/resume"

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

    def _interaction_sessions(self, guild_id: int | None) -> list[Session]:
        if self.duplicate_interactions:
            return [s for s in self.sessions if s.connection is not None and not s.ended]
        return self._target_sessions(guild_id)

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
