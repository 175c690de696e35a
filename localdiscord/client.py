"""Every member's Discord client: their commands, autocompletes, clicks, selects and forms become interactions
sent to the bot, kept (by id and by token) with what the bot answered."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from localdiscord.cdn import Cdn
from localdiscord.changes import Changes
from localdiscord.gateway import Session
from localdiscord.guild import Channel, Member
from localdiscord.installs import authorising, context_of, unavailable
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
from localdiscord.messages import Message
from localdiscord.state import World
from localdiscord.store import MessageStore

INTERACTION_LIFETIME = 15 * 60  # seconds: Discord's interaction tokens last 15 minutes


class Client:
    """What members do in Discord's client, sent to the bot as interactions, and the interactions themselves."""

    def __init__(
        self,
        world: World,
        store: MessageStore,
        cdn: Cdn,
        changes: Changes,
        *,
        sessions_for: Callable[[int | None], list[Session]],
        response_deadline: float,
    ) -> None:
        self.world = world
        self.store = store
        self.cdn = cdn
        self.changes = changes
        self.sessions_for = sessions_for
        """The sessions an interaction in a guild (None: a DM) is delivered to."""
        self.response_deadline = response_deadline
        self.interactions: dict[int, InteractionResult] = {}
        self.interactions_by_token: dict[str, InteractionResult] = {}

    def forget(self) -> None:
        """Drop every interaction."""
        self.interactions.clear()
        self.interactions_by_token.clear()

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
        schema = find_command(self.world.commands_for(channel), parts[0])
        if schema is None:
            self.changes.fail(
                f"/{parts[0]} is not a synced command (synced: {[c['name'] for c in self.world.commands]})"
            )
            raise LookupError(f"/{parts[0]} is not a synced command")
        res = self._new_interaction(InteractionType.APPLICATION_COMMAND, channel, member)
        refusal = self._command_refusal(schema, channel, member)
        if refusal:
            res.errors.append(refusal)
            return res
        try:
            data = build_command_data(
                self.world, self.store, schema, parts[1:], options or {}, channel, client_checks=client_checks
            )
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
        schema = find_command(self.world.commands_for(channel), parts[0])
        if schema is None:
            raise LookupError(f"/{parts[0]} is not a synced command")
        res = self._new_interaction(InteractionType.AUTOCOMPLETE, channel, member)
        data = build_command_data(
            self.world,
            self.store,
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

    def offered(self, channel: Channel, member: Member) -> list[str]:
        """The commands Discord's client offers ``member`` in ``channel``, by name (``localdiscord.installs``)."""
        return [
            c["name"] for c in self.world.commands_for(channel) if self._command_refusal(c, channel, member) is None
        ]

    def _command_refusal(self, schema: dict[str, Any], channel: Channel, member: Member) -> str | None:
        name = schema["name"]
        missing = unavailable(schema, self.world, channel, member)
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
        source = self.store.message(message.id)
        if source is None or source.deleted:
            raise LookupError(f"message {message.id} does not exist (deleted?)")
        if source.ephemeral and source.viewer_id != member.id:
            raise ValueError(f"{member.name} cannot see ephemeral message {message.id}")
        return source

    def _new_interaction(
        self, kind: int, channel: Channel, member: Member, source: Message | None = None
    ) -> InteractionResult:
        return InteractionResult(self.changes, self.world.ids.next(), kind, channel, member, source=source)

    def _dispatch(self, res: InteractionResult, data: dict[str, Any]) -> None:
        res.payload = self._interaction_payload(res, data)
        for attachment_id in (data.get("resolved") or {}).get("attachments") or {}:
            self.cdn.attached_by(int(attachment_id), res.member)  # the member's file: theirs and the bot's alone
        targets = self.sessions_for(res.channel.guild_id)
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
        if not self.world.long_running:
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
        schema = find_command(self.world.commands_for(res.channel), name) if name else None
        if schema is not None:
            return authorising(schema, self.world, res.channel, res.member)
        return {"0": str(res.channel.guild_id or 0)}  # a message the bot posted itself: where it is installed

    def _interaction_payload(self, res: InteractionResult, data: dict[str, Any]) -> dict[str, Any]:
        channel, member = res.channel, res.member
        owners = self._owners(res, data)
        payload: dict[str, Any] = {
            "id": str(res.id),
            "application_id": str(self.world.application_id),
            "type": res.type,
            "data": data,
            "token": res.token,
            "version": 1,
            "channel_id": str(channel.id),
            "locale": member.locale,
            "entitlements": [],
            "entitlement_sku_ids": [],
            "attachment_size_limit": FILE_LIMIT,
            "app_permissions": str(self.world.bot_permissions(channel)),
        }
        payload |= {"context": context_of(channel), "authorizing_integration_owners": owners}
        if channel.guild_id is None:
            payload |= {"user": member.user_json(), "channel": channel.to_json()}
        else:
            guild = self.world.guild_of(channel)
            assert guild is not None
            payload |= {
                "guild_id": str(guild.id),
                "guild": {"id": str(guild.id), "locale": guild.preferred_locale, "features": []},
                "guild_locale": guild.preferred_locale,
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
        self.changes.notify()
