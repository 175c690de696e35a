"""The web client's server side: the page, and one WebSocket per browser tab that shows the local server as a
Discord member sees it and turns what they do (a slash command, a click, a pick, a form) into interactions.

Who is who: a browser is admitted once (a cookie holding a secret of its own; with ``--host`` only after the join
code), then each tab acts as one member that browser made; a tab remembers its member across reloads (the page keeps
it in ``sessionStorage``) and may switch to another of its browser's members ("play as Bob"). Members made in other
browsers stay theirs, so whatever the bot tells one member privately reaches only the tabs acting as that member.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass, field
from importlib.resources import files
from pathlib import Path
from typing import Any

from aiohttp import WSMsgType, web

from localdiscord.door import COOKIE, Door, Refused
from localdiscord.guild import Channel, ChannelType, Member, Role
from localdiscord.interactions import CallbackType, InteractionResult, OptionRejected, find_command, now
from localdiscord.limits import JSON_LIMIT, parse_json
from localdiscord.messages import Message
from localdiscord.responses import DiscordError
from localdiscord.server import LocalDiscord
from localdiscord.uploads import Uploads
from localdiscord.views import Views
from localdiscord.world import WorldFile

log = logging.getLogger(__name__)

STATIC = Path(__file__).with_name("static")
# The colour emoji font the bot draws its pictures with (data/fonts): the page draws emoji with it too, so they show
# on a machine with no emoji font of its own (Debian's Chromium has none).
EMOJI_FONT = Path(str(files("data") / "fonts" / "NotoColorEmoji.ttf"))
HISTORY_PAGE = 100
# A tab that stops reading is dropped (it reconnects and catches up) rather than queueing without end.
MAX_QUEUED = 2000
# The largest request a tab makes is a command with Discord's most options (25) at their longest (6,000
# characters), each character JSON-escaped at worst (6 bytes): about 900 KB. Files go up on their own (uploads.py).
TAB_FRAME_LIMIT = JSON_LIMIT
# A browser plays a table's members in a tab each (``MEMBERS_PER_BROWSER``), and a few more; nobody needs hundreds.
TABS_PER_BROWSER = 16
TABS = 512
TOO_MANY_TABS = "This browser has too many tabs open here: close one, then try again."
NOT_RESPONDING = "The application did not respond"
FAILED = "This interaction failed"


@dataclass(eq=False)
class Tab:
    """One browser tab's connection: who it acts as and its outgoing frames, written in order by one task."""

    ws: web.WebSocketResponse
    client_id: int
    member: Member | None = None
    queue: asyncio.Queue[dict[str, Any] | None] = field(default_factory=asyncio.Queue)

    def send(self, frame: dict[str, Any]) -> None:
        """Queue a frame; a tab too far behind is closed (it reconnects and reloads its view)."""
        if self.queue.qsize() >= MAX_QUEUED:
            self.queue.put_nowait(None)
            return
        self.queue.put_nowait(frame)

    async def write(self) -> None:
        """Send the queued frames until the tab closes or falls too far behind."""
        while (frame := await self.queue.get()) is not None:
            if self.ws.closed:
                return
            with contextlib.suppress(ConnectionError):
                await self.ws.send_json(frame)
        await self.ws.close()


class WebClient:
    """Serves the web client for ``fake`` and keeps every open tab up to date (an Observer of ``fake``)."""

    def __init__(self, fake: LocalDiscord, world: WorldFile, *, join_code: str | None = None) -> None:
        self.fake = fake
        self.world = world
        self.join_code = join_code
        """Needed to join when the server is reachable from other machines (``--host``); None: this machine only."""
        self.tabs: set[Tab] = set()
        self._tasks: set[asyncio.Task[None]] = set()
        self.views = Views(fake)
        self.door = Door(fake, world, join_code)
        self.uploads = Uploads(self.door)
        fake.observers.append(self)
        fake.cdn.viewer = self.door.viewer

    def install(self, app: web.Application) -> None:
        """Add the page, its files, the join endpoint and the tabs' WebSocket to ``app``."""
        app.router.add_get("/", self.index)
        app.router.add_static("/static/", STATIC)
        app.router.add_get("/fonts/emoji.ttf", self.emoji_font)
        app.router.add_post("/client/join", self.door.admit)
        app.router.add_get("/client/ws", self.socket)
        app.router.add_post("/client/upload", self.uploads.receive)

    async def close(self) -> None:
        """Close every tab and stop following interactions."""
        for task in list(self._tasks):
            task.cancel()
        for tab in list(self.tabs):
            await tab.ws.close(code=1001, message=b"The local server is stopping.")

    # -- HTTP ---------------------------------------------------------------------------------------------------

    async def index(self, request: web.Request) -> web.FileResponse:
        """The page."""
        return web.FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    async def emoji_font(self, request: web.Request) -> web.FileResponse:
        """The emoji font (11 MB, fetched once: it never changes while a version of the server runs)."""
        return web.FileResponse(
            EMOJI_FONT, headers={"Cache-Control": "public, max-age=86400", "Content-Type": "font/ttf"}
        )

    async def socket(self, request: web.Request) -> web.WebSocketResponse:
        """One tab's WebSocket: its view of the server, live, and what its member does."""
        if not self.door.same_origin(request):
            raise web.HTTPForbidden(text="Cross-site request refused.")
        # aiohttp refuses a frame of max_msg_size bytes or more, from its header, before reading it.
        ws = web.WebSocketResponse(heartbeat=30, max_msg_size=TAB_FRAME_LIMIT + 1)
        await ws.prepare(request)
        client_id = self.world.client_of(request.cookies.get(COOKIE))
        if client_id is None:
            await ws.send_json({"op": "need_join", "code": self.join_code is not None})
            await ws.close()
            return ws
        if len(self.tabs) >= TABS or sum(t.client_id == client_id for t in self.tabs) >= TABS_PER_BROWSER:
            await ws.send_json({"op": "too_many_tabs", "text": TOO_MANY_TABS})
            await ws.close()
            return ws
        tab = Tab(ws, client_id)
        writer = asyncio.create_task(tab.write())
        self.tabs.add(tab)
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    break
                try:
                    frame = parse_json(msg.data)
                except DiscordError:
                    frame = None
                if not isinstance(frame, dict):
                    tab.send({"op": "refused", "seq": None, "text": "That request could not be read."})
                    continue
                await self._handle(tab, frame)
        finally:
            self.tabs.discard(tab)
            tab.queue.put_nowait(None)
            await writer
        return ws

    # -- what a tab asks ------------------------------------------------------------------------------------------

    async def _handle(self, tab: Tab, frame: dict[str, Any]) -> None:
        op = frame.get("op")
        seq = frame.get("seq")
        try:
            if op == "hello":
                tab.member = self._own_member(tab, frame.get("member"))
                self._send_state(tab)
            elif op == "join":
                tab.member = self.door.new_member(tab.client_id, str(frame.get("name") or ""))
                # Its own browser's tabs get their whole state (one more member to play as); others heard of it.
                for other in self.tabs:
                    if other.client_id == tab.client_id:
                        self._send_state(other)
            elif op == "switch":
                tab.member = self._own_member(tab, frame.get("member"))
                self._send_state(tab)
            elif op == "history":
                self._send_history(tab, self._channel_for(tab, frame.get("channel")), frame.get("before"))
            elif op == "manager":
                self._set_manager(tab, frame.get("member"), bool(frame.get("on")))
            elif op in ("slash", "autocomplete", "click", "select", "modal"):
                await self._interact(tab, op, frame)
            else:
                raise Refused(f"Unknown request {op!r}.")
        except Refused as exc:
            tab.send({"op": "refused", "seq": seq, "text": str(exc)})
        except (TypeError, AttributeError, KeyError, ValueError, OverflowError):
            # A malformed request (this page never sends one): refused, and nothing else to tell.
            log.info("web client: unreadable request %r", op)
            tab.send({"op": "refused", "seq": seq, "text": "That request could not be read."})

    def _own_member(self, tab: Tab, member_id: Any) -> Member | None:
        if member_id is None:
            return None
        mine = self.world.members_of(tab.client_id)
        return next((m for m in self.fake.members if str(m.id) == str(member_id) and m.id in mine), None)

    def _set_manager(self, tab: Tab, member_id: Any, on: bool) -> None:
        target = next((m for m in self.fake.members if str(m.id) == str(member_id)), None)
        if tab.member is None or not self.fake.guild.is_manager(tab.member):
            raise Refused("Only a server manager can make someone a manager.")
        if target is None:
            raise Refused("No such member.")
        if target.id == self.fake.guild.owner_id and not on:
            raise Refused("The server's owner stays a manager.")
        self.fake.guild.set_manager(target, on)
        self.fake.world_changed()

    def _channel_for(self, tab: Tab, channel_id: Any) -> Channel:
        channel = self.fake.channel(int(channel_id)) if str(channel_id).isdigit() else None
        if channel is None or tab.member is None or not self._sees(tab.member, channel):
            raise Refused("That channel is not there.")
        return channel

    def _sees(self, member: Member, channel: Channel) -> bool:
        return not channel.is_dm or (channel.recipient is not None and channel.recipient.id == member.id)

    # -- interactions ---------------------------------------------------------------------------------------------

    async def _interact(self, tab: Tab, op: str, frame: dict[str, Any]) -> None:
        member = tab.member
        if member is None:
            raise Refused("Join first.")
        fake = self.fake
        seq = frame.get("seq")
        try:
            if op in ("slash", "autocomplete"):
                channel = self._channel_for(tab, frame.get("channel"))
                command = " ".join(str(frame.get("command") or "").split())
                options = self._typed_options(tab, channel, command, frame.get("options") or {}, op == "autocomplete")
                if op == "slash":
                    res = await fake.slash(channel, member, command, options)
                else:
                    res = await fake.autocomplete(channel, member, command, str(frame.get("focused")), options)
            elif op == "modal":
                opened = fake.interactions.get(int(frame.get("interaction") or 0))
                if opened is None or opened.member is not member or opened.modal is None:
                    raise Refused("This form has expired.")
                values = {str(k): v for k, v in (frame.get("values") or {}).items()}
                res = await fake.submit_modal(opened, values, member)
            else:
                message = fake.message(int(frame.get("message") or 0))
                if message is None or not self._sees(member, message.channel):
                    raise Refused("That message is gone.")
                custom_id = str(frame.get("custom_id") or "")
                if op == "click":
                    res = await fake.click(message, custom_id, member)
                else:
                    picked = [self._entity(v) for v in frame.get("values") or []]
                    res = await fake.select(message, custom_id, picked, member)
        except (LookupError, ValueError, OptionRejected) as exc:
            raise Refused(str(exc)) from exc
        except RuntimeError as exc:  # no bot connected
            raise Refused("The bot is not connected right now.") from exc
        if res.errors:
            raise Refused(res.errors[0].removeprefix("Discord refused "))
        task = asyncio.create_task(self._follow(tab, res, seq))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _entity(self, value: Any) -> Any:
        """A picked member in a user select becomes the Member (Discord resolves it); anything else stays."""
        return next((m for m in self.fake.members if str(m.id) == str(value)), str(value))

    def _typed_options(
        self, tab: Tab, channel: Channel, command: str, typed: dict[str, Any], partial: bool
    ) -> dict[str, Any]:
        """The options a tab filled in, as ``LocalDiscord.slash`` takes them: members, channels, roles and files
        for those kinds; numbers as numbers. For autocomplete, what can't be read yet is left out."""
        parts = command.split()
        schema = find_command(self.fake.commands_for(channel), parts[0]) if parts else None
        if schema is None:
            raise Refused(f"/{command} is not a command here.")
        options = schema.get("options") or []
        for part in parts[1:]:
            options = next((o.get("options") or [] for o in options if o["name"] == part and o["type"] in (1, 2)), [])
        kinds = {o["name"]: o["type"] for o in options}
        result: dict[str, Any] = {}
        for name, value in typed.items():
            kind = kinds.get(name)
            try:
                if kind == 11 and not partial:  # a file this browser attached (uploads.py), taken once
                    result[name] = self.uploads.take(tab.client_id, str(value["upload"]))
                elif kind == 11:
                    continue
                else:
                    result[name] = self._typed(channel, kind, value)
            except (ValueError, LookupError, TypeError) as exc:
                if not partial:
                    raise Refused(f"{name}: {exc}") from exc
        return result

    def _typed(self, channel: Channel, kind: int | None, value: Any) -> Any:
        guild = self.fake.guild_of(channel) or self.fake.guild
        if kind in (6, 9):  # user, mentionable
            found = next((m for m in guild.members if str(m.id) == str(value)), None)
            if found is None and kind == 9:
                found_role: Role | None = next((r for r in guild.roles if str(r.id) == str(value)), None)
                if found_role is not None:
                    return found_role
            if found is None:
                raise LookupError("pick a member")
            return found
        if kind == 7:
            found_channel = self.fake.channel(int(value)) if str(value).isdigit() else None
            if found_channel is None:
                raise LookupError("pick a channel")
            return found_channel
        if kind == 8:
            role = next((r for r in guild.roles if str(r.id) == str(value)), None)
            if role is None:
                raise LookupError("pick a role")
            return role
        if kind == 4:
            return int(str(value).strip())
        if kind == 10:
            return float(str(value).strip())
        if kind == 5:
            return value is True or str(value).lower() == "true"
        return str(value)

    async def _follow(self, tab: Tab, res: InteractionResult, seq: Any) -> None:
        """Tell the tab how its interaction went: a form to fill in, choices, or that the bot never answered."""
        fake = self.fake
        # A little past the deadline: an answer that arrives late is refused by the API, and counted there.
        remaining = max(0.0, res.deadline - now()) + 0.25
        try:
            await fake.wait_for(lambda: res.response_type is not None or res.errors, remaining, what="the bot")
        except TimeoutError:
            tab.send({"op": "failed", "seq": seq, "text": NOT_RESPONDING})
            return
        if res.errors:
            # What went wrong is the bot's business (the terminal shows it): the page says what Discord's would.
            tab.send({"op": "failed", "seq": seq, "text": FAILED})
            return
        if res.response_type == CallbackType.MODAL and res.modal is not None:
            tab.send({"op": "modal", "seq": seq, "interaction": str(res.id), "modal": res.modal})
        elif res.response_type == CallbackType.AUTOCOMPLETE_RESULT:
            tab.send({"op": "choices", "seq": seq, "choices": (res.response_data or {}).get("choices", [])})
        tab.send({"op": "done", "seq": seq})

    # -- what tabs are told -----------------------------------------------------------------------------------------

    def _send_state(self, tab: Tab) -> None:
        fake = self.fake
        guild = fake.guild
        me = tab.member
        mine = self.world.members_of(tab.client_id)
        channels = [c for c in (*guild.channels, *fake.threads) if not c.archived or c.type == ChannelType.GUILD_TEXT]
        if me is not None and me.id in fake.dm_channels:
            channels.append(fake.dm_channels[me.id])
        tab.send(
            {
                "op": "state",
                "guild": {"id": str(guild.id), "name": guild.name},
                "bot": {"id": str(fake.bot_user_id), "name": fake.bot_user.name},
                "me": None if me is None else self.views.member(me),
                "members": [self.views.member(m) | {"mine": m.id in mine} for m in guild.members],
                "channels": [self.views.channel(c) for c in channels],
                "commands": [] if me is None else self._commands(me, guild.channels[0]),
                "hosting": self.join_code is not None,
            }
        )

    def _commands(self, member: Member, channel: Channel) -> list[dict[str, Any]]:
        """The commands this member sees (Discord hides those needing permissions they lack)."""
        visible = []
        for command in self.fake.commands_for(channel):
            if command.get("type", 1) != 1:
                continue
            required = command.get("default_member_permissions")
            if required is not None and member.permissions & int(required) != int(required):
                continue
            visible.append(command)
        return visible

    def _send_history(self, tab: Tab, channel: Channel, before: Any) -> None:
        assert tab.member is not None
        seen = self.fake.messages_seen_by(channel, tab.member)
        if str(before or "").isdigit():
            seen = [m for m in seen if m.id < int(before)]
        page = seen[-HISTORY_PAGE:]
        tab.send(
            {
                "op": "history",
                "channel": str(channel.id),
                "messages": [self.views.message(m) for m in page],
                "complete": len(page) == len(seen),
            }
        )

    # -- Observer -------------------------------------------------------------------------------------------------

    def message_changed(self, message: Message) -> None:
        """Send the message, as it is now, to every tab whose member may see it."""
        view: dict[str, Any] | None = None
        for tab in self.tabs:
            member = tab.member
            if member is None or not self._sees(member, message.channel):
                continue
            if message.ephemeral and message.viewer_id != member.id:
                continue
            view = view or self.views.message(message)
            tab.send({"op": "message", "message": view})

    def channel_changed(self, channel: Channel) -> None:
        """Send the channel (a new thread, a rename) to every tab that sees it."""
        self.views.forget_names()
        view = self.views.channel(channel)
        for tab in self.tabs:
            if tab.member is not None and self._sees(tab.member, channel):
                tab.send({"op": "channel", "channel": view})

    def member_added(self, member: Member) -> None:
        """Someone joined: every tab hears of them (not its whole state again: joins must stay cheap)."""
        self.views.forget_names()
        view = self.views.member(member) | {"mine": False}
        for tab in self.tabs:
            tab.send({"op": "member", "member": view})

    def world_changed(self) -> None:
        """Members or commands changed: every tab gets its state again."""
        self.views.forget_names()
        for tab in self.tabs:
            self._send_state(tab)
