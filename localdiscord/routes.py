"""The HTTP API routes discord.py uses, answering as Discord does, and the middleware that logs every request."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from aiohttp import web

from localdiscord.answers import InteractionAnswers, edited, uploaded
from localdiscord.edge import API, BODY, FILES, ApiEdge, Handler, snowflake
from localdiscord.events import changed, check_event, new_event
from localdiscord.guild import Channel, ChannelType, Guild, Perm
from localdiscord.limits import REQUEST_LIMIT
from localdiscord.messages import Message
from localdiscord.responses import DiscordError, json_response
from localdiscord.validation import check_commands, check_message

if TYPE_CHECKING:
    from localdiscord.cdn import Cdn
    from localdiscord.changes import Changes
    from localdiscord.client import Client
    from localdiscord.gateway import Shards
    from localdiscord.state import World
    from localdiscord.store import MessageStore
    from localdiscord.weather import Weather


@dataclass(frozen=True)
class ApiParts:
    """What the HTTP API serves and changes: the world, its messages, the interactions, the Gateway's shards, and
    what the tests inject."""

    world: World
    store: MessageStore
    client: Client
    cdn: Cdn
    shards: Shards
    weather: Weather
    changes: Changes
    requests: list[dict[str, Any]]
    """Every request the bot made, as logged (see ``ApiEdge``)."""


def build_app(parts: ApiParts) -> web.Application:
    """The aiohttp application: the API routes behind the logging/fault-injection middleware."""
    api = HttpApi(parts)
    answers = InteractionAnswers(parts.world, parts.store, parts.client, parts.cdn, parts.weather, parts.changes)
    edge = ApiEdge(
        parts.world, parts.client, parts.weather, parts.changes, parts.requests, takes_a_list=(api.put_commands,)
    )
    app = web.Application(middlewares=[edge.middleware], client_max_size=REQUEST_LIMIT)
    routes: list[tuple[str, str, Handler]] = [
        ("GET", "/users/@me", api.get_me),
        ("GET", "/users/{user_id}", api.get_user),
        ("POST", "/users/@me/channels", api.create_dm),
        ("GET", "/oauth2/applications/@me", api.get_application),
        ("GET", "/gateway", api.get_gateway),
        ("GET", "/gateway/bot", api.get_gateway_bot),
        ("GET", "/applications/{app_id}/commands", api.get_commands),
        ("PUT", "/applications/{app_id}/commands", api.put_commands),
        ("GET", "/applications/{app_id}/guilds/{guild_id}/commands", api.get_commands),
        ("PUT", "/applications/{app_id}/guilds/{guild_id}/commands", api.put_commands),
        ("POST", "/interactions/{interaction_id}/{token}/callback", answers.callback),
        ("POST", "/webhooks/{app_id}/{token}", answers.followup),
        ("GET", "/webhooks/{app_id}/{token}/messages/{message_id}", answers.get_webhook_message),
        ("PATCH", "/webhooks/{app_id}/{token}/messages/{message_id}", answers.edit_webhook_message),
        ("DELETE", "/webhooks/{app_id}/{token}/messages/{message_id}", answers.delete_webhook_message),
        ("GET", "/channels/{channel_id}", api.get_channel),
        ("PATCH", "/channels/{channel_id}", api.edit_channel),
        ("GET", "/channels/{channel_id}/messages", api.list_messages),
        ("POST", "/channels/{channel_id}/messages", api.create_message),
        ("GET", "/channels/{channel_id}/messages/{message_id}", api.get_message),
        ("PATCH", "/channels/{channel_id}/messages/{message_id}", api.edit_message),
        ("DELETE", "/channels/{channel_id}/messages/{message_id}", api.delete_message),
        ("POST", "/channels/{channel_id}/messages/{message_id}/threads", api.thread_from_message),
        ("POST", "/channels/{channel_id}/threads", api.create_thread),
        ("PUT", "/channels/{channel_id}/thread-members/{user_id}", api.thread_member),
        ("DELETE", "/channels/{channel_id}/thread-members/{user_id}", api.thread_member),
        ("GET", "/guilds/{guild_id}/scheduled-events", api.list_events),
        ("POST", "/guilds/{guild_id}/scheduled-events", api.create_event),
        ("GET", "/guilds/{guild_id}/scheduled-events/{event_id}", api.get_event),
        ("PATCH", "/guilds/{guild_id}/scheduled-events/{event_id}", api.edit_event),
        ("DELETE", "/guilds/{guild_id}/scheduled-events/{event_id}", api.delete_event),
    ]
    for method, path, handler in routes:
        app.router.add_route(method, API + path, handler)
    return app


class ScheduledEvents:
    """``/guilds/{guild_id}/scheduled-events``: the bot plans events in the guilds it is in, with Create Events
    (or Manage Events); each change is dispatched on the Gateway and kept in the world."""

    world: World
    shards: Shards

    def _guild(self, request: web.Request) -> Guild:
        guild = next((g for g in self.world.guilds if g.id == snowflake(request, "guild_id")), None)
        if guild is None:
            raise DiscordError(404, 10004, "Unknown Guild")
        return guild

    def _event(self, request: web.Request) -> tuple[Guild, dict[str, Any]]:
        guild = self._guild(request)
        event = guild.scheduled_events.get(snowflake(request, "event_id"))
        if event is None:
            raise DiscordError(404, 10070, "Unknown Guild Scheduled Event")
        return guild, event

    def _may_plan(self, guild: Guild) -> None:
        perms = guild.bot_member.permissions
        if not perms & (Perm.CREATE_EVENTS | Perm.MANAGE_EVENTS | Perm.ADMINISTRATOR):
            raise DiscordError(403, 50013, "Missing Permissions")

    def _changed(self, guild: Guild, event: dict[str, Any], kind: str) -> web.Response:
        self.shards.broadcast(f"GUILD_SCHEDULED_EVENT_{kind}", event, guild_id=guild.id)
        self.world.world_changed()
        return json_response(event)

    async def list_events(self, request: web.Request) -> web.Response:
        """The guild's scheduled events."""
        return json_response(list(self._guild(request).scheduled_events.values()))

    async def get_event(self, request: web.Request) -> web.Response:
        """One scheduled event."""
        return json_response(self._event(request)[1])

    async def create_event(self, request: web.Request) -> web.Response:
        """A new external event, checked as Discord checks it."""
        guild = self._guild(request)
        self._may_plan(guild)
        body = request[BODY]
        check_event(body, existing=None, now=datetime.now(UTC))
        event = new_event(self.world.ids.next(), guild.id, self.world.bot_user.user_json(), body)
        guild.scheduled_events[int(event["id"])] = event
        return self._changed(guild, event, "CREATE")

    async def edit_event(self, request: web.Request) -> web.Response:
        """A change to an event (a new time, a cancellation…)."""
        guild, event = self._event(request)
        self._may_plan(guild)
        body = request[BODY]
        check_event(body, existing=event, now=datetime.now(UTC))
        event = guild.scheduled_events[int(event["id"])] = changed(event, body)
        return self._changed(guild, event, "UPDATE")

    async def delete_event(self, request: web.Request) -> web.Response:
        """The event is gone."""
        guild, event = self._event(request)
        self._may_plan(guild)
        del guild.scheduled_events[int(event["id"])]
        self._changed(guild, event, "DELETE")
        return web.Response(status=204)


class HttpApi(ScheduledEvents):
    """Route handlers bound to one LocalDiscord."""

    def __init__(self, parts: ApiParts) -> None:
        self.world = parts.world
        self.store = parts.store
        self.client = parts.client
        self.cdn = parts.cdn
        self.shards = parts.shards
        self.weather = parts.weather
        self.changes = parts.changes

    # -- users, application, gateway --------------------------------------------------------------------------

    async def get_me(self, request: web.Request) -> web.Response:
        """The bot's own user."""
        return json_response(self.world.bot_user.user_json() | {"verified": True, "mfa_enabled": False, "email": None})

    async def get_user(self, request: web.Request) -> web.Response:
        """Any known user."""
        user = self.world.users.get(snowflake(request, "user_id"))
        if user is None:
            raise DiscordError(404, 10013, "Unknown User")
        return json_response(user.user_json())

    async def create_dm(self, request: web.Request) -> web.Response:
        """Open (or get) the DM channel with a user."""
        user = self.world.users.get(int((request[BODY] or {}).get("recipient_id", 0)))
        if user is None or user.bot:
            raise DiscordError(400, 50007, "Cannot send messages to this user")
        return json_response(self.world.dm_channel(user).to_json())

    async def get_application(self, request: web.Request) -> web.Response:
        """The application behind the bot token."""
        return json_response(
            {
                "id": str(self.world.application_id),
                "name": self.world.bot_user.name,
                "icon": None,
                "description": "",
                "summary": "",
                "type": None,
                "bot_public": True,
                "bot_require_code_grant": False,
                "verify_key": "0" * 64,
                "flags": self.world.application_flags,
                "owner": (self.world.members or [self.world.dm_user])[0].user_json(),
                "team": None,
                "bot": self.world.bot_user.user_json(),
                "hook": True,
                "redirect_uris": [],
                "interactions_endpoint_url": None,
                "rpc_origins": [],
                "tags": [],
                "approximate_guild_count": len(self.world.guilds),
                "integration_types_config": {"0": {}},
            }
        )

    async def get_gateway(self, request: web.Request) -> web.Response:
        """Where the Gateway is."""
        return json_response({"url": self.world.base_url.replace("http://", "ws://", 1) + "/gateway"})

    async def get_gateway_bot(self, request: web.Request) -> web.Response:
        """Where the Gateway is, with the recommended shard count (AutoShardedBot asks this) and the limits on
        starting sessions (``max_concurrency``)."""
        url = self.world.base_url.replace("http://", "ws://", 1) + "/gateway"
        limit = self.shards.session_starts.limit()
        return json_response({"url": url, "shards": self.shards.shard_count, "session_start_limit": limit})

    # -- application commands ---------------------------------------------------------------------------------

    def _command_list(self, request: web.Request) -> tuple[list[dict[str, Any]], int | None]:
        if snowflake(request, "app_id") != self.world.application_id:
            raise DiscordError(403, 50001, "Missing Access")
        if "guild_id" not in request.match_info:
            return self.world.global_commands, None
        guild_id = snowflake(request, "guild_id")
        if all(guild_id != g.id for g in self.world.guilds):
            raise DiscordError(403, 50001, "Missing Access")
        return self.world.guild_commands.get(guild_id, []), guild_id

    async def get_commands(self, request: web.Request) -> web.Response:
        """The synced commands."""
        return json_response(self._command_list(request)[0])

    async def put_commands(self, request: web.Request) -> web.Response:
        """Bulk-overwrite the commands, after Discord's validation; keeps ids of commands that stay."""
        previous, guild_id = self._command_list(request)
        body = request[BODY]
        if not isinstance(body, list):
            raise DiscordError(400, 50035, "Invalid Form Body", {"_errors": [{"code": "LIST_TYPE_CONVERT"}]})
        check_commands(body)
        old_ids = {(c["type"], c["name"]): c["id"] for c in previous}
        synced = [self._normalise_command(c, old_ids, guild_id) for c in body]
        if guild_id is None:
            self.world.global_commands = synced
        else:
            self.world.guild_commands[guild_id] = synced
        self.world.world_changed()
        return json_response(synced)

    def _normalise_command(
        self, command: dict[str, Any], old_ids: dict[tuple[int, str], str], guild_id: int | None
    ) -> dict[str, Any]:
        kind = command.get("type", 1)
        data: dict[str, Any] = {
            "id": old_ids.get((kind, command["name"])) or str(self.world.ids.next()),
            "application_id": str(self.world.application_id),
            "version": str(self.world.ids.next()),
            "type": kind,
            "name": command["name"],
            "name_localizations": command.get("name_localizations"),
            "description": command.get("description", ""),
            "description_localizations": command.get("description_localizations"),
            "default_member_permissions": _text_or_none(command.get("default_member_permissions")),
            "nsfw": bool(command.get("nsfw", False)),
            "integration_types": command.get("integration_types") or [0],
            "contexts": command.get("contexts"),
        }
        if command.get("options"):
            data["options"] = command["options"]
        if guild_id is None:
            data["dm_permission"] = command.get("dm_permission", True)
        else:
            data["guild_id"] = str(guild_id)
        return data

    # -- channels and messages --------------------------------------------------------------------------------

    def _channel(self, request: web.Request) -> Channel:
        channel = self.world.channel(snowflake(request, "channel_id"))
        if channel is None:
            raise DiscordError(404, 10003, "Unknown Channel")
        if not self.world.bot_sees(channel):
            # A server without the bot, a DM or group DM between users: a member's install answers interactions
            # there, through them alone; the bot can neither read nor post.
            raise DiscordError(403, 50001, "Missing Access")
        return channel

    def _require(self, channel: Channel, permissions: int) -> None:
        if self.world.bot_permissions(channel) & permissions != permissions:
            raise DiscordError(403, 50013, "Missing Permissions")

    def _channel_message(self, request: web.Request) -> tuple[Channel, Message]:
        channel = self._channel(request)
        message = self.store.message(snowflake(request, "message_id"))
        if message is None or message.deleted or message.ephemeral or message.channel is not channel:
            raise DiscordError(404, 10008, "Unknown Message")
        return channel, message

    async def get_channel(self, request: web.Request) -> web.Response:
        """A channel, thread or DM."""
        return json_response(self._channel(request).to_json())

    async def edit_channel(self, request: web.Request) -> web.Response:
        """Rename a channel; archive or lock a thread."""
        channel = self._channel(request)
        body = request[BODY] or {}
        if channel.is_dm:
            raise DiscordError(400, 50024, "Cannot execute action on this channel type")
        is_thread = channel.type in ChannelType.THREADS
        self._require(channel, Perm.MANAGE_THREADS if is_thread and set(body) - {"archived"} else Perm.VIEW_CHANNEL)
        if "name" in body:
            if not 1 <= len(body["name"] or "") <= 100:
                raise DiscordError(
                    400, 50035, "Invalid Form Body", {"name": {"_errors": [{"code": "BASE_TYPE_BAD_LENGTH"}]}}
                )
            channel.name = body["name"]
        if is_thread:
            channel.archived = bool(body.get("archived", channel.archived))
            channel.locked = bool(body.get("locked", channel.locked))
        self.shards.broadcast(
            "THREAD_UPDATE" if is_thread else "CHANNEL_UPDATE", channel.to_json(), guild_id=channel.guild_id
        )
        self.world.channel_changed(channel)
        return json_response(channel.to_json())

    async def list_messages(self, request: web.Request) -> web.Response:
        """Channel history, newest first (limit/before/after)."""
        channel = self._channel(request)
        if not channel.is_dm:
            self._require(channel, Perm.VIEW_CHANNEL | Perm.READ_MESSAGE_HISTORY)
        limit = min(max(int(request.query.get("limit", 50)), 1), 100)
        history = self.store.messages(channel)
        if "before" in request.query:
            history = [m for m in history if m.id < int(request.query["before"])]
        if "after" in request.query:
            history = [m for m in history if m.id > int(request.query["after"])][:limit]
        return json_response([self.cdn.for_bot(m.data) for m in reversed(history[-limit:])])

    async def create_message(self, request: web.Request) -> web.Response:
        """The bot posts in a channel it may send to."""
        channel = self._channel(request)
        if channel.recipient is not None and not channel.recipient.accepts_dms:
            raise DiscordError(403, 50007, "Cannot send messages to this user")  # they closed their DMs
        if not channel.is_dm:
            in_thread = channel.type in ChannelType.THREADS
            if channel.archived or channel.locked:
                raise (
                    DiscordError(400, 50083, "Thread is archived")
                    if channel.archived
                    else DiscordError(403, 50013, "Missing Permissions")
                )
            send = Perm.SEND_MESSAGES_IN_THREADS if in_thread else Perm.SEND_MESSAGES
            self._require(channel, Perm.VIEW_CHANNEL | send)
        payload = request[BODY] or {}
        check_message(payload, files=len(request[FILES]))
        nonce = payload.get("nonce")
        if nonce is not None and payload.get("enforce_nonce"):
            # Discord: the same author's message with this nonce in the past few minutes is returned, not made again.
            made = self.store.message_with_nonce(channel, str(nonce))
            if made is not None:
                return json_response(self.cdn.for_bot(made.data) | {"nonce": nonce})
        message = self.store.create_message(
            channel, payload, attachments=uploaded(self.store, request, channel, payload)
        )
        if nonce is not None:
            self.store.remember_nonce(channel, str(nonce), message)
            return json_response(self.cdn.for_bot(message.data) | {"nonce": nonce})
        return json_response(self.cdn.for_bot(message.data))

    async def get_message(self, request: web.Request) -> web.Response:
        """One message."""
        return json_response(self.cdn.for_bot(self._channel_message(request)[1].data))

    async def edit_message(self, request: web.Request) -> web.Response:
        """Edit one of the bot's messages."""
        channel, message = self._channel_message(request)
        if message.author_id != self.world.bot_user_id:
            raise DiscordError(403, 50005, "Cannot edit a message authored by another user")
        return json_response(self.cdn.for_bot(edited(self.store, request, message, channel).data))

    async def delete_message(self, request: web.Request) -> web.Response:
        """Delete a message (the bot's own, or any with Manage Messages)."""
        channel, message = self._channel_message(request)
        if message.author_id != self.world.bot_user_id:
            self._require(channel, Perm.MANAGE_MESSAGES)
        self.store.remove_message(message)
        return web.Response(status=204)

    # -- threads ----------------------------------------------------------------------------------------------

    async def thread_from_message(self, request: web.Request) -> web.Response:
        """Start a public thread on a message (the thread's id is the message's)."""
        channel, message = self._channel_message(request)
        if channel.type != ChannelType.GUILD_TEXT:
            raise DiscordError(400, 50024, "Cannot execute action on this channel type")
        if "thread" in message.data:
            raise DiscordError(400, 160004, "A thread has already been created for this message")
        self._require(channel, Perm.VIEW_CHANNEL | Perm.CREATE_PUBLIC_THREADS)
        thread = self._new_thread(request, channel, message.id, ChannelType.PUBLIC_THREAD)
        message.data["thread"] = thread.to_json()
        self.changes.message_changed(message)
        return json_response(thread.to_json())

    async def create_thread(self, request: web.Request) -> web.Response:
        """Start a thread without a message (private by default, as in API v10)."""
        channel = self._channel(request)
        if channel.type != ChannelType.GUILD_TEXT:
            raise DiscordError(400, 50024, "Cannot execute action on this channel type")
        kind = (request[BODY] or {}).get("type", ChannelType.PRIVATE_THREAD)
        if kind not in ChannelType.THREADS:
            raise DiscordError(400, 50035, "Invalid Form Body", {"type": {"_errors": [{"code": "BASE_TYPE_CHOICES"}]}})
        needed = Perm.CREATE_PUBLIC_THREADS if kind == ChannelType.PUBLIC_THREAD else Perm.CREATE_PRIVATE_THREADS
        self._require(channel, Perm.VIEW_CHANNEL | needed)
        return json_response(self._new_thread(request, channel, self.world.ids.next(), kind).to_json())

    def _new_thread(self, request: web.Request, parent: Channel, thread_id: int, kind: int) -> Channel:
        name = (request[BODY] or {}).get("name") or ""
        if not 1 <= len(name) <= 100:
            raise DiscordError(
                400, 50035, "Invalid Form Body", {"name": {"_errors": [{"code": "BASE_TYPE_BAD_LENGTH"}]}}
            )
        thread = Channel(
            thread_id, name, type=kind, guild_id=parent.guild_id, parent_id=parent.id, owner_id=self.world.bot_user_id
        )
        self.world.threads.append(thread)
        self.shards.broadcast("THREAD_CREATE", thread.to_json() | {"newly_created": True}, guild_id=parent.guild_id)
        self.world.channel_changed(thread)
        return thread

    async def thread_member(self, request: web.Request) -> web.Response:
        """Add someone to, or remove them from, a thread."""
        thread = self._channel(request)
        if thread.type not in ChannelType.THREADS or snowflake(request, "user_id") not in self.world.users:
            raise DiscordError(404, 10003, "Unknown Channel")
        return web.Response(status=204)


def _text_or_none(value: Any) -> str | None:
    """A permission bit set as Discord returns it: a string (it accepts a number too)."""
    return None if value is None else str(value)
