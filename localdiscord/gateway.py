"""The Gateway websocket: HELLO, heartbeats, IDENTIFY (with a shard pair or not) → READY + GUILD_CREATE for the
shard's guilds, RESUME, and dispatches. A connection that has not identified within ``identify_deadline`` is closed
with 4009 (Session timed out): Discord publishes no figure for it, and it never keeps one open for ever.

Session starts are limited as Discord limits them (``SessionStarts``): with ``max_concurrency`` (GET /gateway/bot),
shards identify in buckets ``shard_id % max_concurrency``, each bucket once per 5 seconds, whichever process sends
them; one sooner is answered with INVALID_SESSION (op 9), as Discord's documentation says. A session that would
hold more guilds than a shard may closes with 4011 (sharding required), a shard outside its count with 4010, a
second IDENTIFY on one connection with 4005.
"""

from __future__ import annotations

import asyncio
import collections
import json
import secrets
import time
import zlib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from aiohttp import WSCloseCode, WSMsgType, web

from localdiscord.limits import GATEWAY_EVENTS_PER_MINUTE, GATEWAY_FRAME_LIMIT, RateLimit, foreign_origin, parse_json
from localdiscord.responses import DiscordError

if TYPE_CHECKING:
    from localdiscord.guild import Guild, Member


class Op:
    """Gateway opcodes."""

    DISPATCH = 0
    HEARTBEAT = 1
    IDENTIFY = 2
    PRESENCE_UPDATE = 3
    VOICE_STATE_UPDATE = 4
    RESUME = 6
    RECONNECT = 7
    REQUEST_GUILD_MEMBERS = 8
    INVALID_SESSION = 9
    HELLO = 10
    HEARTBEAT_ACK = 11


# Intents Discord refuses (close 4014) unless enabled in the developer portal: members, presences, message content.
PRIVILEGED_INTENTS = (1 << 1) | (1 << 8) | (1 << 15)
GUILD_MEMBERS_INTENT = 1 << 1
HISTORY_LIMIT = 10_000
IDENTIFY_INTERVAL_S = 5.0
"""Each rate-limit bucket of shards may IDENTIFY once in this many seconds."""
SESSION_STARTS_PER_DAY = 1000
GUILDS_PER_SHARD = 2500
"""Discord's most for one session: a session that would hold more closes with 4011 (sharding required)."""


@dataclass
class SessionStarts:
    """Discord's limits on starting sessions: the buckets' identify rate, the day's count, the guilds per shard.

    ``max_concurrency`` None: reported as 1 but not enforced (most tests restart a bot at will)."""

    max_concurrency: int | None = None
    guilds_per_shard: int = GUILDS_PER_SHARD
    remaining: int = SESSION_STARTS_PER_DAY
    identifies: collections.deque[tuple[float, int | None]] = field(
        default_factory=lambda: collections.deque(maxlen=HISTORY_LIMIT)
    )
    """The IDENTIFYs that started a session: when (monotonic) and for which shard (None: not sharded)."""
    _buckets: RateLimit = field(default_factory=lambda: RateLimit(1, IDENTIFY_INTERVAL_S))

    def limit(self) -> dict[str, int]:
        """The ``session_start_limit`` object of GET /gateway/bot."""
        day_ms = 86_400_000
        return {
            "total": SESSION_STARTS_PER_DAY,
            "remaining": self.remaining,
            "reset_after": day_ms,
            "max_concurrency": self.max_concurrency or 1,
        }

    def bucket(self, shard_id: int) -> int:
        """The rate-limit key of a shard (``shard_id % max_concurrency``)."""
        return shard_id % (self.max_concurrency or 1)

    def too_soon(self, shard_id: int) -> str | None:
        """Why an IDENTIFY of ``shard_id`` now breaks the identify rate, else None (and it counts)."""
        if self.max_concurrency is None:
            return None
        bucket = self.bucket(shard_id)
        if self._buckets.take(bucket):
            return None
        last = max((at for at, shard in self.identifies if self.bucket(shard or 0) == bucket), default=0.0)
        return (
            f"IDENTIFY of shard {shard_id} {time.monotonic() - last:.2f} s after the last in its bucket {bucket} "
            f"(max_concurrency {self.max_concurrency}: one per {IDENTIFY_INTERVAL_S:g} s)"
        )

    def started(self, shard: int | None) -> None:
        """A session started."""
        self.remaining = max(0, self.remaining - 1)
        self.identifies.append((time.monotonic(), shard))


class GatewayHost(Protocol):
    """What the Gateway reads and counts of the local Discord (``LocalDiscord`` is one): its settings, the bot's
    identity and guilds, the sessions and connections it keeps."""

    token: str
    hosting: bool
    heartbeat_interval: float
    round_trip: float
    identify_deadline: float
    identify_close_code: int | None
    privileged_intents: int
    gateway_open: asyncio.Event
    session_starts: SessionStarts
    sessions: list[Session]
    connections: list[Connection]
    ready_count: int
    resume_count: int
    guilds: list[Guild]
    bot_user: Member
    application_id: int
    application_flags: int

    @property
    def resume_gateway_url(self) -> str:
        """Where READY tells the bot to RESUME."""
        ...

    def fail(self, problem: str) -> bool:
        """Record something Discord would have refused."""
        ...

    def notify(self) -> None:
        """Wake the waiters after a change."""
        ...


class Shards(Protocol):
    """The Gateway as the HTTP API sees it: how many shards, who identified, and dispatching an event."""

    shard_count: int
    session_starts: SessionStarts

    def broadcast(self, event: str, data: dict[str, Any], *, guild_id: int | None = None) -> None:
        """Dispatch an event to the sessions of the shard owning ``guild_id``."""
        ...


class GatewaySocket(web.WebSocketResponse):
    """The Gateway's websocket: a client frame over Discord's limit is refused before it is buffered, and the
    connection closed as Discord closes it (4002), not with the websocket's own "message too big" (1009)."""

    def __init__(self) -> None:
        # aiohttp refuses a frame of max_msg_size bytes or more; Discord takes up to 4,096.
        super().__init__(autoping=True, max_msg_size=GATEWAY_FRAME_LIMIT + 1)

    async def close(self, *, code: int = WSCloseCode.OK, message: bytes = b"", drain: bool = True) -> bool:
        """Close; a frame too big becomes Discord's 4002."""
        if code == WSCloseCode.MESSAGE_TOO_BIG:
            code, message = 4002, b"Payload too large."
        return await super().close(code=code, message=message, drain=drain)


class Connection:
    """One websocket. A single writer task sends frames in order, so dispatching never awaits."""

    def __init__(self, ws: web.WebSocketResponse, *, compress: bool) -> None:
        self.ws = ws
        self.closed_by_server = False
        self.events = RateLimit(GATEWAY_EVENTS_PER_MINUTE, 60.0)
        self._compressor = zlib.compressobj() if compress else None
        self._queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self._writer = asyncio.create_task(self._write())
        self._closing: asyncio.Future[None] | None = None

    def send(self, frame: dict[str, Any]) -> None:
        """Queue a frame for sending."""
        self._queue.put_nowait(frame)

    async def _write(self) -> None:
        while True:
            frame = await self._queue.get()
            text = json.dumps(frame)
            if self.ws.closed:
                return
            try:
                if self._compressor is None:
                    await self.ws.send_str(text)
                else:
                    # zlib-stream: one shared context; every message ends with a Z_SYNC_FLUSH marker.
                    data = self._compressor.compress(text.encode()) + self._compressor.flush(zlib.Z_SYNC_FLUSH)
                    await self.ws.send_bytes(data)
            except ConnectionError:
                return

    def stop_writing(self) -> None:
        """Stop the writer task (the websocket is closing)."""
        self._writer.cancel()

    def close_soon(self, code: int, message: str = "") -> None:
        """Close the websocket with a Gateway close code, from a callback (not a coroutine)."""
        self._closing = asyncio.ensure_future(self.close(code, message))

    async def close(self, code: int, message: str = "") -> None:
        """Close the websocket with a Gateway close code."""
        self.closed_by_server = True
        self.stop_writing()
        await self.ws.close(code=code, message=message.encode())


class Session:
    """An identified Gateway session. It outlives its connection so that RESUME can replay missed events."""

    def __init__(self, intents: int, shard: tuple[int, int] | None = None) -> None:
        self.id = secrets.token_hex(16)
        self.intents = intents
        self.shard = shard
        """``(shard_id, shard_count)`` from IDENTIFY; None: not sharded, every guild."""
        self.seq = 0
        self.history: collections.deque[dict[str, Any]] = collections.deque(maxlen=HISTORY_LIMIT)
        self.connection: Connection | None = None
        # The bot closed it on purpose (1000/1001, or after INVALID_SESSION): it can never be resumed.
        self.ended = False
        self.online: list[list[float]] = []
        """When it was connected: ``[since, until]`` (monotonic) for each connection, ``until`` inf while it is."""

    def went_online(self) -> None:
        """READY or RESUMED was sent: connected from now."""
        self.online.append([time.monotonic(), float("inf")])

    def went_offline(self) -> None:
        """Its connection closed."""
        if self.online and self.online[-1][1] == float("inf"):
            self.online[-1][1] = time.monotonic()

    def owns(self, guild_id: int | None) -> bool:
        """Whether Discord sends this session the events of ``guild_id`` (DMs go to shard 0)."""
        if self.shard is None:
            return True
        shard_id, count = self.shard
        return ((guild_id or 0) >> 22) % count == shard_id

    def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Send (or, while disconnected, keep for the RESUME replay) one DISPATCH event."""
        self.seq += 1
        frame = {"op": Op.DISPATCH, "t": event, "s": self.seq, "d": data}
        self.history.append(frame)
        if self.connection is not None:
            self.connection.send(frame)

    def replay_after(self, seq: int) -> bool:
        """Resend everything after ``seq``; False if that part of the history is gone."""
        if self.history and self.history[0]["s"] > seq + 1:
            return False
        assert self.connection is not None
        for frame in self.history:
            if frame["s"] > seq:
                self.connection.send(frame)
        return True


async def handle_gateway(fake: GatewayHost, request: web.Request) -> web.WebSocketResponse:
    """Serve one Gateway websocket connection until it closes."""
    if foreign_origin(request, hosting=fake.hosting):
        raise web.HTTPForbidden(text="Cross-site request refused.")
    ws = GatewaySocket()
    await ws.prepare(request)
    if request.query.get("encoding", "json") != "json" or request.query.get("compress") not in (None, "zlib-stream"):
        fake.fail(f"Gateway: unsupported connection parameters {dict(request.query)}")
        await ws.close(code=4002, message=b"Decode error")
        return ws
    connection = Connection(ws, compress=request.query.get("compress") == "zlib-stream")
    fake.connections.append(connection)
    connection.send(
        {"op": Op.HELLO, "d": {"heartbeat_interval": round(fake.heartbeat_interval * 1000)}, "s": None, "t": None}
    )
    session: Session | None = None
    # A connection that never identifies is closed, as Discord closes it (4009), rather than held open for ever.
    deadline = asyncio.get_running_loop().call_later(
        fake.identify_deadline, connection.close_soon, 4009, "Session timed out."
    )
    try:
        async for msg in ws:
            if msg.type not in (WSMsgType.TEXT, WSMsgType.BINARY):
                break
            if not connection.events.take(None):
                await connection.close(4008, "Rate limited.")
                break
            frame = _frame(msg.data)
            if frame is None:
                await connection.close(4002, "Decode error.")
                break
            if session is None and frame.get("op") not in (Op.HEARTBEAT, Op.IDENTIFY, Op.RESUME):
                await connection.close(4003, "Not authenticated.")
                break
            session = await _handle_frame(fake, connection, session, frame) or session
            if session is not None:
                deadline.cancel()
    finally:
        deadline.cancel()
        fake.connections.remove(connection)
        if session is not None and session.connection is connection:
            session.connection = None
            session.ended = not connection.closed_by_server and ws.close_code in (1000, 1001)
            session.went_offline()
        connection.stop_writing()
        fake.notify()
    return ws


def _frame(data: str | bytes) -> dict[str, Any] | None:
    """A client's payload, or None when it is not a JSON object (Discord closes with 4002)."""
    try:
        frame = parse_json(data)
    except DiscordError:
        return None
    return frame if isinstance(frame, dict) else None


async def _handle_frame(
    fake: GatewayHost, connection: Connection, session: Session | None, frame: dict[str, Any]
) -> Session | None:
    op, data = frame.get("op"), frame.get("d")
    if op == Op.HEARTBEAT:
        # As over a network: discord.py notes a heartbeat as sent only once its send has returned, in its keep-alive
        # thread, so an ACK answered within microseconds on this machine overtakes that note and reads as a whole
        # interval late ("Can't keep up, … 41.3 s behind", every heartbeat).
        ack = {"op": Op.HEARTBEAT_ACK, "d": None, "s": None, "t": None}
        asyncio.get_running_loop().call_later(fake.round_trip, connection.send, ack)
    elif op in (Op.IDENTIFY, Op.RESUME):
        if not isinstance(data, dict):
            await connection.close(4002, "Decode error.")
            return None
        if session is not None:
            fake.fail(f"Gateway: op {op} on a connection that already has a session")
            await connection.close(4005, "Already authenticated.")
            return None
        await fake.gateway_open.wait()
        return await (_identify if op == Op.IDENTIFY else _resume)(fake, connection, data)
    elif op in (Op.PRESENCE_UPDATE, Op.VOICE_STATE_UPDATE, Op.REQUEST_GUILD_MEMBERS):
        pass  # accepted, nothing to model
    else:
        fake.fail(f"Gateway: unknown opcode {op}")
        await connection.close(4001, "Unknown opcode")
    return None


async def _identify(fake: GatewayHost, connection: Connection, data: dict[str, Any]) -> Session | None:
    if data.get("token") != fake.token:
        await connection.close(4004, "Authentication failed.")
        return None
    intents = data.get("intents", 0)
    if type(intents) is not int:
        await connection.close(4013, "Invalid intent(s).")
        return None
    close_code = fake.identify_close_code
    if close_code is None and intents & PRIVILEGED_INTENTS & ~fake.privileged_intents:
        close_code = 4014
    if close_code is not None:
        await connection.close(close_code, "Disallowed intent(s)." if close_code == 4014 else "Closed by the test.")
        return None
    shard = data.get("shard")
    if shard is not None and not (
        isinstance(shard, list) and len(shard) == 2 and 0 <= shard[0] < shard[1] and all(type(n) is int for n in shard)
    ):
        fake.fail(f"Gateway: invalid shard {shard!r} in IDENTIFY")
        await connection.close(4010, "Invalid shard.")
        return None
    session = Session(intents, (shard[0], shard[1]) if shard is not None else None)
    guilds = [g for g in fake.guilds if session.owns(g.id)]
    if len(guilds) > fake.session_starts.guilds_per_shard:
        await connection.close(4011, "Sharding required.")
        return None
    too_soon = fake.session_starts.too_soon(shard[0] if shard is not None else 0)
    if too_soon is not None:
        fake.fail(f"Gateway: {too_soon}")
        connection.send({"op": Op.INVALID_SESSION, "d": False, "s": None, "t": None})
        return None
    fake.session_starts.started(shard[0] if shard is not None else None)
    session.connection = connection
    fake.sessions.append(session)
    ready: dict[str, Any] = {
        "v": 10,
        "user": fake.bot_user.user_json() | {"verified": True, "mfa_enabled": False, "email": None},
        "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
        "session_id": session.id,
        "session_type": "normal",
        "resume_gateway_url": fake.resume_gateway_url,
        "application": {"id": str(fake.application_id), "flags": fake.application_flags},
        "private_channels": [],
        "relationships": [],
        "presences": [],
        "guild_join_requests": [],
        "geo_ordered_rtc_regions": ["local"],
        "user_settings": {},
        "auth": {},
        "_trace": ['["fake-discord-gateway",{"micros":0}]'],
    }
    if shard is not None:
        ready["shard"] = shard
    session.dispatch("READY", ready)
    session.went_online()
    for guild in guilds:
        session.dispatch("GUILD_CREATE", guild.to_json(include_members=bool(intents & GUILD_MEMBERS_INTENT)))
    fake.ready_count += 1
    fake.notify()
    return session


async def _resume(fake: GatewayHost, connection: Connection, data: dict[str, Any]) -> Session | None:
    session = next((s for s in fake.sessions if s.id == data.get("session_id")), None)
    if session is None or data.get("token") != fake.token:
        connection.send({"op": Op.INVALID_SESSION, "d": False, "s": None, "t": None})
        return None
    if session.connection is not None:
        # A session lives on one connection; Discord drops the stale one.
        await session.connection.close(4000, "Session resumed elsewhere.")
    session.connection = connection
    seq = data.get("seq") or 0
    if type(seq) is not int or not session.replay_after(seq):
        session.connection = None
        connection.send({"op": Op.INVALID_SESSION, "d": False, "s": None, "t": None})
        return None
    session.dispatch("RESUMED", {"_trace": ['["fake-discord-gateway",{"micros":0}]']})
    session.went_online()
    fake.resume_count += 1
    fake.notify()
    return session
