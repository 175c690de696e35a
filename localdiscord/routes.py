"""The HTTP API routes discord.py uses, answering as Discord does, and the middleware that logs every request."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from aiohttp import web

from localdiscord.edge import API, BODY, FILES, INTERACTION, ApiEdge, Handler
from localdiscord.events import changed, check_event, new_event
from localdiscord.guild import Channel, ChannelType, Guild, Perm
from localdiscord.installs import USER_ONLY_FOLLOWUPS
from localdiscord.interactions import ALLOWED_CALLBACKS, CallbackType, InteractionResult, InteractionType, now
from localdiscord.limits import REQUEST_LIMIT
from localdiscord.messages import LOADING, Message
from localdiscord.responses import DiscordError, error_response, json_response
from localdiscord.validation import FormErrors, check_choices, check_commands, check_message, check_modal

if TYPE_CHECKING:
    from localdiscord.server import LocalDiscord


def build_app(fake: LocalDiscord) -> web.Application:
    """The aiohttp application: the API routes behind the logging/fault-injection middleware."""
    api = HttpApi(fake)
    edge = ApiEdge(fake, takes_a_list=(api.put_commands,))
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
        ("POST", "/interactions/{interaction_id}/{token}/callback", api.callback),
        ("POST", "/webhooks/{app_id}/{token}", api.followup),
        ("GET", "/webhooks/{app_id}/{token}/messages/{message_id}", api.get_webhook_message),
        ("PATCH", "/webhooks/{app_id}/{token}/messages/{message_id}", api.edit_webhook_message),
        ("DELETE", "/webhooks/{app_id}/{token}/messages/{message_id}", api.delete_webhook_message),
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

    fake: LocalDiscord

    def _guild(self, request: web.Request) -> Guild:
        guild = next((g for g in self.fake.guilds if g.id == _snowflake(request, "guild_id")), None)
        if guild is None:
            raise DiscordError(404, 10004, "Unknown Guild")
        return guild

    def _event(self, request: web.Request) -> tuple[Guild, dict[str, Any]]:
        guild = self._guild(request)
        event = guild.scheduled_events.get(_snowflake(request, "event_id"))
        if event is None:
            raise DiscordError(404, 10070, "Unknown Guild Scheduled Event")
        return guild, event

    def _may_plan(self, guild: Guild) -> None:
        perms = guild.bot_member.permissions
        if not perms & (Perm.CREATE_EVENTS | Perm.MANAGE_EVENTS | Perm.ADMINISTRATOR):
            raise DiscordError(403, 50013, "Missing Permissions")

    def _changed(self, guild: Guild, event: dict[str, Any], kind: str) -> web.Response:
        self.fake.broadcast(f"GUILD_SCHEDULED_EVENT_{kind}", event, guild_id=guild.id)
        self.fake.world_changed()
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
        event = new_event(self.fake.ids.next(), guild.id, self.fake.bot_user.user_json(), body)
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

    def __init__(self, fake: LocalDiscord) -> None:
        self.fake = fake

    # -- users, application, gateway --------------------------------------------------------------------------

    async def get_me(self, request: web.Request) -> web.Response:
        """The bot's own user."""
        return json_response(self.fake.bot_user.user_json() | {"verified": True, "mfa_enabled": False, "email": None})

    async def get_user(self, request: web.Request) -> web.Response:
        """Any known user."""
        user = self.fake.users.get(_snowflake(request, "user_id"))
        if user is None:
            raise DiscordError(404, 10013, "Unknown User")
        return json_response(user.user_json())

    async def create_dm(self, request: web.Request) -> web.Response:
        """Open (or get) the DM channel with a user."""
        user = self.fake.users.get(int((request[BODY] or {}).get("recipient_id", 0)))
        if user is None or user.bot:
            raise DiscordError(400, 50007, "Cannot send messages to this user")
        return json_response(self.fake.dm_channel(user).to_json())

    async def get_application(self, request: web.Request) -> web.Response:
        """The application behind the bot token."""
        fake = self.fake
        return json_response(
            {
                "id": str(fake.application_id),
                "name": fake.bot_user.name,
                "icon": None,
                "description": "",
                "summary": "",
                "type": None,
                "bot_public": True,
                "bot_require_code_grant": False,
                "verify_key": "0" * 64,
                "flags": fake.application_flags,
                "owner": (fake.members or [fake.dm_user])[0].user_json(),
                "team": None,
                "bot": fake.bot_user.user_json(),
                "hook": True,
                "redirect_uris": [],
                "interactions_endpoint_url": None,
                "rpc_origins": [],
                "tags": [],
                "approximate_guild_count": len(fake.guilds),
                "integration_types_config": {"0": {}},
            }
        )

    async def get_gateway(self, request: web.Request) -> web.Response:
        """Where the Gateway is."""
        return json_response({"url": self.fake.base_url.replace("http://", "ws://", 1) + "/gateway"})

    async def get_gateway_bot(self, request: web.Request) -> web.Response:
        """Where the Gateway is, with the recommended shard count (AutoShardedBot asks this) and the limits on
        starting sessions (``max_concurrency``)."""
        url = self.fake.base_url.replace("http://", "ws://", 1) + "/gateway"
        limit = self.fake.session_starts.limit()
        return json_response({"url": url, "shards": self.fake.shard_count, "session_start_limit": limit})

    # -- application commands ---------------------------------------------------------------------------------

    def _command_list(self, request: web.Request) -> tuple[list[dict[str, Any]], int | None]:
        if _snowflake(request, "app_id") != self.fake.application_id:
            raise DiscordError(403, 50001, "Missing Access")
        if "guild_id" not in request.match_info:
            return self.fake.global_commands, None
        guild_id = _snowflake(request, "guild_id")
        if all(guild_id != g.id for g in self.fake.guilds):
            raise DiscordError(403, 50001, "Missing Access")
        return self.fake.guild_commands.get(guild_id, []), guild_id

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
            self.fake.global_commands = synced
        else:
            self.fake.guild_commands[guild_id] = synced
        self.fake.world_changed()
        return json_response(synced)

    def _normalise_command(
        self, command: dict[str, Any], old_ids: dict[tuple[int, str], str], guild_id: int | None
    ) -> dict[str, Any]:
        kind = command.get("type", 1)
        data: dict[str, Any] = {
            "id": old_ids.get((kind, command["name"])) or str(self.fake.ids.next()),
            "application_id": str(self.fake.application_id),
            "version": str(self.fake.ids.next()),
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

    # -- interaction responses --------------------------------------------------------------------------------

    async def callback(self, request: web.Request) -> web.Response:
        """The initial response: accepted once, within the deadline, with a type valid for the interaction."""
        fake = self.fake
        res = fake.interactions.get(_snowflake(request, "interaction_id"))
        if res is None or res.token != request.match_info["token"]:
            raise DiscordError(404, 10062, "Unknown interaction")
        request[INTERACTION] = res
        if fake.take_callback_500():
            return error_response(500, 0, "500: Internal Server Error")
        if res.response_type is not None:
            raise DiscordError(400, 40060, "Interaction has already been acknowledged.")
        late = now() - res.deadline
        if late > 0:
            raise DiscordError(404, 10062, f"Unknown interaction (answered {late * 1000:.0f} ms after the deadline)")
        body = request[BODY] or {}
        kind, data = int(body.get("type") or 0), body.get("data") or {}
        allowed = ALLOWED_CALLBACKS.get(res.type, set())
        if res.type == InteractionType.MODAL_SUBMIT and res.source is None:
            allowed = {CallbackType.CHANNEL_MESSAGE, CallbackType.DEFERRED_CHANNEL_MESSAGE}
        if kind not in allowed:
            form = FormErrors()
            form.add(("type",), "INTERACTION_RESPONSE_TYPE_INVALID", f"type {kind} is not valid for this interaction")
            form.raise_if_any()
        message = self._apply_callback(request, res, kind, data)
        fake.acknowledge(res, kind, data, message)
        interaction: dict[str, Any] = {
            "id": str(res.id),
            "type": res.type,
            "response_message_loading": kind == CallbackType.DEFERRED_CHANNEL_MESSAGE,
            "response_message_ephemeral": bool(message and message.ephemeral),
        }
        resource: dict[str, Any] = {"type": kind}
        if message is not None and kind != CallbackType.DEFERRED_UPDATE_MESSAGE:
            interaction["response_message_id"] = str(message.id)
            resource["message"] = self.fake.cdn.for_bot(message.data)
        return json_response({"interaction": interaction, "resource": resource})

    def _apply_callback(
        self, request: web.Request, res: InteractionResult, kind: int, data: dict[str, Any]
    ) -> Message | None:
        fake = self.fake
        message_type = 20 if res.type == InteractionType.APPLICATION_COMMAND else 0  # CHAT_INPUT_COMMAND / DEFAULT
        if kind == CallbackType.CHANNEL_MESSAGE:
            check_message(data, files=len(request[FILES]))
            attachments = self._attachments(request, res.channel, data)
            return fake.create_message(
                res.channel, data, attachments=attachments, interaction=res, message_type=message_type
            )
        if kind == CallbackType.DEFERRED_CHANNEL_MESSAGE:
            flags = {"flags": (data.get("flags") or 0) & 64}
            return fake.create_message(
                res.channel, flags, interaction=res, message_type=message_type, extra_flags=LOADING
            )
        if kind == CallbackType.UPDATE_MESSAGE:
            assert res.source is not None
            check_message(data, files=len(request[FILES]), creating=False)
            return fake.edit_message(res.source, data, self._attachments(request, res.channel, data))
        if kind == CallbackType.MODAL:
            check_modal(data)
            res.modal = data
        if kind == CallbackType.AUTOCOMPLETE_RESULT:
            check_choices(data)
        return res.source if kind == CallbackType.DEFERRED_UPDATE_MESSAGE else None

    def _interaction_for_webhook(self, request: web.Request) -> InteractionResult:
        res = self.fake.interactions_by_token.get(request.match_info["token"])
        if res is None or _snowflake(request, "app_id") != self.fake.application_id:
            raise DiscordError(404, 10015, "Unknown Webhook")
        request[INTERACTION] = res
        if res.response_type is None:
            # Discord creates the interaction webhook only once the interaction is acknowledged.
            raise DiscordError(404, 10015, "Unknown Webhook")
        return res

    async def followup(self, request: web.Request) -> web.StreamResponse:
        """A follow-up message; the first one after a deferred response fills in the deferred message instead."""
        res = self._interaction_for_webhook(request)
        payload = request[BODY] or {}
        check_message(payload, files=len(request[FILES]))
        attachments = self._attachments(request, res.channel, payload)
        if res.original is not None and res.original.loading:
            message = self.fake.edit_message(
                res.original, {k: v for k, v in payload.items() if k != "flags"}, attachments
            )
        else:
            if not self.fake.bot_sees(res.channel) and len(res.followup_messages) >= USER_ONLY_FOLLOWUPS:
                raise DiscordError(400, 40094, "This interaction has hit the maximum number of follow up messages")
            message = self.fake.create_message(res.channel, payload, attachments=attachments, interaction=res)
            res.followup_messages.append(message)
            self.fake.notify()
        if request.query.get("wait", "false").lower() in ("true", "1"):
            return json_response(self.fake.cdn.for_bot(message.data))
        return web.Response(status=204)

    def _webhook_message(self, request: web.Request) -> tuple[InteractionResult, Message]:
        res = self._interaction_for_webhook(request)
        key = request.match_info["message_id"]
        if key == "@original":
            message = res.original
        else:
            wanted = int(key) if key.isdigit() else -1
            message = next((m for m in [res.original, *res.followup_messages] if m and m.id == wanted), None)
        if message is None or message.deleted:
            raise DiscordError(404, 10008, "Unknown Message")
        return res, message

    async def get_webhook_message(self, request: web.Request) -> web.Response:
        """The original response or a follow-up."""
        return json_response(self.fake.cdn.for_bot(self._webhook_message(request)[1].data))

    async def edit_webhook_message(self, request: web.Request) -> web.Response:
        """Edit the original response or a follow-up (filling in a deferred response)."""
        res, message = self._webhook_message(request)
        return json_response(self.fake.cdn.for_bot(self._edit(request, message, res.channel).data))

    async def delete_webhook_message(self, request: web.Request) -> web.Response:
        """Delete the original response or a follow-up."""
        _, message = self._webhook_message(request)
        self.fake.remove_message(message)
        return web.Response(status=204)

    # -- channels and messages --------------------------------------------------------------------------------

    def _channel(self, request: web.Request) -> Channel:
        channel = self.fake.channel(_snowflake(request, "channel_id"))
        if channel is None:
            raise DiscordError(404, 10003, "Unknown Channel")
        if not self.fake.bot_sees(channel):
            # A server without the bot, a DM or group DM between users: a member's install answers interactions
            # there, through them alone; the bot can neither read nor post.
            raise DiscordError(403, 50001, "Missing Access")
        return channel

    def _require(self, channel: Channel, permissions: int) -> None:
        if self.fake.bot_permissions(channel) & permissions != permissions:
            raise DiscordError(403, 50013, "Missing Permissions")

    def _channel_message(self, request: web.Request) -> tuple[Channel, Message]:
        channel = self._channel(request)
        message = self.fake.message(_snowflake(request, "message_id"))
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
        self.fake.broadcast(
            "THREAD_UPDATE" if is_thread else "CHANNEL_UPDATE", channel.to_json(), guild_id=channel.guild_id
        )
        self.fake.channel_changed(channel)
        return json_response(channel.to_json())

    async def list_messages(self, request: web.Request) -> web.Response:
        """Channel history, newest first (limit/before/after)."""
        channel = self._channel(request)
        if not channel.is_dm:
            self._require(channel, Perm.VIEW_CHANNEL | Perm.READ_MESSAGE_HISTORY)
        limit = min(max(int(request.query.get("limit", 50)), 1), 100)
        history = self.fake.messages(channel)
        if "before" in request.query:
            history = [m for m in history if m.id < int(request.query["before"])]
        if "after" in request.query:
            history = [m for m in history if m.id > int(request.query["after"])][:limit]
        return json_response([self.fake.cdn.for_bot(m.data) for m in reversed(history[-limit:])])

    async def create_message(self, request: web.Request) -> web.Response:
        """The bot posts in a channel it may send to."""
        channel = self._channel(request)
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
            made = self.fake.message_with_nonce(channel, str(nonce))
            if made is not None:
                return json_response(self.fake.cdn.for_bot(made.data) | {"nonce": nonce})
        message = self.fake.create_message(channel, payload, attachments=self._attachments(request, channel, payload))
        if nonce is not None:
            self.fake.remember_nonce(channel, str(nonce), message)
            return json_response(self.fake.cdn.for_bot(message.data) | {"nonce": nonce})
        return json_response(self.fake.cdn.for_bot(message.data))

    async def get_message(self, request: web.Request) -> web.Response:
        """One message."""
        return json_response(self.fake.cdn.for_bot(self._channel_message(request)[1].data))

    async def edit_message(self, request: web.Request) -> web.Response:
        """Edit one of the bot's messages."""
        channel, message = self._channel_message(request)
        if message.author_id != self.fake.bot_user_id:
            raise DiscordError(403, 50005, "Cannot edit a message authored by another user")
        return json_response(self.fake.cdn.for_bot(self._edit(request, message, channel).data))

    async def delete_message(self, request: web.Request) -> web.Response:
        """Delete a message (the bot's own, or any with Manage Messages)."""
        channel, message = self._channel_message(request)
        if message.author_id != self.fake.bot_user_id:
            self._require(channel, Perm.MANAGE_MESSAGES)
        self.fake.remove_message(message)
        return web.Response(status=204)

    def _edit(self, request: web.Request, message: Message, channel: Channel) -> Message:
        payload = request[BODY] or {}
        check_message(payload, files=len(request[FILES]), creating=False)
        merged = {k: payload.get(k, message.data.get(k)) for k in ("content", "embeds", "components", "attachments")}
        if not any(merged.values()) and not request[FILES]:
            raise DiscordError(400, 50006, "Cannot send an empty message")
        return self.fake.edit_message(message, payload, self._attachments(request, channel, payload))

    def _attachments(self, request: web.Request, channel: Channel, payload: dict[str, Any]) -> list[dict[str, Any]]:
        """The files uploaded with ``payload``, stored, each with the description (alt text) that ``payload``'s
        ``attachments`` gives the upload (``files[n]`` is the attachment whose id is n)."""
        described = {str(a.get("id")): a.get("description") for a in payload.get("attachments") or []}
        stored = []
        for upload in request[FILES]:
            index = str(upload["field"]).removeprefix("files[").removesuffix("]")
            stored.append(
                self.fake.store_upload(
                    channel, upload["filename"], upload["content"], upload["content_type"], described.get(index)
                )
            )
        return stored

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
        self.fake.message_changed(message)
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
        return json_response(self._new_thread(request, channel, self.fake.ids.next(), kind).to_json())

    def _new_thread(self, request: web.Request, parent: Channel, thread_id: int, kind: int) -> Channel:
        name = (request[BODY] or {}).get("name") or ""
        if not 1 <= len(name) <= 100:
            raise DiscordError(
                400, 50035, "Invalid Form Body", {"name": {"_errors": [{"code": "BASE_TYPE_BAD_LENGTH"}]}}
            )
        fake = self.fake
        thread = Channel(
            thread_id, name, type=kind, guild_id=parent.guild_id, parent_id=parent.id, owner_id=fake.bot_user_id
        )
        fake.threads.append(thread)
        fake.broadcast("THREAD_CREATE", thread.to_json() | {"newly_created": True}, guild_id=parent.guild_id)
        fake.channel_changed(thread)
        return thread

    async def thread_member(self, request: web.Request) -> web.Response:
        """Add someone to, or remove them from, a thread."""
        thread = self._channel(request)
        if thread.type not in ChannelType.THREADS or _snowflake(request, "user_id") not in self.fake.users:
            raise DiscordError(404, 10003, "Unknown Channel")
        return web.Response(status=204)


def _text_or_none(value: Any) -> str | None:
    """A permission bit set as Discord returns it: a string (it accepts a number too)."""
    return None if value is None else str(value)


def _snowflake(request: web.Request, key: str) -> int:
    value = request.match_info[key]
    return int(value) if value.isdigit() else -1
