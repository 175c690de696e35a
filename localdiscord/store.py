"""The messages the bot made, as Discord keeps them: by id and by channel, with their uploaded files and the
nonces that make a send happen once."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from localdiscord.cdn import Cdn
from localdiscord.changes import Changes
from localdiscord.guild import Channel, Member
from localdiscord.interactions import InteractionResult, InteractionType, command_line, interaction_metadata
from localdiscord.messages import SETTABLE_FLAGS, Message, compute_mentions
from localdiscord.snowflakes import timestamp_of
from localdiscord.state import World

NONCE_WINDOW_S = 300.0
"""How long Discord remembers a message's nonce (``enforce_nonce``): "the past few minutes"."""


class MessageStore:
    """Every message (ephemeral and deleted ones too) and every uploaded file, and how they change."""

    def __init__(self, world: World, cdn: Cdn, changes: Changes) -> None:
        self.world = world
        self.cdn = cdn
        self.changes = changes
        self._messages: dict[int, Message] = {}
        self._channel_messages: dict[int, list[Message]] = {}
        self._nonces: dict[tuple[int, str], tuple[Message, float]] = {}

    def forget(self) -> None:
        """Drop every message, upload and nonce."""
        self._messages.clear()
        self._channel_messages.clear()
        self.world.uploads.clear()
        self.cdn.places.clear()
        self._nonces.clear()

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

        return await self.changes.wait_for(find, timeout, what=f"a message in #{channel.name}")

    def attachment_bytes(self, attachment: dict[str, Any]) -> bytes:
        """The content of an attachment of a stored message (``message.attachments[i]``), as the bot uploaded it."""
        return self.world.uploads[int(attachment["id"])]

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
        attachment_id = self.world.ids.next()
        self.world.uploads[attachment_id] = content
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
        self.changes.message_changed(message)

    def _forget_uploads(self, attachments: list[dict[str, Any]]) -> None:
        # A long-running server keeps only the files some message still shows; tests keep them all to read them.
        if self.world.long_running:
            for attachment in attachments:
                self.world.uploads.pop(int(attachment["id"]), None)
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
        message_id = self.world.ids.next()
        flags = ((payload.get("flags") or 0) & SETTABLE_FLAGS) | extra_flags
        data: dict[str, Any] = {
            "id": str(message_id),
            "channel_id": str(channel.id),
            "author": self.world.bot_user.user_json(),
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
            data["webhook_id"] = str(self.world.application_id)
            data["application_id"] = str(self.world.application_id)
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
        self.changes.message_changed(message)
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
            data["edited_timestamp"] = timestamp_of(self.world.ids.next())
        message.edits += 1
        self.cdn.shown(message)
        self.changes.message_changed(message)
        return message

    def _mentions(self, content: str, allowed: dict[str, Any] | None) -> dict[str, Any]:
        return compute_mentions(
            content, allowed, self.world.users, {r.id: r for g in self.world.guilds for r in g.roles}
        )
