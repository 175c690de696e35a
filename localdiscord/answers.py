"""The bot's answers to interactions: the initial response (``/interactions/{id}/{token}/callback``) and the
interaction webhook's messages (follow-ups, the original response), each checked as Discord checks it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from aiohttp import web

from localdiscord.edge import BODY, FILES, INTERACTION, snowflake
from localdiscord.installs import USER_ONLY_FOLLOWUPS
from localdiscord.interactions import ALLOWED_CALLBACKS, CallbackType, InteractionResult, InteractionType, now
from localdiscord.messages import LOADING, Message
from localdiscord.responses import DiscordError, error_response, json_response
from localdiscord.validation import FormErrors, check_choices, check_message, check_modal

if TYPE_CHECKING:
    from localdiscord.cdn import Cdn
    from localdiscord.changes import Changes
    from localdiscord.client import Client
    from localdiscord.guild import Channel
    from localdiscord.state import World
    from localdiscord.store import MessageStore
    from localdiscord.weather import Weather


class InteractionAnswers:
    """The routes by which the bot answers interactions: once through the callback, then through the webhook."""

    def __init__(
        self, world: World, store: MessageStore, client: Client, cdn: Cdn, weather: Weather, changes: Changes
    ) -> None:
        self.world = world
        self.store = store
        self.client = client
        self.cdn = cdn
        self.weather = weather
        self.changes = changes

    async def callback(self, request: web.Request) -> web.Response:
        """The initial response: accepted once, within the deadline, with a type valid for the interaction."""
        res = self.client.interactions.get(snowflake(request, "interaction_id"))
        if res is None or res.token != request.match_info["token"]:
            raise DiscordError(404, 10062, "Unknown interaction")
        request[INTERACTION] = res
        if self.weather.take_callback_500():
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
        self.client.acknowledge(res, kind, data, message)
        interaction: dict[str, Any] = {
            "id": str(res.id),
            "type": res.type,
            "response_message_loading": kind == CallbackType.DEFERRED_CHANNEL_MESSAGE,
            "response_message_ephemeral": bool(message and message.ephemeral),
        }
        resource: dict[str, Any] = {"type": kind}
        if message is not None and kind != CallbackType.DEFERRED_UPDATE_MESSAGE:
            interaction["response_message_id"] = str(message.id)
            resource["message"] = self.cdn.for_bot(message.data)
        return json_response({"interaction": interaction, "resource": resource})

    def _apply_callback(
        self, request: web.Request, res: InteractionResult, kind: int, data: dict[str, Any]
    ) -> Message | None:
        message_type = 20 if res.type == InteractionType.APPLICATION_COMMAND else 0  # CHAT_INPUT_COMMAND / DEFAULT
        if kind == CallbackType.CHANNEL_MESSAGE:
            check_message(data, files=len(request[FILES]))
            attachments = uploaded(self.store, request, res.channel, data)
            return self.store.create_message(
                res.channel, data, attachments=attachments, interaction=res, message_type=message_type
            )
        if kind == CallbackType.DEFERRED_CHANNEL_MESSAGE:
            flags = {"flags": (data.get("flags") or 0) & 64}
            return self.store.create_message(
                res.channel, flags, interaction=res, message_type=message_type, extra_flags=LOADING
            )
        if kind == CallbackType.UPDATE_MESSAGE:
            assert res.source is not None
            check_message(data, files=len(request[FILES]), creating=False)
            return self.store.edit_message(res.source, data, uploaded(self.store, request, res.channel, data))
        if kind == CallbackType.MODAL:
            check_modal(data)
            res.modal = data
        if kind == CallbackType.AUTOCOMPLETE_RESULT:
            check_choices(data)
        return res.source if kind == CallbackType.DEFERRED_UPDATE_MESSAGE else None

    def _interaction_for_webhook(self, request: web.Request) -> InteractionResult:
        res = self.client.interactions_by_token.get(request.match_info["token"])
        if res is None or snowflake(request, "app_id") != self.world.application_id:
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
        attachments = uploaded(self.store, request, res.channel, payload)
        if res.original is not None and res.original.loading:
            message = self.store.edit_message(
                res.original, {k: v for k, v in payload.items() if k != "flags"}, attachments
            )
        else:
            if not self.world.bot_sees(res.channel) and len(res.followup_messages) >= USER_ONLY_FOLLOWUPS:
                raise DiscordError(400, 40094, "This interaction has hit the maximum number of follow up messages")
            message = self.store.create_message(res.channel, payload, attachments=attachments, interaction=res)
            res.followup_messages.append(message)
            self.changes.notify()
        if request.query.get("wait", "false").lower() in ("true", "1"):
            return json_response(self.cdn.for_bot(message.data))
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
        return json_response(self.cdn.for_bot(self._webhook_message(request)[1].data))

    async def edit_webhook_message(self, request: web.Request) -> web.Response:
        """Edit the original response or a follow-up (filling in a deferred response)."""
        res, message = self._webhook_message(request)
        return json_response(self.cdn.for_bot(edited(self.store, request, message, res.channel).data))

    async def delete_webhook_message(self, request: web.Request) -> web.Response:
        """Delete the original response or a follow-up."""
        _, message = self._webhook_message(request)
        self.store.remove_message(message)
        return web.Response(status=204)


def edited(store: MessageStore, request: web.Request, message: Message, channel: Channel) -> Message:
    """Apply the edit ``request`` asks for to ``message`` (checked as Discord checks it), with its new files."""
    payload = request[BODY] or {}
    check_message(payload, files=len(request[FILES]), creating=False)
    merged = {k: payload.get(k, message.data.get(k)) for k in ("content", "embeds", "components", "attachments")}
    if not any(merged.values()) and not request[FILES]:
        raise DiscordError(400, 50006, "Cannot send an empty message")
    return store.edit_message(message, payload, uploaded(store, request, channel, payload))


def uploaded(
    store: MessageStore, request: web.Request, channel: Channel, payload: dict[str, Any]
) -> list[dict[str, Any]]:
    """The files uploaded with ``payload``, stored, each with the description (alt text) that ``payload``'s
    ``attachments`` gives the upload (``files[n]`` is the attachment whose id is n)."""
    described = {str(a.get("id")): a.get("description") for a in payload.get("attachments") or []}
    stored = []
    for upload in request[FILES]:
        index = str(upload["field"]).removeprefix("files[").removesuffix("]")
        stored.append(
            store.store_upload(
                channel, upload["filename"], upload["content"], upload["content_type"], described.get(index)
            )
        )
    return stored
